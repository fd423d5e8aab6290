"""An answer's head and first body bytes leave in one send, byte for byte as gunicorn
frames them (service/http_write.py)."""

from __future__ import annotations

from typing import Any

import pytest
from gunicorn.config import Config
from gunicorn.http import wsgi
from gunicorn.http.parser import RequestParser

from service import http_write


class Socket:
    def __init__(self) -> None:
        self.sends: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sends.append(bytes(data))


def answer(
    method: str, status: str, headers: list[tuple[str, str]], chunks: list[bytes]
) -> list[bytes]:
    """What gunicorn sends, send by send, for one answer to a ``method`` request."""
    cfg = Config()
    raw = f"{method} /v1/x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n".encode()
    req = next(iter(RequestParser(cfg, iter([raw]), ("127.0.0.1", 5000))))
    sock = Socket()
    resp, _ = wsgi.create(req, sock, ("127.0.0.1", 5000), ("127.0.0.1", 8000), cfg)
    resp.start_response(status, headers)
    for chunk in chunks:
        resp.write(chunk)
    resp.close()
    return sock.sends


CASES: list[tuple[str, str, list[tuple[str, str]], list[bytes]]] = [
    ("POST", "200 OK", [("Content-Type", "application/json"), ("Content-Length", "11")],
     [b'{"seat": 0}']),
    ("GET", "200 OK", [("Content-Type", "text/event-stream")],
     [b"event: hello\ndata: {}\n\n", b"event: move\ndata: {}\n\n"]),
    ("HEAD", "200 OK", [("Content-Type", "application/json"), ("Content-Length", "11")],
     [b'{"seat": 0}']),
    ("POST", "204 No Content", [], []),
    ("POST", "200 OK", [("Content-Length", "4")], [b"abcdefgh"]),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=["json", "stream", "head", "empty", "cut"])
def test_the_head_goes_with_the_first_body_bytes_and_the_bytes_are_gunicorns(
    case: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = answer(*case)
    monkeypatch.setattr(wsgi.Response, "write", http_write.write)
    joined = answer(*case)
    assert b"".join(joined) == b"".join(plain)
    method, _, _, chunks = case
    if chunks and method != "HEAD":
        assert len(joined) == len(plain) - 1, (plain, joined)
        assert joined[0].startswith(b"HTTP/1.1 ") and joined[0].endswith(plain[1])
    else:
        assert joined == plain


def test_a_body_that_is_not_bytes_is_still_gunicorns_type_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(wsgi.Response, "write", http_write.write)
    with pytest.raises(TypeError):
        answer("POST", "200 OK", [("Content-Length", "2")], ["no"])  # type: ignore[list-item]
