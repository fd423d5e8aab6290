"""Deep linking (LTI Deep Linking 2.0): the teacher picks a game and the tool returns an
``LtiDeepLinkingResponse`` with one ``ltiResourceLink`` and its ``lineItem``.

The verified request's settings are kept in Redis under a one-time ticket for an hour
(the picker's form carries the ticket, no cookie); the picked activity travels in the
link's ``custom`` claim, which the platform sends back at every launch of it:
``game``, ``players``, ``bot`` and ``options`` (JSON).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from html import escape
from typing import Any

import orjson
from flask import current_app

from . import platforms
from .keys import _prefix, _redis, signing_key
from .launch import CLAIM, DL_CLAIM, Launch, Refused

TICKET_SECONDS = 3600
RESPONSE_SECONDS = 300
SCORE_MAXIMUM = 100
TITLE_MAX = 100


@dataclass(frozen=True)
class Activity:
    """What the teacher picked."""

    game: str
    players: int
    bot: str
    options: dict[str, Any]
    title: str

    def custom(self) -> dict[str, str]:
        return {
            "game": self.game,
            "players": str(self.players),
            "bot": self.bot,
            "options": orjson.dumps(self.options).decode(),
        }


def _ticket_key(ticket: str) -> str:
    return f"{_prefix()}lti:dl:{hashlib.sha256(ticket.encode()).hexdigest()[:40]}"


def open_ticket(launch: Launch) -> str:
    settings = launch.claims[DL_CLAIM + "deep_linking_settings"]
    ticket = secrets.token_urlsafe(32)
    kept = {
        "platform_id": launch.platform.platform_id,
        "deployment_id": launch.deployment_id,
        "return_url": settings["deep_link_return_url"],
        "data": settings.get("data"),
    }
    _redis().set(_ticket_key(ticket), orjson.dumps(kept), ex=TICKET_SECONDS)
    return ticket


def take_ticket(ticket: str) -> dict[str, Any]:
    raw = _redis().getdel(_ticket_key(ticket)) if ticket and len(ticket) < 100 else None
    if raw is None:
        raise Refused(
            "deep_link_expired",
            "This activity picker was already used or has expired (an hour); add the "
            "activity again from your course.",
            status=401,
        )
    found: dict[str, Any] = orjson.loads(raw)
    return found


def _games() -> dict[str, Any]:
    found: dict[str, Any] = current_app.extensions["chemgames.games"]
    return found


def choosable(info: Any) -> list[Any]:
    """The options the picker offers: those with a fixed set of choices, never a
    secret one (a custom deal); every other option keeps its default."""
    return [o for o in info.options if o.choices and not o.secret]


def picker(ticket: str, error: str = "") -> str:
    """The picker's form (HTML)."""
    games = _games()
    game_choices = "".join(
        f'<option value="{escape(slug)}">{escape(api.info.title)} '
        f"({api.info.min_players}-{api.info.max_players} players)</option>"
        for slug, api in sorted(games.items())
    )
    bots = sorted({b for api in games.values() for b in api.info.bots})
    bot_choices = "".join(f'<option value="{escape(b)}">{escape(b)}</option>' for b in bots)
    options = ""
    for slug, api in sorted(games.items()):
        fields = ""
        for o in choosable(api.info):
            values = "".join(
                f'<option value="{escape(orjson.dumps(c).decode())}"'
                + (" selected" if c == o.default else "")
                + f">{escape(str(c))}</option>"
                for c in o.choices
            )
            ident = f"opt-{escape(slug)}-{escape(o.name)}"
            fields += (
                f'<label for="{ident}">{escape(o.name)}</label>'
                f'<select id="{ident}" name="option:{escape(slug)}:{escape(o.name)}" '
                f'aria-describedby="{ident}-about">{values}</select>'
                f'<p id="{ident}-about"><small>{escape(o.description)}</small></p>'
            )
        if fields:
            options += (
                f"<details><summary>Options of {escape(api.info.title)} (used when it is "
                f"the game picked)</summary>{fields}</details>"
            )
    shown_error = f'<p class="refused" role="alert">{escape(error)}</p>' if error else ""
    return (
        f"{shown_error}"
        '<form method="post" action="/lti/deep-link">'
        f'<input type="hidden" name="ticket" value="{escape(ticket)}">'
        f'<label for="game">Game</label><select id="game" name="game">{game_choices}</select>'
        '<label for="players">Players at each table</label>'
        '<input id="players" name="players" type="number" min="1" max="64" value="4">'
        f'<label for="bot">Bot on empty seats</label><select id="bot" name="bot">{bot_choices}'
        "</select>"
        f'<label for="title">Title in the course</label><input id="title" name="title" '
        f'type="text" maxlength="{TITLE_MAX}" value="">'
        f"{options}"
        '<button type="submit">Add to the course</button></form>'
    )


