"""Idle event streams and slow clients against one instance: /healthz and move throughput.

    .venv/bin/python -m bench.slow_clients [--streams 200] [--slow 50] [--seconds 10]

Starts the service as `make serve` does (gunicorn.conf.py, its default 2 workers)
on 127.0.0.1, with REDIS_URL (default: the local Redis at 127.0.0.1:6379, db 15).
Plays `--games` 10-player element-draft games over HTTP, recording each request
(as bench.http_moves does), then measures three phases of `--seconds` each:

1. unloaded: the recorded games replayed over and over by `--concurrency`
   clients, while a prober opens a new connection for GET /healthz every 50 ms;
2. loaded: the same, with `--streams` idle Polymer event streams open (10 per
   session) and `--slow` slow clients sending a byte a second (half trickle a
   request line and headers, reconnecting when the server cuts them off; half
   send complete headers and then trickle a body);
3. unloaded again, after closing them, to show how much the machine drifted.

Prints requests/s and latency per phase, /healthz p50/p99/max and failures, and
the loaded move throughput as a share of the mean unloaded one. Targets: /healthz
p99 under 100 ms and throughput within 20% while loaded. `--gunicorn-arg` passes
extra options to gunicorn (e.g. `--gunicorn-arg=--worker-class=gthread
--gunicorn-arg=--threads=8` for the worker model this replaced). Everything is
bounded by `--seconds` and stopped by PID.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import threading
import time
from typing import Any

from .harness import GUNICORN, ROOT, Recorded, free_port, run_parallel, stop, workers_cpu
from .http_moves import play_game


def start(port: int, env: dict[str, str], extra: list[str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [GUNICORN, "--config", "gunicorn.conf.py", *extra, "service:create_app()"],
        cwd=ROOT,
        env={**env, "BIND": f"127.0.0.1:{port}"},
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
    stop(proc)
    raise RuntimeError(f"the service did not start on port {port}")


def post(port: int, path: str, body: dict[str, Any]) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    resp = conn.getresponse()
    data = json.loads(resp.read())
    conn.close()
    if resp.status != 201:
        raise RuntimeError(f"{path} answered {resp.status}: {data}")
    return data


class Prober(threading.Thread):
    """GET /healthz on a new connection every `interval` seconds, as a load balancer does."""

    def __init__(self, port: int, interval: float = 0.05, timeout: float = 5.0) -> None:
        super().__init__(daemon=True)
        self.port, self.interval, self.timeout = port, interval, timeout
        self.latencies: list[float] = []
        self.failures = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(self.interval):
            started = time.perf_counter()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                conn.request("GET", "/healthz")
                ok = conn.getresponse().status == 200
                conn.close()
            except OSError:
                ok = False
            if ok:
                self.latencies.append(time.perf_counter() - started)
            else:
                self.failures += 1


class SlowClients(threading.Thread):
    """`count` connections each sending a byte a second; reconnect when cut off."""

    def __init__(self, port: int, count: int) -> None:
        super().__init__(daemon=True)
        self.port, self.count = port, count
        self.done = threading.Event()
        self.reconnects = 0
        self.conns: list[tuple[socket.socket | None, bytes]] = []

    def connect(self, i: int) -> tuple[socket.socket | None, bytes]:
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            if i % 2:
                return s, b"GET /healthz HTTP/1.1\r\nHost: slow\r\nX-Slow: " + b"a" * 100_000
            s.sendall(
                b"POST /v1/element-draft/moves HTTP/1.1\r\nHost: slow\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
            )
            return s, b" " * 100_000
        except OSError:
            return None, b""

    def run(self) -> None:
        self.conns = [self.connect(i) for i in range(self.count)]
        sent = 0
        while not self.done.wait(1.0):
            for i, (s, rest) in enumerate(self.conns):
                try:
                    if s is None:
                        raise OSError
                    s.sendall(rest[sent % len(rest) : sent % len(rest) + 1])
                except OSError:
                    if s is not None:
                        s.close()
                    self.reconnects += 1
                    self.conns[i] = self.connect(i)
            sent += 1
        for s, _ in self.conns:
            if s is not None:
                s.close()


def open_streams(port: int, count: int, within: float) -> tuple[list[socket.socket], int]:
    """`count` idle event streams, 10 per 5-seat session, trying for at most `within`
    seconds; returns (open, not opened)."""
    opened: list[socket.socket] = []
    refused = 0
    sid: str | None = None
    deadline = time.monotonic() + within
    for i in range(count):
        if time.monotonic() > deadline:
            return opened, count - len(opened)
        if i % 10 == 0 or sid is None:
            try:
                sid = post(port, "/v1/polymer/sessions", {"players": 5, "seed": i})["session_id"]
            except (OSError, RuntimeError):
                sid = None
                refused += 1
                continue
        s = socket.socket()
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(f"GET /v1/polymer/sessions/{sid}/events HTTP/1.1\r\nHost: b\r\n\r\n".encode())
            head = s.recv(4096)
        except OSError:
            s.close()
            refused += 1
            continue
        if head.startswith(b"HTTP/1.1 200"):
            opened.append(s)
        else:
            refused += 1
            s.close()
    return opened, refused


def phase(
    name: str,
    port: int,
    master: int,
    records: list[list[Recorded]],
    args: argparse.Namespace,
) -> dict[str, float]:
    prober = Prober(port)
    prober.start()
    latencies: list[float] = []
    errors: list[str] = []
    cpu = workers_cpu(master)
    started = time.perf_counter()
    while time.perf_counter() - started < args.seconds:
        got, _ = run_parallel([replay(port, r, errors) for r in records], args.concurrency)
        latencies.extend(got)
    elapsed = time.perf_counter() - started
    cpu = workers_cpu(master) - cpu
    prober.done.set()
    prober.join()
    ordered = sorted(latencies) or [float("nan")]
    health = sorted(prober.latencies) or [float("nan")]
    row = {
        "rps": len(latencies) / elapsed,
        "p50": 1000 * statistics.median(ordered),
        "p99": 1000 * ordered[int(0.99 * (len(ordered) - 1))],
        "h50": 1000 * statistics.median(health),
        "h99": 1000 * health[int(0.99 * (len(health) - 1))],
        "hmax": 1000 * health[-1],
        "probes": len(prober.latencies) + prober.failures,
        "hfail": prober.failures,
        # every worker's CPU over the phase, per move: includes what the load itself costs
        "cpu_us": 1e6 * cpu / max(1, len(latencies)),
    }
    print(
        f"{name:12} {len(latencies):8d} {row['rps']:8.0f} {row['p50']:7.2f} {row['p99']:7.2f}"
        f" {row['cpu_us']:6.0f}"
        f" | {row['probes']:6.0f} {row['h50']:7.2f} {row['h99']:7.2f} {row['hmax']:8.2f}"
        f" {row['hfail']:5.0f}" + (f"  ({len(errors)} replays failed)" if errors else ""),
        flush=True,
    )
    return row


def replay(port: int, bodies: list[Recorded], errors: list[str]) -> Any:
    """One recorded game, request after request on one connection; a failure ends it."""

    def job() -> list[float]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        out = []
        try:
            for path, body, headers in bodies:
                started = time.perf_counter()
                conn.request("POST", path, body, {"Content-Type": "application/json", **headers})
                resp = conn.getresponse()
                resp.read()
                if resp.status not in (200, 201):
                    raise RuntimeError(f"{path} answered {resp.status}")
                out.append(time.perf_counter() - started)
        except (OSError, RuntimeError, http.client.HTTPException) as err:
            errors.append(f"{type(err).__name__}: {err}")
        finally:
            conn.close()
        return out

    return job


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--slow", type=int, default=50)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--gunicorn-arg", action="append", default=[])
    args = parser.parse_args()
    from cryptography.fernet import Fernet

    env = {
        **os.environ,
        "STATE_KEYS": Fernet.generate_key().decode(),
        "LOG_LEVEL": "WARNING",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15"),
    }
    port = free_port()
    service = start(port, env, args.gunicorn_arg)
    streams: list[socket.socket] = []
    slow = SlowClients(port, args.slow)
    try:
        records: list[list[Recorded]] = [[] for _ in range(args.games)]
        for i in range(args.games):
            play_game(port, "element-draft", args.players, 1000 + i, records[i])
        print(
            f"{args.games} games of {args.players} players ({sum(map(len, records))} requests) "
            f"replayed by {args.concurrency} clients for {args.seconds:.0f} s per phase; "
            f"gunicorn {' '.join(args.gunicorn_arg) or '(gunicorn.conf.py as is)'}"
        )
        print(
            f"{'phase':12} {'requests':>8} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'cpu us':>6}"
            f" | {'probes':>6} {'h50 ms':>7} {'h99 ms':>7} {'hmax ms':>8} {'fail':>5}"
        )
        before = phase("unloaded", port, service.pid, records, args)
        streams, refused = open_streams(port, args.streams, within=2 * args.seconds)
        slow.start()
        time.sleep(2)  # every slow client connected and trickling
        print(f"  {len(streams)} idle streams open ({refused} not), {args.slow} slow clients")
        loaded = phase("loaded", port, service.pid, records, args)
        print(f"  slow clients reconnected {slow.reconnects} times after being cut off")
        slow.done.set()
        slow.join(timeout=10)
        for s in streams:
            s.close()
        streams = []
        time.sleep(1)
        after = phase("unloaded", port, service.pid, records, args)
        base = (before["rps"] + after["rps"]) / 2
        cpu = (before["cpu_us"] + after["cpu_us"]) / 2
        print(
            f"loaded/unloaded throughput: {loaded['rps'] / base:.2f} (target >= 0.80); "
            f"CPU per move: {loaded['cpu_us'] / cpu:.2f}x; loaded /healthz p99 "
            f"{loaded['h99']:.1f} ms (target < 100), {loaded['hfail']:.0f} of "
            f"{loaded['probes']:.0f} probes failed; load average {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} CPUs"
        )
    finally:
        slow.done.set()
        for s in streams:
            s.close()
        stop(service)


if __name__ == "__main__":
    main()
