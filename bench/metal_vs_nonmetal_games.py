"""In-process full games of Metal vs. Non-Metal per second.

    .venv/bin/python -m bench.metal_vs_nonmetal_games [--games N] [--players P]

Plays whole games through the rules API (bot_move + apply, as the service does),
with greedy bots and with random bots.
"""

from __future__ import annotations

import argparse
import time

from rules.metal_vs_nonmetal import GAME


def play(players: int, seed: int, bot: str) -> int:
    state = GAME.setup(players, {}, seed)
    moves = 0
    while to_act := GAME.to_act(state):
        seat = to_act[0]
        move, state = GAME.bot_move(state, seat, bot)
        state, _ = GAME.apply(state, seat, move)
        moves += 1
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"{args.players}-player games, {args.games} per bot")
    print(f"{'bot':8} {'games/s':>9} {'moves/s':>9} {'ms/move':>8}")
    for bot in ("greedy", "random"):
        start = time.perf_counter()
        moves = sum(play(args.players, seed, bot) for seed in range(args.games))
        elapsed = time.perf_counter() - start
        print(
            f"{bot:8} {args.games / elapsed:9.1f} {moves / elapsed:9.0f} "
            f"{1000 * elapsed / moves:8.3f}"
        )


if __name__ == "__main__":
    main()
