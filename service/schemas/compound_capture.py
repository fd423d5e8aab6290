"""HTTP schemas of Compound Capture (`compound-capture`)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from rules.compound_capture import GAME

from ..play import GameApi
from .common import move_type, strict_bool

CARD_ID = validate.Range(min=1, max=200)
ROUND_END_REASONS = ["all_captured", "quiet_lap", "deck_empty"]
DECKS = ["covalent", "ionic", "custom"]


def _int(description: str, **kw: object) -> fields.Integer:
    return fields.Integer(required=True, metadata={"description": description, **kw})


def _str(description: str, **kw: object) -> fields.String:
    return fields.String(required=True, metadata={"description": description, **kw})


# ---------------------------------------------------------------- options -----------
class CcCustomCompoundSchema(ma.Schema):
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


class CcDealSchema(ma.Schema):
    """Cards fixed in the first round (the rest are dealt at random)."""

    hands = fields.List(
        fields.List(
            fields.String(validate=validate.Length(min=1, max=40)), validate=validate.Length(max=7)
        ),
        validate=validate.Length(min=1, max=6),
        metadata={
            "description": 'One list per seat of at most 7 card names: element symbols or "wild".',
            "example": [["C", "O", "O"], ["H", "H", "wild"]],
        },
    )
    row = fields.List(
        fields.String(validate=validate.Length(min=1, max=40)),
        validate=validate.Length(max=6),
        metadata={"description": "Formulas of face-up compounds.", "example": ["CO2", "H2O"]},
    )
    discard = fields.String(
        validate=validate.Length(min=1, max=40),
        metadata={"description": "The card that starts the discard pile.", "example": "N"},
    )


class CcOptionsSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    decks = fields.String(
        allow_none=True,
        load_default=None,
        validate=validate.OneOf(["covalent", "ionic", "both"]),
        metadata={
            "description": "Compound deck(s): one deck for 1-3 players, 'both' for 1-6. "
            "null: covalent for 1-3 players, both for 4-6.",
            "example": "covalent",
        },
    )
    compounds = fields.List(
        fields.Nested(CcCustomCompoundSchema),
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=6, max=20),
        metadata={
            "description": "A teacher's own deck of 6-20 compounds (at most 9 atoms each), "
            "completed with 6 wild cards and element cards to 54 cards; instead of decks.",
        },
    )
    deck_out = fields.String(
        load_default="reshuffle",
        validate=validate.OneOf(["reshuffle", "end_round"]),
        metadata={
            "description": "When the draw deck runs out: reshuffle the discard pile under its "
            "top card, or end the round after that turn."
        },
    )
    must_capture = strict_bool(
        load_default=True,
        metadata={"description": "A seat that can capture must capture rather than discard."},
    )
    target = fields.Integer(
        allow_none=True,
        load_default=250,
        strict=True,
        validate=validate.Range(min=1, max=10_000),
        metadata={"description": "Play rounds until a seat reaches this total; null: one round."},
    )
    on_tie = fields.String(
        load_default="share",
        validate=validate.OneOf(["share", "play_on"]),
        metadata={"description": "Seats tied on the best total share the win, or play on."},
    )
    max_rounds = fields.Integer(
        load_default=30,
        strict=True,
        validate=validate.Range(min=1, max=1000),
        metadata={"description": "The match ends after this many rounds at most."},
    )
    deal = fields.Nested(
        CcDealSchema,
        allow_none=True,
        load_default=None,
        metadata={"description": "Fix cards of the first round, for lessons and tests."},
    )


# ---------------------------------------------------------------- moves -------------
class CcDrawMoveSchema(ma.Schema):
    """Draw one card (twice a turn): from the draw deck, or the top of the discard pile
    (at most once a turn)."""

    type = move_type("draw")
    source = fields.String(
        required=True,
        validate=validate.OneOf(["deck", "discard"]),
        metadata={"description": "Where the card comes from.", "example": "deck"},
    )


class CcCaptureMoveSchema(ma.Schema):
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


class CcDiscardMoveSchema(ma.Schema):
    """Discard one card when you capture nothing this turn."""

    type = move_type("discard")
    card = fields.Integer(
        required=True,
        strict=True,
        validate=CARD_ID,
        metadata={"description": "Card id from your hand.", "example": 40},
    )


class CcNextRoundMoveSchema(ma.Schema):
    """Deal the next round (the seat left of the last dealer, once a round is over)."""

    type = move_type("next_round")


# ---------------------------------------------------------------- cards -------------
class CcElementCountSchema(ma.Schema):
    symbol = _str("Element symbol.", example="O")
    count = _int("Atoms of it in one formula unit.", example=2)


class CcIonSchema(ma.Schema):
    ion = _str("The ion as written.", example="Al3+")
    symbol = _str("Its element.", example="Al")
    charge = _int("Charge of one ion.", example=3)
    count = _int("Ions in one formula unit.", example=2)


class CcCardSchema(ma.Schema):
    """A card's face: a compound, an element or a wild card (fields by `kind`)."""

    id = _int("Card id (copies have different ids).", example=3)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["compound", "element", "wild"]),
        metadata={"description": "Which kind of card."},
    )
    deck = fields.String(
        required=True,
        validate=validate.OneOf(DECKS),
        metadata={"description": "The deck the card comes from."},
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
        fields.Nested(CcElementCountSchema),
        metadata={"description": "Compound cards: the element cards a capture needs."},
    )
    atoms = fields.Integer(metadata={"description": "Compound cards: cards a capture plays."})
    molar_mass = fields.Float(metadata={"description": "Compound cards: g/mol (molmass)."})
    ions = fields.List(
        fields.Nested(CcIonSchema),
        allow_none=True,
        metadata={"description": "Ionic compound cards: the ions that balance; else null."},
    )
    symbol = fields.String(metadata={"description": "Element cards: the symbol.", "example": "O"})
    z = fields.Integer(metadata={"description": "Element cards: the atomic number."})
    law = fields.String(metadata={"description": "Wild cards: the law it states."})
    text = fields.String(metadata={"description": "Wild cards: the statement of the law."})


