"""LTI 1.3 platforms (an LMS: Moodle, Canvas, Brightspace...) registered by an operator.

A platform is what the LMS's administrator copies from its tool registration: the
platform's ``issuer``, the ``client_id`` it gave this tool, its ``deployment_ids``, and
three URLs (its OIDC authorization endpoint, its OAuth 2 token endpoint, its key set).
Each belongs to the operator that registered it, through the API below or through LTI
Dynamic Registration (:mod:`service.lti.registration`). The platform's URLs are called
by the service, so they are held to the callbacks' rule: https and a public address
(``WEBHOOK_ALLOW_PRIVATE=1`` in development and tests).

Kept in Redis, one key per record (works on a Redis Cluster): the platform as JSON, an
index from (issuer, client id) to it, and the operator's set of platform ids.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlsplit

import marshmallow as ma
import orjson
from flask import current_app, request
from marshmallow import fields, validate

from rules.times import iso

from ..http.problems import Problem
from ..sessions.callbacks import check_url
from .keys import _now_ms, _prefix, _redis

MAX_PLATFORMS = 50  # per operator: a school group's LMSs, with room for test instances
MAX_URL = 500


@dataclass(frozen=True)
class Platform:
    """One registered platform, as kept."""

    platform_id: str
    operator: str
    issuer: str
    client_id: str
    deployment_ids: tuple[str, ...]
    auth_login_url: str
    auth_token_url: str
    jwks_url: str
    name: str
    registered_by: str  # "api" or "dynamic"
    created_ms: int

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "deployment_ids": list(self.deployment_ids)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Platform:
        return cls(**{**data, "deployment_ids": tuple(data["deployment_ids"])})

    def origins(self) -> list[str]:
        """Where the platform's pages are served from: the origins that may frame the
        tool's pages for it (its issuer's and its login endpoint's)."""
        found: list[str] = []
        for url in (self.issuer, self.auth_login_url):
            parts = urlsplit(url)
            origin = f"{parts.scheme}://{parts.netloc}"
            if parts.scheme in ("http", "https") and parts.netloc and origin not in found:
                found.append(origin)
        return found


def _index(issuer: str, client_id: str) -> str:
    digest = hashlib.sha256(f"{issuer}\n{client_id}".encode()).hexdigest()[:32]
    return f"{_prefix()}lti:client:{digest}"


def _by_issuer(issuer: str) -> str:
    digest = hashlib.sha256(issuer.encode()).hexdigest()[:32]
    return f"{_prefix()}lti:issuer:{digest}"


def _key(platform_id: str) -> str:
    return f"{_prefix()}lti:platform:{platform_id}"


def _owned(operator: str) -> str:
    return f"{_prefix()}lti:operator:{operator}:platforms"


def checked_url(name: str, url: str) -> str:
    """``url`` if the service may call it (``bad_lti_platform`` if not)."""
    try:
        check_url(url, current_app.config["SETTINGS"].webhook_allow_private)
    except Problem as err:
        why = err.detail.removeprefix("The callback cannot be used: ")
        raise Problem(
            "bad_lti_platform",
            f"The platform's {name} cannot be used: {why}",
            errors={name: [why]},
        ) from None
    return url


