"""The contract's LTI operations: an operator's platforms and registration links."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from ..docs import BODY_ERRORS, OPERATOR, merge, operation
from ..jsonio import json_response
from ..operators import AUTH_ERRORS, iso, the_operator
from ..parsing import ApiBlueprint as Blueprint
from . import registration
from .platforms import REDIS, PlatformRequest, add, base_url, listed, owned, remove, wire


def make_blueprint() -> Blueprint:
    blp = Blueprint(
        "lti_platforms",
        __name__,
        url_prefix="/v1/operator/lti",
        description="An operator's LTI 1.3 platforms (an LMS launching the games).",
    )

    @blp.route("/platforms")
    class Platforms(MethodView):
        @blp.arguments(PlatformRequest)
        @blp.response(201, {"$ref": "#/components/schemas/LtiPlatform"})
        @operation(
            blp,
            "createLtiPlatform",
            merge(
                AUTH_ERRORS,
                BODY_ERRORS,
                {409: ["lti_platform_exists"], 422: ["bad_lti_platform"]},
                REDIS,
            ),
            security=OPERATOR,
        )
        def post(self, body: dict[str, Any]) -> Any:
            """Register an LTI 1.3 platform (an LMS) by hand.

            The fields are what the LMS shows when its administrator adds this tool;
            the answer's `tool` block is what they enter on the LMS's side. Launches
            from this issuer, client id and deployment ids are then accepted.
            """
            me = the_operator()
            platform = add(body, me, "api")
            return json_response(wire(platform, base_url()), status=201)

        @blp.response(200, {"$ref": "#/components/schemas/LtiPlatformList"})
        @operation(blp, "listLtiPlatforms", merge(AUTH_ERRORS, REDIS), security=OPERATOR)
        def get(self) -> Any:
            """List your LTI platforms, newest first.

            Each with the fields it was registered with and what the LMS's side needs.
            """
            me = the_operator()
            return json_response({"platforms": [wire(p, base_url()) for p in listed(me)]})

    @blp.route("/platforms/<platform_id>")
    class One(MethodView):
        @blp.response(200, {"$ref": "#/components/schemas/LtiPlatform"})
        @operation(
            blp,
            "getLtiPlatform",
            merge(AUTH_ERRORS, {404: ["lti_platform_not_found"]}, REDIS),
            security=OPERATOR,
        )
        def get(self, platform_id: str) -> Any:
            """One of your LTI platforms.

            Its registration as kept, and the tool's URLs to enter on the LMS's side.
            """
            return json_response(wire(owned(the_operator(), platform_id), base_url()))

        @blp.response(204, description="Deleted: its launches are refused from now on.")
        @operation(
            blp,
            "deleteLtiPlatform",
            merge(AUTH_ERRORS, {404: ["lti_platform_not_found"]}, REDIS),
            security=OPERATOR,
        )
        def delete(self, platform_id: str) -> Any:
            """Delete one of your LTI platforms.

            Its launches are refused from now on; register it again to restore them.
            """
            remove(owned(the_operator(), platform_id))
            return Response(status=204)

    @blp.route("/registrations")
    class Registrations(MethodView):
        @blp.response(201, {"$ref": "#/components/schemas/LtiRegistrationLink"})
        @operation(
            blp,
            "createLtiRegistrationLink",
            # it reads no body; one sent is still held to the service's rules for bodies
            merge(AUTH_ERRORS, {413: ["body_too_large"], 415: ["unsupported_media_type"]}, REDIS),
            security=OPERATOR,
        )
        def post(self) -> Any:
            """A link for LTI Dynamic Registration (valid for a day, used once).

            The LMS's administrator pastes it where the LMS asks for a tool's
            registration URL (Moodle: *Tool URL*; Canvas: *Dynamic Registration*;
            Brightspace: *Registration endpoint*). The platform registered through it
            belongs to you.
            """
            me = the_operator()
            url, expires_ms = registration.new_link(me, base_url())
            return json_response({"registration_url": url, "expires": iso(expires_ms)}, status=201)

    return blp
