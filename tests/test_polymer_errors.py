"""Walk every Polymer problem over HTTP: each gets problem+json with its stable code."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from rules.polymer.game import MAX_OPEN_OFFERS
from service import create_app
from service.http.problems import PROBLEM_JSON

from .conftest import KEY_A, auth, make_settings
from .test_polymer_service import BASE, Table

pytestmark = [pytest.mark.redis, pytest.mark.every_redis]


def started(c: FlaskClient, **options: Any) -> Table:
    t = Table(c, **{"timer_seconds": 600, **options})
    t.start()
    return t


def raw_move(t: Table, seat: int, move: Any, **extra: Any) -> Any:
    body = {"seat": seat, "version": t.version, "move": move}
    return t.client.post(t.url("/moves"), json={**body, **extra}, headers=auth(t.tokens[seat]))


def card(t: Table, seat: int, i: int = 0) -> int:
    return int(t.hand(seat)[i]["id"])


def lent(t: Table, seat: int = 0, to: int = 1) -> int:
    return int(
        t.move(seat, {"type": "lend", "to": to, "cards": [card(t, seat)]})["events"][0]["loan"]
    )


def offered(t: Table, seat: int = 0, to: int = 1, ask: str = "any") -> int:
    move = {"type": "offer", "to": to, "give": [card(t, seat)], "ask": [ask]}
    return int(t.move(seat, move)["events"][0]["offer"])


def traded(t: Table) -> int:
    oid = offered(t)
    body = t.move(1, {"type": "accept", "offer": oid, "give": [card(t, 1)]})
    return int(body["events"][0]["trade"])


def p_host_token_invalid(c: FlaskClient) -> Any:
    t = Table(c)
    return c.post(t.url("/start"), headers=auth(t.tokens[0]))


def p_stale_version(c: FlaskClient) -> Any:
    t = started(c)
    return raw_move(t, 0, {"type": "lend", "to": 1, "cards": [card(t, 0)]}, version=t.version - 1)


def p_session_not_found(c: FlaskClient) -> Any:
    return c.get(f"{BASE}/sessions/0000")


def p_timer_expired(c: FlaskClient) -> Any:
    t = started(c, timer_seconds=1)
    time.sleep(1.05)
    return raw_move(t, 0, {"type": "lend", "to": 1, "cards": [0]})


def p_idempotency_key_reused(c: FlaskClient) -> Any:
    t = started(c)
    body = {"seat": 0, "version": t.version,
            "move": {"type": "lend", "to": 1, "cards": [card(t, 0, 1)]}}  # fmt: skip
    headers = {**auth(t.tokens[0]), "Idempotency-Key": "same"}
    assert c.post(t.url("/moves"), json=body, headers=headers).status_code == 200
    body["move"] = {"type": "lend", "to": 4, "cards": [card(t, 0, 2)]}
    return c.post(t.url("/moves"), json=body, headers=headers)


def p_credentials_missing(c: FlaskClient) -> Any:
    t = started(c)
    body = {"seat": 0, "version": t.version, "move": {"type": "lend", "to": 1, "cards": [0]}}
    return c.post(t.url("/moves"), json=body)


def p_seat_token_invalid(c: FlaskClient) -> Any:
    t = started(c)
    body = {"seat": 0, "version": t.version, "move": {"type": "lend", "to": 1, "cards": [0]}}
    return c.post(t.url("/moves"), json=body, headers=auth(t.tokens[1]))


def p_redis_unavailable(c: FlaskClient) -> Any:
    dead = create_app(make_settings(KEY_A, redis_url="redis://127.0.0.1:1/0"))
    return dead.test_client().post(f"{BASE}/sessions", json={"players": 5})


def p_bad_card(c: FlaskClient) -> Any:
    t = started(c)
    return raw_move(t, 0, {"type": "offer", "to": 1, "give": [card(t, 0)], "ask": ["ZZ"]})


def p_bad_deal(c: FlaskClient) -> Any:
    deal = [["AS"] * 3] * 5
    return c.post(f"{BASE}/sessions", json={"players": 5, "options": {"deal": deal}})


def p_bad_players(c: FlaskClient) -> Any:
    return c.post(f"{BASE}/sessions", json={"players": 4})


def p_bad_option(c: FlaskClient) -> Any:
    return c.post(f"{BASE}/sessions", json={"players": 5, "options": {"timer_seconds": 0}})


def p_unknown_option(c: FlaskClient) -> Any:
    return c.post(f"{BASE}/sessions", json={"players": 5, "options": {"speed": 2}})


def p_not_started(c: FlaskClient) -> Any:
    t = Table(c)
    return raw_move(t, 0, {"type": "lend", "to": 1, "cards": [0]})


def p_already_ready(c: FlaskClient) -> Any:
    t = Table(c)
    t.move(0, {"type": "ready"})
    return raw_move(t, 0, {"type": "ready"})


def p_already_started(c: FlaskClient) -> Any:
    return raw_move(started(c), 0, {"type": "ready"})


def p_timer_running(c: FlaskClient) -> Any:
    return raw_move(started(c), 0, {"type": "time_up"})


def p_not_neighbour(c: FlaskClient) -> Any:
    t = started(c)
    return raw_move(t, 0, {"type": "lend", "to": 2, "cards": [card(t, 0)]})


def p_not_in_hand(c: FlaskClient) -> Any:
    t = started(c)
    return raw_move(t, 0, {"type": "lend", "to": 1, "cards": [card(t, 3)]})


def p_card_named_twice(c: FlaskClient) -> Any:
    t = started(c)
    return raw_move(t, 0, {"type": "lend", "to": 1, "cards": [card(t, 0)] * 2})


def p_uneven_trade(c: FlaskClient) -> Any:
    t = started(c)
    return raw_move(t, 0, {"type": "offer", "to": 1, "give": [card(t, 0)], "ask": ["any", "any"]})


def p_too_many_offers(c: FlaskClient) -> Any:
    t = started(c)
    for i in range(MAX_OPEN_OFFERS):
        t.move(0, {"type": "offer", "to": 1, "give": [card(t, 0, i)], "ask": ["any"]})
    return raw_move(t, 0, {"type": "offer", "to": 1, "give": [card(t, 0)], "ask": ["any"]})


def p_no_such_offer(c: FlaskClient) -> Any:
    return raw_move(started(c), 0, {"type": "decline", "offer": 99})


def p_not_your_offer(c: FlaskClient) -> Any:
    t = started(c)
    return raw_move(t, 2, {"type": "decline", "offer": offered(t)})


def p_ask_not_met(c: FlaskClient) -> Any:
    t = started(c)
    mine = {x["code"] for x in t.hand(1)}
    other = next(x["code"] for x in t.hand(3) if x["code"] not in mine)
    oid = offered(t, ask=other)
    return raw_move(t, 1, {"type": "accept", "offer": oid, "give": [card(t, 1)]})


def p_no_such_trade(c: FlaskClient) -> Any:
    return raw_move(started(c), 0, {"type": "propose_undo", "trade": 42})


def p_not_your_trade(c: FlaskClient) -> Any:
    t = started(c)
    return raw_move(t, 3, {"type": "propose_undo", "trade": traded(t)})


def p_already_undone(c: FlaskClient) -> Any:
    t = started(c)
    tid = traded(t)
    undo = t.move(0, {"type": "propose_undo", "trade": tid})["events"][0]["offer"]
    t.move(1, {"type": "accept", "offer": undo})
    return raw_move(t, 0, {"type": "propose_undo", "trade": tid})


def p_undo_impossible(c: FlaskClient) -> Any:
    t = started(c)
    tid = traded(t)
    got = t.get(1)["view"]["trades"][0]["gave"][0][0]["id"]  # what seat 1 received
    t.move(1, {"type": "lend", "to": 2, "cards": [got]})
    return raw_move(t, 0, {"type": "propose_undo", "trade": tid})


def p_already_proposed(c: FlaskClient) -> Any:
    t = started(c)
    tid = traded(t)
    t.move(0, {"type": "propose_undo", "trade": tid})
    return raw_move(t, 1, {"type": "propose_undo", "trade": tid})


def p_no_such_loan(c: FlaskClient) -> Any:
    return raw_move(started(c), 0, {"type": "call_loan", "loan": 5})


def p_not_your_loan(c: FlaskClient) -> Any:
    t = started(c)
    return raw_move(t, 1, {"type": "call_loan", "loan": lent(t)})


def p_already_called(c: FlaskClient) -> Any:
    t = started(c)
    loan = lent(t)
    t.move(0, {"type": "call_loan", "loan": loan})
    return raw_move(t, 0, {"type": "call_loan", "loan": loan})


def p_loan_called(c: FlaskClient) -> Any:
    t = started(c)
    loan = lent(t)
    t.move(0, {"type": "call_loan", "loan": loan})
    return raw_move(t, 1, {"type": "lend", "to": 2, "cards": [card(t, 1)]})


def p_wrong_repayment(c: FlaskClient) -> Any:
    t = started(c)
    loan = lent(t)
    t.move(0, {"type": "call_loan", "loan": loan})
    return raw_move(t, 1, {"type": "repay", "loan": loan, "cards": [card(t, 1), card(t, 1, 1)]})


def p_no_move(c: FlaskClient) -> Any:
    t = started(c)
    everything = [x["id"] for x in t.hand(0)]
    loan = t.move(0, {"type": "lend", "to": 1, "cards": everything})["events"][0]["loan"]
    t.move(0, {"type": "call_loan", "loan": loan})
    body = {"seat": 0, "version": t.version, "bot": "random"}
    return c.post(t.url("/bot-move"), json=body, headers=auth(t.tokens[0]))


def _declare(c: FlaskClient, patterns: Any, seat: int = 0) -> Any:
    t = started(c)
    return c.post(
        t.url("/arrangement"),
        json={"seat": seat, "patterns": patterns},
        headers=auth(t.tokens[seat]),
    )


def p_bad_patterns(c: FlaskClient) -> Any:
    return _declare(c, "7S 8S")


def p_card_not_in_hand(c: FlaskClient) -> Any:
    t = started(c)
    other = card(t, 2)
    return c.post(
        t.url("/arrangement"),
        json={"seat": 0, "patterns": [[other, card(t, 0)]]},
        headers=auth(t.tokens[0]),
    )


def p_card_used_twice(c: FlaskClient) -> Any:
    t = started(c)
    a, b = card(t, 0), card(t, 0, 1)
    return c.post(
        t.url("/arrangement"),
        json={"seat": 0, "patterns": [[a, b], [a, b]]},
        headers=auth(t.tokens[0]),
    )


def p_not_a_pattern(c: FlaskClient) -> Any:
    t = started(c)
    hand = t.hand(0)
    a = hand[0]
    b = next(x for x in hand if x["rank"] != a["rank"] and x["suit"] != a["suit"])
    return c.post(
        t.url("/arrangement"),
        json={"seat": 0, "patterns": [[a["id"], b["id"]]]},
        headers=auth(t.tokens[0]),
    )


TRIGGERS: dict[str, tuple[int, Callable[[FlaskClient], Any]]] = {
    name.removeprefix("p_"): (0, fn)
    for name, fn in dict(globals()).items()
    if name.startswith("p_")
}
STATUS = {
    "credentials_missing": 401,
    "seat_token_invalid": 403,
    "host_token_invalid": 403,
    "stale_version": 409,
    "session_not_found": 404,
    "timer_expired": 409,
    "redis_unavailable": 503,
}


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_each_polymer_problem(client: FlaskClient, code: str) -> None:
    resp = TRIGGERS[code][1](client)
    assert resp.mimetype == PROBLEM_JSON, (code, resp.data[:300])
    body = resp.get_json()
    assert body["code"] == code, body
    assert resp.status_code == body["status"] == STATUS.get(code, 422), body
    assert body["detail"] and body["type"].endswith(code)
    if code == "redis_unavailable":
        assert int(resp.headers["Retry-After"]) > 0
