"""Rate limits: per client address, and per operator, on what costs the service most.

Four shared budgets, each counted across every game and both play modes:

- ``setup``: dealing a game (stateless setup and hosted session creation), and what
  replays one (a game's record, a replay), per address;
- ``moves``: moves and bot moves (and a game's own commands), per address;
- ``streams``: opening an event stream, per address;
- ``joins``: a student joining a lesson, per address (wrong join codes have a budget of
  their own, always on: ``service/lessons/seating.py``);
- ``operator-sessions``: hosted session creation, per operator.

A budget is written as the ``limits`` library parses it (``"1800 per minute"``, several
joined by ``;``) and counted with a sliding-window counter: this window's count plus the
previous window's, weighted by how much of it still overlaps the last ``window``
seconds. The counts live in the same Redis as the sessions (any of its kinds: one
server, Cluster, Sentinel), one hash per budget and client under the deployment's key
prefix, expiring with their windows; one Lua script per limited request reads the
Redis clock, checks every limit of the budget and counts the request only if all
allow it, in one round trip. (Flask-Limiter, used before, took two round trips and
about a millisecond of Python per limited request, more than the move itself:
bench/README.md.) Without Redis the counts are kept per process.

Past a budget the answer is ``429 rate_limited`` with ``Retry-After`` and the
``X-RateLimit-*`` headers; every limited answer carries the latter. The defaults let a
class of 30 behind one school address play every game at once (README, OPERATIONS); a
deployment sets its own. If Redis fails, requests are not refused for it.

>>> counted, window = slide(Window(7, 30, 0), now_ms=8_500, amount=40, window_ms=1_000)
>>> counted  # half of the previous window's 30 still weighs: 15 + this one = 16 of 40
Counted(allowed=True, remaining=24, reset_ms=10000, retry_after_ms=0)
>>> window
Window(number=8, hits=1, previous=30)
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

import redis
from flask import Flask, Response, current_app, g, request
from limits import RateLimitItem, parse_many
from werkzeug.middleware.proxy_fix import ProxyFix

from .config import Settings
from .operators import operators
from .problems import Problem
from .redis_client import RedisBackend

log = logging.getLogger("chemgames.limits")

KINDS = ("setup", "moves", "streams", "joins")
HEADERS = {
    "X-RateLimit-Limit": "The budget of requests of this kind in the window.",
    "X-RateLimit-Remaining": "How many are left in the window.",
    "X-RateLimit-Reset": "When the window's budget is whole again (seconds since the epoch).",
}


class Window(NamedTuple):
    """One limit's counts for one client: the window it counted last and the one before."""

    number: int  # the window's number since the epoch (its start / its length)
    hits: int
    previous: int


class Counted(NamedTuple):
    allowed: bool
    remaining: int
    reset_ms: int
    retry_after_ms: int


def slide(
    stored: Window | None, *, now_ms: int, amount: int, window_ms: int
) -> tuple[Counted, Window]:
    """One request against one limit (``amount`` per ``window_ms``), counted if allowed.

    The same arithmetic as the Lua script (``_SCRIPT``), which tests compare it with.
    """
    index = now_ms // window_ms
    count, previous = 0, 0
    if stored is not None and stored.number == index:
        count, previous = stored.hits, stored.previous
    elif stored is not None and stored.number == index - 1:
        previous = stored.hits
    elapsed = now_ms - index * window_ms
    weighted = previous * (window_ms - elapsed) / window_ms + count
    if weighted + 1 > amount:
        return Counted(
            False,
            0,
            _whole(index, count, window_ms),
            _retry(count, previous, elapsed, amount, window_ms),
        ), Window(index, count, previous)
    count += 1
    remaining = max(0, math.floor(amount - weighted - 1))
    return Counted(True, remaining, _whole(index, count, window_ms), 0), Window(
        index, count, previous
    )


def _whole(index: int, count: int, window_ms: int) -> int:
    # this window's count weighs nothing once the next window has passed
    return (index + (2 if count else 1)) * window_ms


