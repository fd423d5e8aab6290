"""The flask-smorest ``Api`` with problem+json errors everywhere."""

from __future__ import annotations

import http
import logging
from typing import Any

import redis
from flask import Flask, Response, current_app, g, request
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from rules import shapes
from rules.core import RuleViolation

from .documents import Document
from .problems import Problem, from_violation

log = logging.getLogger("chemgames.errors")
store_log = logging.getLogger("chemgames.sessions")
REDIS_RETRY_AFTER_SECONDS = 2

_BY_STATUS = {
    404: ("not_found", "There is nothing at {path}. The API lives under /v1; see /docs."),
    405: ("method_not_allowed", "{method} is not allowed on {path}; see /docs for its methods."),
    413: (
        "body_too_large",
        "The request body is larger than this service accepts ({limit} bytes).",
    ),
    415: ("unsupported_media_type", "Send the body as JSON with Content-Type: application/json."),
    429: (
        "rate_limited",
        "Too many requests of this kind from your address (or your operator key) in a "
        "short time ({limit}); retry after the Retry-After delay.",
    ),
}


def problem_for_http(error: HTTPException) -> Problem:
    """Turn any werkzeug/webargs HTTP error into a problem with a stable code."""
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    status = error.code or 500
    if status == 400 and messages and "json" in messages and _is_invalid_json(messages["json"]):
        return Problem(
            "malformed_json",
            "The request body is not valid JSON. Check for a missing quote, comma or brace.",
        )
    if status == 422 and messages is not None:
        errors = messages.get("json", messages) if isinstance(messages, dict) else messages
        hint = ""
        if isinstance(errors, dict) and {"seat_token", "host_token"} & set(errors):
            hint = (
                " Seat and host tokens are credentials: send them in the header "
                "Authorization: Bearer <token>, not in the body."
            )
        return Problem(
            "invalid_request",
            "Some fields of the request are missing or have the wrong type: "
            + _summarise(errors)
            + hint,
            errors=errors,
        )
    if status == 404:
        unknown = _unknown_game()
        if unknown is not None:
            return unknown
    if status in _BY_STATUS:
        code, template = _BY_STATUS[status]
        detail = template.format(
            path=request.path,
            method=request.method,
            # the request's own limit: a replay takes larger bodies (MAX_RECORD_BYTES)
            limit=request.max_content_length
            if status == 413
            else getattr(error, "description", ""),
        )
        headers = {}
        allowed = getattr(error, "valid_methods", None)
        if status == 405 and allowed:
            headers["Allow"] = ", ".join(allowed)
        return Problem(code, detail, headers=headers)
    if status >= 500:
        return Problem("internal_error", "An unexpected error happened; it has been logged.")
    phrase = http.HTTPStatus(status).phrase if status in http.HTTPStatus._value2member_map_ else ""
    return Problem(
        "http_error",
        error.description or phrase,
        status=status,
        title=phrase or None,
    )


def _unknown_game() -> Problem | None:
    """A URL under /v1/<slug>/... or /v1/games/<slug> naming no game: unknown_game."""
    parts = request.path.strip("/").split("/")
    if len(parts) < 3 or parts[0] != "v1":
        return None
    slug = parts[2] if parts[1] == "games" and len(parts) > 2 else parts[1]
    if (
        slug in ("games", "problems", "lessons")
        or slug in current_app.extensions["chemgames.games"]
    ):
        return None
    return Problem(
        "unknown_game",
        f"No game is called {slug!r}; see /v1/games for the games this service hosts.",
    )


def _is_invalid_json(value: Any) -> bool:
    text = str(value)
    return "Invalid JSON" in text


def _summarise(errors: Any) -> str:
    return shapes.summary(errors, limit=8, root="body")


class ProblemApi(Api):  # type: ignore[misc]  # flask-smorest has no type hints
    """``Api`` whose documented errors are per-operation problems (see ``service.games.docs``):
    no generic default error response is added to each operation."""

    DEFAULT_ERROR_RESPONSE_NAME = None

    documented = True
    """Whether registering a blueprint writes its operations into :attr:`spec` (not
    once the spec is another app's document, :meth:`adopt`)."""

    def adopt(self, document: Document) -> None:
        """Serve ``document``, written by an app built from the same sources
        (:mod:`service.http.documents`), and write nothing more into it."""
        self.spec = document.spec
        self.ma_plugin = document.ma_plugin
        self.flask_plugin = document.flask_plugin
        self.documented = False

    def document(self) -> Document:
        return Document(self.spec, self.ma_plugin, self.flask_plugin)

    def register_blueprint(self, blp: Any, *, parameters: Any = None, **options: Any) -> None:
        if self.documented:
            super().register_blueprint(blp, parameters=parameters, **options)
            return
        # flask-smorest's registration without its part in the document: the routes,
        # and the blueprint's api (which answers its requests' flask_smorest.current_api)
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)


def install_error_handlers(app: Flask) -> None:
    """Every error the service sends is problem+json: HTTP errors, problems, rule
    violations and anything unexpected (a logged 500 with the request id)."""
    app.register_error_handler(HTTPException, lambda e: _send(problem_for_http(e)))
    # the session store is down: every session endpoint answers 503 with Retry-After
    app.register_error_handler(redis.RedisError, lambda e: _send(redis_down(e)))
    app.register_error_handler(Problem, _send)
    app.register_error_handler(RuleViolation, lambda e: _send(from_violation(e)))
    app.register_error_handler(Exception, _unexpected)


def redis_down(err: redis.RedisError) -> Problem:
    """The answer while the session store (Redis) cannot be reached: 503, retry soon."""
    store_log.warning("redis unavailable: %s: %s", type(err).__name__, err)
    return Problem(
        "redis_unavailable",
        "The session store (Redis) cannot be reached right now; retry in "
        f"{REDIS_RETRY_AFTER_SECONDS} seconds. Stateless games are not affected.",
        headers={"Retry-After": str(REDIS_RETRY_AFTER_SECONDS)},
    )


def _send(problem: Problem) -> Response:
    g.problem_code = problem.code
    return problem.response(instance=request.path)


def _unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return _send(problem_for_http(error))
    log.error(
        "unexpected error",
        exc_info=error,
        extra={
            "fields": {
                "request_id": g.get("request_id"),
                "method": request.method,
                "path": request.path,
                "error": type(error).__name__,
            }
        },
    )
    return _send(
        Problem(
            "internal_error",
            "An unexpected error happened; it has been logged with request id "
            f"{g.get('request_id')}.",
            request_id=g.get("request_id"),
        )
    )
