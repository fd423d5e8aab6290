"""A lesson in Redis: its seating, its tables and its results, changed atomically.

Every key of one lesson carries the hash tag ``{lesson:<id>}`` so that they live in
one Redis Cluster slot and every script of a lesson runs on one node, atomically
(its tables are sessions, in slots of their own):

* ``<prefix>{lesson:<id>}`` (hash): ``slug`` (always ``lesson``: no game's session id
  can be read as it), the lesson's ``config`` (JSON), ``operator``, ``code``,
  ``state`` (``open``, ``started``, ``ended``), ``created_ms``, ``students``, ``tables``
  (how many were opened), ``forming`` (the table being filled, or empty),
  ``finished_ms`` (once every table has ended, or the lesson was ended);
* ``...:seats`` (hash): a student's identity (the digest of their rejoin secret, or
  the LMS's opaque id) -> their seat (JSON: table, seat, name);
* ``...:names`` (hash): a display name's key (``codes.name_key``) -> the identity
  holding it, so two students never share a name;
* ``...:at`` (hash): ``<table>/<seat>`` -> the identity sitting there;
* ``...:tables`` (hash): a table's number -> JSON (its session id, its ``status``:
  ``forming``, ``starting``, ``playing``, ``finished``, ``ended`` or ``empty``, and
  ``taken``: one character per seat, ``1`` for a student's);
* ``...:results`` (hash): ``lesson`` (what the results need of the lesson) and one
  ``t:<table>`` per table that ended; the only key kept after the tables' sessions,
  for the retention;
* ``...:events`` (channel): the lesson's stream;
* ``...:deliveries``, ``...:outbox``: its completion callback's (the sessions' own
  machinery, ``service/sessions/deliveries.py``, keyed by ``lesson:<id>``).

``<prefix>{lessoncode:<code>}`` names the lesson a join code opens; it dies with the
lesson (ended, or expired). Joining draws on ``<prefix>{lessonjoin:<address>}``.

>>> s = LessonStore(SessionStore("redis://127.0.0.1:1/0"))
>>> s.key("ab12"), s.code_key("7K3MQ9XD")
('chemgames:{lesson:ab12}', 'chemgames:{lessoncode:7K3MQ9XD}')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from ..sessions.store import SessionStore

SESSION_PREFIX = "lesson:"
"""A lesson's name among sessions' keys (its callback's deliveries live there)."""

_SHARDED = "(redis.REDIS_VERSION_NUM or 0) >= 0x070000"

_PUBLISH = f"""
local function publish(channel, message)
  if {_SHARDED} then redis.call('SPUBLISH', channel, message)
  else redis.call('PUBLISH', channel, message) end
end
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function keep(ttl)
  for i = 1, 5 do redis.call('EXPIRE', KEYS[i], ttl) end
end
"""

# KEYS: lesson, seats, names, at, tables, results. ARGV: config, operator, code, ttl,
# the results' meta (JSON), their TTL
_CREATE = (
    _PUBLISH
    + """
local now = now_ms()
redis.call('HSET', KEYS[1], 'slug', 'lesson', 'config', ARGV[1], 'operator', ARGV[2],
           'code', ARGV[3], 'state', 'open', 'created_ms', now, 'students', 0, 'tables', 0,
           'forming', '', 'finished_tables', 0)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
redis.call('HSET', KEYS[6], 'lesson', ARGV[5])
redis.call('EXPIRE', KEYS[6], tonumber(ARGV[6]))
return now
"""
)

# KEYS: lesson, seats, names, at, tables, channel. ARGV: identity, name, name key,
# a session id for a new table, the table size, the most students (0: any), the TTL,
# the seat's JSON prefix is built here
_JOIN = (
    _PUBLISH
    + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'gone'} end
if state == 'ended' then return {'ended'} end
local known = redis.call('HGET', KEYS[2], ARGV[1])
if known then return {'seated', known} end
if redis.call('HEXISTS', KEYS[3], ARGV[3]) == 1 then return {'name_taken'} end
local students = tonumber(redis.call('HGET', KEYS[1], 'students'))
local most = tonumber(ARGV[6])
if most > 0 and students >= most then return {'full'} end
local size = tonumber(ARGV[5])
local forming = redis.call('HGET', KEYS[1], 'forming')
local n, tbl
if forming ~= '' then
  n = tonumber(forming)
  tbl = cjson.decode(redis.call('HGET', KEYS[5], forming))
else
  n = tonumber(redis.call('HINCRBY', KEYS[1], 'tables', 1)) - 1
  tbl = {session_id = ARGV[4], status = 'forming', taken = string.rep('0', size)}
end
local seat = string.find(tbl.taken, '0', 1, true) - 1
tbl.taken = string.sub(tbl.taken, 1, seat) .. '1' .. string.sub(tbl.taken, seat + 2)
if state == 'started' or not string.find(tbl.taken, '0', 1, true) then
  tbl.status = 'starting'
  redis.call('HSET', KEYS[1], 'forming', '')
else
  redis.call('HSET', KEYS[1], 'forming', n)
end
local placed = cjson.encode({table = n, seat = seat, name = ARGV[2], key = ARGV[3],
                             session_id = tbl.session_id})
redis.call('HSET', KEYS[5], n, cjson.encode(tbl))
redis.call('HSET', KEYS[2], ARGV[1], placed)
redis.call('HSET', KEYS[3], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[4], n .. '/' .. seat, ARGV[1])
redis.call('HINCRBY', KEYS[1], 'students', 1)
keep(tonumber(ARGV[7]))
publish(KEYS[6], cjson.encode({type = 'seated', table = n, seat = seat}))
return {'new', placed, tbl.status}
"""
)

# KEYS: lesson, seats, names, at, tables, channel. ARGV: the TTL
_START = (
    _PUBLISH
    + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'gone'} end
if state == 'ended' then return {'ended'} end
redis.call('HSET', KEYS[1], 'state', 'started')
if state == 'open' then redis.call('HSET', KEYS[1], 'started_ms', now_ms()) end
local forming = redis.call('HGET', KEYS[1], 'forming')
redis.call('HSET', KEYS[1], 'forming', '')
local out = {'started'}
if forming ~= '' then
  local tbl = cjson.decode(redis.call('HGET', KEYS[5], forming))
  if string.find(tbl.taken, '1', 1, true) then tbl.status = 'starting'
  else tbl.status = 'empty' end
  redis.call('HSET', KEYS[5], forming, cjson.encode(tbl))
  if tbl.status == 'starting' then table.insert(out, forming) end
end
keep(tonumber(ARGV[1]))
if state == 'open' then publish(KEYS[6], cjson.encode({type = 'started'})) end
return out
"""
)

