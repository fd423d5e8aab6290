"""gunicorn settings for `make serve` and the Docker image (override with env vars).

Worker model (docs/OPERATIONS.md): gevent. Every connection is a greenlet, so a
client trickling its request a byte a second, or an idle Polymer event stream, holds
a few kilobytes and a socket instead of one of a handful of threads; the game rules
are short CPU bursts that never wait on anything but Redis. The limits that hold an
instance up: `keepalive` bounds how long a client may take to send a request line
and headers, `worker_connections` bounds connections per worker, and
`SSE_MAX_STREAMS` bounds event streams per instance (503 too_many_streams beyond).
"""

from __future__ import annotations

import gc
import importlib.util
import os
import re
import time
import warnings
from collections.abc import Callable
from typing import Any

import orjson
from gevent import Timeout, getcurrent
from gevent.monkey import MonkeyPatchWarning
from gunicorn import util
from gunicorn.http import message, wsgi
from gunicorn.http.errors import InvalidHeader, UnsupportedTransferCoding
from gunicorn.workers.ggevent import GeventWorker

# The master imports the service (on_starting, below) before a worker patches the
# standard library, and two of the libraries it imports keep ssl's unpatched names
# (`from ssl import ...`) in modules the service never uses: redis.asyncio (the sync
# client reads ssl's attributes when it connects, after the patch) and PyJWT's
# jwks_client (PyJWKClient; the LTI tool fetches and caches platforms' keys itself,
# service/lti/). Those two are expected, alone or together, at every worker's start;
# a list with any other module still warns.
UNPATCHED_SSL_EXPECTED = ("redis.asyncio.connection", "jwt.jwks_client")
_EXPECTED = "(?:" + "|".join(re.escape(name) for name in UNPATCHED_SSL_EXPECTED) + r") \([^)]*\)"
warnings.filterwarnings(
    "ignore",
    message=r"Monkey-patching ssl after ssl has already been imported .*"
    rf"\(NOT patched\): \['{_EXPECTED}'(?:, '{_EXPECTED}')*\]\. $",
    category=MonkeyPatchWarning,
)

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "1000"))
# a worker silent this long (its heartbeat starved, or stuck) is killed and replaced
timeout = int(os.environ.get("WORKER_TIMEOUT", "30"))
graceful_timeout = 10
# with the gevent worker this is also the time a client has to send a request line
# and headers (each request on a connection); a slower client is disconnected
keepalive = 5
accesslog = None  # the app writes one JSON line per request itself
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# Nothing has to be writable, so the image runs under `docker run --read-only`: the
# workers' heartbeat files go to the shared-memory tmpfs (also where gunicorn's docs
# advise them, off a disk) rather than /tmp, and the control socket gunicorn 25+ opens
# under $HOME by default is off (operations use signals; nothing here uses gunicornc).
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
control_socket_disable = True
# Request heads are read by gunicorn's C parser where it is installed (gunicorn_h1c,
# the `fast` extra: `make install` and `make serve` have it, the image has no compiler
# to build it), else by gunicorn's Python one. Both enforce the same limits and refuse
# the same requests with the same statuses (tests/test_gunicorn.py); the C one spends
# less CPU a request. "auto", not "fast": "fast" without the module fails every
# request, not the start; on_starting logs which parser the workers will use.
http_parser = "auto"

# The errors gunicorn answers itself, before the app sees a request, as the problems
# the app would send (catalogue: GET /v1/problems). Any other status: `http_error`.
GUNICORN_PROBLEMS = {
    400: ("bad_http_request", "Malformed HTTP request"),
    414: ("uri_too_long", "URI too long"),
    431: ("headers_too_large", "Request header fields too large"),
    500: ("internal_error", "Internal error"),
}


