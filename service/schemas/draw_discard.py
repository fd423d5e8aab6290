"""HTTP schemas of the draw-two table that Compound Capture and Chemistry Canasta share.

They describe what :mod:`rules.draw_discard` and :mod:`rules.draw_discard_match` produce
(the turn, the piles, the moves and events of the shared turn, seat results and score
rows), the card faces of :mod:`rules.chemistry.decks.compound` and the captures of
:mod:`rules.chemistry.compounds`. Each game adds its own (Canasta's runs, claims and
going out) in its module, subclassing where it adds fields.

A card's face is the one schema a game words itself: its ``deck`` lists the decks that
game has (Canasta adds the Basic Deck). So every schema that carries card faces (the
piles, the hand, most events of the turn) is built once per game by
:func:`table_schemas`, named with the game's prefix (``CcPile``, ``CanPile``); the
others are shared as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from .common import move_type
from .match import MatchSchema, rounds_field

CARD_ID = validate.Range(min=1, max=200)
DECKS = ["covalent", "ionic", "custom"]
"""The compound decks (``custom``: a teacher's own); a game's card schema names them."""


def int_field(description: str, **kw: object) -> fields.Integer:
    """A required integer."""
    return fields.Integer(required=True, metadata={"description": description, **kw})


def str_field(description: str, **kw: object) -> fields.String:
    """A required string."""
    return fields.String(required=True, metadata={"description": description, **kw})


def bool_field(description: str) -> fields.Boolean:
    """A required boolean."""
    return fields.Boolean(required=True, metadata={"description": description})


def _int_or_none(description: str) -> fields.Integer:
    return fields.Integer(required=True, allow_none=True, metadata={"description": description})


def _nested(schema: type[ma.Schema], description: str, **kw: Any) -> fields.Nested:
    return fields.Nested(schema, required=True, metadata={"description": description}, **kw)


def _many(schema: type[ma.Schema], description: str, **kw: Any) -> fields.List:  # type: ignore[type-arg]
    return fields.List(fields.Nested(schema), metadata={"description": description}, **kw)


# ---------------------------------------------------------------- options -----------
class DrawDiscardCustomCompoundSchema(ma.Schema):
    """One compound of a teacher's own deck."""

    formula = fields.String(
        required=True,
        validate=validate.Length(min=1, max=40),
        metadata={"description": "Chemical formula (molmass syntax).", "example": "CO2"},
    )
    name = fields.String(
        validate=validate.Length(min=1, max=60),
        metadata={"description": "Name printed on the card; defaults to the formula."},
    )
    bonding = fields.String(
        validate=validate.OneOf(["covalent", "ionic"]),
        metadata={"description": "Defaults to ionic when the formula has a metal, else covalent."},
    )


def decks_field(description: str) -> fields.String:
    """The ``decks`` option: which built-in compound deck(s)."""
    return fields.String(
        allow_none=True,
        load_default=None,
        validate=validate.OneOf(["covalent", "ionic", "both"]),
        metadata={"description": description, "example": "covalent"},
    )


def compounds_field(description: str) -> fields.List:  # type: ignore[type-arg]
    """The ``compounds`` option: a teacher's own deck instead of the built-in ones."""
    return fields.List(
        fields.Nested(DrawDiscardCustomCompoundSchema),
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=6, max=20),
        metadata={"description": description},
    )


def deal_schema(name: str, *, hands: list[list[str]], discard: str) -> type[ma.Schema]:
    """The ``deal`` option's schema (:func:`rules.draw_discard.deal`), with a game's
    examples of the hands and the discard."""
    return ma.Schema.from_dict(
        {
            "hands": fields.List(
                fields.List(
                    fields.String(validate=validate.Length(min=1, max=40)),
                    validate=validate.Length(max=7),
                ),
                validate=validate.Length(min=1, max=6),
                metadata={
                    "description": "One list per seat of at most 7 card names: element "
                    'symbols or "wild".',
                    "example": hands,
                },
            ),
            "row": fields.List(
                fields.String(validate=validate.Length(min=1, max=40)),
                validate=validate.Length(max=6),
                metadata={
                    "description": "Formulas of face-up compounds.",
                    "example": ["CO2", "H2O"],
                },
            ),
            "discard": fields.String(
                validate=validate.Length(min=1, max=40),
                metadata={
                    "description": "The card that starts the discard pile.",
                    "example": discard,
                },
            ),
        },
        name=name,
    )


def deal_field(schema: type[ma.Schema]) -> fields.Nested:
    """The ``deal`` option (``schema``: from :func:`deal_schema`)."""
    return fields.Nested(
        schema,
        allow_none=True,
        load_default=None,
        metadata={"description": "Fix cards of the first round, for lessons and tests."},
    )


