"""``/v1/lessons``: a teacher's class at tables with bots, watched live, results kept.

The teacher's side (create, view, start, remove a seat, end, results, the stream)
takes the operator key that created the lesson, or the lesson's own teacher token
(for the teacher's browser, which must never hold an operator key). A student's join
takes only the code.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterator
from typing import Any

import orjson
import redis
from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView

from rules.times import iso

from ..games.docs import (
    AS_OPERATOR_IF_REQUIRED,
    AS_TEACHER,
    BODY_ERRORS,
    PUBLIC,
    RATE_LIMITED,
    merge,
    operation,
)
from ..games.play import sealer
from ..http import streams
from ..http.auth import bearer
from ..http.client import address
from ..http.errors import redis_down
from ..http.jsonio import json_response
from ..http.parsing import ApiBlueprint as Blueprint
from ..http.problems import Problem
from ..school.operators import creator, operators
from ..sessions import flow
from ..sessions.blueprint import _sse
from . import codes, seating
from .schemas import JoinRequest, LessonRequest
from .store import SESSION_PREFIX, Placed

TEACHER = AS_TEACHER
TEACHER_ERRORS = {
    401: ["credentials_missing"],
    403: ["teacher_token_invalid"],
    404: ["lesson_not_found"],
    503: ["redis_unavailable"],
}
STREAM_DESCRIPTION = """\
Server-sent events (`text/event-stream`) for the whole lesson, from any instance:

* `retry: 2000`, then `event: hello` with the lesson as `GET /v1/lessons/{id}` answers
  it (without its join code and teacher link);