def add(body: dict[str, Any], operator: str, registered_by: str) -> Platform:
    """Registers a platform for ``operator`` (its URLs checked, its pair unique)."""
    for name in ("auth_login_url", "auth_token_url", "jwks_url"):
        checked_url(name, body[name])
    client = _redis()
    if client.scard(_owned(operator)) >= MAX_PLATFORMS:
        raise Problem(
            "bad_lti_platform",
            f"You have {MAX_PLATFORMS} platforms registered, the most one operator may; "
            "delete one you no longer use.",
        )
    platform = Platform(
        platform_id="plt_" + secrets.token_urlsafe(12),
        operator=operator,
        issuer=body["issuer"],
        client_id=body["client_id"],
        deployment_ids=tuple(dict.fromkeys(body["deployment_ids"])),
        auth_login_url=body["auth_login_url"],
        auth_token_url=body["auth_token_url"],
        jwks_url=body["jwks_url"],
        name=body.get("name") or urlsplit(body["issuer"]).netloc or body["issuer"],
        registered_by=registered_by,
        created_ms=_now_ms(client),
    )
    if not client.set(_index(platform.issuer, platform.client_id), platform.platform_id, nx=True):
        raise Problem(
            "lti_platform_exists",
            f"The issuer {platform.issuer!r} with client id {platform.client_id!r} is already "
            "registered on this deployment; delete that registration first to replace it.",
        )
    client.set(_key(platform.platform_id), orjson.dumps(platform.to_json()))
    client.sadd(_owned(operator), platform.platform_id)
    client.sadd(_by_issuer(platform.issuer), platform.platform_id)
    return platform


def get(platform_id: str) -> Platform | None:
    if len(platform_id) > 40:
        return None
    raw = _redis().get(_key(platform_id))
    return Platform.from_json(orjson.loads(raw)) if raw else None


def framers(platform_id: str) -> list[str]:
    """The origins that may frame a tool page opened for ``platform_id``: the registered
    platform's, or none (an unknown platform, or a service without Redis). The app hands
    it to the /play pages (:func:`service.games.pages.make_blueprint`)."""
    if "chemgames.redis" not in current_app.extensions:
        return []
    found = get(platform_id)
    return found.origins() if found is not None else []


def find(issuer: str, client_id: str | None) -> Platform | None:
    """The platform a login names: by issuer and client id (the client id may be left
    out when the issuer has one registration only, as the OIDC login allows)."""
    client = _redis()
    if client_id:
        found = client.get(_index(issuer, client_id))
        return get(found.decode()) if found else None
    ids = client.smembers(_by_issuer(issuer))
    return get(next(iter(ids)).decode()) if len(ids) == 1 else None


def owned(operator: str, platform_id: str) -> Platform:
    found = get(platform_id)
    if found is None or found.operator != operator:
        raise Problem(
            "lti_platform_not_found",
            f"You have no LTI platform {platform_id!r}; GET /v1/operator/lti/platforms lists "
            "yours.",
        )
    return found


def listed(operator: str) -> list[Platform]:
    ids = sorted(m.decode() for m in _redis().smembers(_owned(operator)))
    found = [p for p in (get(i) for i in ids) if p is not None]
    return sorted(found, key=lambda p: p.created_ms, reverse=True)


def remove(platform: Platform) -> None:
    client = _redis()
    client.delete(_key(platform.platform_id))
    client.delete(_index(platform.issuer, platform.client_id))
    client.srem(_owned(platform.operator), platform.platform_id)
    client.srem(_by_issuer(platform.issuer), platform.platform_id)


def tool_urls(base: str) -> dict[str, str]:
    """What a platform's administrator enters for this tool."""
    base = base.rstrip("/")
    return {
        "login_url": f"{base}/lti/login",
        "launch_url": f"{base}/lti/launch",
        "deep_linking_url": f"{base}/lti/launch",
        "jwks_url": f"{base}/lti/jwks.json",
    }


def wire(platform: Platform, base: str) -> dict[str, Any]:
    return {
        "platform_id": platform.platform_id,
        "name": platform.name,
        "issuer": platform.issuer,
        "client_id": platform.client_id,
        "deployment_ids": list(platform.deployment_ids),
        "auth_login_url": platform.auth_login_url,
        "auth_token_url": platform.auth_token_url,
        "jwks_url": platform.jwks_url,
        "registered_by": platform.registered_by,
        "created": iso(platform.created_ms),
        "tool": tool_urls(base),
    }


# ------------------------------------------------------------------ the contract ---
_URL = validate.Length(min=8, max=MAX_URL)


