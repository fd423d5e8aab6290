"""Credentials: seat and host tokens travel in ``Authorization: Bearer <token>``.

They are never read from a body or a URL, so they stay out of access logs and
caches. A missing credential is ``401 credentials_missing`` (with
``WWW-Authenticate: Bearer``); a credential that does not belong to the seat is
``403 seat_token_invalid``.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Literal, overload

from flask import request

from .problems import Problem

SCHEME = "bearer"
MAX_TOKEN = 200


@overload
def bearer(required: Literal[True] = True) -> str: ...
@overload
def bearer(required: bool) -> str | None: ...


def bearer(required: bool = True) -> str | None:
    """The bearer token of this request (``None`` when absent and not required)."""
    header = request.headers.get("Authorization")
    if header is None:
        if not required:
            return None
        raise Problem(
            "credentials_missing",
            "This needs your seat token (or the host token): send it as the header "
            "Authorization: Bearer <token>.",
            headers={"WWW-Authenticate": 'Bearer realm="chemgames"'},
        )
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != SCHEME or not token or len(token) > MAX_TOKEN or not token.isascii():
        raise Problem(
            "credentials_missing",
            "The Authorization header must be 'Bearer <token>' with the seat or host token "
            "you were given at setup.",
            headers={"WWW-Authenticate": 'Bearer realm="chemgames", error="invalid_request"'},
        )
    return token


@functools.lru_cache(maxsize=1024)
def fingerprint(credential: str) -> str:
    """A short, one-way name for a credential (idempotency answers are filed under it).

    Remembered for the last 1,024 credentials of this process (at most ``MAX_TOKEN``
    characters each: about 250 KB), which every request of a move asks again: the
    hash was 3-5 us. Only this function reads the memo."""
    return hashlib.sha256(credential.encode()).hexdigest()[:24]