def _retry(count: int, previous: int, elapsed: int, amount: int, window_ms: int) -> int:
    """How long until one more request fits: the previous window's share decays in this
    one; past it, this window's count decays in the next."""
    if count + 1 <= amount and previous > 0:
        wait = window_ms * (1 - (amount - count - 1) / previous) - elapsed
        return max(1, math.ceil(wait))
    # at the next window's start this count becomes the decaying share
    later = window_ms * (1 - (amount - 1) / count) if count and amount >= 1 else window_ms
    return max(1, math.ceil(window_ms - elapsed + later))


# KEYS: one hash per limit of the budget (one hash tag: one slot). ARGV: the clock in ms
# ("" reads Redis's: every instance counts on one clock), then per limit its amount and
# window in ms. Answers: allowed (1/0), remaining, reset ms, retry-after ms, and the index
# of the limit that binds (fewest remaining, or the one that refused).
_SCRIPT = """
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local n = #KEYS
local state = {}
local refused, retry = 0, 0
for i = 1, n do
  local amount, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local index = math.floor(now / window)
  local got = redis.call('HMGET', KEYS[i], 'w', 'c', 'p')
  local w, c, p = tonumber(got[1]), tonumber(got[2]) or 0, tonumber(got[3]) or 0
  if w ~= index then
    if w == index - 1 then p = c else p = 0 end
    c = 0
  end
  local elapsed = now - index * window
  local weighted = p * (window - elapsed) / window + c
  state[i] = {index, c, p, weighted, amount, window, elapsed}
  if weighted + 1 > amount then
    local wait
    if c + 1 <= amount and p > 0 then
      wait = math.ceil(window * (1 - (amount - c - 1) / p) - elapsed)
    elseif c > 0 and amount >= 1 then
      wait = math.ceil(window - elapsed + window * (1 - (amount - 1) / c))
    else
      wait = math.ceil(window - elapsed + window)
    end
    if wait < 1 then wait = 1 end
    if refused == 0 or wait > retry then refused, retry = i, wait end
  end
end
local bind, fewest, reset = 1, nil, 0
for i = 1, n do
  local s = state[i]
  local index, c, p, weighted, amount, window = s[1], s[2], s[3], s[4], s[5], s[6]
  local remaining = 0
  if refused == 0 then
    c = c + 1
    redis.call('HSET', KEYS[i], 'w', index, 'c', c, 'p', p)
    redis.call('PEXPIRE', KEYS[i], 2 * window)
    remaining = math.floor(amount - weighted - 1)
    if remaining < 0 then remaining = 0 end
  end
  local whole = (index + 1) * window
  if c > 0 then whole = (index + 2) * window end
  if refused == i or (refused == 0 and (fewest == nil or remaining < fewest)) then
    bind, fewest, reset = i, remaining, whole
  end
end
if refused > 0 then return {0, 0, reset, retry, refused} end
return {1, fewest, reset, 0, bind}
"""


@dataclass(frozen=True)
class Budget:
    """A named budget and its limits, as the settings write them."""

    scope: str
    text: str
    limits: tuple[RateLimitItem, ...]

    @classmethod
    def parse(cls, scope: str, text: str) -> Budget:
        return cls(scope, text, tuple(parse_many(text)))


class Decision(NamedTuple):
    budget: Budget
    counted: Counted
    bind: int  # which of the budget's limits the headers describe


class RedisCounter:
    """The counts in the deployment's Redis (one script call per budget drawn)."""

    def __init__(self, backend: RedisBackend, prefix: str) -> None:
        self.backend = backend
        self.prefix = prefix
        self._script: Any = None

    def call(
        self, budget: Budget, who: str, now_ms: int | None = None
    ) -> tuple[str, list[Any], list[Any]]:
        """The script call that draws on ``budget`` for ``who``: source, keys, arguments."""
        tag = f"{self.prefix}{{{budget.scope}/{who}}}"
        keys = [f"{tag}/{item.amount}/{item.get_expiry()}" for item in budget.limits]
        args: list[Any] = ["" if now_ms is None else now_ms]
        for item in budget.limits:
            args += [item.amount, item.get_expiry() * 1000]
        return _SCRIPT, keys, args

    @staticmethod
    def decision(budget: Budget, answer: list[int]) -> Decision:
        allowed, remaining, reset, retry, bind = answer
        return Decision(budget, Counted(bool(allowed), remaining, reset, retry), bind - 1)

    def draw(self, budget: Budget, who: str, now_ms: int | None = None) -> Decision:
        client = self.backend.client
        if self._script is None:
            self._script = client.register_script(_SCRIPT)
        _, keys, args = self.call(budget, who, now_ms)
        return self.decision(budget, self._script(keys=keys, args=args))

    @property
    def joins_loads(self) -> bool:
        """Whether a draw can ride in a session's load (not on a cluster: other nodes)."""
        return self.backend.kind != "cluster"


