"""The games served over HTTP: each rules game with its HTTP schemas."""

from __future__ import annotations

from .play import GameApi
from .polymer.blueprint import API as POLYMER
from .schemas.chemistry_canasta import API as CHEMISTRY_CANASTA
from .schemas.compound_capture import API as COMPOUND_CAPTURE
from .schemas.element_draft import API as ELEMENT_DRAFT
from .schemas.metal_vs_nonmetal import API as METAL_VS_NONMETAL


def game_apis() -> dict[str, GameApi]:
    games = (ELEMENT_DRAFT, POLYMER, METAL_VS_NONMETAL, COMPOUND_CAPTURE, CHEMISTRY_CANASTA)
    return {api.slug: api for api in games}
