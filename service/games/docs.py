"""The OpenAPI document's shared parts: operation ids, credentials, problems, headers.

Every operation gets an ``operationId``, its security requirement (seat and host
tokens are bearer credentials), and for its error statuses a problem schema of its
own whose ``code`` is an ``enum`` of exactly the codes that operation may answer, so a
generated client can switch on them; each extends the one ``Problem`` (``allOf``), so a
client's error handler can take them all. Every response declares ``X-Request-ID``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from apispec import BasePlugin
from flask_smorest import Blueprint

from ..http.problems import PROBLEM_JSON, SERVICE_PROBLEMS, TYPE_BASE
from .schemas.contract import BOOK, ref

F = Callable[..., Any]
MAX_SAFE_INTEGER = 2**53 - 1
"""The largest integer every JSON reader keeps exactly (JavaScript's numbers)."""

SEAT_TOKEN = "seatToken"
HOST_TOKEN = "hostToken"
OPERATOR_KEY = "operatorKey"
TEACHER_TOKEN = "teacherToken"
SECURITY_SCHEMES: Mapping[str, dict[str, Any]] = {
    SEAT_TOKEN: {
        "type": "http",
        "scheme": "bearer",
        "description": "A seat token from setup (`seats[].seat_token`): acts and looks as "
        "that seat only. Give each player only their own.",
    },
    HOST_TOKEN: {
        "type": "http",
        "scheme": "bearer",
        "description": "The host token from setup (`host_token`): acts for any seat and for "
        "the host (starting Polymer's timer). Keep it on the teacher's or server side.",
    },
    OPERATOR_KEY: {
        "type": "http",
        "scheme": "bearer",
        "description": "An operator key of this deployment (`OPERATOR_KEYS`): a school's or "
        "an app's server. Where the deployment has operator keys, creating a hosted session "
        "needs one; the operator then lists and ends its sessions. Stateless setup takes "
        "one too (optional): a game against bot seats then gets every credential.",
    },
    TEACHER_TOKEN: {
        "type": "http",
        "scheme": "bearer",
        "description": "A lesson's teacher token (`teacher_token` from `POST /v1/lessons`): "
        "watches and runs that one lesson (start, remove a seat, end, results), for the "
        "teacher's browser, which must never hold an operator key.",
    },
}
AS_SEAT: list[dict[str, list[str]]] = [{SEAT_TOKEN: []}, {HOST_TOKEN: []}]
AS_SEAT_OR_OBSERVER: list[dict[str, list[str]]] = [{}, {SEAT_TOKEN: []}, {HOST_TOKEN: []}]
AS_HOST: list[dict[str, list[str]]] = [{HOST_TOKEN: []}]
OPERATOR: list[dict[str, list[str]]] = [{OPERATOR_KEY: []}]
AS_TEACHER: list[dict[str, list[str]]] = [{OPERATOR_KEY: []}, {TEACHER_TOKEN: []}]
AS_OPERATOR_IF_REQUIRED: list[dict[str, list[str]]] = [{OPERATOR_KEY: []}, {}]
PUBLIC: list[dict[str, list[str]]] = []

HEADERS: Mapping[str, dict[str, Any]] = {
    "X-Request-ID": {
        "description": "The request's id, in every log line about it: the client's own "
        "X-Request-ID when it sent a valid one (1-128 printable ASCII), else a new one.",
        "schema": {"type": "string", "maxLength": 128},
    },
    "Retry-After": {
        "description": "Seconds to wait before retrying.",
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SAFE_INTEGER},
    },
    "WWW-Authenticate": {
        "description": "The authentication scheme to use: Bearer.",
        "schema": {"type": "string"},
    },
    "Idempotent-Replayed": {
        "description": "`true` when this is the stored answer to an earlier request with the "
        "same Idempotency-Key and credential (the move was not applied again).",
        "schema": {"type": "string", "enum": ["true"]},
    },
    "Location": {
        "description": "The URL of the new session.",
        "schema": {"type": "string", "format": "uri-reference"},
    },
    "ETag": {
        "description": "The representation's entity tag, for If-None-Match (304).",
        "schema": {"type": "string"},
    },
    "Cache-Control": {
        "description": "How long the representation may be cached.",
        "schema": {"type": "string"},
    },
    "X-RateLimit-Limit": {
        "description": "The budget of requests of this kind (setup, moves, reads or "
        "streams) per window, for your address (or operator): e.g. `1800 per 1 minute`.",
        "schema": {"type": "string"},
    },
    "X-RateLimit-Remaining": {
        "description": "How many requests of this kind are left in the window.",
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SAFE_INTEGER},
    },
    "X-RateLimit-Reset": {
        "description": "When the budget is whole again, in seconds since the epoch.",
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SAFE_INTEGER},
    },
}


