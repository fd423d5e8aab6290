"""The image and the compose stacks, run for real where a container engine answers.

Builds the image, then brings up each stack (compose.yaml: Redis, two instances and
nginx; compose.cluster.yaml: the same on a six-node Redis Cluster) on a free loopback
port, and through nginx plays a whole stateless game and a whole hosted session (setup,
every move from the legal ones, the final scores), recreating both instances in the
middle while play goes on: the operator's command (`up -d --force-recreate --no-deps
rules-b`) replaces the running rules-b; then rules-a is stopped, its address taken, and
the same command brings it back with another one. Not one request may fail meanwhile,
and after it the games end with requests, hosted ones too, on the new rules-a: nginx
found it without a restart. On compose.yaml it
also checks the image and the stack as an operator meets them: no installer in the
image, a refusal to start without STATE_KEYS, the image's HEALTHCHECK on the port BIND
names under `--read-only` without gunicorn errors, read-only instances restarted by
their policy, and `ps` and `down` without STATE_KEYS. Everything is torn down at the
end.

Skipped, saying why, where there is no docker client, where `docker info` fails (no
engine, or a daemon that is not running: CI on these machines), where no compose
client is installed, or where an image it needs is neither present nor pullable. Where
the public registry cannot be reached, build the stand-ins first and name the base:
`CHEMGAMES_BASE_IMAGE=python:3.11-slim` (docs/OPERATIONS.md, "Tests"). Every command
and wait has a bound; the times of a real run are in docs/OPERATIONS.md.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import shutil
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from cryptography.fernet import Fernet

ROOT = Path(__file__).resolve().parent.parent
IMAGE = "chemgames-rules:local"  # the compose files' image name for the instances
GAME = "element-draft"
FILES = ("compose.yaml", "compose.cluster.yaml")


def _run(*args: str, timeout: float, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _engine() -> tuple[str, list[str]]:
    """The docker client and a compose client, or a skip saying what is missing."""
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("no docker client on this machine")
    try:
        info = subprocess.run([docker, "info"], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.skip("`docker info` did not answer in 20 s")
    if info.returncode != 0:
        said = (info.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"no container engine answers (`docker info`: {said})")
    v2 = subprocess.run([docker, "compose", "version"], capture_output=True, timeout=20)
    if v2.returncode == 0:
        return docker, [docker, "compose"]
    legacy = shutil.which("docker-compose")
    if legacy is None:
        pytest.skip("no compose client (docker compose or docker-compose)")
    return docker, [legacy]


def _images_or_skip(docker: str, base: str | None) -> None:
    """The base and the images the compose files name, here or pulled; else a skip."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    default = re.search(r"^ARG BASE=(\S+)$", dockerfile, re.M)
    assert default
    needed = {base or default[1]}
    for name in FILES:
        services = yaml.safe_load((ROOT / name).read_text())["services"]
        needed |= {s["image"] for s in services.values() if "image" in s and "build" not in s}
    for image in sorted(needed):
        if subprocess.run([docker, "image", "inspect", image], capture_output=True).returncode:
            pulled = subprocess.run([docker, "pull", image], capture_output=True, timeout=600)
            if pulled.returncode:
                pytest.skip(
                    f"{image} is neither here nor pullable; where the registry cannot be "
                    "reached, build stand-ins (deploy/standins.sh) and set "
                    "CHEMGAMES_BASE_IMAGE=python:3.11-slim"
                )


@pytest.fixture(scope="module")
def engine() -> tuple[str, list[str]]:
    """The clients, once the image is built (from cache when nothing changed)."""
    docker, compose = _engine()
    base = os.environ.get("CHEMGAMES_BASE_IMAGE")
    _images_or_skip(docker, base)
    build = [docker, "build", "--tag", IMAGE]
    if base:
        build += ["--build-arg", f"BASE={base}"]
    started = time.monotonic()
    _run(*build, ".", timeout=900)
    print(f"\nimage built in {time.monotonic() - started:.0f} s")
    return docker, compose


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Failed(Exception):
    """An answer through nginx that was not the one expected."""


