"""A hung Redis is noticed within about a second (issue 27, item 6).

A Redis of this test's own (redis-server on a free loopback port) is paused with
SIGSTOP: its socket still accepts connections, but nothing answers, as with an
overloaded server or a network that drops packets. Hosted requests must answer
``503 redis_unavailable`` after one ``REDIS_TIMEOUT_SECONDS`` (1 s), not after redis-py
retried the timeout twice (3 s and more), and ``/readyz`` must answer (degraded) within
the same second. The bound asserted is generous (2.5 s) for a loaded machine; the
figures measured are in docs/OPERATIONS.md. The server is woken (SIGCONT) and play goes
on, then it is stopped by its PID.
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from flask.testing import FlaskClient

from service import create_app

from .conftest import KEY_A, auth, checked, make_settings
from .redis_servers import Processes, _server_args, binaries, free_ports

pytestmark = pytest.mark.redis
BOUND = 2.5  # seconds: the timeout is 1 s


@pytest.fixture
def paused_redis(tmp_path: Path) -> Iterator[tuple[Processes, int]]:
    server, _ = binaries()
    (port,) = free_ports(1)
    procs = Processes()
    try:
        procs.start(port, _server_args(server, port, tmp_path / "redis"), tmp_path / "r.log")
        yield procs, port
    finally:
        with contextlib.suppress(KeyError, ProcessLookupError):
            procs.signal(port, signal.SIGCONT)
        procs.stop_all()


Answer = TypeVar("Answer")


def timed(call: Callable[[], Answer]) -> tuple[float, Answer]:
    started = time.monotonic()
    answer = call()
    return time.monotonic() - started, answer


@pytest.mark.parametrize("limits_on", [False, True], ids=["limits-off", "limits-on"])
def test_a_paused_redis_is_refused_within_about_a_second(
    paused_redis: tuple[Processes, int], limits_on: bool
) -> None:
    procs, port = paused_redis
    app = checked(
        create_app(
            make_settings(
                KEY_A,
                redis_url=f"redis://127.0.0.1:{port}/0",
                redis_timeout_seconds=1.0,
                rate_limits_enabled=limits_on,
            )
        )
    )
    c: FlaskClient = app.test_client()
    made = c.post("/v1/element-draft/sessions", json={"players": 2, "seed": 5}).get_json()
    base = f"/v1/element-draft/sessions/{made['session_id']}"
    me = auth(made["seats"][0]["seat_token"])
    assert c.get(base, query_string={"seat": 0}, headers=me).status_code == 200

    procs.signal(port, signal.SIGSTOP)
    figures: dict[str, float] = {}
    requests = {
        "GET session": lambda: c.get(base, query_string={"seat": 0}, headers=me),
        "legal-moves": lambda: c.post(f"{base}/legal-moves", json={"seat": 0}, headers=me),
        "create": lambda: c.post("/v1/element-draft/sessions", json={"players": 2}),
    }
    for name, call in requests.items():
        took, answer = timed(call)
        figures[name] = took
        assert answer.status_code == 503, (name, answer.get_json())
        body = answer.get_json()
        assert body["code"] == "redis_unavailable" and answer.headers["Retry-After"]
        assert took < BOUND, (name, took)
    took, ready = timed(lambda: c.get("/readyz"))
    figures["readyz"] = took
    assert ready.status_code == 200 and ready.get_json()["status"] == "degraded"
    assert took < BOUND, ("readyz", took)
    # stateless play never waits on Redis's limit counts for more than the timeout
    took, dealt = timed(lambda: c.post("/v1/element-draft/setup", json={"players": 2}))
    assert dealt.status_code == 201 and took < BOUND
    print(f"\npaused Redis, limits {'on' if limits_on else 'off'}:", figures)

    procs.signal(port, signal.SIGCONT)
    again = c.get(base, query_string={"seat": 0}, headers=me)
    assert again.status_code == 200, "play goes on once Redis answers again"
    assert c.get("/readyz").get_json()["status"] == "ok"
