"""Who is asking: the client's address, as every per-client bound counts it (rate
limits, stream caps, lesson joins)."""

from __future__ import annotations

from flask import request


def address() -> str:
    """The client's address (after the configured proxies: ``FORWARDED_HOPS``)."""
    return request.remote_addr or "unknown"
