"""Apps built in one process share the OpenAPI document when it is provably the same
(service/http/documents.py): no setting enters it, so apps with any settings share one,
and an app whose configuration changes the document writes its own."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest
from flask import Flask

from service import create_app
from service.api.operations import blueprints
from service.base.config import Settings
from service.games.registry import game_apis
from service.http import documents
from service.http.views import OneMethodView
from service.openapi_export import render

from .conftest import KEY_A, KEY_B, TEST_PREFIX, make_settings


def spec_of(app: Flask) -> Any:
    return app.extensions["chemgames.api"].spec


def document(app: Flask) -> str:
    with app.app_context():
        return render(spec_of(app).to_dict())


@pytest.fixture
def unshared() -> Iterator[None]:
    """No document written yet in this process (the ones written before are put back)."""
    kept = dict(documents.DOCUMENTS)
    documents.DOCUMENTS.clear()
    yield
    documents.DOCUMENTS.clear()
    documents.DOCUMENTS.update(kept)


def every_setting_changed(redis_url: str) -> Settings:
    """Settings with every field other than its default (and than make_settings')."""
    changed: dict[str, Any] = {
        "state_keys": (KEY_B, KEY_A),
        "state_seal": "fernet",
        "redis_url": redis_url,
        "max_body_bytes": 1000,
        "max_record_bytes": 5000,
        "max_replay_steps": 40,
        "replay_concurrency": 3,
        "cors_origins": ("https://a.example",),
        "log_level": "ERROR",
        "session_ttl_seconds": 60,
        "redis_timeout_seconds": 0.5,
        "redis_key_prefix": f"{TEST_PREFIX}shared-document:",
        "redis_max_connections": 20,
        "redis_pool_timeout_seconds": 1.0,
        "redis_wait_replicas": 1,
        "redis_wait_timeout_ms": 50,
        "operator_keys": ("an-operator-key",),
        "operator_session_quota": 3,
        "rate_limit_setup": "1 per minute",
        "rate_limit_moves": "2 per minute",
        "rate_limit_streams": "3 per minute",
        "rate_limit_operator_sessions": "4 per minute",
        "rate_limit_reads": "5 per minute",
        "rate_limit_failed_credentials": "6 per minute",
        "replay_cost_bytes": 1024,
        "rate_limit_joins": "7 per minute",
        "rate_limits_enabled": True,
        "forwarded_hops": 1,
        "due_work": True,
        "due_poll_ms": 50,
        "due_lease_ms": 1000,
        "webhook_allow_private": True,
        "webhook_timeout_seconds": 1.0,
        "webhook_backoff_seconds": (0, 1),
        "sse_max_seconds": 10.0,
        "sse_heartbeat_seconds": 1.0,
        "sse_max_streams": 5,
        "sse_max_streams_per_address": 2,
        "sse_max_streams_per_operator": 3,
        "lti_key_files": ("/nonexistent/lti-key.pem",),
        "lti_key_publish_seconds": 60,
        "lesson_retention_seconds": 60,
        "lesson_join_misses": 2,
        "lesson_join_window_seconds": 60,
    }
    # a setting added later is added here too: its apps must share the document as well
    assert set(changed) == {f.name for f in fields(Settings)}
    usual = make_settings(KEY_A)
    assert all(changed[f.name] != getattr(usual, f.name) for f in fields(Settings))
    return Settings(**changed)


def test_no_setting_enters_the_document(unshared: None, redis_url: str) -> None:
    """Written afresh, the document of an app whose every setting differs is the usual
    app's, byte for byte: sharing it between apps with different settings is sound."""
    usual = document(create_app(make_settings(KEY_A)))
    documents.DOCUMENTS.clear()
    chemgames = logging.getLogger("chemgames")
    level = chemgames.level
    app = create_app(every_setting_changed(redis_url))
    try:
        assert document(app) == usual
    finally:
        app.extensions["chemgames.runner"].stop()
        chemgames.setLevel(level)  # the usual apps' logging, as make_settings sets it


def test_apps_with_other_settings_share_one_document_and_still_serve(redis_url: str) -> None:
    first = create_app(make_settings(KEY_A))
    other = create_app(
        make_settings(KEY_B, redis_url=redis_url, rate_limits_enabled=True, max_body_bytes=900)
    )
    assert spec_of(other) is spec_of(first)
    served = other.test_client().get("/openapi.json")
    assert (
        served.status_code == 200
        and served.get_json() == first.test_client().get("/openapi.json").get_json()
    )
    # the adopted document's app has every route: a game set up, a body over its own limit
    client = other.test_client()
    assert client.post("/v1/element-draft/setup", json={"players": 2, "seed": 1}).status_code == 201
    too_large = client.post("/v1/element-draft/setup", json={"players": 2, "pad": "x" * 1000})
    assert too_large.status_code == 413 and too_large.get_json()["code"] == "body_too_large"


def test_an_app_whose_configuration_changes_the_document_writes_its_own() -> None:
    usual = create_app(make_settings(KEY_A))
    before = document(usual)
    versioned = create_app(make_settings(KEY_A), API_VERSION="99.0.0")
    assert spec_of(versioned) is not spec_of(usual)
    assert spec_of(versioned).to_dict()["info"]["version"] == "99.0.0"
    assert document(usual) == before  # the usual document is untouched
    again = create_app(make_settings(KEY_B), API_VERSION="99.0.0")
    assert spec_of(again) is spec_of(versioned)  # equal configuration: shared again
    described = create_app(
        make_settings(KEY_A),
        API_SPEC_OPTIONS={"info": {"description": "Another service."}},
    )
    assert spec_of(described) is not spec_of(usual)
    assert spec_of(described).to_dict()["info"]["description"] == "Another service."


def test_configuration_that_is_not_plain_data_is_not_shared() -> None:
    """A value whose equality would not prove an equal document: the app writes its own."""

    class Title(str):
        pass

    assert documents.document_key({"API_TITLE": Title("t")}, ()) is not None  # a str still
    assert documents.document_key({"API_SPEC_OPTIONS": {"x": object()}}, ()) is None
    one = create_app(make_settings(KEY_A), API_SPEC_OPTIONS={"x-made-by": object()})
    two = create_app(make_settings(KEY_A), API_SPEC_OPTIONS={"x-made-by": object()})
    assert spec_of(one) is not spec_of(two)


def test_keys_tell_apart_what_writes_different_documents() -> None:
    key = documents.document_key
    assert key({"API_VERSION": "1"}, ()) != key({"API_VERSION": 1}, ())
    assert key({"API_SPEC_OPTIONS": {"a": 1, "b": 2}}, ()) != key(
        {"API_SPEC_OPTIONS": {"b": 2, "a": 1}}, ()
    )  # the document keeps a mapping's order
    assert key({"API_SPEC_OPTIONS": {"a": [1]}}, ()) != key({"API_SPEC_OPTIONS": {"a": (1,)}}, ())
    game = object()
    assert key({}, (documents.Same(game),)) == key({}, (documents.Same(game),))
    assert key({}, (documents.Same(game),)) != key({}, (documents.Same(object()),))


def test_a_games_blueprints_are_built_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    built = blueprints(game_apis()["element-draft"])
    again = blueprints(game_apis()["element-draft"])
    assert [id(b) for b in again] == [id(b) for b in built] and again is not built
    # views made Flask's way (tests/test_views.py) are other blueprints
    monkeypatch.setattr(OneMethodView, "direct", False)
    flasks = blueprints(game_apis()["element-draft"])
    assert not {id(b) for b in flasks} & {id(b) for b in built}
    monkeypatch.undo()
    assert [id(b) for b in blueprints(game_apis()["element-draft"])] == [id(b) for b in built]
