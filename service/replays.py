"""``POST /v1/<slug>/replay``: a game's record played through the rules.

Every game (Polymer too) takes its records back: a teacher steps through a game, an
LMS checks a result a student's device reports, a bug report is a file. The body is a
record as ``.../record`` gives it (docs/RECORDS.md), checked against the game's record
shape; the answer is what the rules make of it (``rules.records.check``). A record can
be large (every step's events), so this operation alone takes bodies up to
``MAX_RECORD_BYTES``.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, request
from flask.views import MethodView
from webargs import core

from rules import records, shapes
from rules.core import At, RuleViolation

from . import examples
from .docs import BODY_ERRORS, LIMIT_HEADERS, PUBLIC, RATE_LIMITED, header, merge, operation
from .games import GameApi
from .jsonio import json_response
from .parsing import ApiBlueprint as Blueprint
from .parsing import JsonParser
from .problems import Problem, from_violation


def blueprint(api: GameApi) -> Blueprint:
    """The game's replay operation, at ``/v1/<slug>/replay``."""
    blp = Blueprint(
        f"{api.slug}-replay",
        __name__ + "." + api.slug,
        url_prefix=f"/v1/{api.slug}",
        description=f"{api.info.title}: records played through the rules.",
    )
    kind = records.record_type(api.game)
    parser = JsonParser()

    @blp.before_request
    def _larger_bodies() -> None:
        request.max_content_length = current_app.config["SETTINGS"].max_record_bytes

    def post(self: Any) -> Any:
        data = parser.load_json(request, None)  # type: ignore[arg-type]
        if data is core.missing:
            data = {}
        try:
            record = shapes.parse(data, kind)
        except shapes.ShapeError as err:
            errors = err.errors if isinstance(err.errors, dict) else {"_schema": err.errors}
            raise Problem(
                "invalid_request",
                "This is not a record of the game: " + shapes.summary(errors),
                errors=errors,
            ) from None
        try:
            return json_response(records.check(api.game, record))
        except RuleViolation as err:
            raise from_violation(err) from None

    post.__doc__ = (
        "Replay a record through the rules.\n\n"
        "Send a whole record (`GET .../record` once the game is over: every move and the "
        "seed). The answer gives what each step produced, the outcome and scores, the "
        "first step the rules refuse (with the problem a move there gets), and whether the "
        "record's own events, outcome and scores are the rules'. Nothing is stored."
    )
    codes = merge(BODY_ERRORS, {422: list(api.info.codes_at(At.REPLAY))}, RATE_LIMITED)
    decorated: Any = post
    decorated = operation(blp, f"{_lower(api.name)}Replay", codes, security=PUBLIC)(decorated)
    decorated = blp.doc(
        requestBody={
            "required": True,
            "description": "A whole record of the game (docs/RECORDS.md).",
            "content": {"application/json": {"schema": api.docs.record}},
        }
    )(decorated)
    decorated = blp.response(
        200,
        api.docs.check,
        example=examples.replay(api),
        headers={name: header(name) for name in LIMIT_HEADERS},
    )(decorated)
    blp.route("/replay", endpoint="replay")(type("Replay", (MethodView,), {"post": decorated}))
    return blp


def _lower(name: str) -> str:
    return name[:1].lower() + name[1:]
