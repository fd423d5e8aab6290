"""A hosted session's request flow, the same for every game.

credential -> session -> seat -> stored answer? -> clock -> version -> rules -> bots
-> commit. The credential is checked before anything else is looked up, so a stored
answer is only ever returned to the credential that created it; the compare-and-set
in Redis makes two concurrent moves on one version impossible, and an old state can
never come back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
import redis
from flask import current_app, g

from rules.core import Event, Move, Outcome, RuleViolation, State, events_for, with_actor
from rules.records import TIME_UP, Step
from rules.times import iso

from ..games.play import authorize, new_game, play_bots, sealer
from ..games.registry import GameApi
from ..games.tokens import Envelope
from ..http import streams
from ..http.auth import fingerprint
from ..http.context import find_extension
from ..http.errors import REDIS_RETRY_AFTER_SECONDS, redis_down
from ..http.problems import Problem
from . import callbacks, schedule, situations
from .store import Commit, Session, SessionStore, unpack

COMMIT_ATTEMPTS = 16
"""Times a move is tried again on a newer version when other seats' moves committed
first and left the mover's situation as it was (a class drafting at once)."""
ENDED_TTL_SECONDS = 3600  # a finished game stays readable (scores) for an hour


def store() -> SessionStore:
    found: SessionStore | None = find_extension("chemgames.store")
    if found is None:
        raise Problem(
            "redis_unavailable",
            "Hosted sessions need Redis and this service has no REDIS_URL configured; "
            "stateless play keeps working.",
            headers={"Retry-After": str(REDIS_RETRY_AFTER_SECONDS)},
        )
    failed: redis.RedisError | None = g.get("redis_failed")
    if failed is not None:
        # this request's rate-limit draw already waited out Redis's timeout: answer now,
        # not after a second timeout (a hung Redis is refused within about a second)
        raise redis_down(failed)
    return found


@dataclass(frozen=True)
class Loaded:
    api: GameApi
    session: Session
    env: Envelope
    now_ms: int
    # (the stored answer, or None) for the Idempotency-Key ``load`` was asked to peek at,
    # read in the same round trip as the session; None when it did not
    peeked: tuple[bytes | None] | None = None

    @property
    def id(self) -> str:
        return self.session.id


def load(api: GameApi, session_id: str, peek: tuple[int, str, str] | None = None) -> Loaded:
    """The session (``404 session_not_found`` if it has expired or is another game's).

    A move's rate limit is drawn in the same round trip, and refuses first (429). With
    ``peek`` (seat, credential fingerprint, Idempotency-Key) the answer stored for that
    key is read in it too, where the store can (``Loaded.peeked``): only for a
    credential already checked against the session's id, and used only once the seat
    is checked against the game too (``authorize``).
    """
    limiter: Any = find_extension("chemgames.limiter")  # service/school/limits.py
    draws = limiter.pending_calls() if limiter is not None else []
    st = store()
    peeking = peek is not None and st.peeks
    calls = [*draws, st.peek(session_id, *peek)] if peek is not None and peeking else draws
    peeked: tuple[bytes | None] | None = None
    if calls:
        session, now_ms, answers = st.load_after(session_id, calls)
        if peeking:
            *answers, raw = answers
            peeked = (raw or None,)
        if draws:
            limiter.settle_with_load(answers)
    else:
        session, now_ms = st.load(session_id)
    return opened(api, session_id, session, now_ms, peeked)


def opened(
    api: GameApi,
    session_id: str,
    session: Session | None,
    now_ms: int,
    peeked: tuple[bytes | None] | None = None,
) -> Loaded:
    """The session as read (by a load, or by a stale commit), its state opened."""
    if session is None or session.slug != api.slug:
        raise Problem(
            "session_not_found",
            f"There is no {api.game.info.title} session {session_id!r} (it may have "
            f"expired, or been ended by its operator). Start a new one with "
            f"POST /v1/{api.slug}/sessions.",
        )
    info = api.game.info
    try:
        env = sealer().open(session.token, slug=info.slug, rules_version=info.rules_version)
    except Problem as err:
        # the service sealed this token itself: only a key dropped since (or a rules
        # version no longer run) can make it unreadable; the client has no token to resend
        raise Problem(
            "session_unreadable",
            f"Session {session_id!r} was saved under a key or rules version this service no "
            "longer has (keys were rotated, or the service was upgraded), so it cannot be "
            f"continued. Start a new one with POST /v1/{api.slug}/sessions.",
            reason=err.code,
        ) from None
    return Loaded(api, session, env, now_ms, peeked)


