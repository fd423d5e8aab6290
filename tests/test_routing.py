"""The hosted sessions' routes found without werkzeug's matcher (service/http/routing.py)
answer what the matcher answers: the same rule and arguments for every path it takes,
and, over HTTP, the same status, headers and body for every request the move route
gets, success and every problem, through this service's lean path (the quick routes,
the answer handed over as it is, the body read from the server's stream, the views
called directly) as through Flask's and werkzeug's whole way. Each pair of requests
starts from the same Redis: the run's keys are dumped before the first and restored
before the second."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import pytest
import redis
from flask import Flask, Response
from flask.views import MethodView
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.exceptions import HTTPException
from werkzeug.test import TestResponse

from service import create_app
from service.http import parsing, routing
from service.http.jsonio import JsonResponse
from service.http.views import OneMethodView

from .conftest import KEY_A, TEST_PREFIX, auth, checked, make_settings
from .test_parsing import _werkzeugs_read

pytestmark = pytest.mark.redis

SEGMENT = st.one_of(
    st.sampled_from(["abc", "A_b-9", "..", ".", "x.y", "%41", "a b", "é", "", "moves", "-"]),
    st.text(alphabet="aZ9_-./%~é", min_size=0, max_size=6),
)
METHODS = st.sampled_from(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"])


@pytest.fixture(scope="module")
def routed(redis_url: str) -> Flask:
    return create_app(make_settings(KEY_A, redis_url=redis_url))


@pytest.fixture(scope="module")
def quick(routed: Flask) -> routing.QuickRoutes:
    return routing.QuickRoutes.of(routed.url_map.iter_rules())


def _matched(app: Flask, method: str, path: str) -> Any:
    adapter = app.url_map.bind("localhost", path_info=path)
    try:
        return adapter.match(path, method, return_rule=True)
    except HTTPException as refused:
        return type(refused)
    except Exception as other:  # a redirect is an HTTPException too; anything else
        return type(other)


def _shapes(app: Flask) -> list[str]:
    return [rule.rule for rule in app.url_map.iter_rules()]


def test_every_hosted_sessions_operation_is_found_without_the_matcher(routed: Flask) -> None:
    routes = routing.QuickRoutes.of(routed.url_map.iter_rules())
    for slug in routed.extensions["chemgames.games"]:
        for method, tail in [("POST", "/moves"), ("POST", "/legal-moves"), ("GET", "")]:
            path = f"/v1/{slug}/sessions/Ab_9-x{tail}"
            found = routes.find(method, path)
            assert found is not None, path
            assert found == _matched(routed, method, path)


@settings(deadline=None)  # a shared machine: no timing is asserted
@given(data=st.data())
def test_a_path_found_is_the_rule_and_arguments_the_map_matches(
    routed: Flask, quick: routing.QuickRoutes, data: st.DataObject
) -> None:
    routes = quick
    shape = data.draw(st.sampled_from(_shapes(routed)))
    parts = shape.split("/")
    path = "/".join(data.draw(SEGMENT) if "<" in part else part for part in parts)
    if data.draw(st.booleans()):
        path += data.draw(st.sampled_from(["/", "/moves", "//", "/x"]))
    method = data.draw(METHODS)
    found = routes.find(method, path)
    if found is not None:
        assert found == _matched(routed, method, path), (method, path)


def test_a_rule_another_could_match_in_its_place_is_left_to_the_matcher() -> None:
    from werkzeug.routing import Map, Rule

    url_map = Map(
        [
            Rule("/v1/a/sessions/<session_id>/moves", methods=["POST"], endpoint="r1"),
            Rule("/v1/a/sessions/special/moves", methods=["POST"], endpoint="r2"),
            Rule("/v1/b/sessions/<session_id>/moves", methods=["POST"], endpoint="r3"),
            Rule("/v1/b/sessions/<session_id>/moves", methods=["GET"], endpoint="other"),
            Rule("/v1/c/<path:rest>", methods=["POST"], endpoint="r4"),
            Rule("/v1/c/sessions/<session_id>/moves", methods=["POST"], endpoint="r5"),
            Rule("/v1/d/sessions/<int:n>/moves", methods=["POST"], endpoint="r6"),
            Rule("/v1/e/sessions/<session_id>/moves", methods=["POST"], endpoint="r7"),
            Rule("/v1/f/sessions/<session_id>/moves", methods=["POST"], endpoint="f"),
            Rule("/v1/f/<session_id>/moves", methods=["POST"], endpoint="f"),
        ]
    )
    routes = routing.QuickRoutes.of(url_map.iter_rules())
    for slug in "acdf":
        assert routes.find("POST", f"/v1/{slug}/sessions/1/moves") is None, slug
    for method, path in [("POST", "/v1/b/sessions/1/moves"), ("GET", "/v1/b/sessions/1/moves")]:
        found = routes.find(method, path)  # the same path, a rule per method
        assert found is not None
        assert found == url_map.bind("x").match(path, method, return_rule=True)
    found = routes.find("POST", "/v1/e/sessions/1/moves")
    assert found is not None and found[1] == {"session_id": "1"}
    assert routes.find("OPTIONS", "/v1/e/sessions/1/moves") is None


def test_url_for_still_builds_in_a_request_found_without_the_matcher(routed: Flask) -> None:
    from flask import url_for

    with routed.test_request_context("/v1/element-draft/sessions/abc/moves", method="POST"):
        from flask.globals import request_ctx

        assert isinstance(request_ctx.url_adapter, routing.RoutedAdapter)
        request_ctx.match_request()
        assert request_ctx.request.view_args == {"session_id": "abc"}
        endpoint = request_ctx.request.url_rule.endpoint
        assert url_for(endpoint, session_id="xyz") == "/v1/element-draft/sessions/xyz/moves"


# ------------------------------------------------------------ the same answers ---
class Snapshot:
    """The run's keys in Redis, dumped, and put back as they were."""

    def __init__(self, url: str, prefix: str) -> None:
        self.db = redis.Redis.from_url(url)
        self.prefix = prefix
        self.saved: list[tuple[bytes, int, bytes]] = []

    def _keys(self) -> list[bytes]:
        return list(self.db.scan_iter(match=f"{self.prefix}*", count=1000))

    def take(self) -> None:
        self.saved = []
        for key in self._keys():
            dumped = self.db.dump(key)
            if dumped is not None:
                self.saved.append((key, max(0, int(self.db.pttl(key))), dumped))

    def put_back(self) -> None:
        keys = self._keys()
        if keys:
            self.db.delete(*keys)
        for key, ttl, dumped in self.saved:
            self.db.restore(key, ttl, dumped, replace=True)


