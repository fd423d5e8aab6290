"""Rate limits: per client address, and per operator, on what costs the service most.

Every request but the health probes and static files draws on one budget, each
counted across every game and both play modes:

- ``setup``: dealing a game (stateless setup and hosted session creation), and what
  replays one (a game's record; a replay, which costs one unit per started
  ``REPLAY_COST_BYTES`` of its body), per address;
- ``moves``: moves and bot moves (and a game's own commands), per address;
- ``streams``: opening an event stream, per address;
- ``joins``: a student joining a lesson, per address (wrong join codes have a budget of
  their own, always on: ``service/lessons/seating.py``);
- ``operator-sessions``: hosted session creation, per operator, as well;
- ``reads``: everything else (views, legal moves, scores, the catalogue, the
  operator's endpoints, the pages, the docs), per address;
- ``credentials``: refused credentials (a wrong operator key, host token or seat
  token), per address. A request that carries a credential to an operation that reads
  one is refused ``429 too_many_failed_credentials`` while its address has spent this
  budget; only refusals count.

What a window promises: a budget of N per window W is a sliding-window counter, so no
fixed window (W long, aligned on the clock: each whole minute) ever counts more than N,
and in any span W long the requests let through are at most N plus the previous fixed
window's count times the share of that span it overlaps: fewer than 2N, and about N for
requests spread evenly. A burst that starts late in one minute and goes on into the
next gets up to N in the first minute's remainder and, as that count decays, more in
the next (1,944 moves in 47 s against 1,800 a minute was such a burst).

A budget is written as the ``limits`` library parses it (``"1800 per minute"``, several
joined by ``;``) and counted with a sliding-window counter: this window's count plus the
previous window's, weighted by how much of it still overlaps the last ``window``
seconds. The counts live in the same Redis as the sessions (any of its kinds: one
server, Cluster, Sentinel), one hash per budget and client under the deployment's key
prefix, expiring with their windows; one Lua script per limited request reads the
Redis clock, checks every limit of the budget and counts the request only if all
allow it, in one round trip: with a request's other draw too (the ``credentials``
check of a request that carries one) on one server or Sentinel, and inside a hosted
session's load (``service/sessions/flow.py``); on a cluster each budget's counters are
on their own node, a round trip each. (Flask-Limiter, used before, took two round trips and
about a millisecond of Python per limited request, more than the move itself:
bench/README.md.) Without Redis the counts are kept per process.

Past a budget the answer is ``429 rate_limited`` (credentials:
``429 too_many_failed_credentials``) with ``Retry-After`` and the
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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

import redis
from flask import Flask, Response, current_app, g, request
from flask.globals import request_ctx
from limits import RateLimitItem, parse_many
from werkzeug.middleware.proxy_fix import ProxyFix

from ..base.config import Settings
from ..base.redis_client import RedisBackend
from ..http.client import address
from ..http.problems import Problem
from ..sessions.store import merge
from .operators import operators

log = logging.getLogger("chemgames.limits")

KINDS = ("setup", "moves", "reads", "streams", "joins")
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
    stored: Window | None, *, now_ms: int, amount: int, window_ms: int, cost: int = 1
) -> tuple[Counted, Window]:
    """One request of ``cost`` units against one limit (``amount`` per ``window_ms``),
    counted if allowed; ``cost`` 0 only asks whether one more unit would be allowed
    (and counts nothing). A cost is at most ``amount`` (:meth:`Budget.cost`).

    The same arithmetic as the Lua script (``_SCRIPT``), which tests compare it with.
    """
    need = max(cost, 1)
    index = now_ms // window_ms
    count, previous = 0, 0
    if stored is not None and stored.number == index:
        count, previous = stored.hits, stored.previous
    elif stored is not None and stored.number == index - 1:
        previous = stored.hits
    elapsed = now_ms - index * window_ms
    weighted = previous * (window_ms - elapsed) / window_ms + count
    if weighted + need > amount:
        return Counted(
            False,
            0,
            _whole(index, count, window_ms),
            _retry(count, previous, elapsed, amount, window_ms, need),
        ), Window(index, count, previous)
    count += cost
    remaining = max(0, math.floor(amount - weighted - cost))
    return Counted(True, remaining, _whole(index, count, window_ms), 0), Window(
        index, count, previous
    )


def _whole(index: int, count: int, window_ms: int) -> int:
    # this window's count weighs nothing once the next window has passed
    return (index + (2 if count else 1)) * window_ms


def _retry(
    count: int, previous: int, elapsed: int, amount: int, window_ms: int, need: int = 1
) -> int:
    """How long until ``need`` more units fit: the previous window's share decays in
    this one; past it, this window's count decays in the next."""
    if count + need <= amount and previous > 0:
        wait = window_ms * (1 - (amount - count - need) / previous) - elapsed
        return max(1, math.ceil(wait))
    # at the next window's start this count becomes the decaying share
    later = window_ms * (1 - (amount - need) / count) if count and amount >= need else window_ms
    return max(1, math.ceil(window_ms - elapsed + later))


