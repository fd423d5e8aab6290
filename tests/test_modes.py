"""Every stateless game, played both ways (stateless and hosted), with bot seats.

A student alone plays one seat and the service plays all the others (``bots``):
after setup and after every human move the service plays bot seats until a human
must act, in the same request, and returns every event in order with its ``actor``.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from rules.registry import GAMES
from service.games.registry import game_apis

from .conftest import auth

STATELESS = sorted(slug for slug, api in game_apis().items() if api.stateless)


def _bots(players: int, human: int = 0, bot: str = "greedy") -> dict[str, str]:
    return {str(s): bot for s in range(players) if s != human}


def _players(slug: str) -> list[int]:
    info = GAMES[slug].info
    return sorted({info.min_players, info.max_players})


@pytest.mark.parametrize(
    ("slug", "players"), [(slug, p) for slug in STATELESS for p in _players(slug)]
)
def test_one_human_against_bot_seats_stateless(
    client: FlaskClient, slug: str, players: int
) -> None:
    base = f"/v1/{slug}"
    resp = client.post(
        f"{base}/setup", json={"players": players, "seed": 5, "bots": _bots(players)}
    )
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    assert body["bots"] == _bots(players) and body["seats"][0]["bot"] is None
    assert [s["bot"] for s in body["seats"][1:]] == ["greedy"] * (players - 1)
    token, me = body["token"], auth(body["seats"][0]["seat_token"])
    moves = 0
    while not body["outcome"]["finished"]:
        assert body["to_act"] == [0], "a human must act whenever the service stops"
        legal = client.post(f"{base}/legal-moves", json={"token": token, "seat": 0}, headers=me)
        move = legal.get_json()["moves"][0]
        resp = client.post(
            f"{base}/moves", json={"token": token, "seat": 0, "move": move}, headers=me
        )
        assert resp.status_code == 200, resp.get_json()
        body, token = resp.get_json(), resp.get_json()["token"]
        actors = [e["actor"] for e in body["events"]]
        assert actors[0] == 0 and set(actors) <= set(range(players))
        moves += 1
        assert moves < 2000
    assert body["to_act"] == [] and len(body["outcome"]["places"]) == players


@pytest.mark.parametrize("slug", STATELESS)
def test_every_seat_a_bot_plays_to_the_end_in_one_request(client: FlaskClient, slug: str) -> None:
    players = GAMES[slug].info.min_players
    bots = {str(s): "random" for s in range(players)}
    body = client.post(
        f"/v1/{slug}/setup", json={"players": players, "seed": 3, "bots": bots}
    ).get_json()
    assert body["outcome"]["finished"] and body["to_act"] == []
    assert body["version"] > 0
    assert {e["actor"] for e in body["events"][1:]} == set(range(players)), "every seat moved"
    assert body["events"][0] == {"type": "game_started", "players": players, "actor": None}


@pytest.mark.every_redis
@pytest.mark.parametrize("slug", STATELESS)
def test_one_human_against_bot_seats_in_a_hosted_session(client: FlaskClient, slug: str) -> None:
    players = GAMES[slug].info.min_players
    base = f"/v1/{slug}/sessions"
    made = client.post(base, json={"players": players, "seed": 8, "bots": _bots(players)})
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    assert made.headers["Location"] == f"{base}/{body['session_id']}"
    assert "token" not in body, "a hosted session never hands out the state token"
    url, me = f"{base}/{body['session_id']}", auth(body["seats"][0]["seat_token"])
    while not body["outcome"]["finished"]:
        assert body["to_act"] == [0]
        move = client.post(f"{url}/legal-moves", json={"seat": 0}, headers=me).get_json()["moves"][
            0
        ]
        resp = client.post(
            f"{url}/moves", json={"seat": 0, "version": body["version"], "move": move}, headers=me
        )
        assert resp.status_code == 200, resp.get_json()
        body = resp.get_json()
    final = client.get(f"{url}/scores").get_json()
    assert final["outcome"] == body["outcome"] and final["version"] == body["version"]


def test_bots_must_name_seats_at_the_table_and_real_bots(client: FlaskClient) -> None:
    resp = client.post("/v1/element-draft/setup", json={"players": 2, "bots": {"2": "greedy"}})
    assert resp.status_code == 422 and resp.get_json()["code"] == "bad_bots"
    assert "seat '2'" in resp.get_json()["detail"]
    for bots in ({"1": "clever"}, {"x": "random"}, {"1": 3}):
        resp = client.post("/v1/element-draft/setup", json={"players": 2, "bots": bots})
        assert resp.status_code == 422 and resp.get_json()["code"] == "invalid_request", bots
        assert "bots" in resp.get_json()["errors"]


def test_a_bot_seat_to_act_first_is_played_at_setup(client: FlaskClient) -> None:
    body = client.post(
        "/v1/element-draft/setup", json={"players": 3, "seed": 2, "bots": {"1": "greedy"}}
    ).get_json()
    # a simultaneous draft: the bot seat selects at once, the humans are still to act
    assert body["to_act"] == [0, 2] and body["version"] == 1
    selected = [e for e in body["events"] if e["type"] == "card_selected"]
    assert selected == [{"type": "card_selected", "seat": 1, "actor": 1}]
    assert "card" not in selected[0], "the observer does not learn the bot's choice"


def test_events_come_in_order_each_with_its_actor(client: FlaskClient) -> None:
    setup = client.post(
        "/v1/element-draft/setup",
        json={"players": 2, "options": {"deal": [[1, 2], [3, 4]]}, "bots": {"1": "greedy"}},
    ).get_json()
    me = auth(setup["seats"][0]["seat_token"])
    body = {"token": setup["token"], "seat": 0, "move": {"type": "draft", "card": 1}}
    events = client.post("/v1/element-draft/moves", json=body, headers=me).get_json()["events"]
    kinds = [(e["type"], e["actor"]) for e in events]
    assert kinds == [
        ("card_selected", 0),
        ("cards_revealed", 0),
        ("hands_passed", 0),
        ("card_selected", 1),
    ]
    assert events[0]["card"] == 1 and "card" not in events[3]
    assert [(c["seat"], c["z"], c["symbol"]) for c in events[1]["cards"]] == [
        (0, 1, "H"),
        (1, 4, "Be"),
    ], "greedy takes the highest gain; ties go to the highest atomic number"
