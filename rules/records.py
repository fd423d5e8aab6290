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

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.core import Event, Game, Move, Outcome, RuleViolation, State

START = "start"
TIME_UP = "time_up"
SYSTEM = (START, TIME_UP)


@dataclass(frozen=True)
class Step:
    """One step of a game: a seat's move, or (``seat`` None) the service's transition
    ``system`` (``start``: a clock started by the host; ``time_up``: its deadline)."""

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
    """A game's setup and its steps so far (what a record is made of)."""

    players: int
    options: Mapping[str, Any]
    seed: int
    bots: Mapping[int, str]
    steps: tuple[Step, ...] = ()

    def add(self, *steps: Step) -> Log:
        return replace(self, steps=(*self.steps, *steps))

    def replace_step(self, index: int, step: Step) -> Log:
        steps = list(self.steps)
        steps[index] = step
        return replace(self, steps=tuple(steps))

    def compact(self) -> dict[str, Any]:
        return {
            "p": self.players,
            "o": dict(self.options),
            "s": self.seed,
            "b": sorted([seat, bot] for seat, bot in self.bots.items()),
            "m": [step.compact() for step in self.steps],
        }

    @classmethod
    def expand(cls, data: Mapping[str, Any]) -> Log:
        return cls(
            players=int(data["p"]),
            options=dict(data["o"]),
            seed=int(data["s"]),
            bots={int(seat): str(bot) for seat, bot in data["b"]},
            steps=tuple(Step.expand(items) for items in data["m"]),
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
    scores: dict[str, Any]
    refused: Refusal | None = None


def replay(game: Game, log: Log) -> Replayed:
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


def play_step(game: Game, state: State, step: Step) -> tuple[State, list[Event]]:
    """One step: the service's transition, a bot's move (asked again), or a move."""
    clock = game.clock
    if step.system is not None:
        if clock is None or step.system not in SYSTEM:
            raise RuleViolation("bad_record", f"This game has no {step.system!r} transition.")
        if step.system == START:
            state = clock.started(state, int(step.at or 0))
            return state, []
        return clock.expire(state)
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
    game: Game, state: State | None, done: tuple[list[Event], ...], index: int, err: RuleViolation
) -> Replayed:
    refusal = Refusal(index, err.code, err.message, err.rule, dict(err.details))
    if state is None:
        return Replayed(done, {}, Outcome(finished=False), {}, refusal)
    return Replayed(done, state, game.outcome(state), game.scores(state), refusal)