@dataclass(frozen=True)
class Standing:
    """Who may act, and how the game stands, in one state: computed once for a move's
    answer, its pub/sub message and its commit (each used to compute them again)."""

    to_act: tuple[int, ...]
    outcome: Outcome


def standing_of(api: GameApi, state: State) -> Standing:
    """The :class:`Standing` of ``state``."""
    return Standing(tuple(api.game.to_act(state)), api.game.outcome(state))


def _deadline(api: GameApi, env: Envelope) -> int | None:
    return api.clock.deadline(env.state) if api.clock else None


# the message's member naming the one seat stream that does not send its frame
QUIET = "quiet"


def quiet_mark(seat: int, stream_id: str) -> str:
    """What a commit's message carries (as ``QUIET``) when its mover named its own seat
    stream, and what that stream looks for: the seat is in it, so a credential of one seat
    can never quieten another seat's stream, whatever ``stream_id`` it sends.

    >>> quiet_mark(1, "k3Jx")
    '1:k3Jx'
    """
    return f"{seat}:{stream_id}"


def _message(
    loaded: Loaded, env: Envelope, events: list[Event], standing: Standing | None = None
) -> dict[str, Any]:
    """What the pub/sub channel carries: public facts only (no hidden card). ``standing``:
    ``env``'s when the caller has it."""
    api = loaded.api
    now = standing if standing is not None else standing_of(api, env.state)
    return {
        "session_id": loaded.id,
        "version": env.version,
        "to_act": list(now.to_act),
        "finished": now.outcome.finished,
        **(api.clock.block(env.state, loaded.now_ms) if api.clock else {}),
        "events": events_for(events, None),
    }


def create(
    api: GameApi,
    body: Mapping[str, Any],
    operator: str = "",
    callback: callbacks.Callback | None = None,
    *,
    game_id: str | None = None,
    lesson: str = "",
) -> tuple[Loaded, list[Event]]:
    """Deal a new game, play the bot seats due to act, and store the session (filed
    under its ``operator``, when one created it, with its ``callback``).

    A seed names a deal only for its operator within this deployment: it is mixed with
    the operator and the deployment's secret in a domain of its own, so the same seed
    from another operator, in stateless setup, or on another deployment, deals other
    cards.
    """
    st = store()
    seed = body.get("seed")
    if seed is not None:
        seed = sealer().hosted_seed(seed, operator)
    env = new_game(api, body["players"], body["options"], seed, body.get("bots"), game_id)
    events = with_actor([{"type": "game_started", "players": env.state["players"]}], None)
    # the bot seats' first moves, at the server's time (a step of the record)
    env, more = play_bots(api, env, st.now_ms() if env.bots and api.clock is None else None)
    events += more
    env = situations.marked(api.game, None, env, None)
    token = sealer().seal(env.without_steps(), compressed=False)  # kept in Redis only
    public = api.clock.stored(env.state) if api.clock else {}
    finished = api.game.outcome(env.state).finished
    told = ""
    if callback is not None:  # kept first: a session never points to a missing one
        told = "moves" if callback.moves else "end"
        config = orjson.dumps(callback.to_json())
        st.set_callback(env.game_id, sealer().seal_bytes(config), _callback_window())
    created = st.create(
        env.game_id,
        slug=api.slug,
        token=token,
        version=env.version,
        players=int(env.state["players"]),
        deadline_ms=_deadline(api, env),
        public=public,
        ttl=_ended_ttl(bool(told)) if finished else None,
        finished=finished,
        operator=operator,
        steps=_steps(env),
        callback=told,
        lesson=lesson,
    )
    schedule.created(api, env, created)
    if told:
        ended = callbacks.messages(api, env.game_id, env, told, finished, was_finished=False)
        if ended:
            st.push_outbox(env.game_id, ended, _callback_window())
        schedule.callback(api.slug, env.game_id, created + (0 if ended else schedule.SWEEP_MS))
    return load(api, env.game_id), events


def _steps(env: Envelope) -> list[list[Any]]:
    """The steps ``env`` added to its game's log (kept beside the token in Redis)."""
    return list(env.log.kept) if env.log is not None else []


