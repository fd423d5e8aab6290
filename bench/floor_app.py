"""The floor under the HTTP ratios: what a stateless move must pay, without the rest.

Served by the same gunicorn configuration as the service and the echo
(``bench/echo_app.py``), this bare Flask app (no hooks, no flask-smorest, no webargs)
answers a recorded service request at four rungs, each adding one thing the service
cannot do without to the one before (``bench/floor.py`` replays the same requests to
each; bench/README.md, issue 21):

``/echo/<path>``
    the body back, through orjson (the echo);
``/limit/<path>``
    and, for a move, the address's rate limit drawn in Redis: the service's own script,
    one round trip (``service.school.limits``);
``/token/<path>``
    and the state token opened (every request) and, for a move, sealed again
    (``service.games.tokens``: zlib, orjson, Fernet);
``/trips/<path>`` (a move in a hosted session)
    the echo, after the two round trips every hosted move makes: the session's load
    with the rate limit (one pipeline), then a compare-and-set, here one that finds
    another version and stores nothing (the least a commit can cost);
``/work/<path>``
    the whole of the service's work for the request (a stateless request, or a move in
    a hosted session: the session's load with the limit, the compare-and-set and its
    events), through the service's own
    functions: the body validated by the operation's own schema, the seat's
    credential checked, the rules' move and the bots, the events, the seat's view, the
    sealed token, the answer. What is left out is only what the service adds around
    that work: Flask's hooks (request id, CORS, compression, the limiter's headers),
    flask-smorest's and webargs' wrappers, the JSON logs.

Nothing here is served by the product; it exists to measure it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
from flask import Flask, Response, g, request
from marshmallow import Schema, ValidationError

MOVES = ("moves",)


def create_app(settings: Any = None) -> Flask:
    """The floor, with the deployment's settings (``settings``: a test's own)."""
    from rules.registry import GAMES
    from service import create_app as service_app
    from service.api.operations import LEGAL_MOVES, MOVE, Hosted, Stateless, _request_schema
    from service.base.config import Settings
    from service.games.tokens import Sealer
    from service.http.jsonio import json_response
    from service.http.problems import Problem
    from service.school.limits import Budget, RedisCounter
    from service.sessions.store import SessionStore

    settings = replace(settings or Settings.from_env(), due_work=False)
    service = service_app(settings)
    app = Flask(__name__)
    # the service's own objects: its sealer, Redis, games and settings
    app.extensions.update(service.extensions)
    app.config["SETTINGS"] = settings
    sealer: Sealer = service.extensions["chemgames.sealer"]
    store: SessionStore = service.extensions["chemgames.store"]
    counter = RedisCounter(service.extensions["chemgames.redis"], settings.redis_key_prefix)
    budget = Budget.parse("moves", settings.rate_limit_moves)
    apis = service.extensions["chemgames.games"]
    modes = {slug: Stateless(api) for slug, api in apis.items() if api.stateless}
    hosted = {slug: Hosted(api) for slug, api in apis.items()}

    def made(schema: type[Schema] | None) -> Schema:
        assert schema is not None, "a move and a legal-moves request have a body"
        return schema()

    hosted_schemas = {slug: made(_request_schema(mode, MOVE)) for slug, mode in hosted.items()}
    ops = {"moves": MOVE, "legal-moves": LEGAL_MOVES}
    schemas = {
        (slug, name): made(_request_schema(mode, op))
        for slug, mode in modes.items()
        for name, op in ops.items()
    }

    def split(path: str) -> tuple[str, str]:
        parts = path.split("/")  # v1/<slug>/[sessions/<id>/]<operation>
        return parts[1], parts[-1]

    def draw() -> None:
        assert counter.draw(budget, request.remote_addr or "-").counted.allowed

    def answer(data: Any) -> Response:
        return Response(orjson.dumps(data), mimetype="application/json")

    @app.post("/echo/<path:path>")
    def echo(path: str) -> Any:
        return answer(orjson.loads(request.get_data()))

    @app.post("/limit/<path:path>")
    def limit(path: str) -> Any:
        body = orjson.loads(request.get_data())
        if split(path)[1] in MOVES:
            draw()
        return answer(body)

    @app.post("/token/<path:path>")
    def token(path: str) -> Any:
        body = orjson.loads(request.get_data())
        slug, name = split(path)
        info = GAMES[slug].info
        env = sealer.open(body["token"], slug=slug, rules_version=info.rules_version)
        if name in MOVES:
            draw()
            body["token"] = sealer.seal(env)
        return answer(body)

    @app.post("/work/<path:path>")
    def work(path: str) -> Any:
        slug, name = split(path)
        mode, op = modes[slug], ops[name]
        try:
            body = schemas[slug, name].load(orjson.loads(request.get_data()))
            if op.writes:
                draw()
                return mode.write(op, body, None)
            return mode.read(op, body, None)
        except ValidationError:  # every replayed request is valid: never expected
            return json_response({"code": "invalid_request"}, 500)
        except Problem as problem:  # nor this
            return json_response({"code": problem.code}, 500)

    @app.post("/trips/v1/<slug>/sessions/<session_id>/moves")
    def trips(slug: str, session_id: str) -> Any:
        body = orjson.loads(request.get_data())
        calls = [counter.call(budget, request.remote_addr or "-")]
        session, _, _ = store.load_after(session_id, calls)
        assert session is not None
        # a compare-and-set that finds another version: the commit's round trip, at
        # the least it can cost
        refused = store.commit(
            session_id,
            expected=-1,
            version=0,
            token="",
            deadline_ms=None,
            public={},
            message=None,
        )
        assert refused.status == "stale"
        return answer(body)

    @app.post("/work/v1/<slug>/sessions/<session_id>/moves")
    def hosted_work(slug: str, session_id: str) -> Any:
        body = hosted_schemas[slug].load(orjson.loads(request.get_data()))
        # the limit rides in the session's load, as the service's own limiter arranges
        g.rate_limit_pending = [(budget, request.remote_addr or "-")]
        try:
            return hosted[slug].write(MOVE, body, session_id)
        except Problem as problem:  # every move played is valid: never expected
            return json_response({"code": problem.code}, 500)

    return app
