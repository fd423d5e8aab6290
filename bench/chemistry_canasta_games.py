"""Chemistry Canasta: in-process matches per second, and HTTP moves against a bare echo.

    .venv/bin/python -m bench.chemistry_canasta_games [--games N] [--players P] [--decks D]
    .venv/bin/python -m bench.chemistry_canasta_games --http [--games 4] [--concurrency 4]

In process: whole matches to 250 through the rules API (bot_move + apply, as the
service does), with greedy bots and with random bots; matches, rounds and moves per
second.

With ``--http`` (Compound Capture's approach): starts the service and
bench/echo_app.py under gunicorn on 127.0.0.1 (2 workers each), plays ``--games``
one-round games over HTTP (the greedy bot picks each move through /bot-move, and the
move is then made through /moves with the seat's bearer credential, which is what is
recorded), then replays the recorded /moves requests, ``--concurrency`` games at a
time, to the service and the very same requests to the echo (the service is
stateless, so each recorded move is valid again). The best of ``--rounds`` rounds of
each is reported with the ratio. Both servers are stopped by PID; the run is bounded
by the number of games.
"""

from __future__ import annotations

import argparse
import time

from rules.chemistry_canasta import GAME

BASE = "/v1/chemistry-canasta"


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
    print(f"{players}-player matches to 250, expansions {decks or 'by player count'}")
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


def over_http(games: int, players: int, concurrency: int, rounds: int) -> None:
    from .harness import (
        free_port,
        record_bot_game,
        service_against_echo,
        service_env,
        start,
        stop,
    )

    env = service_env()
    service_port, echo_port = free_port(), free_port()
    service = start("service:create_app()", service_port, env)
    echo = start("bench.echo_app:create_app()", echo_port, env)
    try:
        setup = {"players": players, "options": {"target": None}}
        records = [
            record_bot_game(service_port, BASE, {**setup, "seed": 2000 + i}) for i in range(games)
        ]
        requests = sum(len(r) for r in records)
        payload = sum(len(r[1]) for game in records for r in game) / requests
        print(
            f"{games} one-round games of {players} players = {requests} moves "
            f"(mean body {payload:.0f} bytes), concurrency {concurrency}"
        )
        service_against_echo(records, service_port, echo_port, concurrency, rounds)
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
