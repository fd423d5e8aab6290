"""Configuration from the environment, read once by the app factory."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.fernet import Fernet

# where docs/ and instance/ live: the checkout, or CHEMGAMES_HOME in an installed image
ROOT = Path(os.environ.get("CHEMGAMES_HOME") or Path(__file__).resolve().parents[2])


SEALS = ("aead", "fernet")


class ConfigError(ValueError):
    """A setting the service cannot start with; the message says what to set."""


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


def _flag(env: dict[str, str], name: str) -> bool:
    """A yes/no setting; unset or empty is no.

    >>> _flag({"X": "1"}, "X"), _flag({"X": "Off"}, "X"), _flag({}, "X")
    (True, False, False)
    """
    value = env.get(name, "").strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"", "0", "false", "no", "off"}:
        return False
    raise ConfigError(f"{name} must be 1 or 0 (true/false, yes/no, on/off), not {value!r}.")


NO_STATE_KEYS = (
    "STATE_KEYS is not set, and REQUIRE_STATE_KEYS forbids a key of this instance's own "
    "(other instances could not open its tokens, and a restart would void every token in "
    "play). Set STATE_KEYS to one or more comma-separated Fernet keys, the same on every "
    "instance; make one with: python -c 'from cryptography.fernet import Fernet; "
    "print(Fernet.generate_key().decode())'"
)


def dev_key(path: Path) -> str:
    """The development state key: created once, then shared by every worker.

    ``O_EXCL`` makes creation race-free when several gunicorn workers start together.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):
            key = path.read_text().strip()
            if key:
                return key
            # another worker created the file and is about to write it
            os.sched_yield()
        raise RuntimeError(f"development key file {path} is empty") from None
    key = Fernet.generate_key().decode()
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    return key


