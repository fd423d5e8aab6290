"""What a hosted game costs in Redis: bytes per session and per keyed move, and memory
after a run of finished games.

    .venv/bin/python -m bench.redis_cost [--url redis://127.0.0.1:6379/13] [--games 40]

Plays hosted games through the app (in process) against a real Redis, every move with
an Idempotency-Key (the worst case: each keeps its answer), and reads Redis's own
``MEMORY USAGE`` (``SAMPLES 0``: every field counted, not five sampled) of every key of
each session (its hash with the stored answers, its record's list, its callback's
keys: everything under its hash tag) after creation and after the game; then the
server's ``used_memory`` before and after a run of whole games, and again once the
finished games' hour has passed (simulated by expiring them: a finished game is kept
for at most an hour, its answers with it). Writes under a prefix of its own and deletes
it at the end.
"""

from __future__ import annotations

import argparse
import statistics
import uuid
from typing import Any

import redis
from cryptography.fernet import Fernet

from rules.registry import GAMES
from service import create_app
from service.base.config import Settings
from service.base.redis_client import glob_escape


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play(c: Any, slug: str, players: int, seed: int, store: Any, r: Any) -> tuple[int, int, int]:
    """One keyed game: (bytes after creation, bytes at the end, keyed moves)."""
    made = c.post(f"/v1/{slug}/sessions", json={"players": players, "seed": seed}).get_json()
    sid = made["session_id"]
    key = store.key(sid)
    tokens = {s["seat"]: s["seat_token"] for s in made["seats"]}
    for extra in GAMES[slug].extras:
        if extra.by == "host":
            c.post(f"/v1/{slug}/sessions/{sid}/{extra.name}", headers=auth(made["host_token"]))
    start = session_bytes(r, key)
    moves = 0
    for step in range(2000):
        view = c.get(f"/v1/{slug}/sessions/{sid}").get_json()
        if view["outcome"]["finished"] or not view["to_act"]:
            break
        seat = view["to_act"][0]
        body = {"seat": seat, "version": view["version"]}
        headers = {**auth(tokens[seat]), "Idempotency-Key": f"move-{step}"}
        if (
            c.post(f"/v1/{slug}/sessions/{sid}/bot-move", json=body, headers=headers).status_code
            != 200
        ):
            break
        moves += 1
    end = session_bytes(r, key)
    return start, end, moves


def session_bytes(r: Any, key: str) -> int:
    """``MEMORY USAGE ... SAMPLES 0`` summed over every key of the session (``key`` and
    everything after it: its log, outbox, deliveries)."""
    total = 0
    for found in r.scan_iter(match=glob_escape(key) + "*", count=1000):
        total += int(r.memory_usage(found, samples=0) or 0)
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--games", type=int, default=20, help="games per game type")
    args = parser.parse_args()
    prefix = f"bench-cost-{uuid.uuid4().hex[:8]}:"
    settings = Settings(
        state_keys=(Fernet.generate_key().decode(),),
        redis_url=args.url,
        redis_key_prefix=prefix,
        log_level="WARNING",
        rate_limits_enabled=False,
    )
    app = create_app(settings)
    store = app.extensions["chemgames.store"]
    r = redis.Redis.from_url(args.url)
    c = app.test_client()
    print(f"{'game':20} {'players':>7} {'session B':>10} {'per keyed move B':>17} {'moves':>6}")
    used_before = int(r.info("memory")["used_memory"])
    try:
        for slug, api in app.extensions["chemgames.games"].items():
            players = api.info.min_players
            rows = [play(c, slug, players, seed, store, r) for seed in range(args.games)]
            created = statistics.median(s for s, _, _ in rows)
            per_move = statistics.median((e - s) / m for s, e, m in rows if m)
            moves = statistics.median(m for _, _, m in rows)
            print(f"{slug:20} {players:7} {created:10.0f} {per_move:17.0f} {moves:6.0f}")
        used_after = int(r.info("memory")["used_memory"])
        keys = list(r.scan_iter(match=f"{prefix}*", count=1000))
        print(
            f"\n{len(keys)} keys of {len(app.extensions['chemgames.games']) * args.games} "
            "finished games: "
            f"used_memory {used_before / 2**20:.1f} -> {used_after / 2**20:.1f} MiB"
        )
        ttls = [r.ttl(k) for k in keys if b"{" in k and b"}:" not in k]
        if ttls:
            print(f"finished sessions expire within {max(ttls)} s (longest TTL left)")
    finally:
        for k in r.scan_iter(match=f"{prefix}*", count=1000):
            r.unlink(k)
    print(f"after they expire: used_memory {int(r.info('memory')['used_memory']) / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
