"""Rate limits (issue 17): a burst far over them is refused with 429 problem+json and the
rate-limit headers; a class of 30 behind one school address, within the defaults, never
is. Each test has its own counters (a prefix of its own in the test run's Redis)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from flask import Flask

from service import create_app

from .conftest import KEY_A, TEST_PREFIX, auth, checked, make_settings

pytestmark = pytest.mark.redis


def limited_app(redis_url: str, **settings: Any) -> Flask:
    prefix = f"{TEST_PREFIX}{uuid.uuid4().hex[:6]}:"
    return checked(
        create_app(
            make_settings(
                KEY_A,
                redis_url=redis_url,
                redis_key_prefix=prefix,
                rate_limits_enabled=True,
                **settings,
            )
        )
    )


def test_a_burst_over_the_setup_budget_is_refused_with_429(redis_url: str) -> None:
    c = limited_app(redis_url, rate_limit_setup="5 per minute").test_client()
    answers = [c.post("/v1/element-draft/setup", json={"players": 2}) for _ in range(8)]
    assert [a.status_code for a in answers] == [201] * 5 + [429] * 3
    refused = answers[-1]
    assert refused.mimetype == "application/problem+json"
    body = refused.get_json()
    assert (
        body["code"] == "rate_limited"
        and body["status"] == 429
        and "5 per 1 minute" in body["detail"]
    )
    assert int(refused.headers["Retry-After"]) > 0
    assert refused.headers["X-RateLimit-Limit"] and refused.headers["X-RateLimit-Remaining"] == "0"
    ok = answers[0]
    assert ok.headers["X-RateLimit-Remaining"] == "4", "answers say what is left"
    # the budget is shared by both modes: hosted creation draws on it too
    hosted = c.post("/v1/element-draft/sessions", json={"players": 2})
    assert hosted.status_code == 429


def test_moves_have_a_budget_of_their_own_across_games_and_modes(redis_url: str) -> None:
    c = limited_app(redis_url, rate_limit_moves="6 per minute").test_client()
    made = c.post("/v1/chemistry-battle/setup", json={"players": 2, "seed": 1}).get_json()
    token, me = made["token"], auth(made["seats"][0]["seat_token"])
    codes = []
    for _ in range(8):
        seat = made["to_act"][0] if made["to_act"] else 0
        me = auth(made["seats"][seat]["seat_token"])
        resp = c.post(
            "/v1/chemistry-battle/bot-move", json={"token": token, "seat": seat}, headers=me
        )
        codes.append(resp.status_code)
        if resp.status_code == 200:
            made = {**made, **resp.get_json()}
            token = made["token"]
    assert codes[:6] == [200] * 6 and codes[6:] == [429, 429]
    # views, legal moves and scores draw on no budget
    view = c.post("/v1/chemistry-battle/view", json={"token": token})
    assert view.status_code == 200


def test_an_operator_has_a_budget_of_sessions_wherever_it_creates_them(redis_url: str) -> None:
    app = limited_app(
        redis_url, operator_keys=("lms-key",), rate_limit_operator_sessions="3 per minute"
    )
    c = app.test_client()
    codes = [
        c.post(
            "/v1/element-draft/sessions",
            json={"players": 2},
            headers=auth("lms-key"),
            environ_base={"REMOTE_ADDR": f"10.0.0.{i}"},  # from several addresses
        ).status_code
        for i in range(5)
    ]
    assert codes == [201, 201, 201, 429, 429]


def test_a_class_of_30_behind_one_address_plays_without_a_429(redis_url: str) -> None:
    """30 students behind one school NAT, each starting a hosted game against a bot and
    playing it to the end, all within a minute: far faster than a class plays, with the
    default budgets (README, OPERATIONS)."""
    c = limited_app(redis_url).test_client()
    refused = []
    games = []
    for _student in range(30):
        made = c.post("/v1/element-draft/sessions", json={"players": 2, "bots": {"1": "greedy"}})
        refused += [made.get_json()] if made.status_code == 429 else []
        games.append(made.get_json())
    for game in games:
        url = f"/v1/element-draft/sessions/{game['session_id']}"
        me = auth(game["seats"][0]["seat_token"])
        version = game["version"]
        while True:
            legal = c.post(f"{url}/legal-moves", json={"seat": 0}, headers=me).get_json()
            if not legal["moves"]:
                break
            move = {"seat": 0, "version": version, "move": legal["moves"][0]}
            resp = c.post(f"{url}/moves", json=move, headers=me)
            if resp.status_code == 429:
                refused.append(resp.get_json())
                break
            version = resp.get_json()["version"]
        assert c.get(f"{url}/scores").status_code == 200
    assert refused == []


def test_the_embedded_redis_socket_url_is_a_limits_storage_too() -> None:
    """`make serve`'s embedded Redis is a unix socket: the limiter must accept its URL
    (it did not, and every worker failed to boot)."""
    app = create_app(
        make_settings(KEY_A, redis_url="unix:///tmp/no-such-redis.sock", rate_limits_enabled=True)
    )
    assert app.extensions["chemgames.limiter"] is not None
    # with that Redis unreachable, play goes on: the limiter lets requests through
    assert app.test_client().post("/v1/element-draft/setup", json={"players": 2}).status_code == 201
