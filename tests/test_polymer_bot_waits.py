"""A real-time bot seat with nothing to do now keeps its turn to think (issue 27 item 11).

In Polymer a seat that lent every card and called the loan in has nothing it may do
until it is repaid (``rules/polymer/table.py``, ``_stuck``). The service's bot seat in
that position must look again after a think time, not stop for the rest of the game:
once repaid it trades again. ``realtime.bot_turn`` is the due work every worker runs.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.sessions import realtime

from .conftest import KEY_A, auth, make_settings

pytestmark = pytest.mark.redis
KEY = "bot-waits-operator"
BASE = "/v1/polymer/sessions"


@pytest.fixture(scope="module")
def app(redis_url: str) -> Flask:
    # an operator: a game against bot seats gives it the host token, to set the table up
    return create_app(make_settings(KEY_A, redis_url=redis_url, operator_keys=(KEY,)))


def move(c: FlaskClient, sid: str, host: str, seat: int, version: int, made: Any) -> Any:
    answer = c.post(
        f"{BASE}/{sid}/moves",
        json={"seat": seat, "version": version, "move": made},
        headers=auth(host),
    )
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_a_bot_seat_with_nothing_to_do_acts_again_once_it_may(app: Flask) -> None:
    c = app.test_client()
    made = c.post(
        BASE,
        json={"players": 5, "seed": 3, "bots": {"1": "trading"}, "options": {"timer_seconds": 600}},
        headers=auth(KEY),
    ).get_json()
    sid, host = made["session_id"], made["host_token"]
    version = c.post(f"{BASE}/{sid}/start", headers=auth(host)).get_json()["version"]
    # the host makes the bot seat lend its whole hand to seat 0 and call it in: seat 1
    # now has no card, no offer and no loan to call; it waits for its repayment
    hand = [card["id"] for card in c.get(f"{BASE}/{sid}?seat=1", headers=auth(host)).get_json()[
        "view"]["you"]["hand"]]  # fmt: skip
    lent = move(c, sid, host, 1, version, {"type": "lend", "to": 0, "cards": hand})
    loan = lent["view"]["loans"][0]["id"]
    called = move(c, sid, host, 1, lent["version"], {"type": "call_loan", "loan": loan})
    assert 1 not in called["to_act"]

    payload = f"polymer/{sid}/1"
    with app.app_context():
        now = app.extensions["chemgames.store"].now_ms(sid)
        again = realtime.bot_turn(payload)
    assert again is not None and again > now, "the bot looks again after a think time"
    assert c.get(f"{BASE}/{sid}").get_json()["version"] == called["version"]  # no move

    # repaid, the bot seat has cards again: its next turn to think makes a move
    repaid = move(
        c, sid, host, 0, called["version"], {"type": "repay", "loan": loan, "cards": hand}
    )
    assert 1 in repaid["to_act"]
    with app.app_context():
        after = realtime.bot_turn(payload)
    assert after is not None
    session = c.get(f"{BASE}/{sid}").get_json()
    assert session["version"] == repaid["version"] + 1, "the bot seat moved"
    record = c.get(f"{BASE}/{sid}/record", headers=auth(host)).get_json()["record"]
    assert record["steps"][-1]["seat"] == 1 and record["steps"][-1]["bot"] == "trading"
