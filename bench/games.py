"""In-process full games per second, for any game: the rules alone, no HTTP.

    .venv/bin/python -m bench.games --game element-draft [--players P] [--games N]
        [--options '{"target": null}']

Plays whole games through the rules API exactly as the service does (to_act, then
bot_move + apply for the first seat to act), with greedy bots and with random bots,
and reports games per second, rounds per game (a match's rounds for the games played
to a target), moves per second and milliseconds per move.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rules.core import GameRules
from rules.registry import GAMES


def play(
    game: GameRules, players: int, seed: int, bot: str, options: dict[str, Any]
) -> tuple[int, int]:
    """Moves and rounds of one whole game (a match's rounds, or a game's own rounds)."""
    state = game.setup(players, options, seed)
    moves = 0
    while to_act := game.to_act(state):
        seat = to_act[0]
        move, state = game.bot_move(state, seat, bot)
        state, _ = game.apply(state, seat, move)
        moves += 1
    if "match" in state:
        return moves, len(state["match"]["rounds"])
    return moves, int(state.get("round", 1))


def measure(slug: str, players: int, games: int, options: dict[str, Any]) -> None:
    game = GAMES[slug]
    print(f"{slug}: {players}-player games, {games} per bot, options {options or '{}'}")
    print(f"{'bot':8} {'games/s':>9} {'rounds/game':>11} {'moves/s':>9} {'ms/move':>8}")
    for bot in ("greedy", "random"):
        start = time.perf_counter()
        results = [play(game, players, seed, bot, options) for seed in range(games)]
        elapsed = time.perf_counter() - start
        moves = sum(m for m, _ in results)
        rounds = sum(r for _, r in results)
        print(
            f"{bot:8} {games / elapsed:9.1f} {rounds / games:11.1f} {moves / elapsed:9.0f} "
            f"{1000 * elapsed / moves:8.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--options", type=json.loads, default={})
    args = parser.parse_args()
    players = args.players or GAMES[args.game].info.max_players
    measure(args.game, players, args.games, args.options)


if __name__ == "__main__":
    main()
