"""The request and response schemas every game gets, built from its own schemas.

A game supplies its options, moves, view, scores, events and card schemas
(``GameApi``); this module wraps them into the stateless and hosted-session
requests and responses, named after the game so the contract reads well
(``ElementDraftMoveRequest``, ``PolymerSessionMoveResponse``...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import marshmallow as ma
from marshmallow import fields, validate

from .common import (
    SEED_MAX,
    GameStartedEventSchema,
    MoveField,
    OptionsField,
    OutcomeSchema,
    SeatTokenSchema,
    StrictSchema,
    bot_field,
    bots_field,
    seat_field,
    token_field,
    version_field,
)

if TYPE_CHECKING:
    from ..play import GameApi

SchemaType = type[ma.Schema]


def pascal(slug: str) -> str:
    return "".join(part.title() for part in slug.split("-"))


_ACTOR: dict[SchemaType, SchemaType] = {}


def with_actor(cls: SchemaType) -> SchemaType:
    """``cls`` (an event schema) with the ``actor`` every delivered event carries."""
    if cls not in _ACTOR:
        actor = fields.Integer(
            required=True,
            allow_none=True,
            metadata={
                "description": "The seat whose move produced this event (a bot seat's too); "
                "null for the service's own events (setup, time-up)."
            },
        )
        _ACTOR[cls] = type(cls.__name__, (cls,), {"actor": actor, "__doc__": cls.__doc__})
    return _ACTOR[cls]


@dataclass(frozen=True)
class GameSchemas:
    """Every request and response schema of one game, stateless and hosted."""

    event: fields.Field[Any]
    events: fields.List[Any]
    setup_request: SchemaType
    session_request: SchemaType
    move_request: SchemaType
    bot_request: SchemaType
    seat_request: SchemaType
    view_request: SchemaType
    session_move_request: SchemaType
    session_bot_request: SchemaType
    session_seat_request: SchemaType
    setup_response: SchemaType
    move_response: SchemaType
    view_response: SchemaType
    legal_response: SchemaType
    scores_response: SchemaType
    session_response: SchemaType
    session_created: SchemaType
    session_move_response: SchemaType
    session_legal_response: SchemaType
    session_scores_response: SchemaType


def _events(api: GameApi) -> Mapping[str, SchemaType]:
    events: dict[str, SchemaType] = {**api.events, "game_started": GameStartedEventSchema}
    return {name: with_actor(cls) for name, cls in events.items()}


_SCHEMAS: dict[str, GameSchemas] = {}


def game_schemas(api: GameApi) -> GameSchemas:
    """The schemas of ``api``'s game, built once per process (names must be unique)."""
    if api.slug not in _SCHEMAS:
        _SCHEMAS[api.slug] = _build(api)
    return _SCHEMAS[api.slug]


