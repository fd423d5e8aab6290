"""Completion callbacks: an operator's server told when its hosted games end.

An operator may name a callback URL when it creates a hosted session (``callback``:
``{"url": ..., "moves": false}``). When the game ends (and, with ``moves``, after
every move) the service POSTs a signed JSON event to it, following the Standard
Webhooks specification (the ``standardwebhooks`` package signs; the receiver verifies
with the same package and the secret the creation answered): ``{type, timestamp,
data}`` with the game, the session, its version, outcome, scores and a link to the
record, and the headers ``webhook-id`` (the same on every retry: receivers drop
duplicates by it), ``webhook-timestamp`` and ``webhook-signature``.

Delivery is at least once. The commit that ends a game writes the event to the
session's outbox in the same script as the move (so no ending is lost to a crash
between the two), and makes the session's delivery work due (``service/sessions/due.py``);
an attempt that fails (a network error, a timeout, a status other than 2xx) is tried
again after each of ``WEBHOOK_BACKOFF_SECONDS`` (5 s up to 4 h: about 8 hours in
all), then given up. Each attempt is logged where the operator can read it
(``GET /v1/operator/sessions/{id}/deliveries``).

Safe by default: https only, the host must resolve to globally routable addresses
only (the standard library's ``is_global``, no private, loopback, link-local, shared,
multicast, reserved or special-purpose address, nor an IPv6 form that carries one:
IPv4-mapped, 6to4, Teredo, NAT64; checked again at every attempt, and the connection
goes to the address checked, so a name that changes its answer cannot lead the service
inside its network), a short timeout, and redirects are not followed.
``WEBHOOK_ALLOW_PRIVATE=1`` (development and tests) allows private addresses and plain
http.
"""

from __future__ import annotations

import base64
import http.client
import ipaddress
import secrets
import socket
import ssl
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import marshmallow as ma
import orjson
from flask import current_app
from marshmallow import fields, validate
from standardwebhooks.webhooks import Webhook

from rules.times import iso

from ..games.registry import GameApi
from ..games.schemas.common import JsonBoolean
from ..http.problems import Problem

ENDED = "session.ended"
MOVED = "session.moved"
MAX_URL = 2048
ANSWER_READ = 64 * 1024  # of a receiver's answer, read and thrown away


@dataclass(frozen=True)
class Callback:
    """Where an operator's session reports to, and how it signs."""

    url: str
    moves: bool
    secret: str
    operator: str
    base: str
    """The service's own URL as the creating request saw it (for the record's link)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "moves": self.moves,
            "secret": self.secret,
            "operator": self.operator,
            "base": self.base,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Callback:
        return cls(
            str(data["url"]),
            bool(data["moves"]),
            str(data["secret"]),
            str(data["operator"]),
            str(data["base"]),
        )


class CallbackRequest(ma.Schema):
    """Where to tell an operator's server about this session (operators only)."""

    class Meta:
        unknown = ma.RAISE

    url = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_URL),
        metadata={
            "description": "An https:// URL of your server, on a public address; the "
            "service POSTs Standard Webhooks events to it.",
            "example": "https://lms.example.org/hooks/chemgames",
        },
    )
    moves = JsonBoolean(
        load_default=lambda: False,  # a callable: no `default` keyword in the contract
        metadata={
            "description": "Also tell it after every move (else: when the game ends). "
            "Default: `false`."
        },
    )


REGISTERED = {
    "type": "object",
    "description": "The session's callback, and the secret its events are signed with.",
    "properties": {
        "url": {"type": "string", "description": "Where the events go."},
        "moves": {"type": "boolean", "description": "Whether every move is told too."},
        "secret": {
            "type": "string",
            "description": "Verify each event's `webhook-signature` with it (Standard "
            "Webhooks: `Webhook(secret).verify(body, headers)`). Shown only here: keep it "
            "on your server.",
        },
    },
    "required": ["moves", "secret", "url"],
    "additionalProperties": False,
}


ATTEMPT = {
    "type": "object",
    "description": "One attempt to deliver an event.",
    "properties": {
        "at": {"type": "string", "format": "date-time", "description": "When it was made."},
        "status": {
            "type": ["integer", "null"],
            "minimum": 100,
            "maximum": 599,
            "description": "Your server's HTTP status (null: no answer).",
        },
        "error": {"type": ["string", "null"], "description": "What went wrong (null: delivered)."},
        "ms": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2**31 - 1,
            "description": "How long it took.",
        },
    },
    "required": ["at", "error", "ms", "status"],
    "additionalProperties": False,
}
DELIVERY = {
    "type": "object",
    "description": "One event for a session's callback, and its attempts.",
    "properties": {
        "id": {"type": "string", "description": "Its `webhook-id` (the same on every retry)."},
        "type": {"type": "string", "enum": [ENDED, MOVED], "description": "The event."},
        "status": {
            "type": "string",
            "enum": ["pending", "delivered", "failed"],
            "description": "pending: a retry is due; failed: every retry failed.",
        },
        "created": {"type": "string", "format": "date-time", "description": "When queued."},
        "next_attempt": {
            "type": ["string", "null"],
            "format": "date-time",
            "description": "When it is tried again (null: no more).",
        },
        "attempts": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/DeliveryAttempt"},
            "description": "Every attempt, oldest first.",
        },
    },
    "required": ["attempts", "created", "id", "next_attempt", "status", "type"],
    "additionalProperties": False,
}
DELIVERY_LOG = {
    "type": "object",
    "description": "A session's callback and every delivery to it.",
    "properties": {
        "session_id": {"type": "string", "description": "The session."},
        "url": {"type": "string", "description": "The callback's URL."},
        "moves": {"type": "boolean", "description": "Whether every move is told too."},
        "deliveries": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/Delivery"},
            "description": "Every event, oldest first.",
        },
    },
    "required": ["deliveries", "moves", "session_id", "url"],
    "additionalProperties": False,
}


