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

from rules.registry import GAMES
from service import create_app
from service.games.tokens import SEED_MAX, Sealer
from service.school.operators import Operators, operator_id

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


# ------------------------------------------ issue 27: a deal per operator, 53-bit seeds --
def dealt(c: FlaskClient, key: str | None, slug: str, players: int, seed: int) -> Any:
    """Seat 0's hand of a new hosted game of ``slug`` dealt from ``seed``."""
    made = create(c, key, slug, players=players, seed=seed)
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    view = c.get(
        f"/v1/{slug}/sessions/{body['session_id']}?seat=0",
        headers=auth(body["seats"][0]["seat_token"]),
    )
    return view.get_json()["view"]["you"]["hand"]


@pytest.mark.parametrize(
    ("slug", "players"),
    [
        ("element-draft", 2),
        ("chemistry-battle", 2),
        ("chemistry-canasta", 2),
        ("polymerization", 2),
    ],
)
def test_the_same_seed_deals_the_same_game_only_for_the_same_operator(
    op_client: FlaskClient, client: FlaskClient, slug: str, players: int
) -> None:
    """The reproduction of issue 27 item 1: two schools' sessions created with seed 4 were
    dealt the same hands, so one school's published lesson showed another's cards."""
    school = dealt(op_client, SCHOOL, slug, players, 4)
    assert dealt(op_client, SCHOOL, slug, players, 4) == school, "a lesson repeats"
    assert dealt(op_client, OTHER, slug, players, 4) != school
    # an anonymous creator (a deployment without operator keys, the same state keys) is
    # an operator of its own
    assert dealt(client, None, slug, players, 4) != school


def test_a_hosted_seed_fits_in_53_bits_and_names_its_operator() -> None:
    sealer = Sealer((KEY_A,))
    seeds = {op: [sealer.hosted_seed(s, op) for s in range(200)] for op in ("", "a", "b")}
    assert all(0 <= s <= SEED_MAX == 2**53 - 1 for made in seeds.values() for s in made)
    assert max(seeds["a"]) > 2**52, "the whole 53-bit range is used"
    assert not set(seeds[""]) & set(seeds["a"]) and not set(seeds["a"]) & set(seeds["b"])
    # the operator's name is framed: ("ab", seed) and ("a", another seed) never meet
    assert sealer.hosted_seed(1, "ab") != sealer.hosted_seed(1, "a")


def test_a_random_seed_survives_javascript(client: FlaskClient) -> None:
    """A game dealt without a seed records the one it drew: at most 2**53 - 1 (it was up
    to 2**63 - 1, which JSON.parse rounds, so the record no longer replayed)."""
    for _ in range(12):
        made = client.post(
            "/v1/element-draft/setup", json={"players": 2, "bots": {"1": "random"}}
        ).get_json()
        token, me = made["token"], auth(made["seats"][0]["seat_token"])
        while not made["outcome"]["finished"]:
            made = client.post(
                "/v1/element-draft/bot-move", json={"token": token, "seat": 0}, headers=me
            ).get_json()
            token = made["token"]
        record = client.post(
            "/v1/element-draft/record", json={"token": token, "seat": 0}, headers=me
        ).get_json()["record"]
        assert 0 <= record["seed"] <= 2**53 - 1
    too_big = client.post("/v1/element-draft/setup", json={"players": 2, "seed": 2**53})
    assert too_big.status_code == 422 and too_big.get_json()["code"] == "invalid_request"
    assert (
        client.post("/v1/element-draft/setup", json={"players": 2, "seed": 2**53 - 1}).status_code
        == 201
    )


# --------------------------------- issue 27: a stateless game against bots, anonymously --
STATELESS = sorted(slug for slug, game in GAMES.items() if game.clock is None)
SHORT = {"chemistry-battle": {"round_limit": 12}, "compound-capture": {"target": None},
         "chemistry-canasta": {"target": None}}  # fmt: skip


