"""The bound on open event streams: counted per instance, released on close."""

from __future__ import annotations

import ctypes
import multiprocessing
import secrets
import subprocess
import sys
import time
from typing import Any

import pytest
import redis

from service.http import streams
from service.http.problems import Problem

from .conftest import TEST_PREFIX, make_settings


class FakeWorker:
    stream_slot: int | None  # set by streams.assign


@pytest.fixture()
def master(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The module as gunicorn's master leaves it, restored afterwards."""
    monkeypatch.setattr(streams, "_shared", None)
    monkeypatch.setattr(streams, "_free", [])
    monkeypatch.setattr(streams, "_limiter", streams.Limiter())
    streams.share()
    return streams


def test_workers_share_one_bound_and_a_dead_workers_streams_are_reclaimed(master: Any) -> None:
    a, b = FakeWorker(), FakeWorker()
    master.assign(a)
    in_a = master._limiter  # what worker a inherits when it is forked
    master.assign(b)
    in_b = master._limiter
    assert (a.stream_slot, b.stream_slot) == (0, 1)
    held = [in_a.acquire(3), in_b.acquire(3), in_a.acquire(3)]
    with pytest.raises(Problem) as refused:
        in_b.acquire(3)
    assert refused.value.code == "too_many_streams" and refused.value.status == 503
    assert refused.value.headers == {"Retry-After": str(streams.RETRY_AFTER_SECONDS)}
    held[1].release()
    held[1] = in_b.acquire(3)  # b's place came back
    # worker a dies holding two streams: the master zeroes its slot and reuses it
    master.reclaim(a)
    assert in_b.open() == 1
    c = FakeWorker()
    master.assign(c)
    assert c.stream_slot == 0 and master._limiter.open() == 1


def test_a_refused_stream_holds_no_place() -> None:
    # a ctypes array, held as Any as the master holds it (service/streams.py, _shared)
    counts: Any = multiprocessing.RawArray(ctypes.c_int, 2)
    one, two = streams.Limiter(counts, 0), streams.Limiter(counts, 1)
    slot = one.acquire(1)
    for _ in range(3):
        with pytest.raises(Problem):
            two.acquire(1)
    assert list(counts) == [1, 0]
    slot.release()
    slot.release()
    assert list(counts) == [0, 0]


@pytest.mark.every_redis
def test_the_events_endpoint_takes_a_place_and_gives_it_back_on_close(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from service import create_app

    monkeypatch.setattr(streams, "_limiter", streams.Limiter())
    app = create_app(make_settings(redis_url=redis_url, sse_max_streams=1))
    client = app.test_client()  # no `with`: it would keep request contexts the stream pops
    sid = client.post("/v1/polymer/sessions", json={"players": 5}).get_json()["session_id"]
    first = client.get(f"/v1/polymer/sessions/{sid}/events", buffered=False)
    assert first.status_code == 200 and streams.open_streams() == 1
    second = client.get(f"/v1/polymer/sessions/{sid}/events")
    assert second.status_code == 503
    assert second.headers["Retry-After"] == str(streams.RETRY_AFTER_SECONDS)
    assert second.get_json()["code"] == "too_many_streams"
    first.close()  # the client went away before reading anything
    assert streams.open_streams() == 0
    # an unknown session is refused before a place is taken
    assert client.get("/v1/polymer/sessions/nope/events").status_code == 404
    assert streams.open_streams() == 0


@pytest.mark.every_redis
def test_open_streams_never_take_the_connections_moves_need(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Streams hold their pub/sub connections while open; they must not exhaust the
    pool the moves use (found at ~190 streams over 2 workers with one shared pool)."""
    from service import create_app

    monkeypatch.setattr(streams, "_limiter", streams.Limiter())
    settings = make_settings(
        redis_url=redis_url,
        sse_max_streams=8,
        redis_max_connections=4,  # moves' pool, per node: fewer than the open streams
        redis_pool_timeout_seconds=0.5,  # a move that found none would fail fast, 503
    )
    app = create_app(settings)
    client = app.test_client()
    sid = client.post("/v1/polymer/sessions", json={"players": 5}).get_json()["session_id"]
    opened = []
    for _ in range(8):
        resp = client.get(f"/v1/polymer/sessions/{sid}/events", buffered=False)
        assert resp.status_code == 200
        assert next(resp.iter_encoded()).startswith(b"retry:")  # subscribed by now
        opened.append(resp)
    assert client.post("/v1/polymer/sessions", json={"players": 5}).status_code == 201
    assert client.get(f"/v1/polymer/sessions/{sid}").status_code == 200
    for resp in reversed(opened):  # each holds a request context: last opened, first closed
        resp.close()
    assert streams.open_streams() == 0


def test_the_module_examples_run() -> None:
    import doctest

    assert doctest.testmod(streams).failed == 0


@pytest.mark.redis
def test_one_address_over_its_share_of_streams_gets_429_and_others_are_served(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: one address may not take every stream slot. Its share (here 4) is
    refused `429 stream_share_exceeded`; another address is still served; a closed
    stream gives its place back. The instance's bound (10) is never reached."""

    from .test_limits import limited_app

    monkeypatch.setattr(streams, "_limiter", streams.Limiter())
    app = limited_app(redis_url, sse_max_streams=10, sse_max_streams_per_address=4)
    client = app.test_client()
    sid = client.post("/v1/polymer/sessions", json={"players": 5}).get_json()["session_id"]
    url = f"/v1/polymer/sessions/{sid}/events"
    school = {"REMOTE_ADDR": "192.0.2.10"}
    held = [client.get(url, buffered=False, environ_base=school) for _ in range(4)]
    assert [h.status_code for h in held] == [200] * 4
    over = client.get(url, environ_base=school)
    assert over.status_code == 429 and over.mimetype == "application/problem+json"
    assert over.get_json()["code"] == "stream_share_exceeded"
    assert "(4)" in over.get_json()["detail"]
    assert over.headers["Retry-After"] == str(streams.RETRY_AFTER_SECONDS)
    assert streams.open_streams() == 4, "the refused stream holds no slot"
    other = client.get(url, buffered=False, environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert other.status_code == 200
    # streams close in the reverse order they opened (each holds a request context)
    other.close()
    held.pop().close()
    again = client.get(url, buffered=False, environ_base=school)
    assert again.status_code == 200, "a closed stream gives its share back"
    for h in [again, *reversed(held)]:
        h.close()
    assert streams.open_streams() == 0


@pytest.mark.redis
@pytest.mark.parametrize("by_address", [150, 0])
def test_an_operator_over_its_share_of_streams_gets_429(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, by_address: int
) -> None:
    """An operator's sessions share its bound, from whatever addresses follow them. With
    an address's share too, the session's operator is read in that share's call, not in
    a read of its own."""
    from service.sessions.store import SessionStore

    from .conftest import auth
    from .test_limits import limited_app

    monkeypatch.setattr(streams, "_limiter", streams.Limiter())
    app = limited_app(
        redis_url,
        operator_keys=("lms",),
        sse_max_streams_per_operator=3,
        sse_max_streams_per_address=by_address,
        sse_max_streams=50,
    )
    client = app.test_client()
    made = [
        client.post("/v1/polymer/sessions", json={"players": 5}, headers=auth("lms")).get_json()
        for _ in range(2)
    ]
    urls = [f"/v1/polymer/sessions/{m['session_id']}/events" for m in made]
    if by_address:

        def no_listing(self: SessionStore, session_id: str) -> None:
            raise AssertionError("the operator is read with the address's share")

        monkeypatch.setattr(SessionStore, "listing", no_listing)
    held = [
        client.get(urls[i % 2], buffered=False, environ_base={"REMOTE_ADDR": f"10.0.0.{i}"})
        for i in range(3)
    ]
    assert [h.status_code for h in held] == [200] * 3
    over = client.get(urls[1], environ_base={"REMOTE_ADDR": "10.0.0.99"})
    assert over.status_code == 429 and over.get_json()["code"] == "stream_share_exceeded"
    assert "operator" in over.get_json()["detail"]
    for h in reversed(held):
        h.close()


@pytest.mark.redis
def test_a_school_of_30_devices_with_4_streams_each_fits_the_default_share(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default address share (150) holds a class behind one address: 30 devices
    following 4 sessions each."""
    from .test_limits import limited_app

    monkeypatch.setattr(streams, "_limiter", streams.Limiter())
    app = limited_app(redis_url)
    assert app.config["SETTINGS"].sse_max_streams_per_address == 150
    client = app.test_client()
    sids = [
        client.post("/v1/polymer/sessions", json={"players": 5}).get_json()["session_id"]
        for _ in range(4)
    ]
    held = [
        client.get(f"/v1/polymer/sessions/{sids[n % 4]}/events", buffered=False) for n in range(120)
    ]
    assert [h.status_code for h in held] == [200] * 120
    for h in reversed(held):
        h.close()
    assert streams.open_streams() == 0


def _stream_client(url: str, name: str) -> redis.Redis:
    """A client as the streams' pool makes them, its connections named for CLIENT LIST."""
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=4, client_name=name)
    return redis.Redis(connection_pool=pool)


def _connections(admin: redis.Redis, name: str) -> list[dict[str, Any]]:
    return [c for c in admin.client_list() if c.get("name") == name]


def _followers(admin: redis.Redis, channel: str, sharded: bool) -> int:
    counts = admin.pubsub_shardnumsub(channel) if sharded else admin.pubsub_numsub(channel)
    return int(counts[0][1])


def _idle_in_pool(client: redis.Redis) -> int:
    """Connections made and given back to ``client``'s blocking pool, ready for reuse."""
    pool: Any = client.connection_pool  # a BlockingConnectionPool: a queue, None for unmade
    return sum(1 for conn in list(pool.pool.queue) if conn is not None)


def _until(check: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.02)


@pytest.mark.redis
@pytest.mark.parametrize("sharded", [False, True], ids=["subscribe", "ssubscribe"])
def test_a_process_follows_a_channel_once_for_all_its_streams(
    redis_url: str, sharded: bool
) -> None:
    """Two streams of one session in one process: one subscription in Redis, each message
    received once and handed to both (what they derive from it, derived once), and the
    connection kept for the next stream rather than a new one made."""
    name = f"streams-{secrets.token_hex(4)}"
    channel = f"{TEST_PREFIX}{name}"
    client, admin = _stream_client(redis_url, name), redis.Redis.from_url(redis_url)
    publish = admin.spublish if sharded else admin.publish
    try:
        seat, table = (streams.Subscription(client, channel, sharded=sharded) for _ in "ab")
        assert _followers(admin, channel, sharded) == 1
        publish(channel, b'{"version": 1}')
        first, second = seat.next(timeout=2), table.next(timeout=2)
        assert first is not None and first is second
        assert first.payload() == {"version": 1} and first.data == b'{"version": 1}'
        seat.close()
        publish(channel, b'{"version": 2}')
        assert table.get(timeout=2) == b'{"version": 2}'
        table.close()
        _until(lambda: _followers(admin, channel, sharded) == 0)
        assert len(_connections(admin, name)) == 1
        # Redis answered the unsubscribe before the listener's thread read the answer and
        # gave the connection back: a stream that came between would get a new one (that
        # is right: the old one is not free yet), so the test waits for the return
        _until(lambda: _idle_in_pool(client) == 1)
        later = streams.Subscription(client, channel, sharded=sharded)
        try:
            publish(channel, b'{"version": 3}')
            assert later.get(timeout=2) == b'{"version": 3}'
            assert len(_connections(admin, name)) == 1, "the same connection, not a new one"
        finally:
            later.close()
    finally:
        client.close()
        admin.close()


@pytest.mark.redis
def test_a_lost_connection_fails_every_stream_on_it_and_is_never_silently_replaced(
    redis_url: str,
) -> None:
    """The process's pub/sub connection dropped: each stream on it is told (so it says
    `error` and its client resyncs), again on every read, and a stream opened afterwards
    is served on a new connection."""
    name = f"streams-{secrets.token_hex(4)}"
    channel = f"{TEST_PREFIX}{name}"
    client, admin = _stream_client(redis_url, name), redis.Redis.from_url(redis_url)
    try:
        one, two = (streams.Subscription(client, channel, sharded=False) for _ in "ab")
        (held,) = _connections(admin, name)
        admin.client_kill_filter(_id=held["id"])
        for subscription in (one, two, one):
            with pytest.raises(redis.ConnectionError):
                subscription.get(timeout=5)
        one.close()
        two.close()
        fresh = streams.Subscription(client, channel, sharded=False)
        try:
            admin.publish(channel, b'{"version": 1}')
            assert fresh.get(timeout=2) == b'{"version": 1}'
        finally:
            fresh.close()
    finally:
        client.close()
        admin.close()


class _Trickle:
    """A socket that hands out ``chunks`` one ``recv`` at a time, then times out."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = list(chunks)
        self.timeout: float | None = 3.0

    def gettimeout(self) -> float | None:
        return self.timeout

    def settimeout(self, timeout: float | None) -> None:
        self.timeout = timeout

    def recv(self, size: int) -> bytes:
        if not self.chunks:
            raise TimeoutError
        return self.chunks.pop(0)


def test_the_listener_reads_replies_as_redis_py_returns_them_whatever_the_cuts() -> None:
    """RESP3 pushes and RESP2 arrays, an error, a PONG, a null, a push that is not
    pub/sub (skipped), cut at every byte across reads: the same replies, then IDLE once
    nothing more comes, and the socket's own timeout put back."""
    from redis._parsers.base import _RESPBase

    parse_error: Any = _RESPBase.parse_error  # what the connection's parser makes of one
    wire = (
        b">3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n"
        b'>3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$13\r\n{"version":1}\r\n'
        b">2\r\n$6\r\nMOVING\r\n:30\r\n"
        b"+PONG\r\n"
        b"-MOVED 3999 127.0.0.1:6381\r\n"
        b"*2\r\n$4\r\npong\r\n$0\r\n\r\n"
        b"*3\r\n$8\r\nsmessage\r\n$2\r\nch\r\n$-1\r\n"
        b"_\r\n"
    )
    expected = [
        [b"subscribe", b"ch", 1],
        [b"message", b"ch", b'{"version":1}'],
        b"PONG",
        "MOVED 3999 127.0.0.1:6381",
        [b"pong", b""],
        [b"smessage", b"ch", None],
        None,
    ]
    for cut in range(len(wire) + 1):
        sock = _Trickle([wire[:cut], wire[cut:]] if 0 < cut < len(wire) else [wire])
        replies = streams.Replies(sock, parse_error, 15.0)
        assert sock.timeout == 15.0
        got = [replies.next() for _ in expected]
        moved = parse_error("MOVED 3999 127.0.0.1:6381")
        assert type(got[3]) is type(moved) and str(got[3]) == str(moved)
        got[3] = "MOVED 3999 127.0.0.1:6381"
        assert got == expected, cut
        assert replies.next() is streams.Replies.IDLE
        assert not replies.pending()
        replies.restore()
        assert sock.timeout == 3.0


def test_the_listener_reads_a_closed_connection_or_an_unknown_reply_as_broken() -> None:
    closed = streams.Replies(_Trickle([b">3\r\n$7\r\nmess", b""]), lambda e: Exception(e), 1.0)
    with pytest.raises(redis.ConnectionError):
        closed.next()
    assert closed.pending()
    odd = streams.Replies(_Trickle([b"%1\r\n+a\r\n+b\r\n"]), lambda e: Exception(e), 1.0)
    with pytest.raises(redis.ConnectionError):
        odd.next()


@pytest.mark.redis
def test_in_a_gevent_worker_a_streams_wait_is_bounded_afresh_each_time() -> None:
    """Under gevent a stream's wait for its next message is bounded by one deadline it
    keeps (made anew when the timeout differs): a message published 0.1 s into a 0.3 s
    wait is received, and each empty wait after it takes its whole 0.3 s (not what the
    first left); a shorter timeout is that long."""
    code = (
        "from gevent import monkey; monkey.patch_all()\n"
        "import secrets, time, gevent, redis\n"
        "from service.http import streams\n"
        "url = 'redis://127.0.0.1:6379/15'\n"
        "client, admin = redis.Redis.from_url(url), redis.Redis.from_url(url)\n"
        "channel = f'test-waits-{secrets.token_hex(4)}'\n"
        "sub = streams.Subscription(client, channel, sharded=False)\n"
        "def took(timeout):\n"
        "    started = time.monotonic()\n"
        "    got = sub.next(timeout=timeout)\n"
        "    return got, time.monotonic() - started\n"
        "gevent.spawn_later(0.1, admin.publish, channel, b'{\"version\": 1}')\n"
        "got, waited = took(0.3)\n"
        "print(got.data, waited < 0.25)\n"
        "print([(got is None, 0.25 < waited < 1) for got, waited in (took(0.3) for _ in 'ab')])\n"
        "got, waited = took(0.05)\n"
        "print(got, 0.03 < waited < 0.2)\n"
        "sub.close()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split("\n")[:3] == [
        """b'{"version": 1}' True""",
        "[(True, True), (True, True)]",
        "None True",
    ]
