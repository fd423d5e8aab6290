"""Lean JSON responses: views are dumped with orjson, not field by field."""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider

_OPTIONS = orjson.OPT_NON_STR_KEYS
_JSON = "application/json"


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    # content_type, not mimetype: the same header without working it out each time
    resp = Response(orjson.dumps(body, option=_OPTIONS), status, content_type=_JSON)
    if headers:
        for name, value in headers.items():
            resp.headers[name] = value
    return resp


class OrjsonProvider(JSONProvider):
    """Flask's JSON provider backed by orjson (used by jsonify and the spec)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        try:
            return orjson.dumps(obj, option=_OPTIONS | orjson.OPT_SORT_KEYS).decode()
        except TypeError:  # integers beyond 64 bits: the standard library writes them
            return json.dumps(obj, sort_keys=True, default=str)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return Response(self.dumps(obj), mimetype="application/json")
