"""A view of one method is served by a function that calls it (service/http/views.py):
the same attributes Flask's view function has (what the rate limits and the contract
read), and the same answers, a HEAD on a GET's route included, as Flask's way."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from service import create_app
from service.http.views import OneMethodView

from .conftest import KEY_A, auth, make_settings

pytestmark = pytest.mark.redis


def _apps(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Flask, Flask]:
    made = create_app(make_settings(KEY_A, redis_url=redis_url))
    monkeypatch.setattr(OneMethodView, "direct", False)
    flasks = create_app(make_settings(KEY_A, redis_url=redis_url))
    return made, flasks


def test_every_operation_is_served_directly_with_flasks_attributes(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    direct, flasks = _apps(redis_url, monkeypatch)
    served = 0
    view: Any
    for endpoint, view in direct.view_functions.items():
        cls = getattr(view, "view_class", None)
        if cls is None or not issubclass(cls, OneMethodView):
            continue
        served += 1
        assert view.__qualname__.endswith("served"), endpoint
        theirs: Any = flasks.view_functions[endpoint]
        assert theirs.__qualname__ == "View.as_view.<locals>.view"
        assert {k: v for k, v in vars(view).items() if k != "view_class"} == {
            k: v for k, v in vars(theirs).items() if k != "view_class"
        }
        assert view.view_class.__name__ == theirs.view_class.__name__
        assert view.__name__ == theirs.__name__
    assert served > 7 * 5


def _same(answer: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    headers = [(k, v) for k, v in answer.headers.items() if k not in ("Date", "X-Request-ID")]
    return answer.status_code, headers, answer.get_data()


def test_the_answers_are_flasks(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    direct, flasks = _apps(redis_url, monkeypatch)
    one, other = direct.test_client(), flasks.test_client()
    made = one.post("/v1/element-draft/sessions", json={"players": 2}).get_json()
    base = f"/v1/element-draft/sessions/{made['session_id']}"
    seat = auth(made["seats"][0]["seat_token"])
    requests: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", base, {"headers": seat, "query_string": {"seat": 0}}),
        ("HEAD", base, {"headers": seat, "query_string": {"seat": 0}}),
        ("GET", base + "/scores", {}),
        ("HEAD", base + "/scores", {}),
        ("POST", base + "/legal-moves", {"headers": seat, "json": {"seat": 0}}),
        ("POST", base + "/legal-moves", {"headers": seat, "json": {"seat": "x"}}),
        ("OPTIONS", base + "/moves", {}),
        ("PUT", base + "/moves", {"json": {}}),
        ("POST", "/v1/element-draft/setup", {"json": {"players": "x"}}),
    ]
    for method, url, kw in requests:
        assert _same(one.open(url, method=method, **kw)) == _same(
            other.open(url, method=method, **kw)
        ), (method, url)


def test_a_class_of_more_than_one_method_is_served_flasks_way() -> None:
    from flask import Flask

    class Both(OneMethodView):
        def get(self) -> str:
            return "get"

        def head(self) -> str:
            return "head"

    class One(OneMethodView):
        def get(self) -> str:
            return "get"

    app = Flask(__name__)
    app.add_url_rule("/both", view_func=Both.as_view("both"))
    app.add_url_rule("/one", view_func=One.as_view("one"))
    assert app.view_functions["both"].__qualname__ == "View.as_view.<locals>.view"
    assert app.view_functions["one"].__qualname__.endswith("served")
    c = app.test_client()
    assert c.get("/both").get_data() == b"get" and c.get("/one").get_data() == b"get"
    assert c.head("/both").headers["Content-Length"] == "4"  # its own head method's "head"
    assert c.head("/one").headers["Content-Length"] == "3"  # get's answer, no body