# KEYS: lesson, seats, names, at, tables, channel. ARGV: table, seat, the TTL
_REMOVE = (
    _PUBLISH
    + """
local where = ARGV[1] .. '/' .. ARGV[2]
local identity = redis.call('HGET', KEYS[4], where)
if not identity then return {'none'} end
local placed = cjson.decode(redis.call('HGET', KEYS[2], identity))
redis.call('HDEL', KEYS[4], where)
redis.call('HDEL', KEYS[2], identity)
redis.call('HDEL', KEYS[3], placed.key)
local tbl = cjson.decode(redis.call('HGET', KEYS[5], ARGV[1]))
if tbl.status == 'forming' then
  local seat = tonumber(ARGV[2])
  tbl.taken = string.sub(tbl.taken, 1, seat) .. '0' .. string.sub(tbl.taken, seat + 2)
  redis.call('HSET', KEYS[5], ARGV[1], cjson.encode(tbl))
  redis.call('HINCRBY', KEYS[1], 'students', -1)
end
keep(tonumber(ARGV[3]))
publish(KEYS[6], cjson.encode({type = 'removed', table = tonumber(ARGV[1]),
                               seat = tonumber(ARGV[2]), status = tbl.status}))
return {'removed', tbl.status}
"""
)

# a table's status changes (starting -> playing; playing -> finished or ended), and
# its result is kept. KEYS: lesson, seats, names, at, tables, channel, results.
# ARGV: table, from (a status, or '*'), to, its result ('' for none), the TTL, the
# results' TTL, the message to publish. Answers whether it changed, and whether the
# lesson is now complete (every table ended after the start: its finished_ms is set)
_TABLE = (
    _PUBLISH
    + """
local raw = redis.call('HGET', KEYS[5], ARGV[1])
if not raw then return {0, 0} end
local tbl = cjson.decode(raw)
if ARGV[2] ~= '*' and tbl.status ~= ARGV[2] then return {0, 0} end
local done = {finished = true, ended = true, empty = true}
if done[tbl.status] then return {0, 0} end
tbl.status = ARGV[3]
redis.call('HSET', KEYS[5], ARGV[1], cjson.encode(tbl))
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[7], 't:' .. ARGV[1], ARGV[4])
  redis.call('EXPIRE', KEYS[7], tonumber(ARGV[6]))
end
keep(tonumber(ARGV[5]))
if ARGV[7] ~= '' then publish(KEYS[6], ARGV[7]) end
local complete = 0
if done[ARGV[3]] and redis.call('HGET', KEYS[1], 'state') ~= 'open'
   and redis.call('HEXISTS', KEYS[1], 'finished_ms') == 0 then
  complete = 1
  for _, v in ipairs(redis.call('HVALS', KEYS[5])) do
    if not done[cjson.decode(v).status] then complete = 0 end
  end
  if complete == 1 then redis.call('HSET', KEYS[1], 'finished_ms', now_ms()) end
end
return {1, complete}
"""
)

