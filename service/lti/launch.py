"""OIDC third-party-initiated login and the launch (LTI 1.3 core, IMS Security Framework).

1. The platform sends the browser to ``/lti/login`` (GET or POST) with its issuer, the
   user's login hint and the target. The tool makes a ``state`` and a ``nonce``, keeps
   them in Redis for ten minutes (never in a cookie: an LMS's iframe has none), and
   sends the browser to the platform's authorization endpoint.
2. The platform posts the signed ``id_token`` and the ``state`` to ``/lti/launch``.
   :func:`verify` checks, in this order: the state is one the tool gave; the token is
   RS256 and signed by a key of the platform's key set; ``iss`` is the platform's,
   ``aud`` holds the tool's client id (``azp`` is it when there are several
   audiences); ``exp`` and ``iat`` (a minute's leeway); the deployment is registered;
   the LTI version is 1.3.0 and the message type one the tool handles; the ``nonce`` was
   never used (Redis ``SET NX`` with a time to live) and is the one the state was given.
   Only then is anything created. A state is good for its one nonce, so for one launch.

Each refusal is a :class:`Refused` with a stable code, shown as a page that says what
happened (:func:`service.lti.html.refused`).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

import jwt
import orjson
from jwt.algorithms import RSAAlgorithm

from . import platforms
from .http import PlatformUnreachable, get_json
from .keys import _prefix, _redis
from .platforms import Platform

STATE_SECONDS = 600
NONCE_SECONDS = 3600  # longer than any id_token this tool accepts lives
LEEWAY_SECONDS = 60
MAX_TOKEN = 64 * 1024
JWKS_CACHE_SECONDS = 300

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
DL_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
RESOURCE_LINK = "LtiResourceLinkRequest"
DEEP_LINKING = "LtiDeepLinkingRequest"
MESSAGES = (RESOURCE_LINK, DEEP_LINKING)
TEACHING_ROLES = (
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
    "http://purl.imsglobal.org/vocab/lis/v2/membership#ContentDeveloper",
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator",
    "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant",
    "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator",
    "http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator",
)


class Refused(Exception):
    """A login or launch the tool will not take; ``why`` is for a person."""

    def __init__(
        self, code: str, why: str, status: int = 400, platform: Platform | None = None
    ) -> None:
        super().__init__(why)
        self.code, self.why, self.status, self.platform = code, why, status, platform


@dataclass(frozen=True)
class Launch:
    """A launch that passed every check."""

    platform: Platform
    claims: dict[str, Any]

    @property
    def message_type(self) -> str:
        return str(self.claims[CLAIM + "message_type"])

    @property
    def deployment_id(self) -> str:
        return str(self.claims[CLAIM + "deployment_id"])

    @property
    def sub(self) -> str | None:
        sub = self.claims.get("sub")
        return str(sub) if sub else None

    @property
    def roles(self) -> list[str]:
        roles = self.claims.get(CLAIM + "roles")
        return [str(r) for r in roles] if isinstance(roles, list) else []

    @property
    def teaches(self) -> bool:
        return any(r in TEACHING_ROLES for r in self.roles)

    @property
    def context_id(self) -> str | None:
        context = self.claims.get(CLAIM + "context")
        return str(context["id"]) if isinstance(context, dict) and "id" in context else None

    @property
    def resource_link_id(self) -> str | None:
        link = self.claims.get(CLAIM + "resource_link")
        return str(link["id"]) if isinstance(link, dict) and "id" in link else None

    @property
    def custom(self) -> dict[str, Any]:
        custom = self.claims.get(CLAIM + "custom")
        return custom if isinstance(custom, dict) else {}


# ------------------------------------------------------------------------ login ---
def login(params: dict[str, str], base: str) -> str:
    """Where to send the browser for a third-party-initiated login (the platform's
    authorization endpoint, with a new state and nonce kept in Redis)."""
    issuer, hint = params.get("iss", ""), params.get("login_hint", "")
    target = params.get("target_link_uri", "")
    if not issuer or not hint or not target:
        raise Refused(
            "login_incomplete",
            "The LMS started a launch without its issuer, login hint or target; it is not "
            "an LTI 1.3 login request.",
        )
    platform = platforms.find(issuer, params.get("client_id"))
    if platform is None:
        raise Refused(
            "unknown_platform",
            f"No LMS with the issuer {issuer!r}"
            + (f" and client id {params['client_id']!r}" if params.get("client_id") else "")
            + " is registered with this service. Its administrator registers it first "
            "(docs/LTI.md).",
            status=403,
        )
    deployment = params.get("lti_deployment_id")
    if deployment and deployment not in platform.deployment_ids:
        raise Refused(
            "unknown_deployment",
            f"The deployment {deployment!r} of this LMS is not registered with this service; "
            "its administrator adds it to the registration.",
            status=403,
            platform=platform,
        )
    if urlsplit(target).netloc != urlsplit(base).netloc:
        raise Refused(
            "bad_target",
            "The launch's target is not on this service.",
            platform=platform,
        )
    state, nonce = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    record = {"platform_id": platform.platform_id, "nonce": nonce}
    _redis().set(_state_key(state), orjson.dumps(record), ex=STATE_SECONDS)
    query = {
        "scope": "openid",
        "response_type": "id_token",
        "response_mode": "form_post",
        "prompt": "none",
        "client_id": platform.client_id,
        "redirect_uri": f"{base.rstrip('/')}/lti/launch",
        "login_hint": hint,
        "state": state,
        "nonce": nonce,
    }
    if params.get("lti_message_hint"):
        query["lti_message_hint"] = params["lti_message_hint"]
    sep = "&" if urlsplit(platform.auth_login_url).query else "?"
    return f"{platform.auth_login_url}{sep}{urlencode(query)}"


def _state_key(state: str) -> str:
    return f"{_prefix()}lti:state:{hashlib.sha256(state.encode()).hexdigest()[:40]}"


def _nonce_key(issuer: str, nonce: str) -> str:
    digest = hashlib.sha256(f"{issuer}\n{nonce}".encode()).hexdigest()[:40]
    return f"{_prefix()}lti:nonce:{digest}"


# ----------------------------------------------------------------------- launch ---
_KEY_SETS: dict[str, tuple[float, dict[str, Any]]] = {}


def platform_keys(platform: Platform, fresh: bool = False) -> dict[str, Any]:
    """The platform's key set (kept five minutes in this process)."""
    cached = _KEY_SETS.get(platform.jwks_url)
    if cached and not fresh and cached[0] > time.monotonic():
        return cached[1]
    try:
        found = get_json(platform.jwks_url)
    except PlatformUnreachable as err:
        raise Refused(
            "platform_keys_unavailable",
            f"The LMS's key set could not be read ({err}); try again in a minute.",
            status=502,
            platform=platform,
        ) from None
    if not isinstance(found, dict) or not isinstance(found.get("keys"), list):
        raise Refused(
            "platform_keys_unavailable",
            "The LMS's key set is not a JWKS.",
            status=502,
            platform=platform,
        )
    _KEY_SETS[platform.jwks_url] = (time.monotonic() + JWKS_CACHE_SECONDS, found)
    return found


