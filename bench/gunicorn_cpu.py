"""CPU of gunicorn's own work around one hosted move request, for before/after comparisons.

    .venv/bin/python -m bench.gunicorn_cpu [--requests 3000] [--repeats 7]

``bench.move_cpu`` starts at the app's WSGI entry; this measures what gunicorn does
around it, in process and without gevent: read a move request (the head undici sends
for bench/bgio's devices, with a bearer token and an Idempotency-Key) off a socket,
build its environ, read its body, start the response and write it (a sized JSON answer
of 1.5 KB), and the client's read of the answer (the same for every variant). CPU per
request (``time.process_time``) of two ways, run in turns:

* ``gunicorn``: gunicorn's Python parser, its ``Response``, ``formatdate`` each answer;
* ``this config``: what gunicorn.conf.py's worker does: the C parser where
  ``gunicorn_h1c`` is installed, ``OneWriteResponse``, ``DateOfThisSecond``, its
  settings frozen (``freeze_settings``) and its peers' trust remembered
  (``TrustedPeers``);
* ``settings read``: the same but the last two, gunicorn's way (each request reads its
  settings through ``Config.__getattr__`` and parses the peer's address).

Prints each run, then the median and range of each way. The machine is shared: compare
medians, and the ranges to the load average printed with them.
"""

from __future__ import annotations

import argparse
import os
import runpy
import socket
import statistics
import time
from pathlib import Path
from typing import Any

from gunicorn import http as gunicorn_http
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import message, wsgi

ROOT = Path(__file__).resolve().parent.parent
PEER = ("127.0.0.1", 40000)
BODY = b'{"seat":1,"version":12,"move":{"type":"draft","card":26}}'
REQUEST = (
    b"POST /v1/element-draft/sessions/5f0c3c9e2b7a4d1e9c8b7a6f5e4d3c2b/moves HTTP/1.1\r\n"
    b"host: 127.0.0.1:8000\r\nconnection: keep-alive\r\ncontent-type: application/json\r\n"
    b"authorization: Bearer " + b"s" * 180 + b"\r\n"
    b"idempotency-key: 5f0c3c9e2b7a4d1e9c8b7a6f5e4d3c2b-1-7\r\n"
    b"content-length: " + str(len(BODY)).encode() + b"\r\n\r\n" + BODY
)
ANSWER = b'{"view":"' + b"v" * 1500 + b'"}'
ANSWER_HEADERS = [
    ("Content-Type", "application/json"),
    ("Content-Length", str(len(ANSWER))),
    ("Cache-Control", "no-store"),
    ("X-Request-ID", "0123456789abcdef0123456789abcdef"),
    ("RateLimit-Policy", '"moves";q=1800;w=60'),
    ("RateLimit", '"moves";r=1799;t=60'),
]


def serve(cfg: Config, response_class: Any, requests: int) -> float:
    """Microseconds of CPU a request, over ``requests`` on one keep-alive connection."""
    client, server = socket.socketpair()
    with client, server:
        parser = gunicorn_http.get_parser(cfg, server, PEER)
        started = time.process_time()
        for _ in range(requests):
            client.sendall(REQUEST)
            request = next(parser)
            response, environ = wsgi.create(
                request, server, PEER, ("127.0.0.1", 8000), cfg, response_class=response_class
            )
            environ["wsgi.input"].read()
            response.start_response("200 OK", ANSWER_HEADERS)
            response.write(ANSWER)
            response.close()
            received = b""
            while not received.endswith(ANSWER):
                received += client.recv(65536)
        return (time.process_time() - started) / requests * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    formatdate = util.http_date
    ways = {
        "gunicorn": ("python", wsgi.Response, formatdate, False),
        "settings read": (config["http_parser"], config["OneWriteResponse"], None, False),
        "this config": (config["http_parser"], config["OneWriteResponse"], None, True),
    }
    check = message._ip_in_allow_list
    results: dict[str, list[float]] = {name: [] for name in ways}
    try:
        for _ in range(args.repeats):
            for name, (http_parser, response_class, http_date, frozen) in ways.items():
                cfg = Config()
                cfg.set("http_parser", http_parser)
                util.http_date = http_date or config["DateOfThisSecond"](formatdate)
                message._ip_in_allow_list = check
                if frozen:
                    config["freeze_settings"](cfg)
                    message._ip_in_allow_list = config["TrustedPeers"](check)
                results[name].append(serve(cfg, response_class, args.requests))
                print(f"{name:13} {results[name][-1]:7.1f} us CPU a request", flush=True)
    finally:
        util.http_date = formatdate
        message._ip_in_allow_list = check
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    for name, runs in results.items():
        print(
            f"{name:13} median {statistics.median(runs):6.1f} us "
            f"({min(runs):.1f}-{max(runs):.1f}), load {load}"
        )


if __name__ == "__main__":
    main()
