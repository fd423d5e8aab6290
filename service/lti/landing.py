"""Where a verified resource-link launch lands: the lesson of its resource link.

One lesson per (platform, context, resource link), made at the first launch from the
activity the teacher picked (the link's ``custom`` claim: ``game``, ``players``,
``bot``, ``options``) and owned by the platform's operator; a new one is made when it
has expired. An instructor lands on its lesson page (the teacher token in the URL
fragment); a learner joins it with the LMS identity (``sub``, opaque: the lesson keeps
a digest of it) and the name the LMS shares, and lands on their seat page (the seat
credential in the fragment). Both pages are opened with ``?lti=<platform id>`` so that
they may be framed by that platform (:func:`service.games.pages.frame_origins`). A student
whose table is not dealt yet (it is, when full or when the teacher starts) waits on a
page of the tool that looks again every few seconds (no script: a meta refresh to a
one-time ticket kept in Redis) and then opens the seat page.

For grades, the lesson remembers the launch's line item (the AGS claim's ``lineitem``)
and which seat each LMS user sits in; when a table ends, :func:`table_over` sends each
of them their score (:mod:`service.lti.grades`).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any
from urllib.parse import quote

import orjson
from flask import redirect
from werkzeug.wrappers import Response as BaseResponse

from ..http.problems import Problem
from ..lessons import codes, seating
from ..lessons.blueprint import teacher_token
from ..sessions import flow
from . import grades, html, platforms
from .http import PlatformUnreachable
from .keys import _prefix, _redis
from .launch import AGS_CLAIM, NRPS_CLAIM, Launch, Refused


def _lesson_key(link: str) -> str:
    return f"{_prefix()}lti:lesson:{link}"


def _grading_key(lesson_id: str) -> str:
    return f"{_prefix()}lti:lesson-grading:{lesson_id}"


def _students_key(lesson_id: str) -> str:
    return f"{_prefix()}lti:lesson-students:{lesson_id}"


def _config(launch: Launch) -> dict[str, Any]:
    custom = launch.custom
    try:
        options = orjson.loads(custom.get("options") or "{}")
        players = int(custom.get("players") or 0)
    except (orjson.JSONDecodeError, ValueError):
        options, players = None, 0
    if not custom.get("game") or not players or not isinstance(options, dict):
        raise Refused(
            "activity_not_chosen",
            "This activity names no game: the teacher adds it again from the course, "
            "picking the game (deep linking).",
            platform=launch.platform,
        )
    link = launch.claims.get("https://purl.imsglobal.org/spec/lti/claim/resource_link") or {}
    return {
        "game": str(custom["game"]),
        "table_size": players,
        "bot": str(custom.get("bot") or "") or None,
        "options": options,
        "title": str(link.get("title") or "")[:100],
    }


def lesson_for(launch: Launch) -> str:
    """The lesson of the launch's resource link (made when there is none alive)."""
    assert launch.resource_link_id is not None
    link = grades.link_key(launch.platform.platform_id, launch.context_id, launch.resource_link_id)
    client = _redis()
    found = client.get(_lesson_key(link))
    if found is not None and seating.store().lesson(found.decode()) is not None:
        return str(found.decode())
    try:
        lesson_id, _, _ = seating.create(
            _config(launch), launch.platform.operator, platforms.base_url()
        )
    except Problem as err:
        raise Refused(err.code, err.detail, status=err.status, platform=launch.platform) from None
    ttl = seating.results_ttl()
    # two first launches at once: the first lesson kept is everyone's (the other expires)
    if found is None and not client.set(_lesson_key(link), lesson_id, nx=True, ex=ttl):
        kept = client.get(_lesson_key(link))
        return str(kept.decode()) if kept else lesson_id
    if found is not None:
        client.set(_lesson_key(link), lesson_id, ex=ttl)
    ags = launch.claims.get(AGS_CLAIM)
    nrps = launch.claims.get(NRPS_CLAIM)
    grading = {
        "platform_id": launch.platform.platform_id,
        "link": link,
        "lineitem": ags.get("lineitem") if isinstance(ags, dict) else None,
        "memberships": nrps.get("context_memberships_url") if isinstance(nrps, dict) else None,
    }
    client.set(_grading_key(lesson_id), orjson.dumps(grading), ex=ttl)
    return lesson_id


def _name(launch: Launch) -> str:
    claims = launch.claims
    for given in (claims.get("name"), claims.get("given_name")):
        if isinstance(given, str) and codes.display_name(given):
            return str(codes.display_name(given))
    return "Student"


def _framed(url: str, launch: Launch) -> str:
    path, _, fragment = url.partition("#")
    query = f"lti={quote(launch.platform.platform_id)}"
    return f"{path}{'&' if '?' in path else '?'}{query}" + (f"#{fragment}" if fragment else "")


