"""The image and compose.yaml, run for real where a container engine answers.

Builds the image, brings the stack up (Redis, two instances, nginx on a free
loopback port), plays a stateless game and a hosted session through nginx, then
removes one instance and starts it again with a new address (as a recreated
container may get) and shows that play goes on through the same proxy, with
requests landing on the new instance, without restarting nginx. Everything is
torn down at the end.

Skipped where `docker info` fails (no engine, or a daemon that is not running: CI
on these machines), where no compose client is installed, or where an image it
needs is neither present nor pullable. Where the public registry cannot be reached,
build local stand-ins first and name the base: `CHEMGAMES_BASE_IMAGE=python:3.11-slim`
(docs/OPERATIONS.md, "Building without registry access"). Every command and wait
has a bound; it took 72-83 s on a 2-core machine (the image built from cache, or
anew on a changed base).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from cryptography.fernet import Fernet

ROOT = Path(__file__).resolve().parent.parent
IMAGE = "chemgames-rules:local"  # compose.yaml's image name for the instances
GAME = "element-draft"


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
        info = subprocess.run([docker, "info"], capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.skip("`docker info` did not answer in 20 s")
    if info.returncode != 0:
        pytest.skip("no container engine answers (`docker info` failed: is dockerd running?)")
    v2 = subprocess.run([docker, "compose", "version"], capture_output=True, timeout=20)
    if v2.returncode == 0:
        return docker, [docker, "compose"]
    legacy = shutil.which("docker-compose")
    if legacy is None:
        pytest.skip("no compose client (docker compose or docker-compose)")
    return docker, [legacy]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stack:
    def __init__(self, docker: str, compose: list[str]) -> None:
        self.docker = docker
        self.project = f"chemgamestest{os.getpid()}"
        self.port = _free_port()
        self.env = {
            **os.environ,
            "STATE_KEYS": Fernet.generate_key().decode(),
            "PROXY_PORT": str(self.port),
        }
        self.compose = [*compose, "-p", self.project, "-f", str(ROOT / "compose.yaml")]
        self.placeholder = f"{self.project}-placeholder"
        self.sent: list[str] = []  # request ids of the game requests, in order

    def run(self, *args: str, timeout: float = 120) -> str:
        return _run(*self.compose, *args, timeout=timeout, env=self.env)

    def container(self, service: str) -> str:
        return self.run("ps", "-q", service).strip()

    def inspect(self, container: str, template: str) -> str:
        return _run(self.docker, "inspect", "-f", template, container, timeout=30).strip()

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        request_id = f"stack-{uuid.uuid4().hex}"
        self.sent.append(request_id)
        headers = {"X-Request-ID": request_id}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            resp = conn.getresponse()
            payload = json.loads(resp.read() or b"null")
        finally:
            conn.close()
        assert resp.status in (200, 201), (method, path, resp.status, payload)
        assert resp.getheader("X-Request-ID") == request_id
        return payload


def _images_or_skip(docker: str, base: str | None) -> None:
    """The base and the images compose names, here or pulled; else a skip naming them."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    default = re.search(r"^ARG BASE=(\S+)$", dockerfile, re.M)
    assert default
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    needed = [base or default[1]]
    needed += [s["image"] for s in services.values() if "image" in s and "build" not in s]
    for image in needed:
        if subprocess.run([docker, "image", "inspect", image], capture_output=True).returncode:
            pulled = subprocess.run([docker, "pull", image], capture_output=True, timeout=600)
            if pulled.returncode:
                pytest.skip(
                    f"{image} is neither here nor pullable; where the registry cannot be "
                    "reached, build stand-ins (deploy/standins.sh) and set "
                    "CHEMGAMES_BASE_IMAGE=python:3.11-slim"
                )


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    docker, compose = _engine()
    base = os.environ.get("CHEMGAMES_BASE_IMAGE")
    _images_or_skip(docker, base)
    build = [docker, "build", "--tag", IMAGE]
    if base:
        build += ["--build-arg", f"BASE={base}"]
    _run(*build, ".", timeout=900)
    s = Stack(docker, compose)
    try:
        s.run("up", "--detach", "--no-build", timeout=300)  # waits for healthy instances
        yield s
    finally:
        subprocess.run([docker, "rm", "--force", s.placeholder], capture_output=True, timeout=60)
        subprocess.run(
            [*s.compose, "down", "--volumes", "--remove-orphans", "--timeout", "10"],
            cwd=ROOT, env=s.env, capture_output=True, timeout=180,
        )  # fmt: skip


