"""The path of a request through the rules: token -> credential -> rules -> bots -> view.

Blueprints stay thin; every game endpoint, stateless or hosted, calls these functions.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from rules.core import Event, Move, with_actor
from rules.records import Log, Step

from ..http.context import extension
from ..http.problems import Problem
from .registry import GameApi
from .tokens import SEED_MAX, Envelope, Sealer


def sealer() -> Sealer:
    sealer: Sealer = extension("chemgames.sealer")
    return sealer


def check_bots(api: GameApi, players: int, bots: Mapping[str, str] | None) -> dict[int, str]:
    """The seats the service plays, from the setup request's ``bots`` object."""
    if not bots:
        return {}
    if not api.bots_allowed:
        raise Problem(
            "bad_bots",
            f"{api.game.info.title} is played in real time: the service does not play seats "
            "of it. Use bot-move to let a bot make one move for a seat.",
        )
    chosen: dict[int, str] = {}
    for key, bot in bots.items():
        seat = int(key) if key.isdigit() else -1
        if not 0 <= seat < players:
            raise Problem(
                "bad_bots",
                f"bots names seat {key!r}, which is not at this table; seats are numbered "
                f"0 to {players - 1}.",
                errors={"bots": {key: ["Not a seat at this table."]}},
            )
        if bot not in api.game.info.bots:
            raise Problem(
                "bad_bots",
                f"There is no bot {bot!r} in {api.game.info.title}; choose one of "
                f"{', '.join(api.game.info.bots)}.",
                errors={"bots": {key: ["Unknown bot."]}},
            )
        chosen[seat] = bot
    return chosen


def new_game(
    api: GameApi,
    players: int,
    options: Mapping[str, Any],
    seed: int | None,
    bots: Mapping[str, str] | None = None,
    game_id: str | None = None,
) -> Envelope:
    """A new game (``game_id``: its id when chosen beforehand, as a lesson's table's is:
    its seats' credentials were handed out before it was dealt)."""
    game = api.game
    seed = secrets.randbelow(SEED_MAX + 1) if seed is None else seed
    state = game.setup(players, options, seed)
    chosen = check_bots(api, int(state["players"]), bots)
    info = game.info
    log = Log(int(state["players"]), dict(options), seed, chosen)
    game_id = game_id or secrets.token_hex(12)
    return Envelope(info.slug, info.rules_version, game_id, 0, state, chosen, log)


def open_token(api: GameApi, token: str) -> Envelope:
    info = api.game.info
    return sealer().open(token, slug=info.slug, rules_version=info.rules_version)


def check_seat_number(players: int, seat: int) -> None:
    if not 0 <= seat < players:
        raise Problem(
            "seat_out_of_range",
            f"Seat {seat} is not at this table; seats are numbered 0 to {players - 1}.",
            status=422,
            title="Seat out of range",
        )


def authorize(env: Envelope, seat: int, credential: str) -> None:
    """The credential must be ``seat``'s own token or the host's (else 403)."""
    check_seat_number(int(env.state["players"]), seat)
    sealer().check_seat(env.game_id, seat, credential)


def apply_move(
    api: GameApi,
    env: Envelope,
    seat: int,
    move: Move,
    *,
    shown: Move | None = None,
    bot: str | None = None,
    at: int | None = None,
) -> tuple[Envelope, list[Event]]:
    """Apply one move and write it in the game's log (``shown``: the move as it was
    sent, before the service stamped its time on it; ``bot``: the bot that chose it;
    ``at``: the server's time in a hosted game). Every event produced is tagged with
    the seat that acted."""
    state, events = api.game.apply(env.state, seat, move)
    step = Step(seat=seat, move=dict(shown if shown is not None else move), bot=bot, at=at)
    env = env.moved(state, step)
    return env, with_actor(events, seat)


def play_bot(
    api: GameApi, env: Envelope, seat: int, bot: str, now_ms: int | None = None
) -> tuple[Envelope, Move, list[Event]]:
    """Let ``bot`` choose and make one move for ``seat``; in a game with a clock, the
    move is made at the server's time ``now_ms``, whatever the bot thought about it
    (a bot's thinking never moves the game's clock)."""
    move, state = api.game.bot_move(env.state, seat, bot)
    shown = {k: v for k, v in move.items() if k != "at"} if api.clock is not None else move
    if api.clock is not None and now_ms is not None:
        move = api.clock.stamp(shown, now_ms)
    env, events = apply_move(
        api, env.with_state(state), seat, move, shown=shown, bot=bot, at=now_ms
    )
    return env, shown, events


def play_bots(api: GameApi, env: Envelope, at: int | None = None) -> tuple[Envelope, list[Event]]:
    """Play the service's bot seats until a human must act or the game is over.

    Bounded by the game's own end: every game provably ends, and each pass makes one
    move for a bot seat that is to act.
    """
    if not env.bots or api.clock is not None:
        # a real-time game's bot seats act on the server's clock, as work that falls
        # due (service/sessions/realtime.py), never inside another seat's request
        return env, []
    events: list[Event] = []
    while True:
        waiting = [s for s in api.game.to_act(env.state) if s in env.bots]
        if not waiting:
            return env, events
        seat = waiting[0]
        env, _, more = play_bot(api, env, seat, env.bots[seat], at)
        events.extend(more)


def seal(env: Envelope) -> str:
    return sealer().seal(env)


def seats_block(env: Envelope, *, with_bots: bool = True) -> list[dict[str, Any]]:
    """One credential per seat (``with_bots`` false: none for the service's bot seats)."""
    s = sealer()
    return [
        {
            "seat": seat,
            "seat_token": s.seat_token(env.game_id, seat)
            if with_bots or seat not in env.bots
            else None,
            "bot": env.bots.get(seat),
        }
        for seat in range(int(env.state["players"]))
    ]


def turn_block(api: GameApi, env: Envelope) -> dict[str, Any]:
    outcome = api.game.outcome(env.state)
    return {"to_act": api.game.to_act(env.state), "outcome": outcome.to_json()}


def bots_block(env: Envelope) -> dict[str, str]:
    return {str(seat): bot for seat, bot in sorted(env.bots.items())}
