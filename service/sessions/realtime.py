"""A real-time game's due work, run: its bot seats' moves and its deadline.

Each item (``service/sessions/schedule.py``) is run by whichever worker claims it
(``service/sessions/due.py``), on the session as Redis has it now, at Redis's time, and
committed like a move: the compare-and-set on the session's version makes an item
that two workers run apply once, and a move a human made meanwhile wins (the bot
looks again at the new version). A bot seat acts only once it has thought about what
it must answer first (``Clock.answers``): run sooner (an offer came while its turn
ran), it waits until then.
"""

from __future__ import annotations

from dataclasses import replace

from flask import current_app

from rules.core import RuleViolation

from ..games.play import play_bot
from ..games.registry import GameApi
from ..http.problems import Problem
from . import flow, schedule
from .due import DueWork

ATTEMPTS = 3  # versions a bot looks at before it waits for its next turn to think


def _api(slug: str) -> GameApi | None:
    found: GameApi | None = current_app.extensions["chemgames.games"].get(slug)
    return found


def _load(api: GameApi, session_id: str) -> flow.Loaded | None:
    try:
        return flow.load(api, session_id)
    except Problem:  # gone (ended, expired), or no longer readable: nothing to do
        return None


def bot_turn(payload: str) -> int | None:
    """One bot seat acts, at the server's time; when it acts next (None: never)."""
    slug, session_id, seat_text = payload.split("/")
    api, seat = _api(slug), int(seat_text)
    if api is None or api.clock is None:
        return None
    clock = api.clock
    for _ in range(ATTEMPTS):
        loaded = _load(api, session_id)
        if loaded is None or api.game.outcome(loaded.env.state).finished:
            return None
        bot = loaded.env.bots.get(seat)
        if bot is None or flow.expire_if_due(loaded):
            return None
        now = loaded.now_ms
        env = replace(loaded.env, state=clock.prepare(loaded.env.state, now))
        running = clock.deadline(env.state) is not None
        answer = schedule.answer_at(api, env, seat)
        if answer is not None and answer > now:
            return answer  # still thinking about what it must answer first
        try:
            after, _, events = play_bot(api, env, seat, bot, now)
        except RuleViolation:
            # nothing to do now (no card, a repayment awaited, already ready): look again
            # after a think time; before the clock starts, its start will call
            return schedule.next_move(api, env, seat, now) if running else None
        result = flow.commit(loaded, after, events, mover=seat)
        if result.status == "applied":
            if clock.deadline(after.state) is None:
                return None  # ready, before the start: the start schedules the next move
            # its next move, and not before it has thought about what waits for it
            answer = schedule.answer_at(api, after, seat) or 0
            return max(schedule.next_move(api, after, seat, now), answer)
        if result.status == "missing":
            return None
        if result.status == "expired":
            reloaded = _load(api, session_id)
            if reloaded is not None:
                flow.expire_if_due(reloaded)
            return None
        # stale: someone moved first; the bot looks at the new version
    assert loaded is not None
    return schedule.next_move(api, loaded.env, seat, loaded.now_ms)


def deadline(payload: str) -> int | None:
    """The game's deadline transition (time-up), applied once its time has come."""
    slug, session_id = payload.split("/")
    api = _api(slug)
    if api is None or api.clock is None:
        return None
    loaded = _load(api, session_id)
    if loaded is None:
        return None
    if flow.expire_if_due(loaded):
        return None
    due = api.clock.deadline(loaded.env.state)
    # not yet by the session's own node's clock (a cluster's nodes each have one)
    return None if due is None else due


def install(due: DueWork) -> None:
    due.handlers[schedule.BOT] = bot_turn
    due.handlers[schedule.DEADLINE] = deadline
