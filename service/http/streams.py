"""A bound on the event streams one instance holds open at once.

Anyone may open a session and follow it, and a stream holds a connection, a
subscription (:class:`Subscription`, on its process's one pub/sub connection:
:class:`Listener`) and a greenlet for up to ``SSE_MAX_SECONDS``. Each address and each
operator has a share of them (``SSE_MAX_STREAMS_PER_ADDRESS``,
``SSE_MAX_STREAMS_PER_OPERATOR``, across every instance: :class:`Shares`); past its
share a new stream is refused ``429 stream_share_exceeded``, so that no one address can
take every slot. Past the instance's bound (``SSE_MAX_STREAMS``) a new stream is refused
with ``503 too_many_streams`` and ``Retry-After``, before anything is held.

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

import collections
import contextlib
import ctypes
import multiprocessing
import queue
import threading
import uuid
from collections.abc import Callable, MutableSequence
from typing import Any, NamedTuple

import orjson
import redis

from ..base.waits import Deadline
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

# The same for an address's share, reading in the same call the operator of the session
# the stream follows (KEYS[2]: its hash; "" when it has none) for the operator's share:
# ``{open or -1, operator}``. Two slots: not on a cluster.
_SHARE_READING_OPERATOR = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, lasts = tonumber(ARGV[1]), tonumber(ARGV[2])
local operator = redis.call('HGET', KEYS[2], 'operator') or ''
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local open = redis.call('ZCARD', KEYS[1])
if open >= limit then return {open, operator} end
redis.call('ZADD', KEYS[1], now + lasts, ARGV[3])
redis.call('PEXPIRE', KEYS[1], lasts)
return {-1, operator}
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
        self._reading: Any = None

    def key(self, kind: str, who: str) -> str:
        return f"{self.prefix}{{streams/{kind}/{who}}}"

    def acquire(self, shares: list[tuple[str, str, int]]) -> ShareSlot:
        """Admit one stream within each ``(kind, who, limit)`` share (a limit of 0: none),
        or raise ``stream_share_exceeded``."""
        held = ShareSlot(self.client, uuid.uuid4().hex)
        for kind, who, limit in shares:
            self._take(held, kind, who, limit)
        return held

    def acquire_reading_operator(
        self, address: str, address_limit: int, session_key: str, operator_limit: int
    ) -> ShareSlot:
        """:meth:`acquire` of the address's share, then of the operator's whose session
        (``session_key``, its hash) the stream follows, that operator read in the
        address's share's own call rather than in a round trip of its own (one server
        or a Sentinel's primary: the two keys are in two slots)."""
        if self._reading is None:
            self._reading = self.client.register_script(_SHARE_READING_OPERATOR)
        held = ShareSlot(self.client, uuid.uuid4().hex)
        key = self.key("address", address)
        open_, operator = self._reading(
            keys=[key, session_key], args=[address_limit, self.lasts_ms, held.member]
        )
        self._admit(held, "address", key, int(open_), address_limit)
        operator = operator.decode() if isinstance(operator, bytes) else str(operator or "")
        if operator:
            self._take(held, "operator", operator, operator_limit)
        return held

    def _take(self, held: ShareSlot, kind: str, who: str, limit: int) -> None:
        """Add ``who``'s share of ``kind`` to ``held`` (a limit of 0: none), or release
        all ``held`` has and raise ``stream_share_exceeded``."""
        if limit <= 0:
            return
        if self._script is None:
            self._script = self.client.register_script(_SHARE)
        key = self.key(kind, who)
        open_ = int(self._script(keys=[key], args=[limit, self.lasts_ms, held.member]))
        self._admit(held, kind, key, open_, limit)

    @staticmethod
    def _admit(held: ShareSlot, kind: str, key: str, open_: int, limit: int) -> None:
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


# One lock for every message's derivations, made at import: in a gunicorn worker a plain
# lock (the master imports the service before the worker patches threading), instead of
# a gevent lock made per message (py-spy: its creation in the listener and its acquire
# 0.3% of a worker's samples). Held only while a derivation computes (no I/O, so no
# greenlet switch): nothing else ever waits for it in a gevent worker.
_derive_lock = threading.Lock()


class Published:
    """One message of a channel as this process received it, handed to every stream of
    the process that follows the channel: what the streams derive from it (its parsed
    members, the state it carries opened, a public frame) is derived once, in
    ``derived``, for all of them. Nothing derived may be changed by a stream."""

    __slots__ = ("_payload", "data", "derived")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.derived: dict[str, Any] = {}
        self._payload: dict[str, Any] | None = None

    def derive(self, name: str, make: Callable[[], Any]) -> Any:
        """``derived[name]``, made by ``make`` once for every stream of the process (two
        threads asking at once wait for the one making it). ``make`` must do no I/O."""
        found = self.derived.get(name)
        if found is None:
            with _derive_lock:
                found = self.derived.get(name)
                if found is None:
                    found = self.derived[name] = make()
        return found

    def payload(self) -> dict[str, Any]:
        """The message's members (shared: read them, never change them)."""
        if self._payload is None:
            self._payload = orjson.loads(self.data)
        return self._payload


class _Lost:
    """Put in a subscription's inbox when its subscription ended under it."""

    __slots__ = ("moved", "reason")

    def __init__(self, reason: str, moved: bool) -> None:
        self.reason, self.moved = reason, moved

    def error(self) -> redis.ConnectionError:
        return SubscriptionLost(self.reason) if self.moved else redis.ConnectionError(self.reason)


_Key = tuple[bool, bytes]  # (sharded, channel)


class _Channel:
    """The subscriptions of this process to one channel, and whether Redis confirmed it."""

    __slots__ = ("confirmed", "subscribers")

    def __init__(self) -> None:
        self.subscribers: list[Subscription] = []
        self.confirmed = threading.Event()


class Listener:
    """This process's one pub/sub connection to one Redis node, shared by all its streams.

    Each channel is subscribed once, however many of the process's streams follow it (a
    session's seats, its table page), and Redis sends each message once to the process;
    a reader (a greenlet in a gevent worker, else a thread) hands it to each stream's
    inbox. The connection comes from the pool of the ``client`` it was made for (the
    streams' own: moves never wait for it) and goes back to it, still connected, when
    the process follows no channel any more: a stream opened later does not connect
    again. It is never reconnected behind the streams' backs: once lost, every stream
    on it is told (``Subscription.get`` raises), and later streams get a new one.
    """

    # how long the reader waits for a message before it checks the connection (a PING)
    IDLE_SECONDS = 15.0

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self._lock = threading.Lock()
        self._conn: Any = None
        self._replies: Any = None
        self._closed = False
        self._broken = False
        self._channels: dict[_Key, _Channel] = {}
        # what each command sent still owes, in order (Redis answers them in order):
        # (channel, its subscribers) for a subscribe, (channel, None) for an
        # unsubscribe, (None, None) for a PING
        self._owed: collections.deque[tuple[_Key | None, _Channel | None]] = collections.deque()

    # the streams' side ---------------------------------------------------------------
    def follow(self, subscription: Subscription, confirm_timeout: float) -> bool:
        """Add ``subscription`` to its channel, once Redis confirmed it (False: this
        listener has closed meanwhile; take another)."""
        key = (subscription.sharded, subscription.channel)
        with self._lock:
            if self._closed:
                return False
            if self._conn is None:
                self._start()
            channel = self._channels.get(key)
            if channel is None:
                channel = self._channels[key] = _Channel()
                self._send("SSUBSCRIBE" if key[0] else "SUBSCRIBE", key, channel)
            channel.subscribers.append(subscription)
        if not channel.confirmed.wait(confirm_timeout):
            self.leave(subscription)
            raise redis.TimeoutError("the subscription was not confirmed")
        return True

    def follows(self, name: bytes) -> bool:
        """Whether this listener has channel ``name`` (sharded or not), read without the
        lock: a look at one dict, never in the middle of a change."""
        channels = self._channels
        return (False, name) in channels or (True, name) in channels

    def leave(self, subscription: Subscription) -> None:
        key = (subscription.sharded, subscription.channel)
        with self._lock:
            channel = self._channels.get(key)
            if channel is None or subscription not in channel.subscribers:
                return
            channel.subscribers.remove(subscription)
            if channel.subscribers or self._closed:
                return
            del self._channels[key]
            self._send("SUNSUBSCRIBE" if key[0] else "UNSUBSCRIBE", key, None)

    # under the lock -----------------------------------------------------------------
    def _start(self) -> None:
        pool = self.client.connection_pool
        conn: Any = pool.get_connection()
        try:
            if conn._sock is None:
                conn.connect()
            # last: it sets the socket's timeout, put back only by the reader
            self._replies = Replies(conn._sock, conn._parser.parse_error, self.IDLE_SECONDS)
        except BaseException:
            pool.release(conn)
            raise
        conn.register_connect_callback(self._reconnected)
        self._conn = conn
        thread = threading.Thread(target=self._read, name="chemgames-listener", daemon=True)
        thread.start()

    def _send(self, command: str, key: _Key | None, channel: _Channel | None) -> None:
        self._owed.append((key, channel))
        try:
            if key is None:
                self._conn.send_command(command, check_health=False)
            else:
                self._conn.send_command(command, key[1], check_health=False)
        except Exception as err:
            self._lose(f"the event stream's Redis connection failed: {err}")
            if channel is not None:
                raise redis.ConnectionError(str(err)) from err

    def _lose(self, reason: str, key: _Key | None = None, moved: bool = False) -> None:
        """Tell the streams of ``key`` (None: of every channel, and close: the connection
        is unusable) that their subscription is gone."""
        keys = [key] if key is not None else list(self._channels)
        for k in keys:
            channel = self._channels.pop(k, None)
            if channel is None:
                continue
            for subscription in channel.subscribers:
                subscription.inbox.put(_Lost(reason, moved))
            channel.confirmed.set()  # a stream still waiting for it reads its inbox
        if key is None:
            self._closed = self._broken = True
            _forget(self)

    def _reconnected(self, conn: Any) -> None:
        # redis-py reconnects a dropped connection on its next command (a subscribe, a
        # PING): its subscriptions would be gone without a word, so that command fails
        raise redis.ConnectionError("the event stream's Redis connection was lost")

    # the reader --------------------------------------------------------------------
    def _read(self) -> None:
        conn, replies = self._conn, self._replies
        try:
            while True:
                reply = replies.next()
                if reply is Replies.IDLE:
                    with self._lock:
                        if self._done():
                            return
                        self._send("PING", None, None)  # a dead peer fails it
                    continue
                with self._lock:
                    self._dispatch(reply)
                    if self._done():
                        return
        except Exception as err:  # the connection failed: every stream on it is told
            with self._lock:
                if not self._broken:
                    self._lose(f"the event stream's Redis connection failed: {err}")
        finally:
            replies.restore()
            conn.deregister_connect_callback(self._reconnected)
            if self._broken or replies.pending():
                conn.disconnect()
            self.client.connection_pool.release(conn)

    def _done(self) -> bool:
        """Closed, or following nothing and owed nothing: the connection can go back."""
        if not self._closed and (self._channels or self._owed):
            return False
        if not self._closed:
            self._closed = True
            _forget(self)
        return True

    def _dispatch(self, reply: Any) -> None:
        kind = ""
        if isinstance(reply, list) and len(reply) >= 2:
            kind = reply[0].decode() if isinstance(reply[0], bytes) else str(reply[0])
        if kind in ("message", "smessage") and len(reply) >= 3:
            channel = self._channels.get((kind == "smessage", reply[1]))
            if channel is not None:
                published = Published(reply[2])
                for subscription in channel.subscribers:
                    subscription.inbox.put(published)
            return
        key = (kind.startswith("s"), reply[1]) if kind.endswith("subscribe") else None
        owed_key, owed_channel = self._owed[0] if self._owed else (None, None)
        if kind in ("unsubscribe", "sunsubscribe") and (
            owed_key != key or owed_channel is not None
        ):  # not asked for: the server dropped it (the channel's slot moved)
            self._lose("the session's channel moved to another node", key, moved=True)
            return
        if not self._owed:
            return
        self._owed.popleft()
        if isinstance(reply, redis.ResponseError):
            if owed_key is not None and self._channels.get(owed_key) is owed_channel:
                moved = str(reply).startswith("MOVED")
                self._lose(f"Redis refused the subscription: {reply}", owed_key, moved)
        elif owed_channel is not None:
            owed_channel.confirmed.set()


# the kinds of RESP3 push a pub/sub connection's commands and channels send
_PUBSUB = frozenset(
    b"message smessage pmessage subscribe ssubscribe psubscribe unsubscribe sunsubscribe "
    b"punsubscribe pong".split()
)


def _pubsub(push: list[Any]) -> bool:
    return bool(push) and isinstance(push[0], bytes) and push[0].lower() in _PUBSUB


class _Short(Exception):
    """The buffer ends inside a reply: read more."""


class Replies:
    """The replies of a pub/sub connection, read straight off its socket.

    The listener's connection only ever receives messages and the answers to its
    (un)subscribes and PINGs, and it reads every one of them, one at a time: redis-py's
    reader (``can_read`` with a timeout, then ``read_response``, each element of a reply
    read through its buffer's line and length calls) cost as much CPU as the rest of
    the listener. Here one ``recv`` brings whatever has arrived, and each reply is cut
    from it with ``find`` and slices. A reply is what redis-py returns for it (bytes,
    ints, lists; an error as the exception redis-py's parser makes of it, returned), in
    RESP2 or RESP3. Anything else is a broken connection (:meth:`next` raises).
    """

    IDLE: Any = object()  # what :meth:`next` returns after ``idle`` seconds without a byte

    def __init__(self, sock: Any, parse_error: Callable[[str], Exception], idle: float) -> None:
        self._sock = sock
        self._parse_error = parse_error
        self._data = b""
        self._at = 0
        self._timeout = sock.gettimeout()  # the connection's own, put back by restore()
        sock.settimeout(idle)

    def restore(self) -> None:
        """Put the socket's timeout back (the connection goes back to its pool)."""
        with contextlib.suppress(OSError):
            self._sock.settimeout(self._timeout)

    def pending(self) -> bool:
        """Whether bytes were read that no reply used (the connection is not clean)."""
        return self._at < len(self._data)

    def next(self) -> Any:
        """The next reply, or :attr:`IDLE` when none came for ``idle`` seconds. A RESP3
        push that is not pub/sub (a server's notice to clients that asked for them) is
        skipped: it answers no command."""
        while True:
            at = self._at
            if at < len(self._data):
                try:
                    reply, self._at = self._parse(at)
                except _Short:
                    pass
                else:
                    if self._data[at] != 62 or _pubsub(reply):
                        return reply
                    continue
            try:
                more = self._sock.recv(65536)
            except TimeoutError:
                return self.IDLE
            if not more:
                raise redis.ConnectionError("the server closed the connection")
            self._data = self._data[self._at :] + more
            self._at = 0

    def _parse(self, at: int) -> tuple[Any, int]:
        data = self._data
        end = data.find(b"\r\n", at)
        if end < 0:
            raise _Short
        kind, line, at = data[at], data[at + 1 : end], end + 2
        if kind == 36:  # $ bulk string
            size = int(line)
            if size < 0:
                return None, at
            if len(data) < at + size + 2:
                raise _Short
            return data[at : at + size], at + size + 2
        if kind in (42, 62):  # * array, > push
            count = int(line)
            if count < 0:
                return None, at
            items = []
            for _ in range(count):
                item, at = self._parse(at)
                items.append(item)
            return items, at
        if kind == 58:  # : integer
            return int(line), at
        if kind == 43:  # + simple string
            return line, at
        if kind == 45:  # - error
            return self._parse_error(line.decode("utf-8", "replace")), at
        if kind == 95:  # _ null
            return None, at
        raise redis.ConnectionError(f"unexpected reply type {chr(kind)!r} on the event stream")


_listeners: dict[int, Listener] = {}
_listeners_lock = threading.Lock()  # held for no I/O: safe before gevent patches it


def _listener(client: redis.Redis) -> Listener:
    with _listeners_lock:
        found = _listeners.get(id(client))
        if found is None or found.client is not client:
            found = _listeners[id(client)] = Listener(client)
        return found


def _forget(listener: Listener) -> None:
    with _listeners_lock:
        if _listeners.get(id(listener.client)) is listener:
            del _listeners[id(listener.client)]


# The states this process sealed lately, by their sealed token: a commit's message
# carries the token it stored, and a stream of the same process that receives it builds
# its frames from the state the commit had, instead of opening the token again; and the
# mover's own stream sends the session as the move's answer showed it to the mover
# (the same view of the same state), instead of building it again. Kept only while
# this process follows the session's channel, and handed over (:func:`take`) to the
# first of its streams that receives the message: the state goes with the message
# (shared, read only, by the process's streams of the session) and is freed with it,
# still warm, instead of staying ``SEALED_KEPT`` moves to be freed cold (about 15 us a
# move, measured). The bound is for messages no stream took (a folded frame's older
# ones, a message lost with its connection).
SEALED_KEPT = 64


class Sealed(NamedTuple):
    """What a commit of this process sealed: its state, the mover's seat and what the
    move's answer showed that seat of it (never changed by anyone)."""

    state: Any
    seat: int | None
    shown: Any


_sealed: dict[str, Sealed] = {}
_sealed_lock = threading.Lock()  # held for no I/O: safe before gevent patches it


def followed(channel: str) -> bool:
    """Whether a stream of this process follows ``channel`` (subscribed, or subscribing)."""
    name = channel.encode()
    return any(listener.follows(name) for listener in list(_listeners.values()))


def sealed_here(
    token: str,
    state: Any,
    seat: int | None = None,
    shown: Any = None,
    *,
    channel: str | None = None,
) -> None:
    """Remember that ``token`` seals ``state`` (the latest ``SEALED_KEPT`` not taken yet
    are kept), and what the answer to ``seat``'s move shows that seat of it (``shown``,
    never changed after: the session block of that state for that seat, with the
    answer's own members). With ``channel`` (the session's), only while a stream of this
    process follows it: a stream subscribing later reads the session after subscribing
    and opens what it missed."""
    if channel is not None and not followed(channel):
        return
    with _sealed_lock:
        _sealed[token] = Sealed(state, seat, shown)
        while len(_sealed) > SEALED_KEPT:
            del _sealed[next(iter(_sealed))]


def take(token: str) -> Sealed | None:
    """What this process sealed as ``token``, handed over once (later: None), or None if
    it did not seal it lately."""
    with _sealed_lock:
        return _sealed.pop(token, None)


class Subscription:
    """One stream's subscription to a session's channel of public events.

    ``sharded`` (the session's node runs Redis 7) subscribes with ``SSUBSCRIBE`` on the
    node that serves the channel's slot, matching the commit's ``SPUBLISH``; else with
    ``SUBSCRIBE``. It is made through this process's :class:`Listener` for ``client``'s
    node (one pub/sub connection for all the process's streams), and confirmed by Redis
    before it returns: every later commit reaches it. A lost connection is never
    silently replaced: :meth:`get` raises, the stream says ``error``, and the client
    resyncs instead of missing the updates published meanwhile.
    """

    def __init__(
        self, client: redis.Redis, channel: str, *, sharded: bool, confirm_timeout: float = 2.0
    ) -> None:
        self.channel = channel.encode()
        self.sharded = sharded
        # looked up now, not at import: in a gevent worker, gevent's cooperative queue
        self.inbox: Any = queue.SimpleQueue()
        self._cooperative = type(self.inbox).__module__.startswith("gevent")
        self._deadline: Deadline | None = None
        self._listener = _listener(client)
        while not self._listener.follow(self, confirm_timeout):
            self._listener = _listener(client)

    def next(self, timeout: float) -> Published | None:
        """The next message, or None when ``timeout`` seconds pass without one."""
        inbox = self.inbox
        try:
            if not inbox.empty():  # only this stream takes from it: no timer, no wait
                item = inbox.get_nowait()
            elif timeout > 0:
                item = self._wait(timeout)
            else:
                return None
        except queue.Empty:
            return None
        if isinstance(item, _Lost):
            self.inbox.put(item)  # every later read fails the same way
            raise item.error()
        return item  # type: ignore[no-any-return]

    def _wait(self, timeout: float) -> Any:
        """The inbox's next item, or ``queue.Empty`` after ``timeout`` seconds. In a
        gevent worker the wait is bounded by one :class:`~service.base.waits.Deadline`
        kept by the stream (made anew when the timeout differs, as near a turn's
        deadline), not a new ``gevent.Timeout`` for each frame; gevent's queue takes the
        exception as it takes its own timeout's (the waiter withdrawn, no item lost)."""
        if not self._cooperative:
            return self.inbox.get(timeout=timeout)
        deadline = self._deadline
        if deadline is None or deadline.seconds != timeout:
            if deadline is not None:
                deadline.close()
            deadline = self._deadline = Deadline(timeout, queue.Empty)
        deadline.start()
        try:
            return self.inbox.get()
        finally:
            deadline.stop()

    def get(self, timeout: float) -> bytes | None:
        """The next message's data, or None when ``timeout`` seconds pass without one."""
        published = self.next(timeout)
        return None if published is None else published.data

    def close(self) -> None:
        if self._deadline is not None:
            self._deadline.close()
        self._listener.leave(self)


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
