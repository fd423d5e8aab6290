"""Bots for Compound Capture: ``random`` and ``greedy``.

``random`` picks uniformly among the legal moves (with the game's seeded generator:
:func:`rules.draw_discard_match.choose`).

``greedy`` plays for the score now and for the compounds on the table:

- it captures when it can, choosing the capture with the largest immediate score gain
  (25 for the compound, plus the penalty of every card it sheds: 1 per element card, 5
  per wild card), then the compound with more atoms, then the heavier molar mass;
- it takes the top of the discard pile when that card is a wild card or an element a
  face-up compound needs more of than it holds; otherwise it draws from the draw deck;
- when it must discard, it throws the element card least useful to the face-up
  compounds: first one no face-up compound needs, then one it holds more copies of than
  any face-up compound needs, then the one the fewest face-up compounds need. It keeps
  wild cards unless it holds nothing else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.chemistry.decks.compound import TableCards
from rules.core import Move, State
from rules.draw_discard_wire import Face

from .scoring import COMPOUND_POINTS, ELEMENT_PENALTY, WILD_PENALTY


def capture_gain(move: Move, cards: TableCards[Face]) -> int:
    """The round score a capture adds now: the compound, and the penalties it sheds."""
    wilds = sum(1 for c in move["cards"] if cards.is_wild(c))
    elements = len(move["cards"]) - wilds
    return COMPOUND_POINTS + ELEMENT_PENALTY * elements + WILD_PENALTY * wilds


def row_needs(state: State, cards: TableCards[Face]) -> tuple[Counter[str], Counter[str]]:
    """What the face-up compounds ask for, per element symbol: the largest count of it in
    one compound, and how many compounds use it."""
    most: Counter[str] = Counter()
    users: Counter[str] = Counter()
    for compound in (cards.compound(c) for c in state["zones"]["row"]):
        for symbol, n in compound.elements:
            most[symbol] = max(most[symbol], n)
            users[symbol] += 1
    return most, users


class _Wants:
    """What the face-up compounds ask of a hand."""

    def __init__(self, state: State, seat: int, cards: TableCards[Face]) -> None:
        self.most, self.users = row_needs(state, cards)
        hand = state["zones"]["hand"][seat]
        self.held = Counter(str(cards.face(c)["symbol"]) for c in hand if not cards.is_wild(c))

    def needs(self, symbol: str) -> bool:
        return self.held[symbol] < self.most[symbol]

    def discard_rank(self, symbol: str) -> tuple[int, int]:
        if not self.users[symbol]:
            return (0, 0)
        if self.held[symbol] > self.most[symbol]:
            return (1, self.users[symbol])
        return (2, self.users[symbol])


def greedy(state: State, seat: int, legal: Sequence[Move], cards: TableCards[Face]) -> Move:
    kinds = {m["type"] for m in legal}
    if "next_round" in kinds:
        return next(m for m in legal if m["type"] == "next_round")
    if "draw" in kinds:
        sources = {m["source"] for m in legal if m["type"] == "draw"}
        top = state["zones"]["discard"][-1] if state["zones"]["discard"] else None
        if "discard" in sources and top is not None:
            face = cards.face(top)
            if face["kind"] == "wild" or _Wants(state, seat, cards).needs(str(face["symbol"])):
                return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "deck" if "deck" in sources else "discard"}
    captures = [m for m in legal if m["type"] == "capture"]
    if captures:

        def value(m: Move) -> tuple[int, int, float, list[int]]:
            compound = cards.compound(m["compound"])
            gain = capture_gain(m, cards)
            return (gain, compound.atoms, compound.molar_mass, [-c for c in m["cards"]])

        return max(captures, key=value)
    discards = [m for m in legal if m["type"] == "discard"]
    wants = _Wants(state, seat, cards)

    def usefulness(m: Move) -> tuple[int, int, int]:
        face = cards.face(m["card"])
        if face["kind"] == "wild":
            return (3, 0, -int(m["card"]))
        rank = wants.discard_rank(str(face["symbol"]))
        return (*rank, -int(m["card"]))

    return min(discards, key=usefulness)
