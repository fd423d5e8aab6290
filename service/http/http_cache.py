"""HTTP conveniences: ETag + Cache-Control + 304 for documents, gzip for large bodies.

The contract, the catalogue, a game's detail and the problem catalogue never change
while a process runs: they get a strong ``ETag``, ``Cache-Control`` and a
``304 Not Modified`` answer to ``If-None-Match``. Any large JSON response is gzipped
when the client accepts it (the contract is about 250 KB, 30 KB gzipped).
"""

from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache

from flask import Request, Response

MAX_AGE = 300
GZIP_MIN_BYTES = 1400  # about one packet: smaller bodies gain nothing


def _etag(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


@lru_cache(maxsize=64)
def _gzipped(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=6, mtime=0)


def _accepts_gzip(request: Request) -> bool:
    accepted = request.headers.get("Accept-Encoding", "")
    for part in accepted.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def cacheable(resp: Response, request: Request) -> Response:
    """Add validators to a document; answer ``304`` when the client's copy is current."""
    if resp.status_code != 200 or resp.direct_passthrough:
        return resp
    data = resp.get_data()
    tag = _etag(data)
    wanted = {t.strip().removeprefix("W/").strip('"') for t in _if_none_match(request)}
    resp.headers["Cache-Control"] = f"public, max-age={MAX_AGE}"
    resp.headers["Vary"] = "Accept-Encoding"
    gz = _accepts_gzip(request) and len(data) >= GZIP_MIN_BYTES
    current = f"{tag}-gz" if gz else tag
    resp.headers["ETag"] = f'"{current}"'
    if "*" in wanted or tag in wanted or f"{tag}-gz" in wanted:
        resp.status_code = 304
        resp.set_data(b"")
        resp.headers.pop("Content-Type", None)
        return resp
    if gz:
        resp.set_data(_gzipped(data))
        resp.headers["Content-Encoding"] = "gzip"
    return resp


def _if_none_match(request: Request) -> list[str]:
    header = request.headers.get("If-None-Match")
    return [part for part in header.split(",") if part.strip()] if header else []


def compress(resp: Response, request: Request) -> Response:
    """Gzip a large JSON answer when the client accepts it (level 1: cheap)."""
    if (
        not _accepts_gzip(request)  # first: most clients of this API do not send it
        or resp.status_code < 200
        or resp.status_code in (204, 304)
        or resp.direct_passthrough
        or resp.is_streamed
        or "Content-Encoding" in resp.headers
        or not (resp.mimetype or "").endswith("json")
    ):
        return resp
    data = resp.get_data()
    if len(data) < GZIP_MIN_BYTES:
        return resp
    resp.set_data(gzip.compress(data, compresslevel=1, mtime=0))
    resp.headers["Content-Encoding"] = "gzip"
    resp.headers["Vary"] = "Accept-Encoding"
    return resp
