"""Schemas shared by every game: problems, requests, tagged moves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
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
    details = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(
            metadata={
                "description": "A fact: a seat, a card, a count, a name, or a list of them.",
                "oneOf": [
                    {"type": "null"},
                    {"type": "boolean"},
                    {"type": "integer"},
                    {"type": "string"},
                    {"type": "array", "items": {"type": "integer"}},
                    {"type": "array", "items": {"type": "string"}},
                    {"type": "array", "items": {"$ref": "#/components/schemas/DetailRecord"}},
                    {"$ref": "#/components/schemas/DetailRecord"},
                ],
            }
        ),
        metadata={"description": "Facts about a rule violation (which seat, card, loan...)."},
    )
    errors = fields.Raw(
        metadata={
            "description": "invalid_request and bad_move: for each bad field, its messages "
            "(nested fields nest; list items are keyed by their index).",
            "allOf": [{"$ref": "#/components/schemas/FieldErrors"}],
        }
    )
    request_id = fields.String(metadata={"description": "Request id of an internal error."})
    current_version = fields.Integer(
        metadata={"description": "stale_version: the version to resync to."}
    )
    deadline_at = fields.String(metadata={"description": "timer_expired: when time ran out."})
    server_now = fields.String(metadata={"description": "timer_expired: the server's clock."})
    known = fields.List(fields.String(), metadata={"description": "unknown_move: the moves."})
    token_game = fields.String(metadata={"description": "token_wrong_game: its game."})
    seat = fields.Integer(metadata={"description": "seat_token_invalid: the seat asked for."})


DETAIL_RECORD = {
    "type": "object",
    "description": "A small record in a problem's details (an ion and a count, a card...).",
    "additionalProperties": {
        "oneOf": [
            {"type": "null"},
            {"type": "boolean"},
            {"type": "integer"},
            {"type": "string"},
            {"type": "array", "items": {"type": "integer"}},
            {"type": "array", "items": {"type": "string"}},
        ]
    },
}

FIELD_ERRORS = {
    "type": "object",
    "description": "Messages per field name: a list of messages, or the errors of a nested "
    "object or list (items keyed by index).",
    "additionalProperties": {
        "anyOf": [
            {"type": "array", "items": {"type": "string"}},
            {"$ref": "#/components/schemas/FieldErrors"},
        ]
    },
}


class MoveField(fields.Field[Any]):
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
        if not isinstance(kind, str) or kind not in self._schemas:
            raise Problem(
                "unknown_move",
                f"{_quoted(kind)} is not a move of this game; use one of: "
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


def _quoted(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class OptionsField(fields.Nested):
    """Setup options: unknown names are `unknown_option`, bad values `bad_option`."""

    def _deserialize(
        self,
        value: Any,
        attr: str | None,
        data: Mapping[str, Any] | None,
        partial: bool | Sequence[str] | AbstractSet[str] | None = None,
        **kwargs: Any,
    ) -> Any:
        try:
            return super()._deserialize(value, attr, data, partial, **kwargs)
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


def move_field2properties(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
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


class StrictBoolean(fields.Boolean):
    """A JSON ``true`` or ``false`` only: not "yes", not 1, and not 0 (which Python
    compares equal to ``False``, so a set of truthy/falsy values would let it in)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def strict_bool(**kwargs: Any) -> fields.Boolean:
    """A JSON boolean only (marshmallow would also take "yes", 1, "on", 0...)."""
    return StrictBoolean(**kwargs)


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
        metadata={
            "description": "Seat number, 0-based, clockwise. The credential in the "
            "Authorization header must be this seat's token or the host token.",
            "example": 0,
        },
    )


def version_field() -> fields.Integer:
    return fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=2**53),
        metadata={
            "description": "The version your move was decided on (compare-and-set): a move "
            "on an older version is 409 stale_version.",
            "example": 3,
        },
    )


def bot_field(bots: tuple[str, ...], default: str) -> fields.String:
    return fields.String(
        load_default=default,
        validate=validate.OneOf(list(bots)),
        metadata={"description": "Which bot chooses the move.", "example": default},
    )


