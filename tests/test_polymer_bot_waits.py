"""A real-time bot seat with nothing to do now keeps its turn to think (issue 27 item 11).

In Polymer a seat that lent every card and called the loan in has nothing it may do
until it is repaid (``rules/polymer/table.py``, ``_stuck``). The service's bot seat in
that position must look again after a think time, not stop for the rest of the game:
once repaid it trades again. ``realtime.bot_turn`` is the due work every worker runs.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules.core import At, RuleViolation
from rules.registry import GAMES
from service import create_app
from service.api.operations import Table, _bot
from service.games.play import new_game
from service.games.registry import GameApi
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


def test_a_bot_move_asked_for_in_the_last_millisecond_is_no_move_not_an_undeclared_code() -> None:
    """With a millisecond left Polymer's bot waits for the end (``time_up``, on the game's
    own clock); the service makes a bot's move at the server's time, when time is not up
    yet. The bot-move operation answered ``422 timer_running``, a code it does not
    declare; the seat has nothing it may do at that instant: ``no_move``."""
    api = GameApi(GAMES["polymer"])
    env = new_game(api, 5, {"timer_seconds": 1}, seed=3)
    state = env.state
    for seat in range(5):
        state, _ = api.game.apply(state, seat, {"type": "ready", "at": 1_000})
    last = int(state["deadline_ms"]) - 1
    state = {**state, "now_ms": last}
    with pytest.raises(RuleViolation) as err:
        _bot(Table(api, replace(env, state=state), last), 0, {"bot": "trading"})
    assert err.value.code == "no_move" and err.value.code in api.game.info.codes_at(At.BOT)
    assert "Time is not up yet" in err.value.message