def header(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


# Problems any JSON POST endpoint may answer with.
BODY_ERRORS: Mapping[int, tuple[str, ...]] = {
    # bad_http_request: a chunked body whose framing breaks (werkzeug reads it)
    400: ("malformed_json", "json_too_deep", "bad_http_request"),
    413: ("body_too_large",),
    415: ("unsupported_media_type",),
    422: ("invalid_request",),
}
TOKEN_ERRORS: Mapping[int, tuple[str, ...]] = {
    400: ("token_invalid", "token_wrong_game", "token_version_unsupported"),
}
SEAT_ERRORS: Mapping[int, tuple[str, ...]] = {
    401: ("credentials_missing",),
    403: ("seat_token_invalid",),
    422: ("seat_out_of_range",),
}
STATUS_HEADERS: Mapping[int, tuple[str, ...]] = {
    401: ("WWW-Authenticate",),
    429: ("Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"),
    503: ("Retry-After",),
}
RATE_LIMITED: Mapping[int, tuple[str, ...]] = {429: ("rate_limited",)}
"""What an operation that draws on a rate-limit budget may answer (service/school/limits.py):
every operation but the health probes (:func:`operation` adds it)."""
CREDENTIALS_LIMITED: Mapping[int, tuple[str, ...]] = {429: ("too_many_failed_credentials",)}
"""What an operation that reads a bearer credential may answer once its address sent
too many refused ones (service/school/limits.py; :func:`operation` adds it)."""
LIMIT_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def merge(*tables: Mapping[int, Iterable[str]]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for table in tables:
        for status, codes in table.items():
            bucket = out.setdefault(status, [])
            bucket.extend(c for c in codes if c not in bucket)
    return out


def _example(code: str, status: int) -> dict[str, Any]:
    kind = SERVICE_PROBLEMS.get(code)
    return {
        "type": TYPE_BASE + code,
        "title": kind.title if kind else code.replace("_", " ").capitalize(),
        "status": status,
        "detail": kind.description if kind else "See the rules document for this code.",
        "code": code,
    }


def _pascal(operation_id: str) -> str:
    return operation_id[:1].upper() + operation_id[1:]


def problem_schema(operation_id: str, codes: Iterable[str]) -> dict[str, str]:
    """The operation's problem: :data:`~service.games.schemas.common.PROBLEM` with ``code`` an
    enum of exactly ``codes``, named ``<Operation>Problem`` (its codes:
    ``<Operation>Code``)."""
    ordered = sorted(set(codes))
    name = _pascal(operation_id)
    code = BOOK.add(
        f"{name}Code",
        {
            "type": "string",
            "enum": ordered,
            "description": f"The problem codes `{operation_id}` may answer; the catalogue "
            "is at `GET /v1/problems`.",
        },
    )
    return BOOK.add(
        f"{name}Problem",
        {
            "description": f"A problem `{operation_id}` answers: a `Problem` whose `code` "
            "is one of this operation's.",
            "allOf": [
                ref("Problem"),
                {"type": "object", "properties": {"code": code}, "required": ["code"]},
            ],
        },
    )


def conflict_schema(
    operation_id: str, problem: dict[str, str], session: dict[str, str]
) -> dict[str, str]:
    """The operation's ``409``: its problem, and for ``stale_version`` the session as
    the mover sees it now (``session``), named ``<Operation>Conflict``."""
    name = _pascal(operation_id)
    return BOOK.add(
        f"{name}Conflict",
        {
            "description": f"A conflict `{operation_id}` answers: its problem, with the "
            "game as it is now when the move was decided on a view that has changed "
            "since (`stale_version`).",
            "allOf": [
                problem,
                {
                    "type": "object",
                    "properties": {
                        "current_version": {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": MAX_SAFE_INTEGER,
                            "description": "stale_version: the version the game is at.",
                        },
                        "session": {
                            **session,
                            "description": "stale_version: the game as the mover (or, for "
                            "the host's own command, an observer) sees it now; decide "
                            "again on it and send the move with its `version`.",
                        },
                    },
                },
            ],
        },
    )


def docs_only(decorator: Callable[[F], F]) -> Callable[[F], F]:
    """A flask-smorest decorator that only documents: its ``_apidoc`` without its
    wrapper.

    ``blp.doc`` and ``blp.alt_response`` (and ``blp.response`` around a view that
    returns its own Response) wrap the view in a function that only calls it; seven of
    them around an operation cost a request a few dozen microseconds for nothing.
    """

    def apply(fn: F) -> F:
        wrapper = decorator(fn)
        fn._apidoc = wrapper._apidoc  # type: ignore[attr-defined]
        return fn

    return apply


def operation(
    blp: Blueprint,
    operation_id: str,
    table: Mapping[int, Iterable[str]] | None = None,
    *,
    security: list[dict[str, list[str]]] | None = None,
    session: dict[str, str] | None = None,
    limited: bool = True,
) -> Callable[[F], F]:
    """Document an operation: its id, its credentials and its problem responses (with
    ``session``, the schema of the game as a seat sees it: a hosted write's ``409``
    carries it).

    A ``limited`` operation draws on a rate-limit budget (``429 rate_limited``); one whose
    security names a credential reads it, so it is marked ``takes_credentials`` (the
    limiter checks its address's budget of refused credentials) and may answer
    ``429 too_many_failed_credentials``.
    """
    credentials = any(requirement for requirement in security or ())
    table = merge(
        table or {},
        RATE_LIMITED if limited else {},
        CREDENTIALS_LIMITED if limited and credentials else {},
    )
    listed = {status: list(codes) for status, codes in table.items()}
    table = {status: codes for status, codes in listed.items() if codes}
    decorators: list[Callable[[F], F]] = []
    doc: dict[str, Any] = {"operationId": operation_id}
    if security is not None:
        doc["security"] = security
    decorators.append(docs_only(blp.doc(**doc)))
    if table:
        schema = problem_schema(operation_id, [c for codes in table.values() for c in codes])
        for status, codes in sorted(table.items()):
            answered = schema
            if status == 409 and session is not None and "stale_version" in codes:
                answered = conflict_schema(operation_id, schema, session)
            decorators.append(
                docs_only(
                    blp.alt_response(
                        status,
                        schema=answered,
                        content_type=PROBLEM_JSON,
                        description="Problem details; `code` is one of: "
                        + ", ".join(f"`{c}`" for c in codes),
                        example=_example(next(iter(codes)), status),
                        headers={name: header(name) for name in STATUS_HEADERS.get(status, ())},
                    )
                )
            )

    def decorate(fn: F) -> F:
        for decorator in reversed(decorators):
            fn = decorator(fn)
        fn.takes_credentials = limited and credentials  # type: ignore[attr-defined]
        return fn

    return decorate


class HeadersPlugin(BasePlugin):
    """apispec plugin: declare ``X-Request-ID`` on every response of every operation, and
    the ``X-RateLimit-*`` headers on the successful answers of every operation that
    draws on a budget (those that may answer ``429``)."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for op in (operations or {}).values():
            responses = op.get("responses", {})
            limited = "429" in responses or 429 in responses
            for status, response in responses.items():
                if isinstance(response, dict) and "$ref" not in response:
                    headers = response.setdefault("headers", {})
                    headers.setdefault("X-Request-ID", header("X-Request-ID"))
                    if limited and str(status).startswith("2"):
                        for name in LIMIT_HEADERS:
                            headers.setdefault(name, header(name))
