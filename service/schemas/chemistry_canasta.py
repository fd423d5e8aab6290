"""HTTP schemas of Chemistry Canasta (`chemistry-canasta`).

The table, its moves and events are :mod:`.draw_discard`'s (shared with Compound
Capture), the match :mod:`.match`'s; here are the options, the card (which adds the
Basic Deck), the runs, the claims, going out, and the seat results and scores with runs.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from rules.chemistry_canasta import GAME

from ..play import GameApi
from . import draw_discard as dd
from . import match
from .common import move_type, strict_bool
from .draw_discard import bool_field, int_field, str_field

ROUND_END_REASONS = ["all_captured", "went_out", "deck_empty"]
RUNS = ["own", "anyone", "three"]
NUMBER = validate.Range(min=1, max=103)
MOVE_SPACE = (
    "Runs and extensions are listed once per series: an element card wherever your hand "
    "holds the number (its lowest-numbered copy), wild cards only in the gaps. Laying a wild "
    "card where you hold the number, or another copy of the same element, is legal too. "
    "Captures are listed once per distinct way, with the lowest-numbered copies."
)


# ---------------------------------------------------------------- options -----------
CanDealSchema = dd.deal_schema("CanDealSchema", hands=[["Tc", "Rh", "wild"], ["Ru"]], discard="Xe")


class CanOptionsSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    decks = dd.decks_field(
        "The compound expansion(s) added to the Basic Deck of 54 Elements. "
        "null: covalent for 1-3 players, both for 4-6; any choice serves 1-6 players."
    )
    compounds = dd.compounds_field(
        "A teacher's own expansion of 6-20 compounds (at most 9 atoms "
        "each), completed with 6 wild cards and element cards to 54 cards; instead of decks."
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
    target = match.target_field()
    on_tie = match.on_tie_field()
    max_rounds = match.max_rounds_field()
    deal = dd.deal_field(CanDealSchema)


# ---------------------------------------------------------------- moves -------------
def _cards(description: str, example: list[int]) -> fields.List:  # type: ignore[type-arg]
    return fields.List(
        fields.Integer(strict=True, validate=dd.CARD_ID),
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
        validate=dd.CARD_ID,
        metadata={"description": "The element card of your hand that replaces the wild."},
    )


# ---------------------------------------------------------------- cards -------------
class CanCardSchema(dd.DrawDiscardCardSchema):
    """A card's face: an element of the Basic Deck (its id is its atomic number), or a
    compound, element or wild card of an expansion (fields by `kind`)."""

    deck = fields.String(
        required=True,
        validate=validate.OneOf(["basic", *dd.DECKS]),
        metadata={"description": "basic: the Basic Deck of 54 Elements; else the expansion."},
    )


TABLE = dd.table_schemas("Can", CanCardSchema)


class CanPositionSchema(ma.Schema):
    """A place in a run: the atomic number it is, or a wild card stands for, and the card."""

    number = fields.Integer(
        required=True,
        validate=NUMBER,
        metadata={"description": "The atomic number of this place.", "example": 44},
    )
    symbol = str_field("The element of that number.", example="Ru")
    name = str_field("Its name.", example="Ruthenium")
    wild = bool_field("A wild card lies here, standing for the element.")
    by = int_field("The seat that laid this place (it scores the place's 10 points).")
    card = fields.Nested(CanCardSchema, required=True, metadata={"description": "The card."})


class CanRunSchema(ma.Schema):
    owner = int_field("The seat whose board it is on.")
    run = int_field("Its number on that board, from 0.")
    low = int_field("The lowest atomic number.", example=43)
    high = int_field("The highest atomic number.", example=45)
    length = int_field("Cards in the run.")
    wilds = int_field("Wild cards in it (each may be claimed with its element).")
    positions = fields.List(
        fields.Nested(CanPositionSchema),
        required=True,
        metadata={"description": "Every place, lowest number first."},
    )


# ---------------------------------------------------------------- views -------------
class CanTurnSchema(dd.DrawDiscardTurnSchema):
    step = dd.step_field("claim, capture, lay runs, discard")
    melded = bool_field("A run was laid or extended this turn (no capture now; a discard ends it).")


class CanReshufflesSchema(ma.Schema):
    allowed = int_field("Refills of the draw deck a round may have (option reshuffles).")
    used = int_field("Refills this round so far.")


class CanSeatViewSchema(TABLE.seat_view):  # type: ignore[misc,name-defined]  # built per card
    runs = fields.List(
        fields.Nested(CanRunSchema),
        required=True,
        metadata={"description": "The runs on this seat's board."},
    )
    run_cards = int_field("Run places this seat laid (on any board).")
    run_points = int_field("10 per run place it laid.")


class CanSeatResultSchema(dd.DrawDiscardSeatResultSchema):
    run_cards = int_field("Run places it laid.")
    run_points = int_field("10 per run place.")


class CanRoundResultSchema(dd.DrawDiscardRoundResultSchema):
    reason = dd.reason_field(
        ROUND_END_REASONS,
        "all_captured, went_out (a seat played its last card) or deck_empty (the draw deck "
        "ran out).",
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


class CanViewSchema(TABLE.view):  # type: ignore[misc,name-defined]  # built per card
    decks = dd.decks_in_play_field("Expansions in play (with the Basic Deck).")
    turn = dd.turn_field(CanTurnSchema)
    runs_rule = fields.String(
        required=True, validate=validate.OneOf(RUNS), metadata={"description": "Option runs."}
    )
    reshuffles = fields.Nested(
        CanReshufflesSchema, required=True, metadata={"description": "Refills of the draw deck."}
    )
    seats = fields.List(
        fields.Nested(CanSeatViewSchema),
        required=True,
        metadata={"description": "Every seat and its board."},
    )
    round_end = dd.round_end_field(CanRoundResultSchema)


class CanSeatScoreSchema(dd.DrawDiscardSeatScoreSchema):
    run_cards = int_field("Run places it laid this round.")
    run_points = int_field("10 per run place.")


class CanScoresSchema(dd.DrawDiscardScoresSchema):
    seats = fields.List(
        fields.Nested(CanSeatScoreSchema), required=True, metadata={"description": "Every seat."}
    )


# ---------------------------------------------------------------- events ------------
class CanRunLaidEventSchema(ma.Schema):
    """A new run on the seat's own board."""

    type = move_type("run_laid")
    seat = int_field("The seat that laid it.")
    owner = int_field("The board it is on (the same seat).")
    run = int_field("Its number on that board.")
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
    low = int_field("The run's lowest atomic number.")
    high = int_field("The run's highest atomic number.")
    length = int_field("Cards in the run now.")
    text = str_field("The call.", example="Mg 12, Al 13, Si 14: consecutive atomic numbers")
    explanation = str_field("Why the numbers belong together, for a learner.")
    points = int_field("10 per card laid.", example=30)


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
    seat = int_field("The seat that claimed the wild card.")
    owner = int_field("The seat whose board the run is on.")
    run = int_field("The run's number on that board.")
    number = fields.Integer(
        required=True,
        validate=NUMBER,
        metadata={"description": "The atomic number the wild card stood for.", "example": 44},
    )
    symbol = str_field("Its element.", example="Ru")
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
    text = str_field("What happened, for a learner.")