def _attempt(a: Mapping[str, Any]) -> dict[str, Any]:
    return {"at": iso(a["at_ms"]), "status": a["status"], "error": a["error"], "ms": a["ms"]}


def delivery_log(session_id: str, callback: Callback, deliveries: Mapping[str, Any]) -> Any:
    """What the operator reads of its session's callback."""
    out = []
    for d in sorted(deliveries.values(), key=lambda d: (d["created_ms"], d["id"])):
        out.append(
            {
                "id": d["id"],
                "type": d["type"],
                "status": d["status"],
                "created": iso(d["created_ms"]),
                "next_attempt": iso(d["next_ms"]) if d["next_ms"] is not None else None,
                "attempts": [_attempt(a) for a in d["attempts"]],
            }
        )
    return {
        "session_id": session_id,
        "url": callback.url,
        "moves": callback.moves,
        "deliveries": out,
    }


def settings() -> Any:
    return current_app.config["SETTINGS"]


def refused(why: str) -> Problem:
    return Problem(
        "bad_callback",
        f"The callback cannot be used: {why}",
        errors={"callback": {"url": [why]}},
    )


NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
"""RFC 6052's well-known NAT64 prefix: the address is the IPv4 one in its last 32 bits."""
LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")
"""RFC 8215's local-use NAT64 prefix (never global; its IPv4 is checked too)."""
SPECIAL_IPV4 = (ipaddress.IPv4Network("192.0.0.0/24"), ipaddress.IPv4Network("192.88.99.0/24"))
"""Two blocks of IANA's IPv4 special-purpose registry that the interpreter's ``ipaddress``
may call global: the IETF protocol assignments, which CPython's table lacks before
3.11.10 and 3.12.4, and the deprecated 6to4 relay anycast (RFC 7526), a transition
address it never listed. Everything else is the standard library's notion."""

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def embedded_ipv4(ip: Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 transition form carries: IPv4-mapped, 6to4, Teredo
    (its server and its client), NAT64.

    >>> [str(a) for a in embedded_ipv4(ipaddress.ip_address("2002:a00:1::"))]
    ['10.0.0.1']
    >>> [str(a) for a in embedded_ipv4(ipaddress.ip_address("64:ff9b::808:808"))]
    ['8.8.8.8']
    """
    if not isinstance(ip, ipaddress.IPv6Address):
        return []
    found = [a for a in (ip.ipv4_mapped, ip.sixtofour) if a is not None]
    if ip.teredo is not None:
        found.extend(ip.teredo)
    if ip in NAT64 or ip in LOCAL_NAT64:
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


def routable(ip: Address) -> bool:
    """Whether the service may connect to ``ip``: a globally routable address as the
    standard library's ``ipaddress`` says (``is_global``, and none of its private,
    loopback, link-local, multicast, reserved or unspecified kinds), not one of
    :data:`SPECIAL_IPV4`, and, for an IPv6 transition form, every IPv4 address it
    carries routable too.

    >>> [routable(ipaddress.ip_address(a)) for a in ("8.8.8.8", "2606:4700::1111")]
    [True, True]
    >>> [routable(ipaddress.ip_address(a)) for a in ("100.64.0.1", "192.0.0.8", "2002:a00:1::")]
    [False, False, False]
    """
    inner = embedded_ipv4(ip)
    if not all(routable(v4) for v4 in inner):
        return False
    if isinstance(ip, ipaddress.IPv6Address) and (ip.ipv4_mapped is not None or ip in NAT64):
        # the address stands for the IPv4 one just checked (its own class, ::/8 or
        # ::ffff:0:0/96, is reserved or private whatever it names)
        return True
    if isinstance(ip, ipaddress.IPv4Address) and any(ip in net for net in SPECIAL_IPV4):
        return False
    return ip.is_global and not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


def public_addresses(host: str, port: int, allow_private: bool) -> list[str]:
    """The addresses ``host`` resolves to now, every one globally routable (else
    ``bad_callback``).

    >>> public_addresses("127.0.0.1", 80, allow_private=True)
    ['127.0.0.1']
    >>> try:
    ...     public_addresses("127.0.0.1", 80, allow_private=False)
    ... except Problem as err:
    ...     err.code
    'bad_callback'
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise refused(f"the host {host!r} does not resolve.") from None
    found: list[str] = []
    for *_, sockaddr in infos:
        address = str(sockaddr[0])
        ip = ipaddress.ip_address(address.partition("%")[0])  # an IPv6 scope, if any
        if not allow_private and not routable(ip):
            raise refused(
                f"{host!r} resolves to {address}, which is not a public address (a private, "
                "loopback, link-local, shared, reserved or special-purpose one, or an IPv6 "
                "form of one)."
            )
        if address not in found:
            found.append(address)
    if not found:
        raise refused(f"the host {host!r} has no address.")
    return found


