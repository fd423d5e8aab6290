"""The service's requests to a platform (its key set, configuration, token and grade
endpoints), held to the callbacks' rule: the URL's host is resolved and checked at each
call, the connection goes to the address checked, no redirect is followed, and the
answer read is bounded."""

from __future__ import annotations

import http.client
from collections.abc import Mapping
from typing import Any

import orjson
from flask import current_app

from ..http.problems import Problem
from ..sessions.callbacks import _PinnedHTTPS, check_url

MAX_ANSWER = 256 * 1024


class PlatformUnreachable(Exception):
    """The platform did not answer as expected; ``str()`` says how, for a person."""


def request(
    method: str,
    url: str,
    *,
    body: bytes | None = None,
    headers: Mapping[str, str] | None = None,
) -> tuple[int, bytes, str]:
    """``(status, body, content type)``; :class:`PlatformUnreachable` when there is none."""
    settings = current_app.config["SETTINGS"]
    try:
        target = check_url(url, settings.webhook_allow_private)
    except Problem as err:
        raise PlatformUnreachable(
            err.detail.removeprefix("The callback cannot be used: ")
        ) from None
    port = target.port
    sent = {
        "Host": target.host if port in (80, 443) else f"{target.host}:{port}",
        "User-Agent": "chemgames-lti",
        "Accept": "application/json",
        **(headers or {}),
    }
    timeout = settings.webhook_timeout_seconds
    conn: http.client.HTTPConnection
    if target.scheme == "https":
        conn = _PinnedHTTPS(target.addresses[0], port, target.host, timeout)
    else:
        conn = http.client.HTTPConnection(target.addresses[0], port, timeout=timeout)
    try:
        conn.request(method, target.path, body=body, headers=sent)
        answer = conn.getresponse()
        data = answer.read(MAX_ANSWER + 1)
        status, kind = answer.status, answer.getheader("Content-Type", "")
    except (OSError, http.client.HTTPException) as err:
        raise PlatformUnreachable(f"{type(err).__name__}: {err}"[:300]) from None
    finally:
        conn.close()
    if len(data) > MAX_ANSWER:
        raise PlatformUnreachable(f"its answer is larger than {MAX_ANSWER} bytes")
    return status, data, kind


def json_of(status: int, data: bytes, ok: tuple[int, ...] = (200,)) -> Any:
    if status not in ok:
        raise PlatformUnreachable(f"it answered {status}: {data[:200]!r}")
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        raise PlatformUnreachable("its answer is not JSON") from None


def get_json(url: str) -> Any:
    return json_of(*request("GET", url)[:2])
