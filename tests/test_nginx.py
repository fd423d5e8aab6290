"""The shipped proxy config (deploy/nginx.conf): request ids, problem+json errors.

The bodies are checked against the catalogue everywhere; the behaviour is checked
against a real nginx in front of the real server when an `nginx` binary is on
this machine (Debian: `apt-get install nginx-light`), skipped otherwise. nginx
binds to 127.0.0.1 on a free port, lives a few seconds and is stopped by its PID.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.http.problems import SERVICE_PROBLEMS

from .contract import answered_outside
from .test_gunicorn import _port, raw, serve

ROOT = Path(__file__).resolve().parent.parent
CONF = (ROOT / "deploy" / "nginx.conf").read_text()
NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
)


def test_every_problem_nginx_answers_is_in_the_catalogue() -> None:
    pages = re.findall(r"^\s*error_page (\d{3}) (?:=(\d{3}) )?/\.problems/(\w+);", CONF, re.M)
    bodies = dict(
        re.findall(r"location = /\.problems/(\w+) \{[^}]*?return \d{3} '(\{.*\})';", CONF)
    )
    assert len(pages) == len(bodies) >= 10
    for status, override, name in pages:
        assert "'" not in bodies[name], "a quote ends nginx's string early"
        problem = json.loads(bodies[name])
        assert problem["status"] == int(override or status)
        assert problem["type"] == "/v1/problems/" + problem["code"]
        kind = SERVICE_PROBLEMS[problem["code"]]
        answered_outside(problem["code"], "deploy/nginx.conf")
        if problem["code"] != "http_error":  # http_error's status is the one it names
            assert (kind.status, kind.title) == (problem["status"], problem["title"])


def test_instances_are_found_by_name_while_nginx_runs_not_once_at_start() -> None:
    """A recreated instance has a new address: nginx must look the name up again.

    Its `upstream` blocks resolve their servers once, at start; a name in a variable
    is resolved per request through `resolver`, cached `valid` seconds. The compose
    stack test (tests/test_compose_stack.py) shows it with a real engine."""
    assert not re.search(r"^\s*upstream\b", CONF, re.M)
    resolver = re.search(r"^resolver 127\.0\.0\.11 valid=(\d+)s\b[^;]*;", CONF, re.M)
    assert resolver and int(resolver[1]) <= 10
    passes = re.findall(r"^\s*proxy_pass (\S+);", CONF, re.M)
    assert passes and set(passes) == {"http://$rules_upstream"}
    assert re.search(r"^\s*set \$rules_upstream rules:8000;", CONF, re.M)


def test_a_request_an_instance_did_not_take_goes_to_the_next_one() -> None:
    """An instance being stopped resets the connections in its listen queue; a POST
    sent then goes to the other instance instead of answering 502 (shown with a real
    engine by tests/test_compose_stack.py, which keeps playing while an instance is
    recreated)."""
    retries = re.findall(r"^\s*proxy_next_upstream (.+);", CONF, re.M)
    assert retries == ["error timeout non_idempotent"]


@pytest.fixture(scope="module")
def proxied(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """nginx with deploy/nginx.conf in front of one real instance."""
    if NGINX is None:
        pytest.skip("no nginx binary on this machine")
    tmp = tmp_path_factory.mktemp("nginx")
    with serve(redis_url) as upstream:
        port = _port()
        site = (
            CONF.replace("listen 8000;", f"listen 127.0.0.1:{port};")
            # an address needs no resolver: Docker's DNS server is not asked here
            .replace(
                "set $rules_upstream rules:8000;", f"set $rules_upstream 127.0.0.1:{upstream};"
            )
        )
        assert f"127.0.0.1:{upstream}" in site
        (tmp / "site.conf").write_text(site)
        temp = " ".join(
            f"{kind}_temp_path {tmp / kind};" for kind in ("client_body", "proxy", "fastcgi")
        )
        (tmp / "nginx.conf").write_text(
            ("user root;\n" if os.geteuid() == 0 else "")
            + f"worker_processes 1;\npid {tmp / 'nginx.pid'};\nerror_log {tmp / 'error.log'};\n"
            "events { worker_connections 64; }\n"
            f"http {{ access_log off; {temp} uwsgi_temp_path {tmp / 'u'}; "
            f"scgi_temp_path {tmp / 's'}; include {tmp / 'site.conf'}; }}\n"
        )
        checked = subprocess.run(
            [NGINX, "-t", "-p", str(tmp), "-c", str(tmp / "nginx.conf")],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert checked.returncode == 0, checked.stderr
        proc = subprocess.Popen(
            [NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            yield {"port": port, "upstream": upstream, "log": tmp / "error.log"}
        finally:
            os.killpg(proc.pid, signal.SIGQUIT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)


def get(port: int, path: str, headers: dict[str, str] | None = None) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path, headers=headers or {})
    # the answer, with its body read before the connection closes (as `body`)
    resp: Any = conn.getresponse()
    resp.body = resp.read()
    conn.close()
    return resp


def test_a_clients_request_id_is_kept_and_a_missing_one_made(proxied: dict[str, Any]) -> None:
    port = proxied["port"]
    kept = get(port, "/healthz", {"X-Request-ID": "lesson-7b 42"})
    assert kept.status == 200 and kept.getheader("X-Request-ID") == "lesson-7b 42"
    made = get(port, "/healthz").getheader("X-Request-ID")
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    too_long = get(port, "/healthz", {"X-Request-ID": "x" * 129}).getheader("X-Request-ID")
    assert re.fullmatch(r"[0-9a-f]{32}", too_long)


def test_the_services_own_problems_pass_through(proxied: dict[str, Any]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", proxied["port"], timeout=5)
    conn.request("POST", "/v1/element-draft/setup", b"{", {"Content-Type": "application/json"})
    resp = conn.getresponse()
    assert resp.status == 400
    assert json.loads(resp.read())["code"] == "malformed_json"  # not nginx's bad_http_request


def test_event_streams_are_not_buffered(proxied: dict[str, Any]) -> None:
    port = proxied["port"]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("POST", "/v1/polymer/sessions", json.dumps({"players": 5}), {
        "Content-Type": "application/json"})  # fmt: skip
    sid = json.loads(conn.getresponse().read())["session_id"]
    conn.request("GET", f"/v1/polymer/sessions/{sid}/events")
    resp = conn.getresponse()
    assert resp.status == 200
    assert resp.read(6) == b"retry:"  # arrives now, not when a buffer fills
    conn.close()


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
        (
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
            431,
            "headers_too_large",
        ),
        (
            b"POST /v1/element-draft/setup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
            b"\r\nContent-Length: 300000\r\n\r\n{}",
            413,
            "body_too_large",
        ),
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n", 400, "bad_http_request"),
        (b"GARBAGE\r\n\r\n", 400, "bad_http_request"),
        (
            b"POST /v1/element-draft/setup HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
            501,
            "http_error",
        ),
        (b"GET /healthz HTTP/3.0\r\nHost: x\r\n\r\n", 505, "http_error"),
        (
            b"TRACE /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            405,
            "method_not_allowed",
        ),
        (
            b"GET /.problems/not_found HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            404,
            "not_found",
        ),
    ],
    ids=[
        "long-url",
        "big-header",
        "big-body",
        "bad-content-length",
        "bad-request-line",
        "unknown-transfer-coding",
        "http-3.0-on-1.1",
        "trace",
        "internal-uri",
    ],
)
def test_errors_nginx_answers_itself_are_problems(
    proxied: dict[str, Any], request_bytes: bytes, status: int, code: str
) -> None:
    got, headers, body = raw(proxied["port"], request_bytes)
    assert got == status, body
    assert headers["Content-Type"] == "application/problem+json"
    assert re.fullmatch(r"[0-9a-f]{32}", headers["X-Request-ID"])
    assert json.loads(body)["code"] == code


def test_no_instance_answering_is_a_502_problem(proxied: dict[str, Any]) -> None:
    # an nginx whose upstream port nothing listens on (the same config otherwise)
    dead = _port()
    site = proxied["log"].parent / "site.conf"
    text = site.read_text()
    site.write_text(text.replace(f"127.0.0.1:{proxied['upstream']};", f"127.0.0.1:{dead};"))
    pid = int((proxied["log"].parent / "nginx.pid").read_text())
    try:
        os.kill(pid, signal.SIGHUP)  # reload
        deadline = time.monotonic() + 5
        while True:
            resp = get(proxied["port"], "/healthz")
            if resp.status == 502 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert resp.status == 502
        assert resp.getheader("Content-Type") == "application/problem+json"
        assert resp.getheader("Retry-After") == "2"
        assert json.loads(resp.body)["code"] == "upstream_unavailable"
    finally:
        site.write_text(text)
        os.kill(pid, signal.SIGHUP)
        time.sleep(0.5)