# ---------------------------------------------------------------- moves -------------
class DrawDiscardDrawMoveSchema(ma.Schema):
    """Draw one card (twice a turn): from the draw deck, or the top of the discard pile
    (at most once a turn)."""

    type = move_type("draw")
    source = fields.String(
        required=True,
        validate=validate.OneOf(["deck", "discard"]),
        metadata={"description": "Where the card comes from.", "example": "deck"},
    )


class DrawDiscardCaptureMoveSchema(ma.Schema):
    """Capture a face-up compound by playing exactly its elements (wild cards may stand
    in, but not all of them); the cards are played onto the discard pile in this order."""

    type = move_type("capture")
    compound = fields.Integer(
        required=True,
        strict=True,
        validate=CARD_ID,
        metadata={"description": "Card id of the face-up compound.", "example": 3},
    )
    cards = fields.List(
        fields.Integer(strict=True, validate=CARD_ID),
        required=True,
        validate=validate.Length(min=1, max=60),
        metadata={
            "description": "Card ids from your hand; the last ends on top.",
            "example": [16, 27, 28],
        },
    )


class DrawDiscardDiscardMoveSchema(ma.Schema):
    """Discard one card: it ends a turn without a capture."""

    type = move_type("discard")
    card = fields.Integer(
        required=True,
        strict=True,
        validate=CARD_ID,
        metadata={"description": "Card id from your hand.", "example": 40},
    )


# ---------------------------------------------------------------- cards -------------
class DrawDiscardElementCountSchema(ma.Schema):
    symbol = str_field("Element symbol.", example="O")
    count = int_field("Atoms of it in one formula unit.", example=2)


class DrawDiscardIonSchema(ma.Schema):
    ion = str_field("The ion as written.", example="Al3+")
    symbol = str_field("Its element.", example="Al")
    charge = int_field("Charge of one ion.", example=3)
    count = int_field("Ions in one formula unit.", example=2)


class DrawDiscardCardSchema(ma.Schema):
    """A card's face: a compound, an element or a wild card (fields by `kind`). A game's
    card schema subclasses it and adds ``deck`` (the decks that game has)."""

    id = int_field("Card id (copies have different ids).", example=3)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["compound", "element", "wild"]),
        metadata={"description": "Which kind of card."},
    )
    border = fields.String(
        validate=validate.OneOf(["red", "purple", "green"]),
        metadata={"description": "Compound (red: covalent, purple: ionic) and wild cards (green)."},
    )
    formula = fields.String(
        metadata={"description": "Compound cards: the formula.", "example": "CO2"}
    )
    name = fields.String(
        metadata={
            "description": "Compound and element cards: the name.",
            "example": "Carbon dioxide",
        }
    )
    bonding = fields.String(
        validate=validate.OneOf(["covalent", "ionic"]),
        metadata={"description": "Compound cards: the bonding."},
    )
    elements = fields.List(
        fields.Nested(DrawDiscardElementCountSchema),
        metadata={"description": "Compound cards: the element cards a capture needs."},
    )
    atoms = fields.Integer(metadata={"description": "Compound cards: cards a capture plays."})
    molar_mass = fields.Float(metadata={"description": "Compound cards: g/mol (molmass)."})
    ions = fields.List(
        fields.Nested(DrawDiscardIonSchema),
        allow_none=True,
        metadata={"description": "Ionic compound cards: the ions that balance; else null."},
    )
    symbol = fields.String(metadata={"description": "Element cards: the symbol.", "example": "O"})
    z = fields.Integer(metadata={"description": "Element cards: the atomic number."})
    law = fields.String(metadata={"description": "Wild cards: the law it states."})
    text = fields.String(metadata={"description": "Wild cards: the statement of the law."})


class DrawDiscardCapturePartSchema(ma.Schema):
    card = int_field("Card id played.")
    symbol = str_field("The element it is, or a wild card stands for.")
    wild = bool_field("A wild card.")
    law = fields.String(metadata={"description": "Wild cards: the law on the card."})


# ---------------------------------------------------------------- views -------------
def step_field(play: str) -> fields.String:
    """The turn's step; ``play`` says what the seat may do in its play step."""
    return fields.String(
        required=True,
        validate=validate.OneOf(["draw", "play"]),
        metadata={"description": f"draw: pick up cards; play: {play}."},
    )


class DrawDiscardTurnSchema(ma.Schema):
    seat = int_field("The seat whose turn it is.")
    step = step_field("capture or discard")
    drawn = int_field("Cards drawn so far this turn (0-2).")
    took_discard = bool_field("The top of the discard pile was taken.")


class DrawDiscardSeatResultSchema(ma.Schema):
    seat = int_field("Seat number.")
    compounds = fields.List(
        fields.String(), required=True, metadata={"description": "Formulas captured."}
    )
    compound_points = int_field("25 per compound.")
    elements_in_hand = int_field("Element cards left in hand (-1 each).")
    wilds_in_hand = int_field("Wild cards left in hand (-5 each).")
    penalty = int_field("Points taken off for the hand.")
    points = int_field("The round's score.")


