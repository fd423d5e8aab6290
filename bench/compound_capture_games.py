"""Compound Capture: in-process matches per second, and HTTP moves against a bare echo.

    .venv/bin/python -m bench.compound_capture_games [--games N] [--players P] [--decks D]
    .venv/bin/python -m bench.compound_capture_games --http [--games 4] [--concurrency 4]

In process: whole matches to 250 through the rules API (bot_move + apply, as the
service does), with greedy bots and with random bots; matches, rounds and moves per
second.

With ``--http``: starts the service and bench/echo_app.py under gunicorn on 127.0.0.1
(2 workers each), plays ``--games`` one-round games over HTTP (the greedy bot picks
each move through /bot-move, and the move is then made through /moves, which is what
is recorded), then replays the recorded /moves bodies, ``--concurrency`` games at a
time, to the service and the very same bodies to the echo (the service is stateless,
so each recorded move is valid again). The best of ``--rounds`` rounds of each is
reported with the ratio. Both servers are stopped by PID; the run is bounded by the
number of games.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from rules.compound_capture import GAME

BASE = "/v1/compound-capture"


def play(players: int, seed: int, bot: str, decks: str | None) -> tuple[int, int]:
    state = GAME.setup(players, {"decks": decks}, seed)
    moves = 0
    while to_act := GAME.to_act(state):
        seat = to_act[0]
        move, state = GAME.bot_move(state, seat, bot)
        state, _ = GAME.apply(state, seat, move)
        moves += 1
    return moves, len(state["match"]["rounds"])


def in_process(games: int, players: int, decks: str | None) -> None:
    print(f"{players}-player matches to 250, decks {decks or 'by player count'}")
    print(f"{'bot':8} {'matches/s':>9} {'rounds/s':>9} {'moves/s':>9} {'ms/move':>8}")
    for bot in ("greedy", "random"):
        start = time.perf_counter()
        results = [play(players, seed, bot, decks) for seed in range(games)]
        elapsed = time.perf_counter() - start
        moves = sum(m for m, _ in results)
        rounds = sum(r for _, r in results)
        print(
            f"{bot:8} {games / elapsed:9.1f} {rounds / elapsed:9.1f} {moves / elapsed:9.0f} "
            f"{1000 * elapsed / moves:8.3f}"
        )


def record_game(port: int, players: int, seed: int) -> list[tuple[str, bytes]]:
    from .harness import Client

    client = Client(port)
    setup = {"players": players, "seed": seed, "options": {"target": None}}
    status, data, _ = client.post(f"{BASE}/setup", json.dumps(setup).encode())
    assert status == 201, data
    body = json.loads(data)
    token, to_act = body["token"], body["to_act"]
    seats = {s["seat"]: s["seat_token"] for s in body["seats"]}
    record = []
    while to_act:
        seat = to_act[0]
        auth = {"token": token, "seat": seat, "seat_token": seats[seat]}
        status, data, _ = client.post(
            f"{BASE}/bot-move", json.dumps({**auth, "bot": "greedy"}).encode()
        )
        assert status == 200, data
        move = json.loads(data)["move"]
        request = json.dumps({**auth, "move": move}).encode()
        status, data, _ = client.post(f"{BASE}/moves", request)
        assert status == 200, data
        record.append((f"{BASE}/moves", request))
        body = json.loads(data)
        token, to_act = body["token"], body["to_act"]
    return record


def over_http(games: int, players: int, concurrency: int, rounds: int) -> None:
    from cryptography.fernet import Fernet

    from .harness import free_port, replay_job, run_parallel, start, stop, summary

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
        records = [record_game(service_port, players, 2000 + i) for i in range(games)]
        requests = sum(len(r) for r in records)
        payload = sum(len(b) for r in records for _, b in r) / requests
        print(
            f"{games} one-round games of {players} players = {requests} moves "
            f"(mean body {payload:.0f} bytes), concurrency {concurrency}"
        )
        print(f"{'server':10} {'requests':>8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
        best: dict[str, dict[str, float]] = {}
        for _ in range(rounds):
            for name, port, to_echo in (
                ("service", service_port, False),
                ("echo", echo_port, True),
            ):
                jobs = [replay_job(port, r, echo=to_echo) for r in records]
                row = summary(name, *run_parallel(jobs, concurrency))
                if name not in best or row["rps"] > best[name]["rps"]:
                    best[name] = row
        ratio = best["service"]["rps"] / best["echo"]["rps"]
        print(
            f"best rounds: service {best['service']['rps']:.0f} req/s, echo "
            f"{best['echo']['rps']:.0f} req/s, ratio service/echo {ratio:.2f}"
        )
    finally:
        stop(service)
        stop(echo)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--decks", choices=["covalent", "ionic", "both"], default=None)
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.http:
        over_http(args.games or 4, args.players, args.concurrency, args.rounds)
    else:
        in_process(args.games or 20, args.players, args.decks)


if __name__ == "__main__":
    main()
