"""``POST /v1/<slug>/replay``: a game's record played through the rules.

Every game (Polymer too) takes its records back: a teacher steps through a game, an
LMS checks a result a student's device reports, a bug report is a file. The body is a
record as ``.../record`` gives it (docs/RECORDS.md), checked against the game's record
shape; the answer is what the rules make of it (``rules.records.check``). A record can
be large (every step's events), so this operation alone takes bodies up to
``MAX_RECORD_BYTES``.

What a replay may cost is bounded three ways (issue 27):

* **Steps.** A record of more than ``MAX_REPLAY_STEPS`` steps (10,000) is refused
  ``413 record_too_long`` before it is checked against the record's shape or any rule
  runs. The longest game random bots play is 2,000 steps (Chemistry Battle at its
  1,000-round limit, two seats; ``bench/replay_steps.py``, bench/README.md).
* **Budget.** A replay draws on the ``setup`` budget one unit per started
  ``REPLAY_COST_BYTES`` of its body (service/school/limits.py).
* **Workers.** The rules run in a native thread (under gevent, the hub's thread pool),
  at most ``REPLAY_CONCURRENCY`` (1) per worker process at once (the others wait their
  turn), so the worker's other requests (``/healthz`` among them) are served while a
  long replay runs instead of queueing behind it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, request
from flask.views import MethodView
from webargs import core

from rules import records, shapes
from rules.core import At, RuleViolation

from ..http.jsonio import json_response
from ..http.parsing import ApiBlueprint as Blueprint
from ..http.parsing import JsonParser
from ..http.problems import Problem, from_violation
from . import examples
from .docs import BODY_ERRORS, LIMIT_HEADERS, PUBLIC, RATE_LIMITED, header, merge, operation
from .registry import GameApi

T = TypeVar("T")
_gate: threading.BoundedSemaphore | None = None


def _gevent() -> bool:
    """Whether this process runs under gevent's monkey patches (a gunicorn gevent worker)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency of serving
        return False
    return bool(monkey.is_module_patched("threading"))


def bounded(concurrency: int, work: Callable[[], T]) -> T:
    """Run ``work`` (pure CPU: parsing and replaying a record) off the event loop, at most
    ``concurrency`` at once in this process; the others wait their turn.

    The semaphore is made on first use, in the worker, after gevent has patched
    ``threading``: one made before would block the whole worker while it waits.
    """
    global _gate
    if _gate is None:
        _gate = threading.BoundedSemaphore(concurrency)
    with _gate:
        if _gevent():
            from gevent import get_hub

            return get_hub().threadpool.apply(work)  # type: ignore[no-any-return]
        return work()


def too_long(data: Any, bound: int) -> Problem | None:
    """``413 record_too_long`` for a record of more than ``bound`` steps, from the body as
    parsed (before its shape is checked or any rule runs)."""
    steps = data.get("steps") if isinstance(data, dict) else None
    if isinstance(steps, list) and len(steps) > bound:
        return Problem(
            "record_too_long",
            f"This record has {len(steps):,} steps; a replay takes at most {bound:,} "
            "(MAX_REPLAY_STEPS), more than any game played to its end needs.",
            max_steps=bound,
        )
    return None


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
        settings = current_app.config["SETTINGS"]
        data = parser.load_json(request, None)  # type: ignore[arg-type]
        if data is core.missing:
            data = {}
        refused = too_long(data, settings.max_replay_steps)
        if refused is not None:
            raise refused
        return json_response(bounded(settings.replay_concurrency, lambda: replay(data)))

    def replay(data: Any) -> dict[str, Any]:
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
            return records.check(api.game, record)
        except RuleViolation as err:
            raise from_violation(err) from None

    post.__doc__ = (
        "Replay a record through the rules.\n\n"
        "Send a whole record (`GET .../record` once the game is over: every move and the "
        "seed). The answer gives what each step produced, the outcome and scores, the "
        "first step the rules refuse (with the problem a move there gets), and whether the "
        "record's own events, outcome and scores are the rules'. Nothing is stored."
    )
    codes = merge(
        BODY_ERRORS,
        {413: ["record_too_long"], 422: list(api.info.codes_at(At.REPLAY))},
        RATE_LIMITED,
    )
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
