"""Rate limits: per client address, and per operator, on what costs the service most.

Flask-Limiter (on the ``limits`` library) counts in the same Redis as the sessions
(any of its kinds: one server, Cluster, Sentinel), under the deployment's key prefix;
every counter expires with its window. Four shared budgets, each counted across every
game and both play modes:

- ``setup``: dealing a game (stateless setup and hosted session creation), and what
  replays one (a game's record, a replay), per address;
- ``moves``: moves and bot moves (and a game's own commands), per address;
- ``streams``: opening an event stream, per address;
- ``operator-sessions``: hosted session creation, per operator.

Past a budget the answer is ``429 rate_limited`` with ``Retry-After`` and the
``X-RateLimit-*`` headers. The defaults let a class of 30 behind one school address
play every game at once (README, OPERATIONS); a deployment sets its own. Without Redis
the counts are kept per process. If Redis fails, requests are not refused for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, request
from flask_limiter import ApplicationLimit, HeaderNames, Limiter
from werkzeug.middleware.proxy_fix import ProxyFix

from .config import Settings
from .operators import operators

KINDS = ("setup", "moves", "streams")
HEADERS = {
    "X-RateLimit-Limit": "The budget of requests of this kind in the window.",
    "X-RateLimit-Remaining": "How many are left in the window.",
    "X-RateLimit-Reset": "When the window's budget is whole again (seconds since the epoch).",
}


def kind() -> str | None:
    """Which budget this request draws on (None: a request that is not limited)."""
    rule = request.url_rule
    if rule is None:
        return None
    path, method = rule.rule, request.method
    if not path.startswith("/v1/") or path.startswith("/v1/games") or "/operator/" in path:
        return None
    if method == "GET":
        if path.endswith("/record"):
            return "setup"  # a record replays the whole game: as costly as a deal
        return "streams" if path.endswith("/events") else None
    if method != "POST":
        return None
    if path.endswith(("/setup", "/sessions", "/record", "/replay")):
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

    def budget(name: str) -> Any:
        return lambda: kind() != name

    limits: list[str | Callable[[], str] | ApplicationLimit] = [
        ApplicationLimit(settings.rate_limit_setup, scope="setup", exempt_when=budget("setup")),
        ApplicationLimit(settings.rate_limit_moves, scope="moves", exempt_when=budget("moves")),
        ApplicationLimit(
            settings.rate_limit_streams, scope="streams", exempt_when=budget("streams")
        ),
        ApplicationLimit(
            settings.rate_limit_operator_sessions,
            scope="operator-sessions",
            key_function=operator_key,
            exempt_when=lambda: (
                kind() != "setup" or not request.path.endswith("/sessions") or operator_key() == "-"
            ),
        ),
    ]
    storage, options = _storage(settings)
    limiter = Limiter(
        address,
        app=app,
        application_limits=limits,
        storage_uri=storage,
        storage_options=options,
        strategy="sliding-window-counter",
        headers_enabled=True,
        header_name_mapping={
            HeaderNames.LIMIT: "X-RateLimit-Limit",
            HeaderNames.REMAINING: "X-RateLimit-Remaining",
            HeaderNames.RESET: "X-RateLimit-Reset",
            HeaderNames.RETRY_AFTER: "Retry-After",
        },
        swallow_errors=True,
        in_memory_fallback_enabled=False,
    )
    app.extensions["chemgames.limiter"] = limiter
    return limiter


def _storage(settings: Settings) -> tuple[str, dict[str, Any]]:
    """The ``limits`` storage of the deployment's Redis (``limits`` reads the same URL
    forms: one server, ``redis+cluster://``, ``redis+sentinel://``) and its options: the
    deployment's key prefix, and the session store's timeouts."""
    if not settings.redis_url:
        return "memory://", {}
    url = settings.redis_url
    if url.startswith("unix://"):  # redis-py's socket form; `limits` spells it redis+unix
        url = "redis+unix://" + url.removeprefix("unix://")
    return url, {
        "key_prefix": f"{settings.redis_key_prefix}limits",
        "socket_timeout": settings.redis_timeout_seconds,
        "socket_connect_timeout": settings.redis_timeout_seconds,
    }


def limited() -> bool:
    """Whether rate limits are on in this app."""
    return "chemgames.limiter" in current_app.extensions
