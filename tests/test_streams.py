"""The bound on open event streams: counted per instance, released on close."""

from __future__ import annotations

import ctypes
import multiprocessing
from typing import Any

import pytest

from service import streams
from service.problems import Problem

from .conftest import make_settings


class FakeWorker:
    pass


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
    counts = multiprocessing.RawArray(ctypes.c_int, 2)
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
        assert next(iter(resp.response)).startswith(b"retry:")  # subscribed by now
        opened.append(resp)
    assert client.post("/v1/polymer/sessions", json={"players": 5}).status_code == 201
    assert client.get(f"/v1/polymer/sessions/{sid}").status_code == 200
    for resp in reversed(opened):  # each holds a request context: last opened, first closed
        resp.close()
    assert streams.open_streams() == 0


def test_the_module_examples_run() -> None:
    import doctest

    assert doctest.testmod(streams).failed == 0
