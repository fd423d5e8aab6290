"""Each move type in one place: its fields, legality, enumeration and effect.

A game lists its move types as :class:`Action` records (the model is pokerkit's
operations: for each action a *verify*, a *can* and an *apply*). :class:`Actions`
builds the game's ``parse_move``, ``verify``, ``legal_moves`` and ``apply`` from
them, so legality is computed in one place (``verify``) and both ``legal_moves``
and ``apply`` rely on it.

>>> from typing import Annotated, Literal, TypedDict
>>> from rules.shapes import F
>>> class Take(TypedDict):
...     '''Take one card from the pile.'''
...     type: Literal["take"]
...     card: Annotated[int, F("The card's id.")]
>>> def verify_take(state, seat, move):
...     if move["card"] not in state["pile"]:
...         raise RuleViolation("not_in_pile", f"Card {move['card']} is not in the pile.")
>>> def take(state, seat, move):
...     pile = [c for c in state["pile"] if c != move["card"]]
...     return {**state, "pile": pile}, [{"type": "taken", "card": move["card"]}]
>>> def options(state, seat):
...     return [{"type": "take", "card": c} for c in state["pile"]]
>>> ACTIONS = Actions((Action(Take, verify_take, take, options),))
>>> state = {"players": 1, "pile": [3, 5]}
>>> ACTIONS.legal_moves(state, 0)
[{'type': 'take', 'card': 3}, {'type': 'take', 'card': 5}]
>>> ACTIONS.apply(state, 0, {"type": "take", "card": 5})
({'players': 1, 'pile': [3]}, [{'type': 'taken', 'card': 5}])
>>> ACTIONS.can(state, 0, {"type": "take", "card": 4})
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core import JSON, Event, Move, RuleViolation, State, can, check_seat, move_parser
from rules.shapes import shape, tag_of

Verify = Callable[[State, int, Move], None]
Effect = Callable[[State, int, Move], tuple[State, list[Event]]]
Candidates = Callable[[State, int], Iterable[Move]]
Forms = Callable[[State, int], Iterable[JSON]]


def _no_candidates(state: State, seat: int) -> Iterable[Move]:
    return ()


def _no_forms(state: State, seat: int) -> Iterable[JSON]:
    return ()


def _anyone(state: State, seat: int) -> None:
    return None


@dataclass(frozen=True)
class Action:
    """One move type.

    - ``shape``: its ``TypedDict`` (the ``type`` tag and every field, with facts);
    - ``verify(state, seat, move)``: raise the ``RuleViolation`` that forbids it now;
    - ``apply(state, seat, move)``: the new state and the events (``move`` verified);
    - ``candidates(state, seat)``: the moves of this type worth trying now; the ones
      ``verify`` accepts are legal (an empty enumeration: the move space is described
      instead, ``Wire.move_space``);
    - ``forms(state, seat)``: where the candidates are only some of the legal moves
      (cards chosen from a hand), how to build every one of them now
      (:class:`rules.wire.MoveForm`; ``GameRules.move_forms``).
    """

    shape: type
    verify: Verify
    apply: Effect
    candidates: Candidates = _no_candidates
    forms: Forms = _no_forms

    @property
    def name(self) -> str:
        return str(tag_of(shape(self.shape)))


@dataclass(frozen=True)
class Actions:
    """A game's move types; ``waiting(state, seat)`` raises what forbids a seat any move
    now (not at the table, the game over, not its turn), checked before each type's own
    ``verify`` (``GameRules.waiting``, the bots' refusal, is this check)."""

    kinds: tuple[Action, ...]
    waiting: Callable[[State, int], None] = _anyone
    by_name: Mapping[str, Action] = field(init=False)
    parse_move: Callable[[Mapping[str, Any]], Move] = field(init=False)

    def __post_init__(self) -> None:
        by_name = {kind.name: kind for kind in self.kinds}
        if len(by_name) != len(self.kinds):
            raise ValueError("two actions share a type tag")
        object.__setattr__(self, "by_name", by_name)
        object.__setattr__(self, "parse_move", move_parser([k.shape for k in self.kinds]))

    @property
    def shapes(self) -> tuple[type, ...]:
        return tuple(kind.shape for kind in self.kinds)

    def verify(self, state: State, seat: int, move: Move) -> None:
        """Raise the ``RuleViolation`` that forbids the parsed ``move`` now, if any."""
        check_seat(state, seat)
        self.waiting(state, seat)
        self.by_name[move["type"]].verify(state, seat, move)

    def can(self, state: State, seat: int, move: Move) -> bool:
        return can(self.verify, state, seat, move)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every candidate move that ``verify`` accepts (none while the seat must wait)."""
        check_seat(state, seat)
        try:
            self.waiting(state, seat)
        except RuleViolation:
            return []
        out: list[Move] = []
        for kind in self.kinds:
            for move in kind.candidates(state, seat):
                try:
                    kind.verify(state, seat, move)
                except RuleViolation:
                    continue
                out.append(move)
        return out

    def move_forms(self, state: State, seat: int) -> list[JSON]:
        """How to build the moves the candidates only sample, type by type (none while
        the seat must wait)."""
        check_seat(state, seat)
        try:
            self.waiting(state, seat)
        except RuleViolation:
            return []
        return [form for kind in self.kinds for form in kind.forms(state, seat)]

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """Parse, verify and apply ``move``; never mutates ``state``."""
        move = self.parse_move(move)
        self.verify(state, seat, move)
        return self.by_name[move["type"]].apply(state, seat, move)

    def seat_waiting(self, state: State, seat: int) -> None:
        """Raise why ``seat`` (checked to be at the table) has no move now: the game's
        ``waiting`` (the bots' refusal)."""
        check_seat(state, seat)
        self.waiting(state, seat)

    def functions(self) -> dict[str, Any]:
        """``parse_move``, ``verify``, ``legal_moves``, ``apply`` and ``waiting`` for
        ``GameRules(...)``."""
        return {
            "parse_move": self.parse_move,
            "verify": self.verify,
            "legal_moves": self.legal_moves,
            "apply": self.apply,
            "waiting": self.seat_waiting,
        }
