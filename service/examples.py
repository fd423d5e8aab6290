"""Response examples for the OpenAPI document, computed by the rules themselves.

A fixed deal and seed make them deterministic; tokens are placeholders (a real
token is opaque and different on every call).
"""

from __future__ import annotations

from typing import Any

from rules.core import Game

from .play import GameApi, events_for

TOKEN = "gAAAAABpExampleOpaqueSealedStateToken..."


def seat_token(seat: int) -> str:
    return f"ExampleSeatToken{seat}xxxxxxxx"[:24]


def _turn(game: Game, state: dict[str, Any]) -> dict[str, Any]:
    return {"to_act": game.to_act(state), "outcome": game.outcome(state).to_json()}


def stateless(api: GameApi) -> dict[str, dict[str, Any]]:
    """Examples for a stateless game, played from ``api.setup_example``."""
    game = api.game
    request = dict(api.setup_example)
    state = game.setup(request["players"], request.get("options") or {}, request.get("seed", 1))
    players = int(state["players"])
    setup = {
        "game_id": "3f9c2a7b1e0d4c5a6b7e8f90",
        "token": TOKEN,
        "version": 0,
        **_turn(game, state),
        "seats": [{"seat": s, "seat_token": seat_token(s)} for s in range(players)],
        "host_token": "ExampleHostTokenxxxxxxxx",
        "view": game.view(state, None),
        "events": [{"type": "game_started", "players": players}],
    }
    move = game.legal_moves(state, 0)[0]
    after, events = game.apply(state, 0, move)
    moved = {
        "token": TOKEN,
        "version": 1,
        **_turn(game, after),
        "seat": 0,
        "move": move,
        "events": events_for(events, 0),
        "view": game.view(after, 0),
    }
    legal = {"seat": 0, "version": 0, "moves": game.legal_moves(state, 0)}
    view = {"version": 1, **_turn(game, after), "view": game.view(after, 1)}
    end, version = after, 1
    while game.to_act(end):
        seat = game.to_act(end)[0]
        end, _ = game.apply(end, seat, game.legal_moves(end, seat)[0])
        version += 1
    scores = {
        "version": version,
        "scores": game.scores(end),
        "outcome": game.outcome(end).to_json(),
    }
    return {"setup": setup, "move": moved, "legal": legal, "view": view, "scores": scores}


def polymer_examples() -> dict[str, dict[str, Any]]:
    """Examples for Polymer's session endpoints, on a fixed deal and a fixed clock."""
    from rules.polymer import GAME
    from rules.polymer.game import declared, start_timer
    from rules.polymer.patterns import best_arrangement

    from .polymer.schemas import MOVE_SPACE
    from .polymer.session import iso, public_loans

    t0 = 1_795_400_000_000
    state = GAME.setup(5, {"timer_seconds": 600}, 1)

    def block(st: dict[str, Any], version: int, now: int, seat: int | None) -> dict[str, Any]:
        return {
            "session_id": "5d1e8a0c9b7f4e3a2c1d0e9f",
            "version": version,
            "token": TOKEN,
            "phase": st["phase"],
            "deadline_ms": st["deadline_ms"],
            "deadline_at": iso(st["deadline_ms"]),
            "server_now_ms": now,
            "server_now": iso(now),
            "loans": public_loans(st),
            "to_act": GAME.to_act(st),
            "outcome": GAME.outcome(st).to_json(),
            "view": GAME.view(st, seat),
        }

    setup = {
        **block(state, 0, t0, None),
        "seats": [{"seat": s, "seat_token": seat_token(s)} for s in range(5)],
        "host_token": "ExampleHostTokenxxxxxxxx",
        "events": [{"type": "game_started", "players": 5}],
    }
    started, start_events = start_timer(state, t0 + 5_000)
    start = {**block(started, 1, t0 + 5_000, None), "events": start_events}
    session = block(started, 1, t0 + 9_000, 0)
    card = started["hands"][0][0]
    lend = {"type": "lend", "to": 1, "cards": [card]}
    lent, events = GAME.apply(started, 0, {**lend, "at": t0 + 12_000})
    move = {
        **block(lent, 2, t0 + 12_000, 0),
        "seat": 0,
        "move": lend,
        "events": events_for(events, 0),
    }
    legal = {
        "seat": 1,
        "version": 2,
        "moves": GAME.legal_moves(lent, 1)[:6],
        "move_space": MOVE_SPACE,
    }
    ended, _ = GAME.apply(lent, 2, {"type": "time_up", "at": int(lent["deadline_ms"])})
    scores = {
        "session_id": "5d1e8a0c9b7f4e3a2c1d0e9f",
        "version": 3,
        "scores": GAME.scores(ended),
        "outcome": GAME.outcome(ended).to_json(),
    }
    shown = best_arrangement(started["hands"][2]).longest
    arrangement = declared(started, 2, [list(shown)] if shown else [])
    return {
        "setup": setup,
        "start": start,
        "session": session,
        "move": move,
        "legal": legal,
        "scores": scores,
        "arrangement": arrangement,
    }