# KEYS: lesson, seats, names, at, tables, channel. ARGV: the TTL.
# Answers the tables still to end (number and session id, flattened) and whether the
# lesson was complete before
_END = (
    _PUBLISH
    + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {'gone'} end
if state == 'ended' then return {'ended'} end
local was = redis.call('HEXISTS', KEYS[1], 'finished_ms')
redis.call('HSET', KEYS[1], 'state', 'ended', 'forming', '')
if was == 0 then redis.call('HSET', KEYS[1], 'finished_ms', now_ms()) end
local out = {'ending', was}
local all = redis.call('HGETALL', KEYS[5])
for i = 1, #all, 2 do
  local tbl = cjson.decode(all[i + 1])
  if tbl.status == 'forming' then
    tbl.status = 'empty'
    redis.call('HSET', KEYS[5], all[i], cjson.encode(tbl))
  elseif tbl.status == 'starting' or tbl.status == 'playing' then
    table.insert(out, all[i])
    table.insert(out, tbl.session_id)
  end
end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
keep(tonumber(ARGV[1]))
return out
"""
)


_TELL = _PUBLISH + "publish(KEYS[1], ARGV[1])"
# a move at one of its tables: the lesson lives as long as its tables do, its results
# the retention longer. KEYS: lesson, seats, names, at, tables, channel, results.
# ARGV: the TTL, the results' TTL, the message
_TURN = (
    _PUBLISH
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
keep(tonumber(ARGV[1]))
redis.call('EXPIRE', KEYS[7], tonumber(ARGV[2]))
publish(KEYS[6], ARGV[3])
return 1
"""
)
_IS_SHARDED = f"return {_SHARDED} and 1 or 0"


@dataclass(frozen=True)
class Placed:
    """A student's seat: the table, the seat, their name and the table's session."""

    table: int
    seat: int
    name: str
    session_id: str

    @classmethod
    def from_json(cls, raw: bytes | str) -> Placed:
        data = orjson.loads(raw)
        return cls(int(data["table"]), int(data["seat"]), data["name"], data["session_id"])


@dataclass(frozen=True)
class Joined:
    """What a join did: ``status`` (``new``, ``seated``: the same seat again, or why
    not: ``gone``, ``ended``, ``name_taken``, ``full``), the seat, and whether the
    table must now be dealt (this join filled it, or came after the start)."""

    status: str
    placed: Placed | None = None
    deal: bool = False


