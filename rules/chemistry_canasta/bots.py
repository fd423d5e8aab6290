"""Bots for Chemistry Canasta: ``random`` and ``greedy``.

``random`` picks uniformly among the legal moves (with the game's seeded generator:
:func:`rules.draw_discard_match.choose`).

``greedy``, in order of preference:

- it captures when it can, choosing as Compound Capture's greedy bot does (the largest
  immediate gain: 25 plus the penalty of every card it sheds, then the compound with
  more atoms, then the heavier one);
- else it lays the longest run or extension it can (most cards; then fewer wild
  cards, keeping them for later; then the lowest numbers);
- else it claims a wild card (from another seat's board first, then its own);
- else it discards the card least useful to it (below).

A card's usefulness: a wild card is the most useful (it fits any run or capture); an
element card scores one point for each face-up compound that needs it (two when the
compound needs more of it than the hand holds), two for each of its own runs it would
extend or wild card it could claim, and one for each other card of the hand within two
atomic numbers of it (a run in the making). Ties go to the higher card id.

When drawing it takes the top of the discard pile when that card is a wild card or an
element worth at least two by the same measure; otherwise it draws from the deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rules.chemistry.decks.compound import TableCards
from rules.compound_capture.bots import capture_gain, row_needs
from rules.core import Move, State
from rules.draw_discard_wire import Face

WILD_USE = 100


class Usefulness:
    """How much ``seat`` wants an element card, from the table as it is now."""

    def __init__(self, state: State, seat: int, cards: TableCards[Face]) -> None:
        self.most, self.users = row_needs(state, cards)
        hand = [cards.face(c) for c in state["zones"]["hand"][seat]]
        self.held = Counter(str(f["symbol"]) for f in hand if f["kind"] == "element")
        self.numbers = Counter(int(f["z"]) for f in hand if f["kind"] == "element")
        self.ends: Counter[int] = Counter()  # numbers that extend one of its runs
        for run in state["runs"][seat]:
            self.ends[int(run[0]["number"]) - 1] += 1
            self.ends[int(run[-1]["number"]) + 1] += 1
        self.wilds: Counter[int] = Counter(  # numbers whose wild card it could claim
            int(p["number"]) for board in state["runs"] for run in board for p in run if p["wild"]
        )

    def of(self, face: Mapping[str, Any], *, in_hand: bool) -> int:
        if face["kind"] == "wild":
            return WILD_USE
        symbol, z = str(face["symbol"]), int(face["z"])
        held = self.held[symbol] - (1 if in_hand else 0)
        need = self.users[symbol] + (1 if held < self.most[symbol] else 0)
        near = sum(n for number, n in self.numbers.items() if 0 < abs(number - z) <= 2)
        return need + 2 * (self.ends[z] + self.wilds[z]) + near


def _draw(state: State, seat: int, legal: Sequence[Move], cards: TableCards[Face]) -> Move:
    sources = {m["source"] for m in legal}
    discard = state["zones"]["discard"]
    if "discard" in sources and discard:
        top = cards.face(discard[-1])
        if Usefulness(state, seat, cards).of(top, in_hand=False) >= 2:
            return {"type": "draw", "source": "discard"}
    return {"type": "draw", "source": "deck" if "deck" in sources else "discard"}


def greedy(state: State, seat: int, legal: Sequence[Move], cards: TableCards[Face]) -> Move:
    by_kind: dict[str, list[Move]] = {}
    for m in legal:
        by_kind.setdefault(m["type"], []).append(m)
    if "next_round" in by_kind:
        return by_kind["next_round"][0]
    if "draw" in by_kind:
        return _draw(state, seat, by_kind["draw"], cards)
    if "capture" in by_kind:

        def gain(m: Move) -> tuple[int, int, float, list[int]]:
            compound = cards.compound(m["compound"])
            return (capture_gain(m, cards), compound.atoms, compound.molar_mass, m["cards"])

        return max(by_kind["capture"], key=gain)
    melds = by_kind.get("run", []) + by_kind.get("extend", [])
    if melds:

        def size(m: Move) -> tuple[int, int, list[int]]:
            wilds = sum(1 for c in m["cards"] if cards.is_wild(c))
            return (len(m["cards"]), -wilds, [-c for c in m["cards"]])

        return max(melds, key=size)
    if "claim" in by_kind:
        return min(by_kind["claim"], key=lambda m: (m["owner"] == seat, m["owner"], m["run"]))
    use = Usefulness(state, seat, cards)
    return min(
        by_kind["discard"],
        key=lambda m: (use.of(cards.face(m["card"]), in_hand=True), -int(m["card"])),
    )
