"""Polymer over HTTP: only as a hosted session (its clock must be the server's).

The session endpoints are generated like every game's (``service/sessions``); Polymer
adds its clock hooks and two endpoints of its own: the host starts the timer, and a
seat checks the arrangement it would show.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import marshmallow as ma
from flask.views import MethodView

from rules.polymer import GAME
from rules.polymer.game import declared, start_timer

from ..auth import bearer
from ..docs import AS_HOST, AS_SEAT, BODY_ERRORS, SEAT_ERRORS, merge, operation
from ..jsonio import json_response
from ..parsing import ApiBlueprint as Blueprint
from ..play import GameApi, authorize, events_for, sealer, with_actor
from ..problems import Problem
from ..schemas.game import game_schemas
from ..sessions import flow
from ..sessions.blueprint import SESSION_ERRORS
from . import schemas as sc
from .hooks import CLOCK

API = GameApi(
    game=GAME,
    options=sc.PoOptionsSchema,
    moves=sc.MOVES,
    view=sc.PoViewSchema,
    scores=sc.PoScoresSchema,
    card=sc.PoCardSchema,
    events=sc.EVENTS,
    setup_example={"players": 5, "options": {"timer_seconds": 600}, "seed": 7},
    move_space=sc.MOVE_SPACE,
    stateless=False,
    hooks=CLOCK,
)

GS = game_schemas(API)
START_RESPONSE = ma.Schema.from_dict(
    {
        **GS.session_response().declared_fields,
        "events": GS.events,
    },
    name="PolymerStartResponse",
)

blp = Blueprint(
    "polymer-extras",
    __name__,
    url_prefix="/v1/polymer/sessions",
    description="Polymer's own session endpoints: the host starts the timer; a seat checks "
    "the arrangement it would show.",
)


@blp.route("/<session_id>/start")
class Start(MethodView):
    @blp.response(200, START_RESPONSE)
    @operation(
        blp,
        "polymerStartSession",
        merge(
            SESSION_ERRORS,
            {
                401: ["credentials_missing"],
                403: ["host_token_invalid"],
                409: ["stale_version", "timer_expired"],
                422: ["already_started"],
            },
        ),
        security=AS_HOST,
    )
    def post(self, session_id: str) -> Any:
        """The host starts the timer without waiting for every seat to be ready.

        No body: the host token in the Authorization header is all it needs.
        """
        credential = bearer()
        loaded = flow.load(API, session_id)
        sealer().check_host(loaded.env.game_id, credential)
        if flow.expire_if_due(loaded):
            raise flow.timer_expired(flow.load(API, session_id))
        state, events = start_timer(loaded.env.state, loaded.now_ms)
        events = with_actor(events, None)
        env = replace(loaded.env, state=state, version=loaded.env.version + 1)
        result = flow.commit(loaded, env, events)
        if result.status == "missing":
            raise Problem("session_not_found", f"Session {session_id!r} has expired.")
        if result.status != "applied":
            raise flow.stale(loaded, loaded.session.version, result.version)
        return json_response(
            {
                **flow.session_block(loaded, env, None),
                "seat": None,
                "events": events_for(events, None),
            }
        )


@blp.route("/<session_id>/arrangement")
class Arrangement(MethodView):
    @blp.arguments(sc.PoArrangementRequestSchema())
    @blp.response(200, sc.PoArrangementResponseSchema)
    @operation(
        blp,
        "polymerCheckArrangement",
        merge(
            BODY_ERRORS,
            SESSION_ERRORS,
            SEAT_ERRORS,
            {
                422: [
                    "not_a_pattern",
                    "card_not_in_hand",
                    "card_used_twice",
                    "bad_card",
                    "bad_patterns",
                    "not_started",
                ]
            },
        ),
        security=AS_SEAT,
    )
    def post(self, body: dict[str, Any], session_id: str) -> Any:
        """Check the patterns you would show.

        Refusals name the card or pattern at fault; a valid arrangement is scored
        against your best one.
        """
        credential = bearer()
        loaded = flow.load(API, session_id)
        authorize(loaded.env, body["seat"], credential)
        loaded = flow.fresh(loaded)
        return json_response(declared(loaded.env.state, body["seat"], body["patterns"]))
