"""Request bodies: JSON parsed with orjson, nesting bounded, errors as problems.

Every Blueprint of the service is an :class:`ApiBlueprint`, whose arguments parser
reads JSON with orjson (a 256 KB body parses in microseconds), refuses nesting deeper
than :data:`MAX_DEPTH` (no request of this API nests deeper than a deal's lists, and
a deeply nested body must not exhaust the stack further down), and lets a body over
the size limit surface as ``413`` even when it arrives chunked.

>>> depth([[1, [2]], {"a": {"b": []}}])
3
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
import orjson
from flask import Request
from flask_smorest import Blueprint
from gunicorn.http.errors import NoMoreData, ParseException
from webargs import core
from webargs.flaskparser import FlaskParser

from .problems import Problem

MAX_DEPTH = 32


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (iteratively: no recursion)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            return level
        stack.extend((child, level) for child in children)
    return deepest


def parse_json_body(data: bytes) -> Any:
    """The JSON value of a request body, or the problem that says why not."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as err:
        if "depth" in str(err):
            raise _too_deep() from None
        raise Problem(
            "malformed_json",
            "The request body is not valid JSON. Check for a missing quote, comma or brace.",
        ) from None
    if depth(value) > MAX_DEPTH:
        raise _too_deep()
    return value


def _too_deep() -> Problem:
    return Problem(
        "json_too_deep",
        f"The request body nests arrays or objects more than {MAX_DEPTH} levels deep; no "
        "request of this API needs that many.",
    )


class JsonParser(FlaskParser):
    """webargs' Flask parser with orjson, a depth limit and problem+json errors."""

    def load_json(self, req: Request, schema: ma.Schema) -> Any:
        if not req.is_json:
            return core.missing
        try:
            data = req.get_data(cache=True)  # over the size limit: 413 when the length is sent
        except (ParseException, NoMoreData):
            # gunicorn finds a broken chunked framing only while the body is read
            raise Problem(
                "bad_http_request",
                "The request body's framing is broken (a chunk size or terminator is wrong, "
                "or the body ends early). Send a well-formed HTTP request.",
                status=400,
            ) from None
        limit = req.max_content_length
        if limit is not None and len(data) >= limit:
            # a chunked body is cut at the limit: reading on raises 413 if there is more
            req.stream.read(1)
        if not data:
            return core.missing
        return parse_json_body(data)


class ApiBlueprint(Blueprint):  # type: ignore[misc]  # flask-smorest has no type hints
    """The service's Blueprint: its request bodies go through :class:`JsonParser`."""

    ARGUMENTS_PARSER = JsonParser()