* `event: lesson` per change, its `data` one of (by `type`): `seated` (a student sat
  down: `table`, `seat`; fetch the lesson for the name), `removed`, `started`,
  `table_started`, `turn` (a move at a table: `table`, `session_id`, `version`,
  `to_act`, `finished`, `scores`, `events`: the table's public events),
  `table_finished`, `table_ended`, `lesson_ended`;
* `: keep-alive` comments; `event: end` when the lesson ends or the stream reaches its
  time limit (reconnect, then resync with `GET /v1/lessons/{id}`).

No student's name travels on it: names are in the lesson's view, for its teacher.
"""


def teacher_token(lesson_id: str) -> str:
    return sealer().host_token(SESSION_PREFIX + lesson_id)


def teacher(lesson_id: str) -> dict[str, Any]:
    """The lesson, for its operator's key or its teacher token (else 401/403/404)."""
    presented = bearer()
    operator = operators().identify(presented) if operators().required else None
    lesson = seating.store().lesson(lesson_id)
    if operator is not None:
        if lesson is None or lesson["operator"] != operator:
            raise seating.not_found(lesson_id)
        return lesson
    if not sealer().is_host(SESSION_PREFIX + lesson_id, presented):
        raise Problem(
            "teacher_token_invalid",
            "This is neither the operator key that created this lesson nor its teacher "
            "token; send one as Authorization: Bearer <token>.",
        )
    if lesson is None:
        raise seating.not_found(lesson_id)
    return lesson


def view(lesson_id: str, lesson: dict[str, Any]) -> dict[str, Any]:
    """The lesson as its teacher sees it now: every table, who sits where, whose turn,
    the clock, the scores."""
    config = lesson["config"]
    api = seating.games()[config["game"]]
    st = seating.store()
    seated = st.seated(lesson_id)
    _meta, results = st.results(lesson_id)
    tables = []
    for number, table in st.tables(lesson_id).items():
        tables.append(_table(api, config, number, table, seated, results.get(number)))
    ended = lesson["state"] == "ended"
    code = codes.shown_code(lesson["code"])
    ends = None
    started = lesson.get("started_ms")
    if config.get("time_limit_minutes") and started:
        ends = iso(int(started) + int(config["time_limit_minutes"]) * 60_000)
    return {
        "lesson_id": lesson_id,
        "title": config.get("title") or "",
        "game": config["game"],
        "options": config["options"],
        "table_size": config["table_size"],
        "bot": config["bot"],
        "time_limit_minutes": config.get("time_limit_minutes"),
        "max_students": config.get("max_students"),
        "state": lesson["state"],
        "code": None if ended else code,
        "join_url": None if ended else f"/play/join#code={code}",
        "teacher_url": f"/play/lessons/{lesson_id}#token={teacher_token(lesson_id)}",
        "created": iso(int(lesson["created_ms"])),
        "ends_at": ends,
        "finished": iso(int(lesson["finished_ms"])) if lesson.get("finished_ms") else None,
        "students": int(lesson.get("students") or 0),
        "tables": tables,
        "results": f"/v1/lessons/{lesson_id}/results",
    }


def _table(
    api: Any,
    config: dict[str, Any],
    number: int,
    table: dict[str, Any],
    seated: list[Placed],
    result: dict[str, Any] | None,
) -> dict[str, Any]:
    session_id = table["session_id"]
    names = {p.seat: p.name for p in seated if p.table == number}
    dealt = table["status"] not in ("forming", "starting", "empty")
    seats = []
    for seat, taken in enumerate(table["taken"]):
        if result is not None:
            done = result["seats"][seat] if seat < len(result["seats"]) else {}
            seats.append({"seat": seat, "name": done.get("name"), "bot": done.get("bot")})
            continue
        bot = config["bot"] if taken == "0" and dealt else None
        seats.append({"seat": seat, "name": names.get(seat), "bot": bot})
    out: dict[str, Any] = {
        "table": number,
        "session_id": session_id,
        "status": table["status"],
        "seats": seats,
        "version": None,
        "to_act": [],
        "deadline_at": None,
        "scores": result["scores"] if result is not None else None,
        "table_url": f"/play/{api.slug}/{session_id}/table",
        "record": result["record"] if result is not None and result["outcome"] else None,
    }
    if table["status"] == "playing":
        try:
            loaded = flow.load(api, session_id)
        except Problem:  # ended by its operator, or expired
            return out
        state = loaded.env.state
        out["version"] = loaded.session.version
        out["to_act"] = api.game.to_act(state)
        out["scores"] = api.game.scores(state)
        deadline = api.clock.deadline(state) if api.clock else None
        out["deadline_at"] = iso(deadline) if deadline is not None else None
    return out


def results(lesson_id: str) -> dict[str, Any]:
    """Per student and per table (kept for the retention after the tables' sessions)."""
    meta, tables = seating.store().results(lesson_id)
    if meta is None:
        raise seating.not_found(lesson_id)
    lesson = seating.store().lesson(lesson_id)
    students = []
    for number, result in tables.items():
        for seat in result["seats"]:
            if seat["name"] is None:
                continue
            students.append(
                {
                    "name": seat["name"],
                    "game": meta["game"],
                    "table": number,
                    "seat": seat["seat"],
                    "place": seat["place"],
                    "finished": result["ended"] == "finished",
                    "score": seat["score"],
                    "session_id": result["session_id"],
                    "record": result["record"],
                }
            )
    complete = lesson is None or bool(lesson.get("finished_ms"))
    return {
        "lesson_id": lesson_id,
        "title": meta.get("title") or "",
        "game": meta["game"],
        "complete": complete,
        "students": students,
        "tables": list(tables.values()),
    }


CSV_FIRST = ("name", "game", "table", "seat", "place", "finished", "session_id", "record")


def as_csv(found: dict[str, Any]) -> str:
    """One row per student; the score's own members (the game's words) as columns
    ``score_<member>``, scalar ones only (the evidence stays in the JSON)."""
    columns: list[str] = []
    for student in found["students"]:
        for name, value in (student["score"] or {}).items():
            if name != "seat" and _scalar(value) and name not in columns:
                columns.append(name)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*CSV_FIRST, *(f"score_{c}" for c in columns)])
    for student in found["students"]:
        score = student["score"] or {}
        row = [_cell(student[c]) for c in CSV_FIRST]
        row += [_cell(score.get(c)) for c in columns]
        writer.writerow(row)
    return out.getvalue()


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    # a spreadsheet runs a cell that starts like a formula: a display name never does
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


