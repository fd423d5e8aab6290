"""Bots for Chemistry Battle.

- ``random`` (:func:`rules.core.random_bot`): any legal move, uniformly, drawn with the
  game's own seeded generator.
- ``greedy``: win the round as cheaply as possible: the lowest card of its hand that
  beats every card on the table, else its lowest card (keep the high cards for later).
  A seat with no choice (its cards are played in order) makes the one move it has.

>>> pick_greedy([3, 20, 30], table=[12, 25])
30
>>> pick_greedy([3, 20, 30], table=[12, 8])
20
>>> pick_greedy([3, 20], table=[40])
3
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Move, State


def pick_greedy(hand: Sequence[int], table: Sequence[int]) -> int:
    """The lowest card that beats the table (leading: the lowest card), else the lowest."""
    best = max(table, default=0)
    winners = [z for z in hand if z > best]
    return min(winners) if winners else min(hand)


def greedy(state: State, seat: int, legal: list[Move]) -> tuple[Move, State]:
    """The greedy bot's move among ``legal`` (it draws nothing at random)."""
    cards = [int(m["card"]) for m in legal if m["type"] == "play"]
    if not cards:
        return legal[0], state
    return {"type": "play", "card": pick_greedy(cards, state["zones"]["table"])}, state
