"""The draw-two table over the wire: the shapes Compound Capture and Chemistry Canasta share.

Declared once (see :mod:`rules.shapes`): the options both games offer, a card's face,
the moves of the shared turn (``draw``, ``capture``, ``discard``), the turn record, the
piles, a seat and the table in the view, the round results and the score rows, and the
events of :mod:`rules.draw_discard` and :mod:`rules.draw_discard_match`. Each game's
``wire.py`` adds its own (its card's ``deck``, its turn's ``step``, its rules in the
view, Canasta's runs) and names its shapes; the service prefixes every one with the
game's name (``CompoundCapturePile``, ``ChemistryCanastaPile``).

The shapes that carry cards are generic in the game's card (``Pile[C]``): a game gives
its own ``Card`` (``Pile[Card]``). A game's declaration that extends such a shape is
made :func:`concrete`; the events that show cards are :func:`card_events`.

>>> from rules.shapes import parse
>>> class Card(Face):
...     deck: Literal["covalent"]
>>> pile = {"count": 1, "cards": [{"id": 3, "kind": "wild", "deck": "covalent"}]}
>>> parse(pile, Pile[Card]) == pile
True
>>> seat = {"seat": 0, "hand_count": 7, "hand": {"count": 7, "cards": None},
...         "captured": pile, "compound_points": 25, "round_points": None, "total": 0}
>>> parse(seat, SeatView[Card]) == seat
True
>>> [e.__name__ for e in card_events(Card)][:2]
['CardsDealtEvent', 'CompoundsTurnedUpEvent']
"""

from __future__ import annotations

import typing
from typing import (
    Annotated,
    Any,
    Generic,
    Literal,
    NotRequired,
    TypedDict,
    TypeVar,
    get_args,
    get_origin,
    is_typeddict,
)

from rules import match
from rules.chemistry.decks.limits import custom_limits
from rules.chemistry.elements import MAX_Z
from rules.shapes import CardId, Count, F, Seat, shape
from rules.wire import C, Pile

S = TypeVar("S")
"""A game's row of one seat (in a round's result, in the scores)."""
T = TypeVar("T")

__all__ = [
    "FACE_UP",
    "HAND",
    "C",
    "CaptureMove",
    "CapturePart",
    "Compounds",
    "CustomCompound",
    "DealDiscard",
    "DealHands",
    "DealRow",
    "DeckOut",
    "Decks",
    "DiscardMove",
    "DiscardPile",
    "DrawMove",
    "Face",
    "Pile",
    "RoundEnded",
    "RoundResult",
    "S",
    "Scores",
    "SeatResult",
    "SeatScore",
    "SeatView",
    "Step",
    "TableDeck",
    "TableFace",
    "TableView",
    "Turn",
    "You",
    "card_events",
    "concrete",
    "more",
    "specialised",
]


# ---------------------------------------------------------------- generic shapes ----
def _bind(tp: Any, bound: dict[Any, Any]) -> Any:
    """``tp`` with its type variables replaced by their types in ``bound``."""
    if isinstance(tp, TypeVar):
        return bound[tp]
    params = getattr(tp, "__parameters__", ())
    return tp[tuple(bound[p] for p in params)] if params else tp


def concrete(cls: type[T]) -> type[T]:
    """``cls``, a ``TypedDict`` that extends generic ones given their type arguments
    (``class View(TableView[Card])``), with its members' type variables replaced by
    those arguments (in place: use it as a decorator).

    Python keeps the inherited members as declared (``list[C]``); after this every
    reader of the annotations (``typing.get_type_hints``, :mod:`rules.shapes`, the
    service) sees the game's own shapes.
    """
    bound: dict[Any, Any] = {}
    for base in getattr(cls, "__orig_bases__", ()):
        origin = get_origin(base)
        if origin is not None and is_typeddict(origin):
            bound.update(zip(origin.__parameters__, get_args(base), strict=True))
    hints = typing.get_type_hints(cls, include_extras=True)
    cls.__annotations__ = {name: _bind(hint, bound) for name, hint in hints.items()}
    return cls