def _ended_ttl(callback: bool = False) -> int:
    """How long a finished game stays readable: an hour, or, when its operator's
    callback is told, as long as the delivery may be retried (its link to the record
    must work)."""
    if callback:
        return _callback_window()
    return min(ENDED_TTL_SECONDS, store().ttl)


def retries_window() -> int:
    """How long a pending delivery's retries may still go on (every backoff, and a
    minute more for the due work to run the last)."""
    backoff = current_app.config["SETTINGS"].webhook_backoff_seconds
    return int(sum(backoff) + 60)


def _callback_window() -> int:
    """How long a callback's deliveries may go on: every retry, and an hour more."""
    backoff = current_app.config["SETTINGS"].webhook_backoff_seconds
    return int(store().ttl + sum(backoff) + 3600)


def commit(
    loaded: Loaded,
    env: Envelope,
    events: list[Event],
    *,
    system: bool = False,
    idem: tuple[int, str, str, dict[str, Any]] | None = None,
    mover: int | None = None,
    standing: Standing | None = None,
    shown: Mapping[str, Any] | None = None,
    quiet: str | None = None,
) -> Commit:
    """Compare-and-set ``env`` as the version after ``loaded``'s (``mover``: the seat
    whose move it is, None for the service's own transitions; ``standing``: ``env``'s,
    when the caller has it; ``shown``: the mover's answer; ``quiet``: the ``stream_id``
    of the mover's own seat stream, which its answer makes needless: see
    :func:`quiet_mark`)."""
    api = loaded.api
    view = shown.get("view") if shown is not None else None  # the mover's, of ``env``
    env = situations.marked(api.game, loaded.env, env, mover, view)
    now = standing if standing is not None else standing_of(api, env.state)
    finished = now.outcome.finished
    schedule.committing(api, loaded.env, env, loaded.now_ms)
    told = loaded.session.callback
    outbox = []
    if told:
        was_finished = api.game.outcome(loaded.env.state).finished
        outbox = callbacks.messages(api, loaded.id, env, told, finished, was_finished)
    stored = env.without_steps()
    token = sealer().seal(stored, compressed=False)  # kept in Redis only
    # before the commit: its message may reach this worker's streams before its answer
    st = store()
    # nor open it, nor view it for the mover (only while this worker follows the session)
    streams.sealed_here(token, stored, mover, shown, channel=st.channel(loaded.id))
    message = _message(loaded, env, events, standing=now)
    if quiet is not None and mover is not None:
        message[QUIET] = quiet_mark(mover, quiet)
    result = st.commit(
        loaded.id,
        expected=loaded.session.version,
        version=env.version,
        token=token,
        steps=_steps(env),
        outbox=outbox,
        outbox_ttl=_callback_window() if outbox else 0,
        deadline_ms=_deadline(api, env),
        public=api.clock.stored(env.state) if api.clock else {},
        message=message,
        ttl=_ended_ttl(bool(told)) if finished else None,
        system=system,
        idem=idem,
        finished=finished,
    )
    if outbox and result.status == "applied":
        schedule.callback(api.slug, loaded.id, loaded.now_ms)
    if loaded.session.lesson and result.status == "applied":
        committed(loaded, env, events)
    return result


def committed(loaded: Loaded, env: Envelope, events: list[Event]) -> None:
    """Tell whoever listens for a committed move of a lesson's table (the lesson's
    stream, its results: ``service/lessons/``). Set by the app, so this module does not
    import the lessons that build on it."""
    listener: Callable[[Loaded, Envelope, list[Event]], None] | None = find_extension(
        "chemgames.lesson_listener"
    )
    if listener is not None:
        listener(loaded, env, events)


def expire_if_due(loaded: Loaded) -> bool:
    """Apply the game's deadline transition once it has passed (any instance may; the
    compare-and-set makes it happen once). True when the deadline has passed."""
    api, current = loaded.api, loaded
    clock = api.clock
    if clock is None:
        return False
    for _ in range(5):
        deadline = clock.deadline(current.env.state)
        if deadline is None or current.now_ms < deadline:
            return False
        state, events = clock.expire(current.env.state)
        env = current.env.moved(state, Step(system=TIME_UP, at=current.now_ms))
        result = commit(current, env, with_actor(events, None), system=True)
        if result.status in ("applied", "missing"):
            return True
        current = load(api, current.id)
    return True