def _build(api: GameApi) -> GameSchemas:
    info = api.game.info
    name = pascal(info.slug)
    event = MoveField(_events(api))
    events = fields.List(
        MoveField(_events(api)),
        required=True,
        metadata={
            "description": "What happened, in order, as this seat may see it (the service's "
            "bot seats' moves included, each event with its `actor`)."
        },
    )
    setup_fields: dict[str, fields.Field[Any]] = {
        # the range is documented here and enforced by the rules (`bad_players`)
        "players": fields.Integer(
            required=True,
            strict=True,
            validate=validate.Range(min=-(2**31), max=2**31),
            metadata={
                "description": "Number of seats.",
                "example": info.min_players,
                "minimum": info.min_players,
                "maximum": info.max_players,
            },
        ),
        "options": OptionsField(api.options, load_default=dict),
        "seed": fields.Integer(
            strict=True,
            load_default=None,
            allow_none=True,
            validate=validate.Range(min=0, max=SEED_MAX),
            metadata={
                "description": "Fixes the shuffle, for lessons and tests. Omit it in real "
                "play: anyone who knows the seed can work out the deal."
            },
        ),
    }
    if api.bots_allowed:
        setup_fields["bots"] = bots_field(info.bots)
    bot_default = "greedy" if "greedy" in info.bots else info.bots[0]
    move = MoveField(api.moves, required=True)
    common: dict[str, fields.Field[Any]] = {
        "version": fields.Integer(required=True, metadata={"description": "Moves applied so far."}),
        "to_act": fields.List(
            fields.Integer(),
            required=True,
            metadata={"description": "Seats that may act now (empty once the game is over)."},
        ),
        "outcome": fields.Nested(OutcomeSchema, required=True),
    }
    token: dict[str, fields.Field[Any]] = {
        "token": fields.String(required=True, metadata={"description": "The new token."})
    }
    seats: dict[str, fields.Field[Any]] = {
        "game_id": fields.String(required=True),
        "seats": fields.List(fields.Nested(SeatTokenSchema), required=True),
        "host_token": fields.String(
            required=True,
            metadata={
                "description": "Acts for any seat and for the host; keep it secret "
                "(Authorization: Bearer <host_token>)."
            },
        ),
        "bots": fields.Dict(
            keys=fields.String(),
            values=fields.String(),
            required=True,
            metadata={"description": "The seats the service plays: seat -> bot."},
        ),
    }
    view: dict[str, fields.Field[Any]] = {"view": fields.Nested(api.view, required=True)}
    acted: dict[str, fields.Field[Any]] = {
        "seat": fields.Integer(required=True, metadata={"description": "The seat that moved."}),
        "move": MoveField(api.moves, required=True),
        "events": events,
    }
    session: dict[str, fields.Field[Any]] = {
        "session_id": fields.String(required=True),
        **(dict(api.hooks.fields().items()) if api.hooks else {}),
    }
    legal: dict[str, fields.Field[Any]] = {
        "seat": fields.Integer(required=True),
        "version": fields.Integer(required=True),
        "moves": fields.List(MoveField(api.moves), required=True),
        "move_space": fields.String(
            required=True,
            allow_none=True,
            metadata={"description": "Where `moves` cannot list every move: what else is legal."},
        ),
    }
    scores: dict[str, fields.Field[Any]] = {
        "version": fields.Integer(required=True),
        "scores": fields.Nested(api.scores, required=True),
        "outcome": fields.Nested(OutcomeSchema, required=True),
    }

    def schema(
        suffix: str, members: Mapping[str, fields.Field[Any]], strict: bool = False
    ) -> SchemaType:
        base = StrictSchema if strict else ma.Schema
        return base.from_dict(dict(members), name=f"{name}{suffix}")

    return GameSchemas(
        event=event,
        events=events,
        setup_request=schema("SetupRequest", setup_fields, strict=True),
        session_request=schema("SessionRequest", setup_fields, strict=True),
        move_request=schema(
            "MoveRequest", {"token": token_field(), "seat": seat_field(), "move": move}, True
        ),
        bot_request=schema(
            "BotMoveRequest",
            {
                "token": token_field(),
                "seat": seat_field(),
                "bot": bot_field(info.bots, bot_default),
            },
            True,
        ),
        seat_request=schema("SeatRequest", {"token": token_field(), "seat": seat_field()}, True),
        view_request=schema(
            "ViewRequest", {"token": token_field(), "seat": seat_field(required=False)}, True
        ),
        session_move_request=schema(
            "SessionMoveRequest",
            {
                "seat": seat_field(),
                "version": version_field(),
                "move": MoveField(api.moves, required=True),
            },
            True,
        ),
        session_bot_request=schema(
            "SessionBotMoveRequest",
            {
                "seat": seat_field(),
                "version": version_field(),
                "bot": bot_field(info.bots, bot_default),
            },
            True,
        ),
        session_seat_request=schema("SessionSeatRequest", {"seat": seat_field()}, True),
        setup_response=schema(
            "SetupResponse", {**token, **common, **seats, **view, "events": events}
        ),
        move_response=schema("MoveResponse", {**token, **common, **acted, **view}),
        view_response=schema("ViewResponse", {**common, **view}),
        legal_response=schema("LegalMovesResponse", legal),
        scores_response=schema("ScoresResponse", scores),
        session_response=schema(
            "Session",
            {
                **session,
                **common,
                "seat": fields.Integer(
                    required=True,
                    allow_none=True,
                    metadata={"description": "Whose view this is (null: an observer's)."},
                ),
                **view,
            },
        ),
        session_created=schema(
            "SessionCreated", {**session, **common, **seats, **view, "events": events}
        ),
        session_move_response=schema("SessionMoveResponse", {**session, **common, **acted, **view}),
        session_legal_response=schema("SessionLegalMovesResponse", legal),
        session_scores_response=schema(
            "SessionScoresResponse", {"session_id": fields.String(required=True), **scores}
        ),
    )
