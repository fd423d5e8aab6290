"""How the service reaches Redis: one server, a Redis Cluster, or a Sentinel-watched primary.

Everything that talks to Redis gets its client here (:class:`RedisBackend`), so sessions,
idempotency answers, event streams and whatever comes later share one connection layer.
``REDIS_URL``'s scheme says which kind:

* ``redis://host:6379/0``, ``rediss://...``, ``unix:///path/redis.sock?db=0``: one server
  (redis-py's own URL forms);
* ``redis+cluster://host:7000,host:7001`` (``rediss+cluster://`` with TLS): a Redis
  Cluster; the listed nodes are where discovery starts (one is enough, more survive one
  being down); database 0 only;
* ``redis+sentinel://host:26379,host:26380,host:26381/mymaster/0`` (``rediss+sentinel://``
  with TLS to the data nodes): the primary that the Sentinels call ``mymaster``, and
  database 0; ``?sentinel_password=...`` when the Sentinels want one.

User and password in the URL (``redis+cluster://:secret@host:7000``) are the data nodes'.

Connections come from pools that **wait** (up to ``pool_timeout`` seconds) for a free
connection instead of failing at once, sized to a worker's concurrency: only a Redis that
cannot be reached answers ``503 redis_unavailable``. A cluster has such a pool per node.

>>> parse_url("redis+cluster://:pw@10.0.0.1:7000,[::1]:7001").nodes
(('10.0.0.1', 7000), ('::1', 7001))
>>> t = parse_url("redis+sentinel://s1:26379,s2/mymaster/2?sentinel_password=x")
>>> t.kind, t.service, t.db, t.nodes, t.sentinel_password
('sentinel', 'mymaster', 2, (('s1', 26379), ('s2', 26379)), 'x')
>>> parse_url("redis://127.0.0.1:6379/14").kind
'single'
>>> glob_escape("a*b?[c]")
'a\\\\*b\\\\?\\\\[c\\\\]'
"""

from __future__ import annotations

import contextlib
import functools
import os
import queue
import select
import ssl
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias
from urllib.parse import parse_qs, unquote, urlsplit

import redis
from redis._parsers import _RESP2Parser
from redis.backoff import ExponentialWithJitterBackoff, NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import DataError, InvalidResponse, RedisClusterException, ResponseError
from redis.retry import Retry
from redis.sentinel import Sentinel, SentinelConnectionPool, SentinelManagedConnection

from .waits import Deadline

Client: TypeAlias = "redis.Redis | RedisCluster"

# Every failure of the Redis layer: redis-py's errors, and the cluster client's own
# (raised, for one, when no node of the cluster can be reached at all).
ERRORS: tuple[type[Exception], ...] = (redis.RedisError, RedisClusterException)

SCHEMES = {
    "redis": "single",
    "rediss": "single",
    "unix": "single",
    "redis+cluster": "cluster",
    "rediss+cluster": "cluster",
    "redis+sentinel": "sentinel",
    "rediss+sentinel": "sentinel",
}
DEFAULT_PORTS = {"cluster": 6379, "sentinel": 26379}


class BadRedisUrl(ValueError):
    pass


@dataclass(frozen=True)
class Target:
    """What a ``REDIS_URL`` names (see the module's documentation)."""

    kind: str  # "single" | "cluster" | "sentinel"
    url: str
    nodes: tuple[tuple[str, int], ...] = ()
    service: str | None = None
    db: int = 0
    username: str | None = None
    password: str | None = None
    tls: bool = False
    sentinel_password: str | None = None