def make_blueprint() -> Blueprint:
    blp = Blueprint(
        "lessons",
        __name__,
        url_prefix="/v1",
        description="Lessons: a class at tables with bots, for any game, watched live by its "
        "teacher; results as JSON and CSV.",
    )

    @blp.route("/lessons")
    class Lessons(MethodView):
        @blp.arguments(
            LessonRequest,
            example={"game": "metal-vs-nonmetal", "table_size": 4, "time_limit_minutes": 20},
        )
        @blp.response(201, {"$ref": "#/components/schemas/LessonCreated"})
        @operation(
            blp,
            "createLesson",
            merge(
                BODY_ERRORS,
                {
                    401: ["credentials_missing"],
                    403: ["operator_key_invalid"],
                    422: [
                        "unknown_game",
                        "bad_table_size",
                        "bad_bots",
                        "bad_callback",
                        "bad_option",
                        "unknown_option",
                        "bad_deal",
                    ],
                    429: ["session_quota_exceeded"],
                    503: ["redis_unavailable"],
                },
            ),
            security=AS_OPERATOR_IF_REQUIRED,
        )
        def post(self, body: dict[str, Any]) -> Any:
            """Create a lesson: its join code, join link and the teacher's page.

            Tables of `table_size` form as students join (`POST /v1/join`) and
            are dealt as they fill; `POST .../start` deals the last one with bots. Every
            table is a hosted session of the operator (listed, ended and counted in its
            quota like any other).
            """
            operator = creator()
            if operator:
                _check_quota(operator, body)
            lesson_id, _config, told = seating.create(body, operator, request.host_url)
            lesson = seating.store().lesson(lesson_id)
            assert lesson is not None
            return json_response(
                {
                    **view(lesson_id, lesson),
                    "teacher_token": teacher_token(lesson_id),
                    "callback": None
                    if told is None
                    else {"url": told.url, "moves": told.moves, "secret": told.secret},
                },
                status=201,
                headers={"Location": f"/v1/lessons/{lesson_id}"},
            )

    @blp.route("/join")
    class Join(MethodView):
        @blp.arguments(JoinRequest, example={"code": "7K3M-Q9XD", "name": "Ada"})
        @blp.response(200, {"$ref": "#/components/schemas/LessonSeat"})
        @operation(
            blp,
            "joinLesson",
            merge(
                BODY_ERRORS,
                {
                    404: ["join_code_unknown", "lesson_not_found"],
                    409: ["lesson_ended", "lesson_full", "name_taken"],
                    503: ["redis_unavailable"],
                },
                RATE_LIMITED,
            ),
            security=PUBLIC,
        )
        def post(self, body: dict[str, Any]) -> Any:
            """Join a lesson with its code: your seat, its credential and its page.

            Send the answer's `rejoin` again to get the same seat back (a reload, a
            dropped connection): joining twice never gives two seats. Wrong codes are
            counted per address: past the deployment's budget, joins from that address
            are refused for a while (`429`).
            """
            seat, secret = seating.join_by_code(
                body["code"], body["name"], body.get("rejoin"), address()
            )
            return json_response({**seat.to_json(), "rejoin": secret})

    @blp.route("/lessons/<lesson_id>")
    class Lesson(MethodView):
        @blp.response(200, {"$ref": "#/components/schemas/Lesson"})
        @operation(blp, "getLesson", TEACHER_ERRORS, security=TEACHER)
        def get(self, lesson_id: str) -> Any:
            """The lesson now: every table, who sits where, whose turn, the scores.

            For its teacher (the operator key that created it, or its teacher token):
            the join code and link while it is open, every table's status, seats (a
            student's display name or the bot), version, whose turn, clock and scores so
            far, and each finished table's record.
            """
            return json_response(view(lesson_id, teacher(lesson_id)))

    @blp.route("/lessons/<lesson_id>/start")
    class Start(MethodView):
        @blp.response(200, {"$ref": "#/components/schemas/Lesson"})
        @operation(
            blp,
            "startLesson",
            merge(TEACHER_ERRORS, {409: ["lesson_ended"], 415: ["unsupported_media_type"]}),
            security=TEACHER,
        )
        def post(self, lesson_id: str) -> Any:
            """Start now: the table being filled is dealt with bots on its empty seats.

            From now on a student who joins is seated at a new table of their own with
            bots, dealt at once. The time limit (if any) starts counting.
            """
            lesson = teacher(lesson_id)
            seating.start(lesson_id, lesson["operator"])
            found = seating.store().lesson(lesson_id)
            assert found is not None
            return json_response(view(lesson_id, found))

    @blp.route("/lessons/<lesson_id>/end")
    class End(MethodView):
        @blp.response(200, {"$ref": "#/components/schemas/Lesson"})
        @operation(
            blp,
            "endLesson",
            merge(TEACHER_ERRORS, {415: ["unsupported_media_type"]}),
            security=TEACHER,
        )
        def post(self, lesson_id: str) -> Any:
            """End the lesson: every table still played ends now (its streams end).

            The join code stops working; the results of every table are kept (the
            ones ended now with their scores so far). Ending an ended lesson changes
            nothing.
            """
            lesson = teacher(lesson_id)
            seating.end(lesson_id, lesson["operator"])
            found = seating.store().lesson(lesson_id)
            if found is None:
                raise seating.not_found(lesson_id)
            return json_response(view(lesson_id, found))

    @blp.route(
        "/lessons/<lesson_id>/tables/<table>/seats/<seat>",
        parameters=[
            {
                "in": "path",
                "name": "table",
                "required": True,
                "description": "The table's number (from 0).",
                "schema": {"type": "integer", "minimum": 0, "maximum": 1000},
            },
            {
                "in": "path",
                "name": "seat",
                "required": True,
                "description": "The seat at that table.",
                "schema": {"type": "integer", "minimum": 0, "maximum": 63},
            },
        ],
    )
    class Seat(MethodView):
        @blp.response(204, description="The student is off the seat.")
        @operation(
            blp,
            "removeLessonSeat",
            merge(TEACHER_ERRORS, {404: ["seat_not_found"]}),
            security=TEACHER,
        )
        def delete(self, lesson_id: str, table: str, seat: str) -> Any:
            """Take a student off their seat.

            At a table still waiting for students the seat is free for the next one.
            At a dealt table the student leaves the lesson's roster (their name is
            free, their rejoin secret no longer works, they are not in the results);
            the game's seat stays with its credential until the table ends.
            """
            lesson = teacher(lesson_id)
            seating.remove(lesson_id, lesson["operator"], _number(table), _number(seat))
            return Response(status=204)

    @blp.route("/lessons/<lesson_id>/results")
    class Results(MethodView):
        @blp.response(200, {"$ref": "#/components/schemas/LessonResults"})
        @operation(blp, "getLessonResults", TEACHER_ERRORS, security=TEACHER)
        def get(self, lesson_id: str) -> Any:
            """The results: per student (game, table, place, score, record) and per table.

            Kept for the deployment's retention (`LESSON_RETENTION_SECONDS`, a week by
            default) after the tables' sessions, which nothing else outlives.
            """
            _results_access(lesson_id)
            return json_response(results(lesson_id))

    @blp.route("/lessons/<lesson_id>/results.csv")
    class ResultsCsv(MethodView):
        @blp.response(
            200,
            {"type": "string", "description": "CSV (RFC 4180), one row per student."},
            content_type="text/csv",
            description="One row per student: name, game, table, seat, place, finished, "
            "session_id, record, then the game's score members as `score_<member>`.",
            example="name,game,table,seat,place,finished,session_id,record,score_total\r\n"
            "Ada,chemistry-battle,0,0,1,true,5d1e8a0c,/v1/chemistry-battle/sessions/"
            "5d1e8a0c/record,31\r\n",
        )
        @operation(blp, "getLessonResultsCsv", TEACHER_ERRORS, security=TEACHER)
        def get(self, lesson_id: str) -> Any:
            """The results as CSV, one row per student (for a spreadsheet or a gradebook).

            The same rows as the JSON's `students`: name, game, table, seat, place,
            finished, session_id, record, then the scalar members of the game's score as
            `score_<member>` columns. A cell that would start a spreadsheet formula is
            prefixed with `'`.
            """
            _results_access(lesson_id)
            text = as_csv(results(lesson_id))
            return Response(
                text,
                mimetype="text/csv",
                headers={"Content-Disposition": f'attachment; filename="lesson-{lesson_id}.csv"'},
            )

    @blp.route("/lessons/<lesson_id>/events")
    class Events(MethodView):
        @blp.response(
            200,
            {"type": "string", "description": STREAM_DESCRIPTION},
            content_type="text/event-stream",
            description="A stream of server-sent events (see the schema's description).",
        )
        @operation(
            blp,
            "lessonEvents",
            merge(TEACHER_ERRORS, {503: ["too_many_streams"]}),
            security=TEACHER,
        )
        def get(self, lesson_id: str) -> Any:
            """Follow the whole lesson live: seats, tables, turns, scores, endings.

            One server-sent event stream for every table of the lesson, from any
            instance; no student's name travels on it (ask for the lesson again on
            `seated` and `removed`).
            """
            lesson = teacher(lesson_id)
            settings = current_app.config["SETTINGS"]
            slot = streams.acquire(settings.sse_max_streams)
            stream = _stream(
                lesson_id, lesson, settings.sse_max_seconds, settings.sse_heartbeat_seconds
            )
            response = Response(
                stream_with_context(stream),
                mimetype="text/event-stream",
                headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
            )
            response.call_on_close(slot.release)
            return response

    return blp


