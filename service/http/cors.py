"""Cross-origin calls from browser front ends (CORS), answered by the service itself.

A preflight (``OPTIONS`` with ``Access-Control-Request-Method``) gets the methods that
URL really has, the request headers this API reads, and ``Access-Control-Max-Age``
so browsers do not repeat it before every call.
"""

from __future__ import annotations

from flask import Flask, Response, request

ALLOW_HEADERS = (
    "Authorization, Content-Type, Idempotency-Key, If-None-Match, Stream-Id, X-Request-ID"
)
EXPOSE_HEADERS = "X-Request-ID, Retry-After, Location, Idempotent-Replayed, ETag, WWW-Authenticate"
MAX_AGE_SECONDS = 600


def install(app: Flask, origins: tuple[str, ...]) -> None:
    anyone = "*" in origins

    @app.after_request
    def _cors(response: Response) -> Response:
        origin = request.headers.get("Origin")
        if not origin or not (anyone or origin in origins):
            return response
        response.headers["Access-Control-Allow-Origin"] = "*" if anyone else origin
        if not anyone:
            response.vary.add("Origin")
        response.headers["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            methods = response.headers.get("Allow")
            if methods:
                response.headers["Access-Control-Allow-Methods"] = methods
            response.headers["Access-Control-Allow-Headers"] = ALLOW_HEADERS
            response.headers["Access-Control-Max-Age"] = str(MAX_AGE_SECONDS)
        return response