def specialised(alias: Any) -> type:
    """A generic ``TypedDict`` given its type arguments (``CardDrawnEvent[Card]``) as a
    ``TypedDict`` of its own, with the same name and description: a game lists it among
    its events like any of its declarations."""
    origin = get_origin(alias)
    bound = dict(zip(origin.__parameters__, get_args(alias), strict=True))
    hints = typing.get_type_hints(origin, include_extras=True)
    out: type = TypedDict(  # type: ignore[misc]
        origin.__name__, {name: _bind(hint, bound) for name, hint in hints.items()}
    )
    out.__doc__ = origin.__doc__
    out.__module__ = origin.__module__
    return out


def more(declared: Any, text: str) -> F:
    """The facts of a shared option (:data:`rules.match.Target`) with ``text`` added to
    its description (a game's seed sentence, its reason for a default)."""
    return F(f"{shape(declared).facts.description} {text}")


# ---------------------------------------------------------------- options -----------
HAND = 7
"""Cards dealt to each seat (:func:`rules.draw_discard.deal`)."""
FACE_UP = 6
"""Compound cards kept face up in the row (a deck needs at least this many)."""
_LIMITS = custom_limits()

DeckChoice = Annotated[
    Literal["covalent", "ionic", "both"],
    F("The compound decks added to the Basic Deck of 54 Elements.", name="DeckChoice"),
]
Decks = Annotated[DeckChoice | None, F(default=None, example="covalent")]
"""The ``decks`` option (each game describes it)."""


Bonding = Annotated[Literal["covalent", "ionic"], F("A compound's bonding.", name="Bonding")]


class CustomCompound(TypedDict):
    """One compound of a teacher's own deck."""

    formula: Annotated[
        str,
        F("Chemical formula (molmass syntax).", min_length=1, max_length=40, example="CO2"),
    ]
    name: NotRequired[
        Annotated[
            str,
            F(
                "Name printed on the card; defaults to the formula.",
                min_length=1,
                max_length=_LIMITS["max_name_length"],
            ),
        ]
    ]
    bonding: NotRequired[
        Annotated[Bonding, F("Defaults to ionic when the formula has a metal, else covalent.")]
    ]


Compounds = Annotated[
    list[CustomCompound] | None,
    F(
        default=None,
        min_items=_LIMITS["min_compounds"],
        max_items=_LIMITS["max_compounds"],
        code="bad_compounds",
    ),
]
"""The ``compounds`` option: a teacher's own deck (each game describes it)."""

DeckOut = Annotated[
    Literal["reshuffle", "end_round"],
    F("When the draw deck runs out: reshuffle the discards, or end the round.", name="DeckOut"),
]
"""What happens when the draw deck runs out (:mod:`rules.draw_discard`)."""

_CardName = Annotated[str, F(min_length=1, max_length=40)]
DealHands = Annotated[
    list[Annotated[list[_CardName], F(max_items=HAND)]],
    F(
        f'One list per seat of at most {HAND} card names: element symbols or "wild".',
        min_items=1,
        max_items=6,
    ),
]
DealRow = Annotated[
    list[_CardName],
    F("Formulas of face-up compounds.", max_items=FACE_UP, example=["CO2", "H2O"]),
]
DealDiscard = Annotated[_CardName, F("The card that starts the discard pile.")]


# ---------------------------------------------------------------- cards -------------
class ElementCount(TypedDict):
    """An element of a compound and its atoms in one formula unit."""

    symbol: Annotated[str, F("Element symbol.", example="O")]
    count: Annotated[int, F("Atoms of it in one formula unit.", minimum=1, example=2)]


class Ion(TypedDict):
    """An ion of an ionic compound."""

    ion: Annotated[str, F("The ion as written.", example="Al3+")]
    symbol: Annotated[str, F("Its element.", example="Al")]
    charge: Annotated[int, F("Charge of one ion.", example=3)]
    count: Annotated[int, F("Ions in one formula unit.", minimum=1, example=2)]


