"""The moves of the polymer-chain game, each type in one place (:mod:`rules.actions`).

A turn is two moves by the seat in turn: ``draw`` (a card from the stack), then one
round: ``initiate``, ``propagate`` or ``reactivate`` (regular cards, :mod:`.rounds`),
``cap``, ``transfer``, ``copolymerize`` or ``terminate`` (a joker, :mod:`.jokers`), or
``discard`` (:mod:`.turn`). Each module holds, per move type, its shape, its legality,
its candidates and its effect with the events it emits; :data:`ACTIONS` puts them
together, after the check every move shares (whose turn it is, :func:`.turn.waiting`).

>>> from rules.polymerization import GAME
>>> state = GAME.setup(2, {"deal": [[41, 1, 5], [42, 11, 15]]}, seed=1)
>>> legal_moves(state, 0), legal_moves(state, 1)
([{'type': 'draw'}], [])
>>> ACTIONS.parse_move({"type": "reactivate", "chain": 2})
{'type': 'reactivate', 'chain': 2, 'cards': []}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.actions import Actions
from rules.core import Move, State

from ..wire import LIST_MAX
from . import jokers, rounds, turn

__all__ = ["ACTIONS", "EVENTS", "FUNCTIONS", "LIST_MAX", "legal_moves"]

ACTIONS = Actions(
    (
        turn.DRAW,
        rounds.INITIATE,
        rounds.PROPAGATE,
        rounds.REACTIVATE,
        *jokers.KINDS,
        turn.DISCARD_CARD,
    ),
    waiting=turn.waiting,
)

EVENTS = (*turn.EVENTS, *rounds.EVENTS, *jokers.EVENTS)
"""Every event a move emits."""

_RANK: Mapping[str, int] = {kind.name: i for i, kind in enumerate(ACTIONS.kinds)}
_JOKERS: Mapping[str, int] = {kind.name: _RANK[jokers.KINDS[0].name] for kind in jokers.KINDS}


def _order(move: Move) -> tuple[int, int]:
    """The move types in the order of ``ACTIONS``, except that the jokers' moves form one
    group, ordered by the card played (the sort is stable: one card's moves keep the
    order of their enumeration)."""
    if move["type"] in _JOKERS:
        return (_JOKERS[move["type"]], move["card"])
    return (_RANK[move["type"]], 0)


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now, one per choice of card faces (the lowest id of
    each face: any identical copy is accepted too).

    In the order the bots' choices rest on (the random bot draws from this list): the
    draw, the regular rounds, the jokers by the card played (lowest id first, whatever
    the joker), the discards.
    """
    return sorted(ACTIONS.legal_moves(state, seat), key=_order)


FUNCTIONS: Mapping[str, Any] = {**ACTIONS.functions(), "legal_moves": legal_moves}
"""``parse_move``, ``verify``, ``legal_moves``, ``apply`` and ``waiting`` for ``GameRules``."""
