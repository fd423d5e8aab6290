"""The real server: gunicorn with the project's config, event streams and plain requests.

One worker with a few threads: two open event streams must not starve a health
check or a move, and the move must reach both streams. The server binds to
127.0.0.1, lives a few seconds, and is stopped by its PID.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import KEY_A

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.redis


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def server(redis_url: str) -> Iterator[int]:
    port = _port()
    env = {
        **os.environ,
        "STATE_KEYS": KEY_A,
        "REDIS_URL": redis_url,
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "THREADS": "4",
        "SSE_MAX_SECONDS": "8",
        "SSE_HEARTBEAT_SECONDS": "1",
        "LOG_LEVEL": "WARNING",
    }
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    proc = subprocess.Popen(
        [gunicorn, "--config", "gunicorn.conf.py", "service:create_app()"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)


def call(
    port: int, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data else {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, data, headers)
    resp = conn.getresponse()
    payload = json.loads(resp.read() or b"null")
    conn.close()
    return resp.status, payload


def test_streams_do_not_starve_requests_and_receive_moves(server: int) -> None:
    status, setup = call(server, "POST", "/v1/polymer/sessions", {"players": 5, "seed": 4})
    assert status == 201
    sid = setup["session_id"]
    call(server, "POST", f"/v1/polymer/sessions/{sid}/start", token=setup["host_token"])
    streams = []
    for _ in range(2):
        conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
        conn.request("GET", f"/v1/polymer/sessions/{sid}/events")
        resp = conn.getresponse()
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
