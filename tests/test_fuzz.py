"""Never a 500: arbitrary JSON at every endpoint, and arbitrary moves with valid seats."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.problems import PROBLEM_JSON

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(
    ["players", "options", "seed", "token", "seat", "seat_token", "move", "version", "bot",
     "host_token", "patterns", "words", "deal", "type", "card", "to", "give", "ask", "cards",
     "loan", "offer", "trade", "timer_seconds", "bismuth_radioactive"]
)  # fmt: skip
bodies = st.dictionaries(KEYS, json_values, max_size=6) | json_values


def assert_problem_or_ok(resp: Any) -> None:
    assert resp.status_code < 500, resp.get_data(as_text=True)[:400]
    if resp.status_code >= 400:
        assert resp.mimetype == PROBLEM_JSON and resp.get_json()["code"]


@pytest.fixture(scope="module")
def post_paths(app: Flask) -> list[str]:
    paths = []
    for rule in app.url_map.iter_rules():
        if "POST" in (rule.methods or set()):
            paths.append(rule.rule.replace("<session_id>", "0000"))
    return sorted(paths)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(body=bodies, which=st.integers(0, 1000))
def test_arbitrary_json_anywhere(
    client: FlaskClient, post_paths: list[str], body: Any, which: int
) -> None:
    path = post_paths[which % len(post_paths)]
    assert_problem_or_ok(client.post(path, json=body))


@pytest.fixture(scope="module")
def draft(app: Flask) -> dict[str, Any]:
    body = app.test_client().post("/v1/element-draft/setup", json={"players": 3, "seed": 1})
    return body.get_json()  # type: ignore[no-any-return]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(move=st.dictionaries(KEYS, json_values, max_size=4), kind=st.sampled_from(["draft", "x"]))
def test_arbitrary_moves_with_a_valid_seat(
    client: FlaskClient, draft: dict[str, Any], move: dict[str, Any], kind: str
) -> None:
    body = {
        "token": draft["token"],
        "seat": 1,
        "seat_token": draft["seats"][1]["seat_token"],
        "move": {"type": kind, **{k: v for k, v in move.items() if k != "type"}},
    }
    assert_problem_or_ok(client.post("/v1/element-draft/moves", json=body))


@pytest.fixture(scope="module")
def polymer(app: Flask) -> dict[str, Any]:
    c = app.test_client()
    setup = c.post("/v1/polymer/setup", json={"players": 5, "seed": 1}).get_json()
    c.post(
        f"/v1/polymer/sessions/{setup['session_id']}/start",
        json={"host_token": setup["host_token"]},
    )
    return setup  # type: ignore[no-any-return]


POLYMER_TYPES = ["offer", "accept", "decline", "withdraw", "propose_undo", "lend", "call_loan",
                 "repay", "ready", "time_up"]  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    move=st.dictionaries(
        KEYS, json_values | st.lists(st.integers(-5, 110), max_size=4), max_size=4
    ),
    kind=st.sampled_from(POLYMER_TYPES),
    patterns=json_values,
)
def test_arbitrary_polymer_moves_and_declarations(
    client: FlaskClient, polymer: dict[str, Any], move: dict[str, Any], kind: str, patterns: Any
) -> None:
    sid = polymer["session_id"]
    auth = {"seat": 2, "seat_token": polymer["seats"][2]["seat_token"]}
    version = client.get(f"/v1/polymer/sessions/{sid}").get_json()["version"]
    body = {**auth, "version": version, "move": {**move, "type": kind}}
    assert_problem_or_ok(client.post(f"/v1/polymer/sessions/{sid}/moves", json=body))
    declared = client.post(
        f"/v1/polymer/sessions/{sid}/arrangement", json={**auth, "patterns": patterns}
    )
    assert_problem_or_ok(declared)
    assert_problem_or_ok(client.post(f"/v1/polymer/sessions/{sid}/legal-moves", json=auth))
