"""Schemas shared by every game: problems, requests, tagged moves."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from rules import shapes
from rules.core import RuleViolation
from rules.shapes import SAFE_INTEGER

from ...http.problems import Problem, from_violation
from ..tokens import SEED_MAX
from .derive import INTEGER, with_default

TOKEN_MAX = 200_000


class Shared(ma.Schema):
    """A schema instance shared, not copied, when flask-smorest copies a view's doc.

    flask-smorest deep-copies the doc an operation has gathered at each of its
    decorators (a dozen problem responses each); copying the schema instances in it
    made building the app take seconds. This service never changes a schema instance
    after building it, so a copy may be the instance itself.
    """

    def __deepcopy__(self, memo: dict[int, object]) -> Shared:
        return self


def _member(kind: str | dict[str, Any], description: str, **more: Any) -> dict[str, Any]:
    schema = {"type": kind} if isinstance(kind, str) else dict(kind)
    return {**schema, "description": description, **more}


PROBLEM: dict[str, Any] = {
    "type": "object",
    "description": "RFC 9457 problem details, with a stable machine `code`: every error "
    "answer of every operation. Each operation's own problem (`<operation>Problem`) is this "
    "with `code` narrowed to the codes it may answer, so one handler typed with `Problem` "
    "takes them all. Extension members may appear (RFC 9457 section 3.2); those this "
    "service sends are documented here.",
    "properties": {
        "type": _member("string", "URI reference naming the problem type; `GET` it for details."),
        "title": _member("string", "Short summary of the type."),
        "status": _member("integer", "The HTTP status code.", minimum=400, maximum=599),
        "detail": _member("string", "What went wrong here and what to do about it."),
        "code": _member(
            "string",
            "Stable machine code; the catalogue is at `GET /v1/problems`.",
            example="not_in_hand",
        ),
        "instance": _member("string", "The request path."),
        "rule": _member("string", "The seed sentence a rule violation rests on."),
        "details": _member(
            {"$ref": "#/components/schemas/ProblemDetails"},
            "Facts about a rule violation (which seat, card, loan...).",
        ),
        "errors": _member(
            {"$ref": "#/components/schemas/FieldErrors"},
            "invalid_request and bad_move: for each bad field, its messages (nested fields "
            "nest; list items are keyed by their index).",
        ),
        "request_id": _member("string", "Request id of an internal error."),
        "current_version": _member(
            "integer", "stale_version: the version the game is at.", minimum=0, maximum=SAFE_INTEGER
        ),
        "deadline_at": _member("string", "timer_expired: when time ran out."),
        "server_now": _member("string", "timer_expired: the server's clock."),
        "known": _member(
            {"type": "array", "items": {"type": "string"}}, "unknown_move: the moves."
        ),
        "token_game": _member("string", "token_wrong_game: its game."),
        "max_steps": _member(
            "integer",
            "record_too_long: the most steps a replay takes.",
            minimum=0,
            maximum=SAFE_INTEGER,
        ),
        "seat": _member(
            "integer", "seat_token_invalid: the seat asked for.", minimum=0, maximum=63
        ),
    },
    "required": ["code", "detail", "status", "title", "type"],
    "additionalProperties": True,
}

PROBLEM_DETAILS: dict[str, Any] = {
    "type": "object",
    "description": "Facts about a rule violation, by name: a seat, a card, a count, a name, "
    "or a list of them.",
    # anyOf: an empty list is a list of integers and of strings alike
    "additionalProperties": {
        "anyOf": [
            {"type": "null"},
            {"type": "boolean"},
            INTEGER,
            {"type": "string"},
            {"type": "array", "items": INTEGER},
            {"type": "array", "items": {"type": "string"}},
            {"type": "array", "items": {"$ref": "#/components/schemas/DetailRecord"}},
            {"$ref": "#/components/schemas/DetailRecord"},
        ],
    },
}


DETAIL_RECORD = {
    "type": "object",
    "description": "A small record in a problem's details (an ion and a count, a card...).",
    "additionalProperties": {
        "anyOf": [
            {"type": "null"},
            {"type": "boolean"},
            INTEGER,
            {"type": "string"},
            {"type": "array", "items": INTEGER},
            {"type": "array", "items": {"type": "string"}},
        ]
    },
}

DEAL_TABLE = {
    "type": "object",
    "description": "One player count's deal table: the deck size, the hand size...",
    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": SAFE_INTEGER},
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


class WireField(fields.Field[Any]):
    """A member whose shape the rules declare (``rules.shapes``): documented by its
    derived schema, checked against the declaration: a value of another shape is the
    code the declaration names (``F(code=...)``: the one the rules give the same
    mistake), else ``invalid_request``."""

    def __init__(self, schema: dict[str, Any], node: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.wire_schema = schema
        self.node = node

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if self.node is None:
            return value
        try:
            return shapes.parse(value, self.node)
        except shapes.ShapeError as err:
            code = self.node.facts.code
            if code is None:
                raise ma.ValidationError(err.errors) from None
            name = attr or "value"
            raise Problem(
                code,
                f"{name} is not well formed: {shapes.summary({name: err.errors})}",
                errors={name: err.errors},
            ) from None

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


class MoveField(WireField):
    """A tagged move object, parsed by the game's rules (``unknown_move`` / ``bad_move``,
    the same codes the rules give), documented as a ``oneOf`` with a ``type``
    discriminator."""

    def __init__(self, game: Any, schema: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(schema, **kwargs)
        self.game = game

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise ma.ValidationError("A move is a JSON object with a `type` member.")
        try:
            return self.game.parse_move(value)
        except RuleViolation as err:
            raise from_violation(err) from None


class OptionsField(WireField):
    """Setup options: an object, checked by the rules against the game's declared
    options (``unknown_option``, ``bad_option``, ``bad_deal``...)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise Problem(
                "bad_option",
                f"options must be a JSON object, not {shapes.quote(value)}.",
                errors={"options": ["Not a valid object."]},
            )
        return value


