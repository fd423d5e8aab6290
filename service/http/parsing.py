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

import functools
import inspect
from collections.abc import Callable
from typing import Any, cast

import marshmallow as ma
import orjson
from flask import Request
from flask.globals import request_ctx
from flask_smorest import Blueprint
from gunicorn.http.errors import NoMoreData, ParseException
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge
from werkzeug.wsgi import get_content_length

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
    # a value nesting deeper than MAX_DEPTH needs more than MAX_DEPTH opening brackets
    # in its text (those inside strings only add to the count): most bodies are not
    # walked at all
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH and depth(value) > MAX_DEPTH:
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
            data = read_body(req)  # over the size limit: 413
        except (ParseException, NoMoreData):
            # gunicorn finds a broken chunked framing only while the body is read
            raise Problem(
                "bad_http_request",
                "The request body's framing is broken (a chunk size or terminator is wrong, "
                "or the body ends early). Send a well-formed HTTP request.",
                status=400,
            ) from None
        if not data:
            return core.missing
        return parse_json_body(data)


_CHUNK = 64 * 1024  # what werkzeug's LimitedStream.readall asks of the stream at a time


def read_body(req: Request) -> bytes:
    """The request body, as ``req.get_data(cache=True)`` reads and caches it, and ``413``
    for a body that reaches the size limit (a chunked body is cut there: reading on
    raises 413, as werkzeug's stream does).

    For a body the server ends itself (``wsgi.input_terminated``: gunicorn), werkzeug
    reads through a ``LimitedStream`` capped at the limit, made by a cached property
    that asks Flask's config, whose every read fills a new 64 KB buffer: 13 us for a
    move's 60 bytes. A body not read yet is read here from the server's stream in the
    same reads: the same bytes, cached the same way, ``413`` for a declared length over
    the limit before reading, ``ClientDisconnected`` for a read that fails, anything
    else raised as it comes. Any other request goes werkzeug's way.
    """
    environ = req.environ
    limit = req.max_content_length
    if (
        "wsgi.input_terminated" not in environ
        or limit is None
        or req.shallow
        or getattr(req, "_cached_data", None) is not None
        or "stream" in req.__dict__
    ):
        data = req.get_data(cache=True)
        if limit is not None and len(data) >= limit:
            req.stream.read(1)
        return data
    length = get_content_length(environ)
    if length is not None and length > limit:
        raise RequestEntityTooLarge()
    stream = environ["wsgi.input"]
    chunks: list[bytes] = []
    read = 0
    while read < limit:
        try:
            chunk = stream.read(min(_CHUNK, limit - read))
        except (OSError, ValueError) as err:
            raise ClientDisconnected() from err
        if not chunk:
            break
        chunks.append(chunk)
        read += len(chunk)
    data = req._cached_data = b"".join(chunks)
    if read >= limit:
        raise RequestEntityTooLarge()
    return data


F = Callable[..., Any]
_UNKNOWN_DEFAULT = core._UNKNOWN_DEFAULT_PARAM


