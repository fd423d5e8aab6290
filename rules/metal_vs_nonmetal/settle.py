"""The end of an exchange (steps 5 and 6) and of the game.

The cards in play go to the collector (the initiating player, or the responding player
when its power play stands), both players draw back to 6, the exchange is recorded and
the responding player initiates the next one; seats with no cards left are passed over
(advanced ruling 2) and with fewer than two seats holding cards the game ends: unused
cards are set aside and the most cards collected wins.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from rules.chemistry.decks.ion import IonLabel
from rules.core import Event, State
from rules.shapes import Count, F, Seat
from rules.wire import GameOver
from rules.zones import emitted

from . import exchange as ex
from .exchange import Compound
from .explain import settled_text
from .scoring import collected_counts, outcome
from .table import SET_ASIDE, deck_of, hand, holders, in_play, put, refill, side
from .wire import (
    Card,
    CardNo,
    Charge,
    ExchangeNo,
    ExchangeSide,
    Explanation,
    Result,
    SeatNo,
)


# ---------------------------------------------------------------- settled -----------
class Side(TypedDict):
    """One player's cards in play: so many cards of one ion."""

    seat: Annotated[SeatNo, F("The seat.")]
    ion: Annotated[IonLabel, F("Its ion.")]
    count: Annotated[Count, F("Its cards in play.")]
    charge: Annotated[Charge, F("The charge of one card.")]
    total: Annotated[Charge, F("Their total charge.")]


class Collected(TypedDict):
    """The cards the collector collects."""

    seat: Annotated[SeatNo, F("The collecting seat.")]
    count: Annotated[Count, F("How many cards it collects.")]
    cards: Annotated[
        list[CardNo],
        F(
            "The cards collected that every seat has seen: all of them, except a card "
            "taken at random into a face-down collection.",
            example=[9, 10],
        ),
    ]


class SetAside(TypedDict):
    """The cards that count for nobody."""

    cards: Annotated[list[CardNo], F("Cards set aside (option power_play_prize).", example=[9, 10])]


class ExchangeSettledEvent(TypedDict):
    """Step 5: who collects, and the chemistry: ions, totals, the compound."""

    type: Literal["exchange_settled"]
    exchange: ExchangeNo
    result: Annotated[Result, F("How it was settled.")]
    initiator: Annotated[Side, F("Initiating side.")]
    responder: Annotated[Side | None, F("Responding side (null: no possible answer).")]
    reinforcements: Annotated[Count, F("Reinforcement cards added.")]
    forced_plays: Annotated[Count, F("Cards the responder had to play after drawing.")]
    partial: Annotated[bool, F("Advanced ruling 1's short answer.")]
    compound: Annotated[Compound | None, F("The compound the two ions form.")]
    neutral: Annotated[bool, F("Whether the charges cancel.")]
    formula_units: Annotated[Count, F("Whole formula units in play when neutral, else 0.")]
    equation: Annotated[
        str | None,
        F("When neutral: the ions combining.", example="3 Ca2+ + 2 N3- -> Ca3N2"),
    ]
    stronger: Annotated[ExchangeSide | None, F("When not neutral: the side with more charge.")]
    difference: Annotated[Count, F("By how much (0 when neutral).")]
    collector: Annotated[SeatNo, F("The seat that collects.")]
    collected: Annotated[Collected, F("What.")]
    set_aside: Annotated[SetAside, F("Set aside.")]
    explanation: Explanation


def side_of(side: ex.Side) -> Side:
    """One side of an exchange as the settled event shows it."""
    return {
        "seat": side.seat,
        "ion": side.ion.label,
        "count": side.count,
        "charge": side.ion.charge,
        "total": side.total,
    }


def settled_event(
    result: Result,
    exchange_no: int,
    first: ex.Side,
    second: ex.Side | None,
    *,
    collector: int,
    collected: list[int],
    set_aside: list[int],
    reinforcements: int = 0,
    forced: int = 0,
    partial: bool = False,
    text: str = "",
    unseen: list[int] | None = None,
) -> ExchangeSettledEvent:
    """The ``exchange_settled`` event (for ``no_response``, ``second`` is None and
    ``text`` is given). ``unseen`` cards go into the collection without being shown
    (a card taken at random into a face-down collection): counted, not named."""
    chem: ex.Chemistry | None = None
    if second is not None:
        chem = ex.chemistry(first, second)
        text = settled_text(
            result,
            first,
            second,
            collector=collector,
            collected=len(collected),
            reinforcements=reinforcements,
            forced=forced,
            partial=partial,
            set_aside=len(set_aside),
        )
    event: ExchangeSettledEvent = {
        "type": "exchange_settled",
        "exchange": exchange_no,
        "result": result,
        "initiator": side_of(first),
        "responder": side_of(second) if second is not None else None,
        "reinforcements": reinforcements,
        "forced_plays": forced,
        "partial": partial,
        # no answer, no chemistry: an answered exchange's fills these in place
        "compound": None,
        "neutral": False,
        "formula_units": 0,
        "equation": None,
        "stronger": None,
        "difference": 0,
        "collector": collector,
        "collected": {
            "seat": collector,
            "count": len(collected),
            "cards": [c for c in collected if c not in (unseen or [])],
        },
        "set_aside": {"cards": list(set_aside)},
        "explanation": text,
    }
    if chem is not None:
        event = {**event, **chem}  # in place: the members keep the declared order
    return event