def wire_field2properties(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: a :class:`WireField` is documented by its schema."""
    if not isinstance(field, WireField):
        return {}
    return dict(field.wire_schema)


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
        validate=validate.Range(min=0, max=SAFE_INTEGER),
        metadata={
            "description": "The version your move was decided on (compare-and-set): a move "
            "on an older version is 409 stale_version.",
            "example": 3,
        },
    )


class JsonBoolean(fields.Boolean):
    """A JSON ``true`` or ``false`` and nothing else: marshmallow's own takes 1 and 0 too
    (``1 in {True}``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if type(value) is not bool:
            raise self.make_error("invalid")
        return value


def legal_moves_field() -> fields.Boolean:
    """A hosted move's ``legal_moves``: whether its answer carries the seat's legal moves
    after it (absent: no)."""
    return JsonBoolean(
        required=False,
        metadata={
            "description": "`true`: the answer also carries `legal_moves`, what `POST "
            ".../legal-moves` answers for this seat just after the move, so the device "
            "decides its next move without reading them. Not part of the move: a retry "
            "with the same Idempotency-Key may send it or not, and a replayed answer "
            "(`Idempotent-Replayed: true`) never carries them.",
            "example": True,
        },
    )


def seed_field() -> fields.Integer:
    return fields.Integer(
        strict=True,
        allow_none=True,
        validate=validate.Range(min=0, max=SEED_MAX),
        metadata={
            "description": "Fixes the shuffle, for lessons and tests. Omit it (or null) in "
            "real play: anyone who knows the seed can work out the deal."
        },
    )


def bot_field(docs: Any, default: str) -> WireField:
    """``bot``: one of the game's bots (``<Game>Bot``)."""
    return WireField(
        {
            **docs.bot,
            "description": with_default("Which bot chooses the move.", default),
            "example": default,
        },
        docs.bot_node,
        # a callable: the contract states the default in words (derive.with_default)
        load_default=lambda: default,
    )


def bots_field(docs: Any) -> WireField:
    """``bots`` at setup: the seats the service plays (``<Game>Bots``)."""
    return WireField(
        {
            **docs.bots,
            "description": "Seats the service plays (seat number -> bot name). After setup "
            "and after every human move the service plays these seats until a human must "
            "act, in the same request, and returns all the events in order, each with its "
            "`actor`. With every seat a bot the game plays to its end in one request. This is "
            "how a one-person game is played. Default: `{}` (no bot seats).",
        },
        docs.bots_node,
        load_default=dict,
    )


class StrictSchema(Shared):
    """Refuse unknown members, so a typo is an error rather than silently ignored."""

    class Meta:
        unknown = ma.RAISE


SEAT_TOKEN = {
    "type": "object",
    "description": "One seat's credential.",
    "properties": {
        "seat": {"type": "integer", "minimum": 0, "maximum": 63, "description": "The seat."},
        "seat_token": {
            "type": ["string", "null"],
            "description": "This seat's credential: send it as Authorization: Bearer <token>. "
            "Give each player only their own. Null for a bot seat of a game created "
            "without an operator key (nobody may see a bot seat's hand).",
        },
        "bot": {
            "type": ["string", "null"],
            "description": "The bot the service plays this seat with, or null (human).",
        },
    },
    "required": ["bot", "seat", "seat_token"],
    "additionalProperties": False,
}


SCALAR = [{"type": "null"}, {"type": "boolean"}, INTEGER, {"type": "string"}]


class SourceSchema(ma.Schema):
    """Where a game's original rules come from. The service serves no copy of them: the
    rules document quotes only the sentences it interprets."""

    title = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The title the original rules give the game; null when they give none.",
            "example": "Chemistry Battle",
        },
    )
    publisher = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "Who published the original rules, as their text names them; "
            "null when it names nobody.",
            "example": None,
        },
    )
    origin = fields.String(
        required=True,
        metadata={
            "description": "What the text says of where it comes from: its form and the "
            "products it names.",
            "example": 'One of three games on a web page titled "Game Rules" that ends with '
            'a "Back to blog" link: a blog post. It names no author or publisher.',
        },
    )
    interpretation = fields.String(
        required=True,
        metadata={
            "description": "The project's rules document (path in its repository): every "
            "sentence it interprets, quoted, with the readings, the decision and why. Its "
            "text is the game's `rules_document`.",
            "example": "docs/rules/chemistry-battle.md",
        },
    )


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
    min_players = fields.Integer(required=True, validate=validate.Range(min=1, max=64))
    max_players = fields.Integer(required=True, validate=validate.Range(min=1, max=64))
    dynamics = fields.String(
        required=True, validate=validate.OneOf(["turn-based", "simultaneous", "real-time"])
    )
    has_chance = fields.Boolean(required=True)
    rules_version = fields.Integer(required=True, validate=validate.Range(min=1, max=SAFE_INTEGER))
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
    operator_required = fields.Boolean(
        required=True,
        metadata={
            "description": "Whether creating a hosted session on this deployment needs an "
            "operator key (it sets `OPERATOR_KEYS`). Where it does, games are started by a "
            "school's system (an operator's server or the LMS), which hands out the join "
            "links; a browser page cannot start one."
        },
    )


