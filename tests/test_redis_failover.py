"""A Sentinel failover in the middle of hosted games (issue 21, item 2).

A primary, its replica and three Sentinels on loopback (tests/redis_servers.py). Client
threads play hosted games through one app configured with ``redis+sentinel://``; the
primary is killed (SIGKILL) mid-game, several times. What must hold:

* while there is no primary every request answers ``503 redis_unavailable`` with
  ``Retry-After``, never a 500;
* play resumes on the promoted replica without restarting the app;
* a client that retries its unanswered request with the same Idempotency-Key gets the
  move applied exactly once (a second retry is a replay of the same answer);
* with ``REDIS_WAIT_REPLICAS=1`` no acknowledged move is lost.

What can be lost without WAIT is measured, not asserted: replication is asynchronous, so
a move acknowledged by the primary but not yet on the replica disappears with it. On
loopback the replica is microseconds behind (and reconnects at once when its link is
cut), so each failover here stalls the replica (SIGSTOP), cuts its link (``CLIENT KILL
TYPE replica``), lets play go on for 0.1 s, kills the primary and wakes the replica: a
replica that fell 0.1 s behind, as over a congested or partitioned network. The moves
acknowledged in that 0.1 s are the ones at risk. Run with ``-s`` to see the figures
(docs/OPERATIONS.md records them).
"""

from __future__ import annotations

import signal
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis
from flask import Flask

from service import create_app
from service.sessions.store import SessionStore

from .conftest import TEST_PREFIX, make_settings
from .redis_servers import SentinelSet, sentinel_set, wait_for

pytestmark = pytest.mark.redis
FAILOVERS = 2  # per mode
PLAYERS = 3
SLUG = "element-draft"
# what a client sees of a lost acknowledged move: its next move is on a version the
# game no longer has, or the whole session was lost
LOST = {(409, "stale_version"), (404, "session_not_found")}


@pytest.fixture(scope="module")
def sentinels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SentinelSet]:
    with sentinel_set(tmp_path_factory.mktemp("sentinel")) as s:
        yield s


@dataclass
class Request:
    path: str
    body: dict[str, Any]
    token: str | None = None
    key: str | None = None
    session: str | None = None


@dataclass(eq=False)
class Player(threading.Thread):
    """Plays hosted games (a bot move for whoever is to act, each with its own
    Idempotency-Key). On a 503 it retries the same request (same key) after a pause,
    and not before ``gate`` is open: the test closes it while it counts the losses."""

    app: Flask
    gate: threading.Event
    steady: threading.Event  # primary and replica up: answer times count
    statuses: Counter[int] = field(default_factory=Counter)
    acked: list[tuple[str, int, float]] = field(default_factory=list)  # session, version, when
    latencies: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    retried: int = 0
    resyncs: int = 0
    replayed: int = 0
    blocked: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        super().__init__(daemon=True)
        self.client = self.app.test_client()
        self.game: dict[str, Any] | None = None

    def send(self, req: Request) -> Any:
        headers = {"Authorization": f"Bearer {req.token}"} if req.token else {}
        if req.key:
            headers["Idempotency-Key"] = req.key
        started = time.monotonic()
        steady = self.steady.is_set()
        resp = self.client.post(req.path, json=req.body, headers=headers)
        if steady and self.steady.is_set() and resp.status_code == 200:
            self.latencies.append(time.monotonic() - started)
        self.statuses[resp.status_code] += 1
        return resp

    def next_request(self) -> Request:
        game = self.game
        if game is None or not game["to_act"]:
            return Request(f"/v1/{SLUG}/sessions", {"players": 2})
        body = {"seat": game["to_act"][0], "version": game["version"], "bot": "random"}
        url = f"/v1/{SLUG}/sessions/{game['id']}/bot-move"
        return Request(url, body, game["host"], uuid.uuid4().hex, game["id"])

    def run(self) -> None:
        pending: Request | None = None
        while not self.done.is_set():
            req = pending or self.next_request()
            resp = self.send(req)
            body = resp.get_json()
            if resp.status_code == 503:
                if body.get("code") != "redis_unavailable" or "Retry-After" not in resp.headers:
                    self.problems.append(f"503 without Retry-After or code: {body}")
                pending = req
                if not self.gate.is_set():
                    self.blocked.set()
                    self.gate.wait(60)
                time.sleep(0.05)  # a real client waits Retry-After seconds
                continue
            if (resp.status_code, body.get("code")) in LOST and req.session:
                # the game lost moves it had acknowledged (or all of it): resync, as a
                # client does on these answers
                self.resyncs += 1
                pending = None
                self.resync(req.session)
                continue
            if resp.status_code not in (200, 201):
                self.problems.append(f"{resp.status_code} {body}")
                self.game, pending = None, None
                continue
            if pending is not None and req.key:
                self.check_retry(req, resp)
            pending = None
            if req.session is None:
                self.game = {
                    "id": body["session_id"],
                    "host": body["host_token"],
                    "version": body["version"],
                    "to_act": body["to_act"],
                }
                continue
            assert self.game is not None
            self.game.update(version=body["version"], to_act=body["to_act"])
            self.acked.append((req.session, body["version"], time.monotonic()))

    def resync(self, session_id: str) -> None:
        resp = self.client.get(f"/v1/{SLUG}/sessions/{session_id}")
        if resp.status_code != 200 or self.game is None:
            self.game = None
            return
        body = resp.get_json()
        self.game.update(version=body["version"], to_act=body["to_act"])

    def check_retry(self, req: Request, first: Any) -> None:
        """The retry of an unanswered move applied it once: again, it is a replay."""
        self.retried += 1
        self.replayed += first.headers.get("Idempotent-Replayed") == "true"
        again = self.send(req)
        if again.headers.get("Idempotent-Replayed") != "true" or (
            again.get_json() != first.get_json()
        ):
            self.problems.append(f"a retry was not a replay: {again.get_json()}")


