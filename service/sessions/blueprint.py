"""One hosted-session Blueprint per game, generated like the stateless one.

``POST /v1/<slug>/sessions`` deals a game and keeps it in Redis; every device then
sends only its own seat's credential. Moves name the ``version`` they were decided
on (compare-and-set) and may carry an ``Idempotency-Key``; ``GET .../events`` streams
the public events as server-sent events from any instance.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import orjson
import redis
from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView

from .. import examples, streams
from ..auth import bearer
from ..docs import (
    AS_SEAT,
    AS_SEAT_OR_OBSERVER,
    BODY_ERRORS,
    PUBLIC,
    SEAT_ERRORS,
    header,
    merge,
    operation,
)
from ..jsonio import json_response
from ..parsing import ApiBlueprint as Blueprint
from ..play import GameApi, authorize, bots_block, events_for, sealer, seats_block
from ..problems import Problem
from ..schemas.common import StrictSchema, seat_field
from ..schemas.game import game_schemas, pascal
from ..stateless import bot_codes, move_codes, setup_codes
from . import flow

SESSION_ERRORS = {404: ["session_not_found"], 503: ["redis_unavailable"]}
IDEMPOTENCY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 128},
    "description": "Send the same key when retrying a move: the original answer comes back "
    "(with `Idempotent-Replayed: true`) instead of the move applying twice. An answer is "
    "only ever returned to the credential that made the move.",
}
STREAM_DESCRIPTION = """\
Server-sent events (`text/event-stream`). Frames, in order:

* `retry: 2000` (reconnect delay);
* `event: hello`, `id: <version>`, `data:` a JSON object with `session_id`, `version`,
  `to_act`, `finished` and the game's public session members (Polymer: `phase`,
  `deadline_ms`, `deadline_at`, `server_now_ms`, `server_now`, `loans`);
* one `event: update`, `id: <version>` per committed move, whose `data` has the same
  members plus `events`: the public events of that move (each with its `actor`; no
  card a seat could not see);
* `: keep-alive` comments;
* `event: end` with `{"session_id", "finished"}` when the game is over or the stream
  reaches its time limit (reconnect, then resync with `GET /sessions/{id}`), or
  `event: error` with a problem object if the session store fails.
