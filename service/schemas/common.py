"""Schemas shared by every game: problems, requests, tagged moves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ..problems import Problem

TOKEN_MAX = 200_000
SEED_MAX = 2**63 - 1


class ProblemSchema(ma.Schema):
    """RFC 9457 problem details, with a stable machine `code`.

    Extension members may appear (RFC 9457 section 3.2); those this service sends are
    documented below.
    """

    class Meta:
        unknown = ma.INCLUDE

    type = fields.String(
        required=True,
        metadata={"description": "URI reference naming the problem type; `GET` it for details."},
    )
    title = fields.String(required=True, metadata={"description": "Short summary of the type."})
    status = fields.Integer(required=True, metadata={"description": "The HTTP status code."})
    detail = fields.String(
        required=True, metadata={"description": "What went wrong here and what to do about it."}
    )
    code = fields.String(
        required=True,
        metadata={
            "description": "Stable machine code; the catalogue is at `GET /v1/problems`.",
            "example": "not_in_hand",
        },
    )
    instance = fields.String(metadata={"description": "The request path."})
    rule = fields.String(metadata={"description": "The seed sentence a rule violation rests on."})
    details = fields.Dict(metadata={"description": "Facts about a rule violation."})
    errors = fields.Raw(metadata={"description": "Per-field schema errors (invalid_request)."})
    request_id = fields.String(metadata={"description": "Request id of an internal error."})
    current_version = fields.Integer(
        metadata={"description": "stale_version: the version to resync to."}
    )
    deadline_at = fields.String(metadata={"description": "timer_expired: when time ran out."})
    server_now = fields.String(metadata={"description": "timer_expired: the server's clock."})
    known = fields.List(fields.String(), metadata={"description": "unknown_move: the moves."})
    token_game = fields.String(metadata={"description": "token_wrong_game: its game."})
    seat = fields.Integer(metadata={"description": "seat_token_invalid: the seat asked for."})


class MoveField(fields.Field):
    """A tagged move object; ``type`` selects the per-type schema.

    Documented as ``oneOf`` with a ``type`` discriminator. An unknown ``type`` is a
    ``unknown_move`` problem that lists the types this game knows.
    """

    def __init__(self, types: Mapping[str, type[ma.Schema]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.types = dict(types)
        self._schemas = {name: cls() for name, cls in self.types.items()}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise ma.ValidationError("A move is a JSON object with a `type` member.")
        kind = value.get("type")
        if kind not in self._schemas:
            raise Problem(
                "unknown_move",
                f"{kind!r} is not a move of this game; use one of: "
                f"{', '.join(sorted(self._schemas))}.",
                status=422,
                title="Unknown move",
                known=sorted(self._schemas),
            )
        try:
            return self._schemas[kind].load(value)
        except ma.ValidationError as err:
            fields_ = err.messages if isinstance(err.messages, dict) else {"_": err.messages}
            summary = "; ".join(
                f"{name}: {' '.join(map(str, msgs)) if isinstance(msgs, list) else msgs}"
                for name, msgs in fields_.items()
            )
            raise Problem(
                "bad_move",
                f"This {kind!r} move is not well formed ({summary}).",
                status=422,
                title="Bad move",
                errors={"move": err.messages},
            ) from None

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


class OptionsField(fields.Nested):
    """Setup options: unknown names are `unknown_option`, bad values `bad_option`."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        try:
            return super()._deserialize(value, attr, data, **kwargs)
        except ma.ValidationError as err:
            messages = err.messages if isinstance(err.messages, dict) else {"_": err.messages}
            unknown = sorted(k for k, v in messages.items() if v == ["Unknown field."])
            if unknown:
                known = sorted(self.schema.fields)
                raise Problem(
                    "unknown_option",
                    f"This game has no option {', '.join(map(repr, unknown))}; "
                    f"its options are: {', '.join(known)}.",
                    status=422,
                    title="Unknown option",
                    errors={"options": messages},
                ) from None
            summary = "; ".join(f"{k}: {v}" for k, v in messages.items())
            raise Problem(
                "bad_option",
                f"A setup option has a wrong value ({summary}).",
                status=422,
                title="Bad option",
                errors={"options": messages},
            ) from None


