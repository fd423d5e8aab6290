"""How long a game's record gets: the bound on ``POST /v1/<slug>/replay`` (issue 27).

    .venv/bin/python -m bench.replay_steps [--games 200]

Random bots play ``--games`` games of every turn-based game at every table size, in
process; for each the longest game's steps, the size of its whole record as JSON (what
a replay's body is) and how long ``rules.records.check`` takes to replay it. Polymer is
bounded by its timer, not by its rules: its figures are the hosted bench's
(bench/README.md, "A classroom").
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import orjson

from rules import records
from rules.registry import GAMES
from service.games.play import apply_move, new_game

from .harness import bench_app


def longest(slug: str, players: int, games: int) -> tuple[int, int, float]:
    """Steps, record bytes and replay seconds of the longest of ``games`` random games."""
    app = bench_app("", "bench-replay-steps:")
    api = app.extensions["chemgames.games"][slug]
    game = api.game
    best = None
    for seed in range(games):
        env = new_game(api, players, {}, seed)
        for _ in range(100_000):
            if game.outcome(env.state).finished:
                break
            seat = game.to_act(env.state)[0]
            move, state = game.bot_move(env.state, seat, "random")
            env, _ = apply_move(api, replace(env, state=state), seat, move, bot="random")
        steps = len(env.log.steps)  # type: ignore[union-attr]
        if best is None or steps > best[0]:
            best = (steps, env)
    assert best is not None
    steps, env = best
    record = records.document(game, env.log, complete=True, game_id="bench", mode="stateless")  # type: ignore[arg-type]
    body = orjson.dumps(record)
    started = time.perf_counter()
    checked = records.check(game, orjson.loads(body))
    took = time.perf_counter() - started
    assert checked["replayed"] == steps
    return steps, len(body), took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print(f"{'game':18} {'players':>7} {'steps max':>9} {'record B':>10} {'replay ms':>9}")
    for slug, game in GAMES.items():
        if game.clock is not None:
            continue
        for players in range(max(2, game.info.min_players), game.info.max_players + 1):
            steps, size, took = longest(slug, players, args.games)
            print(f"{slug:18} {players:7} {steps:9} {size:10,} {took * 1000:9.1f}")


if __name__ == "__main__":
    main()