class CcPileSchema(ma.Schema):
    count = _int("Cards in the pile (always public).")
    cards = fields.List(
        fields.Nested(CcCardSchema),
        required=True,
        allow_none=True,
        metadata={
            "description": "The faces, bottom first, where this seat may see them; else null."
        },
    )


class CcDiscardPileSchema(CcPileSchema):
    top = fields.Nested(
        CcCardSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The top card, the one a seat may draw."},
    )


# ---------------------------------------------------------------- views -------------
class CcTurnSchema(ma.Schema):
    seat = _int("The seat whose turn it is.")
    step = fields.String(
        required=True,
        validate=validate.OneOf(["draw", "play"]),
        metadata={"description": "draw: pick up cards; play: capture or discard."},
    )
    drawn = _int("Cards drawn so far this turn (0-2).")
    took_discard = fields.Boolean(
        required=True, metadata={"description": "The top of the discard pile was taken."}
    )


class CcSeatViewSchema(ma.Schema):
    seat = _int("Seat number.")
    hand_count = _int("Cards in the seat's hand.")
    captured = fields.Nested(
        CcPileSchema, required=True, metadata={"description": "Compounds captured this round."}
    )
    compound_points = _int("25 per compound captured this round.")
    round_points = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The round's score once it is over (penalties included)."},
    )
    total = _int("Match total over the finished rounds.")


class CcSeatResultSchema(ma.Schema):
    seat = _int("Seat number.")
    compounds = fields.List(
        fields.String(), required=True, metadata={"description": "Formulas captured."}
    )
    compound_points = _int("25 per compound.")
    elements_in_hand = _int("Element cards left in hand (-1 each).")
    wilds_in_hand = _int("Wild cards left in hand (-5 each).")
    penalty = _int("Points taken off for the hand.")
    points = _int("The round's score.")


