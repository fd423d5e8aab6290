"""A lesson's life, the same for every game: created, joined, started, watched, ended.

The functions here are what the HTTP endpoints (``blueprint.py``) and any other way
into a lesson (an LMS launch) call; none of them knows a game. A table is an ordinary
hosted session (``service/sessions/``): dealt with the lesson's game, options and
operator when it is full, or when the teacher starts the lesson (then its empty seats
are the lesson's bot), so it is listed, ended, budgeted and counted in the operator's
quota like any other. Its session id is chosen when the table is opened, so a student
gets their seat's credential and page at once, before the table is dealt.

Seating is one Lua script per join (``store.py``), atomic: 30 students joining in the
same second each get exactly one seat, and the one whose join fills a table deals it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
import redis
from flask import current_app

from rules.core import Event, RuleViolation, events_for

from ..games.pages import join_link, table_link
from ..games.play import sealer
from ..games.registry import GameApi
from ..games.tokens import Envelope
from ..http.problems import Problem, from_violation
from ..sessions import callbacks, flow, schedule
from . import codes
from .store import SESSION_PREFIX, Joined, LessonStore, Placed

COMPLETED = "lesson.completed"
END_KIND = "lesson-end"
"""Due work: a lesson's time limit has come (``lesson-end:<lesson>``)."""


def store() -> LessonStore:
    sessions = flow.store()
    found: LessonStore | None = current_app.extensions.get("chemgames.lessons")
    if found is None or found.sessions is not sessions:
        found = current_app.extensions["chemgames.lessons"] = LessonStore(sessions)
    return found


def settings() -> Any:
    return current_app.config["SETTINGS"]


def ttl() -> int:
    """How long a lesson's seating is kept without a change: its tables' sessions' TTL."""
    return int(flow.store().ttl)


def results_ttl() -> int:
    """How long its results are kept after a write: past its sessions, the retention."""
    return ttl() + int(settings().lesson_retention_seconds)


def games() -> Mapping[str, GameApi]:
    found: Mapping[str, GameApi] = current_app.extensions["chemgames.games"]
    return found


def not_found(lesson_id: str) -> Problem:
    return Problem(
        "lesson_not_found",
        f"You have no lesson {lesson_id!r} (it may have expired: its results are kept "
        "for the deployment's retention after its tables end, then forgotten).",
    )


# ------------------------------------------------------------------ creating --------
def check_config(body: Mapping[str, Any]) -> tuple[GameApi, dict[str, Any]]:
    """The lesson's game and its configuration, checked (every game the same way)."""
    api = games().get(body["game"])
    if api is None:
        raise Problem(
            "unknown_game",
            f"No game is called {body['game']!r}; the games are listed at /v1/games.",
            status=422,
        )
    info = api.info
    size = int(body["table_size"])
    if not info.min_players <= size <= info.max_players:
        raise Problem(
            "bad_table_size",
            f"{info.title} is played by {info.min_players} to {info.max_players} players: "
            f"choose a table_size in that range.",
            errors={"table_size": [f"{info.min_players} to {info.max_players}."]},
        )
    bot = body.get("bot") or ("greedy" if "greedy" in info.bots else info.bots[0])
    if not api.bots_allowed or bot not in info.bots:
        raise Problem(
            "bad_bots",
            f"There is no bot {bot!r} to fill {info.title}'s empty seats; choose one of "
            f"{', '.join(info.bots)}.",
            errors={"bot": ["Unknown bot."]},
        )
    # the options are the game's own, checked by dealing one table now
    try:
        api.game.setup(size, dict(body["options"]), 1)
    except Exception as err:
        raise _as_problem(err) from None
    return api, {
        "game": api.slug,
        "options": dict(body["options"]),
        "table_size": size,
        "bot": bot,
        "time_limit_minutes": body.get("time_limit_minutes"),
        "max_students": body.get("max_students"),
        "title": body.get("title") or "",
    }


def _as_problem(err: Exception) -> Problem:
    if isinstance(err, RuleViolation):
        return from_violation(err)
    if isinstance(err, Problem):
        return err
    raise err


def create(
    body: Mapping[str, Any], operator: str, base: str
) -> tuple[str, dict[str, Any], callbacks.Callback | None]:
    """A new lesson: its id, its configuration and its callback (if one was named)."""
    api, config = check_config(body)
    named = body.get("callback")
    told = callbacks.register(named, operator, base) if named is not None else None
    st = store()
    lesson_id = secrets.token_hex(12)
    for _ in range(8):
        code = codes.new_code()
        if st.claim_code(code, lesson_id, ttl()):
            break
    else:  # 32**8 codes: eight collisions in a row mean something else is wrong
        raise Problem("redis_unavailable", "No free join code could be found; retry.")
    config["code"] = code
    if told is not None:
        sessions = flow.store()
        window = int(ttl() + sum(settings().webhook_backoff_seconds) + 3600)
        sealed = sealer().seal_bytes(orjson.dumps(told.to_json()))
        sessions.set_callback(SESSION_PREFIX + lesson_id, sealed, window)
    meta = {
        "game": api.slug,
        "title": config["title"],
        "table_size": config["table_size"],
        "operator": operator,
    }
    st.create(
        lesson_id,
        config=config,
        operator=operator,
        code=code,
        ttl=ttl(),
        meta=meta,
        results_ttl=results_ttl(),
    )
    return lesson_id, config, told


