"""Steps 2-3: the initiating player plays any card of its hand face up and draws one.

When the responding player then holds no possible play (advanced ruling 1, example 2)
a random card of its hand goes, with the initiating card, to the initiating player's
collection, and the exchange is settled at once.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from rules.chemistry.decks.ion import IonLabel
from rules.core import Event, Move, State
from rules.rng import randbelow
from rules.shapes import Count, F
from rules.zones import emitted

from .. import exchange as ex
from .. import explain, wire
from ..settle import close, settled_event
from ..table import deck_of, draw_cards, hand, in_play, layout, lead_ion, move_cards, put
from ..wire import Card, CardNo, Charge, SeatNo
from .turn import at_step, check_in_hand


class PlayMove(TypedDict):
    """Initiating player: play any one card of your hand face up (you draw back to 6)."""

    type: Literal["play"]
    card: Annotated[CardNo, F("The card's id.", example=17)]


class CardPlayedEvent(TypedDict):
    """The initiating card, face up, with the answers step 4 allows against it."""

    type: Literal["card_played"]
    seat: Annotated[SeatNo, F("The initiating seat.")]
    ion: Annotated[IonLabel, F("The lead ion.")]
    charge: Annotated[Charge, F("Its charge.")]
    name: Annotated[str, F("Its name.", example="calcium ion")]
    responder: Annotated[SeatNo, F("The seat that must answer.")]
    answers: Annotated[list[wire.Answer], F("Step 4's answers.")]
    count: Annotated[Count, F("Cards played (1).")]
    cards: Annotated[list[Card], F("The card.")]


class CardTakenEvent(TypedDict):
    """Advanced ruling 1, example 2: no possible answer; a random card is taken."""

    type: Literal["card_taken"]
    seat: Annotated[SeatNo, F("The initiating seat, which collects the card.")]
    from_seat: Annotated[SeatNo, F("The responding seat it was taken from.")]
    count: Annotated[Count, F("Cards taken (1).")]
    cards: NotRequired[
        Annotated[
            list[Card],
            F(
                "The card taken: for every seat when collections lie face up; when they "
                "lie face down (the default), only for the seat it was taken from (absent "
                "for the others)."
            ),
        ]
    ]


def verify_play(state: State, seat: int, move: Move) -> None:
    check_in_hand(state, seat, [move["card"]])


def plays(state: State, seat: int) -> list[Move]:
    return [{"type": "play", "card": c} for c in sorted(hand(state, seat))]


def play(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    new = dict(state)
    deck = deck_of(new)
    card = move["card"]
    lead = deck.ion_of(card)
    put(new, [card], ("hand", seat), ("in_play", seat))
    played: CardPlayedEvent = {
        "type": "card_played",
        "seat": seat,
        "ion": lead.label,
        "charge": lead.charge,
        "name": lead.name,
        "responder": int(new["responder"]),
        "answers": [a.to_json() for a in ex.answers(deck, lead)],
        "count": 1,
        "cards": [deck.face(card)],
    }
    events = [emitted(played)]
    events += draw_cards(new, seat, 1, "replenish")[1]
    responder = int(new["responder"])
    if ex.options(deck, lead, hand(new, responder)).kind == "none":
        return _no_response(new, events)
    new["phase"] = "respond"
    return new, events


def _no_response(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Advanced ruling 1, example 2 (and ruling 2): a random card of the responder's
    hand goes, with the initiating card, to the initiating player's collection."""
    initiator, responder = int(state["initiator"]), int(state["responder"])
    deck = deck_of(state)
    lead = lead_ion(state)
    rng, taken = randbelow(state["rng"], len(hand(state, responder)))
    state["rng"] = rng
    card = sorted(hand(state, responder))[taken]
    # into a face-down collection the taken card is seen only by the seat that held it
    face_down = not layout(state).can_see(("collection", initiator), responder)
    text = explain.no_response_text(
        initiator, responder, lead, ex.answers(deck, lead), None if face_down else deck.ion_of(card)
    )
    taken_event: CardTakenEvent = {
        "type": "card_taken",
        "seat": initiator,
        "from_seat": responder,
        "count": 1,
    }
    events.append(
        move_cards(state, [card], ("hand", responder), ("collection", initiator), taken_event)
    )
    lead_card = in_play(state, initiator)[0]
    put(state, [lead_card], ("in_play", initiator), ("collection", initiator))
    settled = settled_event(
        "no_response",
        int(state["exchange"]),
        ex.Side(initiator, lead, 1),
        None,
        collector=initiator,
        collected=[lead_card, card],
        set_aside=[],
        text=text,
        unseen=[card] if face_down else [],
    )
    events.append(emitted(settled))
    return close(state, "no_response", settled["collected"], None, events)


PLAY = at_step("initiate", PlayMove, verify_play, play, plays)
EVENTS = (CardPlayedEvent, CardTakenEvent)
