"""Sessions in Redis: the one place the service keeps anything.

Per session, ``<prefix>{<id>}`` is a hash (the prefix is ``REDIS_KEY_PREFIX``,
``chemgames:`` by default): the game's slug, the latest sealed token, the state
version, the player count, the deadline of a game with a clock (ms since the Unix epoch
by the Redis server's clock, the only clock every instance shares; empty for games
without one) and the game's public facts (JSON, e.g. Polymer's open loans and loan
calls). Its fields ``idem:<seat>:<credential>:<key>`` remember answered
Idempotency-Keys, each filed under the credential that sent it and compressed, so an
answer lives exactly as long as its session. ``<prefix>{<id>}:events`` is the channel
of public events. The braces are a Redis Cluster hash tag:
one session's keys, and its channel, live in one slot, so every command and script of
a session goes to one node, and its clock is that node's (``TIME`` inside the scripts).

A move commits with one Lua script, atomically: it applies only if the version is
still the one the move was computed on and, unless it is the service's own
transition (time-up), only if the deadline has not passed by Redis's own clock;
then it stores the new token, publishes the events and remembers the answer. Events
go out with sharded pub/sub (``SPUBLISH``) where the session's node has it (Redis 7),
else with ``PUBLISH``; :meth:`SessionStore.load` says which, so a stream subscribes
the same way (``service/http/streams.py``).

>>> s = SessionStore("redis://127.0.0.1:1/0")
>>> s.key("ab12"), s.idem_field(3, "f00d", "k-1")
('chemgames:{ab12}', 'idem:3:f00d:k-1')
>>> SessionStore("redis://127.0.0.1:1/0", prefix="run-7:").channel("ab12")
'run-7:{ab12}:events'
"""

from __future__ import annotations

import functools
import threading
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import zstandard
from redis import ConnectionError, Redis
from redis.exceptions import NoScriptError

from ..base.redis_client import ERRORS, RedisBackend, execute

PREFIX = "chemgames:"

# Redis 7 (REDIS_VERSION_NUM appeared with it) has sharded pub/sub: SPUBLISH delivers
# to the channel's own shard only, where PUBLISH is broadcast to every cluster node.
_SHARDED = "(redis.REDIS_VERSION_NUM or 0) >= 0x070000"

FIELDS = (
    "slug",
    "version",
    "token",
    "deadline_ms",
    "public",
    "players",
    "callback",
    "finished_ms",
    "lesson",
)
"""The fields a request reads (not the stored answers beside them)."""
_FIELD_NAMES = ", ".join(repr(f) for f in FIELDS)  # as a script names them

# ARGV: more fields to read with them (a peeked Idempotency-Key's, :meth:`load_after`)
_LOAD = f"""
local t = redis.call('TIME')
return {{redis.call('HMGET', KEYS[1], {_FIELD_NAMES}, unpack(ARGV)),
        t[1], t[2], {_SHARDED} and 1 or 0}}
"""


_TIME = "redis.call('TIME')"

# A load's clock (and whether its node has sharded pub/sub), read in one transaction with
# the session's HMGET (:meth:`SessionStore._loaded`): the same instant, as _LOAD reads
# them, with the session's fields sent straight to the client rather than through Lua
# (each string a script gets is hashed whole, the token a kilobyte and more)
_CLOCK = f"""
local t = redis.call('TIME')
return {{t[1], t[2], {_SHARDED} and 1 or 0}}
"""

# KEYS[1]: the session; ARGV[1]: an Idempotency-Key's field (its stored answer, or false)
_PEEK = "return redis.call('HGET', KEYS[1], ARGV[1])"


