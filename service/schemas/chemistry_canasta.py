"""HTTP schemas of Chemistry Canasta (`chemistry-canasta`).

The parts Chemistry Canasta shares with Compound Capture (the draw, the capture, the
next round, compound chemistry, the match) are Compound Capture's schemas; the cards
(which add the Basic Deck), the runs, the claims, going out and the scores are here.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from rules.chemistry_canasta import GAME

from ..play import GameApi
from .common import move_type, strict_bool
from .compound_capture import (
    CARD_ID,
    CcCaptureMoveSchema,
    CcCapturePartSchema,
    CcCardSchema,
    CcCustomCompoundSchema,
    CcDeckReshuffledEventSchema,
    CcDrawMoveSchema,
    CcMatchOverEventSchema,
    CcMatchSchema,
    CcMatchTiedEventSchema,
    CcNextRoundMoveSchema,
    CcRoundRecordSchema,
    CcRoundScoredEventSchema,
    CcTurnStartedEventSchema,
)

DECKS = ["covalent", "ionic", "custom"]
ROUND_END_REASONS = ["all_captured", "went_out", "deck_empty"]
RUNS = ["own", "anyone", "three"]
NUMBER = validate.Range(min=1, max=103)
MOVE_SPACE = (
    "Runs and extensions are listed once per series: an element card wherever your hand "
    "holds the number (its lowest-numbered copy), wild cards only in the gaps. Laying a wild "
    "card where you hold the number, or another copy of the same element, is legal too. "
    "Captures are listed once per distinct way, with the lowest-numbered copies."
)


def _int(description: str, **kw: object) -> fields.Integer:
    return fields.Integer(required=True, metadata={"description": description, **kw})


def _str(description: str, **kw: object) -> fields.String:
    return fields.String(required=True, metadata={"description": description, **kw})


def _bool(description: str) -> fields.Boolean:
    return fields.Boolean(required=True, metadata={"description": description})


def _ints(description: str) -> fields.List:  # type: ignore[type-arg]
    return fields.List(fields.Integer(), required=True, metadata={"description": description})


# ---------------------------------------------------------------- options -----------
class CanDealSchema(ma.Schema):
    """Cards fixed in the first round (the rest are dealt at random)."""

    hands = fields.List(
        fields.List(
            fields.String(validate=validate.Length(min=1, max=40)), validate=validate.Length(max=7)
        ),
        validate=validate.Length(min=1, max=6),
        metadata={
            "description": 'One list per seat of at most 7 card names: element symbols or "wild".',
            "example": [["Tc", "Rh", "wild"], ["Ru"]],
        },
    )
    row = fields.List(
        fields.String(validate=validate.Length(min=1, max=40)),
        validate=validate.Length(max=6),
        metadata={"description": "Formulas of face-up compounds.", "example": ["CO2", "H2O"]},
    )
    discard = fields.String(
        validate=validate.Length(min=1, max=40),
        metadata={"description": "The card that starts the discard pile.", "example": "Xe"},
    )


class CanOptionsSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    decks = fields.String(
        allow_none=True,
        load_default=None,
        validate=validate.OneOf(["covalent", "ionic", "both"]),
        metadata={
            "description": "The compound expansion(s) added to the Basic Deck of 54 Elements. "
            "null: covalent for 1-3 players, both for 4-6; any choice serves 1-6 players.",
            "example": "covalent",
        },
    )
    compounds = fields.List(
        fields.Nested(CcCustomCompoundSchema),
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=6, max=20),
        metadata={
            "description": "A teacher's own expansion of 6-20 compounds (at most 9 atoms "
            "each), completed with 6 wild cards and element cards to 54 cards; instead of decks.",
        },
    )
    runs = fields.String(
        load_default="own",
        validate=validate.OneOf(RUNS),
        metadata={
            "description": "own: runs of 3 or more, a seat extends its own; anyone: any seat "
            "extends any run and scores the cards it adds; three: exactly 3, never extended."
        },
    )
    must_capture = strict_bool(
        load_default=True,
        metadata={"description": "A seat that can capture must, rather than lay runs or discard."},
    )
    reshuffles = fields.Integer(
        load_default=0,
        strict=True,
        validate=validate.Range(min=0, max=5),
        metadata={
            "description": "Times a round may refill the empty draw deck from under the "
            "discard top; after that the round ends when the draw deck runs out."
        },
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
        CanDealSchema,
        allow_none=True,
        load_default=None,
        metadata={"description": "Fix cards of the first round, for lessons and tests."},
    )


# ---------------------------------------------------------------- moves -------------
def _cards(description: str, example: list[int]) -> fields.List:  # type: ignore[type-arg]
    return fields.List(
        fields.Integer(strict=True, validate=CARD_ID),
        required=True,
        validate=validate.Length(min=1, max=60),
        metadata={"description": description, "example": example},
    )


def _run_ref() -> dict[str, fields.Field]:  # type: ignore[type-arg]
    return {
        "owner": fields.Integer(
            required=True,
            strict=True,
            validate=validate.Range(min=0, max=5),
            metadata={"description": "The seat whose board the run is on.", "example": 0},
        ),
        "run": fields.Integer(
            required=True,
            strict=True,
            validate=validate.Range(min=0, max=200),
            metadata={"description": "The run's number on that board, from 0.", "example": 0},
        ),
    }


class CanRunMoveSchema(ma.Schema):
    """Lay a new run: 3 or more cards of consecutive atomic numbers, listed lowest first; a
    wild card stands for the number of its place (at least one element card)."""

    type = move_type("run")
    cards = _cards("Card ids from your hand, lowest atomic number first.", [12, 13, 14])


class CanExtendMoveSchema(ma.Schema):
    """Add cards to one end of a run (your own; anyone's with option runs 'anyone')."""

    type = move_type("extend")
    owner = _run_ref()["owner"]
    run = _run_ref()["run"]
    end = fields.String(
        required=True,
        validate=validate.OneOf(["low", "high"]),
        metadata={"description": "Below the lowest number or above the highest."},
    )
    cards = _cards("Card ids from your hand, lowest atomic number first.", [15])


class CanClaimMoveSchema(ma.Schema):
    """Put the element card a run's wild card stands for in its place and take the wild
    card into your hand (any board, your own included)."""

    type = move_type("claim")
    owner = _run_ref()["owner"]
    run = _run_ref()["run"]
    card = fields.Integer(
        required=True,
        strict=True,
        validate=CARD_ID,
        metadata={"description": "The element card of your hand that replaces the wild."},
    )


class CanDiscardMoveSchema(ma.Schema):
    """Discard one card: it ends a turn without a capture (and goes out if it was your
    last card)."""

    type = move_type("discard")
    card = fields.Integer(
        required=True,
        strict=True,
        validate=CARD_ID,
        metadata={"description": "Card id from your hand.", "example": 54},
    )


# ---------------------------------------------------------------- cards -------------
class CanCardSchema(CcCardSchema):
    """A card's face: an element of the Basic Deck (its id is its atomic number), or a
    compound, element or wild card of an expansion (fields by `kind`)."""

    deck = fields.String(
        required=True,
        validate=validate.OneOf(["basic", *DECKS]),
        metadata={"description": "basic: the Basic Deck of 54 Elements; else the expansion."},
    )


class CanPileSchema(ma.Schema):
    count = _int("Cards in the pile (always public).")
    cards = fields.List(
        fields.Nested(CanCardSchema),
        required=True,
        allow_none=True,
        metadata={
            "description": "The faces, bottom first, where this seat may see them; else null."
        },
    )


class CanDiscardPileSchema(CanPileSchema):
    top = fields.Nested(
        CanCardSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The top card, the one a seat may draw."},
    )


class CanPositionSchema(ma.Schema):
    """A place in a run: the atomic number it is, or a wild card stands for, and the card."""

    number = fields.Integer(
        required=True,
        validate=NUMBER,
        metadata={"description": "The atomic number of this place.", "example": 44},
    )
    symbol = _str("The element of that number.", example="Ru")
    name = _str("Its name.", example="Ruthenium")
    wild = _bool("A wild card lies here, standing for the element.")
    by = _int("The seat that laid this place (it scores the place's 10 points).")
    card = fields.Nested(CanCardSchema, required=True, metadata={"description": "The card."})


class CanRunSchema(ma.Schema):
    owner = _int("The seat whose board it is on.")
    run = _int("Its number on that board, from 0.")
    low = _int("The lowest atomic number.", example=43)
    high = _int("The highest atomic number.", example=45)
    length = _int("Cards in the run.")
    wilds = _int("Wild cards in it (each may be claimed with its element).")
    positions = fields.List(
        fields.Nested(CanPositionSchema),
        required=True,
        metadata={"description": "Every place, lowest number first."},
    )


# ---------------------------------------------------------------- views -------------
class CanTurnSchema(ma.Schema):
    seat = _int("The seat whose turn it is.")
    step = fields.String(
        required=True,
        validate=validate.OneOf(["draw", "play"]),
        metadata={"description": "draw: pick up cards; play: claim, capture, lay runs, discard."},
    )
    drawn = _int("Cards drawn so far this turn (0-2).")
    took_discard = _bool("The top of the discard pile was taken.")
    melded = _bool("A run was laid or extended this turn (no capture now; a discard ends it).")


class CanReshufflesSchema(ma.Schema):
    allowed = _int("Refills of the draw deck a round may have (option reshuffles).")
    used = _int("Refills this round so far.")


class CanSeatViewSchema(ma.Schema):
    seat = _int("Seat number.")
    hand_count = _int("Cards in the seat's hand.")
    captured = fields.Nested(
        CanPileSchema, required=True, metadata={"description": "Compounds captured this round."}
    )
    runs = fields.List(
        fields.Nested(CanRunSchema),
        required=True,
        metadata={"description": "The runs on this seat's board."},
    )
    compound_points = _int("25 per compound captured this round.")
    run_cards = _int("Run places this seat laid (on any board).")
    run_points = _int("10 per run place it laid.")
    round_points = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The round's score once it is over (penalties included)."},
    )
    total = _int("Match total over the finished rounds.")


