"""Scoring of a Chemistry Canasta round, with its evidence.

Seed: "Each compound card is worth 25 points. Each card in a run, including wild cards
is worth 10. Cards remaining in the player's hand must be counted against the total.
Each element card reduces the count by 1 point. Each wild card held in the hand reduces
the count by 5 points."

The compound and hand parts are Compound Capture's (:mod:`rules.compound_capture.scoring`);
this module adds the runs. A card in a run scores for the seat that laid its place
(``by``): the run's owner, or under ``runs: "anyone"`` the seat that extended it. A
claimed wild's place keeps its scorer: the card that replaces it fills the same place.

>>> seat_points(compounds=2, run_cards=4, elements=3, wilds=1)
82
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from rules.chemistry.decks.compound import TableCards
from rules.compound_capture import scoring as capture_scoring
from rules.core import JSON
from rules.draw_discard_wire import Face

from .wire import RoundResult, SeatResult

COMPOUND_POINTS = capture_scoring.COMPOUND_POINTS
ELEMENT_PENALTY = capture_scoring.ELEMENT_PENALTY
WILD_PENALTY = capture_scoring.WILD_PENALTY
RUN_CARD_POINTS = 10

RoundEnd = Literal["all_captured", "went_out", "deck_empty"]
"""Why a round ends (the declared ``RoundResult``'s ``reason``)."""

SEED_SCORING = (
    "Each compound card is worth 25 points. Each card in a run, including wild cards is "
    "worth 10. Cards remaining in the player's hand must be counted against the total. Each "
    "element card reduces the count by 1 point. Each wild card held in the hand reduces the "
    "count by 5 points."
)


def seat_points(*, compounds: int, run_cards: int, elements: int, wilds: int) -> int:
    """25 per compound, 10 per run card laid, minus 1 per element and 5 per wild in hand."""
    return (
        capture_scoring.seat_points(compounds=compounds, elements=elements, wilds=wilds)
        + RUN_CARD_POINTS * run_cards
    )


def run_cards(runs: Sequence[Sequence[Any]], seat: int) -> int:
    """The cards in runs (on every board) whose place ``seat`` laid."""
    return sum(1 for board in runs for run in board for p in run if p["by"] == seat)


def seat_breakdown(
    seat: int,
    captured: Sequence[int],
    hand: Sequence[int],
    runs: Sequence[Sequence[Any]],
    cards: TableCards[Face],
) -> SeatResult:
    """One seat's round score with the evidence behind each number (its run places after
    Compound Capture's members)."""
    shared = capture_scoring.seat_breakdown(seat, captured, hand, cards)
    laid = run_cards(runs, seat)
    return {
        "seat": shared["seat"],
        "compounds": shared["compounds"],
        "compound_points": shared["compound_points"],
        "elements_in_hand": shared["elements_in_hand"],
        "wilds_in_hand": shared["wilds_in_hand"],
        "penalty": shared["penalty"],
        "points": shared["points"] + RUN_CARD_POINTS * laid,
        "run_cards": laid,
        "run_points": RUN_CARD_POINTS * laid,
    }


def round_result(
    zones: JSON,
    runs: Sequence[Sequence[Any]],
    cards: TableCards[Face],
    reason: RoundEnd,
    went_out: int | None,
) -> RoundResult:
    """The scores of a finished round, why it ended, who went out, and its winners."""
    seats = [
        seat_breakdown(s, zones["captured"][s], zones["hand"][s], runs, cards)
        for s in range(len(zones["hand"]))
    ]
    best = max(b["points"] for b in seats)
    return {
        "reason": reason,
        "went_out": went_out,
        "seats": seats,
        "winners": [b["seat"] for b in seats if b["points"] == best],
    }