def fresh(loaded: Loaded) -> Loaded:
    """``loaded``, or the session reloaded if its deadline transition was just applied."""
    if loaded.api.clock is not None and expire_if_due(loaded):
        reloaded = load(loaded.api, loaded.id)
        if reloaded.session.version != loaded.session.version:
            return reloaded
    return loaded


def _timed_out(loaded: Loaded) -> bool:
    """Whether ``loaded``'s game is over because its clock ran out."""
    clock = loaded.api.clock
    ends = clock.ends_at(loaded.env.state) if clock else None
    return (
        ends is not None
        and loaded.now_ms >= ends
        and loaded.api.game.outcome(loaded.env.state).finished
    )


def timer_expired(loaded: Loaded) -> Problem:
    state = loaded.env.state
    clock = loaded.api.clock
    deadline = clock.ends_at(state) if clock else None
    deadline = deadline if deadline is not None else loaded.session.deadline_ms
    return Problem(
        "timer_expired",
        "Time is up: the timer reached zero and play has stopped. See the final scores at "
        f"GET /v1/{loaded.api.slug}/sessions/{loaded.id}/scores.",
        deadline_at=iso(deadline),
        server_now=iso(loaded.now_ms),
    )


def stale(loaded: Loaded, seat: int | None, sent: int) -> Problem:
    """``409 stale_version`` for a move ``seat`` decided on version ``sent``: with the
    session as that seat sees it now (``session``), so its device decides again without
    another request."""
    current = loaded.session.version
    if sent == current:
        happened = "another move came first"
    elif sent > current:
        happened = "that version does not exist yet"
    else:
        happened = "what you see has changed since then"
    return Problem(
        "stale_version",
        f"You sent version {sent} but the game is at version {current}: {happened}. Look "
        "at the game again (this answer's `session`) and decide again on version "
        f"{current}.",
        current_version=current,
        session={**session_block(loaded, loaded.env, seat), "seat": seat},
    )


