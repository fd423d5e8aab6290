"""The lessons' requests and answers, as the contract documents them."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ..games.schemas.common import OptionsField, StrictSchema
from ..games.schemas.contract import OUTCOME
from ..sessions import callbacks
from . import codes

SAFE = 2**53 - 1
TABLES = 1000


def _int(description: str, minimum: int = 0, maximum: int = SAFE) -> dict[str, Any]:
    return {"type": "integer", "minimum": minimum, "maximum": maximum, "description": description}


def _str(description: str, **more: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **more}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kinds = schema["type"]
    return {**schema, "type": [kinds, "null"]}


class LessonRequest(StrictSchema):
    """``POST /v1/lessons``: what the class plays, at tables of how many."""

    game = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "The game's slug (`GET /v1/games`).", "example": "element-draft"},
    )
    options = OptionsField(
        {
            "type": "object",
            "additionalProperties": True,
            "description": "The game's setup options (its `Options` in the catalogue), the "
            "same for every table. Default: none (the game's defaults).",
        },
        load_default=dict,
    )
    table_size = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=64),
        metadata={
            "description": "Seats per table, within the game's player counts.",
            "example": 4,
            "minimum": 1,
            "maximum": 64,
        },
    )
    bot = fields.String(
        load_default=lambda: None,
        validate=validate.Length(min=1, max=32),
        metadata={
            "description": "The bot that plays a table's empty seats (one of the game's "
            "`bots`). Default: `greedy` where the game has it, else its first bot."
        },
    )
    time_limit_minutes = fields.Integer(
        load_default=lambda: None,
        strict=True,
        validate=validate.Range(min=1, max=600),
        metadata={
            "description": "Minutes the lesson lasts once started (`POST .../start`); then "
            "it ends as if its teacher ended it. Default: no limit.",
            "minimum": 1,
            "maximum": 600,
        },
    )
    max_students = fields.Integer(
        load_default=lambda: None,
        strict=True,
        validate=validate.Range(min=1, max=1000),
        metadata={
            "description": "The most students that may join. Default: no limit.",
            "minimum": 1,
            "maximum": 1000,
        },
    )
    title = fields.String(
        load_default=lambda: None,
        validate=validate.Length(max=120),
        metadata={"description": "What the teacher calls it (plain text). Default: none."},
    )
    callback = fields.Nested(
        callbacks.CallbackRequest,
        load_default=lambda: None,
        allow_none=True,
        metadata={
            "description": "An operator's server to tell when the lesson is over (every "
            "table ended, or the lesson was ended): a signed Standard Webhooks event "
            "`lesson.completed`, retried like a session's. Default: none."
        },
    )


class JoinRequest(StrictSchema):
    """``POST /v1/join``: a student's join."""

    code = fields.String(
        required=True,
        validate=validate.Length(min=1, max=32),
        metadata={
            "description": "The join code on the teacher's screen (case, spaces and "
            "hyphens do not matter).",
            "example": "7K3M-Q9XD",
        },
    )
    name = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={
            "description": f"The student's display name: plain text, 1 to {codes.NAME_MAX} "
            "characters once spaces are tidied; unique in the lesson.",
            "example": "Ada",
        },
    )
    rejoin = fields.String(
        load_default=lambda: None,
        validate=[
            validate.Length(min=16, max=128),
            validate.Regexp(r"^[A-Za-z0-9_-]+$", error="Letters, digits, - and _ only."),
        ],
        metadata={
            "description": "The `rejoin` secret an earlier join answered: the same seat "
            "comes back. A client may also choose its own (16-128 characters, letters, "
            "digits, - and _) and resend it on a retry. Default: a new student."
        },
    )


class SeatPath(ma.Schema):
    table = fields.Integer()
    seat = fields.Integer()


SEAT = {
    "type": "object",
    "description": "A student's seat in a lesson: the seat's credential and its page.",
    "properties": {
        "lesson_id": _str("The lesson."),
        "game": _str("The game's slug."),
        "table": _int("The table's number in the lesson (from 0).", maximum=TABLES),
        "seat": _int("The seat at that table.", maximum=63),
        "name": _str("The display name, as kept (plain text: show it escaped)."),
        "session_id": _str(
            "The table's hosted session (dealt once the table is full or "
            "the lesson started; until then it answers 404 session_not_found)."
        ),
        "seat_token": _str("The seat's credential (Authorization: Bearer <seat_token>)."),
        "seat_url": _str("The seat page, with the credential in its fragment."),
        "table_url": _str("The table's public page (for a projector)."),
        "rejoined": {"type": "boolean", "description": "The student was seated already."},
        "rejoin": _str("Send it as `rejoin` to get this seat back (keep it on the device)."),
    },
    "required": [
        "game",
        "lesson_id",
        "name",
        "rejoin",
        "rejoined",
        "seat",
        "seat_token",
        "seat_url",
        "session_id",
        "table",
        "table_url",
    ],
    "additionalProperties": False,
}