class MemoryCounter:
    """The counts in this process (a deployment without Redis)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._windows: dict[tuple[str, str, int], Window] = {}

    def draw(self, budget: Budget, who: str, now_ms: int | None = None) -> Decision:
        now = int(time.time() * 1000) if now_ms is None else now_ms
        with self._lock:
            answers: list[tuple[Counted, Window]] = []
            for n, item in enumerate(budget.limits):
                window_ms = item.get_expiry() * 1000
                answers.append(
                    slide(
                        self._windows.get((budget.scope, who, n)),
                        now_ms=now,
                        amount=item.amount,
                        window_ms=window_ms,
                    )
                )
            refused = [n for n, (c, _) in enumerate(answers) if not c.allowed]
            if refused:
                bind = max(refused, key=lambda n: answers[n][0].retry_after_ms)
                return Decision(budget, answers[bind][0], bind)
            for n, (_, window) in enumerate(answers):
                self._windows[(budget.scope, who, n)] = window
            bind = min(range(len(answers)), key=lambda n: answers[n][0].remaining)
            return Decision(budget, answers[bind][0], bind)


class Limiter:
    """The app's budgets and where they are counted."""

    def __init__(self, settings: Settings, counter: RedisCounter | MemoryCounter) -> None:
        self.counter = counter
        self.budgets = {
            "setup": Budget.parse("setup", settings.rate_limit_setup),
            "moves": Budget.parse("moves", settings.rate_limit_moves),
            "streams": Budget.parse("streams", settings.rate_limit_streams),
            "joins": Budget.parse("joins", settings.rate_limit_joins),
            "operator-sessions": Budget.parse(
                "operator-sessions", settings.rate_limit_operator_sessions
            ),
        }

    def draws(self) -> list[tuple[Budget, str]]:
        """The budgets this request draws on, with whom each counts."""
        name = kind()
        if name is None:
            return []
        out = [(self.budgets[name], address())]
        if name == "setup" and request.path.endswith("/sessions"):
            operator = operator_key()
            if operator != "-":
                out.append((self.budgets["operator-sessions"], operator))
        return out

    def check(self) -> None:
        """Before the request: refuse it past a budget, else count it.

        A move in a hosted session (one Redis server or Sentinel) is counted in the same
        round trip that loads the session (:func:`settle_with_load`), before anything
        else is done with it; if the request ends without loading it (a body refused
        first), it is counted as it ends, and a refusal replaces the answer: the same
        429, for the same requests, as counting first.
        """
        draws = self.draws()
        if not draws:
            return
        counter = self.counter
        if (
            isinstance(counter, RedisCounter)
            and counter.joins_loads
            and request.view_args is not None
            and "session_id" in request.view_args
        ):
            g.rate_limit_pending = draws
            return
        self.settle([self._draw(budget, who) for budget, who in draws])

    def _draw(self, budget: Budget, who: str) -> Decision | None:
        try:
            return self.counter.draw(budget, who)
        except redis.RedisError as err:  # play matters more than the limit
            log.warning("rate limit %s not counted: %s", budget.scope, err)
            return None

    @staticmethod
    def settle(found: list[Decision | None]) -> None:
        decisions = [d for d in found if d is not None]
        for decision in decisions:
            if not decision.counted.allowed:
                raise refusal(decision)
        if decisions:
            g.rate_limit = min(decisions, key=lambda d: d.counted.remaining)

    def pending_calls(self) -> list[tuple[str, list[Any], list[Any]]]:
        """The script calls of this request's draws that wait for its session's load
        (service/sessions/flow.py pipelines them with it)."""
        pending: list[tuple[Budget, str]] | None = g.get("rate_limit_pending")
        if not pending or not isinstance(self.counter, RedisCounter):
            return []
        return [self.counter.call(budget, who) for budget, who in pending]

    def settle_with_load(self, answers: list[Any]) -> None:
        """The draws' answers from the session's load: refuse (429), or note the headers."""
        pending: list[tuple[Budget, str]] = g.pop("rate_limit_pending")
        found = zip(pending, answers, strict=True)
        self.settle([RedisCounter.decision(budget, answer) for (budget, _), answer in found])

    def headers(self, response: Response) -> Response:
        pending = g.pop("rate_limit_pending", None)
        if pending is not None:  # the request ended before loading its session
            try:
                self.settle([self._draw(budget, who) for budget, who in pending])
            except Problem as refused:
                g.problem_code = refused.code
                response = refused.response(instance=request.path)
        decision: Decision | None = g.get("rate_limit")
        if decision is not None:
            response.headers.extend(limit_headers(decision))
        return response