class CanSeatResultSchema(ma.Schema):
    seat = _int("Seat number.")
    compounds = fields.List(
        fields.String(), required=True, metadata={"description": "Formulas captured."}
    )
    compound_points = _int("25 per compound.")
    run_cards = _int("Run places it laid.")
    run_points = _int("10 per run place.")
    elements_in_hand = _int("Element cards left in hand (-1 each).")
    wilds_in_hand = _int("Wild cards left in hand (-5 each).")
    penalty = _int("Points taken off for the hand.")
    points = _int("The round's score.")


class CanRoundResultSchema(ma.Schema):
    reason = fields.String(
        required=True,
        validate=validate.OneOf(ROUND_END_REASONS),
        metadata={
            "description": "all_captured, went_out (a seat played its last card) or "
            "deck_empty (the draw deck ran out)."
        },
    )
    went_out = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The seat that went out, if one did."},
    )
    seats = fields.List(
        fields.Nested(CanSeatResultSchema),
        required=True,
        metadata={"description": "Each seat's score."},
    )
    winners = _ints("Seats with the most points.")


class CanYouSchema(ma.Schema):
    seat = _int("Your seat.")
    hand = fields.List(
        fields.Nested(CanCardSchema), required=True, metadata={"description": "Your cards."}
    )


class CanViewSchema(ma.Schema):
    """What one seat (or an observer) may see: never another hand, the deck order or the
    compound pile."""

    game = _str("The game's slug.")
    players = _int("Number of seats.")
    decks = fields.List(
        fields.String(validate=validate.OneOf(DECKS)),
        required=True,
        metadata={"description": "Expansions in play (with the Basic Deck)."},
    )
    phase = fields.String(
        required=True,
        validate=validate.OneOf(["play", "round_over", "match_over"]),
        metadata={"description": "round_over: the next dealer moves next_round."},
    )
    turn = fields.Nested(
        CanTurnSchema,
        required=True,
        allow_none=True,
        metadata={"description": "null between rounds."},
    )
    runs_rule = fields.String(
        required=True, validate=validate.OneOf(RUNS), metadata={"description": "Option runs."}
    )
    must_capture = _bool("Option.")
    reshuffles = fields.Nested(
        CanReshufflesSchema, required=True, metadata={"description": "Refills of the draw deck."}
    )
    row = fields.Nested(
        CanPileSchema, required=True, metadata={"description": "The face-up compounds."}
    )
    compound_pile = fields.Nested(
        CanPileSchema, required=True, metadata={"description": "Face down."}
    )
    draw = fields.Nested(
        CanPileSchema,
        required=True,
        metadata={"description": "The draw deck, face down (its count is public)."},
    )
    discard = fields.Nested(
        CanDiscardPileSchema,
        required=True,
        metadata={"description": "Every card on it was played face up."},
    )
    seats = fields.List(
        fields.Nested(CanSeatViewSchema),
        required=True,
        metadata={"description": "Every seat and its board."},
    )
    round_end = fields.Nested(
        CanRoundResultSchema,
        required=True,
        allow_none=True,
        metadata={"description": "Once the round is over."},
    )
    match = fields.Nested(
        CcMatchSchema, required=True, metadata={"description": "Rounds and totals."}
    )
    you = fields.Nested(
        CanYouSchema,
        required=True,
        allow_none=True,
        metadata={"description": "null for an observer."},
    )