class Face(TypedDict):
    """A card's face: a compound, an element or a wild card (members by `kind`); a game's
    ``Card`` adds the ``deck`` it comes from."""

    id: Annotated[CardId, F("Card id (copies have different ids).", minimum=1, example=3)]
    kind: Annotated[
        Literal["compound", "element", "wild"], F("Which kind of card.", name="CardKind")
    ]
    border: NotRequired[
        Annotated[
            Literal["red", "purple", "green"],
            F("Compound (red: covalent, purple: ionic) and wild cards (green).", name="Border"),
        ]
    ]
    formula: NotRequired[Annotated[str, F("Compound cards: the formula.", example="CO2")]]
    name: NotRequired[
        Annotated[str, F("Compound and element cards: the name.", example="Carbon dioxide")]
    ]
    bonding: NotRequired[Annotated[Bonding, F("Compound cards: the bonding.")]]
    elements: NotRequired[
        Annotated[list[ElementCount], F("Compound cards: the element cards a capture needs.")]
    ]
    atoms: NotRequired[Annotated[int, F("Compound cards: cards a capture plays.", minimum=1)]]
    molar_mass: NotRequired[Annotated[float, F("Compound cards: g/mol (molmass).")]]
    ions: NotRequired[
        Annotated[list[Ion] | None, F("Ionic compound cards: the ions that balance; else null.")]
    ]
    symbol: NotRequired[Annotated[str, F("Element cards: the symbol.", example="O")]]
    z: NotRequired[Annotated[int, F("Element cards: the atomic number.", minimum=1, maximum=MAX_Z)]]
    law: NotRequired[Annotated[str, F("Wild cards: the law it states.")]]
    text: NotRequired[Annotated[str, F("Wild cards: the statement of the law.")]]


TableDeck = Literal["basic", "covalent", "ionic", "custom"]
"""The decks a table's cards come from: the Basic Deck of 54 Elements (Canasta) and the
compound decks."""


class TableFace(Face):
    """A card of either game's table as :mod:`rules.chemistry.decks.compound` numbers it
    (not on the wire: each game's ``Card`` names the decks its tables hold)."""

    deck: TableDeck


class CapturePart(TypedDict):
    """What one card of a capture is."""

    card: Annotated[CardId, F("Card id played.")]
    symbol: Annotated[str, F("The element it is, or a wild card stands for.")]
    wild: Annotated[bool, F("A wild card.")]
    law: NotRequired[Annotated[str, F("Wild cards: the law on the card.")]]


# ---------------------------------------------------------------- moves -------------
MoveCard = Annotated[CardId, F(minimum=1, maximum=200)]
"""A card id in a move (no table has 200 cards)."""
MoveCards = Annotated[list[MoveCard], F(min_items=1, max_items=60)]
"""Card ids in a move."""


DrawSource = Annotated[
    Literal["deck", "discard"],
    F("Where a card is drawn from: the draw deck or the discard pile.", name="DrawSource"),
]


class DrawMove(TypedDict):
    """Draw one card (twice a turn): from the draw deck, or the top of the discard pile
    (at most once a turn)."""

    type: Literal["draw"]
    source: Annotated[DrawSource, F("Where the card comes from.", example="deck")]


class CaptureMove(TypedDict):
    """Capture a face-up compound by playing exactly its elements (wild cards may stand
    in, but not all of them); the cards are played onto the discard pile in this order."""

    type: Literal["capture"]
    compound: Annotated[MoveCard, F("Card id of the face-up compound.", example=3)]
    cards: Annotated[
        MoveCards, F("Card ids from your hand; the last ends on top.", example=[16, 27, 28])
    ]


class DiscardMove(TypedDict):
    """Discard one card: it ends a turn without a capture."""

    type: Literal["discard"]
    card: Annotated[MoveCard, F("Card id from your hand.", example=40)]


# ---------------------------------------------------------------- the view ----------
Step = Annotated[
    Literal["draw", "play"], F("The step of a turn: draw, then play.", name="TurnStep")
]
"""The step of a turn (each game says what its play step allows)."""


class Turn(TypedDict):
    """The turn: whose it is and the cards drawn (a game adds its ``step``)."""

    seat: Annotated[Seat, F("The seat whose turn it is.")]
    drawn: Annotated[int, F("Cards drawn so far this turn (0-2).", minimum=0, maximum=2)]
    took_discard: Annotated[bool, F("The top of the discard pile was taken.")]


class DiscardPile(Pile[C]):
    """The discard pile: every card on it was played face up."""

    top: Annotated[C | None, F("The top card, the one a seat may draw.")]


class You(TypedDict, Generic[C]):
    """Your own seat and hand."""

    seat: Annotated[Seat, F("Your seat.")]
    hand: Annotated[list[C], F("Your cards.")]


