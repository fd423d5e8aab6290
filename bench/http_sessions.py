"""A hosted move against a stateless move of the same game, in one run, over HTTP.

    .venv/bin/python -m bench.http_sessions [--game element-draft] [--players 4]
        [--games 6] [--concurrency 4] [--rounds 3]

Starts the service under gunicorn (the project's gunicorn.conf.py, 2 workers) on
127.0.0.1 with REDIS_URL (the local Redis at 127.0.0.1:6379 db 15 by default). Each
round plays `--games` whole games of the same seeds twice, `--concurrency` at a time:
stateless (every move carries the sealed token; the client keeps the latest) and as
hosted sessions (the client sends `version` and an Idempotency-Key; the service
loads the token and the Redis clock, applies, then commits with the Lua
compare-and-set and publishes the public events). Both play the same moves (the
seat to act takes its first legal move, read without timing). Only the move requests
are timed; moves/s is moves per second of wall time over the whole play (setup and
legal-moves calls included, the same for both modes). The best round of each mode is
reported with the ratio hosted/stateless; the server is stopped by PID at the end.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from rules.registry import GAMES

from .harness import Client, bench_env, free_port, run_parallel, start, stop, summary


def stateless_game(port: int, game: str, players: int, seed: int) -> Callable[[], list[float]]:
    def job() -> list[float]:
        client, base, took_all = Client(port), f"/v1/{game}", []
        status, data, _ = client.post(
            f"{base}/setup", json.dumps({"players": players, "seed": seed}).encode()
        )
        body = json.loads(data)
        token, to_act = body["token"], body["to_act"]
        auth = {s["seat"]: {"Authorization": f"Bearer {s['seat_token']}"} for s in body["seats"]}
        while to_act:
            seat = to_act[0]
            asked = json.dumps({"token": token, "seat": seat}).encode()
            _, data, _ = client.post(f"{base}/legal-moves", asked, auth[seat])
            move = json.loads(data)["moves"][0]
            request = json.dumps({"token": token, "seat": seat, "move": move}).encode()
            status, data, took = client.post(f"{base}/moves", request, auth[seat])
            assert status == 200, data
            took_all.append(took)
            body = json.loads(data)
            token, to_act = body["token"], body["to_act"]
        return took_all

    return job


def hosted_game(port: int, game: str, players: int, seed: int) -> Callable[[], list[float]]:
    def job() -> list[float]:
        client, base, took_all = Client(port), f"/v1/{game}/sessions", []
        status, data, _ = client.post(base, json.dumps({"players": players, "seed": seed}).encode())
        assert status == 201, data
        body = json.loads(data)
        url, version, to_act = f"{base}/{body['session_id']}", body["version"], body["to_act"]
        auth = {s["seat"]: {"Authorization": f"Bearer {s['seat_token']}"} for s in body["seats"]}
        n = 0
        while to_act:
            seat = to_act[0]
            asked = json.dumps({"seat": seat}).encode()
            _, data, _ = client.post(f"{url}/legal-moves", asked, auth[seat])
            move = json.loads(data)["moves"][0]
            request = json.dumps({"seat": seat, "version": version, "move": move}).encode()
            headers = {**auth[seat], "Idempotency-Key": f"{seed}-{n}"}
            status, data, took = client.post(f"{url}/moves", request, headers)
            assert status == 200, data
            took_all.append(took)
            body = json.loads(data)
            version, to_act, n = body["version"], body["to_act"], n + 1
        return took_all

    return job


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="element-draft", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    env = bench_env()
    port = free_port()
    service = start("service:create_app()", port, env)
    try:
        print(
            f"{args.game}: {args.games} games of {args.players} players per mode and round, "
            f"concurrency {args.concurrency}, Redis at {env['REDIS_URL']}"
        )
        print(f"{'mode':10} {'moves':>8} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
        for make in (stateless_game, hosted_game):  # warm up both workers, untimed
            run_parallel([make(port, args.game, args.players, s) for s in (1, 2)], 2)
        best: dict[str, dict[str, float]] = {}
        for r in range(args.rounds):
            seeds = [7000 + 100 * r + i for i in range(args.games)]
            for name, make in (("stateless", stateless_game), ("hosted", hosted_game)):
                jobs = [make(port, args.game, args.players, seed) for seed in seeds]
                row = summary(name, *run_parallel(jobs, args.concurrency))
                if name not in best or row["rps"] > best[name]["rps"]:
                    best[name] = row
        print("best rounds:")
        for name in ("stateless", "hosted"):
            row = best[name]
            print(
                f"{name:10} {row['requests']:8.0f} {row['rps']:9.0f} {row['p50_ms']:8.2f} "
                f"{row['p99_ms']:8.2f}"
            )
        ratio = best["hosted"]["rps"] / best["stateless"]["rps"]
        print(f"ratio hosted/stateless (moves/s): {ratio:.2f}")
    finally:
        stop(service)


if __name__ == "__main__":
    main()
