"""Configuration from the environment, read once by the app factory."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.fernet import Fernet

# where docs/ and instance/ live: the checkout, or CHEMGAMES_HOME in an installed image
ROOT = Path(os.environ.get("CHEMGAMES_HOME") or Path(__file__).resolve().parent.parent)


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


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

    state_keys: tuple[str, ...]
    redis_url: str | None = None
    max_body_bytes: int = 256 * 1024
    cors_origins: tuple[str, ...] = ("*",)
    log_level: str = "INFO"
    session_ttl_seconds: int = 6 * 3600
    redis_timeout_seconds: float = 1.0
    sse_max_seconds: float = 300.0
    sse_heartbeat_seconds: float = 15.0
    sse_max_streams: int = 500

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        keys = _split(env.get("STATE_KEYS"))
        if not keys:
            key_file = Path(env.get("DEV_KEY_FILE", ROOT / "instance" / "dev-state-key"))
            keys = (dev_key(key_file),)
        return cls(
            state_keys=keys,
            redis_url=env.get("REDIS_URL") or None,
            max_body_bytes=int(env.get("MAX_BODY_BYTES", 256 * 1024)),
            cors_origins=_split(env.get("CORS_ORIGINS", "*")),
            log_level=env.get("LOG_LEVEL", "INFO"),
            # POLYMER_TTL_SECONDS: its name before every game had hosted sessions
            session_ttl_seconds=int(
                env.get("SESSION_TTL_SECONDS") or env.get("POLYMER_TTL_SECONDS") or 6 * 3600
            ),
            redis_timeout_seconds=float(env.get("REDIS_TIMEOUT_SECONDS", 1.0)),
            sse_max_seconds=float(env.get("SSE_MAX_SECONDS", 300)),
            sse_heartbeat_seconds=float(env.get("SSE_HEARTBEAT_SECONDS", 15)),
            sse_max_streams=int(env.get("SSE_MAX_STREAMS", 500)),
        )
