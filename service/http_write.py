"""One send for an answer's head and its first body bytes (gunicorn's HTTP/1.1 writer).

gunicorn sends a response's status line and headers in one ``sendall`` and its body in
another. On this service's answers (a move's is about 2.6 KB) each send is a system
call that carries the whole TCP path of a loopback or LAN peer, and a profile of the
workers under load (bench/README.md, "perf-move") put the head's own send at about 7%
of a worker's samples. :func:`install` makes gunicorn's ``Response.write`` buffer what
its first call sends (the head, then the body bytes, framed as gunicorn frames them)
and hand it to the socket at once: the same bytes, in the same order, in one send.
Later writes (an event stream's frames) are gunicorn's own, unchanged.
"""

from __future__ import annotations

from typing import Any

from gunicorn.http import wsgi

_WRITE: Any = wsgi.Response.write


class _Gathered:
    """Stands in for the client socket while gunicorn writes: keeps what it sends."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.parts.append(data)


def write(response: Any, data: Any) -> None:
    """gunicorn's ``Response.write``, its first call sending the head with the body."""
    if response.headers_sent or not isinstance(data, bytes):
        _WRITE(response, data)  # later writes, and a wrong type's own TypeError
        return
    client, gathered = response.sock, _Gathered()
    response.sock = gathered
    try:
        _WRITE(response, data)
    finally:
        response.sock = client
        if gathered.parts:  # whatever was framed goes out, even if writing failed after
            client.sendall(b"".join(gathered.parts))


def install() -> None:
    """Use :func:`write` for every HTTP/1.1 answer gunicorn sends (once per process)."""
    wsgi.Response.write = write
