"""Shared pieces of the HTTP benchmarks: servers, a keep-alive client, timing."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = str(Path(sys.executable).parent / "gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def redis_answers(port: int, seconds: float = 10.0, every: float = 0.05) -> bool:
    """Whether a redis-server on 127.0.0.1:``port`` answers PING (redis-cli) within
    ``seconds``, asking every ``every`` seconds."""
    deadline = time.monotonic() + seconds
    while True:
        ping = subprocess.run(
            ["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True, check=False
        )
        if ping.stdout.strip() == "PONG":
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(every)


# Every rate-limit budget, lifted: the limiter still counts every request (its cost is
# measured), never refuses. All of them: the budgets issue 27 added (a phone's reads
# before its moves: 2,400 a minute refused a second bench.capacity run started within
# the first's minute, and bench.stages' legal-moves reads from its first game on).
LIFTED_LIMITS = {
    f"RATE_LIMIT_{kind}": "10000000 per minute"
    for kind in ("SETUP", "MOVES", "STREAMS", "READS", "JOINS", "OPERATOR_SESSIONS")
}


def bench_env() -> dict[str, str]:
    """The environment the benchmark servers run with: fixed keys, quiet logs."""
    from cryptography.fernet import Fernet

    return {
        **os.environ,
        "STATE_KEYS": Fernet.generate_key().decode(),
        "LOG_LEVEL": "WARNING",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15"),
        "WEB_CONCURRENCY": "2",
        **LIFTED_LIMITS,
    }


def start(app: str, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [GUNICORN, "--config", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}", app],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"{app} did not start on port {port}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


class Client:
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(
        self, path: str, body: bytes, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, float]:
        started = time.perf_counter()
        self.conn.request(
            "POST", path, body, {"Content-Type": "application/json", **(headers or {})}
        )
        resp = self.conn.getresponse()
        data = resp.read()
        return resp.status, data, time.perf_counter() - started

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, float]:
        started = time.perf_counter()
        self.conn.request("GET", path, headers=headers or {})
        resp = self.conn.getresponse()
        data = resp.read()
        return resp.status, data, time.perf_counter() - started


def run_parallel(
    jobs: list[Callable[[], list[float]]], concurrency: int
) -> tuple[list[float], float]:
    latencies: list[float] = []
    lock = threading.Lock()
    queue = list(jobs)

    def worker() -> None:
        while True:
            with lock:
                if not queue:
                    return
                job = queue.pop(0)
            got = job()
            with lock:
                latencies.extend(got)

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, time.perf_counter() - started


def summary(name: str, latencies: list[float], elapsed: float) -> dict[str, float]:
    ordered = sorted(latencies)
    row = {
        "requests": len(ordered),
        "rps": len(ordered) / elapsed,
        "p50_ms": 1000 * statistics.median(ordered),
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
    }
    print(
        f"{name:10} {row['requests']:8.0f} {row['rps']:9.0f} {row['p50_ms']:8.2f} "
        f"{row['p99_ms']:8.2f}"
    )
    return row


Recorded = tuple[str, bytes, dict[str, str]]
"""A recorded request: path, body and headers (the seat credential)."""


def replay_job(
    port: int, bodies: list[Recorded], *, echo: bool, parse: bool = False
) -> Callable[[], list[float]]:
    """Send recorded requests in order (to ``/echo`` or to their own paths)."""

    def job() -> list[float]:
        import json

        client = Client(port)
        out = []
        for path, body, headers in bodies:
            status, data, took = client.post("/echo" if echo else path, body, headers)
            assert status in (200, 201), status
            if parse:
                json.loads(data)
            out.append(took)
        return out

    return job


def workers_cpu(master: int) -> float:
    """CPU seconds the master's workers have used (Linux /proc; 0 elsewhere).

    On a shared machine requests/s moves with the neighbours' load; CPU time per
    request much less, so both are reported.
    """
    total = 0.0
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        for pid in children:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0
    return total


def bench_app(url: str, prefix: str) -> Any:
    """The service in process against ``url``, its keys under ``prefix``: no rate
    limits, no due-work runner (a benchmark drives what it measures)."""
    from cryptography.fernet import Fernet

    from service import create_app
    from service.base.config import Settings

    return create_app(
        Settings(
            state_keys=(Fernet.generate_key().decode(),),
            redis_url=url,
            redis_key_prefix=prefix,
            log_level="WARNING",
            rate_limits_enabled=False,
            due_work=False,
        )
    )


class RoundTrips:
    """Counts what the process sends to Redis (a command, or a pipeline: one trip),
    while ``counting()`` says so, until :meth:`close`."""

    def __init__(self, counting: Callable[[], bool] = lambda: True) -> None:
        import redis.connection

        self.count = 0
        self._cls = redis.connection.AbstractConnection
        self._original = self._cls.send_packed_command
        # redis-py leaves send_packed_command unannotated: its signature, as called here
        original: Callable[[Any, Any, bool], None] = self._original

        def counted(conn: Any, command: Any, check_health: bool = True) -> None:
            if counting():
                self.count += 1
            original(conn, command, check_health)

        self._cls.send_packed_command = counted  # type: ignore[method-assign]

    def close(self) -> None:
        self._cls.send_packed_command = self._original  # type: ignore[method-assign]
