"""HTTP moves per second through gunicorn, against a bare Flask JSON echo.

    .venv/bin/python -m bench.http_moves [--games 12] [--concurrency 4] [--players 10]

Starts two gunicorn servers on 127.0.0.1 with the project's gunicorn.conf.py (2
workers): the service, and bench/echo_app.py. First plays `--games` full games of
the Chemistry Card Game over HTTP (setup, then every move, each request carrying
the latest token), recording each request body (not timed). Then, timed, replays
those bodies game by game, `--concurrency` games at a time: to the service (the
service is stateless, so each recorded move is valid again), and the very same
bodies to the echo. The client does the same work for both (send, read the whole
response), so the ratio is the server's cost. Rounds alternate service/echo
`--rounds` times; the best round of each is reported. Both servers are stopped by
PID at the end; every run is bounded by the number of games.
"""

from __future__ import annotations

import argparse
import json
import os

from .harness import Client, free_port, replay_job, run_parallel, start, stop, summary


def play_game(port: int, players: int, seed: int, record: list[tuple[str, bytes]]) -> list[float]:
    client = Client(port)
    latencies = []
    body = json.dumps({"players": players, "seed": seed}).encode()
    status, data, took = client.post("/v1/element-draft/setup", body)
    assert status == 201, data
    record.append(("/v1/element-draft/setup", body))
    latencies.append(took)
    setup = json.loads(data)
    token, seats = setup["token"], {s["seat"]: s["seat_token"] for s in setup["seats"]}
    to_act = setup["to_act"]
    hands: dict[int, list[int]] = {}
    while to_act:
        seat = to_act[0]
        if seat not in hands or not hands[seat]:
            view = json.dumps({"token": token, "seat": seat, "seat_token": seats[seat]}).encode()
            status, data, took = client.post("/v1/element-draft/view", view)
            record.append(("/v1/element-draft/view", view))
            latencies.append(took)
            hands[seat] = [c["z"] for c in json.loads(data)["view"]["you"]["hand"]]
        move = {"type": "draft", "card": hands[seat][0]}
        body = json.dumps(
            {"token": token, "seat": seat, "seat_token": seats[seat], "move": move}
        ).encode()
        status, data, took = client.post("/v1/element-draft/moves", body)
        assert status == 200, data
        record.append(("/v1/element-draft/moves", body))
        latencies.append(took)
        result = json.loads(data)
        token, to_act = result["token"], result["to_act"]
        hands = {seat: [c["z"] for c in result["view"]["you"]["hand"]]} | {
            s: [] for s in hands if s != seat
        }
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from cryptography.fernet import Fernet

    env = {
        **os.environ,
        "STATE_KEYS": Fernet.generate_key().decode(),
        "LOG_LEVEL": "WARNING",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15"),
        "WEB_CONCURRENCY": "2",
    }
    service_port, echo_port = free_port(), free_port()
    service = start("service:create_app()", service_port, env)
    echo = start("bench.echo_app:create_app()", echo_port, env)
    try:
        records: list[list[tuple[str, bytes]]] = [[] for _ in range(args.games)]
        for i in range(args.games):
            play_game(service_port, args.players, 1000 + i, records[i])
        requests = sum(len(r) for r in records)
        payload = sum(len(b) for r in records for _, b in r) / requests
        print(
            f"{args.games} games of {args.players} players = {requests} requests "
            f"(mean body {payload:.0f} bytes), concurrency {args.concurrency}"
        )
        print(f"{'server':10} {'requests':>8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.rounds):
            for name, port, to_echo in (
                ("service", service_port, False),
                ("echo", echo_port, True),
            ):
                jobs = [replay_job(port, r, echo=to_echo) for r in records]
                row = summary(name, *run_parallel(jobs, args.concurrency))
                if name not in best or row["rps"] > best[name]["rps"]:
                    best[name] = row
        print("best rounds:")
        for name in ("service", "echo"):
            row = best[name]
            print(
                f"{name:10} {row['requests']:8.0f} {row['rps']:9.0f} {row['p50_ms']:8.2f} "
                f"{row['p99_ms']:8.2f}"
            )
        print(f"ratio service/echo (req/s): {best['service']['rps'] / best['echo']['rps']:.2f}")
    finally:
        stop(service)
        stop(echo)


if __name__ == "__main__":
    main()
