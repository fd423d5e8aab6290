"""The games served over HTTP: each rules game with its HTTP schemas."""

from __future__ import annotations

from .play import GameApi
from .polymer.blueprint import API as POLYMER
from .schemas.chemistry_battle import API as CHEMISTRY_BATTLE
from .schemas.element_draft import API as ELEMENT_DRAFT


def game_apis() -> dict[str, GameApi]:
    return {api.slug: api for api in (ELEMENT_DRAFT, POLYMER, CHEMISTRY_BATTLE)}
