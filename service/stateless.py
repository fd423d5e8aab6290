"""One stateless Blueprint per game: setup, moves, bot-move, legal-moves, view, scores.

The client holds the sealed state token and sends it with every call; seat and host
tokens travel in ``Authorization: Bearer``. Endpoints document their request and
response schemas for the OpenAPI document; at run time views are dumped with orjson
(a marshmallow dump of a whole view would cost more than the rules themselves).
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from rules.core import CORE_CODES

from . import examples
from .auth import bearer
from .docs import (
    AS_SEAT,
    AS_SEAT_OR_OBSERVER,
    BODY_ERRORS,
    PUBLIC,
    SEAT_ERRORS,
    TOKEN_ERRORS,
    merge,
    operation,
)
from .jsonio import json_response
from .parsing import ApiBlueprint as Blueprint
from .play import (
    GameApi,
    apply_move,
    authorize,
    bots_block,
    events_for,
    new_game,
    open_token,
    play_bot,
    play_bots,
    seal,
    sealer,
    seats_block,
    turn_block,
    with_actor,
)
from .schemas.common import StateRequestSchema
from .schemas.game import game_schemas, pascal

SETUP_CODES = ("bad_players", "unknown_option", "bad_option")
INTERNAL_CODES = {"state_invalid", "unknown_bot", "unknown_option"}


def move_codes(api: GameApi) -> list[str]:
    """Rule codes a move may be refused with (setup-only codes excluded)."""
    info = api.game.info
    codes = {*CORE_CODES, *info.codes} - INTERNAL_CODES
    return sorted(c for c in codes if c == "bad_move" or not c.startswith("bad_"))


def setup_codes(api: GameApi) -> list[str]:
    info = api.game.info
    codes = [*SETUP_CODES, *sorted(c for c in info.codes if c.startswith("bad_"))]
    if "bad_deal" not in codes and any(o.name == "deal" for o in info.options):
        codes.append("bad_deal")
    return [*codes, "bad_bots"] if api.bots_allowed else codes


def bot_codes(api: GameApi) -> list[str]:
    """What a bot may be refused with: the game is over, or the seat has nothing to do."""
    return [c for c in ("game_over", "no_move", "not_your_turn") if c in move_codes(api)] or [
        "game_over"
    ]


def make_blueprint(api: GameApi) -> Blueprint:
    game = api.game
    info = game.info
    sc = game_schemas(api)
    ex = examples.stateless(api)
    op = pascal(info.slug)
    op = op[:1].lower() + op[1:]
    blp = Blueprint(
        info.slug,
        __name__ + "." + info.slug,
        url_prefix=f"/v1/{info.slug}",
        description=f"{info.title}: {info.summary} Stateless: the client holds the state token.",
    )
    played = merge(BODY_ERRORS, TOKEN_ERRORS, SEAT_ERRORS)

    def move_result(env: Any, seat: int, move: dict[str, Any], events: list[Any]) -> Any:
        env, more = play_bots(api, env)
        return json_response(
            {
                "token": seal(env),
                "version": env.version,
                **turn_block(api, env),
                "seat": seat,
                "move": move,
                "events": events_for(events + more, seat),
                "view": game.view(env.state, seat),
            }
        )

    @blp.route("/setup")
    class Setup(MethodView):
        @blp.arguments(sc.setup_request(), example=dict(api.setup_example) or None)
        @blp.response(201, sc.setup_response, example=ex["setup"])
        @operation(blp, f"{op}Setup", merge(BODY_ERRORS, {422: setup_codes(api)}), security=PUBLIC)
        def post(self, body: dict[str, Any]) -> Any:
            """Deal a new game.

            Returns the sealed state token, one seat token per seat (give each
            player only their own), the host token, and the observer's view. Seats
            named in `bots` are played by the service right away when they are to act.
            """
            env = new_game(
                api, body["players"], body["options"], body.get("seed"), body.get("bots")
            )
            started = with_actor([{"type": "game_started", "players": env.state["players"]}], None)
            env, events = play_bots(api, env)
            return json_response(
                {
                    "game_id": env.game_id,
                    "token": seal(env),
                    "version": env.version,
                    **turn_block(api, env),
                    "seats": seats_block(env),
                    "host_token": sealer().host_token(env.game_id),
                    "bots": bots_block(env),
                    "view": game.view(env.state, None),
                    "events": events_for(started + events, None),
                },
                status=201,
            )

    @blp.route("/moves")
    class Moves(MethodView):
        @blp.arguments(sc.move_request(), example=dict(api.move_example) or None)
        @blp.response(200, sc.move_response, example=ex["move"])
        @operation(
            blp,
            f"{op}Move",
            merge(played, {422: ["unknown_move", *move_codes(api)]}),
            security=AS_SEAT,
        )
        def post(self, body: dict[str, Any]) -> Any:
            """Make a move as a seat.

            The move is checked against the rules; an illegal move is a 422
            problem whose `code` says which rule and whose `rule` quotes it. Then the
            service plays its bot seats until a human must act.
            """
            credential = bearer()
            env = open_token(api, body["token"])
            seat = body["seat"]
            authorize(env, seat, credential)
            move = game.parse_move(body["move"])
            env, events = apply_move(api, env, seat, move)
            return move_result(env, seat, move, events)

    @blp.route("/bot-move")
    class BotMove(MethodView):
        @blp.arguments(sc.bot_request())
        @blp.response(200, sc.move_response)
        @operation(blp, f"{op}BotMove", merge(played, {422: bot_codes(api)}), security=AS_SEAT)
        def post(self, body: dict[str, Any]) -> Any:
            """Let a bot choose and make the move for a seat.

            `random` picks uniformly among the legal moves; `greedy` (and any other bot
            the game lists) is described in the game's rules document.
            """
            credential = bearer()
            env = open_token(api, body["token"])
            seat = body["seat"]
            authorize(env, seat, credential)
            # a seat with nothing to do gets the rules' reason (game over, not its turn)
            env, move, events = play_bot(api, env, seat, body["bot"])
            return move_result(env, seat, move, events)

    @blp.route("/legal-moves")
    class LegalMoves(MethodView):
        @blp.arguments(sc.seat_request())
        @blp.response(200, sc.legal_response, example=ex["legal"])
        @operation(blp, f"{op}LegalMoves", played, security=AS_SEAT)
        def post(self, body: dict[str, Any]) -> Any:
            """List every move the seat may make now (empty when it must wait).

            Each listed move passes the same checks as `/moves`; send one back as is.
            """
            credential = bearer()
            env = open_token(api, body["token"])
            seat = body["seat"]
            authorize(env, seat, credential)
            moves = game.legal_moves(env.state, seat) if seat in game.to_act(env.state) else []
            return json_response(
                {
                    "seat": seat,
                    "version": env.version,
                    "moves": moves,
                    "move_space": api.move_space,
                }
            )

    @blp.route("/view")
    class View(MethodView):
        @blp.arguments(sc.view_request())
        @blp.response(200, sc.view_response, example=ex["view"])
        @operation(blp, f"{op}View", played, security=AS_SEAT_OR_OBSERVER)
        def post(self, body: dict[str, Any]) -> Any:
            """What a seat (with its credential) or an observer (no seat) may see.

            Never another seat's hand or selection, the deck order or the random state.
            """
            env = open_token(api, body["token"])
            seat = body.get("seat")
            if seat is not None:
                authorize(env, seat, bearer())
            return json_response(
                {"version": env.version, **turn_block(api, env), "view": game.view(env.state, seat)}
            )

    @blp.route("/scores")
    class Scores(MethodView):
        @blp.arguments(StateRequestSchema())
        @blp.response(200, sc.scores_response, example=ex["scores"])
        @operation(blp, f"{op}Scores", merge(BODY_ERRORS, TOKEN_ERRORS), security=PUBLIC)
        def post(self, body: dict[str, Any]) -> Any:
            """Scores so far (final once the game is over), with their evidence.

            Needs only the state token: scores show nothing a seat may not see.
            """
            env = open_token(api, body["token"])
            return json_response(
                {
                    "version": env.version,
                    "scores": game.scores(env.state),
                    "outcome": game.outcome(env.state).to_json(),
                }
            )

    return blp
