"""A bound on one wait at a time, armed again for each wait without a new timer.

gevent bounds a wait with a new ``gevent.Timeout`` each time (a socket's read that
would block, gunicorn's wait for a kept-alive connection's next request): an object
and an event-loop timer made, started, stopped and freed, 5-13 us here. A
:class:`Deadline` keeps one repeating timer and arms it with ``again()``, which counts
the whole span from that moment (a stopped libev timer that is merely started again
would go on from where it stopped: never used here), for under 1 us.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gevent import get_hub, getcurrent


class Deadline:
    """``seconds`` for each wait between :meth:`start` and :meth:`stop`, after which the
    waiting greenlet gets ``expired()`` raised in it (a new exception each time, so no
    traceback piles up on a shared one). One greenlet waits at a time; its owner stops
    it in a ``finally`` (the timer repeats until stopped, so an expiry the waiter
    swallowed is raised again ``seconds`` later rather than never)."""

    __slots__ = ("_timer", "expired", "seconds", "thrown")

    def __init__(self, seconds: float, expired: Callable[[], BaseException]) -> None:
        self.seconds = seconds
        self.expired = expired
        self.thrown: BaseException | None = None
        # priority -1, as gevent.Timeout's: when the loop finds both due at once (it ran
        # late), the awaited event's callback runs first and the wait ends with it,
        # rather than a timeout the waiter did not wait out
        self._timer: Any = get_hub().loop.timer(seconds, seconds, priority=-1)

    def start(self) -> None:
        self.thrown = None
        self._timer.again(self._expire, getcurrent(), update=True)

    def stop(self) -> None:
        self._timer.stop()

    def close(self) -> None:
        self._timer.stop()
        self._timer.close()

    def _expire(self, waiter: Any) -> None:
        self.thrown = self.expired()
        waiter.throw(self.thrown)
