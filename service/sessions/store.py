"""Sessions in Redis: the one place the service keeps anything.

Per session, ``chemgames:{<id>}`` is a hash: the game's slug, the latest sealed
token, the state version, the player count, the deadline of a game with a clock (ms
since the Unix epoch by the Redis server's clock, the only clock every instance
shares; empty for games without one) and the game's public facts (JSON, e.g.
Polymer's open loans and loan calls). ``chemgames:{<id>}:events`` is the pub/sub
channel of public events and ``chemgames:{<id>}:idem:<seat>:<credential>:<key>``
remembers answered Idempotency-Keys, each filed under the credential that sent it.
The braces are a Redis Cluster hash tag: one session's keys live on one node.

A move commits with one Lua script, atomically: it applies only if the version is
still the one the move was computed on and, unless it is the service's own
transition (time-up), only if the deadline has not passed by Redis's own clock;
then it stores the new token, publishes the events and remembers the answer.

>>> SessionStore.key("ab12"), SessionStore.idem_key("ab12", 3, "f00d", "k-1")
('chemgames:{ab12}', 'chemgames:{ab12}:idem:3:f00d:k-1')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
import redis

PREFIX = "chemgames:"

_COMMIT = """
local key = KEYS[1]
local current = redis.call('HGET', key, 'version')
if not current then return {-1, 0} end
if tonumber(current) ~= tonumber(ARGV[1]) then return {0, tonumber(current)} end
if ARGV[2] == '0' then
  local deadline = redis.call('HGET', key, 'deadline_ms')
  if deadline and deadline ~= '' then
    local t = redis.call('TIME')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    if now >= tonumber(deadline) then return {2, tonumber(current)} end
  end
end
local new = tonumber(ARGV[9])
redis.call('HSET', key, 'version', new, 'token', ARGV[3], 'deadline_ms', ARGV[4],
           'public', ARGV[5])
redis.call('EXPIRE', key, tonumber(ARGV[6]))
if ARGV[7] ~= '' then redis.call('PUBLISH', KEYS[2], ARGV[7]) end
if KEYS[3] ~= '' then redis.call('SET', KEYS[3], ARGV[8], 'EX', tonumber(ARGV[6])) end
return {1, new}
"""


@dataclass(frozen=True)
class Session:
    id: str
    slug: str
    version: int
    token: str
    deadline_ms: int | None
    public: dict[str, Any]
    players: int


@dataclass(frozen=True)
class Commit:
    """The outcome of a compare-and-set: ``applied``, else why not."""

    status: str  # "applied" | "stale" | "expired" | "missing"
    version: int


class SessionStore:
    def __init__(self, url: str, *, timeout: float = 1.0, ttl_seconds: int = 6 * 3600) -> None:
        self.url = url
        self.ttl = ttl_seconds
        self.redis = redis.Redis.from_url(
            url,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            health_check_interval=15,
            decode_responses=False,
        )
        self._commit = self.redis.register_script(_COMMIT)

    # keys ---------------------------------------------------------------------------
    @staticmethod
    def key(session_id: str) -> str:
        return f"{PREFIX}{{{session_id}}}"

    @staticmethod
    def channel(session_id: str) -> str:
        return f"{PREFIX}{{{session_id}}}:events"

    @staticmethod
    def idem_key(session_id: str, seat: int, credential: str, key: str) -> str:
        return f"{PREFIX}{{{session_id}}}:idem:{seat}:{credential}:{key}"

    # reads --------------------------------------------------------------------------
    def ping(self) -> tuple[bool, str]:
        try:
            self.redis.ping()
        except redis.RedisError as err:
            return False, f"{type(err).__name__}: {err}"
        return True, "ok"

    def now_ms(self) -> int:
        """The shared clock: the Redis server's time."""
        seconds, micros = self.redis.time()
        return int(seconds) * 1000 + int(micros) // 1000

    def load(self, session_id: str) -> tuple[Session | None, int]:
        """The session (None if absent) and the server clock, in one round trip."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(self.key(session_id))
            pipe.time()
            raw, (seconds, micros) = pipe.execute()
        now = int(seconds) * 1000 + int(micros) // 1000
        if not raw:
            return None, now
        get = {k.decode(): v.decode() for k, v in raw.items()}
        return Session(
            id=session_id,
            slug=get["slug"],
            version=int(get["version"]),
            token=get["token"],
            deadline_ms=int(get["deadline_ms"]) if get.get("deadline_ms") else None,
            public=orjson.loads(get.get("public") or "{}"),
            players=int(get["players"]),
        ), now

    def idempotent(
        self, session_id: str, seat: int, credential: str, key: str
    ) -> dict[str, Any] | None:
        raw = self.redis.get(self.idem_key(session_id, seat, credential, key))
        return None if raw is None else orjson.loads(raw)

    # writes -------------------------------------------------------------------------
    def create(
        self,
        session_id: str,
        *,
        slug: str,
        token: str,
        version: int,
        players: int,
        deadline_ms: int | None,
        public: dict[str, Any],
        ttl: int | None = None,
    ) -> None:
        key = self.key(session_id)
        with self.redis.pipeline() as pipe:
            pipe.hset(
                key,
                mapping={
                    "slug": slug,
                    "version": version,
                    "token": token,
                    "deadline_ms": "" if deadline_ms is None else deadline_ms,
                    "public": orjson.dumps(public),
                    "players": players,
                },
            )
            pipe.expire(key, ttl or self.ttl)
            pipe.execute()

    def commit(
        self,
        session_id: str,
        *,
        expected: int,
        version: int,
        token: str,
        deadline_ms: int | None,
        public: dict[str, Any],
        message: dict[str, Any] | None,
        ttl: int | None = None,
        system: bool = False,
        idem: tuple[int, str, str, dict[str, Any]] | None = None,
    ) -> Commit:
        """Store ``version`` if ``expected`` is still the version (and time is not up).

        A commit may hold several moves (a human's and the bot seats' after it), so the
        new version is the state's own move count, always greater than ``expected``.

        ``idem`` is ``(seat, credential fingerprint, Idempotency-Key, answer)``.
        """
        idem_key = self.idem_key(session_id, idem[0], idem[1], idem[2]) if idem else ""
        status, version = self._commit(
            keys=[self.key(session_id), self.channel(session_id), idem_key],
            args=[
                expected,
                "1" if system else "0",
                token,
                "" if deadline_ms is None else deadline_ms,
                orjson.dumps(public),
                ttl or self.ttl,
                orjson.dumps(message) if message else "",
                orjson.dumps(idem[3]) if idem else "",
                version,
            ],
        )
        name = {1: "applied", 0: "stale", 2: "expired", -1: "missing"}[int(status)]
        return Commit(name, int(version))
