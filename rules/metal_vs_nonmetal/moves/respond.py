"""Step 4 and advanced ruling 1: the responding player answers the lead card.

A step-4 answer is as many cards of one opposite ion as the lead's charge number, or
one card of the same charge number; with no such answer in hand, all its cards of one
opposite ion of lower charge number (a short answer), after which it draws and must
play each drawn card of the same ion. Totals equal or the initiating player's higher:
the exchange is settled; the responding total higher: a power play (step 5).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from rules.chemistry.decks.ion import IonLabel
from rules.chemistry.ions import Ion
from rules.core import Event, Move, State
from rules.shapes import Count, F
from rules.zones import emitted

from .. import exchange as ex
from .. import explain
from ..seed import HAND_SIZE
from ..settle import settle
from ..table import deck_of, draw_cards, hand, lead_ion, put, side
from ..wire import Card, CardNo, Charge, Explanation, Result, SeatNo
from .turn import at_step, check_in_hand


class RespondMove(TypedDict):
    """Responding player: answer the lead card (step 4, or advanced ruling 1)."""

    type: Literal["respond"]
    cards: Annotated[
        list[CardNo],
        F(
            "Cards of one ion, of the opposite charge: as many as the lead's charge "
            "number, or one of the same charge number; with no such answer, all your "
            "cards of one ion of lower charge number.",
            min_items=1,
            max_items=HAND_SIZE,
            unique=True,
            example=[9, 10],
        ),
    ]


class RespondedEvent(TypedDict):
    """The responding player's answer, face up."""

    type: Literal["responded"]
    seat: Annotated[SeatNo, F("The responding seat.")]
    ion: Annotated[IonLabel, F("The answering ion.")]
    count: Annotated[Count, F("Cards played.")]
    total: Annotated[Charge, F("Their total charge.")]
    kind: Annotated[
        Literal["regular", "partial"],
        F("A step-4 answer, or advanced ruling 1's 'play what you have'."),
    ]
    cards: Annotated[list[Card], F("The cards.")]


class ForcedPlayEvent(TypedDict):
    """Advanced ruling 1: a drawn card of the same ion must be played."""

    type: Literal["forced_play"]
    seat: Annotated[SeatNo, F("The responding seat.")]
    ion: Annotated[IonLabel, F("The ion drawn and played.")]
    count: Annotated[Count, F("Cards played (1).")]
    cards: Annotated[list[Card], F("The card.")]
    total: Annotated[Charge, F("The responding total now.")]


Stopped = Literal["different_ion", "neutralised", "ion_deck_empty"]
"""Why forced drawing stopped."""


class ForcedDrawsEndedEvent(TypedDict):
    """Advanced ruling 1: the responding player stops drawing after a short answer."""

    type: Literal["forced_draws_ended"]
    seat: Annotated[SeatNo, F("The responding seat.")]
    reason: Annotated[Stopped, F("Why forced drawing stopped.", name="DrawingStopped")]
    forced: Annotated[Count, F("Cards it had to play.")]


class Need(TypedDict):
    """The reinforcements that would balance a power play."""

    ion: Annotated[IonLabel, F("The lead's ion.")]
    count: Annotated[Count, F("The cards needed to reach at least the responding total.")]


class PowerPlayEvent(TypedDict):
    """The responding total is higher: a power play; the initiating player may call for
    reinforcements (step 5)."""

    type: Literal["power_play"]
    seat: Annotated[SeatNo, F("The responding seat.")]
    initiator: Annotated[SeatNo, F("The initiating seat, which may call for reinforcements.")]
    initiator_total: Annotated[Charge, F("The initiating total.")]
    responder_total: Annotated[Charge, F("The responding total.")]
    difference: Annotated[Count, F("How much more charge the responding player has.")]
    reinforcement: Annotated[Need, F("The reinforcements that would balance it.")]
    explanation: Explanation


def verify_respond(state: State, seat: int, move: Move) -> None:
    cards = list(move["cards"])
    check_in_hand(state, seat, cards)
    ex.verify_response(deck_of(state), lead_ion(state), hand(state, seat), cards)