def _host_port(part: str, default: int) -> tuple[str, int]:
    if part.startswith("["):  # [v6]:port
        host, _, rest = part[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = part.rpartition(":") if ":" in part else (part, "", "")
    if not host:
        raise BadRedisUrl(f"missing host in {part!r}")
    try:
        return host, int(port) if port else default
    except ValueError:
        raise BadRedisUrl(f"bad port in {part!r}") from None


def parse_url(url: str) -> Target:
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    kind = SCHEMES.get(scheme)
    if kind is None:
        raise BadRedisUrl(
            f"REDIS_URL {url.split('@')[-1]!r}: the scheme must be one of "
            f"{', '.join(s + '://' for s in SCHEMES)}"
        )
    if kind == "single":
        return Target(kind, url)
    split = urlsplit(url)
    userinfo, _, hosts = split.netloc.rpartition("@")
    username, _, password = userinfo.partition(":")
    nodes = tuple(_host_port(h, DEFAULT_PORTS[kind]) for h in hosts.split(",") if h)
    if not nodes:
        raise BadRedisUrl(f"REDIS_URL names no {kind} node")
    path = [unquote(p) for p in split.path.split("/") if p]
    query = parse_qs(split.query)
    service, db = None, 0
    try:
        if kind == "sentinel":
            if not path:
                raise BadRedisUrl("a redis+sentinel:// URL names the primary: .../<name>[/db]")
            service, db = path[0], int(path[1]) if len(path) > 1 else 0
        elif path:
            db = int(path[0])
    except ValueError:
        raise BadRedisUrl(f"bad database number in {split.path!r}") from None
    if kind == "cluster" and db != 0:
        raise BadRedisUrl("a Redis Cluster has database 0 only")
    return Target(
        kind,
        url,
        nodes=nodes,
        service=service,
        db=db,
        username=unquote(username) or None,
        password=unquote(password) or None,
        tls=scheme.startswith("rediss"),
        sentinel_password=query["sentinel_password"][0] if "sentinel_password" in query else None,
    )


def _cooperative() -> bool:
    """Whether this process runs under gevent's patches (a gunicorn gevent worker)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("threading"))


@functools.cache
def _connected_skips_retry(connection_class: Any) -> Any:
    """``connection_class``, whose ``connect()`` returns at once when it is connected.

    redis-py asks a pooled connection to connect before every command; it is connected
    nearly always, and the question went through the retry's machinery (closures, the
    clock, this module's :class:`_Retry`) each time to find that out.
    """

    def connect(self: Any) -> None:
        if not self.is_connected:
            connection_class.connect(self)

    return type(connection_class.__name__, (connection_class,), {"connect": connect})


_pid = os.getpid()


def _forked() -> None:
    global _pid
    _pid = os.getpid()


# A child of os.fork (gunicorn's workers, multiprocessing) learns its own id here, so
# the pools below need not ask the system for it at every connection taken and returned.
os.register_at_fork(after_in_child=_forked)


class Pool(redis.BlockingConnectionPool):
    """redis-py's pool that waits for a free connection, made cheaper to take from.

    In a gevent worker its free connections wait in gevent's own queue rather than the
    standard library's, whose locks and conditions (patched into gevent's) were 4% of a
    worker's time under load; anywhere else (tests, threads) in the standard one.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "queue_class" not in kwargs:
            if _cooperative():
                from gevent.queue import LifoQueue

                kwargs["queue_class"] = LifoQueue
            else:
                kwargs["queue_class"] = queue.LifoQueue
        super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]
        self.connection_class = _connected_skips_retry(self.connection_class)

    def _checkpid(self) -> None:
        """redis-py's fork check (a pool made before a fork is reset in the child),
        asking ``os.getpid()`` only when a fork since the pool was made may have
        changed it: this process's id as the fork hook above keeps it."""
        if self.pid != _pid:
            super()._checkpid()

    def _lean(self) -> bool:
        """Whether this pool may be taken from without redis-py's extras: no client-side
        cache, no maintenance notifications (RESP3 only: never on the command pool, which
        speaks RESP2; a pool that has them goes through redis-py's own steps)."""
        plain: bool | None = self.__dict__.get("_plain")
        if plain is None:
            plain = self._plain = getattr(self, "cache", None) is None and not (
                hasattr(self, "maint_notifications_enabled") and self.maint_notifications_enabled()  # type: ignore[no-untyped-call]
            )
        return plain and not getattr(self, "_in_maintenance", False)

    def get_connection(self, command_name: Any = None, *keys: Any, **options: Any) -> Any:
        """A free connection (waiting up to ``timeout`` for one), connected, with nothing
        unread: redis-py's own steps, without its per-call extras (a check of deprecated
        arguments, its OpenTelemetry pool counts, which the service does not enable), and
        the unread check done with one poll of the socket (:func:`_dirty`)."""
        if command_name is not None or keys or options:
            return super().get_connection(command_name, *keys, **options)  # type: ignore[no-untyped-call]
        if not self._lean():
            return super().get_connection()  # type: ignore[no-untyped-call]
        self._checkpid()
        try:
            connection = self.pool.get(block=True, timeout=self.timeout)
        except queue.Empty:
            raise redis.ConnectionError("No connection available.") from None
        if connection is None:
            connection = self.make_connection()  # type: ignore[no-untyped-call]
        try:
            connection.connect()
            try:
                if _dirty(connection):
                    raise redis.ConnectionError("Connection has data")
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                connection.disconnect()
                connection.connect()
                if _dirty(connection):
                    raise redis.ConnectionError("Connection not ready") from None
        except BaseException:
            self.release(connection)
            raise
        return connection

    def release(self, connection: Any) -> None:
        """The connection back to the pool: redis-py's steps, without its pool counts."""
        if not self._lean():
            super().release(connection)  # type: ignore[no-untyped-call]
            return
        self._checkpid()
        if not self.owns_connection(connection):
            connection.disconnect()  # made before a fork: a new one in its place
            self.pool.put_nowait(None)
            return
        if getattr(connection, "should_reconnect", bool)():
            connection.disconnect()
        with contextlib.suppress(queue.Full):  # never: the queue holds every connection
            self.pool.put_nowait(connection)