def problem_response(status: int, reason: str, detail: str) -> bytes:
    """A complete HTTP/1.1 problem+json response that closes the connection."""
    code, title = GUNICORN_PROBLEMS.get(status, ("http_error", reason))
    body = orjson.dumps(
        {
            "type": f"/v1/problems/{code}",
            "title": title,
            "status": status,
            "detail": detail,
            "code": code,
        }
    )
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class _Captured:
    """Stands in for the client socket while gunicorn writes its HTML error page, or a
    response's head (OneWriteResponse)."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self.data = b""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def gettimeout(self) -> float:
        return 0.0

    def sendall(self, data: bytes) -> None:
        self.data += data


class OneWriteResponse(wsgi.Response):  # type: ignore[misc]
    """gunicorn's HTTP/1 response, sending a sized body's head and body in one sendall.

    gunicorn sends the head, then each piece of the body, each by a sendall of its own:
    for the usual answer (a Content-Length, the whole body in one piece, as Flask gives
    it) that was two system calls and two TCP segments where one does, each costing the
    worker and the client CPU. The bytes on the wire are the same: the head is the one
    gunicorn writes, captured. Anything else (a streamed or chunked body, a body sent in
    pieces or cut to its Content-Length, HEAD, 204, 304, a file) is gunicorn's own path.
    """

    def write(self, arg: bytes) -> None:
        if (
            self.headers_sent
            or self.chunked
            or self._omits_body
            or type(arg) is not bytes
            or not 0 < len(arg) <= (self.response_length or 0)
        ):
            super().write(arg)
            return
        sock = self.sock
        self.sock = head = _Captured(sock)
        try:
            self.send_headers()
        finally:
            self.sock = sock
        self.sent = len(arg)
        util.write(sock, head.data + arg)


class DateOfThisSecond:
    """gunicorn's util.http_date (each response's Date header), formatted once a second
    rather than for every response: email.utils.formatdate took 13 us a call, 0.7% of a
    worker's samples at 16 matches. Whole seconds are all a Date header shows, so the
    text is the same; one entry, replaced when the second changes."""

    def __init__(self, http_date: Callable[..., str]) -> None:
        self._http_date = http_date
        self._second = -1
        self._text = ""

    def __call__(self, timestamp: float | None = None) -> str:
        if timestamp is not None:
            return self._http_date(timestamp)
        second = int(time.time())
        if second != self._second:
            self._second, self._text = second, self._http_date(second)
        return self._text


def freeze_settings(cfg: Any) -> None:
    """Each of gunicorn's settings made a plain attribute of a worker's Config.

    gunicorn reads a setting through ``Config.__getattr__`` (a dictionary look-up and a
    method call: about 0.9 us), some twenty times a request between the keep-alive loop,
    the parser, the environ and the response. A worker's settings never change while it
    runs (a reload starts new workers with the master's new Config), so each becomes an
    attribute holding the very object the look-up returns. A name Config itself defines
    (a property such as ``worker_class``) keeps answering for itself.
    """
    kind = type(cfg)
    for name, setting in cfg.settings.items():
        if not hasattr(kind, name):
            object.__setattr__(cfg, name, setting.get())


class TrustedPeers:
    """gunicorn's check of a peer's address against ``forwarded_allow_ips`` (is it a
    proxy whose forwarding headers count?), remembered by address.

    gunicorn parses the address and tests it against each allowed network for every
    request (5 us), for answers that depend only on the address and the two lists,
    which are the worker's settings: the same objects at every request. An answer is
    remembered for those lists (other lists start afresh), up to 4096 addresses.
    """

    def __init__(self, check: Callable[[str, Any, Any], bool]) -> None:
        self._check = check
        self._lists: tuple[Any, Any] | None = None
        self._known: dict[str, bool] = {}

    def __call__(self, ip: str, allow_list: Any, networks: Any) -> bool:
        lists = self._lists
        if lists is None or lists[0] is not allow_list or lists[1] is not networks:
            self._lists, self._known = (allow_list, networks), {}
        try:
            return self._known[ip]
        except KeyError:
            trusted = self._check(ip, allow_list, networks)
        if len(self._known) < 4096:
            self._known[ip] = trusted
        return trusted


def _as_python_parser_would(exc: BaseException) -> BaseException:
    """The C parser (gunicorn_h1c 0.6) refuses a transfer coding it does not know with
    a plain InvalidHeader, a 400, where gunicorn's Python parser says 501 Not
    Implemented (RFC 9112 6.1); gunicorn maps a later gunicorn_h1c's own class to 501
    too. The same request keeps the same answer whichever parser read it."""
    if type(exc) is InvalidHeader and exc.hdr == "Unsupported Transfer-Encoding":
        return UnsupportedTransferCoding(exc.hdr)
    return exc


class KeepAlive:
    """gunicorn's wait for a request's head on a kept-alive connection (``with
    worker.timeout_ctx(): req = next(parser)``), bounded by one timer per connection.

    gunicorn's gevent worker makes a new ``gevent.Timeout(keepalive, False)`` for each
    request and frees it after: 5-13 us a request here. This one arms one
    :class:`~service.base.waits.Deadline` for each wait: the same bound from the same
    moment (a head not read in ``keepalive`` seconds ends the connection quietly, as
    gunicorn's does), and any other exception goes on as it came."""

    __slots__ = ("deadline",)

    def __init__(self, seconds: float) -> None:
        # here, not at the top: this file is read before the service is importable
        from service.base.waits import Deadline

        self.deadline = Deadline(seconds, Timeout)

    def __enter__(self) -> Any:
        self.deadline.start()
        return self.deadline

    def __exit__(self, kind: object, value: object, tb: object) -> bool:
        self.deadline.stop()
        return value is not None and value is self.deadline.thrown

    def close(self) -> None:
        self.deadline.close()


class ProblemWorker(GeventWorker):
    """gunicorn's gevent worker, answering its own errors as application/problem+json.

    gunicorn still decides the status and logs the error; only the HTML page it
    would send is replaced (what remains HTML is listed in docs/OPERATIONS.md).
    """

    _quitting = False

    def init_process(self) -> None:
        # gunicorn's workers build each HTTP/1 response with wsgi.create, which makes
        # a wsgi.Response unless told otherwise (HTTP/2 passes its own class), and
        # offer no setting for it: this worker process's default becomes the subclass.
        # Both responses' Date comes from util.http_date, looked up at each call.
        wsgi.Response = OneWriteResponse
        if not isinstance(util.http_date, DateOfThisSecond):
            util.http_date = DateOfThisSecond(util.http_date)
        if not isinstance(message._ip_in_allow_list, TrustedPeers):
            message._ip_in_allow_list = TrustedPeers(message._ip_in_allow_list)
        freeze_settings(self.cfg)
        self.keepalives: dict[object, KeepAlive] = {}  # by the greenlet of a connection
        super().init_process()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        if not self.cfg.keepalive:  # gunicorn waits for no second request
            super().handle(listener, client, addr)
            return
        me, waits = getcurrent(), KeepAlive(self.cfg.keepalive)
        self.keepalives[me] = waits
        try:
            super().handle(listener, client, addr)
        finally:
            del self.keepalives[me]
            waits.close()

    def timeout_ctx(self) -> Any:
        """This connection's :class:`KeepAlive` (gunicorn's own Timeout elsewhere)."""
        waits = self.keepalives.get(getcurrent())
        return waits if waits is not None else super().timeout_ctx()

    def handle_quit(self, sig: int, frame: Any) -> None:
        """Quit once. Ctrl-C signals the whole process group: a worker gets SIGINT from
        the terminal and SIGQUIT from the master, and a second exit, raised while the
        first is unwinding, printed a gevent traceback."""
        if not self._quitting:
            self._quitting = True
            super().handle_quit(sig, frame)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        exc = _as_python_parser_would(exc)
        captured = _Captured(client)
        super().handle_error(req, captured, addr, exc)
        head = captured.data.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
        if len(head) < 3 or not head[1].isdigit():
            return
        status, reason = int(head[1]), head[2]
        what = str(exc)[:200] if status != 500 else "it has been logged"
        detail = f"The server could not read this HTTP request ({reason}: {what})."
        if status == 500:
            detail = "An unexpected error happened; it has been logged."
        try:
            util.write_nonblock(client, problem_response(status, reason, detail))
        except Exception:  # the client is gone; gunicorn already logged the error
            self.log.debug("Failed to send error message.")


worker_class = ProblemWorker


def _parser_in_use() -> str:
    if http_parser == "python" or importlib.util.find_spec("gunicorn_h1c") is None:
        return "gunicorn's Python parser (for its C one: pip install '.[fast]', needs a C compiler)"
    return "gunicorn's C parser (gunicorn_h1c)"


def on_starting(server: object) -> None:
    """Before workers fork: the shared dev key, the stream counts, a Redis if none is set."""
    from service.base.config import ConfigError, Settings
    from service.http import streams

    try:
        Settings.from_env()  # creates instance/dev-state-key once when STATE_KEYS is unset
    except ConfigError as error:
        raise SystemExit(f"chemgames: {error}") from None
    log = getattr(server, "log", None)
    if log is not None:  # gunicorn's error log, at info
        log.info("HTTP/1 request heads: %s", _parser_in_use())
    streams.share()
    if not os.environ.get("REDIS_URL"):
        from service.base import embedded_redis

        try:
            # a folder of this server's own: a second `make serve` on another port in
            # the same checkout starts its own Redis, and stopping either leaves the other's
            base = os.environ.get("EMBEDDED_REDIS_DIR", "instance/redis")
            bound = getattr(getattr(server, "cfg", None), "bind", None) or [bind]
            url = embedded_redis.start(embedded_redis.folder_for(base, bound[0]))
        except ImportError:
            raise SystemExit(
                "REDIS_URL is not set and the embedded Redis is not installed (it comes with "
                "`make serve`, or pip install 'chemgames[embedded]'). Set REDIS_URL, e.g. "
                "redis://redis:6379/0."
            ) from None
        os.environ["REDIS_URL"] = url  # inherited by every worker
        print(f"no REDIS_URL: started an embedded Redis at {url}", flush=True)


def post_worker_init(worker: object) -> None:
    """Once the worker has loaded the app, before its first request: everything alive now
    (modules, schemas, the rules' tables: about 160,000 objects) lives as long as the
    worker, so the collector stops scanning it. Without this every full collection walked
    all of it in the middle of requests: 0.3-0.6 s pauses measured under load, each one
    in the latency of every request in flight on that worker."""
    gc.collect()
    gc.freeze()


def pre_fork(server: object, worker: object) -> None:
    from service.http import streams

    streams.assign(worker)


def child_exit(server: object, worker: object) -> None:
    from service.http import streams

    streams.reclaim(worker)


def on_exit(server: object) -> None:
    from service.base import embedded_redis

    embedded_redis.stop_all()