# KEYS: one hash per limit of the budget (one hash tag: one slot). ARGV: the clock in ms
# ("" reads Redis's: every instance counts on one clock), the request's cost in units (0:
# only ask whether one more unit fits, count nothing), then per limit its amount and
# window in ms. Answers: allowed (1/0), remaining, reset ms, retry-after ms, and the index
# of the limit that binds (fewest remaining, or the one that refused).
_SCRIPT = """
local now
if ARGV[1] ~= '' then now = tonumber(ARGV[1]) else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local cost = tonumber(ARGV[2])
local need = math.max(cost, 1)
local n = #KEYS
local state = {}
local refused, retry = 0, 0
for i = 1, n do
  local amount, window = tonumber(ARGV[2 * i + 1]), tonumber(ARGV[2 * i + 2])
  local index = math.floor(now / window)
  local got = redis.call('HMGET', KEYS[i], 'w', 'c', 'p')
  local w, c, p = tonumber(got[1]), tonumber(got[2]) or 0, tonumber(got[3]) or 0
  if w ~= index then
    if w == index - 1 then p = c else p = 0 end
    c = 0
  end
  local elapsed = now - index * window
  local weighted = p * (window - elapsed) / window + c
  state[i] = {index, c, p, weighted, amount, window, w ~= index}
  if weighted + need > amount then
    local wait
    if c + need <= amount and p > 0 then
      wait = math.ceil(window * (1 - (amount - c - need) / p) - elapsed)
    elseif c > 0 and amount >= need then
      wait = math.ceil(window - elapsed + window * (1 - (amount - need) / c))
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
  local index, c, p, weighted, amount, window, fresh = s[1], s[2], s[3], s[4], s[5], s[6], s[7]
  local remaining = 0
  if refused == 0 then
    if cost > 0 then
      c = c + cost
      if fresh then
        redis.call('HSET', KEYS[i], 'w', index, 'c', c, 'p', p)
        -- set once a window: it keeps the count past the next window's end
        redis.call('PEXPIRE', KEYS[i], 2 * window)
      else
        -- the same window: only its count moves, by the cost as it was sent (a Lua
        -- number handed to Redis is formatted with snprintf, each a few thousand
        -- instructions of the server's)
        redis.call('HINCRBY', KEYS[i], 'c', ARGV[2])
      end
    end
    remaining = math.floor(amount - weighted - cost)
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

    def cost(self, units: int) -> int:
        """``units`` as drawn: never more than the smallest limit (one request, however
        large, can always be let through once the budget is whole)."""
        return min(units, self.smallest)

    @cached_property
    def smallest(self) -> int:
        return min(item.amount for item in self.limits)

    @cached_property
    def slots(self) -> tuple[tuple[str, int, int], ...]:
        """Per limit: its key's tail, its amount and its window in ms (worked out once:
        every limited request's script call names them)."""
        return tuple(
            (f"/{item.amount}/{item.get_expiry()}", item.amount, item.get_expiry() * 1000)
            for item in self.limits
        )


class Decision(NamedTuple):
    budget: Budget
    counted: Counted
    bind: int  # which of the budget's limits the headers describe


class Draw(NamedTuple):
    """What one request draws on one budget: whom it counts for, and how many units
    (0: it only asks that the budget is not spent, as credentials do)."""

    budget: Budget
    who: str
    cost: int = 1


