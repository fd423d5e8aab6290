"""Polymer moves per second through gunicorn with Redis, against a bare Flask echo.

    .venv/bin/python -m bench.http_polymer [--sessions 8] [--moves 150] [--concurrency 4]
        [--rounds 2] [--floor]

Starts the service (the project's gunicorn.conf.py, 2 workers) with REDIS_URL (the
local Redis at 127.0.0.1:6379 db 15 by default, else set REDIS_URL) and the bare echo
app, both on 127.0.0.1. Each of `--sessions` 5-seat sessions is set up and started,
then plays `--moves` moves, one after another (each names the version the previous
answer returned: a lend, then its voluntary repayment, around the table), with
`--concurrency` sessions in flight. Every move goes through the whole path: Redis
load, token open, seat check, rules, token seal, the compare-and-set Lua script and
its pub/sub publish. The very same request bodies are then sent to the echo, and the
client parses every answer in both cases; best of `--rounds` rounds, after a warm-up
with as many sessions in flight. With `--floor`, also the rungs of bench/floor_app.py
(the same requests to its echo, to its rate limit alone and to a hosted move's two
round trips alone, and as many sessions again played through the whole hosted move
without the framework), each as a ratio to the
floor's echo. Every server is stopped by PID at the end.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from .harness import (
    Client,
    Recorded,
    bench_env,
    free_port,
    replay_job,
    run_parallel,
    start,
    stop,
    summary,
)

Job = Callable[[], list[float]]


def play_session(
    port: int, moves: int, seed: int, record: list[Recorded], floor: int | None = None
) -> Job:
    """A session set up on the service; its moves sent to the service, or with
    ``floor`` to the floor's hosted work rung on that port (bench/floor_app.py)."""

    def job() -> list[float]:
        client = Client(port)
        mover = client if floor is None else Client(floor)
        prefix = "" if floor is None else "/work"
        status, data, _ = client.post(
            "/v1/polymer/sessions",
            json.dumps({"players": 5, "seed": seed, "options": {"timer_seconds": 3600}}).encode(),
        )
        assert status == 201, data
        setup = json.loads(data)
        sid = setup["session_id"]
        auth = {s["seat"]: {"Authorization": f"Bearer {s['seat_token']}"} for s in setup["seats"]}
        host = {"Authorization": f"Bearer {setup['host_token']}"}
        status, data, _ = client.post(f"/v1/polymer/sessions/{sid}/start", b"", host)
        assert status == 200, data
        version = json.loads(data)["version"]
        hands: dict[int, list[int]] = {}
        for seat in range(5):
            status, data, _ = client.get(f"/v1/polymer/sessions/{sid}?seat={seat}", auth[seat])
            hands[seat] = [c["id"] for c in json.loads(data)["view"]["you"]["hand"]]
        latencies = []
        loan = None
        for i in range(moves):
            seat = (i // 2) % 5
            if loan is None:
                card = hands[seat][i % len(hands[seat])]
                move: dict[str, Any] = {"type": "lend", "to": (seat + 1) % 5, "cards": [card]}
                actor = seat
            else:
                move = {"type": "repay", "loan": loan[0], "cards": [loan[1]]}
                actor = (seat + 1) % 5
            path = f"/v1/polymer/sessions/{sid}/moves"
            body = json.dumps({"seat": actor, "version": version, "move": move}).encode()
            status, data, took = mover.post(prefix + path, body, auth[actor])
            assert status == 200, data
            answer = json.loads(data)
            version = answer["version"]
            event = answer["events"][0]
            loan = (event["loan"], move["cards"][0]) if event["type"] == "loan_made" else None
            record.append((path, body, auth[actor]))
            latencies.append(took)
        return latencies

    return job


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also the floor's rungs (bench/floor_app.py): its echo, the rate limit "
        "alone, the two round trips alone, and the whole hosted move without the framework",
    )
    args = parser.parse_args()
    env = bench_env()
    service_port, echo_port, floor_port = free_port(), free_port(), free_port()
    service = start("service:create_app()", service_port, env)
    echo = start("bench.echo_app:create_app()", echo_port, env)
    floor = start("bench.floor_app:create_app()", floor_port, env) if args.floor else None
    try:
        # warm up: every worker, its Redis connections, with as many sessions in flight
        warm = [play_session(service_port, 30, 1 + i, []) for i in range(args.concurrency)]
        if floor is not None:
            warm += [play_session(service_port, 30, 50 + i, [], floor=floor_port) for i in range(2)]
        run_parallel(warm, args.concurrency)
        print(
            f"{args.sessions} sessions x {args.moves} moves, concurrency {args.concurrency}, "
            f"Redis at {env['REDIS_URL']}, best of {args.rounds} rounds"
        )
        print(f"{'server':10} {'requests':>8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
        best: dict[str, dict[str, float]] = {}

        def keep(name: str, row: dict[str, float]) -> None:
            if name not in best or row["rps"] > best[name]["rps"]:
                best[name] = row

        size = 0.0
        for round_ in range(args.rounds):
            records: list[list[Recorded]] = [[] for _ in range(args.sessions)]
            seed = 100 + 1000 * round_
            jobs = [
                play_session(service_port, args.moves, seed + i, records[i])
                for i in range(args.sessions)
            ]
            keep("service", summary("service", *run_parallel(jobs, args.concurrency)))
            jobs = [replay_job(echo_port, r, echo=True, parse=True) for r in records]
            keep("echo", summary("echo", *run_parallel(jobs, args.concurrency)))
            size = sum(len(b) for r in records for _, b, _ in r) / sum(len(r) for r in records)
            if floor is None:
                continue
            for rung in ("floor echo", "limit", "trips"):
                prefix = "/" + rung.split()[-1]
                jobs = [
                    replay_job(
                        floor_port, [(prefix + p, b, h) for p, b, h in r], echo=False, parse=True
                    )
                    for r in records
                ]
                keep(rung, summary(rung, *run_parallel(jobs, args.concurrency)))
            jobs = [
                play_session(service_port, args.moves, seed + 500 + i, [], floor=floor_port)
                for i in range(args.sessions)
            ]
            keep("work", summary("work", *run_parallel(jobs, args.concurrency)))
        print(f"mean request body: {size:.0f} bytes")
        print(f"ratio service/echo (req/s): {best['service']['rps'] / best['echo']['rps']:.2f}")
        if floor is not None:
            print("the floor (bench/floor_app.py), against its own echo (orjson):")
            for rung in ("floor echo", "limit", "trips", "work", "service"):
                print(f"{rung:10} {best[rung]['rps'] / best['floor echo']['rps']:.2f}")
    finally:
        stop(service)
        stop(echo)
        if floor is not None:
            stop(floor)


if __name__ == "__main__":
    main()