class Stack:
    def __init__(self, docker: str, compose: list[str], file: str) -> None:
        self.docker = docker
        self.file = file
        self.project = f"chemgamestest{os.getpid()}{FILES.index(file)}"
        self.port = _free_port()
        # no STATE_KEYS: what `ps` and `down` run with (only starting needs the key)
        self.keyless = {k: v for k, v in os.environ.items() if k != "STATE_KEYS"}
        self.env = {
            **self.keyless,
            "STATE_KEYS": Fernet.generate_key().decode(),
            "PROXY_PORT": str(self.port),
        }
        self.compose = [*compose, "-p", self.project, "-f", str(ROOT / file)]
        self.network = f"{self.project}_default"
        self.placeholder = f"{self.project}-placeholder"
        self.probe = f"{self.project}-probe"
        self.sent: list[str] = []  # request ids of the game's requests, in order
        self.answered = 0  # calls answered as expected (several threads call)
        self.count = threading.Lock()
        self.hosted: set[str] = set()  # those of the hosted session

    def run(self, *args: str, timeout: float = 120, keyless: bool = False) -> str:
        env = self.keyless if keyless else self.env
        return _run(*self.compose, *args, timeout=timeout, env=env)

    def container(self, service: str) -> str:
        return self.run("ps", "-q", service).strip()

    def inspect(self, container: str, template: str) -> str:
        return _run(self.docker, "inspect", "-f", template, container, timeout=30).strip()

    def ip(self, container: str) -> str:
        return self.inspect(container, "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}")

    def logs(self, container: str) -> str:
        done = subprocess.run(
            [self.docker, "logs", container], capture_output=True, text=True, timeout=60
        )
        return done.stdout + done.stderr

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        expect: int = 200,
        hosted: bool = False,
    ) -> Any:
        request_id = f"stack-{uuid.uuid4().hex}"
        self.sent.append(request_id)
        if hosted:
            self.hosted.add(request_id)
        headers = {"X-Request-ID": request_id}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            resp = conn.getresponse()
            raw = resp.read()
        finally:
            conn.close()
        if resp.status != expect or resp.getheader("X-Request-ID") != request_id:
            raise Failed(f"{method} {path}: {resp.status} {raw[:300]!r}")
        with self.count:
            self.answered += 1
        return json.loads(raw)


def _wait(what: str, ready: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.5)


def _healthy(stack: Stack, container: str) -> bool:
    return stack.inspect(container, "{{.State.Health.Status}}") == "healthy"


@pytest.fixture(scope="module", params=FILES)
def stack(engine: tuple[str, list[str]], request: pytest.FixtureRequest) -> Iterator[Stack]:
    s = Stack(*engine, request.param)
    started = time.monotonic()
    try:
        s.run("up", "--detach", "--no-build", timeout=300)  # waits for healthy instances
        print(f"\n{s.file}: up in {time.monotonic() - started:.0f} s")
        yield s
    finally:
        for name in (s.placeholder, s.probe):
            subprocess.run([s.docker, "rm", "--force", name], capture_output=True, timeout=60)
        # `down` needs no STATE_KEYS (compose.yaml once failed every command without it)
        started = time.monotonic()
        down = [*s.compose, "down", "--volumes", "--remove-orphans", "--timeout", "10"]
        done = subprocess.run(down, cwd=ROOT, env=s.keyless, capture_output=True, timeout=180)
        if done.returncode:
            subprocess.run(down, cwd=ROOT, env=s.env, capture_output=True, timeout=180)
            pytest.fail(f"`down` without STATE_KEYS failed: {done.stderr!r}")
        label = f"label=com.docker.compose.project={s.project}"
        left = _run(s.docker, "ps", "-aq", "--filter", label, timeout=30)
        assert left == "", "containers left after down"
        print(f"\n{s.file}: down in {time.monotonic() - started:.0f} s")