def _wait(what: str, ready: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.5)


def _healthy(stack: Stack, container: str) -> bool:
    return stack.inspect(container, "{{.State.Health.Status}}") == "healthy"


class Games:
    """A stateless game and a hosted session (seat 1 a bot), moved on by bots."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        setup = stack.call("POST", f"/v1/{GAME}/setup", {"players": 2})
        self.token, self.host, self.to_act = setup["token"], setup["host_token"], setup["to_act"]
        session = stack.call(
            "POST", f"/v1/{GAME}/sessions", {"players": 2, "bots": {"1": "greedy"}}
        )
        self.sid, self.version = session["session_id"], session["version"]
        self.seat0 = session["seats"][0]["seat_token"]
        self.finished = {"stateless": False, "session": False}

    def step(self) -> None:
        if not self.finished["stateless"]:
            body = {"token": self.token, "seat": self.to_act[0], "bot": "greedy"}
            got = self.stack.call("POST", f"/v1/{GAME}/bot-move", body, self.host)
            self.token, self.to_act = got["token"], got["to_act"]
            self.finished["stateless"] = got["outcome"]["finished"]
        if not self.finished["session"]:
            body = {"seat": 0, "version": self.version, "bot": "greedy"}
            path = f"/v1/{GAME}/sessions/{self.sid}/bot-move"
            got = self.stack.call("POST", path, body, self.seat0)
            self.version = got["version"]
            self.finished["session"] = got["outcome"]["finished"]


def test_the_stack_plays_through_nginx_and_survives_a_recreated_instance(stack: Stack) -> None:
    started = time.monotonic()
    # the image: no installer left, the rules documents in place, healthy by BIND's port
    no_installer = "import importlib.util as u, sys; sys.exit(any(map(u.find_spec, sys.argv[1:])))"
    _run(stack.docker, "run", "--rm", IMAGE, "python", "-c", no_installer, "pip", "setuptools",
         "wheel", timeout=60)  # fmt: skip
    detail = stack.call("GET", f"/v1/games/{GAME}")
    assert detail["rules_document"].startswith("#")

    games = Games(stack)
    for _ in range(3):
        games.step()
    assert not any(games.finished.values())

    # rules-a goes away and comes back with another address: a container keeps none
    old = stack.container("rules-a")
    network = stack.inspect(old, "{{range $k, $v := .NetworkSettings.Networks}}{{$k}}{{end}}")
    old_ip = stack.inspect(old, "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}")
    stack.run("stop", "--timeout", "10", "rules-a")
    stack.run("rm", "--force", "rules-a")
    games.step()  # rules-b alone, while nginx may still hold the old address
    # a placeholder takes the freed address, which the engine would hand out again
    _run(stack.docker, "run", "--detach", "--name", stack.placeholder, "--network", network,
         IMAGE, "sleep", "600", timeout=60)  # fmt: skip
    stack.run("up", "--detach", "--no-build", "--no-deps", "rules-a", timeout=120)
    new = stack.container("rules-a")
    new_ip = stack.inspect(new, "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}")
    assert new != old and new_ip != old_ip
    _wait("the new rules-a is healthy", lambda: _healthy(stack, new), 120)
    time.sleep(6)  # longer than the resolver's valid=5s: nginx has asked again

    first_after = len(stack.sent)
    while not all(games.finished.values()):
        assert len(stack.sent) < 200, "the games did not finish"
        games.step()
    after = stack.sent[first_after:]
    logged = subprocess.run([stack.docker, "logs", new], capture_output=True, text=True, timeout=60)
    logs = logged.stdout + logged.stderr
    landed = [rid for rid in after if rid in logs]
    # each request picks an instance at random: none of 20+ on rules-a is a 2^-20 chance
    assert len(after) >= 20 and landed, "no request reached the recreated instance"
    assert stack.call("GET", "/healthz")["status"] == "ok"
    print(
        f"\nstack: {len(after)} requests after the recreation, {len(landed)} on the new "
        f"rules-a ({new_ip}, was {old_ip}); {time.monotonic() - started:.0f} s"
    )
