"""Polymer over HTTP: sessions in Redis, a shared clock, compare-and-set moves, events."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import orjson
import redis
from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import fields

from rules.polymer import GAME
from rules.polymer.game import declared

from .. import streams
from ..docs import BODY_ERRORS, merge, problems
from ..examples import polymer_examples
from ..jsonio import json_response
from ..play import GameApi, new_game, sealer, seats_block
from ..problems import Problem
from ..schemas.common import StrictSchema, seat_field, seat_token_field
from . import schemas as sc
from . import session as ss

blp = Blueprint(
    "polymer",
    __name__,
    url_prefix="/v1/polymer",
    description="Polymer: real-time trading with neighbours. Sessions live in Redis; every "
    "instance shares the clock (Redis's), the version and the loan calls.",
)

EX = polymer_examples()
SESSION_ERRORS = {404: ["session_not_found"], 503: ["redis_unavailable"]}
SEAT_ERRORS = {403: ["seat_token_invalid"], 422: ["seat_out_of_range"]}
RULE_CODES = sorted(
    c
    for c in GAME.info.codes
    if c not in {"bad_deal", "bad_card", "timer_expired", "duplicate_card"}
)
MOVE_ERRORS = merge(
    BODY_ERRORS,
    SESSION_ERRORS,
    SEAT_ERRORS,
    {
        409: ["stale_version", "timer_expired"],
        422: ["unknown_move", "bad_move", "bad_card", "idempotency_key_reused", *RULE_CODES],
    },
)
IDEMPOTENCY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "maxLength": 128},
    "description": "Send the same key when retrying a move: the original result comes back "
    "(with `Idempotent-Replayed: true`) instead of the move applying twice.",
}


@blp.app_errorhandler(redis.RedisError)
def _redis_down(err: redis.RedisError) -> Response:
    from ..api import _send

    return _send(ss.redis_down(err))


API = GameApi(
    game=GAME,
    options=sc.PoOptionsSchema,
    moves=sc.MOVES,
    view=sc.PoViewSchema,
    scores=sc.PoScoresSchema,
    events=sc.EVENTS,
    sessions=True,
)


@blp.route("/setup")
class Setup(MethodView):
    @blp.arguments(
        sc.PoSetupRequestSchema(), example={"players": 5, "options": {"timer_seconds": 600}}
    )
    @blp.response(201, sc.PoSetupResponseSchema, example=EX["setup"])
    @problems(
        blp,
        merge(
            BODY_ERRORS,
            {
                422: ["bad_players", "bad_option", "unknown_option", "bad_deal", "bad_card"],
                503: ["redis_unavailable"],
            },
        ),
    )
    def post(self, body: dict[str, Any]) -> Any:
        """Deal a new game and open its session.

        Nobody may see their hand until the timer starts: when every seat has
        moved `ready`, or when the host calls `/start`. Keep `host_token` secret and
        give each player only their own seat token.
        """
        st = ss.store()
        env = new_game(API, body["players"], body.get("options") or {}, body.get("seed"))
        token = sealer().seal(env)
        st.create(env.game_id, token, env.state["phase"], int(env.state["players"]))
        loaded = ss.load(env.game_id)
        return json_response(
            {
                **ss.session_block(loaded, loaded.env, None),
                "seats": seats_block(env),
                "host_token": sealer().host_token(env.game_id),
                "events": [{"type": "game_started", "players": env.state["players"]}],
            },
            status=201,
            headers={"Location": f"/v1/polymer/sessions/{env.game_id}"},
        )


class SessionQuerySchema(StrictSchema):
    seat = seat_field(required=False, strict=False)
    seat_token = seat_token_field(required=False)


@blp.route("/sessions/<session_id>")
class SessionResource(MethodView):
    @blp.arguments(SessionQuerySchema(), location="query")
    @blp.response(200, sc.PoSessionSchema, example=EX["session"])
    @problems(blp, merge(SESSION_ERRORS, SEAT_ERRORS, {422: ["invalid_request"]}))
    def get(self, query: dict[str, Any], session_id: str) -> Any:
        """Resync: the latest version, token, clock, loans and your view.

        Pass `seat` and `seat_token` to see your own hand; without them you get the
        observer's view. Time-up is applied here too if the deadline has passed.
        """
        loaded = ss.load(session_id)
        seat = query.get("seat")
        if seat is not None or query.get("seat_token") is not None:
            if seat is None or query.get("seat_token") is None:
                raise Problem(
                    "invalid_request",
                    "Send both seat and seat_token to view as a seat.",
                    errors={"seat": ["seat and seat_token go together."]},
                )
            ss.authorize(loaded, seat, query["seat_token"])
        if ss.expire_if_due(loaded) and loaded.env.state["phase"] != "ended":
            loaded = ss.load(session_id)
        return json_response(ss.session_block(loaded, loaded.env, seat))


@blp.route("/sessions/<session_id>/moves")
class Moves(MethodView):
    @blp.arguments(
        sc.PoMoveRequestSchema(),
        example={
            "seat": 0,
            "seat_token": "q0Z3v2m8Yb1fYvZ8aB7d2cP4",
            "version": 3,
            "move": {"type": "offer", "to": 1, "give": [11], "ask": ["7S"]},
        },
    )
    @blp.response(200, sc.PoMoveResponseSchema, example=EX["move"])
    @blp.doc(parameters=[IDEMPOTENCY])
    @problems(blp, MOVE_ERRORS)
    def post(self, body: dict[str, Any], session_id: str) -> Any:
        """Make a move as a seat, on the version you saw.

        If another move came first you get `409 stale_version` with the current
        version: resync and decide again. After the deadline every move is
        `409 timer_expired`. A seat whose loan was called in can only `repay`
        (`422 loan_called` names the lender and the count owed).
        """
        return _play(session_id, body, body["move"], None)


@blp.route("/sessions/<session_id>/bot-move")
class BotMove(MethodView):
    @blp.arguments(sc.PoBotRequestSchema())
    @blp.response(200, sc.PoMoveResponseSchema)
    @blp.doc(parameters=[IDEMPOTENCY])
    @problems(blp, MOVE_ERRORS)
    def post(self, body: dict[str, Any], session_id: str) -> Any:
        """Let a bot choose and make the move for a seat (`random` or `trading`)."""
        return _play(session_id, body, {}, body["bot"])


def _play(session_id: str, body: dict[str, Any], move: dict[str, Any], bot: str | None) -> Any:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (0 < len(key) <= 128 and key.isascii() and key.isprintable()):
        raise Problem(
            "invalid_request",
            "Idempotency-Key must be 1-128 printable ASCII characters.",
            errors={"Idempotency-Key": ["1-128 printable ASCII characters."]},
        )
    result, replayed = ss.play(
        session_id,
        body["seat"],
        body["version"],
        move,
        seat_token=body["seat_token"],
        idempotency_key=key,
        bot=bot,
    )
    return json_response(result, headers={"Idempotent-Replayed": "true"} if replayed else None)


@blp.route("/sessions/<session_id>/start")
class Start(MethodView):
    @blp.arguments(sc.PoStartRequestSchema())
    @blp.response(200, sc.PoStartResponseSchema, example=EX["start"])
    @problems(
        blp,
        merge(
            BODY_ERRORS,
            SESSION_ERRORS,
            {
                403: ["host_token_invalid"],
                409: ["stale_version", "timer_expired"],
                422: ["already_started"],
            },
        ),
    )
    def post(self, body: dict[str, Any], session_id: str) -> Any:
        """The host starts the timer (without waiting for every seat to be ready)."""
        return json_response(ss.start(session_id, body["host_token"]))


@blp.route("/sessions/<session_id>/legal-moves")
class LegalMoves(MethodView):
    @blp.arguments(sc.PoSeatRequestSchema())
    @blp.response(200, sc.PoLegalMovesResponseSchema, example=EX["legal"])
    @problems(blp, merge(BODY_ERRORS, SESSION_ERRORS, SEAT_ERRORS))
    def post(self, body: dict[str, Any], session_id: str) -> Any:
        """Moves the seat may make now: every single-card offer and loan, every answer to
        an offer, loan call, repayment and undo. Multi-card offers and loans are legal
        too; `move_space` describes them."""
        loaded = ss.load(session_id)
        ss.authorize(loaded, body["seat"], body["seat_token"])
        state = {**loaded.env.state, "now_ms": max(loaded.env.state["now_ms"], loaded.now_ms)}
        return json_response(
            {
                "seat": body["seat"],
                "version": loaded.session.version,
                "moves": GAME.legal_moves(state, body["seat"]),
                "move_space": sc.MOVE_SPACE,
            }
        )


@blp.route("/sessions/<session_id>/scores")
class Scores(MethodView):
    @blp.response(200, sc.PoScoresResponseSchema, example=EX["scores"])
    @problems(blp, SESSION_ERRORS)
    def get(self, session_id: str) -> Any:
        """Final scores with each seat's best arrangement, once time is up (hands are
        secret before: `final` is false and the lists are empty)."""
        loaded = ss.load(session_id)
        if ss.expire_if_due(loaded):
            loaded = ss.load(session_id)
        state = loaded.env.state
        return json_response(
            {
                "session_id": session_id,
                "version": loaded.session.version,
                "scores": GAME.scores(state),
                "outcome": GAME.outcome(state).to_json(),
            }
        )


@blp.route("/sessions/<session_id>/arrangement")
class Arrangement(MethodView):
    @blp.arguments(sc.PoArrangementRequestSchema())
    @blp.response(200, sc.PoArrangementResponseSchema, example=EX["arrangement"])
    @problems(
        blp,
        merge(
            BODY_ERRORS,
            SESSION_ERRORS,
            SEAT_ERRORS,
            {
                422: [
                    "not_a_pattern",
                    "card_not_in_hand",
                    "card_used_twice",
                    "bad_card",
                    "not_started",
                ]
            },
        ),
    )
    def post(self, body: dict[str, Any], session_id: str) -> Any:
        """Check the patterns you would show and score them against your best arrangement
        (with your neighbours' best longest patterns)."""
        loaded = ss.load(session_id)
        ss.authorize(loaded, body["seat"], body["seat_token"])
        return json_response(declared(loaded.env.state, body["seat"], body["patterns"]))


class EventsQuerySchema(StrictSchema):
    last_event_id = fields.Integer(
        load_default=None,
        metadata={"description": "Ignored: resync with GET /sessions/{id} after a reconnect."},
    )


@blp.route("/sessions/<session_id>/events")
class Events(MethodView):
    @blp.response(
        200,
        {"type": "string"},
        content_type="text/event-stream",
        description="Server-sent events: `hello` first, then one `update` per committed "
        "move (data: session_id, version, phase, deadline_ms, server_now_ms and the public "
        "events), `: keep-alive` comments, and `end` when the game is over or the stream "
        "reaches its time limit (reconnect and resync).",
    )
    @problems(blp, merge(SESSION_ERRORS, {503: ["too_many_streams"]}))
    def get(self, session_id: str) -> Any:
        """Follow a session live, from any instance: offers, trades, loan calls,
        repayments and the end of time, without polling. Events are public (no cards);
        fetch your view for the details."""
        loaded = ss.load(session_id)
        settings = current_app.config["SETTINGS"]
        slot = streams.acquire(settings.sse_max_streams)  # 503 too_many_streams past the bound
        stream = _stream(loaded, settings.sse_max_seconds, settings.sse_heartbeat_seconds)
        response = Response(
            stream_with_context(stream),
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        response.call_on_close(slot.release)
        return response


def _sse(event: str, data: Any, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {orjson.dumps(data).decode()}\n\n"


def _stream(loaded: ss.Loaded, max_seconds: float, heartbeat: float) -> Iterator[str]:
    st = ss.store()
    pubsub = streams.pubsub(st.redis, current_app.config["SETTINGS"].sse_max_streams)
    session_id = loaded.session.id
    state = loaded.env.state
    phase, deadline = state["phase"], state["deadline_ms"]
    try:
        pubsub.subscribe(st.channel(session_id))
        yield "retry: 2000\n\n"
        yield _sse(
            "hello",
            {
                "session_id": session_id,
                "version": loaded.session.version,
                "phase": phase,
                "deadline_ms": deadline,
                "server_now_ms": loaded.now_ms,
            },
            loaded.session.version,
        )
        started = time.monotonic()
        while time.monotonic() - started < max_seconds:
            wait = heartbeat
            if phase == "trading" and deadline is not None:
                wait = min(wait, max(0.05, (deadline - st.now_ms()) / 1000))
            message = pubsub.get_message(timeout=wait)
            if message is None:
                if phase == "trading" and deadline is not None and st.now_ms() >= deadline:
                    ss.expire_if_due(ss.load(session_id))  # publishes time_up to everyone
                yield ": keep-alive\n\n"
                continue
            payload = orjson.loads(message["data"])
            phase = payload.get("phase", phase)
            deadline = payload.get("deadline_ms", deadline)
            yield _sse("update", payload, payload.get("version"))
            if phase == "ended":
                break
        yield _sse("end", {"session_id": session_id, "phase": phase})
    except redis.RedisError as err:
        yield _sse("error", ss.redis_down(err).body())
    except Problem as err:
        yield _sse("error", err.body())
    finally:
        pubsub.close()