def settle(
    state: State, result: Result, events: list[Event], reinforcements: int = 0
) -> tuple[State, list[Event]]:
    """Step 5: the cards in play go to the collector; then both players draw to 6."""
    new = dict(state)
    initiator, responder = int(new["initiator"]), int(new["responder"])
    first, second = side(new, initiator), side(new, responder)
    collector = responder if result == "power_play" else initiator
    mine, theirs = list(in_play(new, initiator)), list(in_play(new, responder))
    set_aside: list[int] = []
    if result == "power_play" and new["options"]["power_play_prize"] == "responder_cards":
        put(new, theirs, ("in_play", responder), ("collection", responder))
        put(new, mine, ("in_play", initiator), SET_ASIDE)
        collected, set_aside = theirs, mine
    else:
        put(new, mine, ("in_play", initiator), ("collection", collector))
        put(new, theirs, ("in_play", responder), ("collection", collector))
        collected = mine + theirs
    answer = new["answer"] or {"kind": "regular", "forced": 0}
    settled = settled_event(
        result,
        int(new["exchange"]),
        first,
        second,
        collector=collector,
        collected=collected,
        set_aside=set_aside,
        reinforcements=reinforcements,
        forced=int(answer["forced"]),
        partial=answer["kind"] == "partial",
    )
    events.append(emitted(settled))
    return close(new, result, settled["collected"], settled["compound"], events)


def close(
    state: State,
    result: Result,
    collected: Collected,
    made: Compound | None,
    events: list[Event],
) -> tuple[State, list[Event]]:
    """Refill (the initiating player first), record the exchange, start the next.

    ``collected`` is the settled event's: the collector, the count and the cards every
    seat saw collected (kept for the view: the exchange just collected, face up until
    it was collected)."""
    initiator, responder = int(state["initiator"]), int(state["responder"])
    collector, count = collected["seat"], collected["count"]
    events += refill(state, initiator)
    events += refill(state, responder)
    state["history"] = [
        *state["history"],
        {
            "exchange": int(state["exchange"]),
            "initiator": initiator,
            "responder": responder,
            "result": result,
            "collector": collector,
            "card_count": count,
            "formula": made["formula"] if made and result != "no_response" else None,
        },
    ]
    state["last_collected"] = {"exchange": int(state["exchange"]), **collected}
    state["answer"] = None
    return _next_exchange(state, events)


# ---------------------------------------------------------------- the next exchange -
class ExchangeStartedEvent(TypedDict):
    """The next exchange: the last responding player initiates (step 6)."""

    type: Literal["exchange_started"]
    exchange: ExchangeNo
    initiator: Annotated[SeatNo, F("The initiating seat (the last responder, if it holds cards).")]
    responder: Annotated[SeatNo, F("The responding seat.")]
    out_of_cards: Annotated[list[Seat], F("Seats holding no cards (end game).")]
    passed_over: Annotated[list[Seat], F("Seats due to play but out of cards.")]


def _counterclockwise_from(state: State, seat: int) -> list[int]:
    players = int(state["players"])
    return [(seat - k) % players for k in range(players)]


def _next_exchange(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The responder initiates next (step 6); seats with no cards left are passed over
    (advanced ruling 2); with fewer than two seats holding cards the game ends."""
    holding = set(holders(state))
    if len(holding) < 2:
        return _game_over(state, events)
    order = _counterclockwise_from(state, int(state["responder"]))
    initiator = next(s for s in order if s in holding)
    after = _counterclockwise_from(state, initiator)[1:]
    responder = next(s for s in after if s in holding)
    # the seats counterclockwise from the last responder that were due but hold nothing
    skipped = order[: order.index(initiator)] + after[: after.index(responder)]
    state.update(
        phase="initiate",
        exchange=int(state["exchange"]) + 1,
        initiator=initiator,
        responder=responder,
    )
    started: ExchangeStartedEvent = {
        "type": "exchange_started",
        "exchange": state["exchange"],
        "initiator": initiator,
        "responder": responder,
        "out_of_cards": sorted(set(range(int(state["players"]))) - holding),
        "passed_over": sorted(skipped),
    }
    events.append(emitted(started))
    return state, events


# ---------------------------------------------------------------- the end -----------
class CardsSetAsideEvent(TypedDict):
    """At the end: cards never played count for nobody."""

    type: Literal["cards_set_aside"]
    seat: Annotated[SeatNo, F("The seat whose hand it was.")]
    reason: Annotated[Literal["unused"], F("Why.")]
    count: Annotated[Count, F("Cards set aside.")]
    cards: Annotated[list[Card], F("The cards.")]


class GameOverEvent(GameOver):
    """Fewer than two seats hold cards: the game is over. The outcome (`finished` is
    always true; the winners are the seats that collected the most cards, and
    `tie_break` is 'shared' when there are several), the cards each seat collected and
    the cards set aside unused."""

    collected: Annotated[list[Count], F("Cards per seat.")]
    unused: Annotated[Count, F("Cards set aside, counting for nobody.")]


def _game_over(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    face = deck_of(state).face
    for seat in holders(state):
        leftover = sorted(hand(state, seat))
        put(state, leftover, ("hand", seat), SET_ASIDE)
        aside: CardsSetAsideEvent = {
            "type": "cards_set_aside",
            "seat": seat,
            "reason": "unused",
            "count": len(leftover),
            "cards": [face(c) for c in leftover],
        }
        events.append(emitted(aside))
    state.update(phase="over", initiator=None, responder=None)
    over: GameOverEvent = {
        "type": "game_over",
        **outcome(state).declared(),
        "collected": collected_counts(state),
        "unused": len(state["zones"]["set_aside"]),
    }
    events.append(emitted(over))
    return state, events


EVENTS = (ExchangeSettledEvent, ExchangeStartedEvent, CardsSetAsideEvent, GameOverEvent)
"""The events of settling an exchange and ending the game."""