def game_detail_schema(name: str, card: dict[str, Any], bot: dict[str, Any]) -> type[ma.Schema]:
    """``GET /v1/games/<slug>`` for one game: the generic facts and its typed deck."""
    return GameSummarySchema.from_dict(
        {
            "seed_file": fields.String(required=True),
            "options": fields.List(fields.Nested(OptionSchema), required=True),
            "bots": fields.List(
                WireField(bot), required=True, metadata={"description": "The game's bots."}
            ),
            "player_counts": fields.Dict(
                keys=fields.String(),
                values=WireField({"$ref": "#/components/schemas/DealTable"}),
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
                WireField(card), required=True, metadata={"description": "Every card."}
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
            "source": fields.Nested(
                SourceSchema,
                required=True,
                metadata={"description": "Where the original rules come from."},
            ),
        },
        name=name,
    )


class ProblemKindSchema(ma.Schema):
    code = fields.String(required=True)
    status = fields.Integer(required=True, validate=validate.Range(min=400, max=599))
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
        metadata={
            "description": "What needs Redis: `sessions` (hosted sessions of every game) "
            "and the games only played as sessions (on the server's clock), by slug."
        },
    )


class HealthChecksSchema(ma.Schema):
    games = fields.List(fields.String(), required=True)
    redis = fields.Nested(RedisCheckSchema, required=True)


class HealthSchema(ma.Schema):
    status = fields.String(
        required=True, validate=validate.OneOf(["ok", "degraded"]), metadata={"example": "ok"}
    )
    version = fields.String(
        required=True,
        metadata={
            "description": "The service's version (the package's, as in `GET /v1/games`).",
            "example": "0.2.0",
        },
    )
    checks = fields.Nested(HealthChecksSchema, metadata={"description": "Readiness only."})
