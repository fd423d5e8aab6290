"""Two `make serve` in one checkout, and a Redis that goes away and comes back (issue 28).

A newcomer runs `make serve`, then a second one on another port (the README suggests
restarting with `OPERATOR_KEYS`). Each server's embedded Redis is its own (a folder of
its own address under `EMBEDDED_REDIS_DIR`), so stopping either server leaves the other
serving hosted sessions. A server whose Redis is lost answers `degraded` and 503
`redis_unavailable`, and recovers by itself once Redis answers again at the same
address. Every server binds to 127.0.0.1 on a free port and is stopped by its PID.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from .conftest import KEY_A
from .redis_servers import Processes, binaries, free_ports
from .test_gunicorn import GUNICORN, ROOT, _answers, _port

pytestmark = pytest.mark.redis


def request(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        data = None if body is None else json.dumps(body)
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        answer = conn.getresponse()
        raw = answer.read()
        return answer.status, json.loads(raw) if raw else None
    finally:
        conn.close()


def hosted_game_works(port: int) -> None:
    """A hosted session is created, and its seat sees it."""
    status, made = request(
        port,
        "POST",
        "/v1/element-draft/sessions",
        {"players": 2, "seed": 3, "bots": {"1": "greedy"}},
    )
    assert status == 201, made
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        token = made["seats"][0]["seat_token"]
        conn.request(
            "GET",
            f"/v1/element-draft/sessions/{made['session_id']}?seat=0",
            headers={"Authorization": f"Bearer {token}"},
        )
        answer = conn.getresponse()
        assert answer.status == 200, answer.read()
    finally:
        conn.close()


def readiness(port: int) -> str:
    status, body = request(port, "GET", "/readyz")
    assert status == 200, body
    return str(body["status"])


@contextmanager
def make_serve(env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`make serve`'s command from the checkout's root, answering; stopped by PID."""
    port = int(env["BIND"].rsplit(":", 1)[1])
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [GUNICORN, "--config", "gunicorn.conf.py", "service:create_app()"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while not _answers(port):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not answer /healthz"
            time.sleep(0.1)
        yield proc
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Ctrl-C, as a terminal sends it to `make serve` (the whole process group)."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def serve_env(tmp_path: Path, port: int, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "OPERATOR_KEYS"}}
    env.update(
        STATE_KEYS=KEY_A,
        EMBEDDED_REDIS_DIR=str(tmp_path / "redis"),
        BIND=f"127.0.0.1:{port}",
        LOG_LEVEL="WARNING",
        RATE_LIMITS="off",
        WEB_CONCURRENCY="1",
        **more,
    )
    return env


@pytest.mark.parametrize("stopped", ["first", "second"])
def test_two_make_serve_in_one_checkout_each_keep_their_own_redis(
    tmp_path: Path, stopped: str
) -> None:
    first_port, second_port = _port(), _port()
    first_env = serve_env(tmp_path, first_port)
    second_env = serve_env(tmp_path, second_port)
    with (
        make_serve(first_env, tmp_path / "first.log") as first,
        make_serve(second_env, tmp_path / "second.log") as second,
    ):
        for port in (first_port, second_port):
            assert readiness(port) == "ok"
            hosted_game_works(port)
        gone, survivor = (first, second_port) if stopped == "first" else (second, first_port)
        stop(gone)
        assert gone.returncode == 0
        assert readiness(survivor) == "ok"
        hosted_game_works(survivor)
    folders = sorted(p.name for p in (tmp_path / "redis").iterdir())
    assert folders == sorted([f"127.0.0.1-{first_port}", f"127.0.0.1-{second_port}"])


def test_a_lost_redis_is_reconnected_when_it_comes_back(tmp_path: Path) -> None:
    server_binary, _ = binaries()
    (redis_port,) = free_ports(1)
    args = [server_binary, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""]
    args += ["--appendonly", "no", "--dir", str(tmp_path)]
    redis_servers = Processes()
    port = _port()
    env = serve_env(tmp_path, port, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0")
    try:
        redis_servers.start(redis_port, args, tmp_path / "redis.log")
        with make_serve(env, tmp_path / "serve.log"):
            hosted_game_works(port)
            redis_servers.kill(redis_port)
            assert readiness(port) == "degraded"
            status, body = request(
                port, "POST", "/v1/element-draft/sessions", {"players": 2, "seed": 1}
            )
            assert status == 503 and body["code"] == "redis_unavailable", body
            redis_servers.start(redis_port, args, tmp_path / "redis.log")
            deadline = time.monotonic() + 20
            while readiness(port) != "ok":
                assert time.monotonic() < deadline, "the server stayed degraded"
                time.sleep(0.2)
            hosted_game_works(port)
    finally:
        redis_servers.stop_all()