GAME_SCORES = {
    "type": "object",
    "additionalProperties": True,
    "description": "A game's scores, as its own `scores` operation answers them (the "
    "game's `Scores` component: `<Game>Scores`).",
}
SEAT_SCORE = {
    "type": "object",
    "additionalProperties": True,
    "description": "One seat's entry of a game's scores (`<Game>Scores.seats[]`).",
}


def _or_null(name: str, description: str) -> dict[str, Any]:
    return {
        "anyOf": [{"$ref": f"#/components/schemas/{name}"}, {"type": "null"}],
        "description": description,
    }


_SCORE = _or_null(
    "GameSeatScore",
    "The seat's entry of the game's scores; null when the table ended before anything was scored.",
)
_SEAT_AT_TABLE = {
    "type": "object",
    "description": "A seat of a table: the student or the bot sitting there.",
    "properties": {
        "seat": _int("The seat.", maximum=63),
        "name": _nullable(_str("The student's display name; null for a bot or a free seat.")),
        "bot": _nullable(_str("The bot that plays it; null for a student or a free seat.")),
    },
    "required": ["bot", "name", "seat"],
    "additionalProperties": False,
}
TABLE = {
    "type": "object",
    "description": "One table of a lesson, as its teacher sees it now.",
    "properties": {
        "table": _int("The table's number (from 0).", maximum=TABLES),
        "session_id": _str("Its hosted session."),
        "status": {
            "type": "string",
            "enum": ["forming", "starting", "playing", "finished", "ended", "empty"],
            "description": "forming: waiting for students; starting: being dealt; "
            "playing; finished: its game is over; ended: the lesson ended before it was; "
            "empty: nobody came.",
        },
        "seats": {"type": "array", "items": _SEAT_AT_TABLE, "description": "Every seat."},
        "version": _nullable(_int("Moves applied so far; null until dealt.")),
        "to_act": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 63},
            "description": "Seats whose turn it is.",
        },
        "deadline_at": _nullable(
            _str("When the table's clock runs out (a game with a clock).", format="date-time")
        ),
        "scores": _or_null("GameScores", "The game's scores so far; null until dealt."),
        "table_url": _str("Its public page (no credential)."),
        "record": _nullable(_str("Its record, once its game is over (a seat's or host's).")),
    },
    "required": [
        "deadline_at",
        "record",
        "scores",
        "seats",
        "session_id",
        "status",
        "table",
        "table_url",
        "to_act",
        "version",
    ],
    "additionalProperties": False,
}
LESSON = {
    "type": "object",
    "description": "A lesson as its teacher sees it now.",
    "properties": {
        "lesson_id": _str("The lesson."),
        "title": _str("What the teacher calls it."),
        "game": _str("The game's slug."),
        "options": {
            "type": "object",
            "additionalProperties": True,
            "description": "The game's options.",
        },
        "table_size": _int("Seats per table.", minimum=1, maximum=64),
        "bot": _str("The bot on empty seats."),
        "time_limit_minutes": _nullable(_int("Minutes once started.", 1, 600)),
        "max_students": _nullable(_int("The most students.", 1, 1000)),
        "state": {
            "type": "string",
            "enum": ["open", "started", "ended"],
            "description": "open: tables start as they fill; started: the teacher started "
            "it (a late student plays with bots at once); ended.",
        },
        "code": _nullable(_str("The join code, as shown (null once ended).")),
        "join_url": _nullable(_str("The join page with the code (null once ended).")),
        "teacher_url": _str("The lesson page, with the teacher's credential in its fragment."),
        "created": _str("When it was created.", format="date-time"),
        "ends_at": _nullable(_str("When its time limit ends it.", format="date-time")),
        "finished": _nullable(_str("When every table had ended.", format="date-time")),
        "students": _int("Students seated.", maximum=100000),
        "tables": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/LessonTable"},
            "description": "Every table, in order.",
        },
        "results": _str("Its results (JSON; `/results.csv` for a spreadsheet)."),
    },
    "required": [
        "bot",
        "code",
        "created",
        "ends_at",
        "finished",
        "game",
        "join_url",
        "lesson_id",
        "max_students",
        "options",
        "results",
        "state",
        "students",
        "table_size",
        "tables",
        "teacher_url",
        "time_limit_minutes",
        "title",
    ],
    "additionalProperties": False,
}
CREATED = {
    **LESSON,
    "description": "A new lesson: the code to project, and the teacher's credential.",
    "properties": {
        **LESSON["properties"],  # type: ignore[dict-item]
        "teacher_token": _str(
            "The teacher's credential for this lesson (Authorization: Bearer "
            "<teacher_token>): watch, start, remove a seat, end, results. For the "
            "teacher's browser: it sees no other lesson and creates nothing."
        ),
        "callback": {
            "anyOf": [{"$ref": "#/components/schemas/Callback"}, {"type": "null"}],
            "description": "The callback named, with its signing secret; null for none.",
        },
    },
    "required": sorted([*LESSON["required"], "callback", "teacher_token"]),  # type: ignore[misc]
}
STUDENT_RESULT = {
    "type": "object",
    "description": "One student's result: one row of the CSV.",
    "properties": {
        "name": _str("The display name."),
        "game": _str("The game's slug."),
        "table": _int("The table.", maximum=TABLES),
        "seat": _int("The seat.", maximum=63),
        "place": _nullable(
            _int(
                "Their place (1 is first; shared places skip: 1, 1, 3); "
                "null when the table ended before its game was over.",
                1,
                64,
            )
        ),
        "finished": {"type": "boolean", "description": "Whether the table's game was over."},
        "score": _SCORE,
        "session_id": _str("The table's session."),
        "record": _str("The table's record (while its session is kept)."),
    },
    "required": [
        "finished",
        "game",
        "name",
        "place",
        "record",
        "score",
        "seat",
        "session_id",
        "table",
    ],
    "additionalProperties": False,
}
TABLE_RESULT = {
    "type": "object",
    "description": "One table's outcome.",
    "properties": {
        "table": _int("The table.", maximum=TABLES),
        "session_id": _str("Its session."),
        "ended": {
            "type": "string",
            "enum": ["finished", "ended"],
            "description": "finished: its game was played to the end; ended: the lesson "
            "ended first (scores so far).",
        },
        "outcome": {
            "anyOf": [OUTCOME, {"type": "null"}],
            "description": "The game's outcome (null: never dealt).",
        },
        "scores": _or_null("GameScores", "The game's scores; null: never dealt."),
        "seats": {
            "type": "array",
            "description": "Who sat where, and how they did.",
            "items": {
                "type": "object",
                "description": "One seat's result.",
                "properties": {
                    **_SEAT_AT_TABLE["properties"],  # type: ignore[dict-item]
                    "place": _nullable(_int("The place (null: not over).", 1, 64)),
                    "score": _SCORE,
                },
                "required": ["bot", "name", "place", "score", "seat"],
                "additionalProperties": False,
            },
        },
        "record": _str("Its record (while its session is kept)."),
    },
    "required": ["ended", "outcome", "record", "scores", "seats", "session_id", "table"],
    "additionalProperties": False,
}
RESULTS = {
    "type": "object",
    "description": "A lesson's results: per student and per table.",
    "properties": {
        "lesson_id": _str("The lesson."),
        "title": _str("What the teacher called it."),
        "game": _str("The game's slug."),
        "complete": {"type": "boolean", "description": "Every table has ended."},
        "students": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/LessonStudentResult"},
            "description": "One per student, by table and seat.",
        },
        "tables": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/LessonTableResult"},
            "description": "One per table that ended.",
        },
    },
    "required": ["complete", "game", "lesson_id", "students", "tables", "title"],
    "additionalProperties": False,
}
COMPONENTS = {
    "GameScores": GAME_SCORES,
    "GameSeatScore": SEAT_SCORE,
    "LessonSeat": SEAT,
    "LessonTable": TABLE,
    "Lesson": LESSON,
    "LessonCreated": CREATED,
    "LessonStudentResult": STUDENT_RESULT,
    "LessonTableResult": TABLE_RESULT,
    "LessonResults": RESULTS,
}
