"""Game records: enough to replay a game exactly, readable by a person (a chess PGN).

A record is the setup (players, options, the seed that dealt the cards, the bot seats)
and every step in order: a seat's move (with the bot that chose it, if a bot did, and
the time a real-time game stamped on it) or the service's own transition (a clock's
start or time-up). :func:`replay` plays a record through the rules: a bot's step asks
the bot again (its choice, and the chance it consumed, must be the recorded ones), a
move is checked and applied as it was. It answers each step's events, the outcome and
the scores, or the index of the first step the rules refuse, with their reason.

>>> from rules.registry import GAMES
>>> game = GAMES["element-draft"]
>>> log = Log(players=2, options={"deal": [[1, 8], [11, 17]]}, seed=1, bots={})
>>> state = game.setup(2, log.options, log.seed)
>>> for seat, card in ((0, 8), (1, 11), (0, 17), (1, 1)):  # hands pass left
...     move = {"type": "draft", "card": card}
...     state, _ = game.apply(state, seat, move)
...     log = log.add(Step(seat=seat, move=move))
>>> done = replay(game, log)
>>> done.refused is None, done.outcome.winners, len(done.steps)
(True, (0,), 4)
>>> bad = replay(game, log.replace_step(2, Step(seat=0, move={"type": "draft", "card": 1})))
>>> bad.refused.index, bad.refused.code
(2, 'not_in_hand')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Annotated, Any, Generic, Literal, TypedDict, TypeVar, Union

from rules.core import (
    Event,
    GameRules,
    Move,
    Outcome,
    RuleViolation,
    State,
    events_for,
    resolve_options,
    with_actor,
)
from rules.shapes import F
from rules.times import iso
from rules.wire import DealtPile, acted
from rules.wire import Outcome as OutcomeShape

TIME_UP = "time_up"
"""The service's own step once a clock's deadline has passed."""
FORMAT = 1


@dataclass(frozen=True)
class Step:
    """One step of a game: a seat's move (``bot``: the bot that chose it; ``at``: the
    server's time, for a hosted game), or (``seat`` None) the service's transition
    ``system``: ``time_up`` once a clock's deadline has passed, or the name of a game's
    own command the host gave (Polymer's ``start``)."""

    seat: int | None = None
    move: Move | None = None
    bot: str | None = None
    at: int | None = None
    system: str | None = None

    def compact(self) -> list[Any]:
        """As a token or a store keeps it: ``[seat, move, bot, at, system]``, trailing
        nulls left out."""
        items: list[Any] = [self.seat, self.move, self.bot, self.at, self.system]
        while items and items[-1] is None:
            items.pop()
        return items

    @classmethod
    def expand(cls, items: list[Any]) -> Step:
        padded: list[Any] = [*items, None, None, None, None, None][:5]
        seat, move, bot, at, system = padded
        return cls(seat=seat, move=move, bot=bot, at=at, system=system)


@dataclass(frozen=True)
class Log:
    """A game's setup and its steps so far (what a record is made of).

    The steps are kept as tokens and stores keep them (``Step.compact``): a move's
    request opens a token with hundreds of them and adds one, so they are read as
    :class:`Step` only when asked for (a record, a replay).
    """

    players: int
    options: Mapping[str, Any]
    seed: int
    bots: Mapping[int, str]
    kept: tuple[list[Any], ...] = ()

    @cached_property
    def steps(self) -> tuple[Step, ...]:
        return tuple(Step.expand(items) for items in self.kept)

    def with_steps(self, steps: Iterable[Step]) -> Log:
        return replace(self, kept=tuple(step.compact() for step in steps))

    def add(self, *steps: Step) -> Log:
        # built directly, not with ``replace`` (a move adds a step: about 4 us less)
        kept = (*self.kept, *[step.compact() for step in steps])
        return Log(self.players, self.options, self.seed, self.bots, kept)

    def setup(self) -> Log:
        """This log without its steps (as a hosted game's token keeps it)."""
        return Log(self.players, self.options, self.seed, self.bots)

    def replace_step(self, index: int, step: Step) -> Log:
        kept = list(self.kept)
        kept[index] = step.compact()
        return replace(self, kept=tuple(kept))

    def compact(self) -> dict[str, Any]:
        return {
            "p": self.players,
            "o": dict(self.options),
            "s": self.seed,
            "b": sorted([seat, bot] for seat, bot in self.bots.items()),
            "m": list(self.kept),
        }

    @classmethod
    def expand(cls, data: Mapping[str, Any]) -> Log:
        return cls(
            players=int(data["p"]),
            options=dict(data["o"]),
            seed=int(data["s"]),
            bots={int(seat): str(bot) for seat, bot in data["b"]},
            kept=tuple(data["m"]),
        )


@dataclass(frozen=True)
class Refusal:
    """Where a replay stopped: the step's index, and the rules' reason."""

    index: int
    code: str
    message: str
    rule: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Replayed:
    """A replay: each applied step's events, the state reached, its outcome and scores,
    and the first refused step, if any (the replay stops there)."""

    steps: tuple[list[Event], ...]
    state: State
    outcome: Outcome
    scores: Mapping[str, Any]
    refused: Refusal | None = None


def replay(game: GameRules, log: Log) -> Replayed:
    """Play ``log`` through ``game``'s rules from its setup (deterministic: the seed)."""
    try:
        state = game.setup(log.players, log.options, log.seed)
    except RuleViolation as err:
        return _stopped(game, None, (), -1, err)
    done: list[list[Event]] = []
    for index, step in enumerate(log.steps):
        try:
            state, events = play_step(game, state, step)
        except RuleViolation as err:
            return _stopped(game, state, tuple(done), index, err)
        done.append(events)
    return Replayed(tuple(done), state, game.outcome(state), game.scores(state))


def play_step(game: GameRules, state: State, step: Step) -> tuple[State, list[Event]]:
    """One step: the service's transition, a bot's move (asked again), or a move."""
    clock = game.clock
    if step.system is not None:
        if clock is not None and step.system == TIME_UP:
            return clock.expire(state)
        for extra in game.extras:
            if extra.name == step.system and extra.change is not None:
                return extra.change(state, int(step.at or 0))
        raise RuleViolation("bad_record", f"This game has no {step.system!r} transition.")
    if step.seat is None or step.move is None:
        raise RuleViolation("bad_record", "A step is a seat's move or the service's transition.")
    seat = step.seat
    if clock is not None:
        state = clock.prepare(state, int(step.at or 0))
    if step.bot is not None:
        chosen, state = game.bot_move(state, seat, step.bot)
        shown = {k: v for k, v in chosen.items() if k != "at"}
        if shown != {k: v for k, v in step.move.items() if k != "at"}:
            raise RuleViolation(
                "bad_record",
                f"The {step.bot} bot of seat {seat} plays {shown} here, not the recorded "
                f"{step.move}.",
                bot=step.bot,
            )
    move = dict(step.move)
    if clock is not None:
        move = clock.stamp(move, int(step.at or 0))
    return game.apply(state, seat, move)


def _stopped(
    game: GameRules,
    state: State | None,
    done: tuple[list[Event], ...],
    index: int,
    err: RuleViolation,
) -> Replayed:
    refusal = Refusal(index, err.code, err.message, err.rule, dict(err.details))
    if state is None:
        return Replayed(done, {}, Outcome(finished=False), {}, refusal)
    return Replayed(done, state, game.outcome(state), game.scores(state), refusal)


# ---------------------------------------------------------------- the document ------
M = TypeVar("M")
E = TypeVar("E")
O = TypeVar("O")  # noqa: E741
S = TypeVar("S")

Ms = Annotated[int, F("A time in ms since the Unix epoch, by the service's clock.", minimum=0)]


class RecordStep(TypedDict, Generic[M, E]):
    """One step of the game: a seat's move, or the service's own transition."""

    seat: Annotated[int | None, F("The seat that moved (null: the service's own step).", minimum=0)]
    move: Annotated[
        M | None,
        F(
            "The move as it was made. Null in a public record (a game still being played): a "
            "move can name cards others may not see yet; its events say what everyone saw."
        ),
    ]
    bot: Annotated[str | None, F("The bot that chose the move (null: a person).")]
    system: Annotated[
        str | None,
        F(
            "The service's own step: `time_up` (the clock's deadline passed) or a host's "
            "command (Polymer's `start`); null for a seat's move."
        ),
    ]
    at: Annotated[Ms | None, F("When the service applied it (a hosted game; null: stateless).")]
    time: Annotated[str | None, F("`at` as an ISO 8601 date-time (UTC).", format="date-time")]
    events: Annotated[list[E], F("What it produced, as everyone at the table saw it.")]


class Record(TypedDict, Generic[M, E, O, S]):
    """A game's record: its setup, every step with what it produced, and how it ended;
    enough to replay it exactly (``POST /v1/<slug>/replay``). docs/RECORDS.md."""

    format: Annotated[Literal[1], F("The record format's version.")]
    game: Annotated[str, F("The game's slug.", pattern="^[a-z][a-z-]*$")]
    rules_version: Annotated[int, F("The version of the game's rules it was played by.")]
    game_id: Annotated[str, F("The game's id (a hosted game's session id).")]
    mode: Annotated[Literal["hosted", "stateless"], F("How it was played.")]
    complete: Annotated[
        bool,
        F(
            "True: the whole record (the game is over): every move, the seed and the cards as "
            "dealt. False: the public record of a game still being played: no move, no seed, "
            "no deal, no option that fixes cards."
        ),
    ]
    players: Annotated[int, F("Number of seats.", minimum=1)]
    options: Annotated[O, F("The setup options in force (each one's value, defaults too).")]
    bots: Annotated[
        dict[str, str],
        F("The seats the service played: seat -> bot.", key_pattern="^[0-9]+$"),
    ]
    seed: Annotated[
        int | None,
        F("The seed the cards were dealt from (null in a public record).", minimum=0),
    ]
    dealt: Annotated[
        list[DealtPile] | None,
        F("Every pile as dealt, hands included (null in a public record)."),
    ]
    steps: Annotated[list[RecordStep[M, E]], F("Every step, in order.")]
    outcome: OutcomeShape
    scores: S


_TYPES: dict[str, Any] = {}


def record_type(game: GameRules) -> Any:
    """``game``'s record, as a type the contract and the checks derive from."""
    known = _TYPES.get(game.info.slug)
    if known is not None:
        return known
    wire = game.wire
    moves: Any = Union[wire.moves]  # noqa: UP007 (a union of the game's own types)
    events: Any = Union[tuple(acted(e) for e in wire.events)]  # noqa: UP007
    options: Any = wire.options
    scores: Any = wire.scores
    made = _TYPES[game.info.slug] = Record[moves, events, options, scores]
    return made


def document(
    game: GameRules, log: Log, *, complete: bool, game_id: str, mode: str
) -> dict[str, Any]:
    """The record of the game ``log`` holds: the whole one (``complete``: every move, the
    seed and the deal; for a game that is over) or the public one (what every seat and
    observer may see while it is played). The events, outcome and scores come from
    replaying ``log`` through the rules, so they are the rules' own."""
    done = replay(game, log)
    if done.refused is not None:
        raise RuleViolation(
            "bad_record",
            f"This game's own log does not replay at step {done.refused.index} "
            f"({done.refused.code}: {done.refused.message}).",
        )
    secret = {opt.name for opt in game.info.options if opt.secret}
    options = resolve_options(game.info, log.options)
    if not complete:
        options = {name: value for name, value in options.items() if name not in secret}
    steps = [
        {
            "seat": step.seat,
            "move": step.move if complete else None,
            "bot": step.bot,
            "system": step.system,
            "at": step.at,
            "time": iso(step.at),
            "events": events_for(with_actor(events, step.seat), None),
        }
        for step, events in zip(log.steps, done.steps, strict=True)
    ]
    return {
        "format": FORMAT,
        "game": game.info.slug,
        "rules_version": game.info.rules_version,
        "game_id": game_id,
        "mode": mode,
        "complete": complete,
        "players": log.players,
        "options": options,
        "bots": {str(seat): bot for seat, bot in sorted(log.bots.items())},
        "seed": log.seed if complete else None,
        "dealt": game.dealt(game.setup(log.players, log.options, log.seed)) if complete else None,
        "steps": steps,
        "outcome": done.outcome.to_json(),
        "scores": done.scores,
    }


def read(game: GameRules, record: Mapping[str, Any]) -> Log:
    """The log a record (already checked against :func:`record_type`) holds, for a
    replay: ``bad_record`` if it is another game's or has no moves to replay."""
    info = game.info
    if record["game"] != info.slug or record["rules_version"] != info.rules_version:
        raise RuleViolation(
            "bad_record",
            f"This is a record of {record['game']!r} (rules version {record['rules_version']}); "
            f"this is {info.slug!r} (rules version {info.rules_version}). Replay it at "
            f"POST /v1/{record['game']}/replay.",
        )
    if not record["complete"] or record["seed"] is None:
        raise RuleViolation(
            "bad_record",
            "This is the public record of a game still being played (no seed, no moves): only "
            "the whole record, available once the game is over, can be replayed.",
        )
    steps = []
    for index, step in enumerate(record["steps"]):
        if step["seat"] is not None and step["move"] is None:
            raise RuleViolation("bad_record", f"Step {index} names a seat but no move.")
        steps.append(
            Step(seat=step["seat"], move=step["move"], bot=step["bot"], at=step["at"],
                 system=step["system"])
        )  # fmt: skip
    bots = {int(seat): bot for seat, bot in record["bots"].items()}
    return Log(record["players"], record["options"], record["seed"], bots).with_steps(steps)


# ---------------------------------------------------------------- checking one ------
class Refused(TypedDict):
    """The first step the rules refused: where, and the problem a move there gets."""

    index: Annotated[
        int | None, F("Its index in the record's `steps` (null: the setup itself).", minimum=0)
    ]
    code: Annotated[str, F("The problem code it gets (`GET /v1/problems`).")]
    status: Annotated[int, F("The HTTP status it gets.", minimum=400, maximum=499)]
    detail: Annotated[str, F("The rules' reason, as a student reads it.")]
    rule: Annotated[str | None, F("The sentence of the game's rules it rests on, if one.")]


class Agreement(TypedDict):
    """Whether what the record says matches what the rules produce from its moves."""

    events: Annotated[bool, F("Every replayed step's events are the record's.")]
    outcome: Annotated[bool, F("The whole record replayed, to the record's outcome.")]
    scores: Annotated[bool, F("The whole record replayed, to the record's scores.")]


class Check(TypedDict, Generic[E, S]):
    """A record played through the rules: what each step produced, how the game stood
    at the end (or at the first step the rules refuse), and whether that is what the
    record says."""

    valid: Annotated[bool, F("Every step replayed and the record says what the rules do.")]
    replayed: Annotated[int, F("How many steps the rules accepted.", minimum=0)]
    refused: Refused | None
    steps: Annotated[
        list[list[E]], F("What each replayed step produced, as everyone at the table saw it.")
    ]
    outcome: OutcomeShape
    scores: S
    agrees: Agreement


_CHECKS: dict[str, Any] = {}


def check_type(game: GameRules) -> Any:
    """``game``'s replay answer, as a type the contract derives from."""
    known = _CHECKS.get(game.info.slug)
    if known is None:
        events: Any = Union[tuple(acted(e) for e in game.wire.events)]  # noqa: UP007
        scores: Any = game.wire.scores
        known = _CHECKS[game.info.slug] = Check[events, scores]
    return known


def check(game: GameRules, record: Mapping[str, Any]) -> dict[str, Any]:
    """Replay ``record`` (already checked against :func:`record_type`): each step's events,
    the outcome and scores reached, the first step refused, and whether the record's own
    events, outcome and scores are the rules' (an LMS checking a result a device reports).

    >>> from rules.registry import GAMES
    >>> game = GAMES["element-draft"]
    >>> log = Log(2, {"deal": [[1, 8], [11, 17]]}, 1, {}).with_steps((
    ...     Step(seat=0, move={"type": "draft", "card": 8}),
    ...     Step(seat=1, move={"type": "draft", "card": 11})))
    >>> record = document(game, log, complete=True, game_id="g1", mode="stateless")
    >>> check(game, record)["valid"]
    True
    >>> record["steps"][1]["move"]["card"] = 8  # seat 0's card, not seat 1's
    >>> checked = check(game, record)
    >>> checked["valid"], checked["replayed"], checked["refused"]["code"]
    (False, 1, 'not_in_hand')
    """
    log = read(game, record)
    done = replay(game, log)
    seen = [
        events_for(with_actor(events, step.seat), None)
        for step, events in zip(log.steps, done.steps, strict=False)
    ]
    refused = None
    if done.refused is not None:
        r = done.refused
        known = game.info.all_codes().get(r.code)
        refused = {
            "index": r.index if r.index >= 0 else None,
            "code": r.code,
            "status": known.status if known is not None else 422,
            "detail": r.message,
            "rule": r.rule,
        }
    whole = refused is None
    agrees = {
        "events": seen == [step["events"] for step in record["steps"][: len(seen)]],
        "outcome": whole and done.outcome.to_json() == dict(record["outcome"]),
        "scores": whole and done.scores == record["scores"],
    }
    return {
        "valid": whole and all(agrees.values()),
        "replayed": len(done.steps),
        "refused": refused,
        "steps": seen,
        "outcome": done.outcome.to_json(),
        "scores": done.scores,
        "agrees": agrees,
    }