class DrawDiscardRoundResultSchema(ma.Schema):
    """A finished round (a game adds its ``reason`` for the end)."""

    seats = fields.List(
        fields.Nested(DrawDiscardSeatResultSchema),
        required=True,
        metadata={"description": "Each seat's score."},
    )
    winners = fields.List(
        fields.Integer(), required=True, metadata={"description": "Seats with the most points."}
    )


def reason_field(reasons: list[str], description: str) -> fields.String:
    """Why a round ended, among a game's ``reasons``."""
    return fields.String(
        required=True, validate=validate.OneOf(reasons), metadata={"description": description}
    )


class DrawDiscardSeatScoreSchema(ma.Schema):
    seat = int_field("Seat number.")
    compounds = fields.List(
        fields.String(), required=True, metadata={"description": "Formulas captured this round."}
    )
    compound_points = int_field("25 per compound.")
    hand_count = int_field("Cards in hand.")
    elements_in_hand = _int_or_none("Once the round is over.")
    wilds_in_hand = _int_or_none("Once the round is over.")
    penalty = _int_or_none("Once the round is over.")
    round_points = _int_or_none("Once the round is over.")
    total = int_field("Match total over the finished rounds.")


class DrawDiscardScoresSchema(ma.Schema):
    round = int_field("The round.")
    round_over = bool_field("Penalties are shown once it is.")
    final = bool_field("The match is over.")
    seats = fields.List(
        fields.Nested(DrawDiscardSeatScoreSchema),
        required=True,
        metadata={"description": "Every seat."},
    )
    rounds = rounds_field()


def decks_in_play_field(description: str) -> fields.List:  # type: ignore[type-arg]
    """The view's ``decks``: the compound decks in play."""
    return fields.List(
        fields.String(validate=validate.OneOf(DECKS)),
        required=True,
        metadata={"description": description},
    )


def turn_field(schema: type[ma.Schema]) -> fields.Nested:
    """The view's ``turn`` (``schema``: the game's turn record)."""
    return fields.Nested(
        schema, required=True, allow_none=True, metadata={"description": "null between rounds."}
    )


def round_end_field(schema: type[ma.Schema]) -> fields.Nested:
    """The view's ``round_end`` (``schema``: the game's round result)."""
    return fields.Nested(
        schema, required=True, allow_none=True, metadata={"description": "Once the round is over."}
    )


# ---------------------------------------------------------------- events ------------
class DrawDiscardRoundDealtEventSchema(ma.Schema):
    type = move_type("round_dealt")
    round = int_field("The new round.")
    dealer = int_field("Its dealer.")
    first = int_field("The seat that plays first (left of the dealer).")
    hand_size = int_field("Cards dealt to each seat.")


class DrawDiscardDeckReshuffledEventSchema(ma.Schema):
    type = move_type("deck_reshuffled")
    count = int_field("Cards from under the discard top shuffled into the new draw deck.")


class DrawDiscardDrawEndedEventSchema(ma.Schema):
    type = move_type("draw_ended")
    seat = int_field("The drawer.")
    drawn = int_field("Cards it could draw (1).")
    reason = fields.String(
        required=True,
        validate=validate.OneOf(["no_cards"]),
        metadata={"description": "Both piles spent."},
    )


class DrawDiscardTurnStartedEventSchema(ma.Schema):
    type = move_type("turn_started")
    seat = int_field("The seat to play.")


# ---------------------------------------------------------------- per game's card ---
@dataclass(frozen=True)
class TableSchemas:
    """The schemas that carry one game's card faces (see :func:`table_schemas`)."""

    card: type[ma.Schema]
    pile: type[ma.Schema]
    discard_pile: type[ma.Schema]
    you: type[ma.Schema]
    seat_view: type[ma.Schema]
    """A seat in the view; a game subclasses it to add its own board or points."""
    view: type[ma.Schema]
    """The view's fields every such game has; a game subclasses it with its decks, turn,
    seats, round end and own rules."""
    events: dict[str, type[ma.Schema]]
    """The events of :mod:`rules.draw_discard` that show cards, by type."""