"""


def _key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (0 < len(key) <= 128 and key.isascii() and key.isprintable()):
        raise Problem(
            "invalid_request",
            "Idempotency-Key must be 1-128 printable ASCII characters.",
            errors={"Idempotency-Key": ["1-128 printable ASCII characters."]},
        )
    return key


def _sse(event: str, data: Any, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {orjson.dumps(data).decode()}\n\n"


def make_session_blueprint(api: GameApi) -> Blueprint:
    game = api.game
    info = game.info
    sc = game_schemas(api)
    ex = examples.sessions(api)
    op = pascal(info.slug)
    op = op[:1].lower() + op[1:]
    prefix = f"/v1/{info.slug}/sessions"
    blp = Blueprint(
        f"{info.slug}-sessions",
        __name__ + "." + info.slug,
        url_prefix=prefix,
        description=f"{info.title}, hosted: the service keeps the game in Redis, so devices "
        "that each hold only their own seat's credential play together.",
    )

    played = merge(BODY_ERRORS, SESSION_ERRORS, SEAT_ERRORS)
    move_errors = merge(
        played,
        {
            409: ["stale_version", *(["timer_expired"] if api.hooks else [])],
            422: ["unknown_move", "idempotency_key_reused", *move_codes(api)],
        },
    )
    bot_errors = merge(
        played,
        {
            409: ["stale_version", *(["timer_expired"] if api.hooks else [])],
            422: ["idempotency_key_reused", *bot_codes(api)],
        },
    )

    class SessionQuerySchema(StrictSchema):
        seat = seat_field(required=False, strict=False)

    @blp.route("")
    class Sessions(MethodView):
        @blp.arguments(sc.session_request(), example=dict(api.setup_example) or None)
        @blp.response(
            201,
            sc.session_created,
            headers={"Location": header("Location")},
            example=ex["created"],
        )
        @operation(
            blp,
            f"{op}CreateSession",
            merge(BODY_ERRORS, {422: setup_codes(api), 503: ["redis_unavailable"]}),
            security=PUBLIC,
        )
        def post(self, body: dict[str, Any]) -> Any:
            """Deal a new game and keep it in Redis (a hosted session).

            Returns the session id, one seat token per seat (give each player only
            their own), the host token and the observer's view. The state token stays
            on the server: nobody can peek at a draw and go back.
            """
            loaded, events = flow.create(api, body)
            env = loaded.env
            return json_response(
                {
                    **flow.session_block(loaded, env, None),
                    "game_id": env.game_id,
                    "seats": seats_block(env),
                    "host_token": sealer().host_token(env.game_id),
                    "bots": bots_block(env),
                    "events": events_for(events, None),
                },
                status=201,
                headers={"Location": f"{prefix}/{env.game_id}"},
            )

    @blp.route("/<session_id>")
    class SessionResource(MethodView):
        @blp.arguments(SessionQuerySchema(), location="query")
        @blp.response(200, sc.session_response, example=ex["session"])
        @operation(
            blp,
            f"{op}GetSession",
            merge(SESSION_ERRORS, SEAT_ERRORS, {422: ["invalid_request"]}),
            security=AS_SEAT_OR_OBSERVER,
        )
        def get(self, query: dict[str, Any], session_id: str) -> Any:
            """Resync: the latest version, whose turn it is, and a view.

            Name your `seat` (and send its credential) to see your own hand; without
            it you get the observer's view.
            """
            seat = query.get("seat")
            loaded = flow.load(api, session_id)
            if seat is not None:
                authorize(loaded.env, seat, bearer())
            loaded = flow.fresh(loaded)
            return json_response({**flow.session_block(loaded, loaded.env, seat), "seat": seat})

    @blp.route("/<session_id>/moves")
    class Moves(MethodView):
        @blp.arguments(sc.session_move_request())
        @blp.response(
            200,
            sc.session_move_response,
            headers={"Idempotent-Replayed": header("Idempotent-Replayed")},
            example=ex["move"],
        )
        @blp.doc(parameters=[IDEMPOTENCY])
        @operation(blp, f"{op}SessionMove", move_errors, security=AS_SEAT)
        def post(self, body: dict[str, Any], session_id: str) -> Any:
            """Make a move as a seat, on the version you saw.

            If another move came first you get `409 stale_version` with the current
            version: resync and decide again. The service then plays its bot seats
            until a human must act.
            """
            credential = bearer()
            result, replayed = flow.play(
                api,
                session_id,
                body["seat"],
                body["version"],
                body["move"],
                credential=credential,
                idempotency_key=_key(),
            )
            return json_response(
                result, headers={"Idempotent-Replayed": "true"} if replayed else None
            )

    @blp.route("/<session_id>/bot-move")
    class BotMove(MethodView):
        @blp.arguments(sc.session_bot_request())
        @blp.response(
            200,
            sc.session_move_response,
            headers={"Idempotent-Replayed": header("Idempotent-Replayed")},
        )
        @blp.doc(parameters=[IDEMPOTENCY])
        @operation(blp, f"{op}SessionBotMove", bot_errors, security=AS_SEAT)
        def post(self, body: dict[str, Any], session_id: str) -> Any:
            """Let a bot choose and make the move for a seat, on the version you saw.

            Retry-safe with an Idempotency-Key, like `/moves`.
            """
            credential = bearer()
            result, replayed = flow.play(
                api,
                session_id,
                body["seat"],
                body["version"],
                None,
                credential=credential,
                idempotency_key=_key(),
                bot=body["bot"],
            )
            return json_response(
                result, headers={"Idempotent-Replayed": "true"} if replayed else None
            )

    @blp.route("/<session_id>/legal-moves")
    class LegalMoves(MethodView):
        @blp.arguments(sc.session_seat_request())
        @blp.response(200, sc.session_legal_response, example=ex["legal"])
        @operation(blp, f"{op}SessionLegalMoves", played, security=AS_SEAT)
        def post(self, body: dict[str, Any], session_id: str) -> Any:
            """Every move the seat may make now.

            Where the move space is too large to list (Polymer's multi-card offers),
            `move_space` says what else is legal.
            """
            credential = bearer()
            loaded = flow.load(api, session_id)
            seat = body["seat"]
            authorize(loaded.env, seat, credential)
            loaded = flow.fresh(loaded)
            state = loaded.env.state
            if api.hooks:
                state = api.hooks.prepare(state, loaded.now_ms)
            moves = game.legal_moves(state, seat) if seat in game.to_act(state) else []
            return json_response(
                {
                    "seat": seat,
                    "version": loaded.session.version,
                    "moves": moves,
                    "move_space": api.move_space,
                }
            )

    @blp.route("/<session_id>/scores")
    class Scores(MethodView):
        @blp.response(200, sc.session_scores_response, example=ex["scores"])
        @operation(blp, f"{op}SessionScores", SESSION_ERRORS, security=PUBLIC)
        def get(self, session_id: str) -> Any:
            """Scores so far (final once the game is over), with their evidence.

            A game with a clock applies time-up first if its deadline has passed.
            """
            loaded = flow.fresh(flow.load(api, session_id))
            state = loaded.env.state
            return json_response(
                {
                    "session_id": session_id,
                    "version": loaded.session.version,
                    "scores": game.scores(state),
                    "outcome": game.outcome(state).to_json(),
                }
            )

    @blp.route("/<session_id>/events")
    class Events(MethodView):
        @blp.response(
            200,
            {"type": "string", "description": STREAM_DESCRIPTION},
            content_type="text/event-stream",
            description="A stream of server-sent events (see the schema's description).",
            example='retry: 2000\n\nid: 0\nevent: hello\ndata: {"session_id":"5d1e8a0c",'
            '"version":0,"to_act":[0],"finished":false}\n\n: keep-alive\n\n',
        )
        @operation(
            blp,
            f"{op}SessionEvents",
            merge(SESSION_ERRORS, {503: ["too_many_streams"]}),
            security=PUBLIC,
        )
        def get(self, session_id: str) -> Any:
            """Follow a session live, from any instance, without polling.

            Events are public (no card a seat could not see); fetch your view for the
            details.
            """
            loaded = flow.load(api, session_id)
            settings = current_app.config["SETTINGS"]
            slot = streams.acquire(settings.sse_max_streams)  # 503 too_many_streams past it
            stream = _stream(loaded, settings.sse_max_seconds, settings.sse_heartbeat_seconds)
            response = Response(
                stream_with_context(stream),
                mimetype="text/event-stream",
                headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
            )
            response.call_on_close(slot.release)
            return response

    return blp


def _stream(loaded: flow.Loaded, max_seconds: float, heartbeat: float) -> Iterator[str]:
    api = loaded.api
    st = flow.store()
    # streams take pub/sub connections from a pool of their own (service/streams.py)
    pubsub = streams.pubsub(st.redis, current_app.config["SETTINGS"].sse_max_streams)
    session_id = loaded.id
    env = loaded.env
    finished = api.game.outcome(env.state).finished
    deadline = api.hooks.deadline(env.state) if api.hooks else None
    try:
        pubsub.subscribe(st.channel(session_id))
        yield "retry: 2000\n\n"
        hello = {
            "session_id": session_id,
            "version": loaded.session.version,
            "to_act": api.game.to_act(env.state),
            "finished": finished,
            **(api.hooks.block(env.state, loaded.now_ms) if api.hooks else {}),
        }
        yield _sse("hello", hello, loaded.session.version)
        started = time.monotonic()
        while not finished and time.monotonic() - started < max_seconds:
            wait = heartbeat
            if deadline is not None:
                wait = min(wait, max(0.05, (deadline - st.now_ms()) / 1000))
            message = pubsub.get_message(timeout=wait)
            if message is None:
                if deadline is not None and st.now_ms() >= deadline:
                    flow.expire_if_due(flow.load(api, session_id))  # publishes to everyone
                yield ": keep-alive\n\n"
                continue
            payload = orjson.loads(message["data"])
            finished = bool(payload.get("finished"))
            deadline = payload.get("deadline_ms", deadline) if not finished else None
            yield _sse("update", payload, payload.get("version"))
        yield _sse("end", {"session_id": session_id, "finished": finished})
    except redis.RedisError as err:
        yield _sse("error", flow.redis_down(err).body())
    except Problem as err:
        yield _sse("error", err.body())
    finally:
        pubsub.close()
