"""The games the service hosts: every registered rules game, as it is served.

Nothing here is written per game: a game's schemas, its endpoints in both play
modes and its examples all come from its rules package (``GameRules``: the declared
wire shapes, a real-time game's clock, its own extra operations).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rules.core import JSON, Clock, GameInfo, GameRules, State
from rules.registry import GAMES

from .schemas.contract import GameDocs, game_docs
from .schemas.derive import pascal


@dataclass(frozen=True)
class GameApi:
    """A registered game as the service serves it."""

    game: GameRules

    @property
    def info(self) -> GameInfo:
        return self.game.info

    @property
    def slug(self) -> str:
        return self.game.info.slug

    @property
    def name(self) -> str:
        """The game's name in the contract (``ElementDraft``)."""
        return pascal(self.slug)

    @property
    def clock(self) -> Clock | None:
        return self.game.clock

    @property
    def stateless(self) -> bool:
        """Whether the game is also played statelessly (not a game with a clock: its
        time must be the server's)."""
        return self.game.clock is None

    @property
    def bots_allowed(self) -> bool:
        """Whether the service may play seats of this game: a turn-based game's after
        each move; a real-time game's on the server's clock, if it paces its bots."""
        clock = self.game.clock
        return clock is None or clock.pace is not None

    def move_space(self, state: State, seat: int) -> JSON | None:
        """What ``legal_moves`` leaves out for ``seat`` now (``rules.wire.MoveSpace``):
        the game's words and how to build each such move (no forms while the seat must
        wait); None for a game whose list is its whole move space."""
        game = self.game
        if game.wire.move_space is None and game.move_forms is None:
            return None
        forms = game.move_forms if seat in game.to_act(state) else None
        return {
            "description": game.wire.move_space or "",
            "forms": forms(state, seat) if forms is not None else [],
        }

    def legal(self, state: State, seat: int) -> dict[str, Any]:
        """What ``POST .../legal-moves`` answers about ``state`` (without its
        ``version``): every move ``seat`` may make now, none while it must wait, and
        ``move_space``. A seat's stream with ``legal_moves=true`` sends the same."""
        game = self.game
        moves = game.legal_moves(state, seat) if seat in game.to_act(state) else []
        return {"seat": seat, "moves": moves, "move_space": self.move_space(state, seat)}

    @property
    def example(self) -> dict[str, Any]:
        """A small setup request that plays reproducibly (the contract's examples):
        the game's own, else its smallest table dealt from seed 1."""
        return dict(self.game.wire.example) or {"players": self.info.min_players, "seed": 1}

    @cached_property
    def docs(self) -> GameDocs:
        return game_docs(self.game)


def game_apis() -> dict[str, GameApi]:
    """Every game, by slug, in the catalogue's order."""
    return {slug: GameApi(game) for slug, game in GAMES.items()}
