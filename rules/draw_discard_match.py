"""Rounds of the draw-two table played in a match: what Compound Capture and Chemistry
Canasta share above the turn.

:mod:`rules.draw_discard` is the table and the turn; :mod:`rules.match` the rounds to a
target. Both games build the same game module on them, and this module holds that
common part once: the state before the first deal, the refusals of the match (a move
once the round or the match is over) and the reason a seat has no move, who acts, the
end of a round, the view of the table and the scores rows, and the greedy bot's
plumbing. Each game passes in what it adds: its rules shown in the view, its board and
extra points per seat (Canasta's runs), its greedy bot and its scoring. The shapes of
all of it are declared in :mod:`rules.draw_discard_wire`.

The state keys used, beyond those of :mod:`rules.draw_discard`: ``options``, ``decks``,
``match`` (:mod:`rules.match`) and ``result`` (the finished round's scores, else
``None``).

Refusals: ``game_over``, ``round_over`` and :func:`rules.match.verify_next_round`'s
codes, ``not_your_turn``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from rules import draw_discard as dd
from rules import draw_discard_wire as dw
from rules import match
from rules.actions import Verify
from rules.chemistry.decks.compound import DECK_NAMES, TableCards, custom_deck
from rules.core import Chooser, Event, Move, Outcome, RuleViolation, State, check_seat
from rules.draw_discard_wire import Face, S
from rules.rng import new_rng
from rules.wire import C, Pile
from rules.zones import Layout, Place, Zones, emitted

__all__ = [
    "ONE_DECK_MAX",
    "decks_chosen",
    "end_round",
    "greedy_bot",
    "in_round",
    "new_state",
    "next_rounds",
    "outcome",
    "phase",
    "pile",
    "piles",
    "redeal_hidden",
    "round_layout",
    "round_over",
    "scores",
    "seat_score",
    "seat_view",
    "to_act",
    "verify_next_round",
    "waiting",
    "you",
]

ONE_DECK_MAX = 3
"""The most players one compound deck serves (Compound Capture's seed); with option
``decks`` null, both games play one deck up to this count and both decks above it."""

Greedy = Callable[[State, int, Sequence[Move], TableCards[Face]], Move]


# ---------------------------------------------------------------- setup -------------
def new_state(players: int, opts: Mapping[str, Any], decks: list[str], seed: int) -> State:
    """The state of a new match before its first deal (the dealer is ``match.dealer``:
    the last seat, so that seat 0, left of the dealer, starts the first round)."""
    return {
        "players": players,
        "options": opts,
        "decks": decks,
        "rng": new_rng(seed),
        "match": match.new_match(
            players,
            target=opts["target"],
            dealer=players - 1,
            on_tie=opts["on_tie"],
            max_rounds=opts["max_rounds"],
        ),
    }


def decks_chosen(opts: dict[str, Any], players: int, *, built_in: str, own: str) -> list[str]:
    """The compound decks that options ``decks`` and ``compounds`` choose: ``["custom"]``
    for a teacher's own (``opts["compounds"]`` is normalised in place; the game decides
    how many copies), covalent or both by player count for ``decks`` null, both for
    ``"both"``, else the one named. ``built_in`` and ``own`` name the two kinds in the
    refusal of both options at once."""
    chosen, custom = opts["decks"], opts["compounds"]
    if custom is not None:
        if chosen is not None:
            raise RuleViolation(
                "bad_option",
                f"Give either decks ({built_in}) or compounds ({own}), not both.",
            )
        deck = custom_deck(custom)  # raises bad_compounds
        opts["compounds"] = [
            {"formula": c.formula, "name": c.name, "bonding": c.bonding} for c in deck.compounds
        ]
        return ["custom"]
    if chosen is None:
        return ["covalent"] if players <= ONE_DECK_MAX else list(DECK_NAMES)
    return list(DECK_NAMES) if chosen == "both" else [chosen]


# ---------------------------------------------------------------- the round ---------
def round_over(state: State) -> bool:
    return state["result"] is not None


def in_round(verify: Verify) -> Verify:
    """The ``verify`` of a move of the round (any but ``next_round``), refused first once
    the match or the round is over."""

    def verify_in_round(state: State, seat: int, move: Move) -> None:
        if state["match"]["over"]:
            raise RuleViolation("game_over", "The match is over; no more moves are accepted.")
        if round_over(state):
            dealer = match.next_round_seat(state["match"])
            raise RuleViolation(
                "round_over",
                f"The round is over: seat {dealer}, the next dealer, deals the next round.",
                dealer=dealer,
            )
        verify(state, seat, move)

    return verify_in_round


def verify_next_round(state: State, seat: int, move: Move) -> None:
    """Refuse ``next_round`` out of its time or by another seat than the next dealer
    (:func:`rules.match.verify_next_round`)."""
    match.verify_next_round(state["match"], round_over(state), seat)


def next_rounds(state: State, seat: int) -> list[Move]:
    """The ``next_round`` move (legal once a round is over, for the next dealer)."""
    return [{"type": "next_round"}]


def waiting(state: State, seat: int) -> None:
    """Raise why ``seat`` has no move now (a bot asked to move for it): the match is
    over, or another seat is to act."""
    check_seat(state, seat)
    if state["match"]["over"]:
        raise RuleViolation("game_over", "The match is over; no more moves are accepted.")
    raise RuleViolation(
        "not_your_turn", f"Seat {to_act(state)[0]} is to act, not seat {seat}.", seat=seat
    )


def to_act(state: State) -> list[int]:
    """The seat whose turn it is; between rounds the next dealer; nobody once the match
    is over."""
    if state["match"]["over"]:
        return []
    if round_over(state):
        return [match.next_round_seat(state["match"])]
    return [int(state["turn"]["seat"])]


def end_round(
    state: State, result: Mapping[str, Any], ended: Mapping[str, object], events: list[Event]
) -> tuple[State, list[Event]]:
    """End the round with ``result`` (its ``seats``' ``points`` go to the match): no seat
    has the turn; ``ended`` (the game's ``round_ended`` event, built as its declared
    ``RoundEndedEvent``) and the match's own events (:func:`rules.match.end_round`) are
    added to ``events``."""
    m, more = match.end_round(state["match"], [s["points"] for s in result["seats"]])
    new = {**state, "turn": None, "result": result, "match": m}
    events.append(emitted(ended))
    events.extend(more)
    return new, events


def outcome(state: State) -> Outcome:
    return match.outcome(state["match"])


def round_layout(playing: Layout) -> Callable[[State], Layout]:
    """A game's layout of a state (``GameRules.layout``): ``playing`` while a round is
    being played; from its end until the next deal, the hands are on the table
    (:meth:`rules.zones.Layout.at_end`): "Cards remaining in the player's hand must be
    counted against the total"."""
    ended = playing.at_end()

    def layout_of(state: State) -> Layout:
        return ended if round_over(state) else playing

    return layout_of


def redeal_hidden(
    layout_of: Callable[[State], Layout],
) -> Callable[[State, int | None, int], State]:
    """A game's ``redeal_hidden``: ``state`` with every card ``seat`` cannot see by
    ``layout_of(state)`` resampled (element and wild cards among the draw deck and the
    other hands, compound cards within the compound pile).

    Not the layout's own resampling: that would deal hidden compound cards into hands."""

    def redeal(state: State, seat: int | None, seed: int) -> State:
        table = layout_of(state)
        zones, rng = dd.redeal_hidden(state["zones"], table, seat, new_rng(seed))
        return {**state, "zones": zones, "rng": rng}

    return redeal


# ---------------------------------------------------------------- views -------------
def pile(
    table: Layout, zones: Zones, place: Place, seat: int | None, show: Callable[[int], C]
) -> Pile[C]:
    """A pile as ``seat`` sees it by ``table``: always its ``count``; its ``cards``
    (bottom first) where it sees them, else ``None`` (no pile of this table shows its
    top alone: :meth:`rules.zones.Layout.pile_view`'s ``top`` has no place here)."""
    cards = table.pile(zones, place)
    return {
        "count": len(cards),
        "cards": [show(c) for c in cards] if table.can_see(place, seat) else None,
    }


def phase(state: State) -> Literal["play", "round_over", "match_over"]:
    """Where the match stands: a round being played, between rounds, or over."""
    return "match_over" if state["match"]["over"] else "round_over" if round_over(state) else "play"


def piles(
    state: State, seat: int | None, table: Layout, show: Callable[[int], C]
) -> tuple[Pile[C], Pile[C], Pile[C], dw.DiscardPile[C]]:
    """The table's piles as ``seat`` (``None``: an observer) sees them by ``table`` (the
    layout of the state: :func:`round_layout`): the face-up row, the compound pile and the
    draw deck (face down: their counts), and the discard pile with its top card."""
    zones = state["zones"]
    discard = pile(table, zones, ("discard", None), seat, show)
    top = zones["discard"][-1] if zones["discard"] else None
    return (
        pile(table, zones, ("row", None), seat, show),
        pile(table, zones, ("compounds", None), seat, show),
        pile(table, zones, ("draw", None), seat, show),
        {
            "count": discard["count"],
            "cards": discard["cards"],
            "top": show(top) if top is not None else None,
        },
    )


def seat_view(
    state: State,
    s: int,
    seat: int | None,
    table: Layout,
    show: Callable[[int], C],
    compound_points: int,
) -> dw.SeatView[C]:
    """Seat ``s`` as ``seat`` sees it: its hand (its cards once the round is over), its
    captured compounds (``compound_points`` each), the round's points and its total (a
    game adds its own members, in their places: :func:`rules.chemistry_canasta.game.view`)."""
    zones = state["zones"]
    result = state["result"]
    return {
        "seat": s,
        "hand_count": len(zones["hand"][s]),
        "hand": pile(table, zones, ("hand", s), seat, show),
        "captured": pile(table, zones, ("captured", s), seat, show),
        "compound_points": compound_points * len(zones["captured"][s]),
        "round_points": result["seats"][s]["points"] if result else None,
        "total": state["match"]["totals"][s],
    }


def you(state: State, seat: int | None, show: Callable[[int], C]) -> dw.You[C] | None:
    """``seat``'s own seat and hand (``None`` for an observer)."""
    if seat is None:
        return None
    return {"seat": seat, "hand": [show(c) for c in state["zones"]["hand"][seat]]}


def seat_score(state: State, s: int, cards: TableCards[Face], compound_points: int) -> dw.SeatScore:
    """Seat ``s``'s captured compounds (``compound_points`` each) of the round so far; its
    hand's penalties only once the round is over (before then they would tell what the
    hand holds); its match total (a game adds its own members, in their places)."""
    zones = state["zones"]
    captured = zones["captured"][s]
    done = state["result"]["seats"][s] if state["result"] else None
    return {
        "seat": s,
        "compounds": [str(cards.face(c)["formula"]) for c in captured],
        "compound_points": compound_points * len(captured),
        "hand_count": len(zones["hand"][s]),
        "elements_in_hand": done["elements_in_hand"] if done else None,
        "wilds_in_hand": done["wilds_in_hand"] if done else None,
        "penalty": done["penalty"] if done else None,
        "round_points": done["points"] if done else None,
        "total": state["match"]["totals"][s],
    }


def scores(state: State, seats: list[S]) -> dw.Scores[S]:
    """The scores of the round so far: the ``seats``' rows (:func:`seat_score`, with a
    game's own members), and the match's finished rounds."""
    m = state["match"]
    return {
        "round": m["round"],
        "round_over": state["result"] is not None,
        "final": bool(m["over"]),
        "seats": seats,
        "rounds": [match.round_record(r) for r in m["rounds"]],
    }


# ---------------------------------------------------------------- bots --------------
def greedy_bot(greedy: Greedy, cards_of: Callable[[State], TableCards[Face]]) -> Chooser:
    """A game's greedy bot (``greedy(state, seat, legal, cards)``) as ``GameRules`` takes
    it: it draws no random number, so the state's generator is left as it is."""

    def choose(state: State, seat: int, legal: list[Move]) -> tuple[Move, State]:
        return greedy(state, seat, legal, cards_of(state)), state

    return choose
