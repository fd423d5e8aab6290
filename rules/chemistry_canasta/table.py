"""The table of Chemistry Canasta: its zones, its cards, the deal and the turn record.

The zones are the shared draw-two table (:mod:`rules.draw_discard`) plus one board of
runs per seat; the cards are the Basic Deck of 54 Elements (ids 1-54, the atomic
numbers) followed by the compound expansion(s). A run on a board is a list of
positions (:mod:`.runs`) kept in ``state["runs"][seat]``; the board zone holds the
same cards, so that card conservation and visibility are checked as for any zone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import draw_discard as dd
from rules import draw_discard_match as dm
from rules.chemistry.decks.compound import (
    TableCards,
    custom_key,
    named_table_cards,
)
from rules.chemistry.elements import element
from rules.core import JSON, Event, State
from rules.zones import Seen, Zone

from .wire import Card, Position, Run

LAYOUT = dd.layout(Zone("runs", Seen.PUBLIC, per_seat=True, ordered=False))
"""The shared table plus each seat's board of runs (every card on it face up), while a
round is being played."""
layout = dm.round_layout(LAYOUT)
"""The table of a state: the hands are shown once the round is over."""

DECK_OUT = "end_round"  # the shared draw step never reshuffles: moves.can_reshuffle does


def cards_of(state: State) -> TableCards[Card]:
    """The physical cards of this game: the Basic Deck (ids 1-54) then the expansions."""
    names = tuple(state["decks"])
    custom = custom_key(state["options"]["compounds"]) if "custom" in names else ()
    return named_table_cards(names, custom, basic=True)


def new_turn(seat: int) -> JSON:
    """The shared turn record, plus whether the seat has laid a run this turn."""
    return {**dd.new_turn(seat), "melded": False}


def deal(
    state: State, cards: TableCards[Card], dealer: int, spec: Mapping[str, Any] | None = None
) -> tuple[State, list[Event]]:
    """Deal a round (:func:`rules.draw_discard.deal`) with empty boards of runs."""
    players = int(state["players"])
    fresh = {**state, "runs": [[] for _ in range(players)], "reshuffled": 0, "result": None}
    new, events = dd.deal(fresh, cards, dealer, LAYOUT, spec, round_no=state["match"]["round"])
    new["turn"] = {**new["turn"], "melded": False}
    return new, events


def position_view(position: Mapping[str, Any], cards: TableCards[Card]) -> Position:
    """A place in a run: the number it is or stands for, and the card lying there."""
    e = element(int(position["number"]))
    return {
        "number": e.number,
        "symbol": e.symbol,
        "name": e.name,
        "wild": bool(position["wild"]),
        "by": int(position["by"]),
        "card": cards.face(int(position["card"])),
    }


def run_view(
    owner: int, index: int, run: Sequence[Mapping[str, Any]], cards: TableCards[Card]
) -> Run:
    """A run as everyone sees it: its span, its wild cards and every position."""
    return {
        "owner": owner,
        "run": index,
        "low": int(run[0]["number"]),
        "high": int(run[-1]["number"]),
        "length": len(run),
        "wilds": sum(1 for p in run if p["wild"]),
        "positions": [position_view(p, cards) for p in run],
    }
