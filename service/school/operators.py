"""Operators: who may create hosted sessions on a deployment, and own them.

A deployment may name operator keys (``OPERATOR_KEYS``, comma-separated): a school's
LMS plugin server, a teacher's app back end. Only their SHA-256 digests are kept, in
memory; a session records its operator by a short digest too. When keys are set,
creating a hosted session needs ``Authorization: Bearer <operator key>``, and the
operator lists its live sessions and ends them (a teacher closing a lesson). Without
keys (a developer's ``make serve``) anyone may create a session, as before.

>>> ops = Operators.from_keys(("k-1",))
>>> ops.identify("k-1") == operator_id("k-1"), ops.identify("k-2")
(True, None)
"""

from __future__ import annotations

import hashlib
import hmac
from base64 import urlsafe_b64decode, urlsafe_b64encode
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import marshmallow as ma
import orjson
from flask import Response, current_app
from flask.views import MethodView
from marshmallow import fields, validate

from rules.times import iso

from ..games.docs import OPERATOR, merge, operation
from ..http.auth import bearer
from ..http.jsonio import json_response
from ..http.parsing import ApiBlueprint as Blueprint
from ..http.problems import Problem
from ..sessions import flow
from ..sessions.callbacks import Callback, delivery_log


def digest(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()


def operator_id(key: str) -> str:
    """The name a session records its operator by (a digest: never the key itself)."""
    return hashlib.sha256(b"operator:" + key.encode()).hexdigest()[:20]


@dataclass(frozen=True)
class Operators:
    """The operator keys of a deployment, as digests."""

    digests: tuple[tuple[bytes, str], ...] = ()

    @classmethod
    def from_keys(cls, keys: Iterable[str]) -> Operators:
        return cls(tuple((digest(k), operator_id(k)) for k in keys if k))

    @property
    def required(self) -> bool:
        """Whether hosted sessions need an operator (keys are configured)."""
        return bool(self.digests)

    def identify(self, key: str) -> str | None:
        """The operator a key belongs to, if any (compared in constant time)."""
        presented = digest(key)
        found = None
        for known, name in self.digests:
            if hmac.compare_digest(known, presented):
                found = name
        return found


def operators() -> Operators:
    found: Operators = current_app.extensions["chemgames.operators"]
    return found


def _refused() -> Problem:
    return Problem(
        "operator_key_invalid",
        "This is not an operator key of this deployment. Hosted sessions are created by "
        "the school's or the app's server with its operator key, as Authorization: Bearer "
        "<operator key>; ask your administrator.",
    )


def creator() -> str:
    """The operator creating a hosted session: required where keys are configured (``401``
    / ``403``), ``""`` (anyone) where they are not."""
    ops = operators()
    if not ops.required:
        return ""
    found = ops.identify(bearer())
    if found is None:
        raise _refused()
    return found


def caller() -> str:
    """The operator making an open request (stateless setup), if it says it is one: ``""``
    without an Authorization header or where the deployment has no operator keys; a key
    that is not one of them is ``403`` (an operator's typo is told, not ignored)."""
    ops = operators()
    if not ops.required or bearer(required=False) is None:
        return ""
    found = ops.identify(bearer())
    if found is None:
        raise _refused()
    return found


def the_operator() -> str:
    """The operator making this request (its own endpoints need one)."""
    found = operators().identify(bearer())
    if found is None:
        raise _refused()
    return found


def encode_cursor(created_ms: int) -> str:
    return urlsafe_b64encode(str(created_ms).encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> int:
    try:
        return int(urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode())
    except (ValueError, UnicodeDecodeError):
        raise Problem(
            "invalid_request",
            "This cursor is not one a list of sessions gave; start again without it.",
            errors={"cursor": ["Not a cursor this service gave."]},
        ) from None


class ListQuery(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    limit = fields.Integer(
        load_default=20,
        validate=validate.Range(min=1, max=100),
        metadata={"description": "How many sessions per page (1-100)."},
    )
    cursor = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=40),
        metadata={"description": "`next_cursor` of the previous page, for the next one."},
    )


SESSION = {
    "type": "object",
    "description": "One of an operator's live sessions.",
    "properties": {
        "session_id": {"type": "string", "description": "The session."},
        "game": {"type": "string", "description": "The game's slug."},
        "players": {
            "type": "integer",
            "minimum": 1,
            "maximum": 64,
            "description": "Number of seats.",
        },
        "phase": {
            "type": "string",
            "enum": ["playing", "finished"],
            "description": "Whether the game is still being played.",
        },
        "version": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2**53 - 1,
            "description": "Moves applied so far.",
        },
        "created": {"type": "string", "format": "date-time", "description": "When created."},
        "finished": {
            "type": ["string", "null"],
            "format": "date-time",
            "description": "When the game ended; null while it is played.",
        },
        "url": {"type": "string", "description": "The session's resource."},
    },
    "required": [
        "created",
        "finished",
        "game",
        "phase",
        "players",
        "session_id",
        "url",
        "version",
    ],
    "additionalProperties": False,
}
SESSION_LIST = {
    "type": "object",
    "description": "An operator's live sessions, newest first.",
    "properties": {
        "sessions": {"type": "array", "items": {"$ref": "#/components/schemas/OperatorSession"}},
        "next_cursor": {
            "type": ["string", "null"],
            "description": "Pass it as `cursor` for the next page; null on the last page.",
        },
    },
    "required": ["next_cursor", "sessions"],
    "additionalProperties": False,
}
AUTH_ERRORS = {401: ["credentials_missing"], 403: ["operator_key_invalid"]}