def _comparable(answer: TestResponse) -> tuple[int, list[tuple[str, str]], bytes]:
    headers = [
        (name, "<id>" if name == "X-Request-ID" else value)
        for name, value in answer.headers.items()
        if name != "Date"
    ]
    return answer.status_code, headers, answer.get_data()


Send = Callable[[], TestResponse]


@contextmanager
def full_path(app: Flask) -> Iterator[None]:
    """``app`` serving requests Flask's and werkzeug's whole way: the matcher, werkzeug's
    answer, the body read through werkzeug's stream, the views through MethodView."""
    as_flask: Any = MethodView.as_view.__func__  # type: ignore[attr-defined]
    views = {}
    for endpoint, view in app.view_functions.items():
        cls: Any = getattr(view, "view_class", None)
        if isinstance(cls, type) and issubclass(cls, OneMethodView):
            views[endpoint] = as_flask(cls, view.__name__)
    lean = {endpoint: app.view_functions[endpoint] for endpoint in views}
    answer, body = JsonResponse.__dict__["get_wsgi_response"], parsing.read_body
    app.quick_routing = False  # type: ignore[attr-defined]
    JsonResponse.get_wsgi_response = Response.get_wsgi_response  # type: ignore[method-assign]
    parsing.read_body = _werkzeugs_read
    app.view_functions.update(views)
    try:
        yield
    finally:
        app.quick_routing = True  # type: ignore[attr-defined]
        JsonResponse.get_wsgi_response = answer  # type: ignore[method-assign]
        parsing.read_body = body
        app.view_functions.update(lean)


@pytest.fixture()
def pair(redis_url: str) -> Iterator[Callable[[Flask, Send], TestResponse]]:
    prefix = f"{TEST_PREFIX}routing-{uuid.uuid4().hex[:6]}:"
    snapshot = Snapshot(redis_url, prefix)

    def both(app: Flask, send: Send) -> TestResponse:
        """``send`` Flask's and werkzeug's whole way (:func:`full_path`) and this
        service's lean way, from the same Redis: the same answer; the lean one is
        returned (its effects are kept)."""
        snapshot.take()
        with full_path(app):
            full = send()
        snapshot.put_back()
        lean = send()
        assert _comparable(lean) == _comparable(full)
        return lean

    both.prefix = prefix  # type: ignore[attr-defined]
    yield both
    keys = snapshot._keys()
    if keys:
        snapshot.db.delete(*keys)


def _app(redis_url: str, prefix: str, **settings: Any) -> Flask:
    settings.setdefault("rate_limit_moves", "1000 per hour")
    settings.setdefault("rate_limit_setup", "1000 per hour")
    settings.setdefault("rate_limit_reads", "1000 per hour")
    return checked(
        create_app(
            make_settings(
                KEY_A,
                redis_url=redis_url,
                redis_key_prefix=prefix,
                rate_limits_enabled=True,
                cors_origins=("https://front.example",),
                max_body_bytes=4096,
                **settings,
            )
        )
    )