class CcRoundResultSchema(ma.Schema):
    reason = fields.String(
        required=True,
        validate=validate.OneOf(ROUND_END_REASONS),
        metadata={
            "description": "all_captured, quiet_lap (a lap with no capture), deck_empty "
            "(deck_out end_round)."
        },
    )
    seats = fields.List(
        fields.Nested(CcSeatResultSchema),
        required=True,
        metadata={"description": "Each seat's score."},
    )
    winners = fields.List(
        fields.Integer(), required=True, metadata={"description": "Seats with the most points."}
    )


class CcRoundRecordSchema(ma.Schema):
    round = _int("Round number.")
    dealer = _int("Its dealer.")
    points = fields.List(
        fields.Integer(), required=True, metadata={"description": "Points per seat."}
    )
    totals = fields.List(
        fields.Integer(), required=True, metadata={"description": "Totals after it."}
    )


class CcMatchSchema(ma.Schema):
    round = _int("The round being played (or just finished).")
    dealer = _int("Its dealer.")
    target = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Total that ends the match; null: one round."},
    )
    on_tie = fields.String(
        required=True,
        validate=validate.OneOf(["share", "play_on"]),
        metadata={"description": "Tie rule."},
    )
    totals = fields.List(
        fields.Integer(), required=True, metadata={"description": "Totals per seat."}
    )
    rounds = fields.List(
        fields.Nested(CcRoundRecordSchema),
        required=True,
        metadata={"description": "Finished rounds."},
    )
    over = fields.Boolean(required=True, metadata={"description": "The match has ended."})
    max_rounds = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Round limit."}
    )


class CcYouSchema(ma.Schema):
    seat = _int("Your seat.")
    hand = fields.List(
        fields.Nested(CcCardSchema), required=True, metadata={"description": "Your cards."}
    )


class CcViewSchema(ma.Schema):
    """What one seat (or an observer) may see: never another hand, the deck order or the
    compound pile."""

    game = _str("The game's slug.")
    players = _int("Number of seats.")
    decks = fields.List(
        fields.String(validate=validate.OneOf(DECKS)),
        required=True,
        metadata={"description": "Decks in play."},
    )
    phase = fields.String(
        required=True,
        validate=validate.OneOf(["play", "round_over", "match_over"]),
        metadata={"description": "round_over: the next dealer moves next_round."},
    )
    turn = fields.Nested(
        CcTurnSchema,
        required=True,
        allow_none=True,
        metadata={"description": "null between rounds."},
    )
    quiet_turns = _int("Turns in a row without a capture; a lap of them ends the round.")
    lap = _int("Turns in a lap (the number of players).")
    deck_out = fields.String(
        required=True,
        validate=validate.OneOf(["reshuffle", "end_round"]),
        metadata={"description": "Option."},
    )
    must_capture = fields.Boolean(required=True, metadata={"description": "Option."})
    row = fields.Nested(
        CcPileSchema, required=True, metadata={"description": "The face-up compounds."}
    )
    compound_pile = fields.Nested(
        CcPileSchema, required=True, metadata={"description": "Face down."}
    )
    draw = fields.Nested(
        CcPileSchema, required=True, metadata={"description": "The draw deck, face down."}
    )
    discard = fields.Nested(
        CcDiscardPileSchema,
        required=True,
        metadata={"description": "Every card on it was played face up."},
    )
    seats = fields.List(
        fields.Nested(CcSeatViewSchema), required=True, metadata={"description": "Every seat."}
    )
    round_end = fields.Nested(
        CcRoundResultSchema,
        required=True,
        allow_none=True,
        metadata={"description": "Once the round is over."},
    )
    match = fields.Nested(
        CcMatchSchema, required=True, metadata={"description": "Rounds and totals."}
    )
    you = fields.Nested(
        CcYouSchema,
        required=True,
        allow_none=True,
        metadata={"description": "null for an observer."},
    )


