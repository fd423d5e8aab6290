"""HTTP schemas of Compound Capture (`compound-capture`).

The table, its moves and events are :mod:`.draw_discard`'s (shared with Chemistry
Canasta), the match :mod:`.match`'s; here are the options, the card (its decks), the
round's end and the view with this game's own counters.
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from rules.compound_capture import GAME

from ..play import GameApi
from . import draw_discard as dd
from . import match
from .common import move_type, strict_bool
from .draw_discard import int_field

ROUND_END_REASONS = ["all_captured", "quiet_lap", "deck_empty"]


# ---------------------------------------------------------------- options -----------
CcDealSchema = dd.deal_schema(
    "CcDealSchema", hands=[["C", "O", "O"], ["H", "H", "wild"]], discard="N"
)


class CcOptionsSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    decks = dd.decks_field(
        "Compound deck(s): one deck for 1-3 players, 'both' for 1-6. "
        "null: covalent for 1-3 players, both for 4-6."
    )
    compounds = dd.compounds_field(
        "A teacher's own deck of 6-20 compounds (at most 9 atoms each), "
        "completed with 6 wild cards and element cards to 54 cards; instead of decks."
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
    target = match.target_field()
    on_tie = match.on_tie_field()
    max_rounds = match.max_rounds_field()
    deal = dd.deal_field(CcDealSchema)


# ---------------------------------------------------------------- cards -------------
class CcCardSchema(dd.DrawDiscardCardSchema):
    """A card's face: a compound, an element or a wild card (fields by `kind`)."""

    deck = fields.String(
        required=True,
        validate=validate.OneOf(dd.DECKS),
        metadata={"description": "The deck the card comes from."},
    )


TABLE = dd.table_schemas("Cc", CcCardSchema)


# ---------------------------------------------------------------- views -------------
class CcRoundResultSchema(dd.DrawDiscardRoundResultSchema):
    reason = dd.reason_field(
        ROUND_END_REASONS,
        "all_captured, quiet_lap (a lap with no capture), deck_empty (deck_out end_round).",
    )


class CcViewSchema(TABLE.view):  # type: ignore[misc,name-defined]  # a class built per card
    decks = dd.decks_in_play_field("Decks in play.")
    turn = dd.turn_field(dd.DrawDiscardTurnSchema)
    quiet_turns = int_field("Turns in a row without a capture; a lap of them ends the round.")
    lap = int_field("Turns in a lap (the number of players).")
    deck_out = fields.String(
        required=True,
        validate=validate.OneOf(["reshuffle", "end_round"]),
        metadata={"description": "Option."},
    )
    seats = fields.List(
        fields.Nested(TABLE.seat_view), required=True, metadata={"description": "Every seat."}
    )
    round_end = dd.round_end_field(CcRoundResultSchema)


# ---------------------------------------------------------------- events ------------
class CcRoundEndedEventSchema(CcRoundResultSchema):
    type = move_type("round_ended")
    round = int_field("The round that ended.")


API = GameApi(
    game=GAME,
    options=CcOptionsSchema,
    moves={
        "draw": dd.DrawDiscardDrawMoveSchema,
        "capture": dd.DrawDiscardCaptureMoveSchema,
        "discard": dd.DrawDiscardDiscardMoveSchema,
        "next_round": match.MatchNextRoundMoveSchema,
    },
    view=CcViewSchema,
    scores=dd.DrawDiscardScoresSchema,
    card=CcCardSchema,
    events={
        **dd.EVENTS,
        **TABLE.events,
        "draw_ended": dd.DrawDiscardDrawEndedEventSchema,
        "round_ended": CcRoundEndedEventSchema,
        **match.EVENTS,
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