def test_every_answer_of_the_move_route_is_the_full_paths(
    redis_url: str, pair: Callable[[Flask, Send], TestResponse], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(redis_url, pair.prefix)  # type: ignore[attr-defined]
    found: list[str] = []
    real = routing.RoutedAdapter.match

    def counted(self: routing.RoutedAdapter, *args: Any, **kwargs: Any) -> Any:
        found.append("quick")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(routing.RoutedAdapter, "match", counted)
    c = app.test_client()
    made = c.post("/v1/element-draft/sessions", json={"players": 2}).get_json()
    sid, version = made["session_id"], made["version"]
    seat = auth(made["seats"][0]["seat_token"])
    other = auth(made["seats"][1]["seat_token"])
    url = f"/v1/element-draft/sessions/{sid}/moves"
    move = c.post(f"/v1/element-draft/sessions/{sid}/legal-moves", json={"seat": 0}, headers=seat)
    first, second = move.get_json()["moves"][:2]
    body = {"seat": 0, "version": version, "move": first}
    keyed = {**seat, "Idempotency-Key": "k-1"}
    origin = {"Origin": "https://front.example"}

    def post(data: Any = None, headers: dict[str, str] | None = None, **kw: Any) -> Send:
        raw = orjson.dumps(body) if data is None else data
        kw.setdefault("content_type", "application/json")
        # the body ended by the server, as gunicorn's environ says (read_body's case)
        kw.setdefault("environ_overrides", {"wsgi.input_terminated": True})
        return lambda: c.post(url, data=raw, headers=headers or {}, **kw)

    cases: list[tuple[str, Send, int]] = [
        ("bad json", post(b"{", seat), 400),
        ("too deep", post(b"[" * 40 + b"]" * 40, seat), 400),
        ("not json", post(b"seat=0", seat, content_type="text/plain"), 415),
        ("no body member", post(b"{}", seat), 422),
        ("unknown member", post(orjson.dumps({**body, "x": 1}), seat), 422),
        ("no token", post(None, {}), 401),
        ("bad scheme", post(None, {"Authorization": "Basic abc"}), 401),
        ("wrong seat's token", post(None, other), 403),
        ("bad token", post(None, auth("nope")), 403),
        ("stale", post(orjson.dumps({**body, "version": version + 5}), seat), 409),
        ("bad key", post(None, {**seat, "Idempotency-Key": "é"}), 422),
        ("too large", post(b'{"seat": 0, "x": "' + b"a" * 5000 + b'"}', seat), 413),
        (
            "unknown session",
            lambda: c.post(url.replace(sid, "nosuch"), json=body, headers=seat),
            404,
        ),
        ("head", lambda: c.head(url, headers=seat), 405),
        ("get", lambda: c.get(url, headers=seat), 405),
        (
            "preflight",
            lambda: c.options(
                url,
                headers={**origin, "Access-Control-Request-Method": "POST"},
            ),
            200,
        ),
        ("trailing slash", lambda: c.post(url + "/", json=body, headers=seat), 404),
        (
            "websocket",
            post(None, {**seat, "Connection": "Upgrade", "Upgrade": "websocket"}),
            400,
        ),
        ("odd id", lambda: c.post(url.replace(sid, "a.b"), json=body, headers=seat), 404),
        ("with an origin", post(None, {**keyed, **origin, "X-Request-ID": "mine-1"}), 200),
        ("replayed", post(None, {**keyed, **origin, "Accept-Encoding": "gzip"}), 200),
        ("key reused", post(orjson.dumps({**body, "move": second}), keyed), 422),
        ("moved again, stale", post(None, seat), 409),
    ]
    for name, send, status in cases:
        found.clear()
        answer = pair(app, send)
        assert answer.status_code == status, (name, answer.get_json())
        if name in ("bad json", "with an origin", "stale", "replayed"):
            assert found, f"{name}: not found by the quick routes"
    assert c.post(url, json=body, headers=keyed).headers["Idempotent-Replayed"] == "true"


def test_a_rate_limited_move_is_the_full_paths(
    redis_url: str, pair: Callable[[Flask, Send], TestResponse]
) -> None:
    app = _app(redis_url, pair.prefix, rate_limit_moves="1 per hour")  # type: ignore[attr-defined]
    c = app.test_client()
    made = c.post("/v1/element-draft/sessions", json={"players": 2}).get_json()
    url = f"/v1/element-draft/sessions/{made['session_id']}/moves"
    seat = auth(made["seats"][0]["seat_token"])
    body = {"seat": 0, "version": made["version"] + 3, "move": {"kind": "pass"}}
    assert pair(app, lambda: c.post(url, json=body, headers=seat)).status_code != 429
    refused = pair(app, lambda: c.post(url, json=body, headers=seat))
    assert refused.status_code == 429 and "Retry-After" in refused.headers