class CcSeatScoreSchema(ma.Schema):
    seat = _int("Seat number.")
    compounds = fields.List(
        fields.String(), required=True, metadata={"description": "Formulas captured this round."}
    )
    compound_points = _int("25 per compound.")
    hand_count = _int("Cards in hand.")
    elements_in_hand = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Once the round is over."}
    )
    wilds_in_hand = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Once the round is over."}
    )
    penalty = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Once the round is over."}
    )
    round_points = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Once the round is over."}
    )
    total = _int("Match total over the finished rounds.")


class CcScoresSchema(ma.Schema):
    round = _int("The round.")
    round_over = fields.Boolean(
        required=True, metadata={"description": "Penalties are shown once it is."}
    )
    final = fields.Boolean(required=True, metadata={"description": "The match is over."})
    seats = fields.List(
        fields.Nested(CcSeatScoreSchema), required=True, metadata={"description": "Every seat."}
    )
    rounds = fields.List(
        fields.Nested(CcRoundRecordSchema),
        required=True,
        metadata={"description": "Finished rounds."},
    )


# ---------------------------------------------------------------- events ------------
class CcRoundDealtEventSchema(ma.Schema):
    type = move_type("round_dealt")
    round = _int("The new round.")
    dealer = _int("Its dealer.")
    first = _int("The seat that plays first (left of the dealer).")
    hand_size = _int("Cards dealt to each seat.")


class CcCardsDealtEventSchema(ma.Schema):
    """Only the seat dealt to sees its cards."""

    type = move_type("cards_dealt")
    seat = _int("The seat dealt to.")
    count = _int("Cards dealt.")
    cards = fields.List(
        fields.Nested(CcCardSchema), metadata={"description": "Only for that seat."}
    )


class CcCompoundsTurnedUpEventSchema(ma.Schema):
    type = move_type("compounds_turned_up")
    count = _int("Compounds turned face up.")
    cards = fields.List(
        fields.Nested(CcCardSchema), required=True, metadata={"description": "Their faces."}
    )


class CcDiscardStartedEventSchema(ma.Schema):
    type = move_type("discard_started")
    card = fields.Nested(
        CcCardSchema, required=True, metadata={"description": "Turned up from the deck."}
    )


class CcCardDrawnEventSchema(ma.Schema):
    """Everyone sees the count and the source; the face only the drawer (a card from the
    deck) or everyone (the top of the discard pile)."""

    type = move_type("card_drawn")
    seat = _int("The drawer.")
    source = fields.String(
        required=True,
        validate=validate.OneOf(["deck", "discard"]),
        metadata={"description": "Where from."},
    )
    count = _int("Cards drawn (1).")
    deck_count = _int("Cards left in the draw deck.")
    cards = fields.List(
        fields.Nested(CcCardSchema),
        metadata={"description": "The card, where this seat may see it."},
    )


class CcDeckReshuffledEventSchema(ma.Schema):
    type = move_type("deck_reshuffled")
    count = _int("Cards from under the discard top shuffled into the new draw deck.")


class CcDrawEndedEventSchema(ma.Schema):
    type = move_type("draw_ended")
    seat = _int("The drawer.")
    drawn = _int("Cards it could draw (1).")
    reason = fields.String(
        required=True,
        validate=validate.OneOf(["no_cards"]),
        metadata={"description": "Both piles spent."},
    )


class CcCapturePartSchema(ma.Schema):
    card = _int("Card id played.")
    symbol = _str("The element it is, or a wild card stands for.")
    wild = fields.Boolean(required=True, metadata={"description": "A wild card."})
    law = fields.String(metadata={"description": "Wild cards: the law on the card."})


class CcCompoundCapturedEventSchema(ma.Schema):
    type = move_type("compound_captured")
    seat = _int("The capturing seat.")
    card = fields.Nested(
        CcCardSchema, required=True, metadata={"description": "The compound captured."}
    )
    cards = fields.List(
        fields.Nested(CcCardSchema),
        required=True,
        metadata={"description": "Cards played, in order."},
    )
    parts = fields.List(
        fields.Nested(CcCapturePartSchema),
        required=True,
        metadata={"description": "What each card is."},
    )
    text = _str(
        "The call.", example="CO2 captured: C + O + O (wild: Law of Conservation of Mass as O)"
    )
    explanation = _str("The chemistry, for a learner.")
    points = _int("Points the compound is worth.", example=25)


