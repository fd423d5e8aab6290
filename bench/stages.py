"""Where a move's time goes, stage by stage, per game and per play mode.

    .venv/bin/python -m bench.stages [--games 4] [--polymer-moves 300] [--game SLUG ...]

Plays whole games in process through the app's WSGI entry (no HTTP server, no
client: the same code gunicorn runs, from the routing on), with the deployment's
settings (rate limits on, Redis at REDIS_URL, the local one on db 15 by default),
and times every move request (``POST .../moves``) from the WSGI call to the last
byte of its answer. Inside, the functions of each stage are wrapped with timers
that count only their own time (a stage called inside another is subtracted from
it), so the stages add up to the measured total; "framework" is what is left:
Werkzeug's request and response, Flask's routing and hooks, flask-smorest's and
webargs' wrappers, compression.

Stages: parse and validate (the body's JSON and its schema), rate limit (the limiter's
Python), Redis (every round trip: the limiter's, the session's load, the
compare-and-set),
open the token, credential, rules (the move, bots, who acts, the outcome), view,
events, seal, write the answer (orjson and the response).

Beside the stages: the Redis round trips per move (commands and pipelines the service
sends, counted at redis-py's connection) and Redis's own CPU per move (the server's
``used_cpu_user + used_cpu_sys`` over the run: meaningful on a Redis nobody else uses).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from cryptography.fernet import Fernet

from .harness import LIFTED_LIMITS, RoundTrips
from .move_cpu import play_stateless

STAGES = (
    "parse and validate",
    "rate limit",
    "Redis",
    "open the token",
    "credential",
    "rules",
    "view",
    "events",
    "seal",
    "write the answer",
)


class Clock:
    """Exclusive time per stage, while ``active``."""

    def __init__(self) -> None:
        self.active = False
        self.spent: dict[str, float] = defaultdict(float)
        self._stack: list[list[float]] = []  # per open call: [start, time of children]

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kw: Any) -> Any:
            if not self.active:
                return fn(*args, **kw)
            frame = [time.perf_counter(), 0.0]
            self._stack.append(frame)
            try:
                return fn(*args, **kw)
            finally:
                self._stack.pop()
                took = time.perf_counter() - frame[0]
                self.spent[stage] += took - frame[1]
                if self._stack:
                    self._stack[-1][1] += took

        return timed


def instrument(clock: Clock) -> None:
    """Wrap each stage's functions where the service calls them: before the app is
    made, since it keeps some of them (its hooks, a view's loader) as it is made."""
    from service.games import tokens
    from service.http import jsonio, parsing
    from service.school import limits
    from service.sessions.store import SessionStore

    def patch(owner: Any, name: str, stage: str) -> None:
        setattr(owner, name, clock.wrap(stage, getattr(owner, name)))

    # a body's bytes and JSON, then its schema (the quick loader each view keeps)
    patch(parsing.JsonParser, "load_json", "parse and validate")
    quick_loader = parsing.quick_loader
    parsing.quick_loader = lambda schema, **kw: clock.wrap(
        "parse and validate", quick_loader(schema, **kw)
    )
    # the limiter's own Python (its hooks, and its part of a session's load); its round
    # trips are Redis's
    for name in ("check", "headers", "pending_calls", "settle_with_load"):
        patch(limits.Limiter, name, "rate limit")
    patch(limits.RedisCounter, "draw", "Redis")
    patch(limits.RedisCounter, "draw_all", "Redis")
    patch(tokens.Sealer, "open", "open the token")
    patch(tokens.Sealer, "seal", "seal")
    patch(tokens.Sealer, "check_seat", "credential")
    patch(tokens.Sealer, "check_host", "credential")
    for name, member in vars(SessionStore).items():
        if callable(member) and not name.startswith("_") and name not in ("key", "channel"):
            patch(SessionStore, name, "Redis")
    # functions imported by name: wrapped in every module of the service that holds them
    by_name = {"json_response": "write the answer", "events_for": "events"}
    originals = {name: getattr(jsonio if name == "json_response" else _core(), name)
                 for name in by_name}  # fmt: skip
    for module in [m for n, m in sys.modules.items() if n.startswith("service")]:
        for name, stage in by_name.items():
            if getattr(module, name, None) is originals[name]:
                setattr(module, name, clock.wrap(stage, originals[name]))


def instrument_rules(app: Any, clock: Clock) -> None:
    """Wrap each game's rules and view, as the app made them."""
    from rules.core import GameRules

    for api in app.extensions["chemgames.games"].values():
        game: GameRules = api.game
        for name in ("apply", "bot_move", "to_act", "outcome", "legal_moves"):
            object.__setattr__(game, name, clock.wrap("rules", getattr(game, name)))
        object.__setattr__(game, "view", clock.wrap("view", game.view))


def _core() -> Any:
    import rules.core

    return rules.core


def redis_cpu(app: Any) -> float:
    info = app.extensions["chemgames.redis"].client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


class Timed:
    """The app's WSGI entry, timing move requests (and the stages inside them)."""

    def __init__(self, app: Any, clock: Clock) -> None:
        self.app, self.clock = app, clock
        self.total = 0.0
        self.moves = 0
        inner = app.wsgi_app

        def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
            move = environ["PATH_INFO"].endswith("/moves")
            if not move:
                return inner(environ, start_response)
            clock.active = True
            began = time.perf_counter()
            try:
                body = b"".join(inner(environ, start_response))
            finally:
                clock.active = False
            self.total += time.perf_counter() - began
            self.moves += 1
            return [body]

        app.wsgi_app = wsgi

    @contextmanager
    def fresh(self) -> Iterator[None]:
        self.clock.spent.clear()
        self.total, self.moves = 0.0, 0
        yield


def stateless(client: Any, slug: str, players: int, seed: int) -> None:
    play_stateless(client, slug, players, seed)


def hosted(client: Any, slug: str, players: int, seed: int) -> None:
    made = client.post(f"/v1/{slug}/sessions", json={"players": players, "seed": seed})
    made = made.get_json()
    base = f"/v1/{slug}/sessions/{made['session_id']}"
    auth = {s["seat"]: {"Authorization": f"Bearer {s['seat_token']}"} for s in made["seats"]}
    version, to_act, turn = made["version"], made["to_act"], 0
    while to_act:
        seat = to_act[turn % len(to_act)]
        legal = client.post(f"{base}/legal-moves", json={"seat": seat}, headers=auth[seat])
        moves = legal.get_json()["moves"]
        body = {"seat": seat, "version": version, "move": moves[(seed + turn) % len(moves)]}
        answer = client.post(f"{base}/moves", json=body, headers=auth[seat])
        assert answer.status_code == 200, answer.get_json()
        version, to_act = answer.get_json()["version"], answer.get_json()["to_act"]
        turn += 1


def polymer(client: Any, moves: int, seed: int) -> None:
    """A lend and its repayment around a five-seat table (as bench.http_polymer)."""
    made = client.post(
        "/v1/polymer/sessions",
        json={"players": 5, "seed": seed, "options": {"timer_seconds": 3600}},
    ).get_json()
    base = f"/v1/polymer/sessions/{made['session_id']}"
    auth = {s["seat"]: {"Authorization": f"Bearer {s['seat_token']}"} for s in made["seats"]}
    started = client.post(
        f"{base}/start", headers={"Authorization": f"Bearer {made['host_token']}"}
    )
    version = started.get_json()["version"]
    hands = {
        seat: [c["id"] for c in client.get(f"{base}?seat={seat}", headers=auth[seat])
               .get_json()["view"]["you"]["hand"]]
        for seat in range(5)
    }  # fmt: skip
    loan = None
    for i in range(moves):
        seat = (i // 2) % 5
        if loan is None:
            actor, card = seat, hands[seat][i % len(hands[seat])]
            move: dict[str, Any] = {"type": "lend", "to": (seat + 1) % 5, "cards": [card]}
        else:
            actor, move = (seat + 1) % 5, {"type": "repay", "loan": loan[0], "cards": [loan[1]]}
        answer = client.post(
            f"{base}/moves", json={"seat": actor, "version": version, "move": move},
            headers=auth[actor],
        )  # fmt: skip
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        version, event = body["version"], body["events"][0]
        loan = (event["loan"], move["cards"][0]) if event["type"] == "loan_made" else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4, help="games per game and mode")
    parser.add_argument("--polymer-moves", type=int, default=300)
    parser.add_argument("--json", action="store_true", help="one JSON line per row too")
    parser.add_argument(
        "--game", action="append", default=[], help="only this game (repeatable; all if none)"
    )
    args = parser.parse_args()
    os.environ.setdefault("STATE_KEYS", Fernet.generate_key().decode())
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    for name, lifted in LIFTED_LIMITS.items():
        os.environ.setdefault(name, lifted)
    os.environ.setdefault("DUE_WORK", "off")
    from rules.registry import GAMES
    from service import create_app

    clock = Clock()
    instrument(clock)
    app = create_app()
    instrument_rules(app, clock)
    timed = Timed(app, clock)
    trips = RoundTrips(lambda: clock.active)
    client = app.test_client()
    rows = []
    plan: list[tuple[str, str, Callable[[int], None]]] = []
    unknown = sorted(set(args.game) - set(GAMES))
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)} (games: {', '.join(sorted(GAMES))})")
    for slug, game in sorted(GAMES.items()):
        if slug == "polymer" or (args.game and slug not in args.game):
            continue
        players = min(4, game.info.max_players)
        plan.append((slug, "stateless", functools.partial(stateless, client, slug, players)))
        plan.append((slug, "hosted", functools.partial(hosted, client, slug, players)))
    if not args.game or "polymer" in args.game:
        plan.append(("polymer", "hosted", lambda seed: polymer(client, args.polymer_moves, seed)))
    header = ["game", "mode", "moves", "ms/move", *STAGES, "framework", "trips", "Redis CPU us"]
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join(["---"] * 2 + ["---:"] * (len(header) - 2)) + " |")
    for slug, mode, play in plan:
        play(999)  # warm: first-call costs are not a move's
        trips.count = 0
        with timed.fresh():
            cpu = redis_cpu(app)
            for seed in range(args.games):
                play(seed)
            cpu = redis_cpu(app) - cpu
        n = timed.moves
        spent = {stage: clock.spent.get(stage, 0.0) for stage in STAGES}
        framework = timed.total - sum(spent.values())
        row = {"game": slug, "mode": mode, "moves": n, "ms": 1000 * timed.total / n}
        row.update({s: 1000 * v / n for s, v in spent.items()})
        row["framework"] = 1000 * framework / n
        row["trips"], row["redis_cpu_us"] = trips.count / n, 1e6 * cpu / n
        rows.append(row)
        cells = [f"`{slug}`", mode, str(n), f"{row['ms']:.3f}"]
        cells += [f"{row[s]:.3f}" for s in (*STAGES, "framework")]
        cells += [f"{row['trips']:.1f}", f"{row['redis_cpu_us']:.0f}"]
        print("| " + " | ".join(cells) + " |", flush=True)
    if args.json:
        for row in rows:
            print(json.dumps(row))


if __name__ == "__main__":
    main()