@pytest.mark.parametrize("slug", STATELESS)
def test_a_stateless_game_against_bots_gives_an_anonymous_student_only_its_own_seat(
    client: FlaskClient, slug: str
) -> None:
    """The reproduction of issue 27 item 2: stateless setup against bots without an
    operator key handed out the host token and the bot seats' tokens, and either showed
    a bot's hand through /view. Now only the student's seat has a credential, and it is
    all the student needs: its own view, legal moves, moves, bot help, scores, record."""
    assert len(STATELESS) == 6
    players = max(2, GAMES[slug].info.min_players)
    bots = {str(seat): "greedy" for seat in range(1, players)}
    base = f"/v1/{slug}"
    made = client.post(
        f"{base}/setup",
        json={"players": players, "seed": 9, "bots": bots, "options": SHORT.get(slug, {})},
    )
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    assert body["host_token"] is None
    assert [s["seat_token"] is not None for s in body["seats"]] == [True] + [False] * (players - 1)
    token, me = body["token"], auth(body["seats"][0]["seat_token"])

    peek = client.post(f"{base}/view", json={"token": token, "seat": 1}, headers=me)
    assert peek.status_code == 403 and peek.get_json()["code"] == "seat_token_invalid"
    as_host = client.post(f"{base}/record", json={"token": token}, headers=me)
    assert as_host.status_code == 403 and as_host.get_json()["code"] == "host_token_invalid"
    for_bot = client.post(f"{base}/bot-move", json={"token": token, "seat": 1}, headers=me)
    assert for_bot.status_code == 403

    moved_by_hand = False
    for _ in range(3000):
        own = client.post(f"{base}/view", json={"token": token, "seat": 0}, headers=me)
        assert own.status_code == 200 and own.get_json()["view"] is not None
        if own.get_json()["outcome"]["finished"]:
            break
        legal = client.post(f"{base}/legal-moves", json={"token": token, "seat": 0}, headers=me)
        assert legal.status_code == 200, legal.get_json()
        moves = legal.get_json()["moves"]
        if moves and not moved_by_hand:
            answer = client.post(
                f"{base}/moves", json={"token": token, "seat": 0, "move": moves[0]}, headers=me
            )
            moved_by_hand = True
        else:
            answer = client.post(f"{base}/bot-move", json={"token": token, "seat": 0}, headers=me)
        assert answer.status_code == 200, answer.get_json()
        token = answer.get_json()["token"]
    assert moved_by_hand
    scores = client.post(f"{base}/scores", json={"token": token})
    assert scores.status_code == 200 and scores.get_json()["outcome"]["finished"]
    record = client.post(f"{base}/record", json={"token": token, "seat": 0}, headers=me)
    assert record.status_code == 200 and record.get_json()["record"]["complete"]


def test_an_operator_gets_every_credential_of_a_stateless_game_against_bots(
    op_client: FlaskClient,
) -> None:
    setup = {"players": 3, "bots": {"1": "greedy", "2": "random"}}
    made = op_client.post("/v1/chemistry-battle/setup", json=setup, headers=auth(SCHOOL))
    body = made.get_json()
    assert made.status_code == 201 and body["host_token"]
    assert all(s["seat_token"] for s in body["seats"])
    # anonymous: the student's seat only; a key that is no operator's is told so
    anonymous = op_client.post("/v1/chemistry-battle/setup", json=setup).get_json()
    assert anonymous["host_token"] is None
    wrong = op_client.post("/v1/chemistry-battle/setup", json=setup, headers=auth("not-a-key"))
    assert wrong.status_code == 403 and wrong.get_json()["code"] == "operator_key_invalid"
    # a game without bot seats is a hot-seat game: the host token, as before
    hot_seat = op_client.post("/v1/chemistry-battle/setup", json={"players": 2}).get_json()
    assert hot_seat["host_token"] and all(s["seat_token"] for s in hot_seat["seats"])


@pytest.mark.parametrize(
    "address",
    ["/v1/operator/sessions?limit=2&limt=3", "/v1/element-draft/sessions/{sid}?seat=0&view=all"],
)
def test_a_query_parameter_the_contract_does_not_name_is_refused(
    op_client: FlaskClient, address: str
) -> None:
    """A misspelt parameter (``limt``) silently ignored hides the client's mistake;
    schemathesis found the list answering 200 to unknown parameters."""
    made = create(op_client, SCHOOL).get_json()
    answer = op_client.get(
        address.format(sid=made["session_id"]),
        headers=auth(SCHOOL if "operator" in address else made["seats"][0]["seat_token"]),
    )
    problem = answer.get_json()
    assert answer.status_code == 422, problem
    assert problem["code"] == "invalid_request" and "Unknown field" in problem["detail"]