def bots_field(bots: tuple[str, ...]) -> fields.Dict:
    return fields.Dict(
        keys=fields.String(validate=validate.Regexp(r"^[0-9]{1,2}$")),
        values=fields.String(validate=validate.OneOf(list(bots))),
        load_default=dict,
        validate=validate.Length(max=64),
        metadata={
            "description": "Seats the service plays (seat number -> bot name). After setup "
            "and after every human move the service plays these seats until a human must "
            "act, in the same request, and returns all the events in order, each with its "
            "`actor`. With every seat a bot the game plays to its end in one request. This is "
            "how a one-person game is played.",
            "example": {"1": "greedy"},
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


class SeatRequestSchema(StrictSchema):
    token = token_field()
    seat = seat_field()


class SeatTokenSchema(ma.Schema):
    seat = fields.Integer(required=True)
    seat_token = fields.String(
        required=True,
        metadata={
            "description": "This seat's credential: send it as Authorization: Bearer <token>. "
            "Give each player only their own."
        },
    )
    bot = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The bot the service plays this seat with, or null (human)."},
    )


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


SCALAR = [{"type": "null"}, {"type": "boolean"}, {"type": "integer"}, {"type": "string"}]


class OptionSchema(ma.Schema):
    name = fields.String(required=True)
    kind = fields.String(
        required=True, metadata={"description": "The JSON shape, e.g. `int | null`."}
    )
    default = fields.Raw(
        allow_none=True,
        required=True,
        metadata={"description": "The value used when the option is left out.", "oneOf": SCALAR},
    )
    description = fields.String(required=True)
    choices = fields.List(
        fields.Raw(metadata={"oneOf": SCALAR}),
        required=True,
        metadata={
            "description": "The allowed values, when they are a short list (null among them: "
            "the option may be left to its rule by player count)."
        },
    )


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
    modes = fields.List(
        fields.String(validate=validate.OneOf(["stateless", "session"])),
        required=True,
        metadata={
            "description": "How it can be played: `stateless` (the client holds the sealed "
            "token) and/or `session` (the service keeps the game in Redis)."
        },
    )
    links = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "Relation name -> URL template of this game's endpoints."},
    )


class GameCatalogueSchema(ma.Schema):
    version = fields.String(
        required=True, metadata={"description": "The service's version (as in the contract)."}
    )
    games = fields.List(fields.Nested(GameSummarySchema), required=True)


def game_detail_schema(name: str, card: type[ma.Schema]) -> type[ma.Schema]:
    """``GET /v1/games/<slug>`` for one game: the generic facts and its typed deck."""
    return GameSummarySchema.from_dict(
        {
            "seed_file": fields.String(required=True),
            "options": fields.List(fields.Nested(OptionSchema), required=True),
            "bots": fields.List(fields.String(), required=True),
            "player_counts": fields.Dict(
                keys=fields.String(),
                values=fields.Dict(keys=fields.String(), values=fields.Integer()),
                required=True,
                metadata={
                    "description": "Per player count, the deal table (deck size, hand size...)."
                },
            ),
            "codes": fields.Dict(
                keys=fields.String(),
                values=fields.String(),
                required=True,
                metadata={"description": "Rule-violation codes this game may return."},
            ),
            "deck": fields.List(
                fields.Nested(card), required=True, metadata={"description": "Every card."}
            ),
            "resources": fields.Dict(
                keys=fields.String(),
                values=fields.String(),
                required=True,
                metadata={"description": "Further documents of this game: name -> URL."},
            ),
            "rules_document": fields.String(
                required=True,
                metadata={"description": "docs/rules/<slug>.md: the interpretation."},
            ),
            "seed_text": fields.String(
                required=True, metadata={"description": "The seed rules text."}
            ),
        },
        name=name,
    )


class ProblemKindSchema(ma.Schema):
    code = fields.String(required=True)
    status = fields.Integer(required=True)
    title = fields.String(required=True)
    description = fields.String(required=True)
    games = fields.List(fields.String(), metadata={"description": "Games that raise it."})


class ProblemCatalogueSchema(ma.Schema):
    problems = fields.List(fields.Nested(ProblemKindSchema), required=True)


class RedisCheckSchema(ma.Schema):
    ok = fields.Boolean(required=True)
    detail = fields.String(required=True)
    needed_by = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "What needs Redis: hosted sessions of every game, Polymer."},
    )


class HealthChecksSchema(ma.Schema):
    games = fields.List(fields.String(), required=True)
    redis = fields.Nested(RedisCheckSchema, required=True)


class HealthSchema(ma.Schema):
    status = fields.String(
        required=True, validate=validate.OneOf(["ok", "degraded"]), metadata={"example": "ok"}
    )
    checks = fields.Nested(HealthChecksSchema, metadata={"description": "Readiness only."})


class GameStartedEventSchema(ma.Schema):
    type = move_type("game_started")
    players = fields.Integer(required=True)