def _first_of(state: State, cards: list[int], ion_: Ion, count: int) -> list[int]:
    deck = deck_of(state)
    return [c for c in sorted(cards) if deck.ion_of(c) is ion_][:count]


def responses(state: State, seat: int) -> list[Move]:
    """One answer per ion the hand may answer with, with the lowest card ids of that ion
    (identical copies are interchangeable: ``verify`` accepts any)."""
    mine = hand(state, seat)
    found = ex.options(deck_of(state), lead_ion(state), mine)
    return [
        {"type": "respond", "cards": _first_of(state, mine, a.ion, a.count)} for a in found.answers
    ]


def respond(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    cards = list(move["cards"])
    new = dict(state)
    deck = deck_of(new)
    lead = lead_ion(new)
    kind = ex.verify_response(deck, lead, hand(new, seat), cards)
    answer = deck.ion_of(cards[0])
    put(new, cards, ("hand", seat), ("in_play", seat))
    responded: RespondedEvent = {
        "type": "responded",
        "seat": seat,
        "ion": answer.label,
        "count": len(cards),
        "total": answer.charge * len(cards),
        "kind": kind,
        "cards": [deck.face(c) for c in cards],
    }
    events = [emitted(responded)]
    initiator = int(new["initiator"])
    target = abs(side(new, initiator).total)
    forced = 0
    if kind == "partial":
        forced = _forced_draws(new, seat, answer, target, events)
    new["answer"] = {"kind": kind, "forced": forced}
    first, second = side(new, initiator), side(new, seat)
    if abs(second.total) <= abs(first.total):
        result: Result = "balanced" if abs(second.total) == abs(first.total) else "initiator_higher"
        return settle(new, result, events)
    need = ex.reinforcement_need(first.ion, abs(first.total), abs(second.total))
    power: PowerPlayEvent = {
        "type": "power_play",
        "seat": seat,
        "initiator": initiator,
        "initiator_total": first.total,
        "responder_total": second.total,
        "difference": abs(second.total) - abs(first.total),
        "reinforcement": {"ion": first.ion.label, "count": need},
        "explanation": explain.power_play_text(first, second, need),
    }
    events.append(emitted(power))
    new["phase"] = "reinforce"
    return new, events


def _forced_draws(state: State, seat: int, answer: Ion, target: int, events: list[Event]) -> int:
    """Advanced ruling 1: after a short answer, draw; a card of the same ion must be
    played, and drawing goes on, until another ion is drawn, the charge is
    neutralised, or the Ion Deck is empty. Returns how many cards were forced."""
    deck = deck_of(state)
    forced = 0
    if abs(side(state, seat).total) >= target:
        return 0  # a short answer that already matches or beats the lead draws nothing
    reason: Stopped
    while True:
        total = abs(side(state, seat).total)
        if total >= target:
            reason = "neutralised"
            break
        drawn, drew = draw_cards(state, seat, 1, "forced_draw")
        if not drawn:
            reason = "ion_deck_empty"
            break
        events.extend(drew)
        card = drawn[0]
        if deck.ion_of(card) is not answer:
            reason = "different_ion"
            break
        forced += 1
        put(state, [card], ("hand", seat), ("in_play", seat))
        played: ForcedPlayEvent = {
            "type": "forced_play",
            "seat": seat,
            "ion": answer.label,
            "count": 1,
            "cards": [deck.face(card)],
            "total": side(state, seat).total,
        }
        events.append(emitted(played))
    ended: ForcedDrawsEndedEvent = {
        "type": "forced_draws_ended",
        "seat": seat,
        "reason": reason,
        "forced": forced,
    }
    events.append(emitted(ended))
    return forced


RESPOND = at_step("respond", RespondMove, verify_respond, respond, responses)
EVENTS = (RespondedEvent, ForcedPlayEvent, ForcedDrawsEndedEvent, PowerPlayEvent)
