"""CPU of the request path around a hosted move, in process, this checkout against another.

    .venv/bin/python -m bench.path_cpu [--batch 200] [--rounds 40] [OTHER_CHECKOUT]

The request path: Flask's request context and routing, the service's before- and
after-request hooks (request id, JSON check, rate limits, gzip, CORS, log), the body's
read, parse and schema load, the answer's ``json_response`` and werkzeug's answer, read
and closed as a WSGI server does. Each process deals an element-draft session and plays
its first move for real (Redis at REDIS_URL, ``bench.move_cpu``'s settings), then sends
that move request (the same body, credential and Idempotency-Key) through the app's
WSGI entry again and again with the move itself (``flow.play``: the session's load and
commit, the rules) replaced by the answer it recorded; the rate-limit draws that ride
in the load are settled as the load would settle them. CPU is ``time.process_time`` per request.

With another checkout named, both run in processes of their own and take turns batch
by batch (first one, then the other, then the other way round), so both see the same
load on a shared machine; the last line is each side's median and the median of the
per-turn ratios (this checkout over the other) with its interquartile range.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from typing import Any, TextIO


def serve(lines: Iterable[str], out: TextIO) -> None:
    """Answer each line (a number of requests) with the CPU microseconds a request."""
    # the checkout this process runs in, not the one this file came from
    mine = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [os.getcwd(), *(p for p in sys.path if os.path.abspath(p or ".") != mine)]
    from bench.move_cpu import in_process_settings

    in_process_settings()
    import orjson
    from flask import current_app
    from werkzeug.test import EnvironBuilder

    from service import create_app
    from service.sessions import flow

    app = create_app()
    client = app.test_client()
    made = client.post("/v1/element-draft/sessions", json={"players": 2}).get_json()
    url = f"/v1/element-draft/sessions/{made['session_id']}"
    headers = {"Authorization": f"Bearer {made['seats'][0]['seat_token']}"}
    legal = client.post(f"{url}/legal-moves", json={"seat": 0}, headers=headers).get_json()
    body = orjson.dumps({"seat": 0, "version": made["version"], "move": legal["moves"][0]})
    headers["Idempotency-Key"] = "path-cpu-1"
    answer = client.post(
        f"{url}/moves", data=body, headers=headers, content_type="application/json"
    )
    assert answer.status_code == 200, answer.get_json()
    recorded = answer.get_json()

    def played(*args: Any, **kwargs: Any) -> tuple[dict[str, Any], bool]:
        limiter = current_app.extensions["chemgames.limiter"]
        calls = limiter.pending_calls()
        limiter.settle_with_load([[1, 1000, 1_000_000, 0, 1] for _ in calls])
        return dict(recorded), False

    flow.play = played
    environ = EnvironBuilder(
        path=f"{url}/moves",
        method="POST",
        data=body,
        content_type="application/json",
        headers=list(headers.items()),
    ).get_environ()
    environ["wsgi.input_terminated"] = True  # as gunicorn's environ says: it ends the body

    def answered(status: str, headers: Any, exc_info: Any = None) -> None:
        assert status.startswith("200"), status

    start_response: Any = answered  # (a WSGI server's would return a write callable)

    def once() -> None:
        # as a WSGI server does: every piece of the answer, then its close()
        answer = app.wsgi_app({**environ, "wsgi.input": io.BytesIO(body)}, start_response)
        try:
            for _ in answer:
                pass
        finally:
            if hasattr(answer, "close"):
                answer.close()

    for _ in range(300):  # warm
        once()
    print("ready", file=out, flush=True)
    for line in lines:
        n = int(line)
        began = time.process_time()
        for _ in range(n):
            once()
        print(f"{1e6 * (time.process_time() - began) / n:.2f}", file=out, flush=True)


def _server(checkout: str) -> subprocess.Popen[str]:
    here = os.path.abspath(__file__)
    proc = subprocess.Popen(
        [sys.executable, here, "--serve"],
        cwd=checkout,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready", checkout
    return proc


def _turn(proc: subprocess.Popen[str], batch: int) -> float:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{batch}\n")
    proc.stdin.flush()
    return float(proc.stdout.readline())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("other", nargs="?", help="another checkout to compare with")
    parser.add_argument("--batch", type=int, default=200, help="requests a turn")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(sys.stdin, sys.stdout)
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sides = [_server(here)] + ([_server(args.other)] if args.other else [])
    spent: list[list[float]] = [[] for _ in sides]
    for r in range(args.rounds):
        for i in list(range(len(sides)))[:: 1 if r % 2 else -1]:
            spent[i].append(_turn(sides[i], args.batch))
    for proc in sides:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    line = f"this checkout: median {statistics.median(spent[0]):.1f} us a request"
    if args.other:
        ratios = sorted(a / b for a, b in zip(spent[0], spent[1], strict=True))
        q = len(ratios) // 4
        line += (
            f", the other: {statistics.median(spent[1]):.1f}; this/other median "
            f"{statistics.median(ratios):.3f} (interquartile {ratios[q]:.3f}-{ratios[-q - 1]:.3f})"
        )
    print(line)


if __name__ == "__main__":
    main()