class RedisCounter:
    """The counts in the deployment's Redis (one script call per budget drawn, or one
    for all of a request's draws: :meth:`draw_all`)."""

    def __init__(self, backend: RedisBackend, prefix: str) -> None:
        self.backend = backend
        self.prefix = prefix
        self._script: Any = None
        self._merged: dict[str, Any] = {}  # by source: one per shape of draws

    def call(
        self, budget: Budget, who: str, now_ms: int | None = None, cost: int = 1
    ) -> tuple[str, list[Any], list[Any]]:
        """The script call that draws on ``budget`` for ``who``: source, keys, arguments."""
        tag = f"{self.prefix}{{{budget.scope}/{who}}}"
        slots = budget.slots
        keys = [tag + tail for tail, _, _ in slots]
        args: list[Any] = ["" if now_ms is None else now_ms, budget.cost(cost)]
        for _, amount, window_ms in slots:
            args += (amount, window_ms)
        return _SCRIPT, keys, args

    @staticmethod
    def decision(budget: Budget, answer: list[int]) -> Decision:
        allowed, remaining, reset, retry, bind = answer
        return Decision(budget, Counted(bool(allowed), remaining, reset, retry), bind - 1)

    def draw(self, budget: Budget, who: str, now_ms: int | None = None, cost: int = 1) -> Decision:
        client = self.backend.client
        if self._script is None:
            self._script = client.register_script(_SCRIPT)
        _, keys, args = self.call(budget, who, now_ms, cost)
        return self.decision(budget, self._script(keys=keys, args=args))

    def draw_all(self, draws: Sequence[Draw]) -> list[Decision]:
        """Every one of ``draws``, as :meth:`draw` makes each, in one script call: one
        round trip, on one server or a Sentinel's primary only (their keys are in
        several slots: :attr:`joins_loads`). Redis's clock is read once for them all."""
        source, keys, args = merge([self.call(d.budget, d.who, cost=d.cost) for d in draws])
        script = self._merged.get(source)
        if script is None:
            script = self._merged[source] = self.backend.client.register_script(source)
        answers = script(keys=keys, args=args)
        return [self.decision(d.budget, a) for d, a in zip(draws, answers, strict=True)]

    @property
    def joins_loads(self) -> bool:
        """Whether a draw can ride in a session's load (not on a cluster: other nodes)."""
        return self.backend.kind != "cluster"


class MemoryCounter:
    """The counts in this process (a deployment without Redis)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._windows: dict[tuple[str, str, int], Window] = {}

    def draw(self, budget: Budget, who: str, now_ms: int | None = None, cost: int = 1) -> Decision:
        now = int(time.time() * 1000) if now_ms is None else now_ms
        units = budget.cost(cost)
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
                        cost=units,
                    )
                )
            refused = [n for n, (c, _) in enumerate(answers) if not c.allowed]
            if refused:
                bind = max(refused, key=lambda n: answers[n][0].retry_after_ms)
                return Decision(budget, answers[bind][0], bind)
            if units > 0:
                for n, (_, window) in enumerate(answers):
                    self._windows[(budget.scope, who, n)] = window
            bind = min(range(len(answers)), key=lambda n: answers[n][0].remaining)
            return Decision(budget, answers[bind][0], bind)


FAILED_CREDENTIALS = frozenset({"operator_key_invalid", "host_token_invalid", "seat_token_invalid"})
"""The answers that count against an address's ``credentials`` budget."""


