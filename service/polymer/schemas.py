"""HTTP schemas of Polymer: moves, events, views, sessions."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ..schemas.common import (
    StrictSchema,
    move_type,
    seat_field,
)


def card_ids(description: str, *, required: bool = True, min_size: int = 1) -> fields.List[Any]:
    return fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=103)),
        required=required,
        validate=validate.Length(min=min_size, max=104),
        metadata={"description": description, "example": [11, 63]},
    )


class PoOptionsSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    timer_seconds = fields.Integer(
        strict=True,
        load_default=600,
        metadata={"description": "Trading time in seconds, 1-7200.", "minimum": 1, "maximum": 7200},
    )
    deal = fields.List(
        fields.List(
            fields.String(validate=validate.Length(max=4)), validate=validate.Length(min=1)
        ),
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=5, max=15),
        metadata={
            "description": "One list of card codes per seat (e.g. 'QS', '10H'), same size, "
            "each face at most twice.",
        },
    )


# -- moves -----------------------------------------------------------------------------
class PoReadyMoveSchema(ma.Schema):
    """Before the start: declare you are ready. The timer starts when every seat is."""

    type = move_type("ready")


class PoOfferMoveSchema(ma.Schema):
    """Offer a neighbour some of your cards for the same number of theirs."""

    type = move_type("offer")
    to = fields.Integer(required=True, strict=True, metadata={"description": "A neighbour seat."})
    give = card_ids("Ids of your cards you give (the neighbour sees them).")
    ask = fields.List(
        fields.String(validate=validate.Length(min=1, max=4)),
        required=True,
        validate=validate.Length(min=1, max=104),
        metadata={
            "description": "What you want back, one item per card: a face code ('QS', '10H') "
            "or 'any' (their choice). Same length as `give`.",
            "example": ["7S", "any"],
        },
    )


class PoAcceptMoveSchema(ma.Schema):
    """Accept an offer made to you, giving cards that match its `ask` (none for an undo)."""

    type = move_type("accept")
    offer = fields.Integer(required=True, strict=True)
    give = card_ids("Ids of your cards that meet the offer's ask.", required=False, min_size=0)


class PoDeclineMoveSchema(ma.Schema):
    """Decline an offer made to you."""

    type = move_type("decline")
    offer = fields.Integer(required=True, strict=True)


class PoWithdrawMoveSchema(ma.Schema):
    """Withdraw an offer you made."""

    type = move_type("withdraw")
    offer = fields.Integer(required=True, strict=True)


class PoProposeUndoMoveSchema(ma.Schema):
    """Propose to undo a trade you took part in; it happens only if the other seat accepts."""

    type = move_type("propose_undo")
    trade = fields.Integer(required=True, strict=True)


class PoLendMoveSchema(ma.Schema):
    """Lend cards to a neighbour; you may call them in at any time."""

    type = move_type("lend")
    to = fields.Integer(required=True, strict=True)
    cards = card_ids("Ids of the cards lent.")


class PoCallLoanMoveSchema(ma.Schema):
    """Call in a loan you made: the debtor must repay before doing anything else."""

    type = move_type("call_loan")
    loan = fields.Integer(required=True, strict=True)


class PoRepayMoveSchema(ma.Schema):
    """Return cards on a loan: exactly what is owed (or all you hold) once it is called."""

    type = move_type("repay")
    loan = fields.Integer(required=True, strict=True)
    cards = card_ids(
        "Ids of the cards returned (any of your cards; none only when called in while "
        "holding no card).",
        min_size=0,
    )


class PoTimeUpMoveSchema(ma.Schema):
    """End the game once the deadline has passed (the service also does this itself)."""

    type = move_type("time_up")


MOVE_SPACE = (
    "offer: give any number of your cards to a neighbour and ask for as many (face codes "
    "or 'any'); lend: any number of your cards to a neighbour."
)

MOVES = {
    "ready": PoReadyMoveSchema,
    "offer": PoOfferMoveSchema,
    "accept": PoAcceptMoveSchema,
    "decline": PoDeclineMoveSchema,
    "withdraw": PoWithdrawMoveSchema,
    "propose_undo": PoProposeUndoMoveSchema,
    "lend": PoLendMoveSchema,
    "call_loan": PoCallLoanMoveSchema,
    "repay": PoRepayMoveSchema,
    "time_up": PoTimeUpMoveSchema,
}


# -- cards and views ---------------------------------------------------------------------
class PoCardSchema(ma.Schema):
    id = fields.Integer(required=True, metadata={"description": "0-103; f and f+52 look alike."})
    code = fields.String(required=True, metadata={"example": "QS"})
    rank = fields.Integer(required=True, metadata={"description": "1 (A) to 13 (K)."})
    suit = fields.String(required=True, validate=validate.OneOf(["C", "D", "H", "S"]))
    label = fields.String(required=True, metadata={"example": "Q♠"})


class PoOfferViewSchema(ma.Schema):
    id = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["trade", "undo"]))
    from_ = fields.Integer(required=True, data_key="from")
    to = fields.Integer(required=True)
    count = fields.Integer(required=True)
    trade = fields.Integer(allow_none=True, required=True, metadata={"description": "For undo."})
    give = fields.List(
        fields.Nested(PoCardSchema), metadata={"description": "Only for the two seats."}
    )
    ask = fields.List(fields.String(), metadata={"description": "Only for the two seats."})


class PoTradeViewSchema(ma.Schema):
    id = fields.Integer(required=True)
    seats = fields.List(fields.Integer(), required=True)
    count = fields.Integer(required=True)
    undone = fields.Boolean(required=True)
    at_ms = fields.Integer(required=True)
    gave = fields.List(
        fields.List(fields.Nested(PoCardSchema)),
        metadata={"description": "What each seat gave; only for the two seats."},
    )


class PoLoanViewSchema(ma.Schema):
    id = fields.Integer(required=True)
    lender = fields.Integer(required=True)
    debtor = fields.Integer(required=True)
    lent = fields.Integer(required=True)
    outstanding = fields.Integer(required=True)
    called = fields.Boolean(required=True)
    cards = fields.List(fields.Nested(PoCardSchema), metadata={"description": "Lender, debtor."})


class PoSeatViewSchema(ma.Schema):
    seat = fields.Integer(required=True)
    ready = fields.Boolean(required=True)
    hand_count = fields.Integer(required=True)
    blocked_by_loan = fields.Boolean(required=True)
    hand = fields.List(
        fields.Nested(PoCardSchema), allow_none=True, required=True,
        metadata={"description": "Shown to everyone only once time is up."},
    )  # fmt: skip


class PoArrangementSchema(ma.Schema):
    longest = fields.List(fields.String(), required=True)
    others = fields.List(fields.List(fields.String()), required=True)
    unused = fields.List(fields.String(), required=True)


class PoBestSchema(PoArrangementSchema):
    longest_length = fields.Integer(required=True)
    rest_value = fields.Integer(required=True)
    top_rank = fields.Integer(required=True)


class PoOwedSchema(ma.Schema):
    loan = fields.Integer(required=True)
    lender = fields.Integer(required=True)
    count = fields.Integer(required=True)


class PoYouSchema(ma.Schema):
    seat = fields.Integer(required=True)
    left = fields.Integer(required=True)
    right = fields.Integer(required=True)
    hand = fields.List(
        fields.Nested(PoCardSchema), allow_none=True, required=True,
        metadata={"description": "null until the timer starts (nobody looks before)."},
    )  # fmt: skip
    hand_count = fields.Integer(required=True)
    owes = fields.List(fields.Nested(PoOwedSchema), required=True)
    best = fields.Nested(PoBestSchema, allow_none=True, required=True)


class PoSettlementSchema(ma.Schema):
    loan = fields.Integer(required=True)
    lender = fields.Integer(required=True)
    debtor = fields.Integer(required=True)
    cards = fields.List(fields.Nested(PoCardSchema), required=True)


class PoViewSchema(ma.Schema):
    """What a seat (or an observer) may see: own hand once the timer runs; others' hands
    only when time is up; offer and loan cards only to the two seats concerned."""

    game = fields.String(required=True)
    players = fields.Integer(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(["waiting", "trading", "ended"]))
    hand_size = fields.Integer(required=True)
    timer_seconds = fields.Integer(required=True)
    started_ms = fields.Integer(allow_none=True, required=True)
    deadline_ms = fields.Integer(allow_none=True, required=True)
    now_ms = fields.Integer(required=True, metadata={"description": "Time of the last move."})
    seats = fields.List(fields.Nested(PoSeatViewSchema), required=True)
    offers = fields.List(fields.Nested(PoOfferViewSchema), required=True)
    trades = fields.List(fields.Nested(PoTradeViewSchema), required=True)
    loans = fields.List(fields.Nested(PoLoanViewSchema), required=True)
    settlement = fields.List(fields.Nested(PoSettlementSchema), required=True)
    set_aside = fields.List(
        fields.Nested(PoCardSchema),
        allow_none=True,
        required=True,
        metadata={
            "description": "The cards no seat was dealt (the deal table leaves some over): "
            "null while the game runs, listed once time is up so anyone can check the deal."
        },
    )
    you = fields.Nested(PoYouSchema, allow_none=True, required=True)


class PoPublicLoanSchema(ma.Schema):
    id = fields.Integer(required=True)
    lender = fields.Integer(required=True)
    debtor = fields.Integer(required=True)
    outstanding = fields.Integer(required=True)
    called = fields.Boolean(required=True)


# -- events ---------------------------------------------------------------------------
def _event(name: str, **extra: fields.Field[Any]) -> type[ma.Schema]:
    return ma.Schema.from_dict(
        {"type": move_type(name), **extra},
        name="Po" + "".join(p.title() for p in name.split("_")) + "Event",
    )


def _trade_fields() -> dict[str, fields.Field[Any]]:
    """An executed trade or undo: `gave` (each side's cards) only for the two seats."""
    return {
        "trade": fields.Integer(required=True),
        "offer": fields.Integer(required=True),
        "undoes": fields.Integer(allow_none=True),
        "seats": fields.List(fields.Integer(), required=True),
        "count": fields.Integer(required=True),
        "gave": fields.List(fields.List(fields.Nested(PoCardSchema))),
    }


EVENTS = {
    "ready": _event("ready", seat=fields.Integer(required=True)),
    "timer_started": _event(
        "timer_started",
        started_ms=fields.Integer(required=True),
        deadline_ms=fields.Integer(required=True),
    ),
    "offer_made": _event(
        "offer_made",
        offer=fields.Integer(required=True),
        kind=fields.String(required=True),
        trade=fields.Integer(),
        to=fields.Integer(required=True),
        count=fields.Integer(required=True),
        give=fields.List(fields.Nested(PoCardSchema), metadata={"description": "Two seats only."}),
        ask=fields.List(fields.String(), metadata={"description": "Two seats only."}),
        **{"from": fields.Integer(required=True)},
    ),
    "offer_declined": _event(
        "offer_declined", offer=fields.Integer(required=True), by=fields.Integer(required=True)
    ),
    "offer_withdrawn": _event(
        "offer_withdrawn", offer=fields.Integer(required=True), by=fields.Integer(required=True)
    ),
    "trade_executed": _event("trade_executed", **_trade_fields()),
    "trade_undone": _event("trade_undone", **_trade_fields()),
    "loan_made": _event(
        "loan_made",
        loan=fields.Integer(required=True),
        lender=fields.Integer(required=True),
        debtor=fields.Integer(required=True),
        count=fields.Integer(required=True),
        cards=fields.List(fields.Nested(PoCardSchema)),
    ),
    "loan_called": _event(
        "loan_called",
        loan=fields.Integer(required=True),
        lender=fields.Integer(required=True),
        debtor=fields.Integer(required=True),
        owed=fields.Integer(required=True),
    ),
    "loan_repaid": _event(
        "loan_repaid",
        loan=fields.Integer(required=True),
        lender=fields.Integer(required=True),
        debtor=fields.Integer(required=True),
        count=fields.Integer(required=True),
        remaining=fields.Integer(required=True),
        cards=fields.List(fields.Nested(PoCardSchema)),
    ),
    "time_up": _event("time_up", at_ms=fields.Integer(required=True)),
    "loan_settled": _event(
        "loan_settled",
        loan=fields.Integer(required=True),
        lender=fields.Integer(required=True),
        debtor=fields.Integer(required=True),
        cards=fields.List(fields.Nested(PoCardSchema), required=True),
    ),
    "game_over": _event(
        "game_over",
        finished=fields.Boolean(required=True),
        winners=fields.List(fields.Integer(), required=True),
        ranking=fields.List(fields.Integer(), required=True),
        places=fields.List(fields.Integer(), required=True),
        tie_break=fields.String(allow_none=True, required=True),
    ),
}


# -- requests and responses -----------------------------------------------------------------
class PoArrangementRequestSchema(StrictSchema):
    seat = seat_field()
    # the shape is checked by the rules (`bad_patterns`), documented here
    patterns = fields.Raw(
        required=True,
        metadata={
            "description": "Your patterns, each a list of card ids or codes.",
            "type": "array",
            "items": {
                "type": "array",
                "items": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
            },
            "example": [["7S", "8S", "9S"], ["QH", "QD"]],
        },
    )


class PoArrangementIdsSchema(ma.Schema):
    """The shown arrangement as card ids."""

    longest = fields.List(fields.Integer(), required=True)
    others = fields.List(fields.List(fields.Integer()), required=True)
    unused = fields.List(fields.Integer(), required=True)


class PoScoredArrangementSchema(PoArrangementSchema):
    longest_length = fields.Integer(required=True, metadata={"description": "Longest pattern."})
    rest_value = fields.Integer(
        required=True, metadata={"description": "Sum of (length - 1) of the other patterns."}
    )
    score = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "The score it would earn; null while the timer runs (it needs the "
            "neighbours' longest patterns, and their hands are secret until time is up)."
        },
    )


