"""RFC 9457 problem details: one exception type, one catalogue of stable codes.

Every error the service sends is ``application/problem+json`` with ``type``,
``title``, ``status``, ``detail`` and a machine ``code``; rule violations also
carry ``rule`` (the seed sentence) and their details.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from flask import Response

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "/v1/problems/"


@dataclass(frozen=True)
class ProblemKind:
    status: int
    title: str
    description: str


# Service-level problems. Rule violations come from each game's declared codes.
SERVICE_PROBLEMS: Mapping[str, ProblemKind] = {
    "malformed_json": ProblemKind(400, "Malformed JSON", "The request body is not valid JSON."),
    "json_too_deep": ProblemKind(
        400, "JSON nested too deeply", "The request body nests arrays or objects too deeply."
    ),
    "credentials_missing": ProblemKind(
        401,
        "Credentials missing",
        "Send the seat token (or the host token) as Authorization: Bearer <token>.",
    ),
    "bad_bots": ProblemKind(
        422,
        "Bad bot seats",
        "`bots` names a seat that is not at the table or a bot this game does not have.",
    ),
    "http_error": ProblemKind(
        400, "HTTP error", "An HTTP-level error no other code covers; `status` tells which."
    ),
    "invalid_request": ProblemKind(
        422,
        "Invalid request",
        "The request body does not match the schema; `errors` names each bad field.",
    ),
    "unsupported_media_type": ProblemKind(
        415, "Unsupported media type", "Send the request body as application/json."
    ),
    "body_too_large": ProblemKind(
        413, "Request body too large", "The request body exceeds the configured size limit."
    ),
    "record_too_long": ProblemKind(
        413,
        "Record too long to replay",
        "The record has more steps than a replay takes (MAX_REPLAY_STEPS; `max_steps` "
        "says how many).",
    ),
    "not_found": ProblemKind(404, "Not found", "No resource at this URL."),
    "bad_callback": ProblemKind(
        422,
        "Callback refused",
        "The callback URL cannot be used: not https, not a public address, or no operator.",
    ),
    "bad_lti_platform": ProblemKind(
        422,
        "LTI platform refused",
        "The LTI platform's registration cannot be used: one of its URLs is not https or "
        "not a public address, or a field is missing.",
    ),
    "lti_platform_exists": ProblemKind(
        409,
        "LTI platform already registered",
        "This issuer and client id are already registered on this deployment.",
    ),
    "lti_platform_not_found": ProblemKind(
        404, "LTI platform not found", "You have no LTI platform with this id."
    ),
    "record_unavailable": ProblemKind(
        409,
        "No record kept",
        "This game was dealt before the service kept records, so it has none.",
    ),
    "unknown_game": ProblemKind(404, "Unknown game", "No game is registered under this slug."),
    "method_not_allowed": ProblemKind(
        405, "Method not allowed", "This URL does not accept this HTTP method."
    ),
    "token_invalid": ProblemKind(
        400,
        "Invalid state token",
        "The state token was altered, truncated, or sealed with a key this service does not have.",
    ),
    "token_wrong_game": ProblemKind(
        400, "State token of another game", "The state token belongs to a different game."
    ),
    "token_version_unsupported": ProblemKind(
        400,
        "Unsupported state token version",
        "The state token was written by a rules or format version this service does not run.",
    ),
    "seat_token_invalid": ProblemKind(
        403,
        "Seat token refused",
        "The seat token does not belong to this seat of this game.",
    ),
    "host_token_invalid": ProblemKind(
        403, "Host token refused", "The host token does not belong to this game."
    ),
    "operator_key_invalid": ProblemKind(
        403,
        "Operator key refused",
        "The bearer token is not an operator key of this deployment.",
    ),
    "session_quota_exceeded": ProblemKind(
        429,
        "Too many live sessions",
        "This operator has as many live sessions as the deployment allows; end one or wait "
        "for one to finish.",
    ),
    "rate_limited": ProblemKind(
        429,
        "Too many requests",
        "Too many requests from this address (or operator) in a short time; retry after "
        "the Retry-After delay.",
    ),
    "too_many_failed_credentials": ProblemKind(
        429,
        "Too many refused credentials",
        "This address sent too many wrong operator keys, host or seat tokens in a short "
        "time; retry after the Retry-After delay with the credential you were given.",
    ),
    "session_unreadable": ProblemKind(
        410,
        "Session can no longer be opened",
        "The session was sealed under a key this service no longer has (its keys were "
        "rotated); it cannot be continued. Start a new session.",
    ),
    "stale_version": ProblemKind(
        409,
        "Stale state version",
        "What the move was decided on has changed for the mover since the version it "
        "names (the turn passed, its hand changed); decide again on `session`, the game as "
        "the mover sees it now, and send the move with its `version`.",
    ),
    "session_not_found": ProblemKind(
        404, "Session not found", "No live session of this game has this id (it may have expired)."
    ),
    "timer_expired": ProblemKind(409, "Time is up", "The game timer has reached zero."),
    "idempotency_key_reused": ProblemKind(
        422,
        "Idempotency key reused",
        "This Idempotency-Key was already used for a different request.",
    ),
    "redis_unavailable": ProblemKind(
        503,
        "Session store unavailable",
        "The session store (Redis) cannot be reached; retry after the Retry-After delay.",
    ),
    "stream_share_exceeded": ProblemKind(
        429,
        "Too many event streams from you",
        "Your address (or your operator) already has its share of open event streams; "
        "close one or retry after the Retry-After delay.",
    ),
    "too_many_streams": ProblemKind(
        503, "Too many event streams", "This instance holds its limit of open event streams."
    ),
    "lesson_not_found": ProblemKind(
        404,
        "Lesson not found",
        "No lesson of yours has this id (its results are kept for the retention, then forgotten).",
    ),
    "join_code_unknown": ProblemKind(
        404, "Unknown join code", "No live lesson has this join code; check it on the screen."
    ),
    "lesson_ended": ProblemKind(409, "Lesson ended", "The lesson has ended."),
    "lesson_full": ProblemKind(
        409, "Lesson full", "The lesson has as many students as its teacher allowed."
    ),
    "name_taken": ProblemKind(
        409,
        "Name taken",
        "Another student of the lesson has this display name; rejoin with your rejoin "
        "secret, or choose another name.",
    ),
    "bad_table_size": ProblemKind(
        422, "Bad table size", "The table size is outside the game's player counts."
    ),
    "seat_not_found": ProblemKind(
        404, "Nobody in that seat", "No student of the lesson sits at that table and seat."
    ),
    "teacher_token_invalid": ProblemKind(
        403,
        "Teacher credential refused",
        "Neither the operator key that created the lesson nor its teacher token.",
    ),
    # answered by gunicorn or the proxy before the app sees the request (docs/OPERATIONS.md)
    "bad_http_request": ProblemKind(
        400,
        "Malformed HTTP request",
        "The HTTP framing cannot be read: request line, header syntax, Content-Length or "
        "chunked encoding.",
    ),
    "uri_too_long": ProblemKind(414, "URI too long", "The request line is too long."),
    "headers_too_large": ProblemKind(
        431,
        "Request header fields too large",
        "Too many request header fields, or one of them too large.",
    ),
    "upstream_unavailable": ProblemKind(
        502, "No service instance answered", "The proxy could not reach a service instance."
    ),
    "upstream_timeout": ProblemKind(
        504, "Service instance timed out", "A service instance did not answer the proxy in time."
    ),
    "internal_error": ProblemKind(
        500, "Internal error", "An unexpected error; it has been logged with the request id."
    ),
}


class Problem(Exception):
    """An HTTP problem to send; ``extensions`` become extra members of the body."""

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        status: int | None = None,
        title: str | None = None,
        headers: Mapping[str, str] | None = None,
        **extensions: Any,
    ) -> None:
        super().__init__(detail)
        kind = SERVICE_PROBLEMS.get(code)
        self.code = code
        self.detail = detail
        self.status = status or (kind.status if kind else 422)
        self.title = title or (kind.title if kind else code.replace("_", " ").capitalize())
        self.headers = dict(headers or {})
        self.extensions = extensions

    def body(self, instance: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {
            "type": TYPE_BASE + self.code,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
        }
        if instance:
            body["instance"] = instance
        body.update(self.extensions)
        return body

    def response(self, instance: str | None = None) -> Response:
        body = self.body(instance)
        try:
            data = orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:  # a client's integer beyond 64 bits, quoted back in a detail
            data = json.dumps(body, default=str).encode()
        resp = Response(data, status=self.status, mimetype=PROBLEM_JSON)
        for name, value in self.headers.items():
            resp.headers[name] = value
        return resp


def from_violation(err: Any) -> Problem:
    """A ``rules.core.RuleViolation`` as a problem (422 unless the rule says 409)."""
    extensions: dict[str, Any] = {}
    if err.rule:
        extensions["rule"] = err.rule
    details = dict(err.details)
    # members the problem format has at its top level: the field errors of a malformed
    # move or option, and the moves a game knows
    for member in ("errors", "known"):
        if member in details:
            extensions[member] = details.pop(member)
    if details:
        extensions["details"] = details
    return Problem(err.code, err.message, status=err.status, **extensions)