class Games:
    """A stateless game and a hosted session of two human seats, each seat playing a
    legal move of its own choosing with its own credential, to the end."""

    def __init__(self, stack: Stack, seed: int) -> None:
        self.stack = stack
        self.rng = random.Random(seed)
        setup = stack.call("POST", f"/v1/{GAME}/setup", {"players": 2}, expect=201)
        self.token, self.to_act = setup["token"], setup["to_act"]
        self.seats = [s["seat_token"] for s in setup["seats"]]
        session = stack.call(
            "POST", f"/v1/{GAME}/sessions", {"players": 2}, expect=201, hosted=True
        )
        self.sid, self.version = session["session_id"], session["version"]
        self.session_to_act = session["to_act"]
        self.session_seats = [s["seat_token"] for s in session["seats"]]
        self.moves = {"stateless": 0, "session": 0}
        self.lock = threading.Lock()  # one move at a time in each game

    @property
    def finished(self) -> bool:
        return not self.to_act and not self.session_to_act

    def step(self) -> None:
        """One move in each game still being played."""
        with self.lock:
            if self.to_act:
                seat = self.to_act[0]
                body = {"token": self.token, "seat": seat}
                legal = self.stack.call("POST", f"/v1/{GAME}/legal-moves", body, self.seats[seat])
                body["move"] = self.rng.choice(legal["moves"])
                got = self.stack.call("POST", f"/v1/{GAME}/moves", body, self.seats[seat])
                self.token, self.to_act = got["token"], got["to_act"]
                assert got["outcome"]["finished"] is not bool(self.to_act)
                self.moves["stateless"] += 1
            if self.session_to_act:
                seat, path = self.session_to_act[0], f"/v1/{GAME}/sessions/{self.sid}"
                token = self.session_seats[seat]
                legal = self.stack.call(
                    "POST", f"{path}/legal-moves", {"seat": seat}, token, hosted=True
                )
                assert legal["version"] == self.version
                move = self.rng.choice(legal["moves"])
                body = {"seat": seat, "version": self.version, "move": move}
                got = self.stack.call("POST", f"{path}/moves", body, token, hosted=True)
                assert got["version"] > self.version
                self.version, self.session_to_act = got["version"], got["to_act"]
                self.moves["session"] += 1

    def read(self) -> None:
        """What a waiting device asks: its legal moves, the session's state."""
        with self.lock:
            token, seat = self.token, (self.to_act or [0])[0]
            session_seat = (self.session_to_act or [0])[0]
        self.stack.call(
            "POST", f"/v1/{GAME}/legal-moves", {"token": token, "seat": seat}, self.seats[seat]
        )
        self.stack.call(
            "GET",
            f"/v1/{GAME}/sessions/{self.sid}?seat={session_seat}",
            token=self.session_seats[session_seat],
            hosted=True,
        )

    def scores(self) -> None:
        stateless = self.stack.call("POST", f"/v1/{GAME}/scores", {"token": self.token})
        hosted = self.stack.call("GET", f"/v1/{GAME}/sessions/{self.sid}/scores", hosted=True)
        for got in (stateless, hosted):
            assert got["scores"]["final"] is True
            totals = [s["total"] for s in got["scores"]["seats"]]
            assert len(totals) == 2 and all(isinstance(t, int) for t in totals)
        assert stateless["outcome"]["finished"] and stateless["outcome"]["winners"]


class Play:
    """Play going on in the background: a move in each game every `pace` seconds (at
    most `steps`, so that the games are not over before the instance is back) and,
    meanwhile, four devices reading as fast as answers come (two were not always
    enough to meet the proxy's 502 of a stopping instance). Every failure is kept."""

    def __init__(self, games: Games, pace: float, steps: int) -> None:
        self.games, self.pace, self.steps = games, pace, steps
        self.done = threading.Event()
        self.failures: list[str] = []
        self.requests = self.before = 0
        self.slowest = 0.0
        self.threads = [threading.Thread(target=self._moves)]
        self.threads += [threading.Thread(target=self._reads) for _ in range(4)]

    def _timed(self, action: Any) -> None:
        started = time.monotonic()
        try:
            action()
        except (Failed, AssertionError, OSError, ValueError) as error:
            self.failures.append(repr(error))
        self.slowest = max(self.slowest, time.monotonic() - started)

    def _moves(self) -> None:
        for _ in range(self.steps):
            if self.done.wait(self.pace) or self.games.finished:
                return
            self._timed(self.games.step)

    def _reads(self) -> None:
        while not self.done.is_set():
            self._timed(self.games.read)

    def __enter__(self) -> Play:
        self.before = self.games.stack.answered
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        for t in self.threads:
            t.join(60)
        self.requests = self.games.stack.answered - self.before