class PoArrangementResponseSchema(ma.Schema):
    valid = fields.Boolean(required=True)
    declared = fields.Nested(PoScoredArrangementSchema, required=True)
    best = fields.Nested(
        PoScoredArrangementSchema,
        required=True,
        metadata={"description": "Your best arrangement (the one your score uses at the end)."},
    )
    neighbour_longest_sum = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Neighbours' longest patterns, summed; null until time is up."},
    )


class PoSeatScoreSchema(ma.Schema):
    seat = fields.Integer(required=True)
    score = fields.Integer(required=True)
    longest_length = fields.Integer(required=True)
    top_rank = fields.Integer(required=True)
    rest_value = fields.Integer(required=True)
    arrangement = fields.Nested(PoArrangementSchema, required=True)
    arrangement_rule = fields.String(
        required=True,
        validate=validate.OneOf(["longest_first", "most_other_patterns"]),
        metadata={
            "description": "Why this arrangement is shown (each seat shows the one that "
            "maximises its own score): longest_first, the longest possible pattern and then "
            "the most from the others, whenever a neighbour holds a pattern; "
            "most_other_patterns when neither neighbour holds any, so only the other "
            "patterns score and a long pattern may be split."
        },
    )
    arrangement_ids = fields.Nested(PoArrangementIdsSchema, required=True)
    neighbours = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    neighbour_longest = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    neighbour_top_ranks = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    tie_break = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "own top rank, neighbours' higher, neighbours' lower"},
    )


class PoScoresSchema(ma.Schema):
    final = fields.Boolean(required=True)
    seats = fields.List(fields.Nested(PoSeatScoreSchema), required=True)
    places = fields.List(fields.List(fields.Integer()), required=True)
