"""The tool's own signing keys (RS256), published as a JWKS at ``/lti/jwks.json``.

A platform checks with them the tool's deep-linking responses and the client assertions
of the grade service's token requests. Two places to keep them:

* ``LTI_KEY_FILES`` (comma-separated PEM files of RSA private keys): the first signs,
  every one is published. Rotating is a configuration change: put the new key *second*
  (published, not yet signing), wait for the platforms' caches (an hour), then move it
  first, and drop the old key a day later.
* Redis (no ``LTI_KEY_FILES``): the first request that needs a key makes one and keeps
  it sealed with the deployment's ``STATE_KEYS``. ``python -m service.lti rotate``
  adds a new key, published at once and signing after ``LTI_KEY_PUBLISH_SECONDS``; the
  key signing until then stays published until the next rotation (at most two keys at
  a time; rotating twice within the hour replaces the key not yet signing).

A key's ``kid`` is its RFC 7638 thumbprint, so the same key always has the same name.

>>> k = new_key(1000)
>>> k.public_jwk()["kid"] == k.kid, k.public_jwk()["alg"], "d" in k.public_jwk()
(True, 'RS256', False)
>>> signing([k, new_key(5000)], now_ms=5500, publish_ms=1000).kid == k.kid
True
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from flask import current_app
from jwt.algorithms import RSAAlgorithm

from ..http.problems import Problem

KEYS = "lti:keys"


@dataclass(frozen=True)
class ToolKey:
    """One RSA key of the tool: its private PEM and when it was made (ms)."""

    pem: bytes
    created_ms: int

    @property
    def private(self) -> rsa.RSAPrivateKey:
        key = serialization.load_pem_private_key(self.pem, password=None)
        if not isinstance(key, rsa.RSAPrivateKey):
            raise ValueError("an LTI key must be an RSA private key")
        return key

    @property
    def kid(self) -> str:
        return thumbprint(self._public_fields())

    def _public_fields(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(RSAAlgorithm.to_jwk(self.private.public_key()))
        return found

    def public_jwk(self) -> dict[str, Any]:
        return {**self._public_fields(), "kid": self.kid, "alg": "RS256", "use": "sig"}


def thumbprint(jwk: dict[str, Any]) -> str:
    """RFC 7638: SHA-256 over an RSA key's required members, in order, without spaces."""
    canonical = orjson.dumps({k: jwk[k] for k in ("e", "kty", "n")})
    return base64.urlsafe_b64encode(hashlib.sha256(canonical).digest()).decode().rstrip("=")


def new_key(now_ms: int) -> ToolKey:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return ToolKey(pem, now_ms)


def signing(keys: Sequence[ToolKey], now_ms: int, publish_ms: int) -> ToolKey:
    """The key that signs now: the newest one published for at least ``publish_ms``
    (platforms cache key sets), or the oldest one when none has been yet."""
    ready = [k for k in keys if k.created_ms + publish_ms <= now_ms]
    return (
        max(ready, key=lambda k: k.created_ms) if ready else min(keys, key=lambda k: k.created_ms)
    )


def _redis() -> Any:
    backend = current_app.extensions.get("chemgames.redis")
    if backend is None:
        raise Problem(
            "redis_unavailable",
            "LTI needs Redis (its platforms, launches and keys are kept there); this "
            "deployment has no REDIS_URL.",
        )
    return backend.client


def _prefix() -> str:
    prefix: str = current_app.config["SETTINGS"].redis_key_prefix
    return prefix


def _from_redis(raw: bytes | None) -> list[ToolKey]:
    if raw is None:
        return []
    sealer = current_app.extensions["chemgames.sealer"]
    return [
        ToolKey(sealer.open_bytes(item["sealed"].encode()), int(item["created_ms"]))
        for item in orjson.loads(raw)
    ]


def _to_redis(keys: Sequence[ToolKey]) -> bytes:
    sealer = current_app.extensions["chemgames.sealer"]
    return orjson.dumps(
        [{"sealed": sealer.seal_bytes(k.pem).decode(), "created_ms": k.created_ms} for k in keys]
    )


def _now_ms(client: Any) -> int:
    seconds, micros = client.time()
    return int(seconds) * 1000 + int(micros) // 1000


def tool_keys() -> list[ToolKey]:
    """Every published key (made on first use when they are kept in Redis)."""
    files = current_app.config["SETTINGS"].lti_key_files
    if files:
        return [ToolKey(Path(f).read_bytes(), i) for i, f in enumerate(files)]
    client = _redis()
    keys = _from_redis(client.get(_prefix() + KEYS))
    if keys:
        return keys
    # two workers may make one at once: the first one kept is everyone's
    client.set(_prefix() + KEYS, _to_redis([new_key(_now_ms(client))]), nx=True)
    return _from_redis(client.get(_prefix() + KEYS))


def signing_key() -> ToolKey:
    """The key the tool signs with now."""
    settings = current_app.config["SETTINGS"]
    keys = tool_keys()
    if settings.lti_key_files:
        return keys[0]
    return signing(keys, _now_ms(_redis()), settings.lti_key_publish_seconds * 1000)


def jwks() -> dict[str, Any]:
    return {"keys": [k.public_jwk() for k in tool_keys()]}


def rotate() -> list[ToolKey]:
    """Adds a new key (Redis only). The key signing now stays, beside the new one: a
    key added by an earlier rotation that has not signed yet is dropped, never the one
    platforms are checking signatures with."""
    client = _redis()
    settings = current_app.config["SETTINGS"]
    now = _now_ms(client)
    signer = signing(tool_keys(), now, settings.lti_key_publish_seconds * 1000)
    keys = [signer, new_key(now)]
    client.set(_prefix() + KEYS, _to_redis(keys))
    return keys
