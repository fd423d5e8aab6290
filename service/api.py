"""The flask-smorest ``Api`` with problem+json errors everywhere."""

from __future__ import annotations

import http
import logging
from typing import Any

from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Response, g, request
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException

from rules.core import RuleViolation

from .problems import PROBLEM_JSON, Problem, from_violation
from .schemas.common import ProblemSchema, move_field2properties

log = logging.getLogger("chemgames.errors")

_BY_STATUS = {
    404: ("not_found", "There is nothing at {path}. The API lives under /v1; see /docs."),
    405: ("method_not_allowed", "{method} is not allowed on {path}; see /docs for its methods."),
    413: (
        "body_too_large",
        "The request body is larger than this service accepts ({limit} bytes).",
    ),
    415: ("unsupported_media_type", "Send the body as JSON with Content-Type: application/json."),
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
        return Problem(
            "invalid_request",
            "Some fields of the request are missing or have the wrong type: " + _summarise(errors),
            errors=errors,
        )
    if status in _BY_STATUS:
        code, template = _BY_STATUS[status]
        from flask import current_app

        detail = template.format(
            path=request.path,
            method=request.method,
            limit=current_app.config.get("MAX_CONTENT_LENGTH"),
        )
        headers = {}
        if status == 405 and getattr(error, "valid_methods", None):
            headers["Allow"] = ", ".join(error.valid_methods or [])
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


def _is_invalid_json(value: Any) -> bool:
    text = str(value)
    return "Invalid JSON" in text


def _summarise(errors: Any, prefix: str = "") -> str:
    parts: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, sub in node.items():
                walk(sub, f"{path}.{key}" if path else str(key))
        elif isinstance(node, list) and node and all(isinstance(x, str) for x in node):
            parts.append(f"{path or 'body'}: {' '.join(node)}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{path}[{i}]")
        else:
            parts.append(f"{path or 'body'}: {node}")

    walk(errors, prefix)
    return "; ".join(parts[:8]) + ("; ..." if len(parts) > 8 else "")


class ProblemApi(Api):
    """``Api`` whose errors, documented and actual, are RFC 9457 problems."""

    ERROR_SCHEMA = ProblemSchema

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("spec_kwargs", {})
        kwargs["spec_kwargs"].setdefault("marshmallow_plugin", MarshmallowPlugin())
        super().__init__(*args, **kwargs)

    def _init_spec(self, *args: Any, **kwargs: Any) -> None:
        super()._init_spec(*args, **kwargs)
        self.ma_plugin.converter.add_attribute_function(move_field2properties)

    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Problem details (RFC 9457)", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)

    def _register_error_handlers(self) -> None:
        app = self._app
        app.register_error_handler(HTTPException, self.handle_http_exception)
        app.register_error_handler(Problem, _send)
        app.register_error_handler(RuleViolation, lambda e: _send(from_violation(e)))
        app.register_error_handler(Exception, _unexpected)

    def handle_http_exception(self, error: HTTPException) -> Response:  # type: ignore[override]
        return _send(problem_for_http(error))


def _send(problem: Problem) -> Response:
    g.problem_code = problem.code
    return problem.response(instance=request.path)


def _unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return _send(problem_for_http(error))
    log.exception(
        "unexpected error",
        extra={"fields": {"request_id": g.get("request_id"), "path": request.path}},
    )
    return _send(
        Problem(
            "internal_error",
            "An unexpected error happened; it has been logged with request id "
            f"{g.get('request_id')}.",
            request_id=g.get("request_id"),
        )
    )