def owned(lesson_id: str, operator: str) -> dict[str, Any]:
    """The operator's own lesson (else ``404 lesson_not_found``)."""
    lesson = store().lesson(lesson_id)
    if lesson is None or lesson["operator"] != operator:
        raise not_found(lesson_id)
    return lesson


# ------------------------------------------------------------------ joining ---------
@dataclass(frozen=True)
class Seat:
    """A student's seat in a lesson, with what they need to play it."""

    lesson_id: str
    game: str
    table: int
    seat: int
    name: str
    session_id: str
    seat_token: str
    seat_url: str
    table_url: str
    rejoined: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "lesson_id": self.lesson_id,
            "game": self.game,
            "table": self.table,
            "seat": self.seat,
            "name": self.name,
            "session_id": self.session_id,
            "seat_token": self.seat_token,
            "seat_url": self.seat_url,
            "table_url": self.table_url,
            "rejoined": self.rejoined,
        }


def identity_of(opaque: str) -> str:
    """What a lesson keeps of a student's identity (a rejoin secret, an LMS's id): a
    digest, never the identity itself."""
    return hashlib.sha256(b"lesson-student:" + opaque.encode()).hexdigest()[:32]


def join(lesson_id: str, identity: str, name: str) -> Seat:
    """Seat the student ``identity`` (a rejoin secret, or an LMS's opaque user id) in
    lesson ``lesson_id`` as ``name``: the same seat again if they are already seated,
    never a second one. A join that fills a table, or comes after the start, deals it.

    Problems: ``lesson_not_found``, ``lesson_ended``, ``lesson_full``, ``name_taken``,
    ``invalid_request`` (a display name that is empty or too long)."""
    shown = codes.display_name(name)
    if shown is None:
        raise Problem(
            "invalid_request",
            f"Your name must be 1 to {codes.NAME_MAX} letters, digits or spaces.",
            errors={"name": [f"1 to {codes.NAME_MAX} printable characters."]},
        )
    st = store()
    lesson = st.lesson(lesson_id)
    if lesson is None:
        raise not_found(lesson_id)
    config = lesson["config"]
    joined = st.join(
        lesson_id,
        identity=identity_of(identity),
        name=shown,
        name_key=codes.name_key(shown),
        new_session=secrets.token_hex(12),
        size=int(config["table_size"]),
        most=int(config.get("max_students") or 0),
        ttl=ttl(),
    )
    _refused(joined, lesson_id, shown)
    assert joined.placed is not None
    if joined.deal:
        deal(lesson_id, lesson, joined.placed.table)
    return seat_of(lesson_id, config["game"], joined.placed, joined.status == "seated")


def _refused(joined: Joined, lesson_id: str, name: str) -> None:
    if joined.status == "gone":
        raise not_found(lesson_id)
    if joined.status == "ended":
        raise Problem("lesson_ended", "This lesson has ended: ask your teacher for the next one.")
    if joined.status == "full":
        raise Problem(
            "lesson_full",
            "Every place in this lesson is taken; ask your teacher to let more students in.",
        )
    if joined.status == "name_taken":
        raise Problem(
            "name_taken",
            f"Someone in this lesson is already called {name!r}. If it is you, join with "
            "the rejoin secret your first join gave; else add a letter to your name.",
        )


def seat_of(lesson_id: str, slug: str, placed: Placed, rejoined: bool) -> Seat:
    token = sealer().seat_token(placed.session_id, placed.seat)
    return Seat(
        lesson_id=lesson_id,
        game=slug,
        table=placed.table,
        seat=placed.seat,
        name=placed.name,
        session_id=placed.session_id,
        seat_token=token,
        seat_url=join_link(slug, placed.session_id, placed.seat, token),
        table_url=table_link(slug, placed.session_id),
        rejoined=rejoined,
    )


