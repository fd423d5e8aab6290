"""Issue 6 §2: nothing a client can send answers 500; each case has its stable code."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.http.logs import JsonFormatter
from service.http.problems import PROBLEM_JSON

from .conftest import KEY_A, auth, make_settings

ED = "/v1/element-draft"


def problem(resp: Any, status: int, code: str) -> dict[str, Any]:
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    assert resp.mimetype == PROBLEM_JSON
    body: dict[str, Any] = resp.get_json()
    assert body["code"] == code and body["status"] == status
    return body


@pytest.fixture()
def game(client: FlaskClient) -> dict[str, Any]:
    return client.post(f"{ED}/setup", json={"players": 2, "seed": 3}).get_json()  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", [{}, [1], None, 7, True, "x" * 5000])
def test_a_move_type_of_any_json_type_is_unknown_move(
    client: FlaskClient, game: dict[str, Any], kind: Any
) -> None:
    body = {"token": game["token"], "seat": 0, "move": {"type": kind}}
    resp = client.post(f"{ED}/moves", json=body, headers=auth(game["seats"][0]["seat_token"]))
    found = problem(resp, 422, "unknown_move")
    assert len(found["detail"]) < 300  # the bad value is quoted, not echoed whole


@pytest.mark.parametrize("kind", [{}, [1]])
def test_a_move_type_of_any_json_type_in_a_session(client: FlaskClient, kind: Any) -> None:
    made = client.post(f"{ED}/sessions", json={"players": 2, "seed": 3}).get_json()
    url = f"{ED}/sessions/{made['session_id']}/moves"
    body = {"seat": 0, "version": 0, "move": {"type": kind}}
    resp = client.post(url, json=body, headers=auth(made["seats"][0]["seat_token"]))
    problem(resp, 422, "unknown_move")


@pytest.mark.parametrize(
    "text",
    [
        "[" * 1000 + "]" * 1000,
        '{"players": 2, "options": {"words": ' + "[" * 900 + "]" * 900 + "}}",
        "[" * 5000,
    ],
)
def test_deep_nesting_is_a_400_not_a_recursion_error(client: FlaskClient, text: str) -> None:
    resp = client.post(f"{ED}/setup", data=text, content_type="application/json")
    assert resp.status_code == 400 and resp.mimetype == PROBLEM_JSON
    assert resp.get_json()["code"] in ("json_too_deep", "malformed_json")


@pytest.mark.parametrize("players", [2**64, -(2**64), 10**30, 2**63])
def test_huge_player_counts_are_refused_with_a_code(client: FlaskClient, players: int) -> None:
    data = json.dumps({"players": players})
    resp = client.post(f"{ED}/setup", data=data, content_type="application/json")
    assert resp.status_code == 422 and resp.get_json()["code"] in ("invalid_request", "bad_players")


def test_a_huge_version_on_a_session_move_is_refused(client: FlaskClient) -> None:
    made = client.post(f"{ED}/sessions", json={"players": 2, "seed": 3}).get_json()
    url = f"{ED}/sessions/{made['session_id']}/moves"
    data = json.dumps({"seat": 0, "version": 2**64, "move": {"type": "draft", "card": 1}})
    resp = client.post(
        url,
        data=data,
        content_type="application/json",
        headers=auth(made["seats"][0]["seat_token"]),
    )
    problem(resp, 422, "invalid_request")


def test_a_chunked_body_over_the_limit_is_413(client: FlaskClient) -> None:
    big = b'{"players": 2, "x": "' + b"a" * 300_000 + b'"}'
    resp = client.post(
        f"{ED}/setup",
        input_stream=io.BytesIO(big),
        headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    problem(resp, 413, "body_too_large")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [("PUT", "/v1/games", "GET"), ("PUT", f"{ED}/moves", "POST"), ("DELETE", "/healthz", "GET")],
)
def test_a_method_the_url_lacks_is_405_with_allow(
    client: FlaskClient, method: str, path: str, allowed: str
) -> None:
    resp = client.open(path, method=method, json={"a": 1})
    problem(resp, 405, "method_not_allowed")
    assert allowed in resp.headers["Allow"]


class Lines(logging.Handler):
    """Collects the JSON lines the service's log formatter writes."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


def test_an_unexpected_error_logs_one_json_line_with_the_request_id() -> None:
    app: Flask = create_app(make_settings(KEY_A))

    @app.get("/boom")
    def boom() -> Any:
        raise RuntimeError("boom")

    lines = Lines()
    logger = logging.getLogger("chemgames")
    logger.addHandler(lines)
    try:
        resp = app.test_client().get("/boom", headers={"X-Request-ID": "req-42"})
    finally:
        logger.removeHandler(lines)
    body = problem(resp, 500, "internal_error")
    assert body["request_id"] == "req-42"
    errors = [line for line in lines.lines if line["msg"] == "unexpected error"]
    assert len(errors) == 1 and errors[0]["request_id"] == "req-42"
    assert errors[0]["path"] == "/boom" and "RuntimeError: boom" in errors[0]["exc"]


def test_a_broken_chunked_body_is_a_400_not_a_500(client: FlaskClient) -> None:
    from gunicorn.http.errors import ChunkMissingTerminator

    class Broken(io.BytesIO):
        """A chunked body whose framing breaks where gunicorn's reader finds it."""

        def read(self, *args: Any) -> bytes:
            raise ChunkMissingTerminator(b"xx")

        def readinto(self, *args: Any) -> int:
            raise ChunkMissingTerminator(b"xx")

    resp = client.post(
        f"{ED}/setup",
        input_stream=Broken(),
        headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    problem(resp, 400, "bad_http_request")
