"""CPU a hosted move request costs in process, for before/after comparisons.

    .venv/bin/python -m bench.move_cpu [--game element-draft] [--games 20] [--rounds 5]

Plays whole hosted games of one game through the app's WSGI entry (no HTTP server, no
gevent; the same code gunicorn runs from the routing on), with the deployment's
settings (rate limits counted, Idempotency-Keys sent, Redis at REDIS_URL, the local
one on db 15 by default), and reads the process's CPU (``time.process_time``) around
every move request (``POST .../moves``) from the WSGI call to the last byte of its
answer. Redis's own CPU per move is read from the server (meaningful on a Redis
nobody else uses). Every round prints a line; the last line is the median of the
rounds. CPU time is less disturbed by a busy machine than wall time, but a shared
machine still moves it by 10% or more: to compare two checkouts, run each from its
own directory in turns (A, B, A, B) and compare medians of the same session.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from cryptography.fernet import Fernet


class Meter:
    """The app's WSGI entry, with the CPU of its move requests counted."""

    def __init__(self, app: Any) -> None:
        self.cpu = 0.0
        self.moves = 0
        inner = app.wsgi_app

        def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
            if not environ["PATH_INFO"].endswith("/moves"):
                return inner(environ, start_response)
            began = time.process_time()
            body = b"".join(inner(environ, start_response))
            self.cpu += time.process_time() - began
            self.moves += 1
            return [body]

        app.wsgi_app = wsgi


def in_process_settings() -> None:
    """The deployment's settings for a run in process, where not set already: Redis on
    the local db 15, rate limits counted with budgets no run reaches (the reads' and
    streams' too: db 15's budgets are shared with other runs on the machine), no due
    work, warnings only."""
    os.environ.setdefault("STATE_KEYS", Fernet.generate_key().decode())
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    for budget in ("MOVES", "SETUP", "READS", "STREAMS"):
        os.environ.setdefault(f"RATE_LIMIT_{budget}", "10000000 per minute")
    os.environ.setdefault("DUE_WORK", "off")


def deal(client: Any, slug: str, players: int, seed: int) -> dict[str, Any]:
    """A hosted session of ``slug``, dealt from ``seed``: its creation's answer."""
    made = client.post(f"/v1/{slug}/sessions", json={"players": players, "seed": seed})
    assert made.status_code == 201, made.get_json()
    found: dict[str, Any] = made.get_json()
    return found


def play_dealt(client: Any, slug: str, made: dict[str, Any], seed: int) -> int:
    """Play the dealt session ``made`` to its end as its seats' devices would (a
    legal-moves read, then a keyed move); the moves made."""
    base = f"/v1/{slug}/sessions/{made['session_id']}"
    auth = {s["seat"]: {"Authorization": f"Bearer {s['seat_token']}"} for s in made["seats"]}
    version, to_act, turn = made["version"], made["to_act"], 0
    while to_act:
        seat = to_act[turn % len(to_act)]
        legal = client.post(f"{base}/legal-moves", json={"seat": seat}, headers=auth[seat])
        moves = legal.get_json()["moves"]
        body = {"seat": seat, "version": version, "move": moves[(seed + turn) % len(moves)]}
        headers = {**auth[seat], "Idempotency-Key": f"{made['session_id']}-{turn}"}
        answer = client.post(f"{base}/moves", json=body, headers=headers)
        assert answer.status_code == 200, answer.get_json()
        version, to_act = answer.get_json()["version"], answer.get_json()["to_act"]
        turn += 1
    return turn


def play(client: Any, slug: str, players: int, seed: int) -> None:
    play_dealt(client, slug, deal(client, slug, players, seed), seed)


def play_stateless(client: Any, slug: str, players: int, seed: int) -> int:
    """A stateless game of ``slug`` dealt from ``seed`` and played to its end as its
    seats' devices would (a legal-moves read, then the move, each with the seat's
    credential and the token); the moves made."""
    setup = client.post(f"/v1/{slug}/setup", json={"players": players, "seed": seed}).get_json()
    token, to_act = setup["token"], setup["to_act"]
    auth = {s["seat"]: {"Authorization": f"Bearer {s['seat_token']}"} for s in setup["seats"]}
    turn = 0
    while to_act:
        seat = to_act[turn % len(to_act)]
        legal = client.post(
            f"/v1/{slug}/legal-moves", json={"token": token, "seat": seat}, headers=auth[seat]
        ).get_json()["moves"]
        body = {"token": token, "seat": seat, "move": legal[(seed + turn) % len(legal)]}
        answer = client.post(f"/v1/{slug}/moves", json=body, headers=auth[seat])
        assert answer.status_code == 200, answer.get_json()
        token, to_act = answer.get_json()["token"], answer.get_json()["to_act"]
        turn += 1
    return turn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="element-draft")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20, help="games per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    in_process_settings()
    from service import create_app

    app = create_app()
    meter = Meter(app)
    client = app.test_client()
    redis = app.extensions["chemgames.redis"].client

    def redis_cpu() -> float:
        info = redis.info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])

    for seed in range(3):
        play(client, args.game, args.players, 10_000 + seed)  # warm
    per_move, redis_per_move = [], []
    for r in range(args.rounds):
        meter.cpu, meter.moves = 0.0, 0
        before = redis_cpu()
        for seed in range(args.games):
            play(client, args.game, args.players, r * args.games + seed)
        spent = redis_cpu() - before
        per_move.append(1000 * meter.cpu / meter.moves)
        redis_per_move.append(1e6 * spent / meter.moves)
        print(
            f"round {r + 1}: {meter.moves} moves, {per_move[-1]:.3f} CPU ms/move, "
            f"Redis {redis_per_move[-1]:.0f} us/move",
            flush=True,
        )
    print(
        f"median: {statistics.median(per_move):.3f} CPU ms/move "
        f"({min(per_move):.3f}-{max(per_move):.3f}), "
        f"Redis {statistics.median(redis_per_move):.0f} us/move"
    )


if __name__ == "__main__":
    main()
