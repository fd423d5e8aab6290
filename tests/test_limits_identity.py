"""Who a rate limit counts, and what an allowed answer says of it (issue 27 item 11).

Tests only (service/school/limits.py is another piece's): with no trusted proxy, a client's
own ``X-Forwarded-For`` names nobody, so it cannot buy a fresh budget per request; the
``X-RateLimit-*`` headers of an allowed hosted creation made with an operator key are
those of the budget closest to its end (the operator's, or the address's).
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from flask import Flask

from service import create_app

from .conftest import KEY_A, TEST_PREFIX, auth, make_settings

pytestmark = pytest.mark.redis
KEY = "identity-operator"


def limited_app(redis_url: str, **settings: Any) -> Flask:
    return create_app(
        make_settings(
            KEY_A,
            redis_url=redis_url,
            redis_key_prefix=f"{TEST_PREFIX}{uuid.uuid4().hex[:6]}:",
            rate_limits_enabled=True,
            **settings,
        )
    )


def setups(app: Flask, forwarded: list[str], remote: str = "203.0.113.7") -> list[int]:
    c = app.test_client()
    return [
        c.post(
            "/v1/element-draft/setup",
            json={"players": 2},
            headers={"X-Forwarded-For": xff},
            environ_base={"REMOTE_ADDR": remote},
        ).status_code
        for xff in forwarded
    ]


def test_without_a_trusted_proxy_x_forwarded_for_names_nobody(redis_url: str) -> None:
    """FORWARDED_HOPS=0 (the default): every request from one address draws on that
    address's budget, whatever X-Forwarded-For it makes up."""
    app = limited_app(redis_url, rate_limit_setup="3 per minute")
    made_up = [f"198.51.100.{i}" for i in range(5)]
    assert setups(app, made_up) == [201, 201, 201, 429, 429]
    # another address has a budget of its own
    assert setups(app, made_up[:1], remote="203.0.113.8") == [201]


def test_behind_one_trusted_proxy_the_client_it_saw_is_counted(redis_url: str) -> None:
    """FORWARDED_HOPS=1: the address the proxy saw (its X-Forwarded-For) is the client,
    so the clients behind one proxy each have their budget; one of them still has only
    its own."""
    app = limited_app(redis_url, rate_limit_setup="3 per minute", forwarded_hops=1)
    assert setups(app, [f"198.51.100.{i}" for i in range(5)]) == [201] * 5
    assert setups(app, ["198.51.100.9"] * 5) == [201, 201, 201, 429, 429]


@pytest.mark.parametrize(
    ("setup", "operator", "bound"),
    [("10 per minute", "3 per minute", "3 per 1 minute"),
     ("3 per minute", "10 per minute", "3 per 1 minute")],
)  # fmt: skip
def test_an_allowed_creation_with_an_operator_key_says_the_budget_nearest_its_end(
    redis_url: str, setup: str, operator: str, bound: str
) -> None:
    """A hosted creation with an operator key draws on two budgets, the address's and the
    operator's: its headers say the one with the fewest requests left, and count down."""
    app = limited_app(
        redis_url,
        operator_keys=(KEY,),
        rate_limit_setup=setup,
        rate_limit_operator_sessions=operator,
    )
    c = app.test_client()
    seen = []
    for _ in range(3):
        answer = c.post("/v1/element-draft/sessions", json={"players": 2}, headers=auth(KEY))
        assert answer.status_code == 201, answer.get_json()
        seen.append(
            (answer.headers["X-RateLimit-Limit"], int(answer.headers["X-RateLimit-Remaining"]))
        )
        # whole again once this minute's count has slid out: by the end of the next one
        reset = int(answer.headers["X-RateLimit-Reset"])
        assert time.time() < reset <= time.time() + 2 * 60 + 1
    assert seen == [(bound, 2), (bound, 1), (bound, 0)]
    refused = c.post("/v1/element-draft/sessions", json={"players": 2}, headers=auth(KEY))
    assert refused.status_code == 429 and refused.headers["X-RateLimit-Limit"] == bound
