"""The LTI pages' HTML: small, server-rendered, every value escaped, no inline script.

They are shown inside the LMS's iframe, so unlike the /play pages (``frame-ancestors
'none'``) each may be framed by the origins of the platform it answers, and no other;
a page that knows no platform (a launch too broken to tell) may be framed by none.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from flask import Response

STYLE = "/lti/assets/lti.css"
AUTOPOST = "/lti/assets/autopost.js"
WAIT_SECONDS = 3


def policy(frame_origins: Iterable[str] = (), form_origins: Iterable[str] = ()) -> str:
    frames = " ".join(dict.fromkeys(frame_origins)) or "'none'"
    forms = " ".join(["'self'", *dict.fromkeys(form_origins)])
    return "; ".join(
        (
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self'",
            "connect-src 'self'",
            "base-uri 'none'",
            f"form-action {forms}",
            f"frame-ancestors {frames}",
        )
    )


def page(
    title: str,
    body: str,
    *,
    status: int = 200,
    frame_origins: Iterable[str] = (),
    form_origins: Iterable[str] = (),
    script: bool = False,
    refresh: str = "",
) -> Response:
    """A whole page; ``body`` is HTML already escaped by its maker; ``refresh``: a path
    of this service the page goes to after a few seconds (no script needed)."""
    scripts = f'<script src="{AUTOPOST}" defer></script>' if script else ""
    if refresh:
        scripts += f'<meta http-equiv="refresh" content="{WAIT_SECONDS};url={escape(refresh)}">'
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        f'<link rel="stylesheet" href="{STYLE}">{scripts}</head>'
        f"<body><main><h1>{escape(title)}</h1>{body}</main></body></html>"
    )
    resp = Response(html, status=status, mimetype="text/html")
    frames = list(frame_origins)
    resp.headers["Content-Security-Policy"] = policy(frames, form_origins)
    if not frames:
        resp.headers["X-Frame-Options"] = "DENY"
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Cache-Control"] = "no-store"
    return resp


def refused(
    code: str, title: str, why: str, *, status: int, frame_origins: Iterable[str] = ()
) -> Response:
    """A launch or registration the service refused: what happened and what to do."""
    body = (
        f'<p class="refused" data-code="{escape(code)}">{escape(why)}</p>'
        "<p>Nothing was created. Open the activity again from your course; if this keeps "
        "happening, show this page to your LMS administrator.</p>"
        f"<p><small>Code: <code>{escape(code)}</code></small></p>"
    )
    return page(title, body, status=status, frame_origins=frame_origins)


def autopost(
    title: str, action: str, fields: dict[str, str], *, frame_origins: Iterable[str] = ()
) -> Response:
    """A form the browser posts at once (by the page's script), with a button for a
    browser that runs none."""
    from urllib.parse import urlsplit

    parts = urlsplit(action)
    hidden = "".join(
        f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">' for k, v in fields.items()
    )
    body = (
        f'<form method="post" action="{escape(action)}" data-autopost>{hidden}'
        '<button type="submit">Continue</button></form>'
    )
    return page(
        title,
        body,
        frame_origins=frame_origins,
        form_origins=[f"{parts.scheme}://{parts.netloc}"],
        script=True,
    )
