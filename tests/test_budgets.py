"""Every endpoint has a budget (issue 27, item 3): reads, refused credentials, and what
a window promises. Each test has its own counters (a prefix of its own)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from werkzeug.test import TestResponse

from service.school import limits

from .conftest import auth
from .test_limits import limited_app

pytestmark = pytest.mark.redis


def refused_as(answer: Any, code: str) -> None:
    assert answer.status_code == 429, answer.get_json()
    assert answer.mimetype == "application/problem+json"
    assert answer.get_json()["code"] == code
    assert int(answer.headers["Retry-After"]) > 0
    assert answer.headers["X-RateLimit-Remaining"] == "0"


def test_reads_share_a_budget_of_their_own_in_both_modes(redis_url: str) -> None:
    app = limited_app(redis_url, rate_limit_reads="9 per minute", operator_keys=("k",))
    c = app.test_client()
    made = c.post("/v1/chemistry-battle/setup", json={"players": 2, "seed": 1}).get_json()
    token, me = made["token"], auth(made["seats"][0]["seat_token"])
    hosted = c.post(
        "/v1/chemistry-battle/sessions", json={"players": 2, "seed": 1}, headers=auth("k")
    ).get_json()
    base = f"/v1/chemistry-battle/sessions/{hosted['session_id']}"
    mine = auth(hosted["seats"][0]["seat_token"])
    reads: list[Callable[[], TestResponse]] = [
        lambda: c.post("/v1/chemistry-battle/view", json={"token": token, "seat": 0}, headers=me),
        lambda: c.post(
            "/v1/chemistry-battle/legal-moves", json={"token": token, "seat": 0}, headers=me
        ),
        lambda: c.post("/v1/chemistry-battle/scores", json={"token": token}),
        lambda: c.get(base, query_string={"seat": 0}, headers=mine),
        lambda: c.post(f"{base}/legal-moves", json={"seat": 0}, headers=mine),
        lambda: c.get(f"{base}/scores"),
        lambda: c.get("/v1/operator/sessions", headers=auth("k")),
        lambda: c.get("/v1/games"),
        lambda: c.get("/v1/problems"),
    ]
    answers = [read() for read in reads]
    assert [a.status_code for a in answers] == [200] * 9
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == [str(8 - n) for n in range(9)]
    assert {a.headers["X-RateLimit-Limit"] for a in answers} == {"9 per 1 minute"}
    for read in reads:
        refused_as(read(), "rate_limited")
    # moves, deals and the health probes are not reads
    moved = c.post(f"{base}/bot-move", json={"seat": 0}, headers=mine)
    assert moved.status_code != 429 and "9 per" not in moved.headers["X-RateLimit-Limit"]
    assert c.post("/v1/element-draft/setup", json={"players": 2}).status_code == 201
    assert c.get("/healthz").status_code == 200 and c.get("/readyz").status_code == 200
    # another address is counted on its own
    other = c.get("/v1/games", environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 200


@pytest.mark.parametrize("kind", ["operator key", "host token", "seat token"])
def test_refused_credentials_from_one_address_have_a_small_budget(
    redis_url: str, kind: str
) -> None:
    app = limited_app(redis_url, rate_limit_failed_credentials="3 per minute", operator_keys=("k",))
    c = app.test_client()
    made = c.post(
        "/v1/element-draft/sessions", json={"players": 2, "seed": 2}, headers=auth("k")
    ).get_json()
    base = f"/v1/element-draft/sessions/{made['session_id']}"
    good: Callable[[dict[str, Any]], TestResponse] = {
        "operator key": lambda who: c.get("/v1/operator/sessions", headers=auth("k"), **who),
        "host token": lambda who: c.get(f"{base}/record", headers=auth(made["host_token"]), **who),
        "seat token": lambda who: c.get(
            base, query_string={"seat": 0}, headers=auth(made["seats"][0]["seat_token"]), **who
        ),
    }[kind]
    wrong: Callable[[], TestResponse] = {
        "operator key": lambda: c.get("/v1/operator/sessions", headers=auth("guess")),
        "host token": lambda: c.get(f"{base}/record", headers=auth("guess")),
        "seat token": lambda: c.get(base, query_string={"seat": 0}, headers=auth("guess")),
    }[kind]
    first = [wrong().status_code for _ in range(3)]
    assert first == [403] * 3, "a refused credential is 403 while the budget lasts"
    refused_as(wrong(), "too_many_failed_credentials")
    # the address's credentials are refused for a while, even a good one ...
    here = {"environ_base": {"REMOTE_ADDR": "127.0.0.1"}}
    answer = good(here)
    refused_as(answer, "too_many_failed_credentials")
    assert "credentials" in answer.get_json()["detail"]
    assert answer.headers["X-RateLimit-Limit"] == "3 per 1 minute"
    # ... while what needs none goes on, and another address is served
    assert c.get("/v1/games").status_code == 200
    assert good({"environ_base": {"REMOTE_ADDR": "10.1.2.3"}}).status_code == 200


def test_good_credentials_are_never_counted(redis_url: str) -> None:
    app = limited_app(redis_url, rate_limit_failed_credentials="2 per minute")
    c = app.test_client()
    made = c.post("/v1/element-draft/setup", json={"players": 2, "seed": 2}).get_json()
    me = auth(made["seats"][0]["seat_token"])
    for _ in range(10):
        answer = c.post(
            "/v1/element-draft/view", json={"token": made["token"], "seat": 0}, headers=me
        )
        assert answer.status_code == 200
        # the headers describe the reads budget the request was counted on
        assert answer.headers["X-RateLimit-Limit"] == "2400 per 1 minute"


MINUTE = 60_000


def test_what_a_window_promises() -> None:
    """A budget of N a minute lets through at most N in each clock minute, and fewer than
    2N in any 60 s: a burst from late in one minute into the next (as the attack's 1,944
    moves in 47 s against 1,800 a minute) gets more than N in under a minute."""
    n = 1800
    start = 100 * MINUTE + 13_000  # 13 s into a clock minute, as fast as allowed
    state, admitted = None, []
    for ms in range(start, start + 3 * MINUTE, 5):
        counted, state = limits.slide(state, now_ms=ms, amount=n, window_ms=MINUTE)
        if counted.allowed:
            admitted.append(ms)
    per_clock_minute: dict[int, int] = {}
    for ms in admitted:
        per_clock_minute[ms // MINUTE] = per_clock_minute.get(ms // MINUTE, 0) + 1
    assert max(per_clock_minute.values()) <= n
    # the most in any 60 s span, and in the first 47 s of the burst
    most, j = 0, 0
    for i, ms in enumerate(admitted):
        while admitted[j] <= ms - MINUTE:
            j += 1
        most = max(most, i - j + 1)
    assert n < most < 2 * n
    in_47_s = sum(1 for ms in admitted if ms < start + 47_000 + 13_000)
    assert in_47_s > n
