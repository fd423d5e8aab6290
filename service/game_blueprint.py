"""One Blueprint per game: setup, moves, legal-moves, view, scores, bot-move.

Each endpoint documents its request and response schemas for the OpenAPI
document; at run time views are dumped with orjson (a marshmallow dump of a
whole view would cost more than the rules themselves).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import fields, validate

from rules.core import CORE_CODES

from . import examples
from .docs import BODY_ERRORS, SEAT_ERRORS, TOKEN_ERRORS, merge, problems
from .jsonio import json_response
from .play import (
    GameApi,
    apply_move,
    check_seat,
    events_for,
    new_game,
    open_token,
    seal,
    sealer,
    seats_block,
    turn_block,
)
from .problems import Problem
from .schemas.common import (
    SEED_MAX,
    BotRequestSchema,
    GameStartedEventSchema,
    MoveField,
    OptionsField,
    OutcomeSchema,
    SeatRequestSchema,
    SeatTokenSchema,
    StateRequestSchema,
    StrictSchema,
    ViewRequestSchema,
    seat_field,
    seat_token_field,
    token_field,
)

SETUP_CODES = ("bad_players", "unknown_option", "bad_option")


def _name(api: GameApi, suffix: str) -> str:
    return "".join(part.title() for part in api.slug.split("-")) + suffix


def _schemas(api: GameApi) -> dict[str, type[ma.Schema]]:
    """Per-game request/response schemas, named after the game for the spec."""
    info = api.game.info
    event_list = fields.List(
        MoveField({**api.events, "game_started": GameStartedEventSchema}),
        required=True,
        metadata={"description": "What happened, in order, as this seat may see it."},
    )
    setup = StrictSchema.from_dict(
        {
            # the range is documented here and enforced by the rules (`bad_players`)
            "players": fields.Integer(
                required=True,
                strict=True,
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
        },
        name=_name(api, "SetupRequest"),
    )
    move_request = StrictSchema.from_dict(
        {
            "token": token_field(),
            "seat": seat_field(),
            "seat_token": seat_token_field(),
            "move": MoveField(api.moves, required=True),
        },
        name=_name(api, "MoveRequest"),
    )
    common = {
        "token": fields.String(required=True, metadata={"description": "The new state token."}),
        "version": fields.Integer(required=True, metadata={"description": "Moves applied so far."}),
        "to_act": fields.List(fields.Integer(), required=True),
        "outcome": fields.Nested(OutcomeSchema, required=True),
    }
    setup_response = ma.Schema.from_dict(
        {
            **common,
            "game_id": fields.String(required=True),
            "seats": fields.List(fields.Nested(SeatTokenSchema), required=True),
            "host_token": fields.String(
                required=True,
                metadata={"description": "Acts for any seat and for the host; keep it secret."},
            ),
            "view": fields.Nested(api.view, required=True),
            "events": event_list,
        },
        name=_name(api, "SetupResponse"),
    )
    move_response = ma.Schema.from_dict(
        {
            **common,
            "seat": fields.Integer(required=True),
            "move": MoveField(api.moves, required=True),
            "events": event_list,
            "view": fields.Nested(api.view, required=True),
        },
        name=_name(api, "MoveResponse"),
    )
    view_response = ma.Schema.from_dict(
        {
            "version": fields.Integer(required=True),
            "to_act": fields.List(fields.Integer(), required=True),
            "outcome": fields.Nested(OutcomeSchema, required=True),
            "view": fields.Nested(api.view, required=True),
        },
        name=_name(api, "ViewResponse"),
    )
    legal_response = ma.Schema.from_dict(
        {
            "seat": fields.Integer(required=True),
            "version": fields.Integer(required=True),
            "moves": fields.List(MoveField(api.moves), required=True),
        },
        name=_name(api, "LegalMovesResponse"),
    )
    scores_response = ma.Schema.from_dict(
        {
            "version": fields.Integer(required=True),
            "scores": fields.Nested(api.scores, required=True),
            "outcome": fields.Nested(OutcomeSchema, required=True),
        },
        name=_name(api, "ScoresResponse"),
    )
    return {
        "setup": setup,
        "move_request": move_request,
        "setup_response": setup_response,
        "move_response": move_response,
        "view_response": view_response,
        "legal_response": legal_response,
        "scores_response": scores_response,
    }


def make_blueprint(api: GameApi) -> Blueprint:
    game = api.game
    info = game.info
    sc = _schemas(api)
    ex = examples.stateless(api)
    blp = Blueprint(
        info.slug,
        __name__ + "." + info.slug,
        url_prefix=f"/v1/{info.slug}",
        description=f"{info.title}: {info.summary}",
    )

    rule_codes = sorted(
        c
        for c in {*CORE_CODES, *info.codes}
        if c not in {"state_invalid", "unknown_bot", "unknown_option"}
        and (c == "bad_move" or not c.startswith("bad_"))
    )
    move_codes = ["unknown_move", *rule_codes]
    bot_codes = [c for c in ("game_over", "already_selected") if c in rule_codes]
    setup_codes = [*SETUP_CODES, *sorted(c for c in info.codes if c.startswith("bad_"))]

    def move_result(env: Any, seat: int, move: dict[str, Any], events: list[Any]) -> Any:
        return json_response(
            {
                "token": seal(env),
                "version": env.version,
                **turn_block(api, env),
                "seat": seat,
                "move": move,
                "events": events_for(events, seat),
                "view": game.view(env.state, seat),
            }
        )

    @blp.route("/setup")
    class Setup(MethodView):
        @blp.arguments(sc["setup"](), example=dict(api.setup_example) or None)
        @blp.response(201, sc["setup_response"], example=ex["setup"])
        @problems(blp, merge(BODY_ERRORS, {422: setup_codes}))
        def post(self, body: dict[str, Any]) -> Any:
            """Deal a new game.

            Returns the sealed state token, one seat token per seat (give each
            player only their own), the host token, and the observer's view.
            """
            env = new_game(api, body["players"], body.get("options") or {}, body.get("seed"))
            return json_response(
                {
                    "game_id": env.game_id,
                    "token": seal(env),
                    "version": env.version,
                    **turn_block(api, env),
                    "seats": seats_block(env),
                    "host_token": sealer().host_token(env.game_id),
                    "view": game.view(env.state, None),
                    "events": [{"type": "game_started", "players": env.state["players"]}],
                },
                status=201,
            )

    @blp.route("/moves")
    class Moves(MethodView):
        @blp.arguments(sc["move_request"](), example=dict(api.move_example) or None)
        @blp.response(200, sc["move_response"], example=ex["move"])
        @problems(blp, merge(BODY_ERRORS, TOKEN_ERRORS, SEAT_ERRORS, {422: move_codes}))
        def post(self, body: dict[str, Any]) -> Any:
            """Make a move as a seat.

            The move is checked against the rules; an illegal move is a 422
            problem whose `code` says which rule and whose `rule` quotes it.
            """
            env = open_token(api, body["token"])
            seat = body["seat"]
            check_seat(env, seat, body["seat_token"])
            move = game.parse_move(body["move"])
            env, events = apply_move(api, env, seat, move)
            return move_result(env, seat, move, events)

    @blp.route("/bot-move")
    class BotMove(MethodView):
        @blp.arguments(BotRequestSchema())
        @blp.response(200, sc["move_response"])
        @problems(blp, merge(BODY_ERRORS, TOKEN_ERRORS, SEAT_ERRORS, {422: bot_codes}))
        def post(self, body: dict[str, Any]) -> Any:
            """Let a bot choose and make the move for a seat.

            `random` picks uniformly among the legal moves; `greedy` takes the
            move with the largest immediate score gain.
            """
            env = open_token(api, body["token"])
            seat = body["seat"]
            check_seat(env, seat, body["seat_token"])
            # a seat with nothing to do gets the rules' reason (game over, already selected)
            move, state = game.bot_move(env.state, seat, body["bot"])
            env = replace(env, state=state)
            env, events = apply_move(api, env, seat, move)
            return move_result(env, seat, move, events)

    @blp.route("/legal-moves")
    class LegalMoves(MethodView):
        @blp.arguments(SeatRequestSchema())
        @blp.response(200, sc["legal_response"], example=ex["legal"])
        @problems(blp, merge(BODY_ERRORS, TOKEN_ERRORS, SEAT_ERRORS))
        def post(self, body: dict[str, Any]) -> Any:
            """List every move the seat may make now (empty when it must wait)."""
            env = open_token(api, body["token"])
            seat = body["seat"]
            check_seat(env, seat, body["seat_token"])
            moves = game.legal_moves(env.state, seat) if seat in game.to_act(env.state) else []
            return json_response({"seat": seat, "version": env.version, "moves": moves})

    @blp.route("/view")
    class View(MethodView):
        @blp.arguments(ViewRequestSchema())
        @blp.response(200, sc["view_response"], example=ex["view"])
        @problems(blp, merge(BODY_ERRORS, TOKEN_ERRORS, SEAT_ERRORS))
        def post(self, body: dict[str, Any]) -> Any:
            """What a seat (with its seat token) or an observer (no seat) may see."""
            env = open_token(api, body["token"])
            seat = body.get("seat")
            if seat is None:
                if body.get("seat_token") is not None:
                    raise Problem(
                        "invalid_request",
                        "A seat_token was sent without a seat; add the seat number.",
                        errors={"seat": ["Required when seat_token is given."]},
                    )
            else:
                if body.get("seat_token") is None:
                    raise Problem(
                        "invalid_request",
                        f"Viewing as seat {seat} needs that seat's seat_token.",
                        errors={"seat_token": ["Required when seat is given."]},
                    )
                check_seat(env, seat, body["seat_token"])
            return json_response(
                {"version": env.version, **turn_block(api, env), "view": game.view(env.state, seat)}
            )

    @blp.route("/scores")
    class Scores(MethodView):
        @blp.arguments(StateRequestSchema())
        @blp.response(200, sc["scores_response"], example=ex["scores"])
        @problems(blp, merge(BODY_ERRORS, TOKEN_ERRORS))
        def post(self, body: dict[str, Any]) -> Any:
            """Scores so far (final once the game is over), with their evidence."""
            env = open_token(api, body["token"])
            return json_response(
                {
                    "version": env.version,
                    "scores": game.scores(env.state),
                    "outcome": game.outcome(env.state).to_json(),
                }
            )

    return blp
