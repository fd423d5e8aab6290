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

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from rules.zones import Layout

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
    "bad_deal": "The custom deal is not one list of cards per seat as the game requires.",
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
    """Whether the game has ended, who won, the ranking with places, and the tie-break.

    ``places`` runs alongside ``ranking``: seats that share a place share its number
    and the next places are skipped (1, 1, 3).

    >>> Outcome(True, winners=(1, 0), ranking=(1, 0, 2), places=(1, 1, 3)).to_json()["places"]
    [1, 1, 3]
    """

    finished: bool
    winners: tuple[int, ...] = ()
    ranking: tuple[int, ...] = ()
    tie_break: str | None = None
    places: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.finished and len(self.places) != len(self.ranking):
            raise ValueError("an ended game's outcome gives a place to every ranked seat")

    def to_json(self) -> JSON:
        return {
            "finished": self.finished,
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "places": list(self.places),
            "tie_break": self.tie_break,
        }


@dataclass(frozen=True)
class GameRules:
    """What every registered game provides: its metadata and pure functions.

    A game module builds one of these from its functions (``GAME = GameRules(...)``);
    the service, the bots and the conformance tests only ever use this record.

    - ``setup(players, options, seed)``: deal a new game, deterministic for ``seed``.
    - ``parse_move(move)``: check a move object's shape; return it normalised, or raise
      ``RuleViolation`` (``unknown_move`` / ``bad_move``).
    - ``verify(state, seat, move)``: raise the ``RuleViolation`` that forbids a parsed
      ``move`` now, if any. Legality lives here only: ``apply`` and ``legal_moves``
      both call it (the verify / can / apply triad).
    - ``to_act(state)``: seats that may act now (empty once the game is over).
    - ``legal_moves(state, seat)``: every move ``seat`` may make now (where the space
      is finite), each passing ``verify``.
    - ``apply(state, seat, move)``: the new state and the events; never mutates.
    - ``view(state, seat)``: what ``seat`` (or an observer, ``None``) may see.
    - ``scores(state)``: per-seat totals with their evidence.
    - ``outcome(state)``: finished?, winners, ranking with places, tie-break.
    - ``bot_move(state, seat, bot)``: a bot's move and the state with its RNG advanced.
    - ``check(state)``: raise ``RuleViolation('state_invalid', ...)`` on a broken
      invariant.
    - ``redeal_hidden(state, seat, seed)``: ``state`` with everything ``seat`` cannot
      see resampled (the leak tests: the seat's view must not change).
    - ``deck()``: every card, as ``GET /v1/games/<slug>`` lists it.
    - ``resources``: further read-only documents served at
      ``GET /v1/games/<slug>/<name>`` (e.g. the word list), as ``name -> producer``.
    - ``layout``: for a game whose cards live in ``state["zones"]``, the
      :class:`rules.zones.Layout` saying who sees what; the conformance test then
      also checks that no event delivered to a seat names a card it cannot see.
    """

    info: GameInfo
    setup: Callable[[int, Mapping[str, Any], int], State]
    parse_move: Callable[[Mapping[str, Any]], Move]
    verify: Callable[[State, int, Move], None]
    to_act: Callable[[State], list[int]]
    legal_moves: Callable[[State, int], list[Move]]
    apply: Callable[[State, int, Move], tuple[State, list[Event]]]
    view: Callable[[State, int | None], JSON]
    scores: Callable[[State], JSON]
    outcome: Callable[[State], Outcome]
    bot_move: Callable[[State, int, str], tuple[Move, State]]
    check: Callable[[State], None]
    redeal_hidden: Callable[[State, int | None, int], State]
    deck: Callable[[], list[JSON]] = list
    resources: Mapping[str, Callable[[], JSON]] = field(default_factory=dict)
    layout: Layout | None = None

    def can(self, state: State, seat: int, move: Move) -> bool:
        """Whether ``verify`` accepts the parsed ``move`` for ``seat`` now."""
        return can(self.verify, state, seat, move)


Game: TypeAlias = GameRules
"""The type every registered game has (kept as a name for readability)."""


def can(verify: Callable[[State, int, Move], None], state: State, seat: int, move: Move) -> bool:
    """Run ``verify`` as a yes/no question: the *can* of the verify / can / apply triad.

    >>> def verify(state, seat, move):
    ...     if move["card"] not in state["hand"]:
    ...         raise RuleViolation("not_in_hand", "Not in your hand.")
    >>> can(verify, {"hand": [3]}, 0, {"card": 3}), can(verify, {"hand": [3]}, 0, {"card": 4})
    (True, False)
    """
    try:
        verify(state, seat, move)
    except RuleViolation:
        return False
    return True


def rank_seats(
    seats: Iterable[int], key: Callable[[int], Any]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Seats best first by ``key`` (higher is better) and each one's place.

    Seats with equal keys share a place and the next places are skipped
    (standard competition ranking: 1, 1, 3); among them the lower seat is listed first.

    >>> rank_seats(range(4), {0: 5, 1: 9, 2: 5, 3: 1}.__getitem__)
    ((1, 0, 2, 3), (1, 2, 2, 4))
    """
    order = sorted(seats, key=lambda s: (_Desc(key(s)), s))
    places: list[int] = []
    for i, seat in enumerate(order):
        if i and key(seat) == key(order[i - 1]):
            places.append(places[-1])
        else:
            places.append(i + 1)
    return tuple(order), tuple(places)


class _Desc:
    """Reverses the order of any comparable value (for sorting best first)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: _Desc) -> bool:
        return bool(self.value > other.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and bool(self.value == other.value)

    __hash__ = None  # type: ignore[assignment]


def mask(numbers: Iterable[int]) -> int:
    """A bit mask with bit ``n`` set for each ``n`` (fast set tests on card numbers).

    >>> bin(mask([1, 3]))
    '0b1010'
    """
    bits = 0
    for n in numbers:
        bits |= 1 << n
    return bits


def check_deal_shape(
    deal: object, players: int, *, equal: bool = True, rule: str | None = None
) -> list[list[Any]]:
    """Refuse a custom deal that is not one non-empty list of cards per seat (``bad_deal``).

    The cards themselves are the game's to check; ``equal`` also requires every hand
    to be the same size.

    >>> check_deal_shape([[1, 2], [3, 4]], 2)
    [[1, 2], [3, 4]]
    >>> check_deal_shape([[1], [2, 3]], 2)
    Traceback (most recent call last):
    ...
    rules.core.RuleViolation: Every seat must be dealt the same number of cards (got 1, 2).
    """
    if not isinstance(deal, list) or len(deal) != players:
        raise RuleViolation(
            "bad_deal", f"deal must be a list of {players} hands, one per seat.", rule=rule
        )
    hands: list[list[Any]] = []
    for seat, hand in enumerate(deal):
        if not isinstance(hand, list) or not hand:
            raise RuleViolation("bad_deal", f"deal[{seat}] must be a non-empty list of cards.")
        hands.append(list(hand))
    if equal and len({len(h) for h in hands}) != 1:
        raise RuleViolation(
            "bad_deal",
            "Every seat must be dealt the same number of cards "
            f"(got {', '.join(str(len(h)) for h in hands)}).",
            rule=rule,
        )
    return hands


def is_int(value: object) -> bool:
    """A JSON whole number (``True`` and ``False`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


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