@functools.cache
def merged(sources: tuple[str, ...], shapes: tuple[tuple[int, int], ...]) -> str:
    """One script that runs the scripts ``sources`` in turn, each on its own keys and
    arguments (``shapes``: how many of each), and answers the array of their answers:
    several calls in one EVALSHA.

    Its KEYS and ARGV are the calls' keys and arguments, in order (:func:`merge`); each
    call's are named by their places in them, written into the script (a count read
    from ARGV would cost Redis a tonumber(), a strtod, each). Each script is a function
    of its own KEYS and ARGV, and they share one reading of the clock (each
    ``redis.call('TIME')`` of theirs: a command called from a script costs Redis about
    as much as a small script).

    >>> print(merged(("return redis.call('TIME')", "return ARGV[1]"), ((0, 0), (1, 1))))
    local clock = redis.call('TIME')
    local function script0(KEYS, ARGV)
    return clock
    end
    local function script1(KEYS, ARGV)
    return ARGV[1]
    end
    local answers = {}
    answers[1] = script0({}, {})
    answers[2] = script1({KEYS[1]}, {ARGV[1]})
    return answers
    <BLANKLINE>
    """
    distinct = list(dict.fromkeys(sources))
    functions = "".join(
        f"local function script{n}(KEYS, ARGV)\n{source.replace(_TIME, 'clock')}\nend\n"
        for n, source in enumerate(distinct)
    )
    clock = f"local clock = {_TIME}\n" if any(_TIME in source for source in distinct) else ""
    calls, k, a = [], 0, 0
    for n, (source, (nk, na)) in enumerate(zip(sources, shapes, strict=True)):
        keys = ", ".join(f"KEYS[{k + j}]" for j in range(1, nk + 1))
        args = ", ".join(f"ARGV[{a + j}]" for j in range(1, na + 1))
        calls.append(f"answers[{n + 1}] = script{distinct.index(source)}({{{keys}}}, {{{args}}})\n")
        k, a = k + nk, a + na
    return f"{clock}{functions}local answers = {{}}\n{''.join(calls)}return answers\n"


def merge(calls: Sequence[tuple[str, list[Any], list[Any]]]) -> tuple[str, list[Any], list[Any]]:
    """Script calls (source, keys, arguments) as one call of their :func:`merged` script."""
    keys: list[Any] = []
    args: list[Any] = []
    for _, k, a in calls:
        keys += k
        args += a
    sources = tuple(source for source, _, _ in calls)
    return merged(sources, tuple((len(k), len(a)) for _, k, a in calls)), keys, args


_NOW = """
local t = redis.call('TIME')
return {t[1], t[2]}
"""

# KEYS: the session and its log. ARGV: the TTL, finished?, n, n steps (JSON), then the
# session's fields
_CREATE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'created_ms', now, unpack(ARGV, 4 + n))
if ARGV[2] == '1' then redis.call('HSET', KEYS[1], 'finished_ms', now) end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]))
redis.call('DEL', KEYS[2])
if n > 0 then
  redis.call('RPUSH', KEYS[2], unpack(ARGV, 4, 3 + n))
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[1]))
end
return now
"""

# an operator's index of its sessions (newest first by creation time), kept no longer
# than its newest session; entries of sessions that have expired are dropped on reading
_INDEX = """
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
if redis.call('TTL', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
end
return redis.call('ZCARD', KEYS[1])
"""

_LISTED = ("slug", "players", "created_ms", "finished_ms", "operator", "version")

# an operator ends a session: gone at once, and its streams told
_END = f"""
local removed = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[3])
if removed == 1 then
  if {_SHARDED} then redis.call('SPUBLISH', KEYS[2], ARGV[1])
  else redis.call('PUBLISH', KEYS[2], ARGV[1]) end
