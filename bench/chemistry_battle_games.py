"""In-process full games of Chemistry Battle per second.

    .venv/bin/python -m bench.chemistry_battle_games [--games N] [--players P]

Plays whole games through the rules API (bot_move + apply, as the service does),
with greedy bots and with random bots, default options (round limit 1000).
"""

from __future__ import annotations

import argparse
import time

from rules.chemistry_battle import GAME


def play(players: int, seed: int, bot: str) -> tuple[int, int]:
    """Moves and rounds of one whole game."""
    state = GAME.setup(players, {}, seed)
    moves = 0
    while to_act := GAME.to_act(state):
        seat = to_act[0]
        move, state = GAME.bot_move(state, seat, bot)
        state, _ = GAME.apply(state, seat, move)
        moves += 1
    return moves, int(state["round"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=6)
    args = parser.parse_args()
    print(f"{args.players}-player games, {args.games} per bot")
    print(f"{'bot':8} {'games/s':>9} {'moves/s':>9} {'ms/move':>8} {'rounds/game':>12}")
    for bot in ("greedy", "random"):
        start = time.perf_counter()
        results = [play(args.players, seed, bot) for seed in range(args.games)]
        elapsed = time.perf_counter() - start
        moves = sum(m for m, _ in results)
        rounds = sum(r for _, r in results) / len(results)
        print(
            f"{bot:8} {args.games / elapsed:9.1f} {moves / elapsed:9.0f} "
            f"{1000 * elapsed / moves:8.3f} {rounds:12.1f}"
        )


if __name__ == "__main__":
    main()
