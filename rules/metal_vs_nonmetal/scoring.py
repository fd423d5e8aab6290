"""The score: cards collected. The most cards collected wins; equal counts share a place."""

from __future__ import annotations

from rules.chemistry.decks.ion import count_by_ion
from rules.core import Outcome, State, rank_seats

from . import wire
from .table import deck_of, finished, layout


def collected_counts(state: State) -> list[int]:
    return [len(pile) for pile in state["zones"]["collection"]]


def scores(state: State) -> wire.Scores:
    """Cards collected per seat (the score), with the ions in each collection once it
    may be seen by anyone (face up, or the game over)."""
    deck = deck_of(state)
    counts = collected_counts(state)
    lay = layout(state)
    seats: list[wire.SeatScore] = []
    for s in range(int(state["players"])):
        won = [h["exchange"] for h in state["history"] if h["collector"] == s]
        pile = state["zones"]["collection"][s]
        seats.append(
            {
                "seat": s,
                "collected": counts[s],
                "by_ion": count_by_ion(deck, pile)
                if lay.can_see(("collection", s), None)
                else None,
                "exchanges_won": won,
            }
        )
    return {
        "final": finished(state),
        "seats": seats,
        "set_aside": len(state["zones"]["set_aside"]),
    }


def outcome(state: State) -> Outcome:
    """Most cards collected wins; equal counts share a place (1, 1, 3)."""
    if not finished(state):
        return Outcome(finished=False)
    counts = collected_counts(state)
    ranking, places = rank_seats(range(len(counts)), counts.__getitem__)
    winners = tuple(s for s, p in zip(ranking, places, strict=True) if p == 1)
    return Outcome(
        finished=True,
        winners=winners,
        ranking=ranking,
        places=places,
        tie_break="shared" if len(winners) > 1 else None,
    )
