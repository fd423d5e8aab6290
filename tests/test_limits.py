"""Rate limits (issue 17): a burst far over them is refused with 429 problem+json and the
rate-limit headers; a class of 30 behind one school address, within the defaults, never
is. Each test has its own counters (a prefix of its own in the test run's Redis)."""

from __future__ import annotations

import doctest
import uuid
from typing import Any

import pytest
from flask import Flask

from service import create_app
from service.school import limits

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
    # views, legal moves and scores draw on the reads budget, not on the moves'
    view = c.post("/v1/chemistry-battle/view", json={"token": token})
    assert view.status_code == 200 and view.headers["X-RateLimit-Limit"] == "2400 per 1 minute"


def hosted_table(c: Any) -> tuple[str, dict[int, dict[str, str]], int]:
    """A 2-seat element-draft session: its URL, each seat's credential, its version."""
    made = c.post("/v1/element-draft/sessions", json={"players": 2, "seed": 3}).get_json()
    seats = {s["seat"]: auth(s["seat_token"]) for s in made["seats"]}
    return f"/v1/element-draft/sessions/{made['session_id']}", seats, made["version"]


def first_legal(c: Any, base: str, seat: int, me: dict[str, str], version: int) -> dict[str, Any]:
    """The body of ``seat``'s first legal move on ``version``."""
    legal = c.post(f"{base}/legal-moves", json={"seat": seat}, headers=me).get_json()
    return {"seat": seat, "version": version, "move": legal["moves"][0]}


