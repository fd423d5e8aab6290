"""The container health check: GET /healthz on the address gunicorn binds (BIND).

Run by the image's HEALTHCHECK and compose's health checks as
`python /app/healthcheck.py`; exits 0 when the answer is 200. Standard library
only, so a probe every few seconds costs a bare interpreter, not the service's
imports. BIND takes gunicorn's forms: `HOST`, `HOST:PORT`, `[IPV6]:PORT`,
`unix:PATH`.
"""

from __future__ import annotations

import http.client
import os
import socket
import sys

DEFAULT_BIND = "127.0.0.1:8000"  # gunicorn.conf.py's default
WILDCARDS = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}


def target(bind: str) -> tuple[str, int] | str:
    """Where to reach a server bound to `bind`: (host, port), or a unix socket's path.

    >>> target("0.0.0.0:8080")
    ('127.0.0.1', 8080)
    >>> target("[::]:9000"), target("10.1.2.3")
    (('::1', 9000), ('10.1.2.3', 8000))
    >>> target("unix:/run/chemgames.sock")
    '/run/chemgames.sock'
    """
    bind = bind.strip()
    if bind.startswith("unix:"):
        return bind.removeprefix("unix:")
    if bind.startswith("["):
        host, _, rest = bind[1:].partition("]")
        port = rest.removeprefix(":") or "8000"
    elif bind.count(":") == 1:
        host, port = bind.split(":")
    else:  # a bare host name or IPv4 address (gunicorn's default port is 8000)
        host, port = bind, "8000"
    return WILDCARDS.get(host, host), int(port)


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self.path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def healthy(bind: str, timeout: float = 2.0) -> bool:
    where = target(bind)
    conn = (
        _UnixConnection(where, timeout)
        if isinstance(where, str)
        else http.client.HTTPConnection(*where, timeout=timeout)
    )
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


if __name__ == "__main__":
    sys.exit(0 if healthy(os.environ.get("BIND") or DEFAULT_BIND) else 1)