def land(launch: Launch) -> BaseResponse:
    lesson_id = lesson_for(launch)
    if launch.teaches:
        page = f"/play/lessons/{lesson_id}#token={quote(teacher_token(lesson_id), safe='')}"
        return redirect(_framed(page, launch), code=303)
    if launch.sub is None:
        raise Refused(
            "anonymous_launch",
            "The LMS sent this launch without a user: a student plays signed in.",
            platform=launch.platform,
        )
    identity = f"lti:{launch.platform.platform_id}:{launch.sub}"
    name = _name(launch)
    try:
        seat = seating.join(lesson_id, identity, name)
    except Problem as err:
        if err.code != "name_taken":
            raise Refused(
                err.code, err.detail, status=err.status, platform=launch.platform
            ) from None
        # two students the LMS names alike: the second is told apart by a short tag
        tag = hashlib.sha256(identity.encode()).hexdigest()[:4]
        seat = seating.join(lesson_id, identity, f"{name[: codes.NAME_MAX - 5]} {tag}")
    client = _redis()
    client.hset(_students_key(lesson_id), f"{seat.table}/{seat.seat}", launch.sub)
    client.expire(_students_key(lesson_id), seating.results_ttl())
    target = _framed(seat.seat_url, launch)
    if flow.store().listing(seat.session_id) is not None:
        return redirect(target, code=303)
    # the table is dealt when it is full or the teacher starts: wait on a page of ours
    ticket = secrets.token_urlsafe(24)
    kept = {"seat_url": target, "session_id": seat.session_id, "table": seat.table}
    kept["platform_id"] = launch.platform.platform_id
    client.set(_wait_key(ticket), orjson.dumps(kept), ex=seating.ttl())
    return waiting(ticket, kept, launch.platform.origins())


def _wait_key(ticket: str) -> str:
    return f"{_prefix()}lti:wait:{hashlib.sha256(ticket.encode()).hexdigest()[:40]}"


def waiting(ticket: str, kept: dict[str, Any], origins: list[str]) -> BaseResponse:
    body = (
        f'<p role="status">You have a seat at table {int(kept["table"]) + 1}. Your table '
        "starts when it is full or when your teacher starts the lesson; this page then "
        "opens your seat by itself.</p>"
    )
    return html.page(
        "Waiting for your table", body, frame_origins=origins, refresh=f"/lti/seat/{ticket}"
    )


def seat_when_dealt(ticket: str) -> BaseResponse:
    """The waiting page's next look: the seat page once the table is dealt (the ticket
    is then spent), else the waiting page again."""
    client = _redis()
    key = _wait_key(ticket) if 0 < len(ticket) < 100 else None
    raw = client.get(key) if key else None
    if raw is None or key is None:
        raise Refused(
            "seat_wait_expired",
            "This waiting page has expired or was already used; open the activity again "
            "from your course to get back to your seat.",
            status=401,
        )
    kept = orjson.loads(raw)
    platform = platforms.get(kept["platform_id"])
    origins = platform.origins() if platform else []
    if flow.store().listing(kept["session_id"]) is None:
        return waiting(ticket, kept, origins)
    client.delete(key)
    return redirect(kept["seat_url"], code=303)


def table_over(lesson_id: str, result: dict[str, Any]) -> None:
    """A lesson's table ended: each LMS student at it is sent their score."""
    if result.get("ended") != "finished":
        return  # a table the teacher ended has no final places
    client = _redis()
    raw = client.get(_grading_key(lesson_id))
    if raw is None:
        return
    grading = orjson.loads(raw)
    if not grading.get("lineitem"):
        return  # the platform gave no line item for this link: nothing to grade
    students = {k.decode(): v.decode() for k, v in client.hgetall(_students_key(lesson_id)).items()}
    seats = result.get("seats") or []
    lesson = seating.store().lesson(lesson_id)
    game = lesson["config"]["game"] if lesson else ""
    title = seating.games()[game].info.title if game in seating.games() else game
    for entry in seats:
        sub = students.get(f"{result['table']}/{entry['seat']}")
        if sub is None or entry.get("place") is None:
            continue
        place, count = int(entry["place"]), len(seats)
        grades.send(
            grades.Grade(
                platform_id=grading["platform_id"],
                lineitem=grading["lineitem"],
                user_id=sub,
                score_given=grades.score_for(place, count),
                comment=f"Place {place} of {count} at {title}.",
                link=grading["link"],
                name=str(entry.get("name") or ""),
            )
        )


def overview(lesson_id: str) -> dict[str, Any] | None:
    """The LTI side of a lesson for its teacher (``None``: not an LTI lesson): the
    course's learners who have not joined (NRPS), and every grade sent (AGS)."""
    client = _redis()
    raw = client.get(_grading_key(lesson_id))
    if raw is None:
        return None
    grading = orjson.loads(raw)
    platform = platforms.get(grading["platform_id"])
    joined = {v.decode() for v in client.hvals(_students_key(lesson_id))}
    roster: dict[str, Any] = {"available": False, "not_joined": [], "error": None}
    if platform is not None and grading.get("memberships"):
        try:
            learners = grades.learners(platform, grading["memberships"])
            roster["available"] = True
            roster["not_joined"] = [
                {"name": m["name"] or "(no name shared)"}
                for m in learners
                if m["user_id"] not in joined
            ]
        except PlatformUnreachable as err:
            roster["error"] = f"The LMS's roster could not be read: {err}."
    sent = [
        {
            "name": g.get("name") or None,
            "score": g["score_given"],
            "status": g["status"],
            "attempts": len(g["attempts"]),
            "last_error": (g["attempts"][-1]["error"] if g["attempts"] else None),
        }
        for g in grades.log(grading["link"])
    ]
    return {
        "platform": platform.name if platform else None,
        "roster": roster,
        "grades": sent,
    }
