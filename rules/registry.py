"""Every game the service hosts, by slug."""

from __future__ import annotations

from collections.abc import Mapping

from rules.chemistry_canasta import GAME as CHEMISTRY_CANASTA
from rules.compound_capture import GAME as COMPOUND_CAPTURE
from rules.core import Game
from rules.element_draft import GAME as ELEMENT_DRAFT
from rules.metal_vs_nonmetal import GAME as METAL_VS_NONMETAL
from rules.polymer import GAME as POLYMER


def _index(*games: Game) -> Mapping[str, Game]:
    return {g.info.slug: g for g in games}


GAMES: Mapping[str, Game] = _index(
    ELEMENT_DRAFT, POLYMER, METAL_VS_NONMETAL, COMPOUND_CAPTURE, CHEMISTRY_CANASTA
)


def get(slug: str) -> Game:
    return GAMES[slug]
