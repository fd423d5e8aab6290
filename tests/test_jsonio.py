"""A JSON answer handed to the WSGI server as it is (service/http/jsonio.py's
``JsonResponse``) is what werkzeug's own ``get_wsgi_response`` hands over: the same
status, headers and body bytes, for the answers it takes and for those it leaves to
werkzeug (HEAD, 204, 304, a Location, a body made after, something to call on close)."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from typing import Any

import pytest
from flask import Response
from werkzeug.test import EnvironBuilder

from service.http.jsonio import JsonResponse, json_response


def _variants() -> dict[str, Callable[[], Response]]:
    def compressed() -> Response:
        resp = json_response({"view": "v" * 2000})
        resp.set_data(gzip.compress(resp.get_data(), mtime=0))
        resp.headers["Content-Encoding"] = "gzip"
        return resp

    def with_headers() -> Response:
        resp = json_response({"a": 1}, headers={"Idempotent-Replayed": "true"})
        resp.headers["X-Request-ID"] = "abc"
        resp.headers.add("X-RateLimit-Limit", "1800 per 1 minute")
        return resp

    def on_close() -> Response:
        resp = json_response({"a": 1})
        resp.call_on_close(lambda: None)
        return resp

    def streamed() -> Response:
        resp = json_response({"a": 1})
        resp.response = iter([b'{"a":', b"1}"])
        return resp

    def no_length() -> Response:
        resp = json_response({"a": 1})
        del resp.headers["Content-Length"]
        return resp

    def located() -> Response:
        return json_response({"a": 1}, 201, headers={"Location": "/v1/x/sessions/é"})

    def content_located() -> Response:
        return json_response({"a": 1}, headers={"Content-Location": "/v1/é"})

    def empty() -> Response:
        return json_response({}, 204)

    def unchanged() -> Response:
        return json_response({"a": 1}, 304)

    def passthrough() -> Response:
        resp = json_response({"a": 1})
        resp.direct_passthrough = True
        return resp

    def text_body() -> Response:
        resp = json_response({"a": 1})
        resp.response = ['{"a": "é"}']
        return resp

    return {
        "plain": lambda: json_response({"seat": 0, "view": {"hand": [1, 2, 3]}}),
        "created": lambda: json_response({"a": 1}, 201),
        "a problem's status": lambda: json_response({"a": 1}, 409),
        "compressed": compressed,
        "with headers": with_headers,
        "on close": on_close,
        "streamed": streamed,
        "no length": no_length,
        "located": located,
        "content located": content_located,
        "empty": empty,
        "unchanged": unchanged,
        "passthrough": passthrough,
        "text body": text_body,
    }


def _sent(resp: Response, environ: dict[str, Any], way: Any) -> tuple[str, list[Any], bytes]:
    app_iter, status, headers = way(resp, environ)
    try:
        body = b"".join(app_iter)
    finally:
        close = getattr(app_iter, "close", None)
        if close is not None:
            close()
    return status, headers, body


@pytest.mark.parametrize("name", sorted(_variants()))
@pytest.mark.parametrize("method", ["POST", "GET", "HEAD"])
def test_a_json_answer_is_handed_over_as_werkzeug_hands_it(name: str, method: str) -> None:
    make = _variants()[name]
    environ = EnvironBuilder(path="/v1/x", method=method, base_url="http://h.example").get_environ()
    quick = make()
    assert isinstance(quick, JsonResponse)
    assert _sent(quick, environ, JsonResponse.get_wsgi_response) == _sent(
        make(), environ, Response.get_wsgi_response
    )


def test_the_usual_answer_is_its_own_body_and_headers() -> None:
    resp = json_response({"a": 1})
    environ = EnvironBuilder(path="/v1/x", method="POST").get_environ()
    app_iter, _, headers = resp.get_wsgi_response(environ)
    assert app_iter is resp.response and headers == resp.headers.to_wsgi_list()