class SeatView(TypedDict, Generic[C]):
    """One seat, as everyone sees it."""

    seat: Annotated[Seat, F("Seat number.")]
    hand_count: Annotated[Count, F("Cards in the seat's hand.")]
    hand: Annotated[
        Pile[C],
        F(
            "The seat's hand: `cards` only for its owner while the round is being played; "
            "once the round is over (and the match), for every seat and an observer: the "
            "cards left in it count against the round's score (`round_end`)."
        ),
    ]
    captured: Annotated[Pile[C], F("Compounds captured this round.")]
    compound_points: Annotated[Count, F("25 per compound captured this round.")]
    round_points: Annotated[
        int | None, F("The round's score once it is over (penalties included).")
    ]
    total: Annotated[int, F("Match total over the finished rounds.")]


class TableView(TypedDict, Generic[C]):
    """What one seat (or an observer) may see: never the deck order or the compound pile,
    nor another hand before the round is over (a game adds its own rules, its turn, its
    seats and its round's end)."""

    players: Annotated[int, F("Number of seats.", minimum=1)]
    phase: Annotated[
        Literal["play", "round_over", "match_over"],
        F("round_over: the next dealer moves next_round."),
    ]
    must_capture: Annotated[bool, F("Option.")]
    row: Annotated[Pile[C], F("The face-up compounds.")]
    compound_pile: Annotated[Pile[C], F("Face down.")]
    draw: Annotated[Pile[C], F("The draw deck, face down (its count is public).")]
    discard: Annotated[DiscardPile[C], F("Every card on it was played face up.")]
    match: Annotated[match.Match, F("Rounds and totals.")]
    you: Annotated[You[C] | None, F("null for an observer.")]


# ---------------------------------------------------------------- results, scores ---
class SeatResult(TypedDict):
    """One seat's score in a finished round."""

    seat: Annotated[Seat, F("Seat number.")]
    compounds: Annotated[list[str], F("Formulas captured.")]
    compound_points: Annotated[Count, F("25 per compound.")]
    elements_in_hand: Annotated[Count, F("Element cards left in hand (-1 each).")]
    wilds_in_hand: Annotated[Count, F("Wild cards left in hand (-5 each).")]
    penalty: Annotated[Count, F("Points taken off for the hand.")]
    points: Annotated[int, F("The round's score.")]


class RoundResult(TypedDict, Generic[S]):
    """A finished round (a game adds its ``reason`` for the end)."""

    seats: Annotated[list[S], F("Each seat's score.")]
    winners: Annotated[list[Seat], F("Seats with the most points.")]


class RoundEnded(TypedDict):
    """The round ended: its result (a game's ``RoundEndedEvent`` extends its result)."""

    type: Literal["round_ended"]
    round: Annotated[int, F("The round that ended.", minimum=1)]


_ROUND_OVER = "Once the round is over."


class SeatScore(TypedDict):
    """One seat's score so far; its hand's penalty only once the round is over (before
    then it would tell what the hand holds)."""

    seat: Annotated[Seat, F("Seat number.")]
    compounds: Annotated[list[str], F("Formulas captured this round.")]
    compound_points: Annotated[Count, F("25 per compound.")]
    hand_count: Annotated[Count, F("Cards in hand.")]
    elements_in_hand: Annotated[Count | None, F(_ROUND_OVER)]
    wilds_in_hand: Annotated[Count | None, F(_ROUND_OVER)]
    penalty: Annotated[Count | None, F(_ROUND_OVER)]
    round_points: Annotated[int | None, F(_ROUND_OVER)]
    total: Annotated[int, F("Match total over the finished rounds.")]


class Scores(TypedDict, Generic[S]):
    """The round so far (penalties once it is over) and the match's finished rounds."""

    round: Annotated[int, F("The round.", minimum=1)]
    round_over: Annotated[bool, F("Penalties are shown once it is.")]
    final: Annotated[bool, F("The match is over.")]
    seats: Annotated[list[S], F("Every seat.")]
    rounds: Annotated[list[match.RoundRecord], F("Finished rounds.")]


# ---------------------------------------------------------------- events ------------
class RoundDealtEvent(TypedDict):
    """A round was dealt."""

    type: Literal["round_dealt"]
    round: Annotated[int, F("The new round.", minimum=1)]
    dealer: Annotated[Seat, F("Its dealer.")]
    first: Annotated[Seat, F("The seat that plays first (left of the dealer).")]
    hand_size: Annotated[int, F("Cards dealt to each seat.", minimum=1)]


