"""What a move costs the instance's CPU and Redis, for the capacity figures in
docs/OPERATIONS.md ("Capacity on paper").

    .venv/bin/python -m bench.capacity [--games 8] [--polymer-moves 150]

Starts the service as `make serve` does (the project's gunicorn.conf.py, 2 gevent
workers) on 127.0.0.1 against REDIS_URL (the local Redis, db 15, by default: a Redis
nobody else is using while this runs, since its CPU is read server-wide) and plays,
4 games at a time, what a class's phones send:

- ``stateless``: element-draft, 4 players; per move the seat's legal moves, then the
  move (the token goes back and forth);
- ``hosted``: the same games as hosted sessions (legal moves, then the move with its
  version and an Idempotency-Key); the other devices follow on the event stream, which
  costs nothing per move beyond the publish;
- ``polymer``: five-seat Polymer sessions, a lend and its repayment around the table.

For each it reports, per move (its reads included): the workers' CPU time (from
/proc), Redis's CPU time (``INFO cpu``) and commands (``INFO stats``), and the
requests per second the instance reached with the load generator on the same 2
cores. The server is stopped by its PID at the end.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import redis

from .harness import bench_env, free_port, run_parallel, start, stop, workers_cpu
from .http_polymer import play_session
from .http_sessions import hosted_game, stateless_game


def redis_counters(r: Any) -> tuple[float, int]:
    cpu = r.info("cpu")
    stats = r.info("stats")
    return float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]), int(
        stats["total_commands_processed"]
    )


def measure(
    master: int, r: Any, jobs: list[Callable[[], list[float]]], requests_per_move: float
) -> dict[str, float]:
    cpu0, (rcpu0, cmds0) = workers_cpu(master), redis_counters(r)
    began = time.perf_counter()
    latencies, _ = run_parallel(jobs, 4)
    wall = time.perf_counter() - began
    cpu, (rcpu, cmds) = workers_cpu(master) - cpu0, redis_counters(r)
    moves = len(latencies)  # each job times its moves only
    return {
        "moves": moves,
        "cpu_ms": 1000 * cpu / moves,
        "redis_cpu_us": 1e6 * (rcpu - rcpu0) / moves,
        "redis_commands": (cmds - cmds0) / moves,
        "requests_per_s": moves * requests_per_move / wall,
        "moves_per_s": moves / wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--polymer-moves", type=int, default=150)
    args = parser.parse_args()
    env = bench_env()
    port = free_port()
    service = start("service:create_app()", port, env)
    r = redis.Redis.from_url(env["REDIS_URL"])
    try:
        workloads: list[tuple[str, Callable[[int], Callable[[], list[float]]], float]] = [
            ("stateless", lambda s: stateless_game(port, "element-draft", 4, s), 2.0),
            ("hosted", lambda s: hosted_game(port, "element-draft", 4, s), 2.0),
            ("polymer", lambda s: play_session(port, args.polymer_moves, s, []), 1.0),
        ]
        for _, make, _ in workloads:  # warm both workers, untimed
            run_parallel([make(90 + i) for i in range(4)], 4)
        print(
            "| workload | moves | workers' CPU ms/move | Redis CPU µs/move "
            "| Redis commands/move | moves/s | requests/s |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name, make, per_move in workloads:
            row = measure(service.pid, r, [make(s) for s in range(args.games)], per_move)
            print(
                f"| {name} | {row['moves']:.0f} | {row['cpu_ms']:.2f} | "
                f"{row['redis_cpu_us']:.0f} | {row['redis_commands']:.1f} | "
                f"{row['moves_per_s']:.0f} | {row['requests_per_s']:.0f} |",
                flush=True,
            )
    finally:
        stop(service)


if __name__ == "__main__":
    main()
