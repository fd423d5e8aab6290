"""Liveness and readiness answer with the service's version."""

from __future__ import annotations

from importlib import metadata

from flask.testing import FlaskClient


def test_healthz_and_readyz_carry_the_package_version(client: FlaskClient) -> None:
    version = metadata.version("chemgames")
    assert client.get("/healthz").get_json() == {"status": "ok", "version": version}
    ready = client.get("/readyz").get_json()
    assert ready["version"] == version and ready["status"] == "ok"
    assert client.get("/v1/games").get_json()["version"] == version
    assert client.get("/openapi.json").get_json()["info"]["version"] == version
