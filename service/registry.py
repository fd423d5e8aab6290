"""The games served over HTTP: each rules game with its HTTP schemas."""

from __future__ import annotations

from .play import GameApi
from .polymer.blueprint import API as POLYMER
from .schemas.element_draft import API as ELEMENT_DRAFT
from .schemas.polymerization import API as POLYMERIZATION


def game_apis() -> dict[str, GameApi]:
    return {api.slug: api for api in (ELEMENT_DRAFT, POLYMER, POLYMERIZATION)}
