"""Step 5 after a power play: the initiating player calls for reinforcements (the fewest
cards of its first card's ion that bring its total to at least the responding one) or
declines, and the responding player's power play stands.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from rules.chemistry.decks.ion import IonLabel
from rules.core import Event, Move, State
from rules.shapes import Count, F
from rules.zones import emitted

from .. import exchange as ex
from ..seed import HAND_SIZE
from ..settle import settle
from ..table import deck_of, hand, put, side
from ..wire import Card, CardNo, Charge, Explanation, SeatNo
from .turn import at_step, check_in_hand


# ---------------------------------------------------------------- reinforce ---------
class ReinforceMove(TypedDict):
    """Initiating player after a power play: add cards of your first card's ion."""

    type: Literal["reinforce"]
    cards: Annotated[
        list[CardNo],
        F(
            "The fewest cards of the lead's ion that bring your total to at least the "
            "responding player's (the view's exchange.reinforcement says how many).",
            min_items=1,
            max_items=HAND_SIZE,
            unique=True,
            example=[9, 10],
        ),
    ]


class ReinforcedEvent(TypedDict):
    """The initiating player called for reinforcements: they balance the power play."""

    type: Literal["reinforced"]
    seat: Annotated[SeatNo, F("The initiating seat.")]
    ion: Annotated[IonLabel, F("The lead's ion.")]
    count: Annotated[Count, F("Cards added.")]
    cards: Annotated[list[Card], F("The cards.")]
    total: Annotated[Charge, F("The initiating total now.")]


def verify_reinforce(state: State, seat: int, move: Move) -> None:
    cards = list(move["cards"])
    check_in_hand(state, seat, cards)
    mine, theirs = side(state, seat), side(state, int(state["responder"]))
    ex.verify_reinforcement(
        deck_of(state), mine.ion, hand(state, seat), cards, abs(mine.total), abs(theirs.total)
    )


def reinforcements(state: State, seat: int) -> list[Move]:
    """The reinforcements needed, with the lowest card ids of the lead's ion, when the
    hand holds enough of them."""
    deck = deck_of(state)
    mine = hand(state, seat)
    first, second = side(state, seat), side(state, int(state["responder"]))
    need = ex.reinforcement_need(first.ion, abs(first.total), abs(second.total))
    ions = [c for c in sorted(mine) if deck.ion_of(c) is first.ion]
    if len(ions) < need:
        return []
    return [{"type": "reinforce", "cards": ions[:need]}]


def reinforce(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    cards = list(move["cards"])
    new = dict(state)
    deck = deck_of(new)
    put(new, cards, ("hand", seat), ("in_play", seat))
    reinforced: ReinforcedEvent = {
        "type": "reinforced",
        "seat": seat,
        "ion": deck.ion_of(cards[0]).label,
        "count": len(cards),
        "cards": [deck.face(c) for c in cards],
        "total": side(new, seat).total,
    }
    return settle(new, "reinforced", [emitted(reinforced)], reinforcements=len(cards))


# ---------------------------------------------------------------- decline -----------
class DeclineMove(TypedDict):
    """Initiating player after a power play: do not call for reinforcements."""

    type: Literal["decline"]


class DeclinedEvent(TypedDict):
    """The initiating player does not call for reinforcements: the power play stands."""

    type: Literal["declined"]
    seat: Annotated[SeatNo, F("The initiating seat.")]
    explanation: Explanation


def verify_decline(state: State, seat: int, move: Move) -> None:
    """Declining is always allowed after a power play."""


def declines(state: State, seat: int) -> list[Move]:
    return [{"type": "decline"}]


def decline(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    declined: DeclinedEvent = {
        "type": "declined",
        "seat": seat,
        "explanation": f"Seat {seat} does not call for reinforcements.",
    }
    return settle(state, "power_play", [emitted(declined)])


REINFORCE = at_step("reinforce", ReinforceMove, verify_reinforce, reinforce, reinforcements)
DECLINE = at_step("reinforce", DeclineMove, verify_decline, decline, declines)
EVENTS = (ReinforcedEvent, DeclinedEvent)
