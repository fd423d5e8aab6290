"""Bots for Compound Capture: ``random`` and ``greedy``.

``random`` picks uniformly among the legal moves (with the game's seeded generator).

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
from rules.core import JSON, Move, RuleViolation, State
from rules.rng import RngState, choice

from .scoring import COMPOUND_POINTS, ELEMENT_PENALTY, WILD_PENALTY

BOTS = ("random", "greedy")


def choose(
    state: State, seat: int, bot: str, legal: Sequence[Move], cards: TableCards
) -> tuple[Move, RngState]:
    """The move ``bot`` makes for ``seat`` among ``legal``, and the advanced generator."""
    rng: RngState = state["rng"]
    if bot == "random":
        rng, move = choice(rng, list(legal))
        return move, rng
    if bot == "greedy":
        return greedy(state, seat, legal, cards), rng
    raise RuleViolation("unknown_bot", f"There is no bot {bot!r}; choose one of {list(BOTS)}.")


def capture_gain(move: Move, cards: TableCards) -> int:
    """The round score a capture adds now: the compound, and the penalties it sheds."""
    wilds = sum(1 for c in move["cards"] if cards.is_wild(c))
    elements = len(move["cards"]) - wilds
    return COMPOUND_POINTS + ELEMENT_PENALTY * elements + WILD_PENALTY * wilds


class _Wants:
    """What the face-up compounds ask of a hand."""

    def __init__(self, state: State, seat: int, cards: TableCards) -> None:
        row = [cards.compound(c) for c in state["zones"]["row"]]
        self.most: Counter[str] = Counter()  # the largest count of a symbol in one compound
        self.users: Counter[str] = Counter()  # how many face-up compounds use the symbol
        for compound in row:
            for symbol, n in compound.elements:
                self.most[symbol] = max(self.most[symbol], n)
                self.users[symbol] += 1
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


def greedy(state: State, seat: int, legal: Sequence[Move], cards: TableCards) -> Move:
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
        face: JSON = cards.face(m["card"])
        if face["kind"] == "wild":
            return (3, 0, -int(m["card"]))
        rank = wants.discard_rank(str(face["symbol"]))
        return (*rank, -int(m["card"]))

    return min(discards, key=usefulness)