@dataclass(frozen=True)
class Settings:
    """Everything the service reads from its environment (see README, Configuration)."""

    state_keys: tuple[str, ...] = field(repr=False)
    # how new state tokens are sealed: "aead" (AES-GCM-SIV) or "fernet" (before issue
    # 32); both always open, so a rolling upgrade seals "fernet" until every instance
    # runs a version that opens "aead" (docs/OPERATIONS.md)
    state_seal: str = "aead"
    redis_url: str | None = None
    max_body_bytes: int = 256 * 1024
    # a record sent back to be replayed holds every step's events (a long game: ~1 MB)
    max_record_bytes: int = 8 * 1024 * 1024
    # the most steps a replayed record may have (the longest random game: 2,000 steps)
    max_replay_steps: int = 10_000
    # replays whose rules run at once in one worker process (the others wait)
    replay_concurrency: int = 1
    cors_origins: tuple[str, ...] = ("*",)
    log_level: str = "INFO"
    session_ttl_seconds: int = 6 * 3600
    redis_timeout_seconds: float = 1.0
    # what every key the service writes starts with (several deployments, or test runs,
    # can share one Redis)
    redis_key_prefix: str = "chemgames:"
    # one per greenlet a gevent worker may run (gunicorn's worker_connections): a request
    # then never waits for a connection; past it, requests wait up to the pool timeout
    redis_max_connections: int = 1000
    redis_pool_timeout_seconds: float = 5.0
    # acknowledge a move only once this many replicas have it (WAIT; docs/OPERATIONS.md)
    redis_wait_replicas: int = 0
    redis_wait_timeout_ms: int = 100
    # operators (OPERATOR_KEYS): when set, only they create hosted sessions
    operator_keys: tuple[str, ...] = field(default=(), repr=False)
    operator_session_quota: int = 200
    # rate limits (the `limits` notation: "N per minute; M per hour"), per client
    # address and per operator; sized for a class of 30 behind one school address
    rate_limit_setup: str = "120 per minute"
    rate_limit_moves: str = "1800 per minute"
    rate_limit_streams: str = "240 per minute"
    rate_limit_operator_sessions: str = "600 per minute"
    # views, legal moves, scores, the catalogue, the operator's endpoints, the pages: a
    # class of 30 at a human pace made 584 reads in its busiest minute (bench/README.md)
    rate_limit_reads: str = "2400 per minute"
    # refused operator keys, host and seat tokens, per address
    rate_limit_failed_credentials: str = "30 per minute; 200 per hour"
    # a replay draws one unit of the setup budget per started this many bytes of record
    replay_cost_bytes: int = 256 * 1024
    rate_limit_joins: str = "300 per minute"
    rate_limits_enabled: bool = True
    # how many proxies in front set X-Forwarded-For (the shipped nginx: 1), so that the
    # client's own address is the one limited
    forwarded_hops: int = 0
    # work that falls due without a request (service/sessions/due.py): each worker runs it
    due_work: bool = True
    due_poll_ms: int = 200
    due_lease_ms: int = 5000
    # completion callbacks (service/sessions/callbacks.py)
    webhook_allow_private: bool = False
    webhook_timeout_seconds: float = 5.0
    webhook_backoff_seconds: tuple[float, ...] = (0, 5, 30, 120, 600, 1800, 3600, 7200, 14400)
    sse_max_seconds: float = 300.0
    sse_heartbeat_seconds: float = 15.0
    sse_max_streams: int = 500
    # each address's and each operator's share, across every instance (0: no bound): a
    # school of 30 devices with a few streams each fits an address's
    sse_max_streams_per_address: int = 150
    sse_max_streams_per_operator: int = 400
    # LTI 1.3 (service/lti/): the tool's signing keys from PEM files (the first signs,
    # all are published); without them the keys are made and kept in Redis, sealed
    lti_key_files: tuple[str, ...] = ()
    # a key added by rotation is published this long before it signs (platforms cache
    # a tool's key set)
    lti_key_publish_seconds: int = 3600
    # lessons (service/lessons/): results kept this long after the tables' sessions;
    # wrong join codes an address may send per window before its joins are refused
    lesson_retention_seconds: int = 7 * 86400
    lesson_join_misses: int = 20
    lesson_join_window_seconds: int = 600

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        keys = _split(env.get("STATE_KEYS"))
        if _flag(env, "REQUIRE_STATE_KEYS") and not keys:
            raise ConfigError(NO_STATE_KEYS)
        if not keys:
            key_file = Path(env.get("DEV_KEY_FILE", ROOT / "instance" / "dev-state-key"))
            keys = (dev_key(key_file),)
        seal = env.get("STATE_SEAL", "aead").strip().lower()
        if seal not in SEALS:
            raise ConfigError(
                f"STATE_SEAL is {seal!r}; it must be one of {', '.join(SEALS)} (how new state "
                "tokens are sealed; every instance opens both)."
            )
        return cls(
            state_keys=keys,
            state_seal=seal,
            redis_url=env.get("REDIS_URL") or None,
            max_body_bytes=int(env.get("MAX_BODY_BYTES", 256 * 1024)),
            max_record_bytes=int(env.get("MAX_RECORD_BYTES", 8 * 1024 * 1024)),
            max_replay_steps=int(env.get("MAX_REPLAY_STEPS", 10_000)),
            replay_concurrency=max(1, int(env.get("REPLAY_CONCURRENCY", 1))),
            cors_origins=_split(env.get("CORS_ORIGINS", "*")),
            log_level=env.get("LOG_LEVEL", "INFO"),
            # POLYMER_TTL_SECONDS: its name before every game had hosted sessions
            session_ttl_seconds=int(
                env.get("SESSION_TTL_SECONDS") or env.get("POLYMER_TTL_SECONDS") or 6 * 3600
            ),
            redis_timeout_seconds=float(env.get("REDIS_TIMEOUT_SECONDS", 1.0)),
            redis_key_prefix=env.get("REDIS_KEY_PREFIX", "chemgames:"),
            redis_max_connections=int(
                env.get("REDIS_MAX_CONNECTIONS") or env.get("WORKER_CONNECTIONS") or 1000
            ),
            redis_pool_timeout_seconds=float(env.get("REDIS_POOL_TIMEOUT_SECONDS", 5.0)),
            redis_wait_replicas=int(env.get("REDIS_WAIT_REPLICAS", 0)),
            redis_wait_timeout_ms=int(env.get("REDIS_WAIT_TIMEOUT_MS", 100)),
            operator_keys=_split(env.get("OPERATOR_KEYS")),
            operator_session_quota=int(env.get("OPERATOR_SESSION_QUOTA", 200)),
            rate_limit_setup=env.get("RATE_LIMIT_SETUP", "120 per minute"),
            rate_limit_moves=env.get("RATE_LIMIT_MOVES", "1800 per minute"),
            rate_limit_streams=env.get("RATE_LIMIT_STREAMS", "240 per minute"),
            rate_limit_operator_sessions=env.get("RATE_LIMIT_OPERATOR_SESSIONS", "600 per minute"),
            rate_limit_reads=env.get("RATE_LIMIT_READS", "2400 per minute"),
            rate_limit_failed_credentials=env.get(
                "RATE_LIMIT_FAILED_CREDENTIALS", "30 per minute; 200 per hour"
            ),
            replay_cost_bytes=int(env.get("REPLAY_COST_BYTES", 256 * 1024)),
            rate_limit_joins=env.get("RATE_LIMIT_JOINS", "300 per minute"),
            rate_limits_enabled=env.get("RATE_LIMITS", "on").lower() not in ("off", "0", "no"),
            forwarded_hops=int(env.get("FORWARDED_HOPS", 0)),
            due_work=env.get("DUE_WORK", "on").lower() not in ("off", "0", "no", "false"),
            due_poll_ms=int(env.get("DUE_POLL_MS", 200)),
            due_lease_ms=int(env.get("DUE_LEASE_MS", 5000)),
            webhook_allow_private=_flag(env, "WEBHOOK_ALLOW_PRIVATE"),
            webhook_timeout_seconds=float(env.get("WEBHOOK_TIMEOUT_SECONDS", 5)),
            webhook_backoff_seconds=tuple(
                float(x) for x in _split(env.get("WEBHOOK_BACKOFF_SECONDS"))
            )
            or cls.webhook_backoff_seconds,
            sse_max_seconds=float(env.get("SSE_MAX_SECONDS", 300)),
            sse_heartbeat_seconds=float(env.get("SSE_HEARTBEAT_SECONDS", 15)),
            sse_max_streams=int(env.get("SSE_MAX_STREAMS", 500)),
            sse_max_streams_per_address=int(env.get("SSE_MAX_STREAMS_PER_ADDRESS", 150)),
            sse_max_streams_per_operator=int(env.get("SSE_MAX_STREAMS_PER_OPERATOR", 400)),
            lti_key_files=_split(env.get("LTI_KEY_FILES")),
            lti_key_publish_seconds=int(env.get("LTI_KEY_PUBLISH_SECONDS", 3600)),
            lesson_retention_seconds=int(env.get("LESSON_RETENTION_SECONDS", 7 * 86400)),
            lesson_join_misses=int(env.get("LESSON_JOIN_MISSES", 20)),
            lesson_join_window_seconds=int(env.get("LESSON_JOIN_WINDOW_SECONDS", 600)),
        )