def request_print(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()


def session_block(
    loaded: Loaded, env: Envelope, seat: int | None, standing: Standing | None = None
) -> dict[str, Any]:
    """What every session response carries: id, version, turn, the game's extras, view
    (``standing``: ``env``'s when the caller has it)."""
    api = loaded.api
    now = standing if standing is not None else standing_of(api, env.state)
    return {
        "session_id": loaded.id,
        "version": env.version,
        "to_act": list(now.to_act),
        "outcome": now.outcome.to_json(),
        **(api.clock.block(env.state, loaded.now_ms) if api.clock else {}),
        "view": api.game.view(env.state, seat),
    }


def legal_moves(api: GameApi, env: Envelope, seat: int) -> dict[str, Any]:
    """``POST .../legal-moves``'s answer at ``env``'s version: what a move's answer and a
    seat stream's frame carry as ``legal_moves``."""
    return {"version": env.version, **api.legal(env.state, seat)}


def _replay(cached: dict[str, Any], print_: str) -> dict[str, Any]:
    if cached.get("fingerprint") != print_:
        raise Problem(
            "idempotency_key_reused",
            "You already used this Idempotency-Key for a different move; use a fresh key for "
            "each new move (and the same key only to retry the same move).",
        )
    return cached["body"]  # type: ignore[no-any-return]


def play(
    api: GameApi,
    session_id: str,
    seat: int,
    version: int,
    request: Any,
    compute: Callable[[Loaded], tuple[Envelope, Move, list[Event]]],
    *,
    credential: str,
    idempotency_key: str | None,
    quiet: str | None = None,
    legal: bool = False,
) -> tuple[dict[str, Any], bool]:
    """Apply one move (``compute`` makes it on the loaded session: the new envelope, the
    move as shown and its events); returns (body, replayed?). ``request`` is what an
    Idempotency-Key's replay must match.

    A move sent on an older ``version`` is judged on the current state when the seat's
    situation has not changed since (``situations``); else it is stale. When another
    seat's move commits first, the move is judged again on the newer version, on the
    same condition. ``quiet``: the ``stream_id`` of the mover's own seat stream, which
    does not send this move's frame (the answer carries the same view). ``legal``: the
    answer also carries the seat's legal moves after the move (``legal_moves``; never a
    replay's, nor the stored answer's)."""
    st = store()
    who = fingerprint(credential)
    # the key's answer is read with the session only for a credential of this seat (a
    # session's id is its game's), so a wrong one looks nothing up
    peek = None
    if idempotency_key and sealer().holds_seat(session_id, seat, credential):
        peek = (seat, who, idempotency_key)
    loaded = load(api, session_id, peek)
    authorize(loaded.env, seat, credential)  # always first: nothing is used before
    print_ = request_print(request)
    # the key's answer as the load read it: good for the first look before this request
    # commits anything (later looks read Redis again: a twin may have been applied since)
    peeked = loaded.peeked

    def stored() -> dict[str, Any] | None:
        nonlocal peeked
        if not idempotency_key:
            return None
        if peeked is not None:
            (raw,), peeked = peeked, None
            cached = None if raw is None else unpack(raw)
        else:
            cached = st.idempotent(session_id, seat, who, idempotency_key)
        return None if cached is None else _replay(cached, print_)

    # A retry of an applied move names an older version, so its stored answer is looked
    # up only then (or past the deadline); a key already answered at this version is
    # found by the commit, which refuses it ("keyed"): either way the stored answer, or
    # 422 for a key reused with another move, and the move is never applied twice.
    if version != loaded.session.version:
        replay = stored()
        if replay is not None:
            return replay, True
    if expire_if_due(loaded):
        peeked = None  # the deadline's transition was committed since the load
        replay = stored() if version == loaded.session.version else None
        if replay is not None:
            return replay, True
        raise timer_expired(load(api, session_id))
    for _ in range(COMMIT_ATTEMPTS):
        current = version == loaded.session.version
        if not current and not situations.unchanged_since(loaded.env, seat, version):
            replay = stored()  # a concurrent twin of this request may have been applied
            if replay is not None:
                return replay, True
            if _timed_out(loaded):  # what changed is that time ran out
                raise timer_expired(loaded)
            raise stale(loaded, seat, version)
        try:
            env, move, events = compute(loaded)
        except (RuleViolation, Problem):
            replay = stored()  # an answered key comes first: its answer, or 422 reused
            if replay is not None:
                return replay, True
            raise
        env, more = play_bots(api, env, loaded.now_ms)
        events = events + more
        now = standing_of(api, env.state)  # for the answer, the message and the commit
        body = {
            **session_block(loaded, env, seat, standing=now),
            "seat": seat,
            "move": move,
            "events": events_for(events, seat),
        }
        idem = (
            (seat, who, idempotency_key, {"fingerprint": print_, "body": body})
            if idempotency_key
            else None
        )
        peeked = None
        result = commit(
            loaded, env, events, idem=idem, mover=seat, standing=now, shown=body, quiet=quiet
        )
        g.commits = g.get("commits", 0) + 1  # the request's log line: races lost show
        if result.status == "applied":
            if legal:
                return {**body, "legal_moves": legal_moves(api, env, seat)}, False
            return body, False
        if result.status == "missing":
            raise Problem("session_not_found", f"Session {session_id!r} has expired.")
        if result.seen is not None and not st.wait_replicas:
            # read by the refused commit, at its instant (a replay that must wait for
            # replicas reads it again, and waits: SessionStore.idempotent)
            peeked = (result.answer,)
        replay = stored()
        if replay is not None:
            return replay, True
        if result.status == "expired":
            expire_if_due(load(api, session_id))
            raise timer_expired(load(api, session_id))
        # another move committed first: look again, from the newer version (as the
        # refused commit read it, in its own round trip)
        seen = result.seen
        loaded = load(api, session_id) if seen is None else opened(api, session_id, *seen)
    raise stale(loaded, seat, version)


def host_change(
    api: GameApi,
    session_id: str,
    credential: str,
    compute: Callable[[Loaded], tuple[Envelope, list[Event]]],
) -> dict[str, Any]:
    """A host's own command (starting a clock): applied on the current version."""
    loaded = load(api, session_id)
    sealer().check_host(loaded.env.game_id, credential)
    if expire_if_due(loaded):
        raise timer_expired(load(api, session_id))
    env, events = compute(loaded)
    now = standing_of(api, env.state)
    result = commit(loaded, env, events, standing=now)
    if result.status == "missing":
        raise Problem("session_not_found", f"Session {session_id!r} has expired.")
    if result.status != "applied":
        raise stale(load(api, session_id), None, loaded.session.version)
    return {
        **session_block(loaded, env, None, standing=now),
        "seat": None,
        "events": events_for(events, None),
    }