def _original_poll() -> Any:
    """The system's ``select.poll``, not gevent's: a poll that never waits needs no hub."""
    try:
        from gevent.monkey import get_original
    except ImportError:
        return select.poll
    return get_original("select", "poll")


_poll = _original_poll()
_UNREAD = select.POLLIN | select.POLLPRI  # POLLERR, POLLHUP, POLLNVAL: always reported


def _dirty(conn: Any) -> bool:
    """Whether a pooled connection has something unread: bytes its parser buffered,
    data on its socket, the server's close or a reset; any of them, and it is not fit
    for a new command.

    What redis-py's ``can_read()`` tells by reading the socket with a zero timeout
    (data is read, a close raises, a reset raises), told by one poll of the socket
    that reads nothing (data, a close and a reset all make it report the socket).
    Connections whose bytes a poll cannot see (TLS buffers decrypted data; another
    parser) are asked ``can_read()``.
    """
    sock = conn._sock
    if (
        sock is None
        or isinstance(conn, redis.SSLConnection)
        or type(conn._parser) is not _RESP2Parser
    ):
        return bool(conn.can_read())
    buffer = conn._parser._buffer
    if buffer is not None and buffer.unread_bytes():
        return True
    poller = _poll()
    poller.register(sock.fileno(), _UNREAD)
    return bool(poller.poll(0))


class BlockingSentinelPool(SentinelConnectionPool, redis.BlockingConnectionPool):
    """Sentinel's pool (it finds the current primary) that waits for a free connection."""


