"""Compound Capture: in-process matches per second.

    .venv/bin/python -m bench.compound_capture_games [--games N] [--players P] [--decks D]

Whole matches to 250 through the rules API (bot_move + apply, as the service does),
with greedy bots and with random bots; matches, rounds and moves per second. HTTP
moves against the bare echo: `python -m bench.http_moves --game compound-capture`.
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--decks", choices=["covalent", "ionic", "both"], default=None)
    args = parser.parse_args()
    in_process(args.games or 20, args.players, args.decks)


if __name__ == "__main__":
    main()
