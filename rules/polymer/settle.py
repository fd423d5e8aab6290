"""Settling open loans when time is up.

The seed: "Once the timer reaches 0, all players must stop trading and now hold the
same number of cards as they started with." Loans are the only way counts differ,
so every open loan is repaid, deterministically:

1. Loans are settled one at a time. First a loan whose debtor still holds every card
   it borrowed (so along a chain A -> B -> C, C repays B before B repays A and the
   original cards travel home), else one whose debtor holds at least what it owes;
   the lowest-numbered loan among those. If no debtor can pay in full, the
   lowest-numbered loan is paid with every card its debtor holds and stays open for
   the rest.
2. The debtor returns the very cards it borrowed while it still holds them (lowest
   id first), then the cards whose loss costs it least: one at a time, the card
   whose removal leaves its best arrangement highest (longest pattern, then the other
   patterns, then the top rank), lowest id on a tie.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Event, State
from rules.zones import emitted

from . import explain
from .cards import card_json
from .patterns import best_arrangement
from .table import transfer
from .wire import LoanSettledEvent, Settlement


def strength(hand: Sequence[int]) -> tuple[int, int, int]:
    """How good a hand is for its owner: its best arrangement's longest length, the
    rest of its patterns, then the longest pattern's top rank (compared as a tuple)."""
    best = best_arrangement(hand)
    return best.longest_length, best.rest_value, best.top_rank


def returned_cards(hand: Sequence[int], lent: Sequence[int], count: int) -> list[int]:
    """The ``count`` cards a debtor holding ``hand`` returns on a loan of ``lent``."""
    out = sorted(c for c in lent if c in hand)[:count]
    rest = [c for c in hand if c not in out]
    while len(out) < count:
        pick = max(sorted(rest), key=lambda c: strength([x for x in rest if x != c]))
        out.append(pick)
        rest.remove(pick)
    return out


def settle(state: State) -> tuple[State, list[Event]]:
    hands = [list(h) for h in state["hands"]]
    loans = [dict(ln) for ln in sorted(state["loans"], key=lambda ln: ln["id"])]
    record: list[Settlement] = list(state["settlement"])
    events: list[Event] = []
    while loans:
        payable = [ln for ln in loans if len(hands[ln["debtor"]]) >= ln["outstanding"]]
        intact = [ln for ln in payable if set(ln["cards"]) <= set(hands[ln["debtor"]])]
        loan = (intact or payable or loans)[0]
        count = min(int(loan["outstanding"]), len(hands[loan["debtor"]]))
        if count == 0:
            break  # cannot happen while counts are conserved; check() would report it
        cards = returned_cards(hands[loan["debtor"]], loan["cards"], count)
        transfer(hands, loan["debtor"], loan["lender"], cards)
        loan["outstanding"] = int(loan["outstanding"]) - count
        entry: Settlement = {
            "loan": loan["id"],
            "lender": loan["lender"],
            "debtor": loan["debtor"],
            "cards": [card_json(c) for c in cards],
        }
        record.append(entry)
        settled: LoanSettledEvent = {
            "type": "loan_settled",
            **entry,
            "explanation": explain.settled(loan["id"], loan["lender"], loan["debtor"], cards),
        }
        events.append(emitted(settled))
        loans = [ln for ln in loans if ln["outstanding"] > 0]
    return {**state, "hands": hands, "loans": loans, "settlement": record}, events