class CanSeatScoreSchema(ma.Schema):
    seat = _int("Seat number.")
    compounds = fields.List(
        fields.String(), required=True, metadata={"description": "Formulas captured this round."}
    )
    compound_points = _int("25 per compound.")
    run_cards = _int("Run places it laid this round.")
    run_points = _int("10 per run place.")
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


class CanScoresSchema(ma.Schema):
    round = _int("The round.")
    round_over = _bool("Penalties are shown once it is.")
    final = _bool("The match is over.")
    seats = fields.List(
        fields.Nested(CanSeatScoreSchema), required=True, metadata={"description": "Every seat."}
    )
    rounds = fields.List(
        fields.Nested(CcRoundRecordSchema),
        required=True,
        metadata={"description": "Finished rounds."},
    )


# ---------------------------------------------------------------- events ------------
class CanRoundDealtEventSchema(ma.Schema):
    type = move_type("round_dealt")
    round = _int("The new round.")
    dealer = _int("Its dealer.")
    first = _int("The seat that plays first (left of the dealer).")
    hand_size = _int("Cards dealt to each seat.")


class CanCardsDealtEventSchema(ma.Schema):
    """Only the seat dealt to sees its cards."""

    type = move_type("cards_dealt")
    seat = _int("The seat dealt to.")
    count = _int("Cards dealt.")
    cards = fields.List(
        fields.Nested(CanCardSchema), metadata={"description": "Only for that seat."}
    )