class Limiter:
    """The app's budgets and where they are counted."""

    def __init__(self, settings: Settings, counter: RedisCounter | MemoryCounter) -> None:
        self.counter = counter
        self.replay_unit = settings.replay_cost_bytes
        self.budgets = {
            "setup": Budget.parse("setup", settings.rate_limit_setup),
            "moves": Budget.parse("moves", settings.rate_limit_moves),
            "reads": Budget.parse("reads", settings.rate_limit_reads),
            "streams": Budget.parse("streams", settings.rate_limit_streams),
            "joins": Budget.parse("joins", settings.rate_limit_joins),
            "operator-sessions": Budget.parse(
                "operator-sessions", settings.rate_limit_operator_sessions
            ),
            "credentials": Budget.parse("credentials", settings.rate_limit_failed_credentials),
        }
        # what a request's rule and method draw on, and whether its operation reads a
        # credential, never change while the process runs: asked once per route
        self._kinds: dict[tuple[str, str], str | None] = {}
        self._credentials: dict[tuple[str | None, str], bool] = {}

    def draws(self) -> list[Draw]:
        """The budgets this request draws on, with whom each counts and how much."""
        req = request_ctx.request  # one context look-up, not one per attribute
        name = self.kind()
        if name is None:
            return []
        who = address()
        out = [Draw(self.budgets[name], who, self.cost(name))]
        if name == "setup" and req.path.endswith("/sessions"):
            operator = operator_key()
            if operator != "-":
                out.append(Draw(self.budgets["operator-sessions"], operator))
        if "Authorization" in req.headers and self.takes_credentials():
            out.append(Draw(self.budgets["credentials"], who, 0))
        return out

    def kind(self) -> str | None:
        """:func:`kind`, remembered by route and method."""
        req = request_ctx.request
        rule = req.url_rule
        if rule is None:
            return None
        key = (rule.rule, req.method)
        try:
            return self._kinds[key]
        except KeyError:
            found = self._kinds[key] = kind()
            return found

    def takes_credentials(self) -> bool:
        """:func:`takes_credentials`, remembered by endpoint and method."""
        req = request_ctx.request
        key = (req.endpoint, req.method)
        try:
            return self._credentials[key]
        except KeyError:
            found = self._credentials[key] = takes_credentials()
            return found

    def cost(self, name: str) -> int:
        """A replay costs a deal per started ``REPLAY_COST_BYTES`` of its record."""
        if name == "setup" and request.path.endswith("/replay"):
            return max(1, -(-(request.content_length or 0) // self.replay_unit))
        return 1

    def check(self) -> None:
        """Before the request: refuse it past a budget, else count it.

        A request about a hosted session (one Redis server or Sentinel) is counted in
        the same round trip that loads the session (:func:`settle_with_load`), before
        anything else is done with it; if the request ends without loading it (a body
        refused first), it is counted as it ends, and a refusal replaces the answer: the
        same 429, for the same requests, as counting first.
        """
        draws = self.draws()
        if not draws:
            return
        counter = self.counter
        req = request_ctx.request
        if (
            isinstance(counter, RedisCounter)
            and counter.joins_loads
            and req.view_args is not None
            and "session_id" in req.view_args
            and req.path.startswith("/v1/")
            and not req.path.startswith("/v1/operator/")
        ):
            g.rate_limit_pending = draws
            return
        self.settle(draws, self._draw_all(draws))

    def _draw_all(self, draws: list[Draw]) -> list[Decision | None]:
        """Each draw's decision (None: not counted, Redis failed): in one round trip
        where the counter can (a credential's check beside the request's own draw),
        else one by one, a draw made before a failure keeping its decision."""
        if g.get("redis_failed") is not None or g.get("problem_code") == "redis_unavailable":
            return [None] * len(draws)  # Redis already failed this request: never wait twice
        counter = self.counter
        found: list[Decision | None] = []
        try:
            if len(draws) > 1 and isinstance(counter, RedisCounter) and counter.joins_loads:
                return list(counter.draw_all(draws))
            for draw in draws:
                found.append(counter.draw(draw.budget, draw.who, cost=draw.cost))
        except redis.RedisError as err:  # play matters more than the limit
            scopes = ", ".join(draw.budget.scope for draw in draws[len(found) :])
            log.warning("rate limit %s not counted: %s", scopes, err)
            g.redis_failed = err  # a hosted request then answers 503 at once (flow.store)
        return found + [None] * (len(draws) - len(found))

    def _draw(self, draw: Draw) -> Decision | None:
        return self._draw_all([draw])[0]

    @staticmethod
    def settle(draws: list[Draw], found: Sequence[Decision | None]) -> None:
        """Refuse at the first refusal, or note what the headers describe: what the
        request was counted on (not the credentials check), the fewest remaining (the
        first of equals)."""
        shown: Decision | None = None
        for draw, decision in zip(draws, found, strict=True):
            if decision is None:
                continue
            if not decision.counted.allowed:
                raise refusal(decision)
            if draw.cost > 0 and (
                shown is None or decision.counted.remaining < shown.counted.remaining
            ):
                shown = decision
        if shown is not None:
            g.rate_limit = shown

    def pending_calls(self) -> list[tuple[str, list[Any], list[Any]]]:
        """The script calls of this request's draws that wait for its session's load
        (service/sessions/flow.py pipelines them with it)."""
        pending: list[Draw] | None = g.get("rate_limit_pending")
        if not pending or not isinstance(self.counter, RedisCounter):
            return []
        return [self.counter.call(d.budget, d.who, cost=d.cost) for d in pending]

    def settle_with_load(self, answers: list[Any]) -> None:
        """The draws' answers from the session's load: refuse (429), or note the headers."""
        pending: list[Draw] = g.pop("rate_limit_pending")
        decision = RedisCounter.decision
        found = [decision(d.budget, a) for d, a in zip(pending, answers, strict=True)]
        self.settle(pending, found)

    def headers(self, response: Response) -> Response:
        here = g._get_current_object()  # one context look-up for the four uses below
        pending: list[Draw] | None = here.pop("rate_limit_pending", None)
        if pending is not None:  # the request ended before loading its session
            try:
                self.settle(pending, self._draw_all(pending))
            except Problem as refused:
                here.problem_code = refused.code
                response = refused.response(instance=request.path)
        if here.get("problem_code") in FAILED_CREDENTIALS:
            self._draw(Draw(self.budgets["credentials"], address()))
        decision: Decision | None = here.get("rate_limit")
        if decision is not None:
            add = response.headers.add  # extend() would only call add() after two checks
            for name, value in limit_headers(decision).items():
                add(name, value)
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
    headers = {"Retry-After": str(retry), **limit_headers(decision)}
    if decision.budget.scope == "credentials":
        return Problem(
            "too_many_failed_credentials",
            f"Too many refused credentials (operator keys, host or seat tokens) from your "
            f"address in a short time ({item}); retry after {retry} s (the Retry-After "
            "header) with the token you were given.",
            headers=headers,
        )
    return Problem(
        "rate_limited",
        f"Too many {decision.budget.scope} requests from your address (or your operator "
        f"key) in a short time ({item}); retry after {retry} s (the Retry-After header).",
        headers=headers,
    )


# never counted: probes, and files a browser caches
UNLIMITED = frozenset({"/healthz", "/readyz", "/favicon.ico"})
READS = ("/v1/games", "/v1/problems", "/v1/operator/")


def kind() -> str | None:
    """Which budget this request draws on (None: a request that is not limited).

    Everything but the health probes and static assets draws on one: moves on
    ``moves``, deals, records, replays and new lessons on ``setup``, event streams on
    ``streams``, a student's join and an LTI login or launch on ``joins``, and every
    other request (views, legal moves, scores, the catalogue, the operator's endpoints,
    lessons' reads and controls, the pages and the docs) on ``reads``.
    """
    rule = request.url_rule
    if rule is None or request.method == "OPTIONS":
        return None
    path, method = rule.rule, request.method
    if path in UNLIMITED or "/assets/" in path:
        return None
    if path in ("/lti/login", "/lti/launch"):
        return "joins"  # each keeps a state or spends a nonce in Redis: a class's budget
    if not path.startswith("/v1/") or path.startswith(READS):
        return "reads"
    if method in ("GET", "HEAD"):
        if path.endswith("/record"):
            return "setup"  # a record replays the whole game: as costly as a deal
        return "streams" if path.endswith("/events") else "reads"
    if method != "POST":
        return "reads"
    if path == "/v1/join":
        return "joins"
    if path.endswith(("/setup", "/sessions", "/record", "/replay", "/v1/lessons")):
        return "setup"
    if path.endswith(("/moves", "/bot-move")) or (
        "/sessions/<session_id>/" in path
        and not (path.endswith(("/legal-moves", "/view", "/scores")))
    ):
        return "moves"
    return "reads"


def takes_credentials() -> bool:
    """Whether this request's operation reads a bearer credential (its documented
    security names one: :func:`service.games.docs.operation` marks it)."""
    view = current_app.view_functions.get(request.endpoint or "")
    cls = getattr(view, "view_class", None)
    fn = getattr(cls, request.method.lower(), None) if cls is not None else view
    return bool(getattr(fn, "takes_credentials", False))


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
