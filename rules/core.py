"""The engine contract every game module implements.

A game is a module-level object satisfying :class:`Game`: pure functions over
JSON-ready state (``dict``/``list``/``str``/``int``/``float``/``bool``/``None``).
Nothing here touches the clock, the network or a global random generator; chance
lives in the state (see :mod:`rules.rng`) and time, where a game has it, arrives
as an explicit move from the caller.

>>> from rules.core import RuleViolation
>>> err = RuleViolation("not_in_hand", "Card 26 (Fe) is not in your hand.")
>>> err.code, str(err)
('not_in_hand', 'Card 26 (Fe) is not in your hand.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeAlias

State: TypeAlias = dict[str, Any]
Move: TypeAlias = dict[str, Any]
Event: TypeAlias = dict[str, Any]
JSON: TypeAlias = dict[str, Any]


class Dynamics(StrEnum):
    """How seats take their actions."""

    TURN_BASED = "turn-based"
    SIMULTANEOUS = "simultaneous"
    REAL_TIME = "real-time"


@dataclass(frozen=True)
class Option:
    """A setup option a teacher or a test may set; ``kind`` names its JSON shape."""

    name: str
    kind: str
    default: Any
    description: str
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True)
class GameInfo:
    """Declared facts about a game, served by ``GET /v1/games/<slug>``."""

    slug: str
    title: str
    seed_file: str
    min_players: int
    max_players: int
    dynamics: Dynamics
    has_chance: bool
    rules_version: int
    summary: str
    options: tuple[Option, ...] = ()
    bots: tuple[str, ...] = ("random", "greedy")
    player_counts: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    codes: Mapping[str, str] = field(default_factory=dict)


CORE_CODES: Mapping[str, str] = {
    "bad_players": "The player count is not a whole number in the game's range.",
    "unknown_option": "A setup option this game does not have.",
    "bad_option": "A setup option has the wrong type or an impossible value.",
    "seat_out_of_range": "The seat number is not at this table.",
    "unknown_move": "The move's type is not one this game knows.",
    "bad_move": "The move object is missing a field or has one of the wrong type.",
    "game_over": "The game has ended; no more moves are accepted.",
    "unknown_bot": "The bot name is not one this game offers.",
    "state_invalid": "The state breaks an invariant of the rules.",
}


class RuleViolation(Exception):
    """A move or input the rules refuse.

    ``code`` is stable and machine-readable; ``message`` tells a student what to
    do; ``rule`` quotes the seed sentence the refusal rests on, when there is one;
    ``status`` is the HTTP status the service maps it to (422 unless a conflict).
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        rule: str | None = None,
        status: int = 422,
        **details: Any,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.status = status
        self.details = details

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.message!r})"


@dataclass(frozen=True)
class Outcome:
    """Whether the game has ended, who won, and which tie-break decided it."""

    finished: bool
    winners: tuple[int, ...] = ()
    ranking: tuple[int, ...] = ()
    tie_break: str | None = None

    def to_json(self) -> JSON:
        return {
            "finished": self.finished,
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "tie_break": self.tie_break,
        }


class Game(Protocol):
    """What every registered game provides."""

    info: GameInfo

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        """Deal a new game; deterministic for a given ``seed``."""
        ...

    def parse_move(self, move: Mapping[str, Any]) -> Move:
        """Check a move object's shape; return it normalised or raise ``RuleViolation``."""
        ...

    def to_act(self, state: State) -> list[int]:
        """Seats that may act now (empty once the game is over)."""
        ...

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every move ``seat`` may make now; reuses the same checks as ``apply``."""
        ...

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """Return the new state and the events; never mutates ``state``."""
        ...

    def view(self, state: State, seat: int | None) -> JSON:
        """What ``seat`` (or an observer, ``None``) may see."""
        ...

    def scores(self, state: State) -> JSON:
        """Per-seat totals with per-category breakdown and evidence."""
        ...

    def outcome(self, state: State) -> Outcome:
        """Finished?, winners, ranking, tie-break applied."""
        ...

    def bot_move(self, state: State, seat: int, bot: str) -> tuple[Move, State]:
        """Choose a move for ``seat``; returns it and the state with the RNG advanced."""
        ...

    def check(self, state: State) -> None:
        """Raise ``RuleViolation('state_invalid', ...)`` if invariants do not hold."""
        ...

    def redeal_hidden(self, state: State, seat: int | None, seed: int) -> State:
        """``state`` with everything ``seat`` cannot see resampled (conformance tests:
        the view of ``seat`` must not change)."""
        ...


def check_seat(state: State, seat: int) -> None:
    """Refuse a seat number that is not at this table."""
    players = int(state["players"])
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise RuleViolation(
            "seat_out_of_range",
            f"Seat {seat!r} is not at this table; seats are numbered 0 to {players - 1}.",
            seat=seat,
        )


def check_players(info: GameInfo, players: object) -> int:
    """Refuse a player count outside the game's range."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise RuleViolation("bad_players", f"players must be a whole number, not {players!r}.")
    if not info.min_players <= players <= info.max_players:
        raise RuleViolation(
            "bad_players",
            f"{info.title} is played with {info.min_players}-{info.max_players} players, "
            f"not {players}.",
            players=players,
        )
    return players


def resolve_options(info: GameInfo, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and refuse unknown option names."""
    given = dict(options or {})
    known = {opt.name for opt in info.options}
    unknown = sorted(set(given) - known)
    if unknown:
        raise RuleViolation(
            "unknown_option",
            f"{info.title} has no option {', '.join(map(repr, unknown))}; "
            f"known options: {', '.join(sorted(known)) or 'none'}.",
            unknown=unknown,
        )
    return {opt.name: given.get(opt.name, opt.default) for opt in info.options}


def left_of(seat: int, players: int) -> int:
    """The seat to ``seat``'s left: seats are numbered clockwise, so left is ``seat + 1``."""
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    """The seat to ``seat``'s right."""
    return (seat - 1) % players


def neighbours(seat: int, players: int) -> Sequence[int]:
    """Left then right neighbour (the same seat twice at a two-player table)."""
    return (left_of(seat, players), right_of(seat, players))