class CanWentOutEventSchema(ma.Schema):
    type = move_type("went_out")
    seat = int_field("The seat that played its last card.")
    discarded = bool_field("Its last card was a discard (else it was laid or captured with).")
    text = str_field("What happened.", example="Seat 0 went out: it laid its last card in a run.")


class CanRoundEndedEventSchema(CanRoundResultSchema):
    type = move_type("round_ended")
    round = int_field("The round that ended.")


API = GameApi(
    game=GAME,
    options=CanOptionsSchema,
    moves={
        "draw": dd.DrawDiscardDrawMoveSchema,
        "capture": dd.DrawDiscardCaptureMoveSchema,
        "run": CanRunMoveSchema,
        "extend": CanExtendMoveSchema,
        "claim": CanClaimMoveSchema,
        "discard": dd.DrawDiscardDiscardMoveSchema,
        "next_round": match.MatchNextRoundMoveSchema,
    },
    view=CanViewSchema,
    scores=CanScoresSchema,
    card=CanCardSchema,
    events={
        **dd.EVENTS,
        **TABLE.events,
        "run_laid": CanRunLaidEventSchema,
        "run_extended": CanRunExtendedEventSchema,
        "wild_claimed": CanWildClaimedEventSchema,
        "went_out": CanWentOutEventSchema,
        "round_ended": CanRoundEndedEventSchema,
        **match.EVENTS,
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
