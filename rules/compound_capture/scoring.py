"""Scoring of a Compound Capture round, with its evidence.

Seed: "Each compound card is worth 25 points. Cards remaining in the player's hand must
be counted against the total. Each element card reduces the count by 1 point. Each wild
card held in the hand reduces the count by 5 points."

>>> seat_points(compounds=3, elements=4, wilds=1)
66
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rules.chemistry.decks.compound import TableCards
from rules.core import JSON
from rules.draw_discard_wire import Face, SeatResult

from .wire import RoundResult

RoundEnd = Literal["all_captured", "quiet_lap", "deck_empty"]
"""Why a round ends (the declared ``RoundResult``'s ``reason``)."""

COMPOUND_POINTS = 25
ELEMENT_PENALTY = 1
WILD_PENALTY = 5

SEED_SCORING = (
    "Each compound card is worth 25 points. Cards remaining in the player's hand must be "
    "counted against the total. Each element card reduces the count by 1 point. Each wild "
    "card held in the hand reduces the count by 5 points."
)


def seat_points(*, compounds: int, elements: int, wilds: int) -> int:
    """25 per compound captured, minus 1 per element card and 5 per wild card in hand."""
    return COMPOUND_POINTS * compounds - ELEMENT_PENALTY * elements - WILD_PENALTY * wilds


def seat_breakdown(
    seat: int, captured: Sequence[int], hand: Sequence[int], cards: TableCards[Face]
) -> SeatResult:
    """One seat's round score with the evidence behind each number."""
    wilds = sum(1 for c in hand if cards.is_wild(c))
    elements = len(hand) - wilds
    penalty = ELEMENT_PENALTY * elements + WILD_PENALTY * wilds
    return {
        "seat": seat,
        "compounds": [str(cards.face(c)["formula"]) for c in captured],
        "compound_points": COMPOUND_POINTS * len(captured),
        "elements_in_hand": elements,
        "wilds_in_hand": wilds,
        "penalty": penalty,
        "points": seat_points(compounds=len(captured), elements=elements, wilds=wilds),
    }


def round_result(zones: JSON, cards: TableCards[Face], reason: RoundEnd) -> RoundResult:
    """The scores of a finished round, the reason it ended, and its winners."""
    seats = [
        seat_breakdown(s, zones["captured"][s], zones["hand"][s], cards)
        for s in range(len(zones["hand"]))
    ]
    best = max(b["points"] for b in seats)
    return {
        "reason": reason,
        "seats": seats,
        "winners": [b["seat"] for b in seats if b["points"] == best],
    }