def table_schemas(prefix: str, face: type[ma.Schema]) -> TableSchemas:
    """The schemas that carry card faces of schema ``face`` (a game's card schema),
    named ``<prefix><Name>`` in the contract."""

    def named(cls: type[ma.Schema]) -> type[ma.Schema]:
        cls.__name__ = cls.__qualname__ = f"{prefix}{cls.__name__}Schema"
        return cls

    class Pile(ma.Schema):
        count = int_field("Cards in the pile (always public).")
        cards = _many(
            face,
            "The faces, bottom first, where this seat may see them; else null.",
            required=True,
            allow_none=True,
        )

    class DiscardPile(Pile):
        top = _nested(face, "The top card, the one a seat may draw.", allow_none=True)

    class You(ma.Schema):
        seat = int_field("Your seat.")
        hand = _many(face, "Your cards.", required=True)

    class SeatView(ma.Schema):
        seat = int_field("Seat number.")
        hand_count = int_field("Cards in the seat's hand.")
        captured = _nested(Pile, "Compounds captured this round.")
        compound_points = int_field("25 per compound captured this round.")
        round_points = _int_or_none("The round's score once it is over (penalties included).")
        total = int_field("Match total over the finished rounds.")

    class View(ma.Schema):
        """What one seat (or an observer) may see: never another hand, the deck order or
        the compound pile."""

        game = str_field("The game's slug.")
        players = int_field("Number of seats.")
        phase = fields.String(
            required=True,
            validate=validate.OneOf(["play", "round_over", "match_over"]),
            metadata={"description": "round_over: the next dealer moves next_round."},
        )
        must_capture = bool_field("Option.")
        row = _nested(Pile, "The face-up compounds.")
        compound_pile = _nested(Pile, "Face down.")
        draw = _nested(Pile, "The draw deck, face down (its count is public).")
        discard = _nested(DiscardPile, "Every card on it was played face up.")
        match = _nested(MatchSchema, "Rounds and totals.")
        you = _nested(You, "null for an observer.", allow_none=True)

    class CardsDealtEvent(ma.Schema):
        """Only the seat dealt to sees its cards."""

        type = move_type("cards_dealt")
        seat = int_field("The seat dealt to.")
        count = int_field("Cards dealt.")
        cards = _many(face, "Only for that seat.")

    class CompoundsTurnedUpEvent(ma.Schema):
        type = move_type("compounds_turned_up")
        count = int_field("Compounds turned face up.")
        cards = _many(face, "Their faces.", required=True)

    class DiscardStartedEvent(ma.Schema):
        type = move_type("discard_started")
        card = _nested(face, "Turned up from the deck.")

    class CardDrawnEvent(ma.Schema):
        """Everyone sees the count and the source; the face only the drawer (a card from
        the deck) or everyone (the top of the discard pile)."""

        type = move_type("card_drawn")
        seat = int_field("The drawer.")
        source = fields.String(
            required=True,
            validate=validate.OneOf(["deck", "discard"]),
            metadata={"description": "Where from."},
        )
        count = int_field("Cards drawn (1).")
        deck_count = int_field("Cards left in the draw deck.")
        cards = _many(face, "The card, where this seat may see it.")

    class CompoundCapturedEvent(ma.Schema):
        type = move_type("compound_captured")
        seat = int_field("The capturing seat.")
        card = _nested(face, "The compound captured.")
        cards = _many(face, "Cards played onto the discard pile, in order.", required=True)
        parts = _many(DrawDiscardCapturePartSchema, "What each card is.", required=True)
        text = str_field(
            "The call.", example="CO2 captured: C + O + O (wild: Law of Conservation of Mass as O)"
        )
        explanation = str_field("The chemistry, for a learner.")
        points = int_field("Points the compound is worth.", example=25)

    class CompoundTurnedUpEvent(ma.Schema):
        type = move_type("compound_turned_up")
        card = _nested(face, "The replacement.")
        pile_count = int_field("Compounds left face down.")

    class CardDiscardedEvent(ma.Schema):
        type = move_type("card_discarded")
        seat = int_field("The discarding seat.")
        count = int_field("Cards discarded (1).")
        cards = _many(face, "The card.", required=True)

    return TableSchemas(
        card=face,
        pile=named(Pile),
        discard_pile=named(DiscardPile),
        you=named(You),
        seat_view=named(SeatView),
        view=named(View),
        events={
            "cards_dealt": named(CardsDealtEvent),
            "compounds_turned_up": named(CompoundsTurnedUpEvent),
            "discard_started": named(DiscardStartedEvent),
            "card_drawn": named(CardDrawnEvent),
            "compound_captured": named(CompoundCapturedEvent),
            "compound_turned_up": named(CompoundTurnedUpEvent),
            "card_discarded": named(CardDiscardedEvent),
        },
    )


EVENTS: dict[str, type[ma.Schema]] = {
    "round_dealt": DrawDiscardRoundDealtEventSchema,
    "deck_reshuffled": DrawDiscardDeckReshuffledEventSchema,
    "turn_started": DrawDiscardTurnStartedEventSchema,
}
"""The events of :mod:`rules.draw_discard` and :mod:`rules.draw_discard_match` that show
no card, by type (``draw_ended`` only where a game's draw can end early)."""