class _Retry(Retry):
    """redis-py's retry, that tells a hung Redis from a busy one (see :func:`_retry`)."""

    # when a command last had its answer, in this process (every client shares it)
    answered_at = 0.0

    def __init__(self, *args: Any, timeout: float = 1.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timeout = timeout

    def call_with_retry(
        self,
        do: Any,
        fail: Any,
        is_retryable: Any = None,
        with_failure_count: bool = False,
    ) -> Any:
        """redis-py's loop (``Retry.call_with_retry``), with a timeout while nothing
        answered not retried; written out, without a closure per call around ``do``."""
        self._backoff.reset()  # type: ignore[no-untyped-call]
        failures = 0
        while True:
            started = time.monotonic()
            try:
                result = do()
            except self._supported_errors as error:
                if not self._retryable(error, started) or (
                    is_retryable is not None and not is_retryable(error)
                ):
                    raise
                failures += 1
                if with_failure_count:
                    fail(error, failures)
                else:
                    fail(error)
                if self._retries >= 0 and failures > self._retries:
                    raise error
                backoff = self._backoff.compute(failures)
                if backoff > 0:
                    time.sleep(backoff)
            else:
                _Retry.answered_at = time.monotonic()
                return result

    def _retryable(self, error: Exception, started: float) -> bool:
        return not (
            isinstance(error, redis.TimeoutError)
            and not _connecting(error)
            and _Retry.answered_at < started
            # a timeout noticed late: this process was busy, not Redis silent
            and time.monotonic() - started < self.timeout * 1.25
        )  # else nothing answered while this waited: a hung Redis


def _connecting(error: Exception) -> bool:
    """A timeout while connecting (redis-py: "Timeout connecting to server")."""
    return "connecting" in str(error).lower()


def _retry(timeout: float = 1.0) -> Retry:
    """Two quick retries for a connection that was dropped or refused, or that could not
    be made in time (a restarted server, a failover, a burst of new connections that
    overflowed the server's accept queue: the next try answers at once), and for a
    timeout while Redis is answering other commands (a busy Redis, a burst); none for a
    timeout while nothing answered.

    A Redis that answered nothing for ``REDIS_TIMEOUT_SECONDS`` (a paused or hung server,
    a network that drops its packets) would not answer a second try either: retrying
    that timeout held hosted requests and ``/readyz`` three times the timeout and more
    (issue 27). So a hung Redis is a ``503 redis_unavailable`` after one timeout, about
    a second, and a busy one still answers a burst without a 503.
    """
    return _Retry(
        ExponentialWithJitterBackoff(base=0.01, cap=0.1),
        retries=2,
        supported_errors=(redis.ConnectionError, redis.TimeoutError),
        timeout=timeout,
    )


# A stream's pub/sub connection is never reconnected behind its back: the updates
# published meanwhile would be missed silently (service/http/streams.py).
_NO_RETRY = Retry(NoBackoff(), retries=0)


def pack(commands: Sequence[Sequence[Any]]) -> bytes:
    """``commands`` in the Redis protocol, as one buffer (one write to the socket).

    Arguments are bytes, str (UTF-8, as redis-py encodes them) or int. redis-py's own
    packer joins every argument onto the growing buffer (copying it again each time)
    and sends large ones in writes of their own; a move's commit has a dozen
    arguments of up to a kilobyte or two.

    >>> pack([("EVALSHA", "ab", 1, "k", b"v\\r\\n")])
    b'*5\\r\\n$7\\r\\nEVALSHA\\r\\n$2\\r\\nab\\r\\n$1\\r\\n1\\r\\n$1\\r\\nk\\r\\n$3\\r\\nv\\r\\n\\r\\n'
    """
    parts: list[bytes] = []
    add = parts.append
    for args in commands:
        add(b"*%d\r\n" % len(args))
        for arg in args:
            kind = type(arg)
            if kind is bytes:
                data = arg
            elif kind is str:
                data = arg.encode()
            elif kind is int:
                data = b"%d" % arg
            elif kind is float:
                data = repr(arg).encode()
            else:
                raise DataError(f"cannot send {kind.__name__} to Redis: {arg!r}")
            add(b"$%d\r\n%b\r\n" % (len(data), data))
    return b"".join(parts)


def execute(client: redis.Redis, commands: Sequence[Sequence[Any]]) -> list[Any]:
    """``commands`` sent in one write on one connection of ``client``'s pool, and their
    answers, in order: a command that Redis refused (``NOSCRIPT``, a script's error) has
    its :class:`redis.ResponseError` as its answer, and the others still ran.

    What a pipeline does, without its machinery (command stack, response callbacks,
    per-command encoding, observability hooks), for the calls a move makes on every
    request; under the same rules: the pool's connection (connected, health-checked),
    the connection's retry (:class:`_Retry`: a dropped connection is retried, a hung
    Redis is not), a connection that failed is closed before it goes back.
    """
    pool = client.connection_pool
    packed = pack(commands)
    count = len(commands)
    conn: Any = pool.get_connection()

    def attempt() -> list[Any]:
        _send(conn, packed)
        if _plain(conn):
            return _replies(conn, count)
        answers: list[Any] = []
        for _ in range(count):
            try:
                answers.append(conn.read_response())
            except ResponseError as refused:
                answers.append(refused)
        return answers

    def fail(error: Exception) -> None:
        conn.disconnect()

    try:
        answers: list[Any] = conn.retry.call_with_retry(attempt, fail)
        return answers
    finally:
        pool.release(conn)


def _send(conn: Any, data: bytes) -> None:
    """``conn.send_packed_command([data])``, with the write tried first straight on the
    system socket under a gevent socket (non-blocking there): a command of a few
    kilobytes is written at once, without gevent's ``sendall`` loop and its timer.

    Whatever it did not write (a full socket buffer), and every error, goes through
    redis-py's own send: gevent's ``sendall`` with the socket's timeout, and redis-py's
    errors (the connection closed first). A health check that is due, a TLS socket
    (its bytes must be encrypted) and a plain socket outside gevent take redis-py's
    send for the whole command.
    """
    sock = conn._sock
    raw = getattr(sock, "_sock", None)
    if (
        raw is None
        or isinstance(conn, redis.SSLConnection)
        or isinstance(sock, ssl.SSLSocket)
        or (conn.health_check_interval and time.monotonic() > conn.next_health_check)
    ):
        conn.send_packed_command([data])
        return
    try:
        sent = raw.send(data)
    except OSError:  # EWOULDBLOCK, or a broken connection: redis-py's send tells which
        sent = 0
    if sent < len(data):
        # no health check now: its PING would land in the middle of this command
        conn.send_packed_command([data[sent:] if sent else data], check_health=False)


def _plain(conn: Any) -> bool:
    """Whether ``conn`` speaks RESP2 through redis-py's own parser, and decodes nothing:
    :func:`_replies` reads its answers. (Others, such as a Sentinel's connections, which
    turn a replica's READONLY into a reconnection, are read by redis-py.)"""
    return (
        type(conn._parser) is _RESP2Parser
        and not conn.encoder.decode_responses
        and not isinstance(conn, SentinelManagedConnection)
    )


class _Short(Exception):
    """The bytes read so far end inside a reply."""


def _reply(data: bytes, pos: int, error: Any) -> tuple[Any, int]:
    """The RESP2 reply that starts at ``pos`` in ``data``, and where the next starts."""
    end = data.find(b"\r\n", pos)
    if end < 0:
        raise _Short
    kind = data[pos]
    if kind == 36:  # $: a bulk string
        size = int(data[pos + 1 : end])
        if size < 0:
            return None, end + 2
        stop = end + 2 + size
        if stop + 2 > len(data):
            raise _Short
        return data[end + 2 : stop], stop + 2
    if kind == 42:  # *: an array
        size = int(data[pos + 1 : end])
        if size < 0:
            return None, end + 2
        return _array(data, end + 2, size, error)
    if kind == 58:  # :
        return int(data[pos + 1 : end]), end + 2
    if kind == 43:  # +
        return data[pos + 1 : end], end + 2
    if kind == 45:  # -: an error, as redis-py's parser makes it (NoScriptError, ...)
        refused = error(data[pos + 1 : end].decode("utf-8", errors="replace"))
        if isinstance(refused, redis.ConnectionError):  # LOADING, ...: as redis-py does
            raise refused
        return refused, end + 2
    raise InvalidResponse(f"Protocol Error: {data[pos:end]!r}")


def _array(data: bytes, pos: int, size: int, error: Any) -> tuple[list[Any], int]:
    """The ``size`` items of an array that start at ``pos``: its bulk strings and
    integers (most of a script's answer) read here, the rest by :func:`_reply`."""
    items: list[Any] = []
    add = items.append
    length = len(data)
    for _ in range(size):
        if pos >= length:
            raise _Short
        kind = data[pos]
        if kind == 36:  # $
            end = data.find(b"\r\n", pos)
            if end < 0:
                raise _Short
            count = int(data[pos + 1 : end])
            if count < 0:
                add(None)
                pos = end + 2
                continue
            stop = end + 2 + count
            if stop + 2 > length:
                raise _Short
            add(data[end + 2 : stop])
            pos = stop + 2
        elif kind == 58:  # :
            end = data.find(b"\r\n", pos)
            if end < 0:
                raise _Short
            add(int(data[pos + 1 : end]))
            pos = end + 2
        else:
            item, pos = _reply(data, pos, error)
            add(item)
    return items, pos


def _timed_out() -> TimeoutError:
    return TimeoutError("timed out")  # what gevent's socket raises (socket.timeout)


def _recv(conn: Any, sock: Any) -> bytes:
    """``sock.recv(65536)``, a wait for the answer bounded by the socket's timeout as
    gevent bounds it, by one :class:`~service.base.waits.Deadline` kept with the
    connection instead of a new ``gevent.Timeout`` for each wait (5-13 us: every
    command's answer is waited for).

    Under gevent the system socket is read first (non-blocking there: what gevent's
    ``recv`` does first too); when nothing has come, the deadline is armed for the
    socket's timeout and gevent's ``recv`` waits with no timer of its own, the
    socket's timeout put back after. A TLS socket (its bytes must be decrypted), a
    socket outside gevent and one without a positive timeout are read by their own
    ``recv``."""
    raw = getattr(sock, "_sock", None)
    timeout = sock.gettimeout()
    if (
        raw is None
        or not timeout
        or isinstance(conn, redis.SSLConnection)
        or isinstance(sock, ssl.SSLSocket)
    ):
        return bytes(sock.recv(65536))
    try:
        return bytes(raw.recv(65536))
    except BlockingIOError:
        pass
    held: tuple[Any, Deadline] | None = conn.__dict__.get("_answer_wait")
    if held is None or held[0] is not sock or held[1].seconds != timeout:
        if held is not None:
            held[1].close()
        held = conn._answer_wait = (sock, Deadline(timeout, _timed_out))
    deadline = held[1]
    sock.settimeout(None)
    deadline.start()
    try:
        return bytes(sock.recv(65536))
    finally:
        deadline.stop()
        sock.settimeout(timeout)


def _replies(conn: Any, count: int) -> list[Any]:
    """The next ``count`` replies on ``conn`` (RESP2), read straight from its socket:
    usually one read, and no per-reply machinery. Errors as redis-py's own reading
    raises them (a timeout, a dropped connection: the connection is closed first)."""
    sock = conn._sock
    error = conn._parser.parse_error
    data, pos = b"", 0
    answers: list[Any] = []
    try:
        while len(answers) < count:
            try:
                reply, pos = _reply(data, pos, error)
            except _Short:
                chunk = _recv(conn, sock)
                if not chunk:
                    raise redis.ConnectionError("Connection closed by server.") from None
                data, pos = data[pos:] + chunk, 0
                continue
            answers.append(reply)
    except TimeoutError:
        conn.disconnect()
        raise redis.TimeoutError(f"Timeout reading from {conn._host_error()}") from None
    except OSError as err:
        conn.disconnect()
        raise redis.ConnectionError(
            f"Error while reading from {conn._host_error()} : {err.args}"
        ) from None
    except BaseException:
        conn.disconnect()
        raise
    if pos != len(data):  # never: Redis answers only what it was asked
        conn.disconnect()
    if conn.health_check_interval:
        conn.next_health_check = time.monotonic() + conn.health_check_interval
    return answers


class RedisBackend:
    """One deployment's Redis: the client for commands, pools for event streams.

    The client is built on first use, so an instance starts (and serves stateless play)
    while its Redis is still coming up; until it answers, hosted requests are 503.
    """

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 1.0,
        max_connections: int = 1000,
        pool_timeout: float = 2.0,
        stream_connections: int = 510,
    ) -> None:
        self.target = parse_url(url)
        self.kind = self.target.kind
        self.timeout = timeout
        self.max_connections = max_connections
        self.pool_timeout = pool_timeout
        self.stream_connections = stream_connections
        self._lock = threading.Lock()
        self._client: Client | None = None
        self._sentinel: Sentinel | None = None
        self._stream_clients: dict[Any, redis.Redis] = {}

    def _kwargs(self) -> dict[str, Any]:
        t = self.target
        kw: dict[str, Any] = {
            "socket_timeout": self.timeout,
            "socket_connect_timeout": self.timeout,
            "health_check_interval": 15,
        }
        if t.username:
            kw["username"] = t.username
        if t.password:
            kw["password"] = t.password
        return kw

    # the command client -------------------------------------------------------------
    @property
    def client(self) -> Client:
        found = self._client
        if found is None:
            with self._lock:
                found = self._client
                if found is None:
                    try:
                        found = self._client = self._build()
                    except RedisClusterException as err:
                        raise _unreachable(err) from err
        return found

    def _build(self) -> Client:
        """The command client. It speaks RESP2 (unless ``REDIS_URL`` asks for a
        ``?protocol=``): its replies are what the service's scripts return, read by
        :func:`execute` in one go; RESP3's richer types are of no use to it. Event
        streams keep redis-py's default (their pub/sub reads RESP3's pushes)."""
        t = self.target
        if t.kind == "single":
            pool = Pool.from_url(
                t.url,
                max_connections=self.max_connections,
                timeout=self.pool_timeout,
                retry=_retry(self.timeout),
                protocol=2,
                **self._kwargs(),
            )
            return redis.Redis(connection_pool=pool)
        if t.kind == "cluster":
            scheme = "rediss" if t.tls else "redis"
            (host, port), rest = t.nodes[0], t.nodes[1:]
            # through `url`, redis-py builds each node's pool from connection_pool_class
            return _Cluster(
                url=f"{scheme}://{_netloc(host, port)}",
                startup_nodes=[ClusterNode(h, p) for h, p in rest],  # type: ignore[no-untyped-call]
                connection_pool_class=redis.BlockingConnectionPool,
                max_connections=self.max_connections,
                timeout=self.pool_timeout,
                retry=_retry(self.timeout),
                protocol=2,
                **self._kwargs(),
            )
        return self._primary(self.max_connections, _retry(self.timeout), protocol=2)

    def _primary(
        self, max_connections: int, retry: Retry, protocol: int | None = None
    ) -> redis.Redis:
        t = self.target
        if self._sentinel is None:
            sentinel_kwargs: dict[str, Any] = {
                "socket_timeout": self.timeout,
                "socket_connect_timeout": self.timeout,
                "retry": _retry(self.timeout),
            }
            if t.sentinel_password:
                sentinel_kwargs["password"] = t.sentinel_password
            self._sentinel = Sentinel(list(t.nodes), sentinel_kwargs=sentinel_kwargs)  # type: ignore[no-untyped-call]
        kw = self._kwargs()
        if t.tls:
            kw["ssl"] = True
        if protocol is not None:
            kw["protocol"] = protocol
        client: redis.Redis = self._sentinel.master_for(  # type: ignore[no-untyped-call]
            t.service,
            connection_pool_class=BlockingSentinelPool,
            max_connections=max_connections,
            timeout=self.pool_timeout,
            db=t.db,
            retry=retry,
            **kw,
        )
        return client

    # event streams ------------------------------------------------------------------
    def stream_client(self, channel: str) -> redis.Redis:
        """A client for the event streams' pub/sub connection on ``channel``.

        A process's streams share one pub/sub connection per node, held while any of them
        is open (``service/http/streams.py``, ``Listener``), so streams take it from pools of
        their own (``stream_connections`` per node), never from the pool moves use. On a
        cluster the connection goes to the node that serves the channel's slot (the
        session's node: sharded pub/sub delivers only there).
        """
        node: Any = None
        client = self.client
        if isinstance(client, RedisCluster):
            found = client.get_node_from_key(channel)  # type: ignore[no-untyped-call]
            node = (found.host, found.port)
        existing = self._stream_clients.get(node)
        if existing is not None:
            return existing
        with self._lock:
            existing = self._stream_clients.get(node)
            if existing is None:
                existing = self._stream_clients[node] = self._build_stream_client(node)
        return existing

    def _build_stream_client(self, node: tuple[str, int] | None) -> redis.Redis:
        t = self.target
        if t.kind == "sentinel":
            return self._primary(self.stream_connections, _NO_RETRY)
        if t.kind == "single":
            pool = Pool.from_url(
                t.url,
                max_connections=self.stream_connections,
                timeout=self.pool_timeout,
                retry=_NO_RETRY,
                **self._kwargs(),
            )
        else:
            assert node is not None
            pool = Pool(
                host=node[0],
                port=node[1],
                max_connections=self.stream_connections,
                timeout=self.pool_timeout,
                retry=_NO_RETRY,
                **({"connection_class": redis.SSLConnection} if t.tls else {}),
                **self._kwargs(),
            )
        return redis.Redis(connection_pool=pool)

    def node_for(self, key: str) -> redis.Redis:
        """A client of the primary that holds ``key`` (on a cluster: its slot's node)."""
        client = self.client
        if isinstance(client, RedisCluster):
            node = client.get_node_from_key(key)  # type: ignore[no-untyped-call]
            return client.get_redis_connection(node)
        return client

    # every primary ------------------------------------------------------------------
    def primaries(self) -> list[redis.Redis]:
        """A client per primary: the one server, the Sentinel's primary, or each shard's."""
        client = self.client
        if isinstance(client, RedisCluster):
            primaries = client.get_primaries()  # type: ignore[no-untyped-call]
            return [client.get_redis_connection(node) for node in primaries]
        return [client]

    def scan_prefix(self, prefix: str) -> Iterator[tuple[redis.Redis, list[bytes]]]:
        """Batches of the keys that start with ``prefix``, on each primary."""
        for node in self.primaries():
            batch: list[bytes] = []
            for key in node.scan_iter(match=glob_escape(prefix) + "*", count=500):
                batch.append(key)
                if len(batch) >= 500:
                    yield node, batch
                    batch = []
            if batch:
                yield node, batch

    def delete_prefix(self, prefix: str) -> int:
        """Delete every key that starts with ``prefix`` (SCAN + UNLINK on each primary).

        Only those keys: a deployment or a test run that shares the server with others
        deletes its own keys and nothing else (never FLUSHDB).
        """
        if not prefix:
            raise ValueError("refusing to delete every key: the prefix is empty")
        deleted = 0
        for node, keys in self.scan_prefix(prefix):
            # one UNLINK per slot on a cluster node (a command's keys share a slot)
            by_slot: dict[int, list[bytes]] = {}
            for key in keys:
                by_slot.setdefault(_slot(key) if self.kind == "cluster" else 0, []).append(key)
            for group in by_slot.values():
                deleted += int(node.unlink(*group))
        return deleted

    def close(self) -> None:
        with self._lock:
            clients: list[Any] = [self._client, *self._stream_clients.values()]
            self._client, self._stream_clients = None, {}
        for client in clients:
            if client is not None:
                client.close()
        if self._sentinel is not None:
            self._sentinel.close()
            self._sentinel = None


class _Cluster(RedisCluster):
    """redis-py's cluster client, whose own errors (no node reachable, a slot that no
    node serves) are redis-py's ConnectionError like every other unreachable Redis: the
    service answers them ``503 redis_unavailable``."""

    def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().execute_command(*args, **kwargs)  # type: ignore[no-untyped-call]
        except RedisClusterException as err:
            raise _unreachable(err) from err


def _unreachable(err: Exception) -> redis.ConnectionError:
    return redis.ConnectionError(f"Redis Cluster: {err}")


def _netloc(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _slot(key: bytes) -> int:
    from redis.crc import key_slot

    return int(key_slot(key))


def glob_escape(text: str) -> str:
    """``text`` as a literal in a SCAN MATCH pattern."""
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)
