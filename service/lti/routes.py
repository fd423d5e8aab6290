"""The LTI pages under ``/lti``: what an LMS and its users' browsers reach. They are
pages and protocol endpoints for people's browsers (form posts, redirects, HTML), not
API operations, so like ``/play`` they are outside the contract; ``docs/LTI.md``
describes each."""

from __future__ import annotations

from html import escape
from pathlib import Path

from flask import Blueprint, Response, current_app, redirect, request, send_file
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as BaseResponse

from ..http.jsonio import json_response
from ..http.problems import Problem
from . import deeplink, html, keys, landing, launch, platforms, registration
from .launch import Refused

FORMS = ("application/x-www-form-urlencoded", "multipart/form-data", "")
ASSETS = Path(__file__).resolve().parent.parent / "static" / "lti"


def _refused(err: Refused) -> Response:
    origins = err.platform.origins() if err.platform else []
    current_app.logger.info("lti refused: %s", err.code)
    return html.refused(
        err.code,
        "This activity could not be opened",
        err.why,
        status=err.status,
        frame_origins=origins,
    )


def _form() -> dict[str, str]:
    return {k: v for k, v in request.values.items() if isinstance(v, str)}


def make_blueprint() -> Blueprint:
    blp = Blueprint("lti", __name__, url_prefix="/lti")

    @blp.before_request
    def _forms_only() -> None:
        # an LMS and the pages post HTML forms; any other body is a client's mistake,
        # told as the rest of the service tells it
        if request.method == "POST" and request.mimetype not in FORMS:
            raise Problem(
                "unsupported_media_type",
                "This LTI endpoint takes the HTML form an LMS (or this tool's page) posts, "
                "as application/x-www-form-urlencoded.",
            )

    @blp.get("/jwks.json")
    def jwks() -> BaseResponse:
        resp = json_response(keys.jwks())
        resp.headers["Cache-Control"] = "public, max-age=300"
        return resp

    @blp.route("/login", methods=["GET", "POST"])
    def login() -> BaseResponse:
        try:
            return redirect(launch.login(_form(), platforms.base_url()), code=302)
        except Refused as err:
            return _refused(err)

    @blp.post("/launch")
    def launched() -> BaseResponse:
        try:
            verified = launch.verify(_form())
        except Refused as err:
            return _refused(err)
        origins = verified.platform.origins()
        if verified.message_type == launch.DEEP_LINKING:
            if not verified.teaches:
                return _refused(
                    Refused(
                        "not_a_teacher",
                        "Only a teacher of the course adds activities.",
                        status=403,
                        platform=verified.platform,
                    )
                )
            ticket = deeplink.open_ticket(verified)
            return html.page(
                "Add a chemistry card game", deeplink.picker(ticket), frame_origins=origins
            )
        try:
            return landing.land(verified)
        except Refused as err:
            return _refused(err)

    @blp.post("/deep-link")
    def deep_link() -> BaseResponse:
        form = _form()
        try:
            picked = deeplink.activity(form)
        except ValueError as err:
            # the ticket is still good: the teacher corrects the form
            return html.page(
                "Add a chemistry card game",
                deeplink.picker(form.get("ticket", ""), str(err)),
                status=422,
            )
        try:
            kept = deeplink.take_ticket(form.get("ticket", ""))
            target, token = deeplink.response_jwt(kept, picked, platforms.base_url())
        except Refused as err:
            return _refused(err)
        platform = platforms.get(kept["platform_id"])
        return html.autopost(
            "Adding the game to your course",
            target,
            {"JWT": token},
            frame_origins=platform.origins() if platform else [],
        )

    @blp.get("/register/<code>")
    def register(code: str) -> BaseResponse:
        try:
            platform = registration.register(code, _form(), platforms.base_url())
        except Refused as err:
            return _refused(err)
        body = (
            f"<p data-lti-close>{escape(platform.name)} is registered: its teachers can add "
            "the chemistry card games to their courses.</p>"
            f"<p>Client id <code>{escape(platform.client_id)}</code>, deployment "
            f"<code>{escape(', '.join(platform.deployment_ids))}</code>.</p>"
            "<p>You may close this window.</p>"
        )
        return html.page("Registered", body, frame_origins=platform.origins(), script=True)

    @blp.get("/seat/<ticket>")
    def seat(ticket: str) -> BaseResponse:
        try:
            return landing.seat_when_dealt(ticket)
        except Refused as err:
            return _refused(err)

    @blp.get("/assets/<name>")
    def asset(name: str) -> BaseResponse:
        path = ASSETS / name
        if "/" in name or name.startswith(".") or not path.is_file():
            raise NotFound()
        sent = send_file(path, max_age=300, conditional=True, etag=True)
        sent.headers["X-Content-Type-Options"] = "nosniff"
        return sent

    return blp
