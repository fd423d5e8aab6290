"""Operators, and the two ways a student could see cards they may not (issue 17).

With ``OPERATOR_KEYS`` set, only an operator creates hosted sessions, lists its own and
ends them. A hosted deal cannot be reproduced from its seed outside the service, and a
game against bot seats created without an operator key gives out no credential that
sees a bot seat's hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.operators import Operators, operator_id

from .conftest import KEY_A, KEY_B, auth, checked, make_settings

pytestmark = pytest.mark.redis

SCHOOL, OTHER = "school-key-7f3a", "other-key-91bc"


@pytest.fixture(scope="module")
def operated(redis_url: str) -> Flask:
    """A deployment with two operator keys."""
    return checked(
        create_app(make_settings(KEY_A, redis_url=redis_url, operator_keys=(SCHOOL, OTHER)))
    )


@pytest.fixture()
def op_client(operated: Flask) -> Iterator[FlaskClient]:
    with operated.test_client() as c:
        yield c


def create(c: FlaskClient, key: str | None, slug: str = "element-draft", **body: Any) -> Any:
    headers = auth(key) if key else {}
    return c.post(f"/v1/{slug}/sessions", json={"players": 2, **body}, headers=headers)


def test_keys_are_kept_as_digests_only() -> None:
    ops = Operators.from_keys((SCHOOL,))
    assert SCHOOL not in repr(ops) and SCHOOL.encode() not in b"".join(d for d, _ in ops.digests)
    assert ops.identify(SCHOOL) == operator_id(SCHOOL) and ops.identify(OTHER) is None
    assert SCHOOL not in repr(make_settings(operator_keys=(SCHOOL,)))


def test_anonymous_creation_is_refused_where_operators_are_configured(
    op_client: FlaskClient,
) -> None:
    missing = create(op_client, None)
    assert missing.status_code == 401 and missing.get_json()["code"] == "credentials_missing"
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = create(op_client, "not-a-key")
    assert wrong.status_code == 403 and wrong.get_json()["code"] == "operator_key_invalid"
    # stateless setup stays open
    assert op_client.post("/v1/element-draft/setup", json={"players": 2}).status_code == 201


def test_an_operator_creates_lists_and_ends_its_sessions(op_client: FlaskClient) -> None:
    made = [create(op_client, SCHOOL, seed=s) for s in range(3)]
    assert all(r.status_code == 201 for r in made)
    ids = [r.get_json()["session_id"] for r in made]
    assert all(r.get_json()["host_token"] for r in made), "an operator gets the host token"
    other = create(op_client, OTHER, "chemistry-battle").get_json()["session_id"]

    listed = op_client.get("/v1/operator/sessions?limit=2", headers=auth(SCHOOL))
    assert listed.status_code == 200, listed.get_json()
    page = listed.get_json()
    assert [s["session_id"] for s in page["sessions"]] == ids[::-1][:2], "newest first"
    first = page["sessions"][0]
    assert first["game"] == "element-draft" and first["players"] == 2
    assert first["phase"] == "playing" and first["finished"] is None and first["created"]
    rest = op_client.get(
        f"/v1/operator/sessions?limit=2&cursor={page['next_cursor']}", headers=auth(SCHOOL)
    ).get_json()
    seen = [s["session_id"] for s in page["sessions"] + rest["sessions"]]
    assert ids[0] in seen and other not in seen, "another operator's session is not listed"

    # another operator can neither see nor end them
    theirs = op_client.get("/v1/operator/sessions", headers=auth(OTHER)).get_json()["sessions"]
    assert [s["session_id"] for s in theirs] == [other]
    refused = op_client.delete(f"/v1/operator/sessions/{ids[0]}", headers=auth(OTHER))
    assert refused.status_code == 404 and refused.get_json()["code"] == "session_not_found"

    ended = op_client.delete(f"/v1/operator/sessions/{ids[0]}", headers=auth(SCHOOL))
    assert ended.status_code == 204
    gone = op_client.get(f"/v1/element-draft/sessions/{ids[0]}")
    assert gone.status_code == 404 and gone.get_json()["code"] == "session_not_found"
    after = op_client.get("/v1/operator/sessions", headers=auth(SCHOOL)).get_json()["sessions"]
    assert ids[0] not in [s["session_id"] for s in after]


def test_the_operator_endpoints_need_an_operator_key(op_client: FlaskClient) -> None:
    assert op_client.get("/v1/operator/sessions").status_code == 401
    seat = create(op_client, SCHOOL).get_json()["seats"][0]["seat_token"]
    refused = op_client.get("/v1/operator/sessions", headers=auth(seat))
    assert refused.status_code == 403 and refused.get_json()["code"] == "operator_key_invalid"
    bad = op_client.get("/v1/operator/sessions?cursor=%21%21", headers=auth(SCHOOL))
    assert bad.status_code == 422 and bad.get_json()["code"] == "invalid_request"


def test_a_finished_session_is_listed_as_finished(op_client: FlaskClient) -> None:
    bots = {"0": "random", "1": "random"}
    made = create(op_client, SCHOOL, bots=bots).get_json()
    assert made["outcome"]["finished"]
    listed = op_client.get("/v1/operator/sessions", headers=auth(SCHOOL)).get_json()["sessions"]
    mine = next(s for s in listed if s["session_id"] == made["session_id"])
    assert mine["phase"] == "finished" and mine["finished"]


def test_an_operator_has_a_quota_of_live_sessions(redis_url: str) -> None:
    app = checked(
        create_app(
            make_settings(
                KEY_A, redis_url=redis_url, operator_keys=("quota-key",), operator_session_quota=2
            )
        )
    )
    c = app.test_client()
    first, second = (create(c, "quota-key") for _ in range(2))
    assert first.status_code == second.status_code == 201
    third = create(c, "quota-key")
    assert third.status_code == 429 and third.get_json()["code"] == "session_quota_exceeded"
    assert int(third.headers["Retry-After"]) > 0
    # a finished game is not live; ending one frees a place
    c.delete(f"/v1/operator/sessions/{first.get_json()['session_id']}", headers=auth("quota-key"))
    assert create(c, "quota-key").status_code == 201


# ------------------------------------------------------------------ the deal is secret --
def hands(body: dict[str, Any]) -> list[list[int]]:
    return [seat["drafted"] for seat in body["view"]["seats"]]


def test_a_hosted_seed_does_not_deal_the_stateless_game_of_that_seed(
    client: FlaskClient, redis_url: str
) -> None:
    """The reproduction of issue 17: a stateless game set up with a hosted session's seed
    showed, through its host token, every hand of the hosted game."""
    hosted = client.post("/v1/element-draft/sessions", json={"players": 2, "seed": 4}).get_json()
    mine = client.get(
        f"/v1/element-draft/sessions/{hosted['session_id']}?seat=0",
        headers=auth(hosted["seats"][0]["seat_token"]),
    ).get_json()["view"]["you"]["hand"]
    stateless = client.post("/v1/element-draft/setup", json={"players": 2, "seed": 4}).get_json()
    theirs = client.post(
        "/v1/element-draft/view",
        json={"token": stateless["token"], "seat": 0},
        headers=auth(stateless["host_token"]),
    ).get_json()["view"]["you"]["hand"]
    assert mine != theirs
    # the same seed in the same deployment deals the same game (a lesson can be repeated)
    again = client.post("/v1/element-draft/sessions", json={"players": 2, "seed": 4}).get_json()
    hand = client.get(
        f"/v1/element-draft/sessions/{again['session_id']}?seat=0",
        headers=auth(again["seats"][0]["seat_token"]),
    ).get_json()["view"]["you"]["hand"]
    assert hand == mine
    # another deployment (other keys) deals other cards from the same seed
    elsewhere = create_app(make_settings(KEY_B, redis_url=redis_url)).test_client()
    made = elsewhere.post("/v1/element-draft/sessions", json={"players": 2, "seed": 4})
    body = made.get_json()
    other = elsewhere.get(
        f"/v1/element-draft/sessions/{body['session_id']}?seat=0",
        headers=auth(body["seats"][0]["seat_token"]),
    ).get_json()["view"]["you"]["hand"]
    assert other != mine


def test_a_solo_game_without_an_operator_key_gives_no_credential_to_a_bot_seat(
    client: FlaskClient,
) -> None:
    """The other reproduction: a student's app that made a game against bots got the host
    token and the bot seats' tokens, and could look at the bots' hands."""
    made = client.post(
        "/v1/chemistry-battle/sessions",
        json={"players": 3, "bots": {"1": "greedy", "2": "random"}},
    ).get_json()
    assert made["host_token"] is None
    seats = {s["seat"]: s for s in made["seats"]}
    assert seats[0]["seat_token"] and seats[1]["seat_token"] is None
    assert seats[2]["seat_token"] is None
    url = f"/v1/chemistry-battle/sessions/{made['session_id']}"
    mine = client.get(f"{url}?seat=0", headers=auth(seats[0]["seat_token"]))
    assert mine.status_code == 200
    peek = client.get(f"{url}?seat=1", headers=auth(seats[0]["seat_token"]))
    assert peek.status_code == 403 and peek.get_json()["code"] == "seat_token_invalid"


def test_an_operator_gets_every_credential_of_a_game_against_bots(op_client: FlaskClient) -> None:
    made = create(op_client, SCHOOL, "chemistry-battle", bots={"1": "greedy"}).get_json()
    assert made["host_token"] and all(s["seat_token"] for s in made["seats"])


def test_an_open_deployment_still_gives_the_host_token_of_a_game_of_people(
    client: FlaskClient,
) -> None:
    made = client.post("/v1/polymer/sessions", json={"players": 5}).get_json()
    assert made["host_token"] and all(s["seat_token"] for s in made["seats"])