def _number(text: str) -> int:
    """A table's or seat's number in a path (anything else names nobody's seat)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 4):
        raise Problem("seat_not_found", f"{text!r} is not a table's or seat's number.")
    return int(text)


def _results_access(lesson_id: str) -> None:
    """The results outlive the lesson's other keys: its operator or teacher token only."""
    presented = bearer()
    meta, _ = seating.store().results(lesson_id)
    lesson = seating.store().lesson(lesson_id)
    operator = operators().identify(presented) if operators().required else None
    if operator is not None:
        owner = (lesson or {}).get("operator") or (meta or {}).get("operator")
        if meta is None or owner != operator:
            raise seating.not_found(lesson_id)
        return
    if not sealer().is_host(SESSION_PREFIX + lesson_id, presented):
        raise Problem(
            "teacher_token_invalid",
            "This is neither the operator key that created this lesson nor its teacher "
            "token; send one as Authorization: Bearer <token>.",
        )
    if meta is None:
        raise seating.not_found(lesson_id)


def _check_quota(operator: str, body: dict[str, Any]) -> None:
    """A lesson's tables count in its operator's quota: refused when even one more
    session would not fit (its tables are dealt later, and then never refused)."""
    quota = current_app.config["SETTINGS"].operator_session_quota
    live = flow.store().live_count(operator)
    if live >= quota:
        raise Problem(
            "session_quota_exceeded",
            f"Your operator key has {quota} sessions being played, the most this deployment "
            "allows; a lesson's tables are sessions too. End some, or wait.",
            headers={"Retry-After": "60"},
            quota=quota,
        )


