"""LTI Dynamic Registration 1.0: the LMS administrator pastes one URL.

The operator asks for a registration link (``POST /v1/operator/lti/registrations``): a
one-time code, kept in Redis for a day, naming the operator. The LMS opens the link with
``openid_configuration`` (its configuration's URL) and ``registration_token``; the tool
reads the configuration (its issuer must be on the configuration URL's host), posts its
own registration to the platform's ``registration_endpoint``, and keeps the client id
and deployment id the platform answers as a platform of that operator. The page then
tells the LMS it may close the registration window
(``postMessage({subject: "org.imsglobal.lti.close"})``).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any
from urllib.parse import urlsplit

import orjson

from ..http.problems import Problem
from . import platforms
from .http import PlatformUnreachable, get_json, json_of, request
from .keys import _now_ms, _prefix, _redis
from .launch import Refused
from .platforms import Platform

LINK_SECONDS = 24 * 3600
TOOL_NAME = "Chemistry card games"
SCOPES = (
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
)
TOOL_CONFIG = "https://purl.imsglobal.org/spec/lti-tool-configuration"
PLATFORM_CONFIG = "https://purl.imsglobal.org/spec/lti-platform-configuration"


def _code_key(code: str) -> str:
    return f"{_prefix()}lti:register:{hashlib.sha256(code.encode()).hexdigest()[:40]}"


def new_link(operator: str, base: str) -> tuple[str, int]:
    """``(the registration URL, when it expires in ms)``."""
    client = _redis()
    code = secrets.token_urlsafe(24)
    client.set(_code_key(code), operator.encode(), ex=LINK_SECONDS)
    return f"{base.rstrip('/')}/lti/register/{code}", _now_ms(client) + LINK_SECONDS * 1000


def tool_registration(base: str) -> dict[str, Any]:
    """What the tool asks the platform to register (OpenID Connect client metadata with
    the LTI tool configuration)."""
    urls = platforms.tool_urls(base)
    return {
        "application_type": "web",
        "response_types": ["id_token"],
        "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": urls["login_url"],
        "redirect_uris": [urls["launch_url"]],
        "client_name": TOOL_NAME,
        "jwks_uri": urls["jwks_url"],
        "token_endpoint_auth_method": "private_key_jwt",
        "scope": " ".join(SCOPES),
        TOOL_CONFIG: {
            "domain": urlsplit(base).netloc,
            "target_link_uri": urls["launch_url"],
            "claims": ["iss", "sub", "name"],
            "messages": [
                {"type": "LtiResourceLinkRequest", "target_link_uri": urls["launch_url"]},
                {
                    "type": "LtiDeepLinkingRequest",
                    "target_link_uri": urls["deep_linking_url"],
                    "label": "Add a chemistry card game",
                    "placements": ["ContentArea"],
                },
            ],
        },
    }


def register(code: str, params: dict[str, str], base: str) -> Platform:
    """Registers the platform that opened the link (``Refused`` says why not)."""
    client = _redis()
    key = _code_key(code) if code and len(code) < 100 else None
    operator = client.get(key) if key else None
    if operator is None or key is None:
        raise Refused(
            "registration_expired",
            "This registration link was already used or has expired (a day). Ask the "
            "service's operator for a new one.",
            status=401,
        )
    config_url = params.get("openid_configuration", "")
    if not config_url:
        raise Refused(
            "registration_incomplete",
            "The LMS opened this link without its openid_configuration; paste the link "
            "into the LMS's dynamic registration field (docs/LTI.md).",
        )
    try:
        config = get_json(config_url)
    except PlatformUnreachable as err:
        raise Refused(
            "platform_unreachable",
            f"The LMS's configuration could not be read: {err}.",
            status=502,
        ) from None
    if not isinstance(config, dict):
        raise Refused("bad_configuration", "The LMS's configuration is not a JSON object.")
    needed = ("issuer", "authorization_endpoint", "token_endpoint", "jwks_uri")
    missing = [n for n in (*needed, "registration_endpoint") if not isinstance(config.get(n), str)]
    if missing:
        raise Refused("bad_configuration", f"The LMS's configuration lacks {', '.join(missing)}.")
    if urlsplit(config["issuer"]).netloc != urlsplit(config_url).netloc:
        raise Refused(
            "bad_configuration",
            "The LMS's issuer is not on the host its configuration came from.",
        )
    headers = {"Content-Type": "application/json"}
    if params.get("registration_token"):
        headers["Authorization"] = f"Bearer {params['registration_token']}"
    try:
        status, data, _ = request(
            "POST",
            config["registration_endpoint"],
            body=orjson.dumps(tool_registration(base)),
            headers=headers,
        )
        answer = json_of(status, data, ok=(200, 201))
    except PlatformUnreachable as err:
        raise Refused(
            "platform_unreachable",
            f"The LMS did not accept the registration: {err}.",
            status=502,
        ) from None
    tool_config = answer.get(TOOL_CONFIG) if isinstance(answer, dict) else None
    if (
        not isinstance(answer, dict)
        or not answer.get("client_id")
        or not isinstance(tool_config, dict)
    ):
        raise Refused("bad_configuration", "The LMS's answer to the registration has no client id.")
    deployment = tool_config.get("deployment_id")
    body = {
        "issuer": config["issuer"],
        "client_id": str(answer["client_id"]),
        "deployment_ids": [str(deployment)] if deployment else [],
        "auth_login_url": config["authorization_endpoint"],
        "auth_token_url": config["token_endpoint"],
        "jwks_url": config["jwks_uri"],
        "name": _product(config),
    }
    if not body["deployment_ids"]:
        raise Refused(
            "bad_configuration", "The LMS's answer to the registration names no deployment."
        )
    try:
        platform = platforms.add(body, operator.decode(), "dynamic")
    except Problem as err:
        raise Refused(err.code, err.detail, status=err.status) from None
    client.delete(key)
    return platform


def _product(config: dict[str, Any]) -> str:
    product = config.get(PLATFORM_CONFIG)
    family = product.get("product_family_code") if isinstance(product, dict) else None
    host = urlsplit(config["issuer"]).netloc
    return f"{family} at {host}"[:100] if isinstance(family, str) else host[:100]
