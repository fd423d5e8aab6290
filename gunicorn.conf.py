"""gunicorn settings for `make serve` and the Docker image (override with env vars)."""

from __future__ import annotations

import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Threads let a long-lived event stream (Polymer, server-sent events) hold one
# thread instead of a whole worker, so streams never starve ordinary requests.
worker_class = "gthread"
threads = int(os.environ.get("THREADS", "8"))
timeout = 30
graceful_timeout = 10
keepalive = 5
accesslog = None  # the app writes one JSON line per request itself
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()


def on_starting(server: object) -> None:
    """Before workers fork: the shared dev key, and an embedded Redis if none is set."""
    from service.config import Settings

    Settings.from_env()  # creates instance/dev-state-key once when STATE_KEYS is unset
    if not os.environ.get("REDIS_URL"):
        from service import embedded_redis

        url = embedded_redis.start(os.environ.get("EMBEDDED_REDIS_DIR", "instance/redis"))
        os.environ["REDIS_URL"] = url  # inherited by every worker
        print(f"no REDIS_URL: started an embedded Redis at {url}", flush=True)


def on_exit(server: object) -> None:
    from service import embedded_redis

    embedded_redis.stop_all()