@pytest.mark.every_redis
def test_a_hosted_move_is_counted_with_its_sessions_load_and_refused_before_it_applies(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One server: the moves budget is drawn in the round trip that loads the session
    (no draw of its own); a cluster draws on its own. Either way the fourth move of a
    3-a-minute budget is 429 and changes nothing."""
    app = limited_app(redis_url, rate_limit_moves="3 per minute")
    separate: list[str] = []
    draw = limits.RedisCounter.draw

    def drawing(*a: Any, **kw: Any) -> limits.Decision:
        separate.append(a[1].scope)
        return draw(*a, **kw)

    monkeypatch.setattr(limits.RedisCounter, "draw", drawing)
    c = app.test_client()
    base, seats, version = hosted_table(c)
    answers = []
    for turn in range(4):
        seat = turn % 2
        move = first_legal(c, base, seat, seats[seat], version)
        answers.append(c.post(f"{base}/moves", json=move, headers=seats[seat]))
        version = answers[-1].get_json().get("version", version)
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert answers[-1].get_json()["code"] == "rate_limited"
    assert int(answers[-1].headers["Retry-After"]) > 0
    view = c.get(base).get_json()
    assert view["version"] == 3, "the refused move was not applied"
    on_cluster = app.extensions["chemgames.redis"].kind == "cluster"
    assert separate.count("moves") == (4 if on_cluster else 0)


def test_a_server_that_lost_its_scripts_counts_a_move_once(redis_url: str) -> None:
    """After a restart or a failover the server has no scripts: the load's pipeline
    loads them and runs again only what did not run, so the move counts once."""
    app = limited_app(redis_url, rate_limit_moves="3 per minute")
    backend = app.extensions["chemgames.redis"]
    if backend.kind == "cluster":
        pytest.skip("a cluster counts a move's limit on its own (another node)")
    c = app.test_client()
    base, seats, version = hosted_table(c)
    remaining = []
    for turn in range(2):
        seat = turn % 2
        move = first_legal(c, base, seat, seats[seat], version)
        backend.client.script_flush()
        backend.client.script_load(limits._SCRIPT)  # the limit runs; the load does not
        answer = c.post(f"{base}/moves", json=move, headers=seats[seat])
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]
        remaining.append(answer.headers["X-RateLimit-Remaining"])
    assert remaining == ["2", "1"]


def test_a_hosted_move_refused_before_its_session_is_loaded_still_counts(
    redis_url: str,
) -> None:
    """A body refused before the session is read (422) is counted as the request ends;
    past the budget it is the 429 it always was."""
    c = limited_app(redis_url, rate_limit_moves="2 per minute").test_client()
    base, seats, _ = hosted_table(c)
    bad = {"seat": 0, "move": "draft"}
    answers = [c.post(f"{base}/moves", json=bad, headers=seats[0]) for _ in range(3)]
    assert [a.status_code for a in answers] == [422, 422, 429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["1", "0", "0"]
    assert answers[-1].mimetype == "application/problem+json"
    assert answers[-1].get_json()["code"] == "rate_limited"


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


def test_with_its_redis_unreachable_play_goes_on() -> None:
    """`make serve`'s embedded Redis is a unix socket: the limiter counts there like
    anywhere; with that Redis unreachable, requests are let through (and logged)."""
    app = create_app(
        make_settings(KEY_A, redis_url="unix:///tmp/no-such-redis.sock", rate_limits_enabled=True)
    )
    assert isinstance(app.extensions["chemgames.limiter"].counter, limits.RedisCounter)
    c = app.test_client()
    answer = c.post("/v1/element-draft/setup", json={"players": 2, "seed": 1})
    assert answer.status_code == 201 and "X-RateLimit-Remaining" not in answer.headers
    # a move carries a credential: its two draws (one round trip) are let through too
    made = answer.get_json()
    seat = made["to_act"][0]
    moved = c.post(
        "/v1/element-draft/bot-move",
        json={"token": made["token"], "seat": seat},
        headers=auth(made["seats"][seat]["seat_token"]),
    )
    assert moved.status_code == 200 and "X-RateLimit-Remaining" not in moved.headers


def test_without_redis_the_counts_are_kept_in_the_process() -> None:
    app = create_app(
        make_settings(KEY_A, redis_url="", rate_limits_enabled=True, rate_limit_setup="2/minute")
    )
    c = app.test_client()
    codes = [c.post("/v1/element-draft/setup", json={"players": 2}).status_code for _ in range(3)]
    assert codes == [201, 201, 429]


def test_the_doctests() -> None:
    assert doctest.testmod(limits).failed == 0


SECOND = 1_000


def test_a_sliding_window_weighs_the_previous_windows_share() -> None:
    # 10 per second: 10 in the first window fill it; the 11th waits
    state = None
    for k in range(10):
        counted, state = limits.slide(state, now_ms=5 * SECOND + k, amount=10, window_ms=SECOND)
        assert counted.allowed and counted.remaining == 9 - k
    refused, same = limits.slide(state, now_ms=5 * SECOND + 500, amount=10, window_ms=SECOND)
    assert not refused.allowed and same == state and refused.remaining == 0
    # one more fits once 1 of the 10 has decayed in the next window: at 10% of it
    assert refused.retry_after_ms == 500 + 100
    early, _ = limits.slide(state, now_ms=6 * SECOND + 99, amount=10, window_ms=SECOND)
    assert not early.allowed
    late, _ = limits.slide(state, now_ms=6 * SECOND + 100, amount=10, window_ms=SECOND)
    assert late.allowed and late.remaining == 0
    # two windows on, nothing weighs
    fresh, window = limits.slide(state, now_ms=7 * SECOND + 1, amount=10, window_ms=SECOND)
    assert fresh.remaining == 9 and window == limits.Window(7, 1, 0)
    assert fresh.reset_ms == 9 * SECOND  # the one just counted weighs until window 9


@pytest.mark.every_redis
def test_the_lua_script_counts_as_the_python_arithmetic(redis_url: str) -> None:
    """The same requests, on the same clock, through Redis and through `slide`: the
    same answers (the script is what counts in production; `slide` is what is read)."""
    app = create_app(make_settings(KEY_A, redis_url=redis_url, rate_limits_enabled=True))
    counter = limits.RedisCounter(app.extensions["chemgames.redis"], f"{TEST_PREFIX}lua:")
    budget = limits.Budget.parse("moves", "7 per second; 12 per 3 seconds")
    memory = limits.MemoryCounter()
    who = uuid.uuid4().hex
    start = 1_000_000 * SECOND
    times = [start + t for t in (0, 10, 20, 30, 40, 50, 60, 70, 400, 900, 1_100, 1_150)]
    times += [start + 1_200 + 37 * k for k in range(40)] + [start + 9_000, start + 9_001]
    for now in times:
        in_redis = counter.draw(budget, who, now_ms=now)
        in_python = memory.draw(budget, who, now_ms=now)
        assert in_redis == in_python, now - start


@pytest.mark.every_redis
def test_a_stateless_moves_draw_and_its_credentials_check_share_one_round_trip(
    redis_url: str,
) -> None:
    """A stateless move carries a seat's credential: its moves budget and the address's
    refused-credentials budget are drawn in one script call on one server or a
    Sentinel (one round trip, where issue 27 made it two); a cluster draws each on its
    own node. The counts are the same either way."""
    from bench.harness import RoundTrips

    app = limited_app(redis_url, rate_limit_moves="3 per minute")
    c = app.test_client()
    made = c.post("/v1/chemistry-battle/setup", json={"players": 2, "seed": 1}).get_json()
    token, remaining, trips = made["token"], [], []
    counting = False
    counter = RoundTrips(lambda: counting)
    try:
        for _ in range(4):
            seat = made["to_act"][0]
            me = auth(made["seats"][seat]["seat_token"])
            counter.count, counting = 0, True
            answer = c.post(
                "/v1/chemistry-battle/bot-move", json={"token": token, "seat": seat}, headers=me
            )
            counting = False
            trips.append(counter.count)
            remaining.append(answer.headers["X-RateLimit-Remaining"])
            if answer.status_code == 200:
                made = {**made, **answer.get_json()}
                token = made["token"]
    finally:
        counter.close()
    assert remaining == ["2", "1", "0", "0"]
    on_cluster = app.extensions["chemgames.redis"].kind == "cluster"
    # after the first, which may open a connection to a node first (a cluster's)
    assert trips[1:] == ([2] * 3 if on_cluster else [1] * 3)


def test_a_server_that_lost_its_scripts_counts_a_stateless_move_once(redis_url: str) -> None:
    """The merged draws' script is loaded again when the server lost it, and the move is
    counted once (a script that was not found did not run)."""
    app = limited_app(redis_url, rate_limit_moves="3 per minute")
    backend = app.extensions["chemgames.redis"]
    if backend.kind == "cluster":
        pytest.skip("a cluster draws each budget on its own node")
    c = app.test_client()
    made = c.post("/v1/chemistry-battle/setup", json={"players": 2, "seed": 1}).get_json()
    token, remaining = made["token"], []
    for _ in range(2):
        seat = made["to_act"][0]
        backend.client.script_flush()
        answer = c.post(
            "/v1/chemistry-battle/bot-move",
            json={"token": token, "seat": seat},
            headers=auth(made["seats"][seat]["seat_token"]),
        )
        assert answer.status_code == 200, answer.get_json()
        made = {**made, **answer.get_json()}
        token = made["token"]
        remaining.append(answer.headers["X-RateLimit-Remaining"])
    assert remaining == ["2", "1"]