def activity(form: dict[str, str]) -> Activity:
    """The teacher's pick, checked (``ValueError`` says what to correct)."""
    games = _games()
    slug = form.get("game", "")
    if slug not in games:
        raise ValueError("Pick one of the games.")
    info = games[slug].info
    try:
        players = int(form.get("players", ""))
    except ValueError:
        raise ValueError("Players at each table must be a number.") from None
    if not info.min_players <= players <= info.max_players:
        raise ValueError(
            f"{info.title} is played by {info.min_players} to {info.max_players} players."
        )
    bot = form.get("bot", "")
    if bot not in info.bots:
        raise ValueError(f"{info.title}'s bots are: {', '.join(info.bots)}.")
    options: dict[str, Any] = {}
    for o in choosable(info):
        given = form.get(f"option:{slug}:{o.name}")
        if given is None:
            continue
        try:
            value = orjson.loads(given)
        except orjson.JSONDecodeError:
            value = None
        if value not in o.choices:
            raise ValueError(f"{o.description}: pick one of the choices.")
        if value != o.default:
            options[o.name] = value
    title = " ".join(form.get("title", "").split())[:TITLE_MAX] or info.title
    return Activity(slug, players, bot, options, title)


def response_jwt(kept: dict[str, Any], picked: Activity, base: str) -> tuple[str, str]:
    """``(the platform's return URL, the signed LtiDeepLinkingResponse)``."""
    platform = platforms.get(kept["platform_id"])
    if platform is None:
        raise Refused(
            "unknown_platform",
            "The LMS this picker was opened from is no longer registered with this service.",
            status=403,
        )
    now = int(time.time())
    item = {
        "type": "ltiResourceLink",
        "title": picked.title,
        "url": f"{base.rstrip('/')}/lti/launch",
        "custom": picked.custom(),
        "lineItem": {
            "scoreMaximum": SCORE_MAXIMUM,
            "label": picked.title,
            "resourceId": picked.game,
            "tag": "chemgames",
        },
    }
    claims: dict[str, Any] = {
        "iss": platform.client_id,
        "aud": platform.issuer,
        "azp": platform.client_id,
        "iat": now,
        "exp": now + RESPONSE_SECONDS,
        "nonce": secrets.token_urlsafe(16),
        CLAIM + "deployment_id": kept["deployment_id"],
        CLAIM + "message_type": "LtiDeepLinkingResponse",
        CLAIM + "version": "1.3.0",
        DL_CLAIM + "content_items": [item],
    }
    if kept.get("data") is not None:
        claims[DL_CLAIM + "data"] = kept["data"]
    key = signing_key()
    token = jwt_encode(claims, key.pem, key.kid)
    return str(kept["return_url"]), token


def jwt_encode(claims: dict[str, Any], pem: bytes, kid: str) -> str:
    import jwt

    return jwt.encode(claims, pem, algorithm="RS256", headers={"kid": kid})
