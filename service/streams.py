"""A bound on the event streams one instance holds open at once.

Anyone may open a session and follow it, and a stream holds a connection, a Redis
pub/sub connection (:class:`Subscription`) and a greenlet for up to
``SSE_MAX_SECONDS``. Past the bound (``SSE_MAX_STREAMS``, per instance) a new stream is refused with
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


class SubscriptionLost(redis.ConnectionError):
    """The server dropped the stream's subscription (its slot moved to another node)."""


class Subscription:
    """One stream's subscription to a session's channel of public events.

    ``sharded`` (the session's node runs Redis 7) subscribes with ``SSUBSCRIBE`` on the
    node that serves the channel's slot, matching the commit's ``SPUBLISH``; else with
    ``SUBSCRIBE``. The connection comes from the pool ``client`` was built with: streams
    hold theirs for as long as they are open, so they never take the ones moves need
    (``service/redis_client.py``), and it is never silently reconnected: a lost
    connection raises, the stream says ``error``, and the client resyncs instead of
    missing the updates published meanwhile.
    """

    def __init__(
        self, client: redis.Redis, channel: str, *, sharded: bool, confirm_timeout: float = 2.0
    ) -> None:
        self.channel = channel.encode()
        self.sharded = sharded
        self._pubsub: PubSub = client.pubsub()  # type: ignore[no-untyped-call]
        if sharded:
            self._pubsub.ssubscribe(channel)
        else:
            self._pubsub.subscribe(channel)
        # confirmed before the stream's first frame: every later commit reaches it
        confirmation = self._pubsub.get_message(timeout=confirm_timeout)
        kind = confirmation and confirmation["type"]
        if kind not in ("subscribe", "ssubscribe", b"subscribe", b"ssubscribe"):
            self._pubsub.close()
            raise redis.TimeoutError("the subscription was not confirmed")

    def get(self, timeout: float) -> bytes | None:
        """The next message's data, or None when ``timeout`` seconds pass without one."""
        message = self._pubsub.get_message(timeout=timeout)
        while message is not None:
            kind = message["type"]
            if isinstance(kind, bytes):
                kind = kind.decode()
            if kind in ("message", "smessage"):
                return message["data"]  # type: ignore[no-any-return]
            if kind in ("unsubscribe", "sunsubscribe") and message["channel"] == self.channel:
                raise SubscriptionLost("the session's channel moved to another node")
            message = self._pubsub.get_message(timeout=0)  # a subscribe confirmation
        return None

    def close(self) -> None:
        self._pubsub.close()


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
