"""How far a stateless move's ratio to the echo can rise: the service against its floor.

    .venv/bin/python -m bench.floor [--game element-draft] [--players 10] [--games 6]
        [--concurrency 4] [--rounds 3]

Plays ``--games`` whole stateless games over HTTP (as ``bench.http_moves`` does: for
the seat to act its legal moves, then one of them) and replays the recorded requests,
``--concurrency`` games at a time, to the service and to the four rungs of
``bench/floor_app.py``, all under the project's gunicorn.conf.py (2 gevent workers):

* ``echo``: the body back (the ratios' denominator);
* ``limit``: and a move's rate limit in Redis (one round trip);
* ``token``: and the state token opened, and sealed again after a move;
* ``work``: the whole of the service's work through its own functions (validation,
  credential, rules, bots, events, view, token, limit) with no framework around it;
* ``service``: the service itself.

Rounds alternate between the five ``--rounds`` times; the best round of each is
reported, with its ratio to the echo's best round and the workers' CPU per request.
Each rung's ratio bounds what any change to the service could reach without giving up
what that rung pays for.
"""

from __future__ import annotations

import argparse

from rules.registry import GAMES

from .harness import (
    Recorded,
    bench_env,
    free_port,
    replay_job,
    run_parallel,
    start,
    stop,
    summary,
    workers_cpu,
)
from .http_moves import play_game

RUNGS = ("echo", "limit", "token", "work")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="element-draft", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if GAMES[args.game].clock is not None:
        parser.error(f"{args.game} is played only as a hosted session")
    players = args.players or GAMES[args.game].info.max_players
    env = bench_env()
    service_port, floor_port = free_port(), free_port()
    service = start("service:create_app()", service_port, env)
    floor = start("bench.floor_app:create_app()", floor_port, env)
    try:
        records: list[list[Recorded]] = []
        for i in range(args.games):
            played: list[Recorded] = []
            play_game(service_port, args.game, players, 1000 + i, played)
            records.append([r for r in played if not r[0].endswith("/setup")])
        requests = sum(len(r) for r in records)
        print(
            f"{args.game}: {args.games} games of {players} players, {requests} requests "
            f"(legal moves and moves), concurrency {args.concurrency}"
        )
        print(f"{'server':10} {'requests':>8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
        targets = [(rung, floor, floor_port, f"/{rung}") for rung in RUNGS]
        targets.append(("service", service, service_port, ""))
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.rounds):
            for name, proc, port, prefix in targets:
                jobs = [
                    replay_job(port, [(prefix + path, body, h) for path, body, h in r], echo=False)
                    for r in records
                ]
                before = workers_cpu(proc.pid)
                row = summary(name, *run_parallel(jobs, args.concurrency))
                row["cpu_us"] = 1e6 * (workers_cpu(proc.pid) - before) / row["requests"]
                if name not in best or row["rps"] > best[name]["rps"]:
                    best[name] = row
        echo = best["echo"]["rps"]
        print("best rounds:")
        print(f"{'server':10} {'req/s':>9} {'ratio':>7} {'worker CPU µs/request':>22}")
        for name, *_ in targets:
            row = best[name]
            print(f"{name:10} {row['rps']:9.0f} {row['rps'] / echo:7.2f} {row['cpu_us']:22.0f}")
    finally:
        stop(service)
        stop(floor)


if __name__ == "__main__":
    main()