def move_field2properties(self: Any, field: fields.Field, **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: document ``MoveField`` as a discriminated ``oneOf``."""
    if not isinstance(field, MoveField):
        return {}
    refs = {name: self.resolve_nested_schema(cls) for name, cls in field.types.items()}
    return {
        "oneOf": [refs[name] for name in sorted(refs)],
        "discriminator": {
            "propertyName": "type",
            "mapping": {name: refs[name]["$ref"] for name in sorted(refs)},
        },
    }


def strict_bool(**kwargs: Any) -> fields.Boolean:
    """A JSON boolean only (marshmallow would also take "yes", 1, "on"...)."""
    return fields.Boolean(truthy={True}, falsy={False}, **kwargs)


def move_type(name: str) -> fields.String:
    """The ``type`` tag of a move or event schema."""
    return fields.String(required=True, validate=validate.OneOf([name]), metadata={"example": name})


def token_field(**metadata: Any) -> fields.String:
    return fields.String(
        required=True,
        validate=validate.Length(min=1, max=TOKEN_MAX),
        metadata={
            "description": "The sealed state token returned by the previous call; opaque.",
            **metadata,
        },
    )


def seat_field(required: bool = True, *, strict: bool = True) -> fields.Integer:
    return fields.Integer(
        required=required,
        strict=strict,
        validate=validate.Range(min=0, max=63),
        metadata={"description": "Seat number, 0-based, clockwise.", "example": 0},
    )


def seat_token_field(required: bool = True) -> fields.String:
    return fields.String(
        required=required,
        validate=validate.Length(min=1, max=200),
        metadata={
            "description": "The seat token issued at setup for this seat (or the host token).",
            "example": "q0Z3v2m8Yb1fYvZ8aB7d2cP4",
        },
    )


class StrictSchema(ma.Schema):
    """Refuse unknown members, so a typo is an error rather than silently ignored."""

    class Meta:
        unknown = ma.RAISE


class StateRequestSchema(StrictSchema):
    token = token_field()


class ViewRequestSchema(StrictSchema):
    token = token_field()
    seat = seat_field(required=False)
    seat_token = seat_token_field(required=False)


class SeatRequestSchema(StrictSchema):
    token = token_field()
    seat = seat_field()
    seat_token = seat_token_field()


class BotRequestSchema(SeatRequestSchema):
    bot = fields.String(
        load_default="greedy",
        validate=validate.OneOf(["random", "greedy"]),
        metadata={"description": "Which bot chooses the move.", "example": "greedy"},
    )


class SeatTokenSchema(ma.Schema):
    seat = fields.Integer(required=True)
    seat_token = fields.String(required=True)


class OutcomeSchema(ma.Schema):
    finished = fields.Boolean(required=True)
    winners = fields.List(fields.Integer(), required=True)
    ranking = fields.List(
        fields.Integer(), required=True, metadata={"description": "Seats, best first."}
    )
    places = fields.List(
        fields.Integer(),
        required=True,
        metadata={
            "description": "The place of each seat in `ranking`, in the same order; seats "
            "that share a place share its number and the next places are skipped "
            "(1, 1, 3). Empty until the game ends."
        },
    )
    tie_break = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The tie-break that decided the winner, if one was needed."},
    )


class OptionSchema(ma.Schema):
    name = fields.String(required=True)
    kind = fields.String(required=True)
    default = fields.Raw(allow_none=True, required=True)
    description = fields.String(required=True)
    choices = fields.List(fields.Raw())


class GameSummarySchema(ma.Schema):
    slug = fields.String(required=True, metadata={"example": "element-draft"})
    title = fields.String(required=True)
    summary = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    dynamics = fields.String(
        required=True, validate=validate.OneOf(["turn-based", "simultaneous", "real-time"])
    )
    has_chance = fields.Boolean(required=True)
    rules_version = fields.Integer(required=True)
    links = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class GameCatalogueSchema(ma.Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)


class GameDetailSchema(GameSummarySchema):
    seed_file = fields.String(required=True)
    options = fields.List(fields.Nested(OptionSchema), required=True)
    bots = fields.List(fields.String(), required=True)
    player_counts = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.Integer()),
        required=True,
        metadata={"description": "Per player count, the deal table (deck size, hand size...)."},
    )
    codes = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "Rule-violation codes this game may return."},
    )
    deck = fields.List(fields.Dict(), required=True, metadata={"description": "Every card."})
    rules_document = fields.String(
        required=True, metadata={"description": "docs/rules/<slug>.md: the interpretation."}
    )
    seed_text = fields.String(required=True, metadata={"description": "The seed rules text."})


class ProblemKindSchema(ma.Schema):
    code = fields.String(required=True)
    status = fields.Integer(required=True)
    title = fields.String(required=True)
    description = fields.String(required=True)
    games = fields.List(fields.String(), metadata={"description": "Games that raise it."})


class ProblemCatalogueSchema(ma.Schema):
    problems = fields.List(fields.Nested(ProblemKindSchema), required=True)


class HealthSchema(ma.Schema):
    status = fields.String(required=True, metadata={"example": "ok"})
    checks = fields.Dict(keys=fields.String(), values=fields.Raw())


class GameStartedEventSchema(ma.Schema):
    type = move_type("game_started")
    players = fields.Integer(required=True)