end
return removed
"""

# take every event waiting in an outbox
_TAKE = """
local taken = redis.call('LRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
return taken
"""

# an answer to replay, written again so that WAIT (which counts writes) covers it
_REPLAY = """
local answer = redis.call('HGET', KEYS[1], ARGV[1])
if answer then redis.call('HSET', KEYS[1], ARGV[1], answer) end
return answer
"""

# KEYS: the session, its channel, its log and its callback's outbox. ARGV: the expected
# version, system?, the token, the deadline, the public facts, the TTL, the message, an
# answer's value, the new version, the answer's field, finished?, then how many steps
# (ARGV[12]) and callback events (ARGV[13]) follow, the outbox's TTL, the steps (JSON
# each) and the events. What it costs Redis is mostly Lua's (bench/README.md,
# redis-side): each command a script calls costs about as much as a small script, each
# string made in Lua is hashed whole (about 11 instructions a byte), each tonumber() is a
# strtod. So it reads what it checks in one HMGET and writes the session in one HSET;
# compares and passes on the numbers it is given as the strings they are (Python writes
# them as Lua's %.17g would: canonical integers); and publishes the message as sent.
_COMMIT = f"""
local key = KEYS[1]
local got = redis.call('HMGET', key, 'version', 'deadline_ms', 'finished_ms', ARGV[10])
local current = got[1]
if not current then return {{-1, 0}} end
if current ~= ARGV[1] then
  -- another move committed first: what the move's next attempt needs, read now (the
  -- session as a load reads it, and its key's stored answer), not in round trips more
  local t = redis.call('TIME')
  return {{0, tonumber(current), got[4],
          {{redis.call('HMGET', key, {_FIELD_NAMES}), t[1], t[2],
           {_SHARDED} and 1 or 0}}}}
end
if ARGV[10] ~= '' and got[4] then return {{3, tonumber(current)}} end
local now
if ARGV[2] == '0' and got[2] and got[2] ~= '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  if now >= tonumber(got[2]) then return {{2, tonumber(current)}} end
end
local fields = {{'version', ARGV[9], 'token', ARGV[3], 'deadline_ms', ARGV[4], 'public', ARGV[5]}}
if ARGV[11] == '1' and not got[3] then
  if not now then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  fields[9], fields[10] = 'finished_ms', now
end
if ARGV[10] ~= '' then
  fields[#fields + 1], fields[#fields + 2] = ARGV[10], ARGV[8]
end
redis.call('HSET', key, unpack(fields))
redis.call('EXPIRE', key, ARGV[6])
if ARGV[13] == '0' then
  -- no callback events: the steps are the last arguments
  if ARGV[12] ~= '0' then redis.call('RPUSH', KEYS[3], unpack(ARGV, 15)) end
else
  local n, m = tonumber(ARGV[12]), tonumber(ARGV[13])
  if n > 0 then redis.call('RPUSH', KEYS[3], unpack(ARGV, 15, 14 + n)) end
  redis.call('RPUSH', KEYS[4], unpack(ARGV, 15 + n, 14 + n + m))
  redis.call('EXPIRE', KEYS[4], ARGV[14])
end
redis.call('EXPIRE', KEYS[3], ARGV[6])
if ARGV[7] ~= '' then
  if {_SHARDED} then redis.call('SPUBLISH', KEYS[2], ARGV[7])
  else redis.call('PUBLISH', KEYS[2], ARGV[7]) end
end
return {{1, ARGV[9]}}
"""


def published(message: dict[str, Any], token: str) -> bytes:
    """A commit's message as its channel carries it: the message (a JSON object) with the
    sealed token just stored as ``sealed``, so a seat's stream builds its view without
    reading the session back (the token is base64url: nothing to escape); public streams
    drop it (sessions/blueprint.py).

    >>> published({"version": 2}, "dG9r")
    b'{"version":2,"sealed":"dG9r"}'
    """
    return b'%s,"sealed":"%s"}' % (orjson.dumps(message)[:-1], token.encode())


@dataclass(frozen=True)
class Session:
    id: str
    slug: str
    version: int
    token: str
    deadline_ms: int | None
    public: dict[str, Any]
    players: int
    sharded: bool = False  # its events go out with SPUBLISH (Redis 7), else PUBLISH
    callback: str = ""  # "end" or "moves": what its operator's callback is told
    finished: bool = False
    lesson: str = ""  # "<lesson>/<table>" for a lesson's table (service/lessons/)


class NotReplicated(ConnectionError):
    """A commit that fewer replicas than ``REDIS_WAIT_REPLICAS`` confirmed in time: it may
    be lost if the primary fails now, so it is not acknowledged (503; the client retries
    with its Idempotency-Key and gets the stored answer, or applies the move once)."""


@dataclass(frozen=True)
class Commit:
    """The outcome of a compare-and-set: ``applied``, else why not.

    A ``stale`` one (another move committed first) carries what was read at that
    instant, in the same script: ``seen``, the session and the clock as :meth:`load`
    reads them, and ``answer``, the stored answer of the commit's Idempotency-Key (None
    if it has none, or the commit had no key)."""

    status: str  # "applied" | "stale" | "expired" | "missing" | "keyed" (its key has an answer)
    version: int
    seen: tuple[Session | None, int] | None = None
    answer: bytes | None = None


ANSWER_DICTIONARY = (
    b'"radioactive":false},{"z":'
    b'"family":"transition-metal","family":"post-transition-metal","family":"alkaline-earth-metal",'
    b'"family":"alkali-metal","family":"nonmetal","family":"halogen","family":"noble-gas",'
    b'"family":"metalloid","family":"lanthanide","family":"actinide",'
    b'"hand_count":,"has_selected":false,"word":null,"score":'
    b'"events":[{"type":"card_selected","seat":0,"actor":0,"card":'
    b'"type":"cards_revealed","turn":"cards":[{"seat":0,"z":'
    b'"type":"hands_passed","direction":"left","actor":null}'
    b'"you":{"seat":0,"hand":[{"z":'
    b'"left":1,"right":1},'
    b'"move":{"type":"draft","card":'
    b'"view":{"game":"element-draft","players":2,"turn":1,"rounds":15,"finished":false,'
    b'"deck_size":36,"hand_size":15,"set_aside_count":6,"set_aside":null,'
    b'"word_list":"default","radioactivity_scored":false,"seats":[{"seat":0,"drafted":[{"z":'
    b'"outcome":{"finished":false,"winners":[],"ranking":[],"places":[],"tie_break":null},'
    b'{"fingerprint":"","body":{"session_id":"","version":1,"to_act":[0,1],'
    b',"symbol":"","name":"","mass":,"family":"","ion_charges":[],"radioactive":false}'
)
"""The preset dictionary stored answers are compressed with: the strings most answers
repeat (an answer's members, a card's, the common events), so that a short answer still
compresses well. Since 0.2.0 answers are Zstandard frames at level 1 with it as raw
content (element-draft, 2 seats: about a quarter of the JSON, 5% less than zlib at
level 1 with it, for 40% less CPU in a worker: 29 against 50 us with orjson). Builds of
0.2.0 before that stored zlib streams against it (zlib's ``FDICT``, naming it by its
Adler-32). Never change it: neither format carries it, so another dictionary would be a
second one, with the answers under this one still read (``tests/test_sessions.py`` pins
it)."""

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
"""How a Zstandard frame begins (RFC 8878); a zlib stream begins with 0x78 (a 32 KiB
window), so the two formats an answer may be stored in are told apart by their bytes."""

_ANSWERS = zstandard.ZstdCompressionDict(
    ANSWER_DICTIONARY, dict_type=zstandard.DICT_TYPE_RAWCONTENT
)
_ANSWERS.precompute_compress(level=1)
# one compressor and one decompressor for the process (making one per answer costs as
# much as the compression); neither may be used by two threads at once, hence the lock
# (a greenlet never yields inside one call)
_ZSTD_LOCK = threading.Lock()
_ZSTD_PACK = zstandard.ZstdCompressor(
    level=1, dict_data=_ANSWERS, write_checksum=False, write_dict_id=False
)
_ZSTD_UNPACK = zstandard.ZstdDecompressor(dict_data=_ANSWERS)


def pack(answer: dict[str, Any], dictionary: bool = True) -> bytes:
    """An answer as stored: compact JSON, compressed (a view is mostly repeated keys)
    against :data:`ANSWER_DICTIONARY`, a Zstandard frame (``dictionary`` false: zlib at
    level 6 without it, as releases before 0.2.0 stored answers and read them;
    ``STATE_SEAL=fernet``).

    >>> raw = pack({"body": {"view": {"seats": [{"seat": 0}] * 40}}})
    >>> raw[:4] == ZSTD_MAGIC, unpack(raw)["body"]["view"]["seats"][39]
    (True, {'seat': 0})
    """
    data = orjson.dumps(answer)
    if not dictionary:
        return zlib.compress(data, 6)
    with _ZSTD_LOCK:
        return _ZSTD_PACK.compress(data)


def unpack(raw: bytes) -> dict[str, Any]:
    """An answer :func:`pack` stored, or one stored by an earlier build: zlib against the
    dictionary (0.2.0 before Zstandard), or plain zlib (before 0.2.0, and with
    ``STATE_SEAL=fernet``: the dictionary is only handed over when the stream asks for
    it)."""
    if raw[:4] == ZSTD_MAGIC:
        with _ZSTD_LOCK:
            data = _ZSTD_UNPACK.decompress(raw)
    else:
        inflate = zlib.decompressobj(zdict=ANSWER_DICTIONARY)
        data = inflate.decompress(raw) + inflate.flush()
    value: dict[str, Any] = orjson.loads(data)
    return value


def _ms(seconds: Any, micros: Any) -> int:
    return int(seconds) * 1000 + int(micros) // 1000


class SessionStore:
    """Hosted sessions on any Redis the backend reaches (one server, cluster, Sentinel)."""

    def __init__(
        self,
        url: str | RedisBackend,
        *,
        timeout: float = 1.0,
        ttl_seconds: int = 6 * 3600,
        prefix: str = PREFIX,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 100,
        answers_dictionary: bool = True,
    ) -> None:
        if "{" in prefix or "}" in prefix:
            # the session id in braces is the Redis Cluster hash tag; a brace in the
            # prefix would make the prefix the tag and put every session in one slot
            raise ValueError(f"REDIS_KEY_PREFIX may not contain braces: {prefix!r}")
        self.backend = url if isinstance(url, RedisBackend) else RedisBackend(url, timeout=timeout)
        self.url = self.backend.target.url
        self.ttl = ttl_seconds
        self.prefix = prefix
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        # false while instances of a release before 0.2.0 may read the answers (pack)
        self.answers_dictionary = answers_dictionary
        self._scripts: dict[str, Any] = {}

    @property
    def redis(self) -> Any:
        """The command client (``redis.Redis`` or ``RedisCluster``), built on first use."""
        return self.backend.client

    def _sha(self, source: str) -> str:
        sha: str = self._script(source).sha
        return sha

    def _script(self, source: str) -> Any:
        found = self._scripts.get(source)
        if found is None:
            found = self._scripts[source] = self.redis.register_script(source)
        return found

    # keys ---------------------------------------------------------------------------
    def key(self, session_id: str) -> str:
        return f"{self.prefix}{{{session_id}}}"

    def channel(self, session_id: str) -> str:
        return f"{self.prefix}{{{session_id}}}:events"

    def log_key(self, session_id: str) -> str:
        """The list of the game's steps (compact JSON), oldest first: its record."""
        return f"{self.prefix}{{{session_id}}}:log"

    def outbox(self, session_id: str) -> str:
        """The list of callback events committed and not yet taken for delivery."""
        return f"{self.prefix}{{{session_id}}}:outbox"

    def delivery_key(self, session_id: str) -> str:
        """The hash of the callback's sealed configuration and its deliveries' log."""
        return f"{self.prefix}{{{session_id}}}:deliveries"

    @staticmethod
    def idem_field(seat: int, credential: str, key: str) -> str:
        return f"idem:{seat}:{credential}:{key}"

    # reads --------------------------------------------------------------------------
    def ping(self) -> tuple[bool, str]:
        try:
            self.redis.ping()
        except ERRORS as err:
            return False, f"{type(err).__name__}: {err}"
        return True, "ok"

    def now_ms(self, session_id: str | None = None) -> int:
        """The shared clock: the Redis server's time, on the session's own node (a
        cluster's nodes each have their own clock)."""
        if session_id is None:
            seconds, micros = self.redis.time()
        else:
            seconds, micros = self._script(_NOW)(keys=[self.key(session_id)])
        return _ms(seconds, micros)

    def load(self, session_id: str) -> tuple[Session | None, int]:
        """The session (None if absent) and its node's clock, in one round trip (one
        transaction, as :meth:`load_after`'s, except on a cluster)."""
        if self.backend.kind == "cluster":
            loaded = self._script(_LOAD)(keys=[self.key(session_id)])
        else:
            loaded = self._loaded(self.key(session_id), (_CLOCK, [], []), [])[1]
        return self._session(session_id, loaded)

    def _loaded(
        self, key: str, clock: tuple[str, list[Any], list[Any]], more: list[Any]
    ) -> tuple[list[Any], list[Any]]:
        """``clock`` (a script call answering :data:`_CLOCK`'s array last, or as its
        answer) and the session's fields and ``more`` fields, in one transaction: the
        script's answers before the clock, and the session as :data:`_LOAD` answers it."""
        source, keys, args = clock
        commands: list[Sequence[Any]] = [
            ("MULTI",),
            ("EVALSHA", self._sha(source), len(keys), *keys, *args),
            ("HMGET", key, *FIELDS, *more),
            ("EXEC",),
        ]
        for attempt in range(2):
            replies = execute(self.redis, commands)
            for reply in replies:
                if isinstance(reply, Exception):
                    raise reply
            answer, values = replies[-1]
            if isinstance(answer, NoScriptError) and not attempt:
                # a restarted server lost its scripts: nothing was counted, the HMGET
                # only read; loaded, the whole transaction again
                self.redis.script_load(source)
                continue
            if isinstance(answer, Exception):
                raise answer
            break
        *answers, (seconds, micros, sharded) = answer if source is not _CLOCK else [answer]
        return answers, [values, seconds, micros, sharded]

    @property
    def peeks(self) -> bool:
        """Whether a load may read a stored answer in the same round trip (:meth:`peek`):
        not on a cluster (scripts merge only on one node), nor where a replay waits for
        replicas (:meth:`idempotent` does that)."""
        return self.backend.kind != "cluster" and not self.wait_replicas

    def peek(
        self, session_id: str, seat: int, credential: str, key: str
    ) -> tuple[str, list[Any], list[Any]]:
        """A script call for :meth:`load_after` that reads the answer stored for this
        Idempotency-Key as :meth:`idempotent` would (its answer: :func:`unpack` it, if
        any), at the same instant as the session."""
        return (_PEEK, [self.key(session_id)], [self.idem_field(seat, credential, key)])

    def load_after(
        self, session_id: str, calls: Sequence[tuple[str, list[Any], list[Any]]]
    ) -> tuple[Session | None, int, list[Any]]:
        """:meth:`load`, after other scripts (source, keys, arguments), all in the same
        round trip: one script (:func:`merged`, which reads the load's clock too) and
        the session's HMGET in one transaction, atomically, on one server or a
        Sentinel's primary (never a cluster, whose keys live on several nodes). Their
        answers come third.

        A last call that is this session's :meth:`peek` is read by the load itself, in
        its one HMGET: its answer is the same, and Redis runs one command and one
        script less (each costs it about as much as a small script)."""
        key = self.key(session_id)
        more: list[Any] = []
        peeked = bool(calls) and calls[-1][0] is _PEEK and calls[-1][1] == [key]
        if peeked:
            *calls, (_, _, more) = calls
        clock = merge([*calls, (_CLOCK, [], [])]) if calls else (_CLOCK, [], [])
        answers, loaded = self._loaded(key, clock, more)
        if peeked:
            answers.append(loaded[0][len(FIELDS)])
        session, now = self._session(session_id, loaded)
        return session, now, answers

    def _run(
        self, calls: Sequence[tuple[str, list[Any], list[Any]]], *then: Sequence[Any]
    ) -> list[Any]:
        """Script calls (source, keys, arguments), then commands ``then``, in one round
        trip on one connection (one server or a Sentinel's primary); their answers.

        A restarted or failed-over server lost its scripts: they are loaded, and only
        the calls that did not run are run again (a counted rate limit is not counted
        twice; a ``then`` command, such as ``WAIT`` after a commit, goes with them).
        """
        client = self.redis
        return self._run_on(client, calls, then)

    def _run_on(
        self,
        client: Redis,
        calls: Sequence[tuple[str, list[Any], list[Any]]],
        then: Sequence[Sequence[Any]],
    ) -> list[Any]:
        if len(calls) == 1 and not then:  # a move's load, or its commit
            source, keys, args = calls[0]
            (answer,) = execute(client, [("EVALSHA", self._sha(source), len(keys), *keys, *args)])
            if not isinstance(answer, Exception):
                return [answer]
            if not isinstance(answer, NoScriptError):
                raise answer
            client.script_load(source)  # it did not run: run it again, loaded
        shas = [self._sha(source) for source, _, _ in calls]
        results: list[Any] = [None] * len(calls)
        todo = list(range(len(calls)))
        for attempt in range(2):
            commands: list[Sequence[Any]] = [
                ("EVALSHA", shas[i], len(calls[i][1]), *calls[i][1], *calls[i][2]) for i in todo
            ]
            answers = execute(client, [*commands, *then])
            for i, result in zip(todo, answers, strict=False):
                results[i] = result
            tail = answers[len(todo) :]
            todo = [i for i in todo if isinstance(results[i], NoScriptError)]
            if not todo or attempt:
                break
            for source in {calls[i][0] for i in todo}:
                client.script_load(source)
        for result in [*results, *tail]:
            if isinstance(result, Exception):
                raise result
        return [*results, *tail]

    def _session(self, session_id: str, loaded: list[Any]) -> tuple[Session | None, int]:
        values, seconds, micros, sharded = loaded
        now = _ms(seconds, micros)
        if values[0] is None:
            return None, now
        get = {name: (v or b"").decode() for name, v in zip(FIELDS, values, strict=False)}
        return Session(
            id=session_id,
            slug=get["slug"],
            version=int(get["version"]),
            token=get["token"],
            deadline_ms=int(get["deadline_ms"]) if get.get("deadline_ms") else None,
            public=orjson.loads(get.get("public") or "{}"),
            players=int(get["players"]),
            sharded=bool(sharded),
            callback=get.get("callback") or "",
            finished=bool(get.get("finished_ms")),
            lesson=get.get("lesson") or "",
        ), now

    def idempotent(
        self, session_id: str, seat: int, credential: str, key: str
    ) -> dict[str, Any] | None:
        """The stored answer to this key, if any.

        With ``wait_replicas``, a replay is an acknowledgement too: the answer is only
        returned once enough replicas have it (and so the move it answers; its TTL is
        rewritten so WAIT, which counts this connection's writes, covers it).
        """
        field = self.idem_field(seat, credential, key)
        if self.wait_replicas:
            raw, replicas = self._with_wait(_REPLAY, [self.key(session_id)], [field])
            if raw is not None:
                self._replicated(replicas)
        elif self.backend.kind == "cluster":
            raw = self.redis.hget(self.key(session_id), field)
        else:  # a move's own lookup: the packed path, as its load and commit
            (raw,) = execute(self.redis, [("HGET", self.key(session_id), field)])
            if isinstance(raw, Exception):
                raise raw
        return None if raw is None else unpack(raw)

    # callbacks ----------------------------------------------------------------------
    def set_callback(self, session_id: str, sealed: bytes, ttl: int) -> None:
        """Keep a callback's configuration (sealed: its secret is encrypted at rest) for
        ``ttl`` s: as long as its deliveries may be retried."""
        key = self.delivery_key(session_id)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, "config", sealed)
            pipe.expire(key, ttl)
            pipe.execute()

    def callback_config(self, session_id: str) -> bytes | None:
        found: bytes | None = self.redis.hget(self.delivery_key(session_id), "config")
        return found

    def take_outbox(self, session_id: str) -> list[bytes]:
        """The events waiting in the outbox, taken out of it (atomically)."""
        taken: list[bytes] = self._script(_TAKE)(keys=[self.outbox(session_id)])
        return taken

    def push_outbox(self, session_id: str, events: list[dict[str, Any]], ttl: int) -> None:
        key = self.outbox(session_id)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, *(orjson.dumps(event) for event in events))
            pipe.expire(key, ttl)
            pipe.execute()

    def deliveries(self, session_id: str) -> dict[str, dict[str, Any]]:
        """The callback's deliveries so far, by event id."""
        raw = self.redis.hgetall(self.delivery_key(session_id))
        return {
            name.decode()[2:]: orjson.loads(value)
            for name, value in raw.items()
            if name.startswith(b"d:")
        }

    def save_delivery(self, session_id: str, delivery: dict[str, Any]) -> None:
        self.redis.hset(
            self.delivery_key(session_id), f"d:{delivery['id']}", orjson.dumps(delivery)
        )

    def playing(self, session_id: str) -> bool:
        """Whether the session exists and its game is not over."""
        finished = self.redis.hmget(self.key(session_id), "slug", "finished_ms")
        return finished[0] is not None and finished[1] is None

    def steps(self, session_id: str) -> list[list[Any]]:
        """The game's steps, oldest first (its record, with the setup in its token)."""
        return [orjson.loads(raw) for raw in self.redis.lrange(self.log_key(session_id), 0, -1)]

    def stream_client(self, session_id: str) -> Redis:
        """The client whose pool a stream of this session takes its pub/sub connection from."""
        return self.backend.stream_client(self.channel(session_id))

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
        finished: bool = False,
        operator: str = "",
        steps: list[list[Any]] | None = None,
        callback: str = "",
        lesson: str = "",
    ) -> int:
        """Store a new session and its log's first ``steps``; its creation time (ms, the
        store's clock). ``lesson``: the lesson table it is (``<lesson>/<table>``)."""
        fields = {
            "slug": slug,
            "version": version,
            "token": token,
            "deadline_ms": "" if deadline_ms is None else deadline_ms,
            "public": orjson.dumps(public),
            "players": players,
            "operator": operator,
            "callback": callback,
            "lesson": lesson,
        }
        flat = [item for pair in fields.items() for item in pair]
        logged = [orjson.dumps(step) for step in steps or ()]
        created: int = self._script(_CREATE)(
            keys=[self.key(session_id), self.log_key(session_id)],
            args=[ttl or self.ttl, "1" if finished else "0", len(logged), *logged, *flat],
        )
        if operator:
            self._script(_INDEX)(
                keys=[self.operator_index(operator)], args=[created, session_id, self.ttl]
            )
        return int(created)

    # operators ----------------------------------------------------------------------
    def operator_index(self, operator: str) -> str:
        return f"{self.prefix}{{op:{operator}}}:sessions"

    def listing(self, session_id: str) -> dict[str, Any] | None:
        """What an operator's list shows of a session (None once it has expired)."""
        values = self.redis.hmget(self.key(session_id), *_LISTED)
        if values[0] is None:
            return None
        return {
            name: v.decode() if v is not None else None
            for name, v in zip(_LISTED, values, strict=True)
        }

    def operator_sessions(
        self, operator: str, *, before: float, limit: int
    ) -> list[tuple[str, int, dict[str, Any]]]:
        """An operator's live sessions, newest first, created before ``before`` (ms):
        ``(id, created_ms, listing)``. Expired ones are dropped from the index."""
        index = self.operator_index(operator)
        out: list[tuple[str, int, dict[str, Any]]] = []
        while len(out) < limit:
            page = self.redis.zrevrangebyscore(
                index, f"({before}", "-inf", start=0, num=limit - len(out), withscores=True
            )
            if not page:
                break
            gone = []
            for raw, score in page:
                session_id = raw.decode()
                listed = self.listing(session_id)
                if listed is None or listed.get("operator") != operator:
                    gone.append(raw)
                else:
                    out.append((session_id, int(score), listed))
                before = score
            if gone:
                self.redis.zrem(index, *gone)
        return out

    def live_count(self, operator: str) -> int:
        """How many of an operator's sessions are still being played."""
        live = 0
        for _session_id, _created, listed in self.operator_sessions(
            operator, before=float("inf"), limit=100_000
        ):
            live += listed.get("finished_ms") is None
        return live

    def end(
        self, session_id: str, message: dict[str, Any], *, operator: str = "", retries_s: int = 0
    ) -> bool:
        """Delete a session and tell its streams (an operator closing a lesson).

        Nothing of it stays longer than its callback's deliveries need: with no delivery
        pending, its callback's configuration, delivery log and outbox go with it; with
        one pending, they stay at most ``retries_s`` more (every retry of a delivery) and
        are gone after. Its entry in its operator's index goes at once.
        """
        keys = [self.key(session_id), self.channel(session_id), self.log_key(session_id)]
        removed = self._script(_END)(keys=keys, args=[orjson.dumps(message)])
        left = [self.delivery_key(session_id), self.outbox(session_id)]
        pending = any(d["status"] == "pending" for d in self.deliveries(session_id).values())
        if pending or self.redis.llen(self.outbox(session_id)):
            for key in left:
                ttl = int(self.redis.ttl(key))
                if ttl < 0 or ttl > retries_s:
                    self.redis.expire(key, max(1, retries_s))
        else:
            self.redis.unlink(*left)
        if operator:
            self.redis.zrem(self.operator_index(operator), session_id)
        return bool(removed)

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
        finished: bool = False,
        steps: list[list[Any]] | None = None,
        outbox: list[dict[str, Any]] | None = None,
        outbox_ttl: int = 0,
    ) -> Commit:
        """Store ``version`` if ``expected`` is still the version (and time is not up).

        A commit may hold several moves (a human's and the bot seats' after it), so the
        new version is the state's own move count, always greater than ``expected``.

        ``idem`` is ``(seat, credential fingerprint, Idempotency-Key, answer)``.
        """
        keys = [
            self.key(session_id),
            self.channel(session_id),
            self.log_key(session_id),
            self.outbox(session_id),
        ]
        logged = [orjson.dumps(step) for step in steps or ()]
        events = [orjson.dumps(event) for event in outbox or ()]
        args = [
            expected,
            "1" if system else "0",
            token,
            "" if deadline_ms is None else deadline_ms,
            orjson.dumps(public),
            ttl or self.ttl,
            published(message, token) if message else "",
            pack(idem[3], self.answers_dictionary) if idem else "",
            version,
            self.idem_field(idem[0], idem[1], idem[2]) if idem else "",
            "1" if finished else "0",
            len(logged),
            len(events),
            outbox_ttl,
            *logged,
            *events,
        ]
        if self.wait_replicas:
            reply = self._commit_and_wait(keys, args)
        elif self.backend.kind == "cluster":
            reply = self._script(_COMMIT)(keys=keys, args=args)
        else:
            (reply,) = self._run([(_COMMIT, keys, args)])
        status, version = int(reply[0]), int(reply[1])
        name = {1: "applied", 0: "stale", 2: "expired", -1: "missing", 3: "keyed"}[status]
        if status != 0:
            return Commit(name, version)
        return Commit(name, version, self._session(session_id, reply[3]), reply[2] or None)

    def _commit_and_wait(self, keys: list[str], args: list[Any]) -> list[Any]:
        """The commit, then ``WAIT`` on the same connection (WAIT counts the replicas that
        have this connection's writes), in one round trip to the session's primary."""
        reply, replicas = self._with_wait(_COMMIT, keys, args)
        if int(reply[0]) == 1:
            self._replicated(replicas)
        return list(reply)

    def _with_wait(self, source: str, keys: list[str], args: list[Any]) -> tuple[Any, int]:
        """The script, then ``WAIT`` on the same connection (WAIT counts the replicas
        that have this connection's writes), in one round trip to the key's primary."""
        node = self.backend.node_for(keys[0])
        wait = ("WAIT", self.wait_replicas, self.wait_timeout_ms)
        result, replicas = self._run_on(node, [(source, keys, args)], [wait])
        return result, int(replicas)

    def _replicated(self, replicas: int) -> None:
        if replicas < self.wait_replicas:
            raise NotReplicated(
                f"{replicas} of {self.wait_replicas} replicas confirmed the write within "
                f"{self.wait_timeout_ms} ms"
            )
