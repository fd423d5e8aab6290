"""The table: where the cards are and who sees them; moving and drawing cards.

- ``ion_deck``: the face-down Ion Deck (everyone sees its count; empty at the end);
- ``hand``: one per seat, seen by its owner only until the end (empty then: its cards
  are set aside);
- ``in_play``: one per seat, the cards it played this exchange, face up;
- ``collection``: one per seat, its collected cards: face down beside the player (option
  ``collected``), turned up at the end (docs/rules/metal-vs-nonmetal.md, "Collections");
- ``set_aside``: cards that count for nobody, face up.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from rules.chemistry.decks.ion import IonDeck, deck_from_spec, default_deck
from rules.chemistry.ions import Ion
from rules.core import Event, State
from rules.shapes import Count, F
from rules.zones import Layout, Place, Seen, Zone

from . import exchange as ex
from .seed import HAND_SIZE
from .wire import Card, SeatNo

ION_DECK: Place = ("ion_deck", None)
SET_ASIDE: Place = ("set_aside", None)


def _zones(collection: Seen) -> Layout:
    return Layout(
        (
            Zone("ion_deck", Seen.HIDDEN),
            Zone("hand", Seen.OWNER, per_seat=True, ordered=False, at_end=Seen.PUBLIC),
            Zone("in_play", Seen.PUBLIC, per_seat=True),
            Zone("collection", collection, per_seat=True, at_end=Seen.PUBLIC),
            Zone("set_aside", Seen.PUBLIC),
        )
    )


LAYOUTS: Mapping[Seen, Layout] = {seen: _zones(seen) for seen in (Seen.HIDDEN, Seen.PUBLIC)}
"""The layouts of a game being played, by how collections lie (option ``collected``)."""
LAYOUT = LAYOUTS[Seen.HIDDEN]
"""The layout of a game being played with the default ``collected: "face_down"``."""


def layout(state: State) -> Layout:
    """Who sees what: collections are face down (option ``collected``) until the end,
    when every seat's cards are turned up."""
    playing = LAYOUTS[Seen.PUBLIC if state["options"]["collected"] == "face_up" else Seen.HIDDEN]
    return playing.at_end() if finished(state) else playing


# ---------------------------------------------------------------- the cards ---------
def deck_of(state: Mapping[str, Any]) -> IonDeck:
    """The deck a game is played with (every move asks: the seed's deck is found fast)."""
    spec = state["deck"]
    if spec == _default_spec_list():
        return default_deck()
    return deck_from_spec(tuple((str(t), int(n)) for t, n in spec))


@cache
def _default_spec_list() -> list[list[Any]]:
    return default_deck().spec


def card_ids(state: State) -> range:
    """Every card id of the game's deck (each is in exactly one pile)."""
    return deck_of(state).ids


def hand(state: State, seat: int) -> list[int]:
    pile: list[int] = state["zones"]["hand"][seat]
    return pile


def in_play(state: State, seat: int) -> list[int]:
    pile: list[int] = state["zones"]["in_play"][seat]
    return pile


def lead_ion(state: State) -> Ion:
    """The ion of the initiating player's first card in play."""
    return deck_of(state).ion_of(in_play(state, int(state["initiator"]))[0])


def side(state: State, seat: int) -> ex.Side:
    pile = in_play(state, seat)
    return ex.Side(seat, deck_of(state).ion_of(pile[0]), len(pile))


def finished(state: State) -> bool:
    return bool(state["phase"] == "over")


def holders(state: State) -> list[int]:
    """Seats that still hold cards."""
    return [s for s in range(int(state["players"])) if hand(state, s)]


# ---------------------------------------------------------------- moving cards ------
def put(state: State, cards: list[int], src: Place, dst: Place) -> None:
    """Move ``cards`` in ``state`` (a fresh dict owned by the caller)."""
    state["zones"] = layout(state).move(state["zones"], src, dst, cards)


def move_cards(
    state: State, cards: list[int], src: Place, dst: Place, event: Mapping[str, object]
) -> Event:
    """Move ``cards`` in ``state`` (a fresh dict owned by the caller); ``event`` (built as
    its declared ``TypedDict``, with its ``count``) with the cards' faces for the seats
    that see them (:meth:`rules.zones.Layout.moved`)."""
    lay = layout(state)
    state["zones"] = lay.move(state["zones"], src, dst, cards)
    deck = deck_of(state)
    return lay.moved(event, cards, src, dst, int(state["players"]), deck.face)


class CardsDrawnEvent(TypedDict):
    """Cards drawn from the Ion Deck; only the drawer sees which."""

    type: Literal["cards_drawn"]
    seat: Annotated[SeatNo, F("The drawing seat.")]
    reason: Annotated[
        Literal["replenish", "forced_draw"],
        F("Back to 6 cards, or advanced ruling 1's draw after a short answer."),
    ]
    count: Annotated[Count, F("Cards drawn.")]
    ion_deck_left: Annotated[Count, F("Cards left in the Ion Deck.")]
    cards: NotRequired[
        Annotated[list[Card], F("The cards drawn: present only for the drawing seat.")]
    ]


Drawing = Literal["replenish", "forced_draw"]


def draw_cards(
    state: State, seat: int, count: int, reason: Drawing
) -> tuple[list[int], list[Event]]:
    """``seat`` draws up to ``count`` cards from the Ion Deck (fewer if it runs out): the
    cards drawn (top first) and the event (their faces only for ``seat``)."""
    if count <= 0 or not state["zones"]["ion_deck"]:
        return [], []
    lay = layout(state)
    zones, drawn = lay.draw(state["zones"], ION_DECK, ("hand", seat), count)
    state["zones"] = zones
    drew: CardsDrawnEvent = {
        "type": "cards_drawn",
        "seat": seat,
        "reason": reason,
        "count": len(drawn),
        "ion_deck_left": len(zones["ion_deck"]),
    }
    players = int(state["players"])
    return drawn, [lay.moved(drew, drawn, ION_DECK, ("hand", seat), players, deck_of(state).face)]


def refill(state: State, seat: int) -> list[Event]:
    """``seat`` draws back to 6 cards while the Ion Deck lasts."""
    return draw_cards(state, seat, HAND_SIZE - len(hand(state, seat)), "replenish")[1]