def _stream(
    lesson_id: str, lesson: dict[str, Any], max_seconds: float, heartbeat: float
) -> Iterator[str]:
    st = seating.store()
    subscription: streams.Subscription | None = None
    try:
        channel = st.channel(lesson_id)
        subscription = streams.Subscription(
            st.sessions.backend.stream_client(channel), channel, sharded=st.sharded(lesson_id)
        )
        found = st.lesson(lesson_id)  # read again once subscribed: nothing falls between
        if found is None:
            raise seating.not_found(lesson_id)
        hello = view(lesson_id, found)
        hello["code"] = hello["join_url"] = None
        hello["teacher_url"] = ""
        yield "retry: 2000\n\n"
        yield _sse("hello", hello)
        ended = found["state"] == "ended"
        started = time.monotonic()
        while not ended and time.monotonic() - started < max_seconds:
            data = subscription.get(timeout=heartbeat)
            if data is None:
                yield ": keep-alive\n\n"
                continue
            payload = orjson.loads(data)
            yield _sse("lesson", payload)
            ended = payload.get("type") == "lesson_ended"
        yield _sse("end", {"lesson_id": lesson_id, "ended": ended})
    except redis.RedisError as err:
        yield _sse("error", redis_down(err).body())
    except Problem as err:
        yield _sse("error", err.body())
    finally:
        if subscription is not None:
            subscription.close()
