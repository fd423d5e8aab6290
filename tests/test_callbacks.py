"""Completion callbacks (issue 19 §6) to a real local receiver: signed as Standard
Webhooks says, retried after a failure, logged for the operator, never sent where the
service may not send them."""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from service import create_app
from service.sessions.callbacks import Callback, post, routable

from .conftest import auth, make_settings

pytestmark = [pytest.mark.redis]
OP, OTHER = "operator-key-1", "operator-key-2"


class Receiver:
    """An LMS's webhook endpoint on 127.0.0.1: answers each POST with the next status."""

    def __init__(self, statuses: list[int]) -> None:
        self.statuses = statuses
        self.got: list[tuple[dict[str, str], bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.got.append((dict(self.headers), body))
                status = receiver.statuses.pop(0) if receiver.statuses else 204
                self.send_response(status)
                if status in (301, 302):
                    self.send_header("Location", "http://127.0.0.1:1/elsewhere")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/chemgames"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture()
def receiver() -> Iterator[Receiver]:
    r = Receiver([500])
    yield r
    r.close()


def app_for(redis_url: str, **kw: Any) -> Flask:
    kw.setdefault("webhook_allow_private", True)
    return create_app(
        make_settings(
            redis_url=redis_url,
            operator_keys=(OP, OTHER),
            webhook_backoff_seconds=(0, 0.2, 0.2, 0.2),
            **kw,
        )
    )


def run_due(app: Flask, until: Any, seconds: float = 10) -> None:
    """Run the due work (as every worker does) until ``until()`` holds."""
    due = app.extensions["chemgames.due"]
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "the due work did not finish in time"
        with app.app_context():
            due.run_due()
        time.sleep(0.05)


def finish(client: FlaskClient, made: dict[str, Any]) -> None:
    sid, me = made["session_id"], auth(made["seats"][0]["seat_token"])
    base = f"/v1/element-draft/sessions/{sid}"
    while not (view := client.get(base).get_json())["outcome"]["finished"]:
        client.post(f"{base}/bot-move", json={"seat": 0, "version": view["version"]}, headers=me)


def create(client: FlaskClient, callback: dict[str, Any], key: str = OP) -> Any:
    return client.post(
        "/v1/element-draft/sessions",
        json={"players": 2, "seed": 3, "bots": {"1": "greedy"}, "callback": callback},
        headers=auth(key),
    )


@pytest.mark.every_redis
def test_the_end_is_delivered_signed_and_retried_after_a_failure(
    redis_url: str, receiver: Receiver
) -> None:
    app = app_for(redis_url)
    client = app.test_client()
    made = create(client, {"url": receiver.url}).get_json()
    secret = made["callback"]["secret"]
    assert made["callback"] == {"url": receiver.url, "moves": False, "secret": secret}
    finish(client, made)
    run_due(app, lambda: len(receiver.got) >= 2)
    (first, _), (second, body2) = receiver.got
    assert first["webhook-id"] == second["webhook-id"]  # one event, tried twice
    event = Webhook(secret).verify(body2, second)
    assert event["type"] == "session.ended"
    data = event["data"]
    scores = client.get(f"/v1/element-draft/sessions/{made['session_id']}/scores").get_json()
    assert data["outcome"] == scores["outcome"] and data["scores"] == scores["scores"]
    assert data["record"].endswith(f"/v1/element-draft/sessions/{made['session_id']}/record")
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(body2.replace(b"session", b"sessiom"), second)
    log = client.get(
        f"/v1/operator/sessions/{made['session_id']}/deliveries", headers=auth(OP)
    ).get_json()
    (delivery,) = log["deliveries"]
    assert delivery["status"] == "delivered" and delivery["next_attempt"] is None
    assert [a["status"] for a in delivery["attempts"]] == [500, 204]
    assert delivery["attempts"][0]["error"] == "answered 500"
    other = client.get(
        f"/v1/operator/sessions/{made['session_id']}/deliveries", headers=auth(OTHER)
    )
    assert other.status_code == 404 and other.get_json()["code"] == "session_not_found"
    run_due(app, lambda: True)
    assert len(receiver.got) == 2  # delivered: never again


def test_every_move_is_told_when_asked(redis_url: str) -> None:
    r = Receiver([])
    try:
        app = app_for(redis_url)
        client = app.test_client()
        made = create(client, {"url": r.url, "moves": True}).get_json()
        finish(client, made)
        version = client.get(f"/v1/element-draft/sessions/{made['session_id']}").get_json()
        ended = version["version"]
        run_due(app, lambda: any(b"session.ended" in body for _, body in r.got))
        kinds = [Webhook(made["callback"]["secret"]).verify(body, h)["type"] for h, body in r.got]
        assert kinds.count("session.ended") == 1 and "session.moved" in kinds
        assert ended >= kinds.count("session.moved") >= 1
    finally:
        r.close()


def test_a_receiver_that_keeps_failing_is_given_up_after_the_last_retry(
    redis_url: str,
) -> None:
    r = Receiver([500, 503, 302, 500, 500])
    try:
        app = app_for(redis_url)
        client = app.test_client()
        made = create(client, {"url": r.url}).get_json()
        finish(client, made)
        log_url = f"/v1/operator/sessions/{made['session_id']}/deliveries"

        def given_up() -> bool:
            log = client.get(log_url, headers=auth(OP)).get_json()
            return bool(log["deliveries"]) and log["deliveries"][0]["status"] == "failed"

        run_due(app, given_up)
        attempts = client.get(log_url, headers=auth(OP)).get_json()["deliveries"][0]["attempts"]
        assert [a["status"] for a in attempts] == [500, 503, 302, 500]  # 4 tries: the backoff's
        assert attempts[2]["error"] == "a redirect (not followed)"
        assert len(r.got) == 4  # the redirect was not followed
    finally:
        r.close()


def test_callbacks_go_only_where_the_service_may_send(redis_url: str) -> None:
    strict = app_for(redis_url, webhook_allow_private=False).test_client()
    for url, why in (
        ("http://example.org/hook", "https"),
        ("https://127.0.0.1/hook", "not a public address"),
        ("https://10.1.2.3/hook", "not a public address"),
        ("https://[::1]/hook", "not a public address"),
        ("https://169.254.169.254/latest", "not a public address"),
        ("https://user:pw@example.org/hook", "no user or password"),
        ("https://no-such-host.invalid/hook", "does not resolve"),
        ("ftp://example.org/hook", "https"),
    ):
        answer = create(strict, {"url": url})
        assert answer.status_code == 422, (url, answer.get_json())
        assert answer.get_json()["code"] == "bad_callback" and why in answer.get_json()["detail"]
    open_deployment = create_app(make_settings(redis_url=redis_url)).test_client()
    anonymous = open_deployment.post(
        "/v1/element-draft/sessions",
        json={"players": 2, "callback": {"url": "https://example.org/hook"}},
    )
    assert anonymous.status_code == 422 and anonymous.get_json()["code"] == "bad_callback"
    assert "operator" in anonymous.get_json()["detail"]


def test_an_address_checked_at_registration_is_checked_again_at_delivery(
    redis_url: str,
) -> None:
    """A name whose answer changes to an inside address after registration (or a
    deployment that stopped allowing private ones) is not called."""
    r = Receiver([])
    try:
        app = app_for(redis_url, webhook_allow_private=False)
        callback = Callback(r.url, False, "whsec_" + "A" * 43, "op", "http://127.0.0.1")
        message = {"id": "msg_1", "type": "session.ended", "data": {"record": "/x"}}
        with app.app_context():
            status, error = post(callback, message, int(time.time() * 1000))
        assert status is None and "https" in error
        assert r.got == []
    finally:
        r.close()


# ------------------------------------------------ issue 27 item 7: globally routable only --
REFUSED = [
    "2002:a00:1::",  # 6to4 for 10.0.0.1 (the reproduction)
    "2002:7f00:1::1",  # 6to4 for 127.0.0.1
    "192.0.0.8",  # IETF protocol assignments (the reproduction)
    "192.88.99.1",  # the 6to4 relay anycast (the reproduction)
    "100.64.0.1",  # shared address space (carrier-grade NAT)
    "100.127.255.254",
    "64:ff9b::a00:1",  # NAT64 for 10.0.0.1
    "64:ff9b::7f00:1",  # NAT64 for 127.0.0.1
    "64:ff9b:1::808:808",  # local-use NAT64
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
    "::ffff:10.0.0.1",  # IPv4-mapped
    "::ffff:169.254.169.254",
    "::10.0.0.1",  # IPv4-compatible
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "ff02::1",
    "ff0e::1",
    "2001:db8::1",
    "100::1",
    "224.0.0.1",
    "0.0.0.0",
    "10.0.0.1",
    "172.16.0.1",
    "192.168.1.1",
    "127.0.0.1",
    "169.254.169.254",
    "198.18.0.1",
    "192.0.2.1",
    "240.0.0.1",
    "255.255.255.255",
]
ALLOWED = ["8.8.8.8", "93.184.216.34", "2606:4700::1111", "64:ff9b::808:808", "::ffff:8.8.8.8"]


@pytest.mark.parametrize("address", REFUSED)
def test_an_address_that_is_not_globally_routable_is_refused(address: str) -> None:
    assert not routable(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ALLOWED)
def test_a_globally_routable_address_is_allowed(address: str) -> None:
    assert routable(ipaddress.ip_address(address))


@pytest.mark.parametrize(
    "url",
    [
        "https://[2002:a00:1::]/",
        "https://192.0.0.8/hook",
        "https://192.88.99.1/hook",
        "https://100.64.0.1/hook",  # shared address space (issue 27 item 11)
        "https://100.100.100.200/latest/meta-data",  # a cloud's metadata, in 100.64/10
        "https://[64:ff9b::a9fe:a9fe]/",  # NAT64 for 169.254.169.254
        "https://[::ffff:a00:1]/",
        "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    ],
)
def test_a_callback_to_an_address_that_is_not_globally_routable_is_refused(
    redis_url: str, url: str
) -> None:
    strict = app_for(redis_url, webhook_allow_private=False).test_client()
    answer = create(strict, {"url": url})
    assert answer.status_code == 422, answer.get_json()
    problem = answer.get_json()
    assert problem["code"] == "bad_callback" and "not a public address" in problem["detail"]


def test_each_delivery_attempt_checks_and_connects_to_the_address_resolved_then(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name that resolved to a public address at registration and to an inside one at
    delivery (DNS rebinding) is not called; the address each attempt connects to is the
    one it checked."""
    r = Receiver([])
    port = r.server.server_address[1]
    answers: list[str] = []
    real = socket.getaddrinfo

    def resolve(host: str, *args: Any, **kwargs: Any) -> Any:
        if host != "hooks.school.test":
            return real(host, *args, **kwargs)
        address = answers.pop(0)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    # the socket module service.sessions.callbacks uses
    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    try:
        strict = app_for(redis_url, webhook_allow_private=False)
        answers.append("93.184.216.34")
        made = create(strict.test_client(), {"url": f"https://hooks.school.test:{port}/h"})
        assert made.status_code == 201, made.get_json()
        callback = Callback(
            f"https://hooks.school.test:{port}/h", False, "whsec_" + "A" * 43, OP, "https://x"
        )
        message = {"id": "msg_1", "type": "session.ended", "data": {"record": "/x"}}
        answers.append("127.0.0.1")  # the name now points inside
        with strict.app_context():
            status, error = post(callback, message, int(time.time() * 1000))
        assert status is None and "127.0.0.1" in error and "not a public address" in error
        assert r.got == [] and answers == []  # resolved once, refused, never connected

        # where private addresses are allowed (development), the attempt still goes to
        # the address it resolved, with the callback's own host name
        open_app = app_for(redis_url)
        answers.append("127.0.0.1")
        plain = Callback(f"http://hooks.school.test:{port}/h", False, callback.secret, OP, "x")
        with open_app.app_context():
            status, error = post(plain, message, int(time.time() * 1000))
        assert (status, error) == (204, "")
        ((headers, _),) = r.got
        assert headers["Host"] == f"hooks.school.test:{port}"
    finally:
        r.close()


@pytest.mark.parametrize("moves", [1, 0, "true", None])
def test_moves_is_a_json_boolean_and_nothing_else(redis_url: str, moves: Any) -> None:
    """`"moves": 1` was taken as true (marshmallow's Boolean: ``1 in {True}``)."""
    client = app_for(redis_url, webhook_allow_private=True).test_client()
    answer = create(client, {"url": "https://hooks.example.org/chemgames", "moves": moves})
    assert answer.status_code == 422, answer.get_json()
    problem = answer.get_json()
    assert problem["code"] == "invalid_request"
    assert "moves" in str(problem["errors"])
