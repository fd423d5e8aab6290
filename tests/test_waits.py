"""service/base/waits.py: one timer per waiter, armed afresh for each wait.

Run on gevent's hub in this process (no patches): a blocking ``time.sleep`` stalls its
loop, as a busy worker does."""

from __future__ import annotations

import time

import gevent
import pytest
from gevent import socket

from service.base.waits import Deadline


def _read_with(deadline: Deadline, sock: socket.socket) -> bytes:
    deadline.start()
    try:
        return bytes(sock.recv(100))
    finally:
        deadline.stop()


def test_each_wait_gets_the_whole_bound() -> None:
    mine, theirs = socket.socketpair()
    deadline = Deadline(0.3, TimeoutError)
    try:
        for _ in range(3):  # answered 0.2 s in: never expired, though 0.6 s pass in all
            gevent.spawn_later(0.2, theirs.sendall, b"x")
            assert _read_with(deadline, mine) == b"x"
        for _ in range(2):  # nothing comes: the whole 0.3 s each time, then TimeoutError
            started = time.monotonic()
            with pytest.raises(TimeoutError):
                _read_with(deadline, mine)
            assert 0.25 < time.monotonic() - started < 2
        gevent.sleep(0.5)  # stopped: nothing is raised later
    finally:
        deadline.close()
        mine.close()
        theirs.close()


def test_an_answer_due_with_the_deadline_wins() -> None:
    """A loop that ran late finds the answer and the deadline due at once: the answer's
    callback runs first (the timer's priority, as gevent.Timeout's), so the waiter gets
    what came rather than a timeout it did not wait out (a stalled worker would drop
    connections whose request had arrived)."""
    mine, theirs = socket.socketpair()
    deadline = Deadline(0.1, TimeoutError)

    def answer_then_stall() -> None:
        theirs.sendall(b"x")
        time.sleep(0.4)  # blocks the loop: both are due when it runs again

    try:
        for _ in range(3):
            gevent.spawn(answer_then_stall)
            assert _read_with(deadline, mine) == b"x"
    finally:
        deadline.close()
        mine.close()
        theirs.close()
