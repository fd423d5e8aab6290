"""A bound on the event streams one instance holds open at once.

Anyone may open a session and follow it, and a stream holds a connection, a Redis
pub/sub connection (:class:`Subscription`) and a greenlet for up to
``SSE_MAX_SECONDS``. Each address and each operator has a share of them
(``SSE_MAX_STREAMS_PER_ADDRESS``, ``SSE_MAX_STREAMS_PER_OPERATOR``, across every instance:
:class:`Shares`); past its share a new stream is refused ``429 stream_share_exceeded``,
so that no one address can take every slot. Past the instance's bound
(``SSE_MAX_STREAMS``) a new stream is refused with ``503 too_many_streams`` and
``Retry-After``, before anything is held.

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
service.http.problems.Problem: This instance already serves its limit of 1 event streams...
>>> first.release(); first.release()  # idempotent
>>> local.open()
0
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import threading
import uuid
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


# KEYS[1]: the open streams of one address or operator (a sorted set: stream -> when it
# ends at the latest). ARGV: limit, how long a stream may stay open (ms), the stream's id.
# Streams past their end (a worker that died with them open) are dropped first.
_SHARE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, lasts = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local open = redis.call('ZCARD', KEYS[1])
if open >= limit then return open end
redis.call('ZADD', KEYS[1], now + lasts, ARGV[3])
redis.call('PEXPIRE', KEYS[1], lasts)
return -1
"""


class Shares:
    """Each address's and each operator's share of the event streams, across every
    instance (counted in Redis).

    A stream counts for the address that opened it and for the operator whose session
    it follows (a session created without an operator key counts for its address only),
    from when it is admitted until it closes, or at the latest ``lasts_ms`` after it
    opened (``SSE_MAX_SECONDS`` and a margin: a worker that died with streams open does
    not keep them counted). Past a share the stream is refused
    ``429 stream_share_exceeded``: the one over its share waits, everyone else is served.
    """

    def __init__(self, client: Any, prefix: str, lasts_ms: int) -> None:
        self.client = client
        self.prefix = prefix
        self.lasts_ms = lasts_ms
        self._script: Any = None

    def key(self, kind: str, who: str) -> str:
        return f"{self.prefix}{{streams/{kind}/{who}}}"

    def acquire(self, shares: list[tuple[str, str, int]]) -> ShareSlot:
        """Admit one stream within each ``(kind, who, limit)`` share (a limit of 0: none),
        or raise ``stream_share_exceeded``."""
        if self._script is None:
            self._script = self.client.register_script(_SHARE)
        member = uuid.uuid4().hex
        held = ShareSlot(self.client, member)
        for kind, who, limit in shares:
            if limit <= 0:
                continue
            key = self.key(kind, who)
            open_ = int(self._script(keys=[key], args=[limit, self.lasts_ms, member]))
            if open_ >= 0:
                held.release()
                raise Problem(
                    "stream_share_exceeded",
                    f"Your {'address' if kind == 'address' else 'operator'} already has "
                    f"{open_} event streams open, its share ({limit}). Close one (or wait: a "
                    f"stream ends by itself), retry in {RETRY_AFTER_SECONDS} seconds; "
                    "meanwhile GET the session to resync.",
                    headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
                )
            held.keys.append(key)
        return held


class ShareSlot:
    """The shares one admitted stream holds; :meth:`release` them when it closes."""

    def __init__(self, client: Any, member: str) -> None:
        self.client = client
        self.member = member
        self.keys: list[str] = []

    def release(self) -> None:
        keys, self.keys = self.keys, []
        for key in keys:
            # on failure it expires with the stream's longest life anyway
            with contextlib.suppress(redis.RedisError):
                self.client.zrem(key, self.member)


class SubscriptionLost(redis.ConnectionError):
    """The server dropped the stream's subscription (its slot moved to another node)."""


class Subscription:
    """One stream's subscription to a session's channel of public events.

    ``sharded`` (the session's node runs Redis 7) subscribes with ``SSUBSCRIBE`` on the
    node that serves the channel's slot, matching the commit's ``SPUBLISH``; else with
    ``SUBSCRIBE``. The connection comes from the pool ``client`` was built with: streams
    hold theirs for as long as they are open, so they never take the ones moves need
    (``service/base/redis_client.py``), and it is never silently reconnected: a lost
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