def _public_key(platform: Platform, kid: str | None) -> Any:
    for fresh in (False, True):  # a key the cached set lacks: the platform rotated
        keys = [k for k in platform_keys(platform, fresh)["keys"] if isinstance(k, dict)]
        named = [k for k in keys if kid is None or k.get("kid") == kid]
        rsa = [k for k in named if k.get("kty") == "RSA"]
        if rsa:
            return RSAAlgorithm.from_jwk(rsa[0])
    raise Refused(
        "bad_signature",
        "The launch was signed with a key the LMS does not publish.",
        status=401,
        platform=platform,
    )


def verify(form: dict[str, str]) -> Launch:
    """The launch ``form`` posts, if it passes every check (see the module's text)."""
    token, state = form.get("id_token", ""), form.get("state", "")
    if not token or not state or len(token) > MAX_TOKEN:
        raise Refused(
            "launch_incomplete",
            "The launch reached this service without its signed message or its state.",
        )
    client = _redis()
    raw = client.get(_state_key(state))
    if raw is None:
        raise Refused(
            "launch_expired",
            "This launch is not one this service started, or it was started more than ten "
            "minutes ago, or it was already used.",
            status=401,
        )
    record = orjson.loads(raw)
    platform = platforms.get(record["platform_id"])
    if platform is None:
        raise Refused(
            "unknown_platform",
            "The LMS this launch came from is no longer registered with this service.",
            status=403,
        )
    claims = _decode(token, platform)
    _check_claims(claims, platform)
    # the nonce is spent before anything is created: a second post of this message fails
    # here (the state is kept until it expires: it is good for its one nonce only)
    if not client.set(
        _nonce_key(platform.issuer, str(claims["nonce"])), b"1", nx=True, ex=NONCE_SECONDS
    ):
        raise Refused(
            "launch_replayed",
            "This launch message was already used (its nonce was seen before); open the "
            "activity again from your course.",
            status=401,
            platform=platform,
        )
    if claims["nonce"] != record["nonce"]:
        raise Refused(
            "launch_replayed",
            "This launch's nonce is not the one its login was given.",
            status=401,
            platform=platform,
        )
    return Launch(platform, claims)


