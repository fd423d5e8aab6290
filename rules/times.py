"""Times as the wire gives them: milliseconds since the epoch as an ISO 8601 date-time.

Every time in a record, a clock, a session list or a callback is written by :func:`iso`
(UTC, to the millisecond), so they all read alike.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import overload


@overload
def iso(ms: int) -> str: ...
@overload
def iso(ms: None) -> None: ...
@overload
def iso(ms: int | None) -> str | None: ...


def iso(ms: int | None) -> str | None:
    """A time in ms since the epoch as an ISO 8601 date-time (UTC, milliseconds); None
    stays None.

    >>> iso(1_795_400_000_000)
    '2026-11-23T02:13:20.000+00:00'
    >>> iso(None) is None
    True
    """
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="milliseconds")
