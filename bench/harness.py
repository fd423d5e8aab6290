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
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = str(Path(sys.executable).parent / "gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
        sent = {"Content-Type": "application/json", **(headers or {})}
        self.conn.request("POST", path, body, sent)
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


Recorded = tuple[str, bytes] | tuple[str, bytes, dict[str, str]]
"""A recorded request: its path, its body and (optionally) its headers."""


def replay_job(
    port: int, bodies: Sequence[Recorded], *, echo: bool, parse: bool = False
) -> Callable[[], list[float]]:
    """Send recorded requests in order (to ``/echo`` or to their own paths), with their
    headers (a seat's ``Authorization: Bearer`` credential) to both."""

    def job() -> list[float]:
        import json

        client = Client(port)
        out = []
        for path, body, *headers in bodies:
            sent = headers[0] if headers else None
            status, data, took = client.post("/echo" if echo else path, body, sent)
            assert status in (200, 201), status
            if parse:
                json.loads(data)
            out.append(took)
        return out

    return job


def record_bot_game(
    port: int, base: str, setup: dict[str, object], bot: str = "greedy"
) -> list[Recorded]:
    """Play one game over HTTP, each seat's move chosen by ``bot`` through ``/bot-move``
    and then made through ``/moves`` with the seat's bearer credential; return the
    ``/moves`` requests (replaying them to a stateless service is valid again)."""
    import json

    client = Client(port)
    status, data, _ = client.post(f"{base}/setup", json.dumps(setup).encode())
    assert status == 201, data
    body = json.loads(data)
    token, to_act = body["token"], body["to_act"]
    seats = {s["seat"]: s["seat_token"] for s in body["seats"]}
    record: list[Recorded] = []
    while to_act:
        seat = to_act[0]
        auth = {"Authorization": f"Bearer {seats[seat]}"}
        ask = json.dumps({"token": token, "seat": seat, "bot": bot}).encode()
        status, data, _ = client.post(f"{base}/bot-move", ask, auth)
        assert status == 200, data
        move = json.loads(data)["move"]
        request = json.dumps({"token": token, "seat": seat, "move": move}).encode()
        status, data, _ = client.post(f"{base}/moves", request, auth)
        assert status == 200, data
        record.append((f"{base}/moves", request, auth))
        body = json.loads(data)
        token, to_act = body["token"], body["to_act"]
    return record


def service_env() -> dict[str, str]:
    """The environment of the benchmarked servers: a fresh state key, quiet logs, Redis
    db 15, 2 workers."""
    from cryptography.fernet import Fernet

    return {
        **os.environ,
        "STATE_KEYS": Fernet.generate_key().decode(),
        "LOG_LEVEL": "WARNING",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15"),
        "WEB_CONCURRENCY": "2",
    }


def service_against_echo(
    records: Sequence[Sequence[Recorded]],
    service_port: int,
    echo_port: int,
    concurrency: int,
    rounds: int,
) -> float:
    """Replay ``records`` (one list per game, ``concurrency`` games at a time) to the
    service and the same requests to the echo, ``rounds`` times alternating; print each
    run and the best rounds; return the ratio of the best request rates."""
    print(f"{'server':10} {'requests':>8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
    best: dict[str, dict[str, float]] = {}
    for _ in range(rounds):
        for name, port, to_echo in (("service", service_port, False), ("echo", echo_port, True)):
            jobs = [replay_job(port, list(r), echo=to_echo) for r in records]
            row = summary(name, *run_parallel(jobs, concurrency))
            if name not in best or row["rps"] > best[name]["rps"]:
                best[name] = row
    ratio = best["service"]["rps"] / best["echo"]["rps"]
    print(
        f"best rounds: service {best['service']['rps']:.0f} req/s, echo "
        f"{best['echo']['rps']:.0f} req/s, ratio service/echo {ratio:.2f}"
    )
    return ratio
