"""Work that falls due without a request: a Redis sorted set of due items, claimed
with a lease by every worker.

Some work has a time, not a request: a bot seat that thinks for three seconds and
then trades, a timer that reaches zero, later a completion callback to retry. Each
such item is a member ``<kind>:<payload>`` of one sorted set, ``<prefix>{due}``,
scored by when it is due (ms since the epoch, by that Redis server's clock).

Every worker process of every instance runs a :class:`Runner`: every ``poll_ms`` it
claims the items whose time has come, with one Lua script that moves each from the due
set to a leased set, ``<prefix>{due}:leased``, scored by when its lease ends (so no
other worker claims it meanwhile); runs the handler registered for its kind; and
releases it: its lease ends, and it is due again at the time the handler returns (or
never, for ``None``).

What this guarantees, and what it relies on:

* **One runner at a time per item.** The claim is atomic; an item is claimed again
  only once its lease has run out, or once something made it due again meanwhile (a
  move that started a clock: a time set by someone else is never lost to a run that
  saw the state before it).
* **A dead instance's work is picked up.** An instance that dies holding items never
  releases them: their leases run out (``lease_ms``, 5 s by default) and the next
  claim, by any worker, puts them back and runs them.
* **Applied once.** A lease can run out while its handler still runs (a stalled
  process), so two runners may overlap; handlers therefore act through the same
  compare-and-set on a session's version as moves do, and an item run twice applies
  its work once.
* **Lost only with Redis's data.** The schedule lives in Redis: a failover that loses
  recent writes can lose an item scheduled in that instant (docs/OPERATIONS.md).

Both sets share one Redis Cluster hash tag, so on a cluster they live on one shard
and the scripts touch only them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..base.redis_client import ERRORS, RedisBackend

log = logging.getLogger("chemgames.due")

Handler = Callable[[str], "int | None"]
"""Runs one item (its payload); returns when it is next due (ms), or None: done."""

# claim what is due: each claimed item leaves the due set for the leased set, scored
# by its lease's end; a lease that has run out (its claimant died) puts its item back
_CLAIM = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lost = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
for _, item in ipairs(lost) do
  redis.call('ZREM', KEYS[2], item)
  redis.call('ZADD', KEYS[1], 'LT', now, item)
end
local items = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
local lease = now + tonumber(ARGV[2])
for _, item in ipairs(items) do
  redis.call('ZREM', KEYS[1], item)
  redis.call('ZADD', KEYS[2], lease, item)
end
return {now, lease, items}
"""

# release a claimed item: its lease ends (unless another claimant holds it now) and,
# with a next time, it is due again then, or sooner if it was scheduled meanwhile
_RELEASE = """
if tonumber(redis.call('ZSCORE', KEYS[2], ARGV[1]) or -1) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[2], ARGV[1])
end
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[1], 'LT', tonumber(ARGV[3]), ARGV[1]) end
return 1
"""


@dataclass
class DueWork:
    """The due set of one deployment, and the handlers of its kinds of work."""

    backend: RedisBackend
    prefix: str
    lease_ms: int = 5000
    batch: int = 32
    handlers: dict[str, Handler] = field(default_factory=dict)
    _scripts: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The due set: what is due, and when."""
        return f"{self.prefix}{{due}}"

    @property
    def leased(self) -> str:
        """The leased set: what a worker is running, until when."""
        return f"{self.prefix}{{due}}:leased"

    def _script(self, source: str) -> Any:
        found = self._scripts.get(source)
        if found is None:
            found = self._scripts[source] = self.backend.client.register_script(source)
        return found

    @staticmethod
    def member(kind: str, payload: str) -> str:
        return f"{kind}:{payload}"

    def schedule(self, items: dict[str, int]) -> None:
        """Make each item (member -> due ms) due at its time, or earlier if it already is
        (``ZADD LT``: a schedule never postpones work). An item being run meanwhile is
        due again too: what its run returns cannot cancel a time set by someone else."""
        if items:
            self.backend.client.zadd(self.key, items, lt=True)

    def reschedule(self, items: dict[str, int]) -> None:
        """Make each item (member -> due ms) due exactly at its time, sooner or later than
        it was: for work whose time a new fact sets (a bot seat that was just made an
        offer thinks about it from now). An item being run meanwhile is due then too; its
        run's own next time can only bring it sooner (``release``), so its handler must
        itself wait for what is not yet due (``realtime.bot_turn`` does)."""
        if items:
            self.backend.client.zadd(self.key, items)

    def when(self, member: str) -> int | None:
        score = self.backend.client.zscore(self.key, member)
        return None if score is None else int(score)

    def claim(self) -> tuple[int, list[str]]:
        """The items due now, leased to the caller: (their lease's end, members)."""
        _now, lease, items = self._script(_CLAIM)(
            keys=[self.key, self.leased], args=[self.batch, self.lease_ms]
        )
        return int(lease), [i.decode() if isinstance(i, bytes) else str(i) for i in items]

    def release(self, member: str, lease: int, next_ms: int | None) -> None:
        self._script(_RELEASE)(
            keys=[self.key, self.leased],
            args=[member, lease, "" if next_ms is None else int(next_ms)],
        )

    def run(self, member: str) -> int | None:
        """Run one item's handler; an item of no known kind is dropped."""
        kind, _, payload = member.partition(":")
        handler = self.handlers.get(kind)
        if handler is None:
            log.warning("dropping due work of unknown kind %r", member)
            return None
        return handler(payload)

    def run_due(self, wrap: Callable[[Callable[[], None]], None] | None = None) -> int:
        """Claim and run what is due now (one batch); how many items ran."""
        lease, items = self.claim()
        for member in items:

            def one(member: str = member) -> None:
                try:
                    next_ms = self.run(member)
                except ERRORS:
                    raise  # Redis is down: the lease runs out and the item comes back
                except Exception:
                    # a handler that fails keeps failing: log it, retry a little later
                    log.exception("due work %r failed", member)
                    next_ms = lease
                self.release(member, lease, next_ms)

            if wrap is None:
                one()
            else:
                wrap(one)
        return len(items)


class Runner:
    """Runs due work in the background of one worker process: a thread (a greenlet
    under gunicorn's gevent worker) polling every ``poll_ms``."""

    def __init__(
        self,
        due: DueWork,
        wrap: Callable[[Callable[[], None]], None],
        *,
        poll_ms: int = 200,
    ) -> None:
        self.due = due
        self.wrap = wrap
        self.poll = poll_ms / 1000
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Runner:
        self._thread = threading.Thread(target=self._loop, name="chemgames-due", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                ran = self.due.run_due(self.wrap)
            except ERRORS as err:
                log.warning("due work paused: Redis unreachable (%s)", type(err).__name__)
                ran = 0
                self._stop.wait(1.0)
            except Exception:
                log.exception("due work loop failed")
                ran = 0
            if ran < self.due.batch:  # a full batch: more may be due at once
                self._stop.wait(self.poll)
