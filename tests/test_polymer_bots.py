"""Polymer against bot seats the service plays in real time, on the server's clock.

The real server (gunicorn, as `make serve` runs it) against a real Redis: after the
human's one `ready`, nothing but an event stream listens, and the bots trade, the
timer runs out and `time_up` arrives on time. Two instances share the work and apply
each bot move once; one instance dies and the other carries on. Every server binds to
127.0.0.1, lives a few seconds and is stopped by its PID.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules.polymer.bots import answers
from rules.records import Step
from service import create_app
from service.app import in_context
from service.sessions import realtime
from service.sessions.due import DueWork
from service.sessions.schedule import bot_member

from .conftest import KEY_A, TEST_PREFIX, auth, make_settings
from .test_gunicorn import call, serve
from .test_polymer_service import stored_state

pytestmark = [pytest.mark.redis]
BASE = "/v1/polymer/sessions"
PACE = {"bot_think_min_ms": 300, "bot_think_max_ms": 700}  # brisk: many moves in seconds


@dataclass
class Listener:
    """An event-stream client in a thread: every message with the time it arrived."""

    port: int
    session_id: str
    messages: list[tuple[float, str, dict[str, Any]]] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)

    def start(self) -> Listener:
        threading.Thread(target=self._run, daemon=True).start()
        deadline = time.monotonic() + 10
        while not any(kind == "hello" for _, kind, _ in self.messages):
            assert time.monotonic() < deadline, "no hello on the stream"
            time.sleep(0.02)
        return self

    def _run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", f"{BASE}/{self.session_id}/events")
            resp = conn.getresponse()
            kind = ""
            while True:
                line = resp.readline()
                if not line:
                    return
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    kind = text[7:]
                elif text.startswith("data: "):
                    self.messages.append((time.time(), kind, json.loads(text[6:])))
                    if kind == "end":
                        return
        except OSError:
            return
        finally:
            self.done.set()
            conn.close()

    def updates(self) -> list[dict[str, Any]]:
        return [data for _, kind, data in self.messages if kind == "update"]

    def events(self) -> list[dict[str, Any]]:
        return [event for update in self.updates() for event in update["events"]]

    def arrival(self, event_type: str) -> float:
        for at, kind, data in self.messages:
            if kind == "update" and any(e["type"] == event_type for e in data["events"]):
                return at
        raise AssertionError(f"no {event_type} on the stream")


def create(port: int, players: int, bots: dict[str, str], **options: Any) -> dict[str, Any]:
    status, body = call(
        port,
        "POST",
        BASE,
        {"players": players, "seed": 11, "bots": bots, "options": options},
    )
    assert status == 201, body
    return body  # type: ignore[no-any-return]


def ready(port: int, made: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    sid, token = made["session_id"], made["seats"][seat]["seat_token"]
    deadline = time.monotonic() + 10
    while True:  # the bot seats declare themselves ready within a poll
        status, view = call(port, "GET", f"{BASE}/{sid}")
        assert status == 200, view
        waiting = [s for s in view["to_act"] if s != seat]
        if not waiting:
            break
        assert time.monotonic() < deadline, f"bot seats {waiting} never got ready"
        time.sleep(0.05)
    body = {"seat": seat, "version": view["version"], "move": {"type": "ready"}}
    status, answer = call(port, "POST", f"{BASE}/{sid}/moves", body, token)
    assert status == 200, answer
    assert answer["phase"] == "trading"
    return answer  # type: ignore[no-any-return]


def wait_end(listener: Listener, seconds: float) -> None:
    assert listener.done.wait(seconds), "the stream did not end"


def check_moves(listener: Listener, bots: set[int], least_ms: int) -> None:
    """Each commit on the stream is one move, versions run on by one with none missing
    or repeated, and no bot seat moved twice within its least think time (a bot move
    applied twice would)."""
    versions = [u["version"] for u in listener.updates()]
    assert versions == list(range(versions[0], versions[0] + len(versions))), versions
    last: dict[int, int] = {}
    for update in listener.updates():
        movers = {e["actor"] for e in update["events"] if e.get("actor") is not None}
        for seat in movers & bots:
            now = update["server_now_ms"]
            if seat in last:
                assert now - last[seat] >= least_ms - 50, (seat, now - last[seat])
            last[seat] = now
    assert set(last) == bots, f"bot seats that never moved: {bots - set(last)}"


def bot_trades(listener: Listener, bots: set[int]) -> list[dict[str, Any]]:
    return [
        e
        for e in listener.events()
        if e.get("actor") in bots and e["type"] in ("offer_made", "trade_executed", "loan_made")
    ]


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[int]:
    with serve(redis_url, DUE_POLL_MS="100", SSE_MAX_SECONDS="60") as port:
        yield port


@pytest.mark.every_redis  # a Redis Cluster too: the due set and the session on other shards
def test_four_bot_seats_play_the_game_to_its_end_with_only_a_listener(server: int) -> None:
    made = create(server, 5, {str(s): "trading" for s in (1, 2, 3, 4)}, timer_seconds=10)
    assert made["host_token"] is None  # no operator: nobody may look at a bot's hand
    assert [s["seat_token"] is None for s in made["seats"]] == [False, True, True, True, True]
    listener = Listener(server, made["session_id"]).start()
    started = ready(server, made)
    wait_end(listener, 15)  # nothing more is sent: the bots and the clock do the rest
    deadline_ms = started["deadline_ms"]
    assert bot_trades(listener, {1, 2, 3, 4}), listener.events()
    time_up = listener.arrival("time_up")
    assert deadline_ms / 1000 <= time_up + 0.05 and time_up - deadline_ms / 1000 < 1.0
    assert listener.messages[-1][1] == "end" and listener.messages[-1][2]["finished"]
    check_moves(listener, {1, 2, 3, 4}, 1500)
    status, scores = call(server, "GET", f"{BASE}/{made['session_id']}/scores")
    assert status == 200 and scores["outcome"]["finished"] and scores["scores"]["final"]


def test_one_student_against_fourteen_bots(server: int) -> None:
    bots = {str(s): ("random" if s % 5 == 0 else "trading") for s in range(1, 15)}
    made = create(server, 15, bots, timer_seconds=6, **PACE)
    listener = Listener(server, made["session_id"]).start()
    ready(server, made)
    wait_end(listener, 15)
    assert listener.arrival("time_up")
    check_moves(listener, set(range(1, 15)), PACE["bot_think_min_ms"])


def test_a_demonstration_with_every_seat_a_bot_starts_and_ends_by_itself(server: int) -> None:
    made = create(server, 5, {str(s): "trading" for s in range(5)}, timer_seconds=3)
    assert all(s["seat_token"] is None for s in made["seats"]) and made["host_token"] is None
    listener = Listener(server, made["session_id"]).start()
    wait_end(listener, 15)
    kinds = [e["type"] for e in listener.events()]
    # the bots may all be ready before the stream listens: then the hello shows the timer
    hello = next(data for _, kind, data in listener.messages if kind == "hello")
    assert "timer_started" in kinds or hello["phase"] == "trading", (hello, kinds)
    assert "time_up" in kinds and kinds[-1] == "game_over"


def test_two_instances_share_the_bots_and_apply_each_move_once(redis_url: str) -> None:
    with ExitStack() as stack:
        a = stack.enter_context(serve(redis_url, DUE_POLL_MS="50"))
        b = stack.enter_context(serve(redis_url, DUE_POLL_MS="50"))
        made = create(a, 6, {str(s): "trading" for s in range(1, 6)}, timer_seconds=6,
                      **PACE)  # fmt: skip
        on_a = Listener(a, made["session_id"]).start()
        on_b = Listener(b, made["session_id"]).start()
        ready(b, made)
        wait_end(on_a, 15)
        wait_end(on_b, 15)
        # one history, whichever instance tells it (from when both listened)
        since = max(on_a.updates()[0]["version"], on_b.updates()[0]["version"])
        assert [u for u in on_a.updates() if u["version"] >= since] == [
            u for u in on_b.updates() if u["version"] >= since
        ]
        check_moves(on_a, {1, 2, 3, 4, 5}, PACE["bot_think_min_ms"])


def test_when_an_instance_dies_mid_game_the_other_carries_on(redis_url: str) -> None:
    with ExitStack() as stack:
        lease = {"DUE_POLL_MS": "50", "DUE_LEASE_MS": "1000"}
        a = stack.enter_context(serve(redis_url, **lease))
        b = stack.enter_context(serve(redis_url, **lease))
        made = create(a, 5, {str(s): "trading" for s in range(1, 5)}, timer_seconds=8,
                      **PACE)  # fmt: skip
        listener = Listener(b, made["session_id"]).start()
        ready(a, made)
        time.sleep(2)
        pid = _gunicorn_master(a)
        os.killpg(pid, signal.SIGKILL)  # no goodbye: its claimed items are left leased
        died = time.time()
        wait_end(listener, 15)
        late = [e for at, kind, d in listener.messages if kind == "update" and at > died + 1.5
                for e in d["events"] if e.get("actor") in {1, 2, 3, 4}]  # fmt: skip
        assert late, "no bot moved after the instance died"
        assert listener.arrival("time_up")
        check_moves(listener, {1, 2, 3, 4}, PACE["bot_think_min_ms"])


def _gunicorn_master(port: int) -> int:
    """The PID of the gunicorn master listening on ``port`` (from /proc)."""
    inode = None
    with open("/proc/net/tcp") as table:
        lines = table.read().splitlines()[1:]
    for line in lines:
        parts = line.split()
        if int(parts[1].split(":")[1], 16) == port and parts[3] == "0A":
            inode = parts[9]
    assert inode, f"nothing listens on {port}"
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
            links = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in fds}
        except OSError:
            continue
        if f"socket:[{inode}]" in links:
            return os.getpgid(int(pid))
    raise AssertionError(f"no process holds the socket of port {port}")


# ------------------------------------------------------------- think time from an offer --
THINK = {"bot_think_min_ms": 300, "bot_think_max_ms": 600}


@pytest.fixture()
def own_due(redis_url: str) -> Iterator[Flask]:
    """An app whose due work nobody else runs (a key prefix of its own, no runner): the
    test runs it, on the real Redis and its clock."""
    prefix = f"{TEST_PREFIX}think-{os.urandom(4).hex()}:"
    yield create_app(make_settings(KEY_A, redis_url=redis_url, redis_key_prefix=prefix))


def run_due(app: Flask) -> int:
    due: DueWork = app.extensions["chemgames.due"]
    return due.run_due(in_context(app))


def started_against_bots(client: FlaskClient, app: Flask, seed: int) -> tuple[str, Any, int]:
    """A 5-seat session, seats 1-4 trading bots thinking 300-600 ms, the timer started
    by the human seat 0: (session id, seat 0's header, version)."""
    bots = {str(s): "trading" for s in (1, 2, 3, 4)}
    options = {"timer_seconds": 600, **THINK}
    made = client.post(
        BASE, json={"players": 5, "seed": seed, "bots": bots, "options": options}
    ).get_json()
    sid, me = made["session_id"], auth(made["seats"][0]["seat_token"])
    assert run_due(app) == 4  # the bots declare themselves ready
    version = client.get(f"{BASE}/{sid}").get_json()["version"]
    ready = {"seat": 0, "version": version, "move": {"type": "ready"}}
    started = client.post(f"{BASE}/{sid}/moves", json=ready, headers=me).get_json()
    assert started["phase"] == "trading", started
    return sid, me, started["version"]


def move(client: FlaskClient, sid: str, me: Any, version: int, move: Any) -> dict[str, Any]:
    body = {"seat": 0, "version": version, "move": move}
    answer = client.post(f"{BASE}/{sid}/moves", json=body, headers=me).get_json()
    assert "version" in answer, answer
    return answer  # type: ignore[no-any-return]


def test_a_bot_seat_answers_an_offer_a_think_time_after_it(own_due: Flask) -> None:
    """Issue 26 §4: a bot that was just made an offer is due a think time after that
    moment, by the server's clock, not after its previous move; run sooner, it keeps
    thinking; it answers no earlier than that."""
    app, due = own_due, own_due.extensions["chemgames.due"]
    client = app.test_client()
    sid, me, version = started_against_bots(client, app, seed=3)
    seat4 = due.when(bot_member("polymer", sid, 4))
    card = client.get(f"{BASE}/{sid}?seat=0", headers=me).get_json()["view"]["you"]["hand"][0]
    offer = {"type": "offer", "to": 1, "give": [card["id"]], "ask": ["any"]}
    made_offer = move(client, sid, me, version, offer)
    offered_at, offer_id = made_offer["server_now_ms"], made_offer["events"][0]["offer"]
    answer_due = due.when(bot_member("polymer", sid, 1))
    # the offer's time plus the think time the rules draw for this seat and this offer
    assert [answer_due] == [at for _, at in answers(stored_state(app, sid), 1)]
    assert 300 <= answer_due - offered_at <= 600, (answer_due, offered_at)
    assert due.when(bot_member("polymer", sid, 4)) == seat4  # nothing new for seat 4
    with app.app_context():  # run before its time (as a claim made earlier would)
        assert realtime.bot_turn(f"polymer/{sid}/1") == answer_due  # still thinking
    assert client.get(f"{BASE}/{sid}").get_json()["version"] == made_offer["version"]
    store = app.extensions["chemgames.store"]
    answered: list[Step] = []
    began = time.monotonic()
    while not answered:  # the runner's work, done here until seat 1 has answered
        assert time.monotonic() - began < 10, "seat 1 never answered the offer"
        run_due(app)
        steps = [Step.expand(raw) for raw in store.steps(sid)]
        answered = [
            step for step in steps
            if step.seat == 1 and step.move and step.move.get("offer") == offer_id
        ]  # fmt: skip
        time.sleep(0.05)
    assert answered[0].at is not None and answered[0].at >= answer_due


def test_a_bot_seat_repays_a_called_loan_a_think_time_after_the_call(own_due: Flask) -> None:
    app, due = own_due, own_due.extensions["chemgames.due"]
    client = app.test_client()
    sid, me, version = started_against_bots(client, app, seed=4)
    card = client.get(f"{BASE}/{sid}?seat=0", headers=me).get_json()["view"]["you"]["hand"][0]
    lent = move(client, sid, me, version, {"type": "lend", "to": 4, "cards": [card["id"]]})
    loan = lent["events"][0]["loan"]
    called = move(client, sid, me, lent["version"], {"type": "call_loan", "loan": loan})
    assert called["events"][0]["type"] == "loan_called"
    due_at = due.when(bot_member("polymer", sid, 4))
    assert [due_at] == [at for _, at in answers(stored_state(app, sid), 4)]
    assert 300 <= due_at - called["server_now_ms"] <= 600


def test_offers_to_bots_on_a_server_are_answered_a_think_time_after_each(server: int) -> None:
    """The issue's trial, on the real server and its runner: a student offers a card to a
    neighbouring bot, waits for the answer, and again; every answer comes at least the
    least think time after its offer, by the server's clock (before, most came sooner:
    the think time ran from the bot's previous move)."""
    made = create(server, 5, {str(s): "trading" for s in (1, 2, 3, 4)}, timer_seconds=60,
                  **PACE)  # fmt: skip
    sid, token = made["session_id"], made["seats"][0]["seat_token"]
    listener = Listener(server, sid).start()
    ready(server, made)
    offers: dict[int, int] = {}  # offer id -> its server time
    for n in range(6):
        offer_id = None
        while offer_id is None:  # a bot's move may come first: read again and resend
            status, view = call(server, "GET", f"{BASE}/{sid}?seat=0", token=token)
            card = view["view"]["you"]["hand"][0]["id"]
            move = {"type": "offer", "to": (1, 4)[n % 2], "give": [card], "ask": ["any"]}
            body = {"seat": 0, "version": view["version"], "move": move}
            status, answer = call(server, "POST", f"{BASE}/{sid}/moves", body, token)
            assert status in (200, 409), answer
            if status == 200:
                offer_id = answer["events"][0]["offer"]
                offers[offer_id] = answer["server_now_ms"]
        waited = time.monotonic()
        while offer_id not in answered_at(listener):
            assert time.monotonic() - waited < 10, f"offer {offer_id} was never answered"
            time.sleep(0.05)
    late = {o: answered_at(listener)[o] - at for o, at in offers.items()}
    assert all(ms >= PACE["bot_think_min_ms"] for ms in late.values()), late


def answered_at(listener: Listener) -> dict[int, int]:
    """Each offer answered on the stream (accepted or declined) -> the server's time."""
    return {
        e.get("offer", 0): update["server_now_ms"]
        for update in listener.updates()
        for e in update["events"]
        if e["type"] in ("offer_declined", "trade_executed")
    }


# ------------------------------------------------------------- host-driven bot moves --
def test_a_host_driving_bot_moves_never_moves_the_game_clock(client: FlaskClient) -> None:
    """Hundreds of bot moves in a few seconds: each is made at the server's time, so the
    game is still trading and no time_up comes before the deadline by Redis's clock."""
    made = client.post(f"{BASE}", json={"players": 5, "seed": 5, "options": {"timer_seconds": 60}})
    body = made.get_json()
    sid, host = body["session_id"], body["host_token"]
    started = client.post(f"{BASE}/{sid}/start", headers=auth(host)).get_json()
    version, moved = started["version"], 0
    began = time.monotonic()
    while moved < 300 and time.monotonic() - began < 30:
        seat = moved % 5
        answer = client.post(
            f"{BASE}/{sid}/bot-move",
            json={"seat": seat, "version": version, "bot": "trading"},
            headers=auth(host),
        )
        assert answer.status_code in (200, 422), answer.get_json()
        if answer.status_code == 200:
            got = answer.get_json()
            version = got["version"]
            assert got["phase"] == "trading", got
            assert not any(e["type"] == "time_up" for e in got["events"])
            assert got["view"]["now_ms"] == got["server_now_ms"]  # made at the server's time
        moved += 1
    view = client.get(f"{BASE}/{sid}").get_json()
    assert view["phase"] == "trading" and view["deadline_ms"] - view["server_now_ms"] > 25_000
    store = client.application.extensions["chemgames.store"]
    assert view["version"] > 100  # the bots did move
    assert store.now_ms(sid) < view["deadline_ms"]


def test_unknown_bots_and_seats_are_refused_for_polymer_too(client: FlaskClient) -> None:
    cases = (({"1": "oracle"}, "invalid_request"), ({"9": "trading"}, "bad_bots"))
    for bots, code in cases:
        answer = client.post(f"{BASE}", json={"players": 5, "bots": bots})
        assert answer.status_code == 422, answer.get_json()
        assert answer.get_json()["code"] == code
        assert "bots" in answer.get_json()["errors"]


def test_think_times_outside_their_range_are_refused(client: FlaskClient) -> None:
    for pace in (
        {"bot_think_min_ms": 4000, "bot_think_max_ms": 1500},
        {"bot_think_min_ms": 50},
        {"bot_think_max_ms": 60_001},
    ):
        answer = client.post(
            f"{BASE}", json={"players": 5, "bots": {"1": "trading"}, "options": pace}
        )
        assert answer.status_code == 422, answer.get_json()
        assert answer.get_json()["code"] == "bad_option", answer.get_json()