class CcCompoundTurnedUpEventSchema(ma.Schema):
    type = move_type("compound_turned_up")
    card = fields.Nested(CcCardSchema, required=True, metadata={"description": "The replacement."})
    pile_count = _int("Compounds left face down.")


class CcCardDiscardedEventSchema(ma.Schema):
    type = move_type("card_discarded")
    seat = _int("The discarding seat.")
    count = _int("Cards discarded (1).")
    cards = fields.List(
        fields.Nested(CcCardSchema), required=True, metadata={"description": "The card."}
    )


class CcTurnStartedEventSchema(ma.Schema):
    type = move_type("turn_started")
    seat = _int("The seat to play.")


class CcRoundEndedEventSchema(CcRoundResultSchema):
    type = move_type("round_ended")
    round = _int("The round that ended.")


class CcRoundScoredEventSchema(CcRoundRecordSchema):
    type = move_type("round_scored")
    target = fields.Integer(
        required=True, allow_none=True, metadata={"description": "The match target."}
    )


class CcMatchOverEventSchema(ma.Schema):
    type = move_type("match_over")
    finished = fields.Boolean(required=True, metadata={"description": "Always true."})
    winners = fields.List(
        fields.Integer(), required=True, metadata={"description": "Winning seats."}
    )
    ranking = fields.List(
        fields.Integer(), required=True, metadata={"description": "Seats, best first."}
    )
    places = fields.List(
        fields.Integer(), required=True, metadata={"description": "Places (1, 1, 3)."}
    )
    tie_break = fields.String(
        required=True, allow_none=True, metadata={"description": "shared, if tied."}
    )
    totals = fields.List(fields.Integer(), required=True, metadata={"description": "Final totals."})
    reason = fields.String(
        required=True,
        validate=validate.OneOf(["target", "one_round", "max_rounds"]),
        metadata={"description": "Why the match ended."},
    )


class CcMatchTiedEventSchema(ma.Schema):
    type = move_type("match_tied")
    leaders = fields.List(
        fields.Integer(), required=True, metadata={"description": "Seats tied on the best total."}
    )
    totals = fields.List(fields.Integer(), required=True, metadata={"description": "Totals."})


API = GameApi(
    game=GAME,
    options=CcOptionsSchema,
    moves={
        "draw": CcDrawMoveSchema,
        "capture": CcCaptureMoveSchema,
        "discard": CcDiscardMoveSchema,
        "next_round": CcNextRoundMoveSchema,
    },
    view=CcViewSchema,
    scores=CcScoresSchema,
    card=CcCardSchema,
    events={
        "round_dealt": CcRoundDealtEventSchema,
        "cards_dealt": CcCardsDealtEventSchema,
        "compounds_turned_up": CcCompoundsTurnedUpEventSchema,
        "discard_started": CcDiscardStartedEventSchema,
        "card_drawn": CcCardDrawnEventSchema,
        "deck_reshuffled": CcDeckReshuffledEventSchema,
        "draw_ended": CcDrawEndedEventSchema,
        "compound_captured": CcCompoundCapturedEventSchema,
        "compound_turned_up": CcCompoundTurnedUpEventSchema,
        "card_discarded": CcCardDiscardedEventSchema,
        "turn_started": CcTurnStartedEventSchema,
        "round_ended": CcRoundEndedEventSchema,
        "round_scored": CcRoundScoredEventSchema,
        "match_over": CcMatchOverEventSchema,
        "match_tied": CcMatchTiedEventSchema,
    },
    setup_example={
        "players": 2,
        "options": {
            "decks": "covalent",
            "target": None,
            "deal": {"hands": [["C", "O", "O"], ["H", "H", "wild"]], "row": ["CO2", "H2O"]},
        },
        "seed": 1,
    },
    move_example={
        "token": "gAAAAABn...",
        "seat": 0,
        "move": {"type": "draw", "source": "deck"},
    },
)
