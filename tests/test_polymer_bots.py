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
from flask.testing import FlaskClient

from .conftest import auth
from .test_gunicorn import call, serve

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