class LessonStore:
    """Lessons, in the sessions' Redis (any kind: one server, Cluster, Sentinel)."""

    def __init__(self, sessions: SessionStore) -> None:
        self.sessions = sessions
        self.prefix = sessions.prefix
        self._scripts: dict[str, Any] = {}

    @property
    def redis(self) -> Any:
        return self.sessions.redis

    def _script(self, source: str) -> Any:
        found = self._scripts.get(source)
        if found is None:
            found = self._scripts[source] = self.redis.register_script(source)
        return found

    # keys ---------------------------------------------------------------------------
    def key(self, lesson_id: str) -> str:
        return self.sessions.key(SESSION_PREFIX + lesson_id)

    def keys(self, lesson_id: str) -> list[str]:
        """The lesson, its seats, names, seats' holders, tables and channel."""
        base = self.key(lesson_id)
        tail = ("seats", "names", "at", "tables", "events")
        return [base, *(f"{base}:{name}" for name in tail)]

    def channel(self, lesson_id: str) -> str:
        return f"{self.key(lesson_id)}:events"

    def results_key(self, lesson_id: str) -> str:
        return f"{self.key(lesson_id)}:results"

    def code_key(self, code: str) -> str:
        return f"{self.prefix}{{lessoncode:{code}}}"

    def join_key(self, address: str) -> str:
        return f"{self.prefix}{{lessonjoin:{address}}}"

    # writes -------------------------------------------------------------------------
    def create(
        self,
        lesson_id: str,
        *,
        config: dict[str, Any],
        operator: str,
        code: str,
        ttl: int,
        meta: dict[str, Any],
        results_ttl: int,
    ) -> int:
        """Store a new lesson and its code (which must be free: False if it is not)."""
        created: int = self._script(_CREATE)(
            keys=[*self.keys(lesson_id)[:5], self.results_key(lesson_id)],
            args=[orjson.dumps(config), operator, code, ttl, orjson.dumps(meta), results_ttl],
        )
        return int(created)

    def claim_code(self, code: str, lesson_id: str, ttl: int) -> bool:
        """Give ``code`` to the lesson if no live lesson has it."""
        return bool(self.redis.set(self.code_key(code), lesson_id, nx=True, ex=ttl))

    def drop_code(self, code: str, lesson_id: str) -> None:
        key = self.code_key(code)
        if self.redis.get(key) == lesson_id.encode():
            self.redis.delete(key)

    def by_code(self, code: str) -> str | None:
        found = self.redis.get(self.code_key(code))
        return None if found is None else found.decode()

    def join(
        self,
        lesson_id: str,
        *,
        identity: str,
        name: str,
        name_key: str,
        new_session: str,
        size: int,
        most: int,
        ttl: int,
    ) -> Joined:
        answer = self._script(_JOIN)(
            keys=self.keys(lesson_id),
            args=[identity, name, name_key, new_session, size, most, ttl],
        )
        status = answer[0].decode()
        if status == "seated":
            return Joined(status, Placed.from_json(answer[1]))
        if status == "new":
            return Joined(status, Placed.from_json(answer[1]), answer[2] == b"starting")
        return Joined(status)

    def start(self, lesson_id: str, ttl: int) -> tuple[str, list[int]]:
        """Mark the lesson started: its status, and the table to deal now (if any)."""
        answer = self._script(_START)(keys=self.keys(lesson_id), args=[ttl])
        return answer[0].decode(), [int(n) for n in answer[1:]]

    def remove(self, lesson_id: str, table: int, seat: int, ttl: int) -> str | None:
        """Take a student off a seat: the table's status then, or None (nobody there)."""
        answer = self._script(_REMOVE)(keys=self.keys(lesson_id), args=[table, seat, ttl])
        return None if answer[0] == b"none" else answer[1].decode()

    def table_status(
        self,
        lesson_id: str,
        table: int,
        *,
        before: str,
        after: str,
        ttl: int,
        results_ttl: int,
        result: dict[str, Any] | None = None,
        message: dict[str, Any] | None = None,
    ) -> tuple[bool, bool]:
        """Move a table from ``before`` (``*``: any status but an ended one) to ``after``,
        keeping its ``result``: (changed?, is the lesson complete now?)."""
        changed, complete = self._script(_TABLE)(
            keys=[*self.keys(lesson_id), self.results_key(lesson_id)],
            args=[
                table,
                before,
                after,
                orjson.dumps(result) if result is not None else "",
                ttl,
                results_ttl,
                orjson.dumps(message) if message is not None else "",
            ],
        )
        return bool(changed), bool(complete)

    def end(self, lesson_id: str, ttl: int) -> tuple[str, bool, list[tuple[int, str]]]:
        """End the lesson: (status, was it complete before, the tables still being
        played: number and session). Its seats and names are forgotten."""
        answer = self._script(_END)(keys=self.keys(lesson_id), args=[ttl])
        status = answer[0].decode()
        if status != "ending":
            return status, False, []
        rest = answer[2:]
        tables = [(int(rest[i]), rest[i + 1].decode()) for i in range(0, len(rest), 2)]
        return status, bool(answer[1]), tables

    def draw_join(self, address: str, window: int) -> int:
        """Count a wrong join code from ``address``: the misses in this window."""
        key = self.join_key(address)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.expire(key, window, nx=True)
            count, _ = pipe.execute()
        return int(count)

    def join_misses(self, address: str) -> tuple[int, int]:
        """The wrong codes ``address`` sent in this window, and the seconds it has left."""
        key = self.join_key(address)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(key)
            pipe.ttl(key)
            count, left = pipe.execute()
        return int(count or 0), max(1, int(left))

    # reads --------------------------------------------------------------------------
    def lesson(self, lesson_id: str) -> dict[str, Any] | None:
        raw = self.redis.hgetall(self.key(lesson_id))
        if not raw or raw.get(b"slug") != b"lesson":
            return None
        out: dict[str, Any] = {k.decode(): v.decode() for k, v in raw.items()}
        out["config"] = orjson.loads(out["config"])
        return out

    def tables(self, lesson_id: str) -> dict[int, dict[str, Any]]:
        raw = self.redis.hgetall(self.keys(lesson_id)[4])
        return {int(k): orjson.loads(v) for k, v in sorted(raw.items(), key=lambda kv: int(kv[0]))}

    def seated(self, lesson_id: str) -> list[Placed]:
        """Every student seated now (table, then seat order)."""
        raw = self.redis.hvals(self.keys(lesson_id)[1])
        return sorted((Placed.from_json(v) for v in raw), key=lambda p: (p.table, p.seat))

    def placed(self, lesson_id: str, identity: str) -> Placed | None:
        raw = self.redis.hget(self.keys(lesson_id)[1], identity)
        return None if raw is None else Placed.from_json(raw)

    def results(self, lesson_id: str) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]:
        """The results' meta (None once the retention has passed) and each table's."""
        raw = self.redis.hgetall(self.results_key(lesson_id))
        meta = raw.pop(b"lesson", None)
        if meta is None:
            return None, {}
        tables = {int(k.decode()[2:]): orjson.loads(v) for k, v in raw.items()}
        return orjson.loads(meta), dict(sorted(tables.items()))

    def publish(self, lesson_id: str, message: dict[str, Any]) -> None:
        """Tell the lesson's stream (as its scripts do: sharded where Redis 7 has it)."""
        self._script(_TELL)(keys=[self.channel(lesson_id)], args=[orjson.dumps(message)])

    def turn(self, lesson_id: str, message: dict[str, Any], ttl: int, results_ttl: int) -> None:
        """A move at one of the lesson's tables: told on its stream; its keys kept."""
        self._script(_TURN)(
            keys=[*self.keys(lesson_id), self.results_key(lesson_id)],
            args=[ttl, results_ttl, orjson.dumps(message)],
        )

    def sharded(self, lesson_id: str) -> bool:
        """Whether the lesson's node publishes with ``SPUBLISH`` (its stream subscribes so)."""
        return bool(self._script(_IS_SHARDED)(keys=[self.key(lesson_id)]))

    def ttl_left(self, lesson_id: str) -> int:
        return int(self.redis.ttl(self.key(lesson_id)))
