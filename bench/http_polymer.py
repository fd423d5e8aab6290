"""Polymer moves per second through gunicorn with Redis, against a bare Flask echo.

    .venv/bin/python -m bench.http_polymer [--sessions 8] [--moves 150] [--concurrency 4]

Starts the service (the project's gunicorn.conf.py, 2 workers) with REDIS_URL (the
local Redis at 127.0.0.1:6379 db 15 by default, else set REDIS_URL) and the bare echo
app, both on 127.0.0.1. Each of `--sessions` 5-seat sessions is set up and started,
then plays `--moves` moves, one after another (each names the version the previous
answer returned: a lend, then its voluntary repayment, around the table), with
`--concurrency` sessions in flight. Every move goes through the whole path: Redis
load, token open, seat check, rules, token seal, the compare-and-set Lua script and
its pub/sub publish. The very same request bodies are then sent to the echo, and the
client parses every answer in both cases. Both servers are stopped by PID at the end.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

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


def play_session(port: int, moves: int, seed: int, record: list[Recorded]) -> Job:
    def job() -> list[float]:
        client = Client(port)
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
                move = {"type": "lend", "to": (seat + 1) % 5, "cards": [card]}
                actor = seat
            else:
                move = {"type": "repay", "loan": loan[0], "cards": [loan[1]]}
                actor = (seat + 1) % 5
            path = f"/v1/polymer/sessions/{sid}/moves"
            body = json.dumps({"seat": actor, "version": version, "move": move}).encode()
            status, data, took = client.post(path, body, auth[actor])
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
    args = parser.parse_args()
    env = bench_env()
    service_port, echo_port = free_port(), free_port()
    service = start("service:create_app()", service_port, env)
    echo = start("bench.echo_app:create_app()", echo_port, env)
    try:
        records: list[list[Recorded]] = [[] for _ in range(args.sessions)]
        # warm up
        run_parallel([play_session(service_port, 10, 1, [])], 1)
        print(
            f"{args.sessions} sessions x {args.moves} moves, concurrency {args.concurrency}, "
            f"Redis at {env['REDIS_URL']}"
        )
        print(f"{'server':10} {'requests':>8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
        svc = summary(
            "service",
            *run_parallel(
                [
                    play_session(service_port, args.moves, 100 + i, records[i])
                    for i in range(args.sessions)
                ],
                args.concurrency,
            ),
        )
        base = summary(
            "echo",
            *run_parallel(
                [replay_job(echo_port, r, echo=True, parse=True) for r in records],
                args.concurrency,
            ),
        )
        size = sum(len(b) for r in records for _, b, _ in r) / sum(len(r) for r in records)
        print(f"mean request body: {size:.0f} bytes")
        print(f"ratio service/echo (req/s): {svc['rps'] / base['rps']:.2f}")
    finally:
        stop(service)
        stop(echo)


if __name__ == "__main__":
    main()
