"""HTTP moves per second through gunicorn, against a bare Flask JSON echo, for any game.

    .venv/bin/python -m bench.http_moves [--game element-draft] [--players 10]
        [--games 8] [--concurrency 4] [--rounds 3]

Starts two gunicorn servers on 127.0.0.1 with the project's gunicorn.conf.py (2
workers): the service, and bench/echo_app.py. First plays `--games` full stateless
games over HTTP as a front end would (setup, then for the seat to act: its legal
moves, then one of them), recording each request with its seat credential (not
timed). Then, timed, replays those requests game by game, `--concurrency` games at a
time: to the service (the service is stateless, so each recorded request is valid
again) and the very same requests to the echo. The client does the same work for
both (send, read the whole response), so the ratio is the server's cost. Rounds
alternate service/echo `--rounds` times; the best round of each is reported. Both
servers are stopped by PID at the end; every run is bounded by the number of games.
"""

from __future__ import annotations

import argparse
import json

from rules.registry import GAMES

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


def play_game(port: int, game: str, players: int, seed: int, record: list[Recorded]) -> None:
    """One whole game over HTTP; every request recorded with its credential."""
    client = Client(port)
    base = f"/v1/{game}"
    body = json.dumps({"players": players, "seed": seed}).encode()
    status, data, _ = client.post(f"{base}/setup", body)
    assert status == 201, data
    record.append((f"{base}/setup", body, {}))
    setup = json.loads(data)
    token, to_act = setup["token"], setup["to_act"]
    auth = {s["seat"]: {"Authorization": f"Bearer {s['seat_token']}"} for s in setup["seats"]}
    turn = 0
    while to_act:
        seat = to_act[turn % len(to_act)]
        asked = json.dumps({"token": token, "seat": seat}).encode()
        status, data, _ = client.post(f"{base}/legal-moves", asked, auth[seat])
        assert status == 200, data
        record.append((f"{base}/legal-moves", asked, auth[seat]))
        legal = json.loads(data)["moves"]
        move = legal[(seed + turn) % len(legal)]
        body = json.dumps({"token": token, "seat": seat, "move": move}).encode()
        status, data, _ = client.post(f"{base}/moves", body, auth[seat])
        assert status == 200, data
        record.append((f"{base}/moves", body, auth[seat]))
        result = json.loads(data)
        token, to_act = result["token"], result["to_act"]
        turn += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="element-draft", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    players = args.players or GAMES[args.game].info.max_players
    env = bench_env()
    service_port, echo_port = free_port(), free_port()
    service = start("service:create_app()", service_port, env)
    echo = start("bench.echo_app:create_app()", echo_port, env)
    try:
        records: list[list[Recorded]] = [[] for _ in range(args.games)]
        for i in range(args.games):
            play_game(service_port, args.game, players, 1000 + i, records[i])
        requests = sum(len(r) for r in records)
        payload = sum(len(b) for r in records for _, b, _ in r) / requests
        print(
            f"{args.game}: {args.games} games of {players} players = {requests} requests "
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
