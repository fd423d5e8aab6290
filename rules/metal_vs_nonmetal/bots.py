"""The ``greedy`` bot (best immediate gain); ``random`` (uniform over the legal moves,
with the game's own generator) is every game's.

``greedy`` judges a move by the cards it expects to win minus the cards it expects to
give away in this exchange, using only what its seat can see:

- as the initiating player it plays a card of the ion it holds most copies of (the
  best backing for reinforcements), the higher charge number first (it asks the
  answer for more cards), the lowest card id of that ion;
- as the responding player it weighs each answer: one that does not beat the lead
  gives the initiating player every card in play; a power play wins them unless the
  initiating player holds the reinforcements it needs, whose chance it computes from
  the cards it has not seen (a hypergeometric draw of the initiating player's hand);
- it always calls for reinforcements when it can (they win every card in play).
"""

from __future__ import annotations

from math import comb

from rules.core import Move, State

from . import exchange as ex
from .table import deck_of, in_play, layout, lead_ion


def greedy_bot(state: State, seat: int, legal: list[Move]) -> tuple[Move, State]:
    """The ``greedy`` bot's move (it draws nothing from the generator)."""
    return greedy(state, seat, legal), state


def greedy(state: State, seat: int, legal: list[Move]) -> Move:
    phase = state["phase"]
    if phase == "initiate":
        deck = deck_of(state)
        mine = state["zones"]["hand"][seat]
        held = ex.held(deck, mine)

        def strength(move: Move) -> tuple[int, int, int]:
            i = deck.ion_of(move["card"])
            return (held[i], i.magnitude, -move["card"])

        return max(legal, key=strength)
    if phase == "respond":
        return max(legal, key=lambda m: (answer_value(state, seat, m), -len(m["cards"])))
    return legal[0]  # a reinforcement when there is one, else decline


def answer_value(state: State, seat: int, move: Move) -> float:
    """Expected cards won minus cards given away by answering with ``move``."""
    deck = deck_of(state)
    initiator = int(state["initiator"])
    lead_cards = in_play(state, initiator)
    lead = deck.ion_of(lead_cards[0])
    answer = deck.ion_of(move["cards"][0])
    count = len(move["cards"])
    stake = len(lead_cards) + count
    ours, theirs = answer.magnitude * count, lead.magnitude * len(lead_cards)
    if ours <= theirs:
        return -float(stake)
    need = ex.reinforcement_need(lead, theirs, ours)
    p = chance_of_holding(state, seat, initiator, need)
    if state["options"]["power_play_prize"] == "responder_cards":
        keep = float(count)
    else:
        keep = float(stake)
    return (1 - p) * keep - p * (stake + need)


def chance_of_holding(state: State, seat: int, other: int, need: int) -> float:
    """The chance that ``other``'s hand holds ``need`` cards of the lead's ion, judged
    from what ``seat`` can see (every card it cannot see is equally likely)."""
    deck = deck_of(state)
    lead = lead_ion(state)
    seen = layout(state).visible(state["zones"], seat)
    unseen = [c for c in deck.ids if c not in seen]
    size = len(state["zones"]["hand"][other])
    wanted = sum(1 for c in unseen if deck.ion_of(c) is lead)
    return hypergeometric_at_least(len(unseen), wanted, size, need)


def hypergeometric_at_least(population: int, successes: int, draws: int, need: int) -> float:
    """P(X >= need) drawing ``draws`` of ``population`` cards, ``successes`` of them good.

    >>> round(hypergeometric_at_least(10, 5, 2, 1), 4)  # 1 - C(5,2)/C(10,2)
    0.7778
    >>> hypergeometric_at_least(10, 0, 3, 1), hypergeometric_at_least(10, 3, 3, 0)
    (0.0, 1.0)
    """
    if need <= 0:
        return 1.0
    total = comb(population, draws)
    if total == 0:
        return 0.0
    good = sum(
        comb(successes, x) * comb(population - successes, draws - x)
        for x in range(need, min(draws, successes) + 1)
    )
    return good / total
