"""Every game the service hosts, by slug (one line per game, in the catalogue's order)."""

from __future__ import annotations

from collections.abc import Mapping

from rules.chemistry_battle import GAME as CHEMISTRY_BATTLE
from rules.chemistry_canasta import GAME as CHEMISTRY_CANASTA
from rules.compound_capture import GAME as COMPOUND_CAPTURE
from rules.core import GameRules
from rules.element_draft import GAME as ELEMENT_DRAFT
from rules.metal_vs_nonmetal import GAME as METAL_VS_NONMETAL
from rules.polymer import GAME as POLYMER
from rules.polymerization import GAME as POLYMERIZATION

GAMES: Mapping[str, GameRules] = {
    game.info.slug: game
    for game in (
        ELEMENT_DRAFT,
        POLYMER,
        CHEMISTRY_BATTLE,
        COMPOUND_CAPTURE,
        CHEMISTRY_CANASTA,
        METAL_VS_NONMETAL,
        POLYMERIZATION,
    )
}


def get(slug: str) -> GameRules:
    return GAMES[slug]