class DeckReshuffledEvent(TypedDict):
    """The discard pile, all but its top card, was shuffled into a new draw deck."""

    type: Literal["deck_reshuffled"]
    count: Annotated[Count, F("Cards from under the discard top shuffled into the new draw deck.")]


class DrawEndedEvent(TypedDict):
    """The drawer found no card it may draw (both piles spent): its draw ends early."""

    type: Literal["draw_ended"]
    seat: Annotated[Seat, F("The drawer.")]
    drawn: Annotated[int, F("Cards it could draw (1).", minimum=1)]
    reason: Annotated[Literal["no_cards"], F("Both piles spent.")]


class TurnStartedEvent(TypedDict):
    """The next seat's turn starts."""

    type: Literal["turn_started"]
    seat: Annotated[Seat, F("The seat to play.")]


class CardsDealtEvent(TypedDict, Generic[C]):
    """Only the seat dealt to sees its cards."""

    type: Literal["cards_dealt"]
    seat: Annotated[Seat, F("The seat dealt to.")]
    count: Annotated[Count, F("Cards dealt.")]
    cards: NotRequired[Annotated[list[C], F("Only for that seat.")]]


class CompoundsTurnedUpEvent(TypedDict, Generic[C]):
    """The compounds of the row were turned face up."""

    type: Literal["compounds_turned_up"]
    count: Annotated[Count, F("Compounds turned face up.")]
    cards: Annotated[list[C], F("Their faces.")]


class DiscardStartedEvent(TypedDict, Generic[C]):
    """A card turned up from the deck starts the discard pile."""

    type: Literal["discard_started"]
    card: Annotated[C, F("Turned up from the deck.")]


class CardDrawnEvent(TypedDict, Generic[C]):
    """Everyone sees the count and the source; the face only the drawer (a card from the
    deck) or everyone (the top of the discard pile)."""

    type: Literal["card_drawn"]
    seat: Annotated[Seat, F("The drawer.")]
    source: Annotated[DrawSource, F("Where from.")]
    count: Annotated[Count, F("Cards drawn (1).")]
    deck_count: Annotated[Count, F("Cards left in the draw deck.")]
    cards: NotRequired[Annotated[list[C], F("The card, where this seat may see it.")]]


class CompoundCapturedEvent(TypedDict, Generic[C]):
    """A seat captured a face-up compound."""

    type: Literal["compound_captured"]
    seat: Annotated[Seat, F("The capturing seat.")]
    card: Annotated[C, F("The compound captured.")]
    cards: Annotated[list[C], F("Cards played onto the discard pile, in order.")]
    parts: Annotated[list[CapturePart], F("What each card is.")]
    text: Annotated[
        str,
        F(
            "The call.",
            example="CO2 captured: C + O + O (wild: Law of Conservation of Mass as O)",
        ),
    ]
    explanation: Annotated[str, F("The chemistry, for a learner.")]
    points: Annotated[int, F("Points the compound is worth.", example=25)]


class CompoundTurnedUpEvent(TypedDict, Generic[C]):
    """A compound was turned up to replace the one captured."""

    type: Literal["compound_turned_up"]
    card: Annotated[C, F("The replacement.")]
    pile_count: Annotated[Count, F("Compounds left face down.")]


class CardDiscardedEvent(TypedDict, Generic[C]):
    """A seat discarded a card."""

    type: Literal["card_discarded"]
    seat: Annotated[Seat, F("The discarding seat.")]
    count: Annotated[Count, F("Cards discarded (1).")]
    cards: Annotated[list[C], F("The card.")]


TABLE_EVENTS: tuple[type, ...] = (RoundDealtEvent, DeckReshuffledEvent, TurnStartedEvent)
"""The events of the shared turn and round that show no card (``draw_ended`` only where a
game's draw can end early)."""

_CARD_EVENTS: tuple[Any, ...] = (
    CardsDealtEvent,
    CompoundsTurnedUpEvent,
    DiscardStartedEvent,
    CardDrawnEvent,
    CompoundCapturedEvent,
    CompoundTurnedUpEvent,
    CardDiscardedEvent,
)


def card_events(card: type) -> tuple[type, ...]:
    """The events of the shared turn and round that show cards, with a game's ``card``."""
    return tuple(specialised(event[card]) for event in _CARD_EVENTS)