class PlatformRequest(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    issuer = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_URL),
        metadata={
            "description": "The platform's issuer (`iss`), e.g. `https://moodle.school.example`."
        },
    )
    client_id = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={"description": "The client id the platform gave this tool."},
    )
    deployment_ids = fields.List(
        fields.String(validate=validate.Length(min=1, max=200)),
        required=True,
        validate=validate.Length(min=1, max=50),
        metadata={"description": "The deployment ids launches may come from."},
    )
    auth_login_url = fields.String(
        required=True,
        validate=_URL,
        metadata={"description": "The platform's OIDC authorization endpoint (login URL)."},
    )
    auth_token_url = fields.String(
        required=True,
        validate=_URL,
        metadata={"description": "The platform's OAuth 2 token endpoint (grades)."},
    )
    jwks_url = fields.String(
        required=True,
        validate=_URL,
        metadata={"description": "The platform's public key set (JWKS)."},
    )
    name = fields.String(
        validate=validate.Length(min=1, max=100),
        metadata={"description": "A name for people (default: the issuer's host)."},
    )


TOOL_URLS = {
    "type": "object",
    "description": "What the platform's administrator enters for this tool.",
    "properties": {
        "login_url": {"type": "string", "description": "OIDC login initiation URL."},
        "launch_url": {"type": "string", "description": "Target link / redirect URI."},
        "deep_linking_url": {"type": "string", "description": "Deep linking request URL."},
        "jwks_url": {"type": "string", "description": "The tool's public key set."},
    },
    "required": ["deep_linking_url", "jwks_url", "launch_url", "login_url"],
    "additionalProperties": False,
}
PLATFORM = {
    "type": "object",
    "description": "An LTI 1.3 platform registered by an operator.",
    "properties": {
        "platform_id": {"type": "string", "description": "The registration's id."},
        "name": {"type": "string", "description": "A name for people."},
        "issuer": {"type": "string", "description": "The platform's issuer (`iss`)."},
        "client_id": {"type": "string", "description": "The client id it gave this tool."},
        "deployment_ids": {
            "type": "array",
            "items": {"type": "string"},
            "description": "The deployment ids launches may come from.",
        },
        "auth_login_url": {"type": "string", "description": "OIDC authorization endpoint."},
        "auth_token_url": {"type": "string", "description": "OAuth 2 token endpoint."},
        "jwks_url": {"type": "string", "description": "The platform's key set."},
        "registered_by": {
            "type": "string",
            "enum": ["api", "dynamic"],
            "description": "Through the API, or LTI Dynamic Registration.",
        },
        "created": {"type": "string", "format": "date-time", "description": "When."},
        "tool": {"$ref": "#/components/schemas/LtiToolUrls"},
    },
    "required": [
        "auth_login_url",
        "auth_token_url",
        "client_id",
        "created",
        "deployment_ids",
        "issuer",
        "jwks_url",
        "name",
        "platform_id",
        "registered_by",
        "tool",
    ],
    "additionalProperties": False,
}
PLATFORM_LIST = {
    "type": "object",
    "description": "An operator's LTI platforms, newest first.",
    "properties": {
        "platforms": {"type": "array", "items": {"$ref": "#/components/schemas/LtiPlatform"}}
    },
    "required": ["platforms"],
    "additionalProperties": False,
}
REGISTRATION_LINK = {
    "type": "object",
    "description": "A link for LTI Dynamic Registration: the LMS administrator pastes it.",
    "properties": {
        "registration_url": {
            "type": "string",
            "description": "Paste into the LMS's 'tool URL' for dynamic registration.",
        },
        "expires": {"type": "string", "format": "date-time", "description": "Until when."},
    },
    "required": ["expires", "registration_url"],
    "additionalProperties": False,
}
SCHEMAS = {
    "LtiToolUrls": TOOL_URLS,
    "LtiPlatform": PLATFORM,
    "LtiPlatformList": PLATFORM_LIST,
    "LtiRegistrationLink": REGISTRATION_LINK,
}
REDIS = {503: ["redis_unavailable"]}


def base_url() -> str:
    return request.host_url.rstrip("/")