def test_a_whole_game_through_nginx_survives_a_recreated_instance(stack: Stack) -> None:
    started = time.monotonic()
    detail = stack.call("GET", f"/v1/games/{GAME}")
    assert detail["rules_document"].startswith("#")

    games = Games(stack, seed=21)
    for _ in range(4):
        games.step()
    assert not games.finished

    old = stack.container("rules-a")
    old_ip = stack.ip(old)
    with Play(games, pace=1.0, steps=8) as play:
        time.sleep(2)
        # the operator's command on a running instance: rules-b is stopped and replaced
        # (the engine gives the freed address back)
        old_b = stack.container("rules-b")
        stack.run("up", "--detach", "--no-build", "--force-recreate", "--no-deps", "rules-b")
        new_b = stack.container("rules-b")
        assert new_b != old_b
        _wait("the new rules-b is healthy", lambda: _healthy(stack, new_b), 120)
        # rules-a is stopped, and comes back with another address (a placeholder takes
        # the old one): nginx must ask for the name again to find it
        stack.run("stop", "--timeout", "10", "rules-a")
        _run(stack.docker, "run", "--detach", "--no-healthcheck", "--name", stack.placeholder,
             "--network", stack.network, IMAGE, "sleep", "600", timeout=60)  # fmt: skip
        stack.run("up", "--detach", "--no-build", "--force-recreate", "--no-deps", "rules-a")
        new = stack.container("rules-a")
        new_ip = stack.ip(new)
        assert new != old and new_ip != old_ip
        _wait("the new rules-a is healthy", lambda: _healthy(stack, new), 120)
        time.sleep(6)  # longer than the resolver's valid=5s: nginx has asked again
    assert play.failures == [], play.failures[:5]
    assert play.requests >= 50 and not games.finished, (play.requests, games.moves)

    first_after = len(stack.sent)
    while not games.finished:
        assert len(stack.sent) < first_after + 400, "the games did not finish"
        games.step()
    games.scores()
    after = stack.sent[first_after:]
    logs = stack.logs(new)
    landed = [rid for rid in after if rid in logs]
    # each request picks an instance at random: none of 20+ on rules-a is a 2^-20 chance
    assert len(after) >= 20 and landed, "no request reached the recreated instance"
    assert [rid for rid in landed if rid in stack.hosted], "the session did not go on there"
    assert stack.call("GET", "/healthz")["status"] == "ok"
    print(
        f"\n{stack.file}: {games.moves} moves; {play.requests} requests while rules-b and "
        f"rules-a were recreated, none failed, slowest {play.slowest:.1f} s; {len(after)} after, "
        f"{len(landed)} on the new rules-a ({new_ip}, was {old_ip}); "
        f"{time.monotonic() - started:.0f} s"
    )


# on compose.yaml only: the cluster file's image and policies are the same (a test in
# tests/test_compose_variants.py keeps them so)
@pytest.mark.parametrize("stack", ["compose.yaml"], indirect=True)
def test_the_image_and_the_stack_as_an_operator_meets_them(stack: Stack) -> None:
    docker = stack.docker
    # no installer: the environment's pip and setuptools and the base's pip,
    # setuptools and wheel are gone (the stand-in base has all three, as the official)
    no_installer = "import importlib.util as u, sys; sys.exit(any(map(u.find_spec, sys.argv[1:])))"
    _run(docker, "run", "--rm", IMAGE, "python", "-c", no_installer, "pip", "setuptools",
         "wheel", timeout=60)  # fmt: skip

    # without STATE_KEYS the image refuses to start, and says why
    refused = subprocess.run(
        [docker, "run", "--rm", "--env", "REDIS_URL=redis://redis:6379/0", IMAGE],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert refused.returncode != 0
    assert "STATE_KEYS is not set" in refused.stdout + refused.stderr

    # the image's own HEALTHCHECK probes the port BIND names, read-only, without errors
    _run(docker, "run", "--detach", "--name", stack.probe, "--read-only",
         "--health-interval", "1s", "--network", stack.network,
         "--env", "BIND=0.0.0.0:9100", "--env", f"STATE_KEYS={stack.env['STATE_KEYS']}",
         "--env", "REDIS_URL=redis://redis:6379/0", IMAGE, timeout=60)  # fmt: skip
    _wait("the probe is healthy on 9100", lambda: _healthy(stack, stack.probe), 60)
    logs = stack.logs(stack.probe)
    _run(docker, "rm", "--force", stack.probe, timeout=60)
    assert "Listening at: http://0.0.0.0:9100" in logs
    assert "[ERROR]" not in logs and "Traceback" not in logs, logs

    # compose's instances: read-only, restarted by their policy when gunicorn exits
    b = stack.container("rules-b")
    assert stack.inspect(b, "{{.HostConfig.ReadonlyRootfs}}") == "true"
    for service in ("redis", "rules-a", "rules-b", "proxy"):
        policy = "{{.HostConfig.RestartPolicy.Name}}"
        assert stack.inspect(stack.container(service), policy) == "unless-stopped"
    for name in ("rules-a", "rules-b"):
        logs = stack.logs(stack.container(name))
        assert "[ERROR]" not in logs and "Traceback" not in logs, logs
    _run(docker, "exec", b, "sh", "-c", "kill -TERM 1", timeout=30)
    _wait("rules-b restarted", lambda: stack.inspect(b, "{{.RestartCount}}") != "0", 60)
    _wait("rules-b healthy again", lambda: _healthy(stack, b), 120)
    assert stack.call("GET", "/healthz")["status"] == "ok"

    # commands that start nothing work without STATE_KEYS
    listed = stack.run("ps", keyless=True)
    assert sum(" Up " in line for line in listed.splitlines()) == 4, listed
