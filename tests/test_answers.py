"""Every answer of the move and bot-move endpoints is in the contract, for every game and
both play modes, in the states where a seat has just acted, must wait, or the game is
over (issue 17: answers outside the contract were found exactly there).

Each request's answer is checked against its operation's documented statuses and
problem codes by the suite's contract check (``tests/contract.py``); this test makes
those requests: after every move, a bot move and a repeated move for every seat.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from rules.registry import GAMES

from .conftest import auth

MAX_STEPS = 40


def _players(slug: str) -> int:
    return GAMES[slug].info.min_players


@pytest.mark.parametrize("slug", sorted(s for s, g in GAMES.items() if g.clock is None))
def test_stateless_moves_and_bot_moves_from_every_seat_stay_in_the_contract(
    client: FlaskClient, slug: str
) -> None:
    base = f"/v1/{slug}"
    made = client.post(f"{base}/setup", json={"players": _players(slug), "seed": 2}).get_json()
    token = made["token"]
    seats = {s["seat"]: auth(s["seat_token"]) for s in made["seats"]}
    last: dict[str, Any] | None = None
    for _ in range(MAX_STEPS):
        for seat, me in seats.items():  # everyone tries, whether it is their turn or not
            client.post(f"{base}/bot-move", json={"token": token, "seat": seat}, headers=me)
            if last is not None:
                body = {"token": token, "seat": seat, "move": last}
                client.post(f"{base}/moves", json=body, headers=me)
        view = client.post(f"{base}/view", json={"token": token}).get_json()
        if not view["to_act"]:
            break
        seat = view["to_act"][0]
        moved = client.post(
            f"{base}/bot-move", json={"token": token, "seat": seat}, headers=seats[seat]
        ).get_json()
        token, last = moved["token"], moved["move"]
    for seat, me in seats.items():  # and once the game is over, if it is
        client.post(f"{base}/bot-move", json={"token": token, "seat": seat}, headers=me)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_hosted_moves_and_bot_moves_from_every_seat_stay_in_the_contract(
    client: FlaskClient, slug: str
) -> None:
    game = GAMES[slug]
    base = f"/v1/{slug}/sessions"
    made = client.post(base, json={"players": _players(slug), "seed": 2}).get_json()
    url = f"{base}/{made['session_id']}"
    seats = {s["seat"]: auth(s["seat_token"]) for s in made["seats"]}
    for extra in game.extras:
        if extra.by == "host":
            client.post(f"{url}/{extra.name}", headers=auth(made["host_token"]))
    last: dict[str, Any] | None = None
    for _ in range(MAX_STEPS):
        version = client.get(url).get_json()["version"]
        for seat, me in seats.items():
            client.post(f"{url}/bot-move", json={"seat": seat, "version": version}, headers=me)
            version = client.get(url).get_json()["version"]
            if last is not None:
                body = {"seat": seat, "version": version, "move": last}
                client.post(f"{url}/moves", json=body, headers=me)
                version = client.get(url).get_json()["version"]
            # and a move on an older version (another device came first)
            client.post(f"{url}/bot-move", json={"seat": seat, "version": 0}, headers=me)
        view = client.get(url).get_json()
        if view["outcome"]["finished"]:
            break
        if view["to_act"]:
            seat = view["to_act"][0]
            body = {"seat": seat, "version": view["version"]}
            answer = client.post(f"{url}/bot-move", json=body, headers=seats[seat])
            if answer.status_code == 200:
                last = answer.get_json()["move"]