def join_by_code(typed: str, name: str, rejoin: str | None, address: str) -> tuple[Seat, str]:
    """A student's join with the code on the projector (and their rejoin secret, when
    they have joined before): their seat and the rejoin secret. Wrong codes are
    counted per address; past ``LESSON_JOIN_MISSES`` in a window every join from that
    address is refused (``429``) until the window ends, right code or not."""
    st = store()
    allowed = int(settings().lesson_join_misses)
    misses, left = st.join_misses(address)
    if misses >= allowed:
        raise Problem(
            "rate_limited",
            f"Too many wrong join codes from your address; retry after {left} s (check the "
            "code on your teacher's screen).",
            headers={"Retry-After": str(left)},
        )
    code = codes.normal_code(typed)
    lesson_id = st.by_code(code) if code is not None else None
    if lesson_id is None:
        st.draw_join(address, int(settings().lesson_join_window_seconds))
        raise Problem(
            "join_code_unknown",
            "No lesson has this join code (it may have ended). Check the code on your "
            "teacher's screen: 8 letters and digits, like 7K3M-Q9XD.",
        )
    secret = rejoin or secrets.token_urlsafe(18)
    return join(lesson_id, "r:" + secret, name), secret


# ------------------------------------------------------------------ tables ----------
def deal(lesson_id: str, lesson: Mapping[str, Any], table: int) -> None:
    """Deal table ``table`` (it is ``starting``: only the join or the start that made
    it so calls this): the lesson's game with its bot on every empty seat."""
    config = lesson["config"]
    api = games()[config["game"]]
    st = store()
    found = st.tables(lesson_id).get(table)
    if found is None or found["status"] != "starting":
        return
    bots = {str(s): config["bot"] for s, taken in enumerate(found["taken"]) if taken == "0"}
    body = {"players": config["table_size"], "options": config["options"], "bots": bots}
    loaded, _events = flow.create(
        api,
        body,
        lesson["operator"],
        game_id=found["session_id"],
        lesson=f"{lesson_id}/{table}",
    )
    st.table_status(
        lesson_id,
        table,
        before="starting",
        after="playing",
        ttl=ttl(),
        results_ttl=results_ttl(),
        message={"type": "table_started", **_table_message(lesson_id, table, loaded.env, api)},
    )
    if api.game.outcome(loaded.env.state).finished:  # dealt already over (bots only)
        table_over(api, lesson_id, table, loaded.env, "finished")


def _table_message(lesson_id: str, table: int, env: Envelope, api: GameApi) -> dict[str, Any]:
    game = api.game
    return {
        "table": table,
        "session_id": env.game_id,
        "version": env.version,
        "to_act": game.to_act(env.state),
        "finished": game.outcome(env.state).finished,
        "scores": game.scores(env.state),
    }


def start(lesson_id: str, operator: str) -> None:
    """Start now: the table being filled is dealt with bots on its empty seats, and
    every later student is seated at a new table of their own with bots."""
    lesson = owned(lesson_id, operator)
    status, tables = store().start(lesson_id, ttl())
    if status == "ended":
        raise Problem("lesson_ended", "This lesson has ended; create a new one.")
    for table in tables:
        deal(lesson_id, lesson, table)
    limit = lesson["config"].get("time_limit_minutes")
    due = schedule.due_work()
    if limit and due is not None and lesson["state"] == "open":
        now = flow.store().now_ms()
        due.schedule({due.member(END_KIND, lesson_id): now + int(limit) * 60_000})
    _complete_if_done(lesson_id)


def _complete_if_done(lesson_id: str) -> None:
    """A lesson started after all its tables had ended is complete at once."""
    tables = store().tables(lesson_id)
    if tables and all(t["status"] in ("finished", "ended", "empty") for t in tables.values()):
        # moving a finished table to finished again changes nothing, so look directly
        lesson = store().lesson(lesson_id)
        if lesson is not None and "finished_ms" not in lesson:
            store().redis.hset(store().key(lesson_id), "finished_ms", flow.store().now_ms())
            completed(lesson_id)


def remove(lesson_id: str, operator: str, table: int, seat: int) -> None:
    """Take a student off their seat: at a table still being filled, the seat is free
    for the next student; at a dealt table, the student is off the lesson's roster
    (their rejoin no longer works, their name is free) and the seat keeps being
    played by its credential's holder until the table ends (a dealt game's seats do
    not change hands)."""
    owned(lesson_id, operator)
    if store().remove(lesson_id, table, seat, ttl()) is None:
        raise Problem(
            "seat_not_found",
            f"Nobody sits at seat {seat} of table {table} of this lesson (now).",
        )


def end(lesson_id: str, operator: str, why: str = "teacher") -> None:
    """End the lesson: every table still played ends now (its streams are told), the
    join code dies, and the results of the tables that were played are kept."""
    owned(lesson_id, operator)
    _end(lesson_id, why)


