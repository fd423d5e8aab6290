"""Polymer's scores and outcome: known only once time is up (before that, hands are
secret). The patterns and the score formula are in :mod:`rules.polymer.patterns`."""

from __future__ import annotations

from rules.core import Outcome, State

from .patterns import ranking, table_scores
from .wire import Scores, SeatScore


def scores(state: State) -> Scores:
    """Final scores once time is up; before that hands are secret, so nothing."""
    if state["phase"] != "ended":
        return {"final": False, "seats": [], "places": []}
    table = table_scores(state["hands"])
    return {"final": True, "seats": table, "places": ranking(table)}


def outcome(state: State) -> Outcome:
    if state["phase"] != "ended":
        return Outcome(finished=False)
    return final(state)[1]


def final(state: State) -> tuple[list[SeatScore], Outcome]:
    """The final table (``patterns.table_scores``) and the outcome it gives, once time
    is up."""
    table = table_scores(state["hands"])
    places = ranking(table)
    order = tuple(s for place in places for s in place)
    winners = tuple(places[0])
    by_seat = {int(row["seat"]): row for row in table}
    top = [s for s in order if by_seat[s]["score"] == by_seat[order[0]]["score"]]
    tie_break = None
    if len(winners) > 1:
        tie_break = "shared"
    elif len(top) > 1:
        # the deepest tiebreaker needed to separate the winner from any seat tied on score
        first = by_seat[winners[0]]["tie_break"]
        depth = max(
            next(i for i in range(3) if by_seat[s]["tie_break"][i] != first[i])
            for s in top
            if s != winners[0]
        )
        tie_break = ("own_top_rank", "neighbours_higher_rank", "neighbours_lower_rank")[depth]
    place_of = {s: 1 + sum(len(p) for p in places[:i]) for i, p in enumerate(places) for s in p}
    return table, Outcome(
        finished=True,
        winners=winners,
        ranking=order,
        places=tuple(place_of[s] for s in order),
        tie_break=tie_break,
    )