def limit_headers(decision: Decision) -> dict[str, str]:
    counted = decision.counted
    return {
        "X-RateLimit-Limit": str(decision.budget.limits[decision.bind]),
        "X-RateLimit-Remaining": str(counted.remaining),
        "X-RateLimit-Reset": str(math.ceil(counted.reset_ms / 1000)),
    }


def refusal(decision: Decision) -> Problem:
    item = decision.budget.limits[decision.bind]
    retry = max(1, math.ceil(decision.counted.retry_after_ms / 1000))
    return Problem(
        "rate_limited",
        f"Too many requests of this kind from your address (or your operator key) in a "
        f"short time ({item}); retry after {retry} s (the Retry-After header).",
        headers={"Retry-After": str(retry), **limit_headers(decision)},
    )


def kind() -> str | None:
    """Which budget this request draws on (None: a request that is not limited)."""
    rule = request.url_rule
    if rule is None:
        return None
    path, method = rule.rule, request.method
    if path in ("/lti/login", "/lti/launch"):
        return "joins"  # each keeps a state or spends a nonce in Redis: a class's budget
    if not path.startswith("/v1/") or path.startswith("/v1/games") or "/operator/" in path:
        return None
    if method == "GET":
        if path.endswith("/record"):
            return "setup"  # a record replays the whole game: as costly as a deal
        return "streams" if path.endswith("/events") else None
    if method != "POST":
        return None
    if path == "/v1/lessons/join":
        return "joins"
    if path.endswith(("/setup", "/sessions", "/record", "/replay", "/v1/lessons")):
        return "setup"
    if path.endswith(("/moves", "/bot-move")) or (
        "/sessions/<session_id>/" in path
        and not (path.endswith(("/legal-moves", "/view", "/scores")))
    ):
        return "moves"
    return None


def address() -> str:
    """The client's address (after the configured proxies: ``FORWARDED_HOPS``)."""
    return request.remote_addr or "unknown"


def operator_key() -> str:
    """The operator creating a session (``-``: none; not limited by operator)."""
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.strip().partition(" ")
    found = operators().identify(key.strip()) if scheme.lower() == "bearer" else None
    return found or "-"


def install(app: Flask, settings: Settings) -> Limiter | None:
    """Rate-limit ``app`` as the settings say (nothing when limits are off)."""
    if settings.forwarded_hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=settings.forwarded_hops, x_proto=settings.forwarded_hops
        )
    if not settings.rate_limits_enabled:
        return None
    backend: RedisBackend | None = app.extensions.get("chemgames.redis")
    counter: RedisCounter | MemoryCounter = (
        RedisCounter(backend, f"{settings.redis_key_prefix}limits:")
        if backend is not None
        else MemoryCounter()
    )
    limiter = Limiter(settings, counter)
    app.before_request(limiter.check)
    app.after_request(limiter.headers)
    app.extensions["chemgames.limiter"] = limiter
    return limiter


def limited() -> bool:
    """Whether rate limits are on in this app."""
    return "chemgames.limiter" in current_app.extensions
