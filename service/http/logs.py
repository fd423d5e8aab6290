"""JSON request logs, one line per request, each with a request id."""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import Any

import orjson
from flask import Flask, Response, g, request

log = logging.getLogger("chemgames.request")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            "pid": record.process,  # which worker, where several serve one address
        }
        entry.update(getattr(record, "fields", {}))
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str).decode()


def configure(level: str) -> None:
    root = logging.getLogger("chemgames")
    if not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
    root.setLevel(level.upper())
    root.propagate = False


def _valid_request_id(value: str | None) -> str | None:
    if value and len(value) <= 128 and value.isascii() and value.isprintable():
        return value
    return None


def install(app: Flask) -> None:
    """Give every request an id (honouring X-Request-ID) and log it as JSON."""

    @app.before_request
    def _start() -> None:
        here = g._get_current_object()  # one context look-up for both
        here.request_id = (
            _valid_request_id(request.headers.get("X-Request-ID")) or os.urandom(16).hex()
        )
        here.started = time.perf_counter()

    @app.after_request
    def _finish(response: Response) -> Response:
        here = g._get_current_object()
        request_id = here.get("request_id") or os.urandom(16).hex()
        response.headers["X-Request-ID"] = request_id
        if log.isEnabledFor(logging.INFO):
            elapsed = time.perf_counter() - here.get("started", time.perf_counter())
            log.info(
                "request",
                extra={
                    "fields": {
                        "request_id": request_id,
                        "method": request.method,
                        "path": request.path,
                        "status": response.status_code,
                        "ms": round(elapsed * 1000, 2),
                        "code": here.get("problem_code"),
                        # a move's commits: more than 1 when another seat's came first
                        **({"commits": here.commits} if "commits" in here else {}),
                    }
                },
            )
        return response
