"""A hosted move's answer with the seat's legal moves (``"legal_moves": true``, issue 32).

A device decides its next move from its move's answer; without this it read ``POST
.../legal-moves`` first, after every move it made. With the flag the answer carries what
that read answers just after the move, for every game; the flag is not part of the move
(a retry with the same Idempotency-Key may send it or not), a replayed answer never
carries them, and anything but a JSON boolean is refused before the move.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask

from rules.registry import GAMES

from .conftest import auth
from .test_seat_streams import _start, legal_answer, lose_the_race
from .test_sessions import ED, Hosted, draft

pytestmark = [pytest.mark.redis]


def send(t: Hosted, seat: int, move: Any, key: str | None = None, **extra: Any) -> Any:
    headers = auth(t.tokens[seat])
    if key is not None:
        headers["Idempotency-Key"] = key
    body = {"seat": seat, "version": t.version, "move": move, **extra}
    return t.send("POST", "/moves", body, headers)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_answer_carries_what_the_legal_moves_read_answers_after_the_move(
    app: Flask, slug: str
) -> None:
    """Each answer's ``legal_moves`` is the read's answer at the answer's version; the
    next move is chosen from them when the same seat may act, without a read."""
    t = _start(app.test_client(), slug)
    rng = random.Random(slug)
    carried: dict[int, dict[str, Any]] = {}
    used = moved = 0
    seat = -1
    for n in range(12):
        to_act = t.get()["to_act"]
        if not to_act:
            break
        # the seat that moved last, while it may (its answer's moves are then the next
        # decision's), else the first to act
        seat = seat if seat in to_act else to_act[0]
        known = carried.get(seat)
        if known is not None and known["version"] == t.version:
            moves = known["moves"]
            used += 1
        else:
            moves = legal_answer(t, seat)["moves"]
        resp = send(t, seat, rng.choice(moves), legal_moves=True)
        answer = resp.get_json()
        assert resp.status_code == 200, answer
        t.version = answer["version"]
        assert answer["legal_moves"] == legal_answer(t, seat)
        assert answer["legal_moves"]["version"] == answer["version"]
        carried[seat] = answer["legal_moves"]
        moved += 1
        # and without the flag the answer has no such member
        plain = t.get()["to_act"]
        if plain and n == 0:
            other = plain[0]
            resp = send(t, other, rng.choice(legal_answer(t, other)["moves"]))
            assert resp.status_code == 200, resp.get_json()
            assert "legal_moves" not in resp.get_json()
            t.version = resp.get_json()["version"]
    assert moved >= 3
    # where a seat moves twice running (a draw then a discard, Polymer's trades), the
    # second move was chosen from the first's answer
    if slug in ("chemistry-canasta", "compound-capture", "polymer", "polymerization"):
        assert used > 0


def test_a_replay_never_carries_them_and_the_flag_is_not_part_of_the_move(app: Flask) -> None:
    t = Hosted(app.test_client(), ED, players=3, seed=5)
    move = legal_answer(t, 0)["moves"][0]
    first = send(t, 0, move, key="k-1", legal_moves=True)
    assert first.status_code == 200
    body = first.get_json()
    assert "legal_moves" in body
    for again in ({"legal_moves": True}, {}, {"legal_moves": False}):
        resp = send(t, 0, move, key="k-1", **again)
        assert resp.status_code == 200, resp.get_json()
        assert resp.headers["Idempotent-Replayed"] == "true"
        replayed = resp.get_json()
        assert "legal_moves" not in replayed
        assert replayed == {k: v for k, v in body.items() if k != "legal_moves"}
    t.version = body["version"]
    assert t.stored_version() == body["version"]  # applied once


@pytest.mark.parametrize("value", ["true", 1, 0, None, "yes", [True], {"on": True}])
def test_anything_but_a_boolean_is_refused_before_the_move(app: Flask, value: Any) -> None:
    t = Hosted(app.test_client(), ED, players=3, seed=5)
    move = legal_answer(t, 0)["moves"][0]
    resp = send(t, 0, move, legal_moves=value)
    assert resp.status_code == 422, resp.get_json()
    problem = resp.get_json()
    assert problem["code"] == "invalid_request"
    assert "legal_moves" in problem["errors"]
    assert t.stored_version() == t.version  # not applied


def test_a_stateless_move_has_no_such_member(app: Flask) -> None:
    client = app.test_client()
    dealt = client.post(f"/v1/{ED}/setup", json={"players": 2, "seed": 1}).get_json()
    seat = dealt["to_act"][0]
    legal = client.post(
        f"/v1/{ED}/legal-moves",
        json={"token": dealt["token"], "seat": seat},
        headers=auth(dealt["seats"][seat]["seat_token"]),
    )
    assert legal.status_code == 200, legal.get_json()
    resp = client.post(
        f"/v1/{ED}/moves",
        json={
            "token": dealt["token"],
            "seat": seat,
            "move": legal.get_json()["moves"][0],
            "legal_moves": True,
        },
        headers=auth(dealt["seats"][seat]["seat_token"]),
    )
    assert resp.status_code == 422, resp.get_json()
    assert resp.get_json()["code"] == "invalid_request"


def test_a_move_that_lost_its_race_carries_the_legal_moves_of_the_version_it_made(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both seats drafting at once: seat 1's move read version 0, seat 0's committed
    first, so seat 1's compare-and-set is refused and its move judged again on the newer
    state; the legal moves its answer carries are those after its own commit (the reveal,
    a new round), not of the state it first read."""
    t = Hosted(app.test_client(), ED, players=2, seed=6)
    hand = lose_the_race(t, monkeypatch)
    store = type(t.store)
    real_commit = store.commit
    commits: list[int] = []

    def commit(st: Any, session_id: str, **kw: Any) -> Any:
        commits.append(1)
        return real_commit(st, session_id, **kw)

    monkeypatch.setattr(store, "commit", commit)
    body = {"seat": 1, "version": 0, "move": draft(hand), "legal_moves": True}
    resp = t.send("POST", "/moves", body, auth(t.tokens[1]))
    monkeypatch.undo()
    answer = resp.get_json()
    assert resp.status_code == 200, answer
    assert len(commits) == 2  # refused, then applied
    assert answer["version"] == 2
    t.version = 2
    assert answer["legal_moves"] == legal_answer(t, 1)
    assert answer["legal_moves"]["moves"]  # a new round: seat 1 drafts again


def test_a_bot_move_asked_for_them_carries_them_too(app: Flask) -> None:
    t = Hosted(app.test_client(), "chemistry-canasta", players=2, seed=3)
    seat = t.get()["to_act"][0]
    body = {"seat": seat, "version": t.version, "bot": "random", "legal_moves": True}
    resp = t.send("POST", "/bot-move", body, auth(t.tokens[seat]))
    answer = resp.get_json()
    assert resp.status_code == 200, answer
    t.version = answer["version"]
    assert answer["legal_moves"] == legal_answer(t, seat)