def make_blueprint() -> Blueprint:
    blp = Blueprint(
        "operator",
        __name__,
        url_prefix="/v1/operator",
        description="An operator's own hosted sessions (deployments with OPERATOR_KEYS).",
    )

    @blp.route("/sessions")
    class Sessions(MethodView):
        @blp.arguments(ListQuery, location="query", unknown=ma.RAISE)
        @blp.response(200, {"$ref": "#/components/schemas/OperatorSessionList"})
        @operation(
            blp,
            "listOperatorSessions",
            merge(AUTH_ERRORS, {422: ["invalid_request"], 503: ["redis_unavailable"]}),
            security=OPERATOR,
        )
        def get(self, query: dict[str, Any]) -> Any:
            """List your live sessions, newest first (paginated).

            Every session your operator key created that has not expired: its game,
            players, phase, version, and when it was created and finished.
            """
            me = the_operator()
            before = decode_cursor(query["cursor"]) if query["cursor"] else float("inf")
            limit = query["limit"]
            found = flow.store().operator_sessions(me, before=before, limit=limit + 1)
            page, more = found[:limit], len(found) > limit
            sessions = [
                {
                    "session_id": sid,
                    "game": listed["slug"],
                    "players": int(listed["players"]),
                    "phase": "finished" if listed.get("finished_ms") else "playing",
                    "version": int(listed["version"]),
                    "created": iso(created),
                    "finished": iso(int(listed["finished_ms"]))
                    if listed.get("finished_ms")
                    else None,
                    "url": f"/v1/{listed['slug']}/sessions/{sid}",
                }
                for sid, created, listed in page
            ]
            cursor = encode_cursor(page[-1][1]) if more and page else None
            return json_response({"sessions": sessions, "next_cursor": cursor})

    @blp.route("/sessions/<session_id>")
    class Session(MethodView):
        @blp.response(204, description="Ended: the session is gone; its streams were told.")
        @operation(
            blp,
            "endOperatorSession",
            merge(AUTH_ERRORS, {404: ["session_not_found"], 503: ["redis_unavailable"]}),
            security=OPERATOR,
        )
        def delete(self, session_id: str) -> Any:
            """End one of your sessions now (a teacher closing a lesson).

            The session is removed at once: its seats' next requests answer
            `404 session_not_found`, and its event streams end with
            `event: end` (`"ended": "operator"`).
            """
            me = the_operator()
            st = flow.store()
            listed = st.listing(session_id)
            if listed is None or listed.get("operator") != me:
                raise Problem(
                    "session_not_found",
                    f"You have no live session {session_id!r} (it may have expired).",
                )
            st.end(
                session_id,
                {"session_id": session_id, "finished": True, "ended": "operator"},
                operator=me,
                retries_s=flow.retries_window(),
            )
            return Response(status=204)

    @blp.route("/sessions/<session_id>/deliveries")
    class Deliveries(MethodView):
        @blp.response(200, {"$ref": "#/components/schemas/DeliveryLog"})
        @operation(
            blp,
            "listOperatorDeliveries",
            merge(AUTH_ERRORS, {404: ["session_not_found"], 503: ["redis_unavailable"]}),
            security=OPERATOR,
        )
        def get(self, session_id: str) -> Any:
            """What your session's callback was told: every event and each attempt.

            Kept as long as deliveries may be retried (hours after the session ends).
            """
            me = the_operator()
            st = flow.store()
            sealed = st.callback_config(session_id)
            callback = None
            if sealed is not None:
                opened = current_app.extensions["chemgames.sealer"].open_bytes(sealed)
                callback = Callback.from_json(orjson.loads(opened))
            if callback is None or callback.operator != me:
                raise Problem(
                    "session_not_found",
                    f"You have no session {session_id!r} with a callback (its deliveries are "
                    "kept for hours after it ends, then forgotten).",
                )
            return json_response(delivery_log(session_id, callback, st.deliveries(session_id)))

    return blp
