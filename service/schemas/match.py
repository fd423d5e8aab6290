"""HTTP schemas of what :mod:`rules.match` produces (rounds played to a target score):
the match in a view, its round records, its events, the ``next_round`` move and the
setup options every game with matches offers."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from .common import move_type


def _int(description: str) -> fields.Integer:
    return fields.Integer(required=True, metadata={"description": description})


def _ints(description: str) -> fields.List:  # type: ignore[type-arg]
    return fields.List(fields.Integer(), required=True, metadata={"description": description})


# ---------------------------------------------------------------- options -----------
def target_field() -> fields.Integer:
    """The ``target`` option (the default is the seed's 250)."""
    return fields.Integer(
        allow_none=True,
        load_default=250,
        strict=True,
        validate=validate.Range(min=1, max=10_000),
        metadata={"description": "Play rounds until a seat reaches this total; null: one round."},
    )


def on_tie_field() -> fields.String:
    return fields.String(
        load_default="share",
        validate=validate.OneOf(["share", "play_on"]),
        metadata={"description": "Seats tied on the best total share the win, or play on."},
    )


def max_rounds_field() -> fields.Integer:
    return fields.Integer(
        load_default=30,
        strict=True,
        validate=validate.Range(min=1, max=1000),
        metadata={"description": "The match ends after this many rounds at most."},
    )


# ---------------------------------------------------------------- moves -------------
class MatchNextRoundMoveSchema(ma.Schema):
    """Deal the next round (the seat left of the last dealer, once a round is over)."""

    type = move_type("next_round")


# ---------------------------------------------------------------- views -------------
class MatchRoundRecordSchema(ma.Schema):
    round = _int("Round number.")
    dealer = _int("Its dealer.")
    points = _ints("Points per seat.")
    totals = _ints("Totals after it.")


class MatchSchema(ma.Schema):
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
    totals = _ints("Totals per seat.")
    rounds = fields.List(
        fields.Nested(MatchRoundRecordSchema),
        required=True,
        metadata={"description": "Finished rounds."},
    )
    over = fields.Boolean(required=True, metadata={"description": "The match has ended."})
    max_rounds = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Round limit."}
    )


def rounds_field() -> fields.List:  # type: ignore[type-arg]
    """The finished rounds, in a game's scores."""
    return fields.List(
        fields.Nested(MatchRoundRecordSchema),
        required=True,
        metadata={"description": "Finished rounds."},
    )


# ---------------------------------------------------------------- events ------------
class MatchRoundScoredEventSchema(MatchRoundRecordSchema):
    type = move_type("round_scored")
    target = fields.Integer(
        required=True, allow_none=True, metadata={"description": "The match target."}
    )


class MatchOverEventSchema(ma.Schema):
    type = move_type("match_over")
    finished = fields.Boolean(required=True, metadata={"description": "Always true."})
    winners = _ints("Winning seats.")
    ranking = _ints("Seats, best first.")
    places = _ints("Places (1, 1, 3).")
    tie_break = fields.String(
        required=True, allow_none=True, metadata={"description": "shared, if tied."}
    )
    totals = _ints("Final totals.")
    reason = fields.String(
        required=True,
        validate=validate.OneOf(["target", "one_round", "max_rounds"]),
        metadata={"description": "Why the match ended."},
    )


class MatchTiedEventSchema(ma.Schema):
    type = move_type("match_tied")
    leaders = _ints("Seats tied on the best total.")
    totals = _ints("Totals.")


EVENTS: dict[str, type[ma.Schema]] = {
    "round_scored": MatchRoundScoredEventSchema,
    "match_over": MatchOverEventSchema,
    "match_tied": MatchTiedEventSchema,
}
"""The events of :func:`rules.match.end_round`, by type."""