def _decode(token: str, platform: Platform) -> dict[str, Any]:
    def refuse(code: str, why: str) -> Refused:
        return Refused(code, why, status=401, platform=platform)

    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        raise refuse("bad_token", "The launch message is not a signed JWT.") from None
    if header.get("alg") != "RS256":
        raise refuse("bad_token", "The launch message is not signed with RS256.")
    key = _public_key(platform, header.get("kid"))
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            key,
            algorithms=["RS256"],
            audience=platform.client_id,
            issuer=platform.issuer,
            leeway=LEEWAY_SECONDS,
            options={"require": ["exp", "iat", "iss", "aud", "nonce"]},
        )
    except jwt.InvalidSignatureError:
        raise refuse(
            "bad_signature", "The launch's signature does not match the LMS's keys."
        ) from None
    except jwt.ExpiredSignatureError:
        raise refuse(
            "launch_expired_token",
            "The launch message has expired (the LMS signed it too long ago, or its clock "
            "is wrong); open the activity again.",
        ) from None
    except jwt.InvalidAudienceError:
        raise refuse(
            "wrong_audience",
            "The launch message is addressed to another tool (its audience is not this "
            "registration's client id).",
        ) from None
    except jwt.InvalidIssuerError:
        raise refuse("wrong_issuer", "The launch message's issuer is not this LMS's.") from None
    except (jwt.ImmatureSignatureError, jwt.InvalidIssuedAtError):
        raise refuse("bad_token", "The launch message is dated in the future.") from None
    except jwt.MissingRequiredClaimError as err:
        raise refuse("bad_token", f"The launch message has no {err.claim!r} claim.") from None
    except jwt.PyJWTError:
        raise refuse("bad_token", "The launch message cannot be read.") from None
    return claims


def _check_claims(claims: dict[str, Any], platform: Platform) -> None:
    def refuse(code: str, why: str, status: int = 401) -> Refused:
        return Refused(code, why, status=status, platform=platform)

    aud = claims["aud"]
    azp = claims.get("azp")
    if isinstance(aud, list) and len(aud) > 1 and azp is None:
        raise refuse("wrong_audience", "The launch has several audiences and no `azp`.")
    if azp is not None and azp != platform.client_id:
        raise refuse("wrong_audience", "The launch's authorized party (`azp`) is another tool.")
    deployment = claims.get(CLAIM + "deployment_id")
    if deployment not in platform.deployment_ids:
        raise refuse(
            "unknown_deployment",
            f"The launch comes from the deployment {deployment!r}, which is not registered "
            "for this LMS; its administrator adds it to the registration.",
            status=403,
        )
    if claims.get(CLAIM + "version") != "1.3.0":
        raise refuse("unsupported_message", "The launch is not an LTI 1.3.0 message.")
    kind = claims.get(CLAIM + "message_type")
    if kind not in MESSAGES:
        raise refuse(
            "unsupported_message",
            f"This tool takes resource-link launches and deep linking, not {kind!r}.",
        )
    if kind == RESOURCE_LINK:
        link = claims.get(CLAIM + "resource_link")
        if not isinstance(link, dict) or not link.get("id"):
            raise refuse("bad_token", "The launch names no resource link.")
    if kind == DEEP_LINKING:
        settings = claims.get(DL_CLAIM + "deep_linking_settings")
        if not isinstance(settings, dict) or not settings.get("deep_link_return_url"):
            raise refuse("bad_token", "The deep-linking request names no return URL.")
