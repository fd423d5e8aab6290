"""Response examples for the OpenAPI document, computed by the rules themselves.

A fixed deal and seed make them deterministic; tokens and ids are placeholders (a real
token is opaque and different on every call). The same game is played for the
stateless and the hosted-session examples; a game with a clock is shown at a fixed
server time.
"""

from __future__ import annotations

from typing import Any

from rules import records
from rules.core import Event, GameRules, State, events_for, with_actor
from rules.records import Log, Step

from .registry import GameApi

TOKEN = "gAAAAABpExampleOpaqueSealedStateToken..."
GAME_ID = "3f9c2a7b1e0d4c5a6b7e8f90"
HOST = "ExampleHostTokenxxxxxxxx"
T0 = 1_795_400_000_000  # the example server clock (ms since the epoch)


def seat_token(seat: int) -> str:
    return f"ExampleSeatToken{seat}xxxxxxxx"[:24]


def _turn(game: GameRules, state: State) -> dict[str, Any]:
    return {"to_act": game.to_act(state), "outcome": game.outcome(state).to_json()}


_PLAYED: dict[str, dict[str, Any]] = {}


def _played(api: GameApi) -> dict[str, Any]:
    """Setup, the first move of the first seat to act, and a game played to its end."""
    if api.slug not in _PLAYED:
        _PLAYED[api.slug] = _play(api)
    return _PLAYED[api.slug]


def _play(api: GameApi) -> dict[str, Any]:
    game = api.game
    request = api.example
    state = game.setup(request["players"], request.get("options") or {}, request.get("seed", 1))
    if api.clock:  # a game with a clock: started at the example time
        state = api.clock.started(state, T0)
    seat = game.to_act(state)[0]
    move = game.legal_moves(state, seat)[0]
    after, events = game.apply(state, seat, move)
    end, version = after, 1
    if api.clock:  # a game that ends by its clock: time up right after this move
        end, _ = api.clock.expire(end)
        version += 1
    while game.to_act(end):
        who = game.to_act(end)[0]
        end, _ = game.apply(end, who, game.legal_moves(end, who)[0])
        version += 1
    shown = {k: v for k, v in move.items() if k != "at"}
    log = Log(int(state["players"]), dict(request.get("options") or {}), request.get("seed", 1), {})
    start = next((e.name for e in game.extras if e.change is not None and e.by == "host"), None)
    if api.clock and start:  # as the host's start and a move a second later
        log = log.add(Step(system=start, at=T0))
    log = log.add(Step(seat=seat, move=shown, at=T0 + 1_000 if api.clock else None))
    return {
        "log": log,
        "state": state,
        "seat": seat,
        "move": shown,
        "after": after,
        "events": with_actor(events, seat),
        "end": end,
        "version": version,
    }


def _seats(players: int) -> list[dict[str, Any]]:
    return [{"seat": s, "seat_token": seat_token(s), "bot": None} for s in range(players)]


def _started(players: int) -> list[Event]:
    return with_actor([{"type": "game_started", "players": players}], None)


def _records(api: GameApi, mode: str) -> dict[str, dict[str, Any]]:
    """A record of the game a move in (public), and the replay of its whole record."""
    game, log = api.game, _played(api)["log"]
    whole = records.document(game, log, complete=True, game_id=GAME_ID, mode=mode)
    return {
        "record": records.document(game, log, complete=False, game_id=GAME_ID, mode=mode),
        "replay": records.check(game, whole),
    }


def stateless(api: GameApi) -> dict[str, dict[str, Any]]:
    """Examples for a stateless game, played from ``api.setup_example``."""
    game = api.game
    p = _played(api)
    state, seat = p["state"], p["seat"]
    players = int(state["players"])
    return {
        "setup": {
            "game_id": GAME_ID,
            "token": TOKEN,
            "version": 0,
            **_turn(game, state),
            "seats": _seats(players),
            "host_token": HOST,
            "bots": {},
            "view": game.view(state, None),
            "events": _started(players),
        },
        "move": {
            "token": TOKEN,
            "version": 1,
            **_turn(game, p["after"]),
            "seat": seat,
            "move": p["move"],
            "events": events_for(p["events"], seat),
            "view": game.view(p["after"], seat),
        },
        "legal": {
            "seat": seat,
            "version": 0,
            "moves": game.legal_moves(state, seat)[:8],
            "move_space": api.move_space(state, seat),
        },
        "view": {"version": 1, **_turn(game, p["after"]), "view": game.view(p["after"], None)},
        "scores": {
            "version": p["version"],
            "scores": game.scores(p["end"]),
            "outcome": game.outcome(p["end"]).to_json(),
        },
        "record": {"version": 1, "record": _records(api, "stateless")["record"]},
    }


def sessions(api: GameApi) -> dict[str, dict[str, Any]]:
    """Examples for a game's hosted-session endpoints."""
    game = api.game
    p = _played(api)
    state, seat = p["state"], p["seat"]
    players = int(state["players"])
    sid = {"session_id": GAME_ID}

    def extra(st: State, now: int) -> dict[str, Any]:
        return api.clock.block(st, now) if api.clock else {}

    return {
        "created": {
            **sid,
            "version": 0,
            **_turn(game, state),
            **extra(state, T0),
            "view": game.view(state, None),
            "game_id": GAME_ID,
            "seats": _seats(players),
            "host_token": HOST,
            "bots": {},
            "events": _started(players),
            "callback": None,
        },
        "session": {
            **sid,
            "version": 1,
            **_turn(game, p["after"]),
            **extra(p["after"], T0 + 4_000),
            "seat": seat,
            "view": game.view(p["after"], seat),
        },
        "move": {
            **sid,
            "version": 1,
            **_turn(game, p["after"]),
            **extra(p["after"], T0 + 3_000),
            "seat": seat,
            "move": p["move"],
            "events": events_for(p["events"], seat),
            "view": game.view(p["after"], seat),
        },
        "legal": {
            "seat": seat,
            "version": 0,
            "moves": game.legal_moves(state, seat)[:8],
            "move_space": api.move_space(state, seat),
        },
        "scores": {
            **sid,
            "version": p["version"],
            "scores": game.scores(p["end"]),
            "outcome": game.outcome(p["end"]).to_json(),
        },
        "record": {**sid, "version": 1, "record": _records(api, "hosted")["record"]},
    }


def replay(api: GameApi) -> dict[str, Any]:
    """The replay of a record (what ``POST /v1/<slug>/replay`` answers)."""
    return _records(api, "hosted" if api.clock else "stateless")["replay"]


def for_mode(api: GameApi, hosted: bool) -> dict[str, dict[str, Any]]:
    """The examples of one play mode, by operation (``setup`` deals the game)."""
    if hosted:
        out = sessions(api)
        return {**out, "setup": out["created"], "view": out["session"]}
    return stateless(api)