def quick_loader(schema: ma.Schema, **load_kwargs: Any) -> Callable[[Any], Any]:
    """``schema.load(data, **load_kwargs)``, with marshmallow's bookkeeping skipped for
    a body it accepts, where the schema lets that be the same thing.

    For a schema with no hooks (no ``pre_load``, ``post_load``, ``validates``,
    ``validates_schema``), not ``many``, no ``partial``, refusing unknown members, whose
    fields are stored under plain names, marshmallow's load of a valid body is: each
    load field's ``deserialize`` in declared order, its value stored unless missing.
    That is all the quick path does; anything else (an unknown member, a field that
    refuses its value, a body that is not an object) is loaded again by
    ``schema.load``, which raises the same ``ValidationError`` with the same messages
    as ever. A field that raises anything else (a problem) raises it as it does
    inside marshmallow, after the same fields before it.
    """
    unknown = load_kwargs.get("unknown") or schema.unknown
    plan: list[tuple[str, str, Callable[..., Any]]] = []
    for name, field in schema.load_fields.items():
        key = field.attribute or name
        plan.append((name if field.data_key is None else field.data_key, key, field.deserialize))
    if (
        schema.many
        or schema.partial is not None
        or unknown != ma.RAISE
        or any(schema._hooks.values())
        or any("." in key for _, key, _ in plan)
    ):
        return functools.partial(schema.load, **load_kwargs)
    known = frozenset(data_key for data_key, _, _ in plan)
    missing = ma.missing
    make = schema.dict_class

    def load(data: Any) -> Any:
        if type(data) is not dict or not known.issuperset(data):
            return schema.load(data, **load_kwargs)  # says which member is unknown
        out = make()
        try:
            for data_key, key, deserialize in plan:
                value = deserialize(data.get(data_key, missing), data_key, data)
                if value is not missing:
                    out[key] = value
        except ma.ValidationError:
            return schema.load(data, **load_kwargs)  # collects every field's messages
        return out

    return load


class ApiBlueprint(Blueprint):  # type: ignore[misc]  # flask-smorest has no type hints
    """The service's Blueprint: its request bodies go through :class:`JsonParser`, and
    its arguments are parsed without the layers around them (:meth:`arguments`)."""

    ARGUMENTS_PARSER = JsonParser()

    def arguments(
        self, schema: Any, *, location: str = "json", unknown: Any = _UNKNOWN_DEFAULT, **kwargs: Any
    ) -> Callable[[F], F]:
        """flask-smorest's ``arguments``, documented by it, parsed in one step.

        flask-smorest wraps the view in a function that only calls it, and webargs in
        one that works out at every request what it could know once (the request, the
        schema, the loader, ``unknown``). Here
        the documentation is flask-smorest's own, and a request calls the same loader
        and the same ``schema.load`` with the same ``unknown``, and answers an invalid
        body through webargs' own error path (the same 422, with the same messages
        under the location's name). The parsed arguments are passed positionally after
        the view's own, as webargs does. Anything else (a dict or a callable for a
        schema, webargs' other options, a coroutine) is left to flask-smorest.
        """
        extra = {} if unknown == _UNKNOWN_DEFAULT else {"unknown": unknown}
        document = super().arguments(schema, location=location, **extra, **kwargs)
        parser: JsonParser = self.ARGUMENTS_PARSER
        docs_only = {"content_type", "required", "description", "example", "examples"}
        if not isinstance(schema, (ma.Schema, type)) or set(kwargs) - docs_only:
            return document  # type: ignore[no-any-return]
        load = parser._get_loader(location)
        if unknown == _UNKNOWN_DEFAULT:
            unknown = (
                parser.unknown
                if parser.unknown != _UNKNOWN_DEFAULT
                else parser.DEFAULT_UNKNOWN_BY_LOCATION.get(location)
            )
        load_kwargs = {"unknown": unknown} if unknown else {}
        fixed: ma.Schema | None = schema if isinstance(schema, ma.Schema) else None
        make = cast(Callable[[], ma.Schema], schema)  # a Schema class, when not fixed
        quick = quick_loader(fixed, **load_kwargs) if fixed is not None else None

        def decorator(fn: F) -> F:
            documented = document(fn)
            if inspect.iscoroutinefunction(fn):
                return documented  # type: ignore[no-any-return]

            @functools.wraps(fn)
            def parsed(*args: Any, **kw: Any) -> Any:
                req = request_ctx.request
                loader = fixed if fixed is not None else make()
                data = load(req, loader)
                if data is core.missing:
                    data = {}
                try:
                    value = quick(data) if quick is not None else loader.load(data, **load_kwargs)
                except ma.ValidationError as error:
                    parser._on_validation_error(
                        error, req, loader, location, error_status_code=None, error_headers=None
                    )
                return fn(*args, value, **kw)

            parsed._apidoc = documented._apidoc  # type: ignore[attr-defined]
            return parsed

        return decorator