def _failover(
    s: SentinelSet,
    players: list[Player],
    gate: threading.Event,
    steady: threading.Event,
    store: SessionStore,
) -> tuple[int, int, int, float]:
    """Stall the replica, kill the primary, wait for the promotion; (acked, lost, acked
    while the replica was behind, the seconds from the kill until a move is answered)."""
    steady.set()
    time.sleep(0.6)  # play
    steady.clear()
    gate.clear()  # from the next 503 on, players wait until the losses are counted
    old = s.primary()
    replica = next(port for port in s.data_ports if port != old)
    stalled = time.monotonic()
    s.procs.signal(replica, signal.SIGSTOP)  # the replica falls behind...
    redis.Redis(port=old).client_kill_filter(_type="replica")  # ...and off the primary
    time.sleep(0.1)
    s.procs.kill(old)
    killed = time.monotonic()
    s.procs.signal(replica, signal.SIGCONT)
    for p in players:
        assert p.blocked.wait(20), "a player never saw the primary go"
    s.wait_for_failover(old)
    acked = [move for p in players for move in p.acked]
    stored: dict[str, int] = {}
    for session_id, _, _ in acked:
        if session_id not in stored:
            session, _ = store.load(session_id)
            stored[session_id] = -1 if session is None else session.version
    lost = sum(version > stored[session_id] for session_id, version, _ in acked)
    behind = sum(stalled <= when <= killed for _, _, when in acked)
    for p in players:
        p.acked.clear()
        p.blocked.clear()
    gate.set()
    if store.wait_replicas:  # no move is answered until a replica is back
        s.restart_as_replica(old)
    wait_for(lambda: any(p.acked for p in players), 20, "play on the new primary")
    outage = time.monotonic() - killed
    if not store.wait_replicas:
        s.restart_as_replica(old)  # the next failover has a replica to promote
    return len(acked), lost, behind, outage


def _play_through_failovers(app: Flask, s: SentinelSet) -> dict[str, Any]:
    store: SessionStore = app.extensions["chemgames.store"]
    gate, steady = threading.Event(), threading.Event()
    gate.set()
    players = [Player(app, gate, steady) for _ in range(PLAYERS)]
    for p in players:
        p.start()
    results = []
    try:
        for _ in range(FAILOVERS):
            results.append(_failover(s, players, gate, steady, store))
        time.sleep(0.3)  # play resumes on the promoted replica
    finally:
        gate.set()
        for p in players:
            p.done.set()
        for p in players:
            p.join(30)
    statuses = sum((p.statuses for p in players), Counter())
    latencies = sorted(t for p in players for t in p.latencies)
    return {
        "acked": sum(r[0] for r in results),
        "lost": sum(r[1] for r in results),
        "behind": sum(r[2] for r in results),
        "outages": [round(r[3], 1) for r in results],
        "statuses": statuses,
        "problems": [problem for p in players for problem in p.problems],
        "retried": sum(p.retried for p in players),
        "resyncs": sum(p.resyncs for p in players),
        "replayed": sum(p.replayed for p in players),
        "resumed": all(p.acked for p in players),
        "median_ms": 1000 * latencies[len(latencies) // 2],
    }


def test_hosted_play_survives_sentinel_failovers(sentinels: SentinelSet) -> None:
    app = create_app(make_settings(redis_url=sentinels.url, redis_timeout_seconds=0.5))
    plain = _play_through_failovers(app, sentinels)

    backend = app.extensions["chemgames.redis"]
    app.extensions["chemgames.store"] = SessionStore(
        backend, prefix=TEST_PREFIX, wait_replicas=1, wait_timeout_ms=100
    )
    waited = _play_through_failovers(app, sentinels)
    for name, run in (("no WAIT", plain), ("WAIT 1", waited)):
        print(
            f"\n{name}: {run['lost']} of {run['acked']} acknowledged moves lost across "
            f"{FAILOVERS} failovers ({run['behind']} acknowledged while the replica was "
            f"behind); {run['retried']} retried with their key "
            f"({run['replayed']} replayed); {run['resyncs']} resyncs after a lost move; "
            f"statuses {dict(run['statuses'])}; "
            f"seconds from the kill to play again {run['outages']}; "
            f"median move answer (primary and replica up) {run['median_ms']:.1f} ms"
        )
        assert run["problems"] == [], (name, run["problems"])
        assert set(run["statuses"]) <= {200, 201, 503, 409, 404}, (name, run["statuses"])
        assert run["statuses"][503] >= PLAYERS * FAILOVERS, "every player saw each outage"
        assert run["resumed"], "play resumed on the promoted replica"
    # with WAIT nothing acknowledged is lost, and every unanswered move, retried with
    # its key, was applied once (a replay if it had survived, else applied then)
    assert waited["lost"] == 0 and waited["resyncs"] == 0, waited
    assert set(waited["statuses"]) <= {200, 201, 503}, waited
    assert waited["retried"] >= 1, waited
    backend.delete_prefix(TEST_PREFIX)
