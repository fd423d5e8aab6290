"""A bound on the event streams one instance holds open at once.

Anyone may open a session and follow it, and a stream holds a connection, a Redis
pub/sub connection and a greenlet for up to ``SSE_MAX_SECONDS``. Past the bound
(``SSE_MAX_STREAMS``, per instance) a new stream is refused with
``503 too_many_streams`` and ``Retry-After``, before anything is held.

An instance is one gunicorn master and its workers. gunicorn.conf.py calls
:func:`share` in the master before it forks, so the counts live in shared memory:
one slot per worker, written only by that worker, summed to decide. The master
gives each worker its slot (:func:`assign`, in ``pre_fork``) and zeroes it when the
worker exits (:func:`reclaim`, in ``child_exit``), so a crashed worker's streams do
not stay counted. A worker reserves before it reads the others' slots, so two
workers admitting at the same instant may both refuse but never both overshoot.
Without gunicorn (tests, ``flask run``) the count is per process.

>>> local = Limiter()
>>> first = local.acquire(1)
>>> local.acquire(1)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
service.problems.Problem: This instance already serves its limit of 1 event streams...
>>> first.release(); first.release()  # idempotent
>>> local.open()
0
"""

from __future__ import annotations

import ctypes
import multiprocessing
import threading
import weakref
from collections.abc import MutableSequence
from typing import Any

import redis
from redis.client import PubSub

from .problems import Problem

RETRY_AFTER_SECONDS = 10
# more than any instance runs workers; a worker beyond it counts only in its process
SLOTS = 256


class Slot:
    """One admitted stream; :meth:`release` it when the response closes."""

    def __init__(self, limiter: Limiter) -> None:
        self._limiter: Limiter | None = limiter

    def release(self) -> None:
        limiter, self._limiter = self._limiter, None
        if limiter is not None:
            limiter.add(-1)


class Limiter:
    def __init__(self, counts: MutableSequence[int] | None = None, slot: int = 0) -> None:
        self.counts: MutableSequence[int] = counts if counts is not None else [0]
        self.slot = slot
        self._lock = threading.Lock()  # gevent-patched in gevent workers; threads otherwise

    def add(self, delta: int) -> None:
        with self._lock:
            self.counts[self.slot] = max(0, self.counts[self.slot] + delta)

    def open(self) -> int:
        """Streams open on the whole instance now."""
        return sum(self.counts)

    def acquire(self, limit: int) -> Slot:
        """Admit one more stream, or raise ``too_many_streams``."""
        self.add(1)
        if self.open() > limit:
            self.add(-1)
            raise Problem(
                "too_many_streams",
                f"This instance already serves its limit of {limit} event streams. Retry in "
                f"{RETRY_AFTER_SECONDS} seconds; meanwhile GET the session to resync.",
                headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
            )
        return Slot(self)


_limiter = Limiter()
_shared: Any = None  # the master's shared counts, once shared
_free: list[int] = []


def acquire(limit: int) -> Slot:
    """Admit one more stream on this instance (see :class:`Limiter`)."""
    return _limiter.acquire(limit)


def open_streams() -> int:
    return _limiter.open()


_pubsub_clients: weakref.WeakKeyDictionary[Any, redis.Redis] = weakref.WeakKeyDictionary()


def pubsub(client: redis.Redis, limit: int) -> PubSub:
    """A pub/sub connection for one stream, from a pool of its own.

    Each stream holds its connection for as long as it is open, so streams take
    them from a pool sized for the stream bound (redis-py's default is 100 per
    process), never from the pool the moves use: however many streams are open,
    a move still finds a connection.
    """
    streams_client = _pubsub_clients.get(client)
    if streams_client is None:
        pool = client.connection_pool
        streams_client = redis.Redis(
            connection_pool=redis.ConnectionPool(
                connection_class=pool.connection_class,
                max_connections=limit + 10,  # a closing stream may still hold one
                **pool.connection_kwargs,
            )
        )
        _pubsub_clients[client] = streams_client
    return streams_client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call,no-any-return]


# gunicorn master hooks (gunicorn.conf.py) ---------------------------------------------
def share() -> None:
    """In the master, before any fork: put the counts in shared memory."""
    global _shared
    if _shared is None:
        _shared = multiprocessing.RawArray(ctypes.c_int, SLOTS)
        _free[:] = range(SLOTS)


def assign(worker: Any) -> None:
    """In the master, just before forking ``worker``: the slot its process will count in."""
    global _limiter
    if _shared is None or not _free:
        _limiter = Limiter()
        worker.stream_slot = None
        return
    slot = _free.pop(0)
    _shared[slot] = 0
    worker.stream_slot = slot
    _limiter = Limiter(_shared, slot)  # the forked worker inherits this limiter


def reclaim(worker: Any) -> None:
    """In the master, when ``worker`` has exited: its streams are gone with it."""
    slot = getattr(worker, "stream_slot", None)
    if _shared is not None and slot is not None:
        _shared[slot] = 0
        _free.append(slot)
        _free.sort()
