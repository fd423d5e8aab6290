"""Every game the service hosts, by slug."""

from __future__ import annotations

from collections.abc import Mapping

from rules.chemistry_battle import GAME as CHEMISTRY_BATTLE
from rules.core import Game
from rules.element_draft import GAME as ELEMENT_DRAFT
from rules.polymer import GAME as POLYMER


def _index(*games: Game) -> Mapping[str, Game]:
    return {g.info.slug: g for g in games}


GAMES: Mapping[str, Game] = _index(ELEMENT_DRAFT, POLYMER, CHEMISTRY_BATTLE)


def get(slug: str) -> Game:
    return GAMES[slug]
