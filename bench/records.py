"""What a game's record costs: a stateless token's growth, and a hosted game's log.

    .venv/bin/python -m bench.records [--games 10] [--url redis://127.0.0.1:6379/13]

1. **Stateless tokens** (in process): games of random bots at each game's smallest and
   largest table; the sealed state token's size (what a client sends with every call)
   with the log of steps it now carries, against the same state sealed without it; the
   longest game of each kind is the bound a client sees.
2. **Hosted logs** (a real Redis): hosted games of random bots through the app; Redis's
   own ``MEMORY USAGE`` of each session's log (one compact JSON step per move) per step.
"""

from __future__ import annotations

import argparse
import statistics
import uuid
from dataclasses import replace

import redis
from cryptography.fernet import Fernet

from rules.registry import GAMES
from service.games.play import apply_move, new_game
from service.games.tokens import Sealer

from .harness import bench_app
from .redis_cost import play


def tokens(games: int) -> None:
    sealer = Sealer((Fernet.generate_key().decode(),))
    print(f"{'game':18} {'players':>7} {'steps max':>9} {'token at end':>12} "
          f"{'without log':>11} {'log share':>9}")  # fmt: skip
    app = bench_app("", "bench-records:")  # no Redis: tokens only
    for slug, game in GAMES.items():
        if game.clock is not None:
            continue
        api = app.extensions["chemgames.games"][slug]
        for players in sorted({max(2, game.info.min_players), game.info.max_players}):
            rows = []
            for seed in range(games):
                env = new_game(api, players, {}, seed)
                for _ in range(10_000):
                    if game.outcome(env.state).finished:
                        break
                    seat = game.to_act(env.state)[0]
                    move, state = game.bot_move(env.state, seat, "random")
                    env, _ = apply_move(api, replace(env, state=state), seat, move, bot="random")
                with_log = len(sealer.seal(env))
                without = len(sealer.seal(replace(env, log=None)))
                rows.append((len(env.log.steps), with_log, without))  # type: ignore[union-attr]
            steps, with_log, without = max(rows)
            share = 1 - without / with_log
            print(f"{slug:18} {players:7} {steps:9} {with_log:12,} {without:11,} {share:9.0%}")


def hosted(url: str, games: int) -> None:
    prefix = f"bench-records-{uuid.uuid4().hex[:8]}:"
    app = bench_app(url, prefix)
    store = app.extensions["chemgames.store"]
    r = redis.Redis.from_url(url)
    c = app.test_client()
    print(f"\n{'game':18} {'players':>7} {'log B per step':>14} {'steps':>6}")
    try:
        for slug, api in app.extensions["chemgames.games"].items():
            players = api.info.min_players
            per_step, steps = [], []
            for seed in range(games):
                _, _, moves = play(c, slug, players, seed, store, r)
                sid = next(iter(store.redis.scan_iter(match=f"{prefix}*:log", count=1000)))
                size = int(r.memory_usage(sid) or 0)
                count = int(r.llen(sid))
                per_step.append(size / max(count, 1))
                steps.append(count)
                for key in r.scan_iter(match=f"{prefix}*", count=1000):
                    r.unlink(key)
                del moves
            print(f"{slug:18} {players:7} {statistics.median(per_step):14.0f} "
                  f"{statistics.median(steps):6.0f}")  # fmt: skip
    finally:
        for key in r.scan_iter(match=f"{prefix}*", count=1000):
            r.unlink(key)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--url", default="redis://127.0.0.1:6379/13")
    args = parser.parse_args()
    tokens(args.games)
    hosted(args.url, args.games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
