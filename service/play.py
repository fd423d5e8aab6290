"""The path of a request through the rules: token -> seat check -> rules -> view -> token.

Blueprints stay thin; every game endpoint calls these functions.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import marshmallow as ma
from flask import current_app

from rules.core import Event, Game, Move

from .problems import Problem
from .tokens import Envelope, Sealer


@dataclass(frozen=True)
class GameApi:
    """A registered game plus the schemas that describe it over HTTP."""

    game: Game
    options: type[ma.Schema]
    moves: Mapping[str, type[ma.Schema]]
    view: type[ma.Schema]
    scores: type[ma.Schema]
    events: Mapping[str, type[ma.Schema]] = field(default_factory=dict)
    setup_example: Mapping[str, Any] = field(default_factory=dict)
    move_example: Mapping[str, Any] = field(default_factory=dict)
    # real-time games keep a session in Redis and get their own blueprint
    sessions: bool = False

    @property
    def slug(self) -> str:
        return self.game.info.slug


def sealer() -> Sealer:
    return current_app.extensions["chemgames.sealer"]  # type: ignore[no-any-return]


def new_game(api: GameApi, players: int, options: Mapping[str, Any], seed: int | None) -> Envelope:
    game = api.game
    seed = secrets.randbits(63) if seed is None else seed
    state = game.setup(players, options, seed)
    return Envelope(game.info.slug, game.info.rules_version, secrets.token_hex(12), 0, state)


def open_token(api: GameApi, token: str) -> Envelope:
    info = api.game.info
    return sealer().open(token, slug=info.slug, rules_version=info.rules_version)


def check_seat(env: Envelope, seat: int, seat_token: object) -> None:
    players = int(env.state["players"])
    if not 0 <= seat < players:
        raise Problem(
            "seat_out_of_range",
            f"Seat {seat} is not at this table; seats are numbered 0 to {players - 1}.",
            status=422,
            title="Seat out of range",
        )
    sealer().check_seat(env.game_id, seat, seat_token)


def apply_move(api: GameApi, env: Envelope, seat: int, move: Move) -> tuple[Envelope, list[Event]]:
    state, events = api.game.apply(env.state, seat, move)
    return replace(env, state=state, version=env.version + 1), events


def seal(env: Envelope) -> str:
    return sealer().seal(env)


def seats_block(env: Envelope) -> list[dict[str, Any]]:
    s = sealer()
    return [
        {"seat": seat, "seat_token": s.seat_token(env.game_id, seat)}
        for seat in range(int(env.state["players"]))
    ]


def events_for(events: list[Event], seat: int | None) -> list[Event]:
    """Events as ``seat`` may see them: its own private details merged in, the rest dropped."""
    out = []
    for event in events:
        private = event.get("private")
        if private is None:
            out.append(event)
            continue
        public = {k: v for k, v in event.items() if k != "private"}
        if seat is not None:
            public.update(private.get(seat) or private.get(str(seat)) or {})
        out.append(public)
    return out


def turn_block(api: GameApi, env: Envelope) -> dict[str, Any]:
    outcome = api.game.outcome(env.state)
    return {"to_act": api.game.to_act(env.state), "outcome": outcome.to_json()}
