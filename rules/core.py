"""The engine contract every game module implements.

A game is a module-level object satisfying :class:`GameRules`: pure functions over
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
from typing import Any, Protocol

from rules import shapes, wire
from rules.rng import choice, new_rng
from rules.state import JSON, Event, Move, State
from rules.wire import Wire
from rules.zones import Layout

__all__ = ["JSON", "Event", "Move", "State"]


class Dynamics(StrEnum):
    """How seats take their actions."""

    TURN_BASED = "turn-based"
    SIMULTANEOUS = "simultaneous"
    REAL_TIME = "real-time"


@dataclass(frozen=True)
class Option:
    """A setup option a teacher or a test may set; ``kind`` names its JSON shape.

    Options are declared once, as the members of a game's options ``TypedDict``
    (:func:`options_of`); ``node`` is the declared shape every given value is checked
    against, and ``code`` the rule code a bad value gets.
    """

    name: str
    kind: str
    default: Any
    description: str
    choices: tuple[Any, ...] = ()
    node: shapes.Node | None = None
    code: str = "bad_option"
    secret: bool = False
    """It fixes hidden cards (a custom deal): a record shows it only once the game is over."""


def options_of(declaration: type) -> tuple[Option, ...]:
    """The options a ``TypedDict`` declares: each member's type, default and description.

    >>> from typing import Annotated, Literal, TypedDict
    >>> from rules.shapes import F
    >>> class Options(TypedDict, total=False):
    ...     target: Annotated[int | None, F("Points to win.", default=250, minimum=1)]
    ...     mode: Annotated[Literal["a", "b"], F("How.", default="a")]
    >>> [(o.name, o.kind, o.default, o.choices) for o in options_of(Options)]
    [('target', 'int | null', 250, ()), ('mode', "'a' | 'b'", 'a', ('a', 'b'))]
    """
    node = shapes.shape(declaration)
    if not isinstance(node, shapes.Obj):
        raise TypeError("options are declared as a TypedDict")
    out = []
    for member in node.members:
        facts = member.node.facts
        if facts.default is shapes.MISSING:
            raise TypeError(f"option {member.name!r} declares no default")
        if not facts.description:
            raise TypeError(f"option {member.name!r} has no description")
        inner = member.node.inner if isinstance(member.node, shapes.Nullable) else member.node
        choices = inner.values if isinstance(inner, shapes.Enum) else ()
        if isinstance(member.node, shapes.Nullable) and choices:
            choices = (*choices, None)
        out.append(
            Option(
                member.name,
                shapes.type_text(member.node),
                facts.default,
                facts.description,
                choices,
                node=member.node,
                code=facts.code or "bad_option",
                secret=facts.secret,
            )
        )
    return tuple(out)


class At(StrEnum):
    """Where a rule code can be answered."""

    SETUP = "setup"
    """Dealing a game (the setup request's players and options)."""
    MOVE = "move"
    """A seat's move."""
    BOT = "bot"
    """A bot asked to move for a seat: the reasons a seat has no move now."""
    REPLAY = "replay"
    """A game's record played through the rules (a step the rules cannot replay)."""


@dataclass(frozen=True)
class Code:
    """A rule code: what it means, where it can be answered and with which status.

    ``at`` names the operations (:class:`At`, or a game's own operation such as
    Polymer's ``arrangement``); empty for an internal consistency check the service
    never answers with.
    """

    description: str
    at: frozenset[str] = frozenset({At.MOVE})
    status: int = 422

    @classmethod
    def setup(cls, description: str) -> Code:
        return cls(description, frozenset({At.SETUP}))

    @classmethod
    def move(cls, description: str, status: int = 422) -> Code:
        return cls(description, frozenset({At.MOVE}), status)

    @classmethod
    def turn(cls, description: str, status: int = 422) -> Code:
        """A reason a seat cannot act now: refuses its move and a bot's move for it."""
        return cls(description, frozenset({At.MOVE, At.BOT}), status)

    @classmethod
    def internal(cls, description: str) -> Code:
        return cls(description, frozenset())

    @classmethod
    def on(cls, operation: str, description: str, status: int = 422) -> Code:
        return cls(description, frozenset({operation}), status)


@dataclass(frozen=True)
class Source:
    """Where a game's original rules come from, as far as their own text says.

    The project keeps no copy of them: its rules document (``docs/rules/<slug>.md``)
    quotes only the sentences it interprets and names this source.

    - ``title``: the title the rules give the game (None when they give none);
    - ``publisher``: who published them, as the text names them (None: it names nobody);
    - ``origin``: what the text says of itself: its form, the products it names.
    """

    title: str | None
    publisher: str | None
    origin: str

    def to_json(self, slug: str) -> JSON:
        """The ``source`` member of ``GET /v1/games/<slug>``, with where the
        interpretation lives."""
        return {
            "title": self.title,
            "publisher": self.publisher,
            "origin": self.origin,
            "interpretation": f"docs/rules/{slug}.md",
        }


@dataclass(frozen=True)
class GameInfo:
    """Declared facts about a game, served by ``GET /v1/games/<slug>``.

    ``seed_file`` names the project's working copy of the rules text (not a public
    source); ``source`` cites the original rules."""

    slug: str
    title: str
    seed_file: str
    min_players: int
    max_players: int
    dynamics: Dynamics
    has_chance: bool
    rules_version: int
    summary: str
    source: Source
    options: tuple[Option, ...] = ()
    bots: tuple[str, ...] = ("random", "greedy")
    player_counts: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    codes: Mapping[str, Code] = field(default_factory=dict)

    def all_codes(self) -> dict[str, Code]:
        """The core codes and the game's own (the game's win where both define one)."""
        return {**CORE_CODES, **self.codes}

    def codes_at(self, where: str) -> list[str]:
        """The codes that can be answered at ``where`` (an :class:`At` or an operation)."""
        return sorted(c for c, code in self.all_codes().items() if where in code.at)


CORE_CODES: Mapping[str, Code] = {
    "bad_players": Code.setup("The player count is not a whole number in the game's range."),
    "unknown_option": Code.setup("A setup option this game does not have."),
    "bad_option": Code.setup("A setup option has the wrong type or an impossible value."),
    "bad_deal": Code.setup(
        "The custom deal is not one list of cards per seat as the game requires."
    ),
    "seat_out_of_range": Code(
        "The seat number is not at this table.", frozenset({At.MOVE, At.BOT})
    ),
    "unknown_move": Code.move("The move's type is not one this game knows."),
    "bad_move": Code.move("The move object is missing a field or has one of the wrong type."),
    "game_over": Code.turn("The game has ended; no more moves are accepted."),
    "bad_record": Code(
        "A record's step is not one this game can replay: a transition the game does not "
        "have, or a bot step whose move is not that bot's choice.",
        frozenset({At.REPLAY}),
    ),
    "unknown_bot": Code.internal("The bot name is not one this game offers."),
    "state_invalid": Code.internal("The state breaks an invariant of the rules."),
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
    and the next places are skipped (1, 1, 3). Over the wire each place names its seat
    (``rules.wire.SeatPlace``), so nobody has to pair two lists:

    >>> Outcome(True, winners=(1, 0), ranking=(1, 0, 2), places=(1, 1, 3)).to_json()["places"]
    [{'seat': 1, 'place': 1}, {'seat': 0, 'place': 1}, {'seat': 2, 'place': 3}]
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
        return dict(self.declared())

    def declared(self) -> wire.Outcome:
        """The outcome as declared (``rules.wire.Outcome``): a game's ``game_over`` event
        built as its ``TypedDict`` spreads it (``{"type": "game_over", **outcome.declared()}``)."""
        return {
            "finished": self.finished,
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "places": [
                {"seat": seat, "place": place}
                for seat, place in zip(self.ranking, self.places, strict=True)
            ],
            "tie_break": self.tie_break,
        }


Chooser = Callable[[State, int, list[Move]], tuple[Move, State]]
"""A bot: given the seat's legal moves (never empty), its move and the state with the
random generator it advanced."""


def random_bot(state: State, seat: int, legal: list[Move]) -> tuple[Move, State]:
    """Any legal move, uniformly, drawn with the game's own generator (``state["rng"]``)."""
    rng, move = choice(state["rng"], legal)
    return move, {**state, "rng": rng}


@dataclass(frozen=True)
class Clock:
    """How a real-time game keeps time. The rules never read a clock: the service passes
    its own (``now_ms``, ms since the Unix epoch by the session store's clock).

    - ``public``: the ``TypedDict`` of the members every session answer and stream
      message carries (the phase, the deadline, the server's time...);
    - ``block(state, now_ms)``: their values;
    - ``prepare(state, now_ms)``: the state as of ``now_ms``, before a move is checked;
    - ``stamp(move, now_ms)``: a move as the rules receive it (with the time);
    - ``deadline(state)``: when moves stop being accepted, if the clock is running;
    - ``ends_at(state)``: when time is (or was) up, once the clock has started;
    - ``expire(state)``: the game's own transition once the deadline has passed;
    - ``started(state, now_ms)``: the game with its clock started at ``now_ms`` (the
      contract's examples);
    - ``stored(state)``: public facts kept readable beside the session (operators);
    - ``pace(state, seat, moves)``: how long (ms) a bot seat the service plays waits
      before its next move, after ``moves`` moves; ``None``: the service plays no seat
      of this game.
    - ``answers(state, seat)``: what waits for ``seat``'s answer (an offer made to it, a
      loan called in), first what it answers first, each as a key naming it and the
      earliest time (ms) a bot seat answers it: a think time after it came.
    """

    public: type
    block: Callable[[State, int], JSON]
    prepare: Callable[[State, int], State]
    stamp: Callable[[Move, int], Move]
    deadline: Callable[[State], int | None]
    ends_at: Callable[[State], int | None]
    expire: Callable[[State], tuple[State, list[Event]]]
    started: Callable[[State, int], State]
    stored: Callable[[State], JSON]
    pace: Callable[[State, int, int], int] | None = None
    answers: Callable[[State, int], list[tuple[str, int]]] | None = None


@dataclass(frozen=True)
class Extra:
    """A game's own operation besides moves, served at ``.../sessions/{id}/<name>``.

    ``by`` is who may call it (``seat``: a seat named in the body with its credential;
    ``host``: the host credential, no body). A *query* gives ``answer(state, seat,
    body)`` (shape ``answers``); a *command* gives ``change(state, now_ms)``, the new
    state and its events, committed like a move. Its refusals are the codes declared
    ``at`` this name.
    """

    name: str
    summary: str
    description: str
    by: str
    request: type | None = None
    answers: type | None = None
    answer: Callable[[State, int, Mapping[str, Any]], JSON] | None = None
    change: Callable[[State, int], tuple[State, list[Event]]] | None = None


def _derived(*args: Any) -> Any:
    raise AssertionError("replaced in GameRules.__post_init__")  # pragma: no cover


class Setup(Protocol):
    """A game's ``setup``: its parameters named, so a call may name them (``seed=1``)."""

    def __call__(self, players: int, options: Mapping[str, Any], seed: int) -> State: ...


@dataclass(frozen=True)
class GameRules:
    """What every registered game provides: its metadata, its shapes and pure functions.

    A game module builds one of these from its functions (``GAME = GameRules(...)``);
    the service, the bots and the conformance tests only ever use this record.

    - ``wire``: the game's JSON shapes (:class:`rules.wire.Wire`), declared once.
    - ``setup(players, options, seed)``: deal a new game, deterministic for ``seed``.
    - ``parse_move(move)``: check a move object's shape; return it normalised, or raise
      ``RuleViolation`` (``unknown_move`` / ``bad_move``). Derived from the declared
      moves unless given.
    - ``verify(state, seat, move)``: raise the ``RuleViolation`` that forbids a parsed
      ``move`` now, if any. Legality lives here only: ``apply`` and ``legal_moves``
      both call it (the verify / can / apply triad; :class:`rules.actions.Actions`
      builds all four from one entry per move type).
    - ``to_act(state)``: seats that may act now (empty once the game is over).
    - ``legal_moves(state, seat)``: every move ``seat`` may make now (where the space
      is finite), each passing ``verify``.
    - ``move_forms(state, seat)``: where ``legal_moves`` lists only some of them (cards
      chosen from a hand), how to build every move ``seat`` may make now
      (:class:`rules.wire.MoveForm`); None: the list is the whole space.
    - ``apply(state, seat, move)``: the new state and the events; never mutates.
    - ``view(state, seat)``: what ``seat`` (or an observer, ``None``) may see.
    - ``scores(state)``: per-seat totals with their evidence.
    - ``outcome(state)``: finished?, winners, ranking with places, tie-break.
    - ``bots``: the game's own bots by name (``random`` is always there); ``waiting``
      raises why a seat has no move now. ``bot_move(state, seat, bot)`` (a bot's move
      and the state with its generator advanced) is derived from them unless given.
    - ``check(state)``: raise ``RuleViolation('state_invalid', ...)`` on a broken
      invariant. Derived from the layout (every card of ``cards(state)`` held exactly
      once) and ``invariants(state)`` (the game's own problems) unless given.
    - ``redeal_hidden(state, seat, seed)``: ``state`` with everything ``seat`` cannot
      see resampled (the leak tests: the seat's view must not change). Derived from
      the layout (``state["zones"]`` and ``state["rng"]``) unless given.
    - ``deck()``: every card, as ``GET /v1/games/<slug>`` lists it.
    - ``resources``: further read-only documents served at
      ``GET /v1/games/<slug>/<name>`` (e.g. the word list), as ``name -> producer``.
    - ``clock``: a real-time game's :class:`Clock` (it is then only played as a hosted
      session: the service's clock is the only one every device shares);
    - ``extras``: the game's own operations besides moves (:class:`Extra`).
    - ``situation(state, seat)``: what a seat's decision rests on (see
      :meth:`situation_of`); the seat's whole view unless given.
    - ``dealt(state)``: where every card lies, as piles (``{"zone", "seat", "cards"}``,
      bottom first): a record shows it for the state as dealt. Derived from the layout
      unless given.
    - ``layout``: for a game whose cards live in ``state["zones"]``, the
      :class:`rules.zones.Layout` saying who sees what (or a function of the state,
      when an option changes it, and once play is over: ``Layout.at_end()``); the
      conformance test then also checks that no event delivered to a seat names a card
      it cannot see, and that the cards are turned up exactly when play is over.
    """

    info: GameInfo
    setup: Setup
    to_act: Callable[[State], list[int]]
    view: Callable[[State, int | None], Mapping[str, Any]]
    scores: Callable[[State], Mapping[str, Any]]
    outcome: Callable[[State], Outcome]
    verify: Callable[[State, int, Move], None]
    legal_moves: Callable[[State, int], list[Move]]
    apply: Callable[[State, int, Move], tuple[State, list[Event]]]
    wire: Wire
    parse_move: Callable[[Mapping[str, Any]], Move] = _derived
    bots: Mapping[str, Chooser] = field(default_factory=dict)
    waiting: Callable[[State, int], None] | None = None
    bot_move: Callable[[State, int, str], tuple[Move, State]] = _derived
    cards: Callable[[State], Iterable[int]] | None = None
    invariants: Callable[[State], list[str]] | None = None
    check: Callable[[State], None] = _derived
    redeal_hidden: Callable[[State, int | None, int], State] = _derived
    deck: Callable[[], list[JSON]] = list
    resources: Mapping[str, Callable[[], JSON]] = field(default_factory=dict)
    layout: Layout | Callable[[State], Layout] | None = None
    clock: Clock | None = None
    extras: tuple[Extra, ...] = ()
    dealt: Callable[[State], list[JSON]] = _derived
    situation: Callable[[State, int], Mapping[str, Any]] | None = None
    move_forms: Callable[[State, int], list[JSON]] | None = None

    def __post_init__(self) -> None:
        derive = {
            "parse_move": lambda: move_parser(self.wire.moves),
            "bot_move": self._bot_move,
            "check": self._check,
            "redeal_hidden": self._redeal_hidden,
            "dealt": self._dealt,
        }
        for name, make in derive.items():
            if getattr(self, name) is _derived:
                object.__setattr__(self, name, make())
        missing = set(self.info.bots) - set(self.bots) - {"random"}
        if self.bot_move is not _derived and missing and self.bots:
            raise TypeError(f"{self.info.slug}: bots {sorted(missing)} have no chooser")

    def can(self, state: State, seat: int, move: Move) -> bool:
        """Whether ``verify`` accepts the parsed ``move`` for ``seat`` now."""
        return can(self.verify, state, seat, move)

    def situation_of(self, state: State, seat: int) -> Mapping[str, Any]:
        """What ``seat``'s decision rests on in ``state``: a move decided on one state is
        still a decision about a later one when the seat's situation is the same in both
        (the service then judges it by the rules on the later state; otherwise it is
        stale). By default the seat's whole view: anything it can see that changes
        voids its decision, as at a table where a player must look again. A game
        narrows it where other seats act at once: in a simultaneous draft another
        seat's selection changes nothing a seat chose from; in a real-time trading
        game other seats' trades never void a seat's move, which the rules then judge.

        >>> from rules.registry import GAMES
        >>> game = GAMES["metal-vs-nonmetal"]
        >>> state = game.setup(2, {}, 1)
        >>> game.situation_of(state, 0) == game.view(state, 0)
        True
        """
        if self.situation is not None:
            return self.situation(state, seat)
        return self.view(state, seat)

    def layout_of(self, state: State) -> Layout | None:
        """The zone layout of ``state`` (None for a game without zones)."""
        if self.layout is None or isinstance(self.layout, Layout):
            return self.layout
        return self.layout(state)

    # ------------------------------------------------------ derived from the parts --
    def _bot_move(self) -> Callable[[State, int, str], tuple[Move, State]]:
        choosers: dict[str, Chooser] = {"random": random_bot, **self.bots}
        info, legal_moves, waiting = self.info, self.legal_moves, self.waiting

        def bot_move(state: State, seat: int, bot: str) -> tuple[Move, State]:
            if bot not in info.bots or bot not in choosers:
                raise RuleViolation(
                    "unknown_bot", f"There is no bot {bot!r}; choose one of {list(info.bots)}."
                )
            legal = legal_moves(state, seat)
            if not legal:
                if waiting is None:
                    raise TypeError(f"{info.slug} declares no `waiting` for its bots")
                waiting(state, seat)  # raises why this seat has no move now
                raise AssertionError(f"seat {seat} has no move, and no reason was given")
            return choosers[bot](state, seat, legal)

        return bot_move

    def _check(self) -> Callable[[State], None]:
        cards, invariants, layout_of = self.cards, self.invariants, self.layout_of

        def check(state: State) -> None:
            problems: list[str] = []
            layout = layout_of(state)
            if layout is not None:
                if cards is None:
                    raise TypeError("a zone game declares `cards` to check conservation")
                problems += layout.conservation_problems(state["zones"], cards(state))
            if invariants is not None:
                problems += invariants(state)
            if problems:
                raise RuleViolation("state_invalid", "; ".join(problems))

        return check

    def _redeal_hidden(self) -> Callable[[State, int | None, int], State]:
        layout_of = self.layout_of

        def redeal_hidden(state: State, seat: int | None, seed: int) -> State:
            layout = layout_of(state)
            if layout is None:
                raise TypeError("only a zone game's redeal_hidden can be derived")
            zones, rng = layout.redeal_hidden(state["zones"], seat, new_rng(seed))
            return {**state, "zones": zones, "rng": rng}

        return redeal_hidden

    def _dealt(self) -> Callable[[State], list[JSON]]:
        layout_of = self.layout_of

        def dealt(state: State) -> list[JSON]:
            layout = layout_of(state)
            if layout is None:
                raise TypeError("only a zone game's dealt can be derived")
            return [
                {
                    "zone": zone,
                    "seat": seat,
                    "cards": list(layout.pile(state["zones"], (zone, seat))),
                }
                for zone, seat in layout.places(state["zones"])
            ]

        return dealt


def move_parser(moves: Sequence[type]) -> Callable[[Mapping[str, Any]], Move]:
    """``parse_move`` from the declared move types: ``unknown_move`` for a ``type`` the
    game does not have, ``bad_move`` (with ``errors`` per field) for a bad field.

    >>> from typing import Literal, TypedDict
    >>> class Draw(TypedDict):
    ...     type: Literal["draw"]
    >>> parse = move_parser([Draw])
    >>> parse({"type": "draw"})
    {'type': 'draw'}
    >>> try:
    ...     parse({"type": "fly"})
    ... except RuleViolation as err:
    ...     err.code, err.message
    ('unknown_move', '"fly" is not a move of this game; use one of: draw.')
    """
    node = shapes.OneOf(options=tuple(shapes.shape(m) for m in moves))
    tags = sorted(str(shapes.tag_of(shapes.shape(m))) for m in moves)
    check = shapes.checker(node)

    def parse_move(move: Mapping[str, Any]) -> Move:
        try:
            parsed: Move = check(move)
        except shapes.ShapeError as err:
            if err.unknown_tag or not isinstance(move, dict):
                kind = move.get("type") if isinstance(move, dict) else move
                raise RuleViolation(
                    "unknown_move",
                    f"{shapes.quote(kind)} is not a move of this game; use one of: "
                    f"{', '.join(tags)}.",
                    known=tags,
                ) from None
            raise RuleViolation(
                "bad_move",
                f"This {move.get('type')!r} move is not well formed: {shapes.summary(err.errors)}",
                errors={"move": err.errors},
            ) from None
        return parsed

    return parse_move


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
            f"Seat {shapes.quote(seat)} is not at this table; seats are numbered 0 to "
            f"{players - 1}.",
            seat=seat,
        )


def check_players(info: GameInfo, players: object) -> int:
    """Refuse a player count outside the game's range."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise RuleViolation(
            "bad_players", f"players must be a whole number, not {shapes.quote(players)}."
        )
    if not info.min_players <= players <= info.max_players:
        raise RuleViolation(
            "bad_players",
            f"{info.title} is played with {info.min_players}-{info.max_players} players, "
            f"not {players}.",
            players=players,
        )
    return players


def resolve_options(info: GameInfo, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option's value: the given ones checked against their declared shapes
    (``bad_option``, or the option's own code such as ``bad_deal``), the rest their
    defaults; an option the game does not have is ``unknown_option``."""
    if options is not None and not isinstance(options, Mapping):
        raise RuleViolation(
            "bad_option", f"options must be an object, not {shapes.quote(options)}."
        )
    given = dict(options or {})
    known = {opt.name for opt in info.options}
    unknown = sorted(set(given) - known)
    if unknown:
        raise RuleViolation(
            "unknown_option",
            f"{info.title} has no option {', '.join(map(repr, unknown))}; "
            f"its options are: {', '.join(sorted(known)) or 'none'}.",
            unknown=unknown,
            errors={"options": {name: ["Unknown field."] for name in unknown}},
        )
    out: dict[str, Any] = {}
    for opt in info.options:
        if opt.name not in given:
            out[opt.name] = opt.default
            continue
        value = given[opt.name]
        if opt.node is not None:
            try:
                value = shapes.parse(value, opt.node)
            except shapes.ShapeError as err:
                raise RuleViolation(
                    opt.code,
                    f"The option {opt.name!r} has a wrong value: "
                    f"{shapes.summary({opt.name: err.errors})}",
                    errors={"options": {opt.name: err.errors}},
                ) from None
        out[opt.name] = value
    return out


def with_actor(events: list[Event], seat: int | None) -> list[Event]:
    """``events`` tagged with the seat whose move made them (None: the service's own)."""
    return [{**event, "actor": seat} for event in events]


def events_for(events: list[Event], seat: int | None) -> list[Event]:
    """Events as ``seat`` may see them (None: an observer): each event's ``private``
    part for that seat merged in, the others' dropped.

    >>> events_for([{"type": "drew", "private": {1: {"cards": [7]}}}], 1)
    [{'type': 'drew', 'cards': [7]}]
    >>> events_for([{"type": "drew", "private": {1: {"cards": [7]}}}], None)
    [{'type': 'drew'}]
    """
    out = []
    for event in events:
        private = event.get("private")
        if private is None:
            out.append(event)
            continue
        public = {k: v for k, v in event.items() if k != "private"}
        if seat is not None:
            public.update(private.get(seat) or private.get(str(seat)) or {})
        out.append(public)
    return out


def hands_dealt(state: State) -> list[JSON]:
    """``GameRules.dealt`` of a game without zones that keeps ``hands`` (one per seat)
    and the cards ``set_aside`` in its state."""
    return [
        *({"zone": "hand", "seat": seat, "cards": list(hand)}
          for seat, hand in enumerate(state["hands"])),
        {"zone": "set_aside", "seat": None, "cards": list(state["set_aside"])},
    ]  # fmt: skip


def left_of(seat: int, players: int) -> int:
    """The seat to ``seat``'s left: seats are numbered clockwise, so left is ``seat + 1``."""
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    """The seat to ``seat``'s right."""
    return (seat - 1) % players


def neighbours(seat: int, players: int) -> Sequence[int]:
    """Left then right neighbour (the same seat twice at a two-player table)."""
    return (left_of(seat, players), right_of(seat, players))
