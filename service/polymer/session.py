"""Polymer's request flow: session -> version -> clock -> token -> seat -> rules -> commit.

The rules stay pure; this module supplies the time (the Redis server's clock,
injected as the move's ``at``), the compare-and-set and the time-up transition.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
import redis
from flask import current_app

from rules.core import Event
from rules.polymer import GAME
from rules.polymer.game import start_timer

from ..play import events_for, sealer
from ..problems import Problem
from ..tokens import Envelope
from .store import Commit, Session, SessionStore

SLUG = GAME.info.slug
RETRY_AFTER_SECONDS = 2


def store() -> SessionStore:
    found: SessionStore | None = current_app.extensions.get("chemgames.store")
    if found is None:
        raise Problem(
            "redis_unavailable",
            "Polymer needs Redis and this service has no REDIS_URL configured.",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    return found


def redis_down(err: redis.RedisError) -> Problem:
    return Problem(
        "redis_unavailable",
        "Polymer's session store (Redis) cannot be reached right now; retry in "
        f"{RETRY_AFTER_SECONDS} seconds. Other games are not affected.",
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Loaded:
    session: Session
    env: Envelope
    now_ms: int


def load(session_id: str) -> Loaded:
    st = store()
    session, now_ms = st.load(session_id)
    if session is None:
        raise Problem(
            "session_not_found",
            f"There is no Polymer session {session_id!r} (it may have expired). "
            "Start a new game with POST /v1/polymer/setup.",
        )
    env = sealer().open(session.token, slug=SLUG, rules_version=GAME.info.rules_version)
    return Loaded(session, env, now_ms)


def public_loans(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "id": ln["id"],
            "lender": ln["lender"],
            "debtor": ln["debtor"],
            "outstanding": ln["outstanding"],
            "called": ln["called"],
        }
        for ln in state["loans"]
    ]


def _message(
    session_id: str, version: int, state: Mapping[str, Any], events: list[Event], now_ms: int
) -> dict[str, Any]:
    """What the pub/sub channel carries: public facts only (no cards)."""
    return {
        "session_id": session_id,
        "version": version,
        "phase": state["phase"],
        "deadline_ms": state["deadline_ms"],
        "server_now_ms": now_ms,
        "events": events_for(events, None),
    }


def commit(
    loaded: Loaded,
    state: dict[str, Any],
    events: list[Event],
    *,
    system: bool = False,
    idem: tuple[int, str, dict[str, Any]] | None = None,
    token: str | None = None,
) -> tuple[Commit, Envelope]:
    """Compare-and-set the next version of ``loaded`` (sealing ``state`` unless the
    caller already sealed it as ``token``)."""
    env = Envelope(SLUG, GAME.info.rules_version, loaded.env.game_id, loaded.env.version + 1, state)
    result = store().commit(
        loaded.session.id,
        expected=loaded.session.version,
        token=token or sealer().seal(env),
        phase=state["phase"],
        deadline_ms=state["deadline_ms"],
        loans=public_loans(state),
        message=_message(loaded.session.id, env.version, state, events, loaded.now_ms),
        system=system,
        idem=idem,
    )
    return result, env


def expire_if_due(loaded: Loaded) -> bool:
    """Apply the time-up transition once the deadline has passed. Any instance may;
    the compare-and-set makes it happen once. True when time is up."""
    current = loaded
    for _ in range(5):
        state = current.env.state
        deadline = state["deadline_ms"]
        if state["phase"] == "ended":
            return True
        if deadline is None or current.now_ms < deadline:
            return False
        new, events = GAME.apply(state, 0, {"type": "time_up", "at": int(deadline)})
        result, _ = commit(current, new, events, system=True)
        if result.status in ("applied", "missing"):
            return True
        current = load(current.session.id)
    return True


def authorize(loaded: Loaded, seat: int, seat_token: object) -> None:
    if not 0 <= seat < loaded.session.players:
        raise Problem(
            "seat_out_of_range",
            f"Seat {seat} is not at this table; seats are 0 to {loaded.session.players - 1}.",
            status=422,
            title="Seat out of range",
        )
    sealer().check_seat(loaded.env.game_id, seat, seat_token)


def timer_expired(loaded: Loaded) -> Problem:
    return Problem(
        "timer_expired",
        "Time is up: the timer reached zero and trading has stopped. "
        f"See the final scores at GET /v1/polymer/sessions/{loaded.session.id}/scores.",
        deadline_at=iso(loaded.env.state["deadline_ms"]),
        server_now=iso(loaded.now_ms),
    )


def stale(session_id: str, sent: int, current: int) -> Problem:
    return Problem(
        "stale_version",
        f"You sent version {sent} but the game is at version {current}: another move came "
        f"first. Resync with GET /v1/polymer/sessions/{session_id} and decide again.",
        current_version=current,
    )


def fingerprint(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()


def session_block(
    loaded: Loaded, env: Envelope, seat: int | None, token: str | None = None
) -> dict[str, Any]:
    """What every Polymer response carries: version, token, clock, loans, view."""
    state = env.state
    return {
        "session_id": loaded.session.id,
        "version": env.version,
        "token": token or (loaded.session.token if env is loaded.env else sealer().seal(env)),
        "phase": state["phase"],
        "deadline_ms": state["deadline_ms"],
        "deadline_at": iso(state["deadline_ms"]),
        "server_now_ms": loaded.now_ms,
        "server_now": iso(loaded.now_ms),
        "loans": public_loans(state),
        "to_act": GAME.to_act(state),
        "outcome": GAME.outcome(state).to_json(),
        "view": GAME.view(state, seat),
    }


def play(
    session_id: str,
    seat: int,
    version: int,
    move: dict[str, Any],
    *,
    seat_token: str,
    idempotency_key: str | None,
    bot: str | None = None,
) -> tuple[dict[str, Any], bool]:
    """Apply one move; returns (response body, replayed?)."""
    st = store()
    print_ = fingerprint({"seat": seat, "version": version, "move": move, "bot": bot})
    if idempotency_key:
        cached = st.idempotent(session_id, seat, idempotency_key)
        if cached is not None:
            return _replay(cached, print_), True
    loaded = load(session_id)
    authorize(loaded, seat, seat_token)
    if expire_if_due(loaded):
        raise timer_expired(load(session_id))
    if version != loaded.session.version:
        raise stale(session_id, version, loaded.session.version)
    state = {**loaded.env.state, "now_ms": max(loaded.env.state["now_ms"], loaded.now_ms)}
    if bot is not None:
        chosen, state = GAME.bot_move(state, seat, bot)
        move = {k: v for k, v in chosen.items() if k != "at"}
    parsed = GAME.parse_move({**move, "at": loaded.now_ms})
    new, events = GAME.apply(state, seat, parsed)
    env = Envelope(SLUG, GAME.info.rules_version, loaded.env.game_id, version + 1, new)
    token = sealer().seal(env)
    body = {
        **session_block(loaded, env, seat, token),
        "seat": seat,
        "move": move,
        "events": events_for(events, seat),
    }
    idem = (
        (seat, idempotency_key, {"fingerprint": print_, "body": body}) if idempotency_key else None
    )
    result, _ = commit(loaded, new, events, idem=idem, token=token)
    if result.status == "applied":
        return body, False
    if result.status == "expired":
        expire_if_due(load(session_id))
        raise timer_expired(load(session_id))
    if result.status == "missing":
        raise Problem("session_not_found", f"Polymer session {session_id!r} has expired.")
    if idempotency_key:  # a concurrent twin of this request may have won
        cached = st.idempotent(session_id, seat, idempotency_key)
        if cached is not None:
            return _replay(cached, print_), True
    raise stale(session_id, version, result.version)


def _replay(cached: dict[str, Any], print_: str) -> dict[str, Any]:
    if cached.get("fingerprint") != print_:
        raise Problem(
            "idempotency_key_reused",
            "This Idempotency-Key was already used for a different move; use a fresh key "
            "for each new move.",
        )
    return cached["body"]  # type: ignore[no-any-return]


def start(session_id: str, host_token: str) -> dict[str, Any]:
    loaded = load(session_id)
    sealer().check_host(loaded.env.game_id, host_token)
    state = {**loaded.env.state}
    new, events = start_timer(state, loaded.now_ms)
    if expire_if_due(loaded):
        raise timer_expired(load(session_id))
    result, env = commit(loaded, new, events)
    if result.status != "applied":
        raise stale(session_id, loaded.session.version, result.version)
    return {**session_block(loaded, env, None), "events": events_for(events, None)}
