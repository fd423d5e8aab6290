"""The contract's LTI operations: an operator's platforms and registration links."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from rules.times import iso

from ..games.docs import AS_TEACHER, BODY_ERRORS, OPERATOR, merge, operation
from ..http.jsonio import json_response
from ..http.parsing import ApiBlueprint as Blueprint
from ..http.problems import Problem
from ..lessons.blueprint import TEACHER_ERRORS, teacher
from ..school.operators import AUTH_ERRORS, the_operator
from . import landing, registration
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


LESSON_LTI = {
    "type": "object",
    "description": "A lesson opened from an LMS: who has not joined, and the grades sent.",
    "properties": {
        "platform": {
            "type": ["string", "null"],
            "description": "The LMS's name; null if its registration was deleted.",
        },
        "roster": {
            "type": "object",
            "description": "The course's learners (LTI Names and Role Provisioning).",
            "properties": {
                "available": {
                    "type": "boolean",
                    "description": "Whether the LMS's roster was read.",
                },
                "not_joined": {
                    "type": "array",
                    "description": "Active learners of the course not seated in the lesson.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "description": "As the LMS shares it."}
                        },
                        "required": ["name"],
                        "additionalProperties": False,
                    },
                },
                "error": {
                    "type": ["string", "null"],
                    "description": "Why the roster could not be read, if it could not.",
                },
            },
            "required": ["available", "error", "not_joined"],
            "additionalProperties": False,
        },
        "grades": {
            "type": "array",
            "description": "Every grade sent to the LMS for this activity, oldest first.",
            "items": {
                "type": "object",
                "properties": {
                    "name": {
                        "type": ["string", "null"],
                        "description": "The student's name in the lesson.",
                    },
                    "score": {
                        "type": "number",
                        "minimum": 0,
                        "maximum": 100,
                        "description": "Out of 100.",
                    },
                    "status": {
                        "type": "string",
                        "enum": ["pending", "sent", "failed"],
                        "description": "Sent (accepted), being tried, or given up.",
                    },
                    "attempts": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": 100,
                        "description": "Attempts made so far.",
                    },
                    "last_error": {
                        "type": ["string", "null"],
                        "description": "What went wrong at the last attempt, if anything.",
                    },
                },
                "required": ["attempts", "last_error", "name", "score", "status"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["grades", "platform", "roster"],
    "additionalProperties": False,
}


def make_lesson_blueprint() -> Blueprint:
    blp = Blueprint(
        "lti_lessons",
        __name__,
        url_prefix="/v1/lessons",
        description="A lesson opened from an LMS (LTI).",
    )

    @blp.route("/<lesson_id>/lti")
    class LessonLti(MethodView):
        @blp.response(200, {"$ref": "#/components/schemas/LessonLti"})
        @operation(blp, "getLessonLti", TEACHER_ERRORS, security=AS_TEACHER)
        def get(self, lesson_id: str) -> Any:
            """What the LMS says of a lesson opened from it.

            The course's learners who have not joined yet (read from the LMS now,
            through LTI Names and Role Provisioning), and every grade sent to the
            LMS's grade book, with its attempts. `404 lesson_not_found` for a lesson
            not opened from an LMS.
            """
            teacher(lesson_id)
            found = landing.overview(lesson_id)
            if found is None:
                raise Problem(
                    "lesson_not_found",
                    f"Lesson {lesson_id!r} was not opened from an LMS (LTI).",
                )
            return json_response(found)

    return blp
