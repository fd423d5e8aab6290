"""Lean JSON responses: views are dumped with orjson, not field by field."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

_OPTIONS = orjson.OPT_NON_STR_KEYS
_JSON = "application/json"
_REWRITTEN = frozenset({"location", "content-location"})  # werkzeug makes them URLs


class JsonResponse(Response):
    """A JSON answer, handed to the WSGI server without werkzeug's general care.

    werkzeug's ``get_wsgi_response`` copies the headers to fix a ``Location`` or
    ``Content-Location`` and a missing ``Content-Length``, empties the body of a
    ``HEAD`` or of a 1xx, 204 or 304 answer, and wraps the body in an iterator that
    calls ``close``. None of that changes the usual JSON answer (one bytes body as
    ``set_data`` leaves it, its length set, nothing to call on close): that one is
    handed over as it is, the same status, headers and bytes; any other goes
    werkzeug's way.
    """

    def get_wsgi_response(
        self, environ: WSGIEnvironment
    ) -> tuple[Iterable[bytes], str, list[tuple[str, str]]]:
        body = self.response
        status = self.status_code
        if (
            type(body) is list
            and len(body) == 1
            and type(body[0]) is bytes
            and status >= 200
            and status not in (204, 304)
            and environ["REQUEST_METHOD"] != "HEAD"
            and not self.direct_passthrough
            and not self._on_close
        ):
            headers = self.headers.to_wsgi_list()
            names = {name.lower() for name, _ in headers}  # one pass, not one per name
            if "content-length" in names and not names & _REWRITTEN:
                return body, self.status, headers
        return super().get_wsgi_response(environ)


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    # content_type, not mimetype: the same header without working it out each time
    resp = JsonResponse(orjson.dumps(body, option=_OPTIONS), status, content_type=_JSON)
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
