"""The browser front end under ``/play``: its pages and their built assets.

The pages are built from ``web/`` (TypeScript) into ``service/static/play/`` and
committed, so serving them needs no Node.js (``tests/test_web_build.py`` checks that the
committed build is what the sources build to). They use only the public API, like any
other front end. Their paths are not in the contract: they are pages for people, and a
client generated from the contract has no use for HTML. The one fact a server needs to
hand out is the shape of a join link, :func:`join_link`.

A seat's credential reaches its page in the URL *fragment*, which a browser never sends
to a server (so it is in no request line, log or ``Referer``); the page moves it to the
tab's ``sessionStorage`` and takes it out of the address bar. Every page is served with
a strict Content-Security-Policy (scripts, styles, images and connections from this
origin only; no inline script or style) and ``Referrer-Policy: no-referrer``.

>>> join_link("element-draft", "3f9c2a7b", 1, "Abc-_12")
'/play/element-draft/3f9c2a7b/seat/1#token=Abc-_12'
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import quote

from flask import Blueprint, Response, current_app, request, send_file
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as BaseResponse

from ..http.problems import Problem

BUILT = Path(__file__).resolve().parent.parent / "static" / "play"
ASSETS = BUILT / "assets"

# script, style, image and connection sources: this origin only; nothing inline, no
# plugin, no <base>; forms post here; no page may frame these (a credential is typed
# into none of them, but a framed seat page could still be clicked through)
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    # revalidated every time (the ETag makes that a 304): a new build's asset names
    # reach the browser as soon as it is deployed
    "Cache-Control": "no-cache",
}
# asset names carry a hash of their content, so a name's content never changes
IMMUTABLE = "public, max-age=31536000, immutable"
PAGES = ("index", "new-game", "seat", "table", "lesson", "join")
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

Framers = Callable[[str], Sequence[str]]
"""The origins that may frame a page opened for an LTI platform, by the platform id its
``?lti=`` names: the app hands in the LTI wing's (:func:`service.lti.platforms.framers`),
so these pages need not know LTI."""


def join_link(slug: str, session_id: str, seat: int, seat_token: str) -> str:
    """The seat page's path for a seat, its credential in the fragment (never sent to
    the server). Prefix it with the service's origin to share it."""
    return f"/play/{slug}/{session_id}/seat/{seat}#token={quote(seat_token, safe='')}"


def table_link(slug: str, session_id: str) -> str:
    """The table page's path (the public view, for a projector: no credential).

    >>> table_link("element-draft", "3f9c2a7b")
    '/play/element-draft/3f9c2a7b/table'
    """
    return f"/play/{slug}/{session_id}/table"


def _page(name: str) -> tuple[bytes, str]:
    # read each time (600 bytes): a rebuilt front end is served at once, without a restart
    data = (BUILT / f"{name}.html").read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:32]


def frame_origins(framers: Framers) -> list[str]:
    """The origins that may frame this page: none, or, for a page an LTI launch opened
    (``?lti=<platform id>``), that registered platform's (service/lti/landing.py)."""
    platform_id = request.args.get("lti")
    return list(framers(platform_id)) if platform_id else []


def _send_page(name: str, framers: Framers) -> BaseResponse:
    try:
        data, tag = _page(name)
    except FileNotFoundError:  # a checkout whose web/ was never built
        raise NotFound() from None
    resp = Response(data, mimetype="text/html")
    resp.headers.update(PAGE_HEADERS)
    origins = frame_origins(framers)
    if origins:
        resp.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY.replace(
            "frame-ancestors 'none'", "frame-ancestors " + " ".join(origins)
        )
        del resp.headers["X-Frame-Options"]
    resp.set_etag(tag)
    return resp.make_conditional(request)


def _known(slug: str, session_id: str) -> None:
    if slug not in current_app.extensions["chemgames.games"]:
        raise Problem(
            "unknown_game",
            f"No game is called {slug!r}; start one at /play (the games: /v1/games).",
        )
    if not SESSION_ID.fullmatch(session_id):
        raise NotFound()


def make_blueprint(framers: Framers) -> Blueprint:
    blp = Blueprint("pages", __name__)

    @blp.get("/")
    def root() -> BaseResponse:
        return _send_page("index", framers)

    @blp.get("/play")
    def new_game() -> BaseResponse:
        return _send_page("new-game", framers)

    @blp.get("/play/join")
    def join() -> BaseResponse:
        return _send_page("join", framers)

    @blp.get("/play/lessons/<lesson_id>")
    def lesson(lesson_id: str) -> BaseResponse:
        if not SESSION_ID.fullmatch(lesson_id):
            raise NotFound()
        return _send_page("lesson", framers)

    @blp.get("/play/<slug>/<session_id>/seat/<int:seat>")
    def seat(slug: str, session_id: str, seat: int) -> BaseResponse:
        _known(slug, session_id)
        return _send_page("seat", framers)

    @blp.get("/play/<slug>/<session_id>/table")
    def table(slug: str, session_id: str) -> BaseResponse:
        _known(slug, session_id)
        return _send_page("table", framers)

    @blp.get("/play/assets/<name>")
    def asset(name: str) -> BaseResponse:
        path = ASSETS / name
        if "/" in name or name.startswith(".") or not path.is_file():
            raise NotFound()
        sent = send_file(path, max_age=None, conditional=True, etag=True)
        sent.headers["Cache-Control"] = IMMUTABLE
        sent.headers["X-Content-Type-Options"] = "nosniff"
        return sent

    return blp
