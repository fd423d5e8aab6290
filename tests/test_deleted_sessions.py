"""Nothing of a deleted session outlives it by more than its deliveries need (issue 27,
item 10): an operator ends a session; every key under its hash tag goes with it, or,
while a callback delivery is still being retried, stays at most the retries' window
(not the ~14 hours its callback configuration was kept before)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from service import create_app

from .conftest import auth, make_settings
from .test_callbacks import OP, OTHER, Receiver, app_for, create, run_due

pytestmark = [pytest.mark.redis]


def left_of(app: Flask, session_id: str) -> dict[str, int]:
    """Every key of the session still in Redis, with its TTL in seconds."""
    store = app.extensions["chemgames.store"]
    backend = app.extensions["chemgames.redis"]
    found: dict[str, int] = {}
    for node, keys in backend.scan_prefix(store.key(session_id)):
        for key in keys:
            found[key.decode()] = int(node.ttl(key))
    return found


def listed(app: Flask, session_id: str) -> bool:
    store = app.extensions["chemgames.store"]
    with app.app_context():
        operator = app.extensions["chemgames.operators"].identify(OP)
    return store.redis.zscore(store.operator_index(operator), session_id) is not None


def test_a_deleted_session_with_nothing_to_deliver_leaves_nothing(redis_url: str) -> None:
    app = app_for(redis_url)
    c = app.test_client()
    receiver = Receiver([])
    try:
        made: dict[str, Any] = create(c, {"url": receiver.url}).get_json()
    finally:
        receiver.close()
    sid = made["session_id"]
    assert any(key.endswith(":deliveries") for key in left_of(app, sid))
    assert listed(app, sid)
    assert c.delete(f"/v1/operator/sessions/{sid}", headers=auth(OP)).status_code == 204
    assert left_of(app, sid) == {}, "its callback configuration went with it"
    assert not listed(app, sid)


def test_a_deleted_session_keeps_a_pending_delivery_only_for_its_retries(
    redis_url: str,
) -> None:
    failing = Receiver([500] * 20)
    try:
        # the seed's backoff (about 7.4 hours of retries) and a receiver that fails
        app = create_app(
            make_settings(
                redis_url=redis_url,
                operator_keys=(OP, OTHER),
                webhook_allow_private=True,
                webhook_backoff_seconds=(0, 5, 30, 120, 600, 1800, 3600),
            )
        )
        c = app.test_client()
        made = create(c, {"url": failing.url, "moves": True}).get_json()
        sid = made["session_id"]
        base = f"/v1/element-draft/sessions/{sid}"
        view = c.get(base).get_json()
        me = auth(made["seats"][0]["seat_token"])
        moved = c.post(f"{base}/bot-move", json={"seat": 0, "version": view["version"]}, headers=me)
        assert moved.status_code == 200
        run_due(app, lambda: len(failing.got) >= 1)
        before = left_of(app, sid)
        kept = max(ttl for key, ttl in before.items() if key.endswith(":deliveries"))
        assert kept > 6 * 3600, "before the end it is kept as long as the session may live"
        assert c.delete(f"/v1/operator/sessions/{sid}", headers=auth(OP)).status_code == 204
        after = left_of(app, sid)
        window = 5 + 30 + 120 + 600 + 1800 + 3600 + 60
        assert after, "a pending delivery keeps what its retries need"
        assert all(0 < ttl <= window for ttl in after.values()), after
        assert not any(key.endswith(("}", ":log")) for key in after)
    finally:
        failing.close()