class CanCompoundsTurnedUpEventSchema(ma.Schema):
    type = move_type("compounds_turned_up")
    count = _int("Compounds turned face up.")
    cards = fields.List(
        fields.Nested(CanCardSchema), required=True, metadata={"description": "Their faces."}
    )


class CanDiscardStartedEventSchema(ma.Schema):
    type = move_type("discard_started")
    card = fields.Nested(
        CanCardSchema, required=True, metadata={"description": "Turned up from the deck."}
    )


class CanCardDrawnEventSchema(ma.Schema):
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
        fields.Nested(CanCardSchema),
        metadata={"description": "The card, where this seat may see it."},
    )


class CanCompoundCapturedEventSchema(ma.Schema):
    type = move_type("compound_captured")
    seat = _int("The capturing seat.")
    card = fields.Nested(
        CanCardSchema, required=True, metadata={"description": "The compound captured."}
    )
    cards = fields.List(
        fields.Nested(CanCardSchema),
        required=True,
        metadata={"description": "Cards played onto the discard pile, in order."},
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


class CanCompoundTurnedUpEventSchema(ma.Schema):
    type = move_type("compound_turned_up")
    card = fields.Nested(CanCardSchema, required=True, metadata={"description": "The replacement."})
    pile_count = _int("Compounds left face down.")


class CanCardDiscardedEventSchema(ma.Schema):
    type = move_type("card_discarded")
    seat = _int("The discarding seat.")
    count = _int("Cards discarded (1).")
    cards = fields.List(
        fields.Nested(CanCardSchema), required=True, metadata={"description": "The card."}
    )


class CanRunLaidEventSchema(ma.Schema):
    """A new run on the seat's own board."""

    type = move_type("run_laid")
    seat = _int("The seat that laid it.")
    owner = _int("The board it is on (the same seat).")
    run = _int("Its number on that board.")
    cards = fields.List(
        fields.Nested(CanCardSchema),
        required=True,
        metadata={"description": "The cards laid, lowest number first."},
    )
    positions = fields.List(
        fields.Nested(CanPositionSchema),
        required=True,
        metadata={"description": "The places laid, with what each wild card stands for."},
    )
    low = _int("The run's lowest atomic number.")
    high = _int("The run's highest atomic number.")
    length = _int("Cards in the run now.")
    text = _str("The call.", example="Mg 12, Al 13, Si 14: consecutive atomic numbers")
    explanation = _str("Why the numbers belong together, for a learner.")
    points = _int("10 per card laid.", example=30)


class CanRunExtendedEventSchema(CanRunLaidEventSchema):
    """Cards added to one end of a run (its owner's, or any with option runs 'anyone')."""

    type = move_type("run_extended")
    end = fields.String(
        required=True,
        validate=validate.OneOf(["low", "high"]),
        metadata={"description": "The end extended."},
    )


class CanPlacedCardSchema(ma.Schema):
    card = fields.Nested(CanCardSchema, required=True, metadata={"description": "The card."})


class CanWildClaimedEventSchema(ma.Schema):
    type = move_type("wild_claimed")
    seat = _int("The seat that claimed the wild card.")
    owner = _int("The seat whose board the run is on.")
    run = _int("The run's number on that board.")
    number = fields.Integer(
        required=True,
        validate=NUMBER,
        metadata={"description": "The atomic number the wild card stood for.", "example": 44},
    )
    symbol = _str("Its element.", example="Ru")
    placed = fields.Nested(
        CanPlacedCardSchema,
        required=True,
        metadata={"description": "The element card put in the wild card's place."},
    )
    taken = fields.Nested(
        CanPlacedCardSchema,
        required=True,
        metadata={"description": "The wild card, now in the claiming seat's hand."},
    )
    text = _str("What happened, for a learner.")


class CanWentOutEventSchema(ma.Schema):
    type = move_type("went_out")
    seat = _int("The seat that played its last card.")
    discarded = _bool("Its last card was a discard (else it was laid or captured with).")
    text = _str("What happened.", example="Seat 0 went out: it laid its last card in a run.")


class CanRoundEndedEventSchema(CanRoundResultSchema):
    type = move_type("round_ended")
    round = _int("The round that ended.")


API = GameApi(
    game=GAME,
    options=CanOptionsSchema,
    moves={
        "draw": CcDrawMoveSchema,
        "capture": CcCaptureMoveSchema,
        "run": CanRunMoveSchema,
        "extend": CanExtendMoveSchema,
        "claim": CanClaimMoveSchema,
        "discard": CanDiscardMoveSchema,
        "next_round": CcNextRoundMoveSchema,
    },
    view=CanViewSchema,
    scores=CanScoresSchema,
    card=CanCardSchema,
    events={
        "round_dealt": CanRoundDealtEventSchema,
        "cards_dealt": CanCardsDealtEventSchema,
        "compounds_turned_up": CanCompoundsTurnedUpEventSchema,
        "discard_started": CanDiscardStartedEventSchema,
        "card_drawn": CanCardDrawnEventSchema,
        "deck_reshuffled": CcDeckReshuffledEventSchema,
        "compound_captured": CanCompoundCapturedEventSchema,
        "compound_turned_up": CanCompoundTurnedUpEventSchema,
        "card_discarded": CanCardDiscardedEventSchema,
        "run_laid": CanRunLaidEventSchema,
        "run_extended": CanRunExtendedEventSchema,
        "wild_claimed": CanWildClaimedEventSchema,
        "went_out": CanWentOutEventSchema,
        "turn_started": CcTurnStartedEventSchema,
        "round_ended": CanRoundEndedEventSchema,
        "round_scored": CcRoundScoredEventSchema,
        "match_over": CcMatchOverEventSchema,
        "match_tied": CcMatchTiedEventSchema,
    },
    setup_example={
        "players": 2,
        "options": {
            "decks": "covalent",
            "must_capture": False,
            "target": None,
            "deal": {"hands": [["Mg", "Al", "Si", "Tc", "Rh", "wild"], ["Ru"]]},
        },
        "seed": 1,
    },
    move_example={
        "token": "gAAAAABn...",
        "seat": 0,
        "move": {"type": "draw", "source": "deck"},
    },
    move_space=MOVE_SPACE,
)
