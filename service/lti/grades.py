"""Grades to the LMS (LTI Assignment and Grade Services 2.0) and its roster (Names and
Role Provisioning Services 2.0), with the client-credentials token flow.

**The score.** A student's place at their table (1 = first; seats that tie share the
better place) among its ``n`` seats, bots included, becomes a score out of
:data:`~service.lti.deeplink.SCORE_MAXIMUM` (100): finishing the game earns half, the
place the other half, linearly from last (50) to first (100); a table of one seat (a
solo game) gives 100 to a finished game. :func:`score_for` is the mapping.

**Delivery.** :func:`send` keeps the grade in Redis and makes it due work
(``service/sessions/due.py``, kind ``lti-grade``): a worker takes a token from the platform's
token endpoint (an RS256 client assertion signed with the tool's key, cached until a
minute before it expires), posts the score to ``<line item>/scores``, and logs the
attempt in the grade's record; a refused or failed attempt is tried again on the
callbacks' back-off (``WEBHOOK_BACKOFF_SECONDS``), then marked ``failed``. Each grade is
listed under its resource link (:func:`log`) for the teacher.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import jwt
import orjson
from flask import current_app

from ..sessions.due import DueWork
from . import platforms
from .deeplink import SCORE_MAXIMUM
from .http import PlatformUnreachable, json_of, request
from .keys import _now_ms, _prefix, _redis, signing_key
from .platforms import Platform

KIND = "lti-grade"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
ROSTER_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
MEMBERS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
KEPT_SECONDS = 14 * 24 * 3600  # a grade's record: two weeks (longer than any retry)
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


def score_for(place: int, seats: int, maximum: int = SCORE_MAXIMUM) -> float:
    """The score of a finished game by place (see the module's text).

    >>> [score_for(p, 4) for p in (1, 2, 3, 4)]
    [100.0, 83.33, 66.67, 50.0]
    >>> score_for(1, 1), score_for(2, 2, maximum=10)
    (100.0, 5.0)
    """
    if seats <= 1:
        return float(maximum)
    place = min(max(place, 1), seats)
    share = 0.5 + 0.5 * (seats - place) / (seats - 1)
    return round(maximum * share, 2)


@dataclass(frozen=True)
class Grade:
    """One student's score for one line item."""

    platform_id: str
    lineitem: str
    user_id: str
    score_given: float
    comment: str
    link: str  # the resource link's key (:func:`link_key`)
    name: str = ""  # the student's display name in the lesson, for the teacher's view


def link_key(platform_id: str, context_id: str | None, resource_link_id: str) -> str:
    """One name for (platform, context, resource link): a lesson's LTI identity."""
    raw = f"{platform_id}\n{context_id or ''}\n{resource_link_id}"
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def _grade_key(grade_id: str) -> str:
    return f"{_prefix()}lti:grade:{grade_id}"


def _log_key(link: str) -> str:
    return f"{_prefix()}lti:grades:{link}"


def _due() -> DueWork:
    due: DueWork = current_app.extensions["chemgames.due"]
    return due


def send(grade: Grade) -> str:
    """Keeps the grade and makes its delivery due now; its id."""
    client = _redis()
    grade_id = "grd_" + secrets.token_urlsafe(12)
    now = _now_ms(client)
    record = {
        "grade_id": grade_id,
        **grade.__dict__,
        "status": "pending",
        "created_ms": now,
        "attempts": [],
    }
    client.set(_grade_key(grade_id), orjson.dumps(record), ex=KEPT_SECONDS)
    client.rpush(_log_key(grade.link), grade_id)
    client.expire(_log_key(grade.link), KEPT_SECONDS)
    _due().schedule({DueWork.member(KIND, grade_id): now})
    return grade_id


def log(link: str) -> list[dict[str, Any]]:
    """Every grade sent for a resource link, oldest first, with its attempts."""
    client = _redis()
    ids = [i.decode() for i in client.lrange(_log_key(link), 0, -1)]
    found = [client.get(_grade_key(i)) for i in ids]
    return [orjson.loads(raw) for raw in found if raw]


# ------------------------------------------------------------------ the token ---
def _token_key(platform: Platform, scopes: str) -> str:
    digest = hashlib.sha256(f"{platform.platform_id}\n{scopes}".encode()).hexdigest()[:32]
    return f"{_prefix()}lti:token:{digest}"


def access_token(platform: Platform, scopes: tuple[str, ...]) -> str:
    """A bearer token of the platform for ``scopes`` (client credentials with a signed
    JWT assertion; kept until a minute before it expires)."""
    wanted = " ".join(scopes)
    client = _redis()
    kept = client.get(_token_key(platform, wanted))
    if kept:
        return str(kept.decode())
    now = int(time.time())
    key = signing_key()
    assertion = jwt.encode(
        {
            "iss": platform.client_id,
            "sub": platform.client_id,
            "aud": platform.auth_token_url,
            "iat": now,
            "exp": now + 300,
            "jti": secrets.token_urlsafe(16),
        },
        key.pem,
        algorithm="RS256",
        headers={"kid": key.kid},
    )
    form = {
        "grant_type": "client_credentials",
        "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        "client_assertion": assertion,
        "scope": wanted,
    }
    status, data, _ = request(
        "POST",
        platform.auth_token_url,
        body=urlencode(form).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    answer = json_of(status, data)
    token = answer.get("access_token") if isinstance(answer, dict) else None
    if not isinstance(token, str) or not token:
        raise PlatformUnreachable("its token endpoint answered no access_token")
    lasts = int(answer.get("expires_in") or 3600)
    if lasts > 90:
        client.set(_token_key(platform, wanted), token.encode(), ex=lasts - 60)
    return token


def _scores_url(lineitem: str) -> str:
    parts = urlsplit(lineitem)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/scores"))


def post_score(platform: Platform, grade: dict[str, Any]) -> int:
    """One attempt: the platform's status (``PlatformUnreachable`` when none)."""
    token = access_token(platform, (SCORE_SCOPE,))
    score = {
        "userId": grade["user_id"],
        "scoreGiven": grade["score_given"],
        "scoreMaximum": SCORE_MAXIMUM,
        "comment": grade["comment"],
        "activityProgress": "Completed",
        "gradingProgress": "FullyGraded",
        "timestamp": datetime.now(tz=UTC).isoformat(timespec="milliseconds"),
    }
    status, _, _ = request(
        "POST",
        _scores_url(grade["lineitem"]),
        body=orjson.dumps(score),
        headers={"Content-Type": SCORE_TYPE, "Authorization": f"Bearer {token}"},
    )
    return status


def deliver(grade_id: str) -> int | None:
    """The due work of one grade: an attempt, logged; when to try again (None: done)."""
    client = _redis()
    raw = client.get(_grade_key(grade_id))
    if raw is None:
        return None
    grade = orjson.loads(raw)
    if grade["status"] != "pending":
        return None
    now = _now_ms(client)
    platform = platforms.get(grade["platform_id"])
    started = time.monotonic()
    status: int | None = None
    error = ""
    if platform is None:
        error = "the platform's registration was deleted"
    else:
        try:
            status = post_score(platform, grade)
            if not 200 <= status < 300:
                error = f"answered {status}"
        except PlatformUnreachable as err:
            error = str(err)
    grade["attempts"].append(
        {
            "at_ms": now,
            "status": status,
            "error": error or None,
            "ms": round((time.monotonic() - started) * 1000),
        }
    )
    backoff = current_app.config["SETTINGS"].webhook_backoff_seconds
    tried = len(grade["attempts"])
    next_ms: int | None = None
    if not error:
        grade["status"] = "sent"
    elif platform is None or tried >= len(backoff):
        grade["status"] = "failed"
    else:
        next_ms = now + int(backoff[tried] * 1000)
    client.set(_grade_key(grade_id), orjson.dumps(grade), ex=KEPT_SECONDS)
    return next_ms


def install(due: DueWork) -> None:
    due.handlers[KIND] = deliver


# ------------------------------------------------------------------ the roster ---
def learners(platform: Platform, memberships_url: str, limit: int = 1000) -> list[dict[str, Any]]:
    """The course's active learners (NRPS): ``user_id`` and ``name`` where the platform
    shares it; at most ``limit`` (pages followed through the ``Link`` header are not:
    the first page is asked for all of them)."""
    token = access_token(platform, (ROSTER_SCOPE,))
    parts = urlsplit(memberships_url)
    query = "&".join(q for q in (parts.query, urlencode({"role": LEARNER, "limit": limit})) if q)
    status, data, _ = request(
        "GET",
        urlunsplit(parts._replace(query=query)),
        headers={"Accept": MEMBERS_TYPE, "Authorization": f"Bearer {token}"},
    )
    answer = json_of(status, data)
    members = answer.get("members") if isinstance(answer, dict) else None
    if not isinstance(members, list):
        raise PlatformUnreachable("its roster has no members list")
    return [
        {"user_id": str(m["user_id"]), "name": str(m.get("name") or "")}
        for m in members
        if isinstance(m, dict)
        and m.get("user_id")
        and m.get("status", "Active") == "Active"
        and any(str(r).endswith("#Learner") or r == "Learner" for r in m.get("roles", []))
    ][:limit]