@dataclass(frozen=True)
class Target:
    """A callback URL checked: where to connect (the addresses its host resolved to, all
    of them allowed) and what to send there."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: list[str]


def check_url(url: str, allow_private: bool) -> Target:
    """``url``'s target, if the service may call it (its host resolved now)."""
    if len(url) > MAX_URL:
        raise refused(f"a URL of at most {MAX_URL} characters.")
    parts = urlsplit(url)
    allowed = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in allowed:
        raise refused("it must be an https:// URL.")
    if not parts.hostname or parts.username or parts.password:
        raise refused("it must name a host, and no user or password.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise refused("its port is not a number from 1 to 65535.") from None
    addresses = public_addresses(parts.hostname, port, allow_private)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, addresses)


def register(body: Mapping[str, Any], operator: str, base: str) -> Callback:
    """The callback a creation request names (``bad_callback`` if it may not)."""
    if not operator:
        raise refused(
            "callbacks are for operators: create the session with an operator key "
            "(Authorization: Bearer <operator key>) on a deployment that has them."
        )
    check_url(body["url"], settings().webhook_allow_private)
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode("ascii")
    return Callback(body["url"], bool(body.get("moves", False)), secret, operator, base)


def messages(
    api: GameApi, session_id: str, env: Any, callback: str, finished: bool, was_finished: bool
) -> list[dict[str, Any]]:
    """The events a commit sends to the session's callback (``callback``: ``end`` or
    ``moves``, as the session stored it)."""
    kinds = []
    if callback == "moves":
        kinds.append(MOVED)
    if finished and not was_finished:
        kinds.append(ENDED)
    out = []
    for kind in kinds:
        outcome = api.game.outcome(env.state)
        out.append(
            {
                "id": f"msg_{uuid.uuid4().hex}",
                "type": kind,
                "data": {
                    "game": api.slug,
                    "session_id": session_id,
                    "version": env.version,
                    "finished": outcome.finished,
                    "outcome": outcome.to_json(),
                    "scores": api.game.scores(env.state),
                    "record": f"/v1/{api.slug}/sessions/{session_id}/record",
                },
            }
        )
    return out


# ---------------------------------------------------------------- delivery ---------
class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to an address already checked, with the host's name for SNI and the
    certificate (a second DNS answer never decides where the request goes)."""

    def __init__(self, address: str, port: int, hostname: str, timeout: float) -> None:
        super().__init__(address, port, timeout=timeout, context=ssl.create_default_context())
        self._hostname = hostname

    def connect(self) -> None:
        sock = socket.create_connection((self.host, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self._hostname)  # type: ignore[attr-defined]


def post(callback: Callback, message: Mapping[str, Any], now_ms: int) -> tuple[int | None, str]:
    """One attempt: (the receiver's status, or None; what went wrong, or "")."""
    s = settings()
    try:
        # resolved and checked again at every attempt (a name's answer can change since
        # registration), and the connection goes to the address checked
        target = check_url(callback.url, s.webhook_allow_private)
    except Problem as err:
        return None, err.detail
    scheme, host, port, path = target.scheme, target.host, target.port, target.path
    address = target.addresses[0]
    payload = {
        "type": message["type"],
        "timestamp": iso(now_ms),
        "data": {
            **message["data"],
            "record": callback.base.rstrip("/") + message["data"]["record"],
        },
    }
    body = orjson.dumps(payload).decode()
    stamp = datetime.fromtimestamp(now_ms / 1000, tz=UTC)
    headers = {
        "Host": host if port in (80, 443) else f"{host}:{port}",
        "Content-Type": "application/json",
        "User-Agent": "chemgames-callbacks",
        "webhook-id": message["id"],
        "webhook-timestamp": str(now_ms // 1000),
        "webhook-signature": Webhook(callback.secret).sign(message["id"], stamp, body),
    }
    timeout = s.webhook_timeout_seconds
    conn: http.client.HTTPConnection
    if scheme == "https":
        conn = _PinnedHTTPS(address, port, host, timeout)
    else:
        conn = http.client.HTTPConnection(address, port, timeout=timeout)
    try:
        conn.request("POST", path, body=body.encode(), headers=headers)
        answer = conn.getresponse()
        answer.read(ANSWER_READ)
        status = answer.status
    except (OSError, http.client.HTTPException) as err:
        return None, f"{type(err).__name__}: {err}"[:300]
    finally:
        conn.close()
    if 200 <= status < 300:
        return status, ""
    if 300 <= status < 400:
        return status, "a redirect (not followed)"
    return status, f"answered {status}"
