"""The benchmarks' floor (bench/floor_app.py) does the service's own work, and only it.

bench/README.md compares the service with this floor to show what its framework costs
and what no change to it could save; a floor that did less than the service (or
something else) would make that comparison a lie.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from bench.floor_app import create_app as floor_app

from .conftest import KEY_A, auth, make_settings

SLUG = "element-draft"


@pytest.fixture()
def floor(redis_url: str) -> FlaskClient:
    return floor_app(make_settings(KEY_A, redis_url=redis_url)).test_client()


def _without_token(answer: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in answer.items() if name != "token"}


def test_the_floors_work_answers_a_stateless_game_as_the_service_does(
    client: FlaskClient, floor: FlaskClient
) -> None:
    setup = client.post(f"/v1/{SLUG}/setup", json={"players": 3, "seed": 5}).get_json()
    seats = {s["seat"]: auth(s["seat_token"]) for s in setup["seats"]}
    token, to_act, moves = setup["token"], setup["to_act"], 0
    while to_act and moves < 12:
        seat = to_act[0]
        asked = {"token": token, "seat": seat}
        legal = client.post(f"/v1/{SLUG}/legal-moves", json=asked, headers=seats[seat])
        floored = floor.post(f"/work/v1/{SLUG}/legal-moves", json=asked, headers=seats[seat])
        assert floored.status_code == 200 and floored.get_json() == legal.get_json()
        body = {**asked, "move": legal.get_json()["moves"][-1]}
        served = client.post(f"/v1/{SLUG}/moves", json=body, headers=seats[seat]).get_json()
        worked = floor.post(f"/work/v1/{SLUG}/moves", json=body, headers=seats[seat])
        assert worked.status_code == 200
        assert _without_token(worked.get_json()) == _without_token(served)
        # the floor's token is a sealed game the service plays on, like its own
        again = {"token": worked.get_json()["token"], "seat": served["to_act"][0]}
        viewed = client.post(f"/v1/{SLUG}/view", json=again, headers=seats[again["seat"]])
        assert viewed.status_code == 200
        for rung in ("echo", "limit", "token"):
            answer = floor.post(f"/{rung}/v1/{SLUG}/moves", json=body, headers=seats[seat])
            assert answer.status_code == 200 and answer.get_json()["seat"] == seat
        token, to_act, moves = served["token"], served["to_act"], moves + 1
    assert moves == 12


def test_the_floors_work_checks_what_the_service_checks(
    client: FlaskClient, floor: FlaskClient
) -> None:
    setup = client.post(f"/v1/{SLUG}/setup", json={"players": 3, "seed": 5}).get_json()
    seat = setup["to_act"][0]
    other = auth(setup["seats"][(seat + 1) % 3]["seat_token"])
    asked = {"token": setup["token"], "seat": seat}
    refused = floor.post(f"/work/v1/{SLUG}/legal-moves", json=asked, headers=other)
    assert refused.get_json() == {"code": "seat_token_invalid"}
    mine = auth(setup["seats"][seat]["seat_token"])
    for move in ({"type": "select"}, {"type": "no such move"}, "select"):
        body = {**asked, "move": move}
        served = client.post(f"/v1/{SLUG}/moves", json=body, headers=mine).get_json()
        floored = floor.post(f"/work/v1/{SLUG}/moves", json=body, headers=mine).get_json()
        assert floored == {"code": served["code"]}


def test_the_floors_hosted_work_plays_a_polymer_session(
    client: FlaskClient, floor: FlaskClient
) -> None:
    made = client.post(
        "/v1/polymer/sessions",
        json={"players": 5, "seed": 2, "options": {"timer_seconds": 3600}},
    ).get_json()
    sid, seats = made["session_id"], {s["seat"]: auth(s["seat_token"]) for s in made["seats"]}
    started = client.post(
        f"/v1/polymer/sessions/{sid}/start", headers=auth(made["host_token"])
    ).get_json()
    hand = client.get(f"/v1/polymer/sessions/{sid}?seat=0", headers=seats[0]).get_json()
    card = hand["view"]["you"]["hand"][0]["id"]
    body = {
        "seat": 0,
        "version": started["version"],
        "move": {"type": "lend", "to": 1, "cards": [card]},
    }
    lent = floor.post(f"/work/v1/polymer/sessions/{sid}/moves", json=body, headers=seats[0])
    assert lent.status_code == 200, lent.get_json()
    assert lent.get_json()["events"][0]["type"] == "loan_made"
    # committed in Redis: the service sees the loan and the version it moved to
    after = client.get(f"/v1/polymer/sessions/{sid}?seat=1", headers=seats[1]).get_json()
    assert after["version"] == lent.get_json()["version"] > started["version"]
    stale = floor.post(f"/work/v1/polymer/sessions/{sid}/moves", json=body, headers=seats[0])
    assert stale.get_json() == {"code": "stale_version"}
    # the round trips alone change nothing
    echoed = floor.post(f"/trips/v1/polymer/sessions/{sid}/moves", json=body, headers=seats[0])
    assert echoed.status_code == 200 and echoed.get_json() == body
    again = client.get(f"/v1/polymer/sessions/{sid}?seat=1", headers=seats[1]).get_json()
    clock = ("server_now", "server_now_ms")
    assert {k: v for k, v in again.items() if k not in clock} == {
        k: v for k, v in after.items() if k not in clock
    }
