"""The games served over HTTP: each rules game with its HTTP schemas (one line per game)."""

from __future__ import annotations

from .play import GameApi
from .polymer.blueprint import API as POLYMER
from .schemas.chemistry_battle import API as CHEMISTRY_BATTLE
from .schemas.chemistry_canasta import API as CHEMISTRY_CANASTA
from .schemas.compound_capture import API as COMPOUND_CAPTURE
from .schemas.element_draft import API as ELEMENT_DRAFT
from .schemas.metal_vs_nonmetal import API as METAL_VS_NONMETAL
from .schemas.polymerization import API as POLYMERIZATION


def game_apis() -> dict[str, GameApi]:
    return {
        api.slug: api
        for api in (
            ELEMENT_DRAFT,
            POLYMER,
            CHEMISTRY_BATTLE,
            COMPOUND_CAPTURE,
            CHEMISTRY_CANASTA,
            METAL_VS_NONMETAL,
            POLYMERIZATION,
        )
    }