def _end(lesson_id: str, why: str) -> None:
    st = store()
    lesson = st.lesson(lesson_id)
    if lesson is None:
        return
    seated = st.seated(lesson_id)  # read before the end forgets them
    status, was_complete, playing = st.end(lesson_id, ttl())
    if status != "ending":
        return
    st.drop_code(lesson["code"], lesson_id)
    api = games()[lesson["config"]["game"]]
    sessions = flow.store()
    for table, session_id in playing:
        result = _unfinished(api, lesson_id, table, session_id, seated)
        st.table_status(
            lesson_id,
            table,
            before="*",
            after="ended",
            ttl=ttl(),
            results_ttl=results_ttl(),
            result=result,
            message={"type": "table_ended", "table": table, "session_id": session_id},
        )
        sessions.end(session_id, {"session_id": session_id, "finished": True, "ended": "operator"})
    st.publish(lesson_id, {"type": "lesson_ended", "ended": why})
    if not was_complete:
        completed(lesson_id)


def _unfinished(
    api: GameApi, lesson_id: str, table: int, session_id: str, seated: list[Placed]
) -> dict[str, Any]:
    """The result of a table ended before its game was over: its scores so far."""
    try:
        loaded = flow.load(api, session_id)
    except Problem:
        return result_of(api, lesson_id, table, session_id, None, seated, "ended")
    return result_of(api, lesson_id, table, session_id, loaded.env, seated, "ended")


def end_due(lesson_id: str) -> int | None:
    """Due work: the lesson's time limit has come."""
    _end(lesson_id, "time_limit")
    return None


# ------------------------------------------------------------------ results ---------
def result_of(
    api: GameApi,
    lesson_id: str,
    table: int,
    session_id: str,
    env: Envelope | None,
    seated: list[Placed],
    how: str,
) -> dict[str, Any]:
    """A table's result: how it ended, its outcome and scores, and per seat who sat
    there (a student's display name, or the bot), their place and score."""
    game = api.game
    outcome = game.outcome(env.state).to_json() if env is not None else None
    scores = game.scores(env.state) if env is not None else None
    places = {p["seat"]: p["place"] for p in (outcome or {}).get("places", [])}
    names = {p.seat: p.name for p in seated if p.table == table}
    players = int(env.state["players"]) if env is not None else 0
    seats = []
    for seat in range(players):
        assert env is not None
        entry = next(
            (e for e in (scores or {}).get("seats", []) if e.get("seat") == seat),
            None,
        )
        seats.append(
            {
                "seat": seat,
                "name": names.get(seat),
                "bot": env.bots.get(seat),
                "place": places.get(seat),
                "score": entry,
            }
        )
    return {
        "table": table,
        "session_id": session_id,
        "ended": how,
        "outcome": outcome,
        "scores": scores,
        "seats": seats,
        "record": f"/v1/{api.slug}/sessions/{session_id}/record",
    }


def table_over(api: GameApi, lesson_id: str, table: int, env: Envelope, how: str) -> None:
    st = store()
    result = result_of(api, lesson_id, table, env.game_id, env, st.seated(lesson_id), how)
    _, complete = st.table_status(
        lesson_id,
        table,
        before="*",
        after="finished",
        ttl=ttl(),
        results_ttl=results_ttl(),
        result=result,
        message={"type": "table_finished", **_table_message(lesson_id, table, env, api)},
    )
    # others told of each ended table (LTI sends its students' grades): never the move's end
    for hook in current_app.extensions.get("chemgames.table_over", ()):
        hook(lesson_id, result)
    if complete:
        completed(lesson_id)


def on_commit(loaded: flow.Loaded, env: Envelope, events: list[Event]) -> None:
    """A move committed at a lesson's table: the lesson's stream hears of it, and the
    table's result is kept when its game is over. (``flow.committed`` calls this.)"""
    lesson_id, _, number = loaded.session.lesson.partition("/")
    api = loaded.api
    try:
        table = int(number)
        if api.game.outcome(env.state).finished and not loaded.session.finished:
            table_over(api, lesson_id, table, env, "finished")
            return
        message = {"type": "turn", **_table_message(lesson_id, table, env, api)}
        message["events"] = events_for(events, None)
        store().turn(lesson_id, message, ttl(), results_ttl())
    except (redis.RedisError, ValueError, Problem):  # the move stands; the lesson's view catches up
        current_app.logger.warning("lesson %s not told of a move", lesson_id)


def completed(lesson_id: str) -> None:
    """The lesson is over (every table ended, or it was ended): its callback is told."""
    sessions = flow.store()
    name = SESSION_PREFIX + lesson_id
    if sessions.callback_config(name) is None:
        return
    lesson = store().lesson(lesson_id)
    event = {
        "id": f"msg_{secrets.token_hex(16)}",
        "type": COMPLETED,
        "data": {
            "lesson_id": lesson_id,
            "game": lesson["config"]["game"] if lesson else None,
            "record": f"/v1/lessons/{lesson_id}/results",
        },
    }
    window = int(ttl() + sum(settings().webhook_backoff_seconds) + 3600)
    sessions.push_outbox(name, [event], window)
    schedule.callback("lesson", name, sessions.now_ms())
