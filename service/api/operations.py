"""Every game operation, defined once and served both ways: stateless and hosted.

An :class:`Operation` says what a request carries, what the answer holds, which
problem codes it may answer with and what it does to a loaded game. A :class:`Mode`
says how a game is loaded and saved: :class:`Stateless` (the client sends the sealed
state token and gets the new one back) or :class:`Hosted` (the game lives in Redis;
moves name the version they were decided on and commit by compare-and-set, with
Idempotency-Keys). :func:`blueprints` serves every operation of a game in every mode
the game is played in; a real-time game's clock and its own operations come from its
rules (``GameRules.clock``, ``GameRules.extras``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import marshmallow as ma
from flask import current_app, request
from marshmallow import fields

from rules import records
from rules.core import At, Event, Extra, Move, RuleViolation, events_for, with_actor
from rules.records import Log, Step
from rules.shapes import SAFE_INTEGER, Obj, shape

from ..games import examples, replays
from ..games.docs import (
    AS_HOST,
    AS_OPERATOR_IF_REQUIRED,
    AS_SEAT,
    AS_SEAT_OR_OBSERVER,
    BODY_ERRORS,
    LIMIT_HEADERS,
    PUBLIC,
    RATE_LIMITED,
    SEAT_ERRORS,
    TOKEN_ERRORS,
    docs_only,
    header,
    merge,
    operation,
)
from ..games.play import (
    apply_move,
    authorize,
    bots_block,
    new_game,
    open_token,
    play_bot,
    play_bots,
    seal,
    sealer,
    seats_block,
    turn_block,
)
from ..games.registry import GameApi
from ..games.schemas import contract as c
from ..games.schemas.common import (
    MoveField,
    OptionsField,
    StrictSchema,
    WireField,
    bot_field,
    bots_field,
    legal_moves_field,
    seat_field,
    seed_field,
    token_field,
    version_field,
)
from ..games.tokens import Envelope
from ..http.auth import bearer
from ..http.documents import Same
from ..http.jsonio import json_response
from ..http.parsing import ApiBlueprint as Blueprint
from ..http.problems import Problem
from ..http.views import OneMethodView
from ..school.operators import caller, creator
from ..sessions import callbacks, flow
from ..sessions.blueprint import (
    IDEMPOTENCY,
    SESSION_ERRORS,
    STREAM_ID,
    event_stream,
    idempotency_key,
    own_stream,
)

Codes = dict[int, list[str]]


# ---------------------------------------------------------------- what is loaded ---
@dataclass(frozen=True)
class Table:
    """A loaded game: the envelope, and the server's clock where the game has one."""

    api: GameApi
    env: Envelope
    now_ms: int
    loaded: flow.Loaded | None = None

    @property
    def at(self) -> int | None:
        """The server's time a hosted game's steps are written with (stateless: none)."""
        return self.now_ms or None

    def log(self) -> Log:
        """The game's whole log: the token's (stateless), or the stored token's setup and
        the steps kept beside it (hosted); ``409 record_unavailable`` for a game dealt
        before records were kept, or from a seed too large for JavaScript to read (dealt
        before seeds were kept within 2**53 - 1: its record could not be replayed once a
        browser had read it)."""
        log = self.env.log
        if log is None:
            raise Problem(
                "record_unavailable",
                "This game was dealt before the service kept records, so it has none; games "
                "dealt from now on have one.",
            )
        if log.seed > SAFE_INTEGER:
            raise Problem(
                "record_unavailable",
                "This game was dealt before the service kept its seeds small enough for "
                "every client to read exactly, so its record is not given; games dealt from "
                "now on have one.",
            )
        if self.loaded is None:
            return log
        steps = flow.store().steps(self.loaded.id)
        return replace(log, kept=tuple(steps))

    @property
    def state(self) -> dict[str, Any]:
        """The state as of now (a game with a clock: its time advanced to ``now_ms``)."""
        clock = self.api.clock
        return clock.prepare(self.env.state, self.now_ms) if clock else self.env.state


@dataclass(frozen=True)
class Played:
    """What a writing operation did: the new envelope, the move and its events."""

    env: Envelope
    move: Move
    events: list[Event]


Read = Callable[[Table, int | None, Mapping[str, Any]], dict[str, Any]]
Write = Callable[[Table, int | None, Mapping[str, Any]], Played]


@dataclass(frozen=True)
class Operation:
    """One operation of a game.

    ``path`` is its URL segment (``moves``); ``seat`` says whether the request names a
    seat (``required``, ``optional`` for a view an observer may take, ``host`` for
    the host's own operations, ``none``); ``body`` its own request members (beyond
    the seat and the mode's token or version); ``answer`` its own answer members;
    ``codes`` the rule codes it may answer with (by scope, with their statuses).
    Exactly one of ``read`` and ``write`` is set.
    """

    name: str
    path: str
    summary: str
    description: str
    seat: str
    body: Callable[[GameApi], dict[str, fields.Field[Any]]]
    answer: Callable[[GameApi], dict[str, dict[str, Any]]]
    codes: Callable[[GameApi], Codes]
    read: Read | None = None
    write: Write | None = None
    example: str | None = None
    bare: bool = False
    """The answer is ``read``'s own object, with no version or session members."""
    fingerprint: Callable[[Mapping[str, Any]], Any] = field(default=lambda body: dict(body))

    @property
    def writes(self) -> bool:
        return self.write is not None


def rule_codes(api: GameApi, where: str) -> Codes:
    """The game's codes answered at ``where``, by status."""
    out: Codes = {}
    for code in api.info.codes_at(where):
        out.setdefault(api.info.all_codes()[code].status, []).append(code)
    return out


# ---------------------------------------------------------------- the operations ---
def _seat(body: Mapping[str, Any]) -> int:
    return int(body["seat"])


def _view(t: Table, seat: int | None, body: Mapping[str, Any]) -> dict[str, Any]:
    return {"view": t.api.game.view(t.state, seat)}


def _legal(t: Table, seat: int | None, body: Mapping[str, Any]) -> dict[str, Any]:
    assert seat is not None
    return t.api.legal(t.state, seat)


def _scores(t: Table, seat: int | None, body: Mapping[str, Any]) -> dict[str, Any]:
    return {"scores": t.api.game.scores(t.state), "outcome": t.api.game.outcome(t.state).to_json()}


def _move(t: Table, seat: int | None, body: Mapping[str, Any]) -> Played:
    assert seat is not None
    api, state = t.api, t.state
    env = t.env if state is t.env.state else t.env.with_state(state)  # no clock: no copy
    move = body["move"]
    shown = move
    if api.clock is not None:
        move = api.game.parse_move(api.clock.stamp(move, t.now_ms))
    env, events = apply_move(api, env, seat, move, shown=shown, at=t.at)
    return Played(env, shown, events)


def _bot(t: Table, seat: int | None, body: Mapping[str, Any]) -> Played:
    assert seat is not None
    try:
        env, move, events = play_bot(t.api, t.env.with_state(t.state), seat, body["bot"], t.at)
    except RuleViolation as err:
        info = t.api.game.info
        if t.api.clock is None or err.code in info.codes_at(At.BOT):
            raise
        # the bot chose on the game's own clock (Polymer's, with a millisecond left: wait
        # for the end), and its move is made at the server's time, when it is not legal
        # yet: the seat has nothing it may do at this instant
        raise RuleViolation(
            "no_move", f"Seat {seat}'s bot has nothing it may do at this instant: {err.message}"
        ) from err
    return Played(env, move, events)


def _move_members(api: GameApi) -> dict[str, dict[str, Any]]:
    return {
        "seat": c.integer("The seat that moved.", minimum=0),
        "move": {**api.docs.move, "description": "The move made (a bot's, for bot-move)."},
        "events": api.docs.events(
            "What happened, in order, as this seat may see it (the service's bot seats' "
            "moves included, each event with its `actor`)."
        ),
        "view": api.docs.view,
    }


def _bot_default(api: GameApi) -> str:
    return "greedy" if "greedy" in api.info.bots else api.info.bots[0]


VIEW = Operation(
    name="View",
    path="view",
    summary="What a seat (with its credential) or an observer (no seat) may see.",
    description="Never another seat's hand or selection, the deck order or the random state.",
    seat="optional",
    body=lambda api: {},
    answer=lambda api: {"view": api.docs.view},
    codes=lambda api: {},
    read=_view,
    example="view",
)
LEGAL_MOVES = Operation(
    name="LegalMoves",
    path="legal-moves",
    summary="List every move the seat may make now (empty when it must wait).",
    description="Each listed move passes the same checks as `/moves`; send one back as is. "
    "Where the move space is too large to list, `move_space` says what else is legal, and "
    "`move_space.forms` how to build each such move (which cards, to whom, how many, what "
    "to ask for): every move built within a form is legal now.",
    seat="required",
    body=lambda api: {},
    answer=lambda api: {
        "seat": c.integer("The seat asked about.", minimum=0),
        "moves": {"type": "array", "items": api.docs.move, "description": "The legal moves."},
        "move_space": c.MOVE_SPACE,
    },
    codes=lambda api: {},
    read=_legal,
    example="legal",
)
MOVE = Operation(
    name="Move",
    path="moves",
    summary="Make a move as a seat.",
    description="The move is checked against the rules; an illegal move is a 422 problem "
    "whose `code` says which rule and whose `rule` quotes it. Then the service plays its "
    "bot seats until a human must act.",
    seat="required",
    body=lambda api: {"move": MoveField(api.game, api.docs.move, required=True)},
    answer=_move_members,
    codes=lambda api: rule_codes(api, At.MOVE),
    write=_move,
    example="move",
)
BOT_MOVE = Operation(
    name="BotMove",
    path="bot-move",
    summary="Let a bot choose and make the move for a seat.",
    description="`random` picks uniformly among the legal moves; `greedy` (and any other bot "
    "the game lists) is described in the game's rules document. A seat with nothing to do "
    "gets the rules' reason (the game is over, not its turn...).",
    seat="required",
    body=lambda api: {"bot": bot_field(api.docs, _bot_default(api))},
    answer=_move_members,
    codes=lambda api: rule_codes(api, At.BOT),
    write=_bot,
)
SCORES = Operation(
    name="Scores",
    path="scores",
    summary="Scores so far (final once the game is over), with their evidence.",
    description="Needs no seat credential: scores show nothing a seat may not see. A game "
    "with a clock applies time-up first if its deadline has passed.",
    seat="none",
    body=lambda api: {},
    answer=lambda api: {"scores": api.docs.scores, "outcome": c.OUTCOME},
    codes=lambda api: {},
    read=_scores,
    example="scores",
)


def _record(t: Table, seat: int | None, body: Mapping[str, Any]) -> dict[str, Any]:
    game = t.api.game
    finished = game.outcome(t.state).finished
    mode = "hosted" if t.loaded is not None else "stateless"
    return {
        "record": records.document(
            game, t.log(), complete=finished, game_id=t.env.game_id, mode=mode
        )
    }


RECORD = Operation(
    name="Record",
    path="record",
    summary="The game's record: every step and what it produced (the whole record once "
    "the game is over).",
    description="While the game is played: the public record (every step's seat, bot, "
    "time and public events; no move, no seed, no deal, no option that fixes cards). Once "
    "it is over: the whole record, every move and the cards as dealt, to replay it with "
    "`POST /v1/<game>/replay`. For a seat (its credential, and `seat`) or the host (the "
    "host credential, no `seat`). docs/RECORDS.md.",
    seat="seat_or_host",
    body=lambda api: {},
    answer=lambda api: {"record": api.docs.record},
    codes=lambda api: {403: ["host_token_invalid"], 409: ["record_unavailable"]},
    read=_record,
    example="record",
)
OPERATIONS = (VIEW, LEGAL_MOVES, MOVE, BOT_MOVE, SCORES, RECORD)


def extra_operation(extra: Extra) -> Operation:
    """A game's own operation (``GameRules.extras``) as an :class:`Operation`."""

    def request_members(api: GameApi) -> dict[str, fields.Field[Any]]:
        """The declared request's members (the mode adds the seat)."""
        if extra.request is None:
            return {}
        node = shape(extra.request)
        assert isinstance(node, Obj)
        # documented and checked against its declaration here (a member that names a
        # code answers with it: Polymer's `bad_patterns`), then by the rules
        return {
            m.name: WireField(c.BOOK.schema(m.node, api.name), m.node, required=m.required)
            for m in node.members
            if m.name != "seat"
        }

    def codes(api: GameApi) -> Codes:
        return rule_codes(api, extra.name)

    if extra.change is not None:
        change = extra.change

        def write(t: Table, seat: int | None, body: Mapping[str, Any]) -> Played:
            state, events = change(t.env.state, t.now_ms)
            env = replace(t.env, state=state, version=t.env.version + 1)
            env = env.step(Step(system=extra.name, at=t.now_ms))
            return Played(env, {}, with_actor(events, None))

        return Operation(
            name=_pascal(extra.name),
            path=extra.name,
            summary=extra.summary,
            description=extra.description,
            seat="host" if extra.by == "host" else "required",
            body=request_members,
            answer=lambda api: {
                "events": api.docs.events("What happened, in order."),
                "view": api.docs.view,
            },
            codes=codes,
            write=write,
        )
    answer_fn = extra.answer
    assert answer_fn is not None

    def read(t: Table, seat: int | None, body: Mapping[str, Any]) -> dict[str, Any]:
        assert seat is not None and answer_fn is not None
        return answer_fn(t.state, seat, body)

    return Operation(
        name=_pascal(extra.name),
        path=extra.name,
        summary=extra.summary,
        description=extra.description,
        seat="host" if extra.by == "host" else "required",
        body=request_members,
        answer=lambda api: {},
        codes=codes,
        read=read,
        bare=True,
    )


def _pascal(name: str) -> str:
    return "".join(p.title() for p in name.replace("-", "_").split("_"))


def _lower(name: str) -> str:
    return name[:1].lower() + name[1:]


# ---------------------------------------------------------------- the modes --------
class Mode:
    """How a game is loaded and saved in one way of playing."""

    key = ""
    title = ""

    def __init__(self, api: GameApi) -> None:
        self.api = api

    # names in the contract
    def schema_name(self, suffix: str) -> str:
        return f"{self.api.name}{self.key}{suffix}"

    def operation_id(self, op: str) -> str:
        return _lower(f"{self.api.name}{self.key}{op}")

    def prefix(self) -> str:
        raise NotImplementedError

    def request_members(self, op: Operation) -> dict[str, fields.Field[Any]]:
        raise NotImplementedError

    def answer_members(self, op: Operation) -> dict[str, dict[str, Any]]:
        raise NotImplementedError

    def codes(self, op: Operation) -> Codes:
        raise NotImplementedError

    def read(self, op: Operation, body: Mapping[str, Any], session_id: str | None) -> Any:
        raise NotImplementedError

    def write(self, op: Operation, body: Mapping[str, Any], session_id: str | None) -> Any:
        raise NotImplementedError


class Stateless(Mode):
    """The client holds the sealed state token and sends it with every call."""

    key = ""
    title = "Stateless: the client holds the state token."

    def prefix(self) -> str:
        return f"/v1/{self.api.slug}"

    def request_members(self, op: Operation) -> dict[str, fields.Field[Any]]:
        members: dict[str, fields.Field[Any]] = {"token": token_field()}
        if op.seat in ("required", "optional", "seat_or_host"):
            members["seat"] = seat_field(required=op.seat == "required")
        return members

    def answer_members(self, op: Operation) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {"version": c.VERSION}
        if op.writes:
            out["token"] = c.string("The new state token: send it with your next call.")
        if op in (VIEW, MOVE, BOT_MOVE):
            out.update(to_act=c.TO_ACT, outcome=c.OUTCOME)
        return out

    def codes(self, op: Operation) -> Codes:
        seat = SEAT_ERRORS if op.seat != "none" else {}
        return merge(BODY_ERRORS, TOKEN_ERRORS, seat, RATE_LIMITED if op.writes else {})

    def table(self, body: Mapping[str, Any], session_id: str | None) -> Table:
        return Table(self.api, open_token(self.api, body["token"]), 0)

    def read(self, op: Operation, body: Mapping[str, Any], session_id: str | None) -> Any:
        t = self.table(body, session_id)
        seat = body.get("seat")
        if seat is not None:
            authorize(t.env, seat, bearer())
        elif op.seat == "seat_or_host":
            sealer().check_host(t.env.game_id, bearer())
        out = {"version": t.env.version}
        if op is VIEW:
            out.update(turn_block(self.api, t.env))
        out.update(op.read(t, seat, body))  # type: ignore[misc]
        return json_response(out)

    def write(self, op: Operation, body: Mapping[str, Any], session_id: str | None) -> Any:
        credential = bearer()
        t = self.table(body, session_id)
        seat = body["seat"]
        authorize(t.env, seat, credential)
        played = op.write(t, seat, body)  # type: ignore[misc]
        env, more = play_bots(self.api, played.env)
        return json_response(
            {
                "token": seal(env),
                "version": env.version,
                **turn_block(self.api, env),
                "seat": seat,
                "move": played.move,
                "events": events_for(played.events + more, seat),
                "view": self.api.game.view(env.state, seat),
            }
        )


class Hosted(Mode):
    """The service keeps the game in Redis; devices hold only their seat's credential."""

    key = "Session"
    title = (
        "Hosted: the service keeps the game in Redis, so devices that each hold only their "
        "own seat's credential play together."
    )

    def prefix(self) -> str:
        return f"/v1/{self.api.slug}/sessions"

    def operation_id(self, op: str) -> str:
        # the hosted view is the session resource itself: GET /sessions/{id}
        return _lower(f"{self.api.name}GetSession") if op == VIEW.name else super().operation_id(op)

    def request_members(self, op: Operation) -> dict[str, fields.Field[Any]]:
        members: dict[str, fields.Field[Any]] = {}
        if op.seat == "required":
            members["seat"] = seat_field()
        if op.writes and op.seat != "host":
            members["version"] = version_field()
        if op.writes and op.seat == "required":
            members["legal_moves"] = legal_moves_field()
        return members

    def answer_members(self, op: Operation) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {"version": c.VERSION}
        if op is LEGAL_MOVES:
            return out
        out["session_id"] = c.string("The session.")
        if op in (SCORES, RECORD):
            return out
        out.update(to_act=c.TO_ACT, outcome=c.OUTCOME, **self.api.docs.clock)
        if op is VIEW or op.seat == "host":
            out["seat"] = {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": c.MAX_SEATS - 1,
                "description": "Whose view this is (null: an observer's).",
            }
        return out

    def codes(self, op: Operation) -> Codes:
        seat: Mapping[int, Iterable[str]] = (
            SEAT_ERRORS if op.seat in ("required", "optional", "seat_or_host") else {}
        )
        if op.seat == "host":
            seat = {401: ["credentials_missing"], 403: ["host_token_invalid"]}
        body = BODY_ERRORS if op not in (VIEW, SCORES, RECORD) else {}
        query = {422: ["invalid_request"]} if op in (VIEW, RECORD) else {}
        written: Codes = {}
        if op.writes:
            written = {
                409: ["stale_version", *(["timer_expired"] if self.api.clock else [])],
                422: ["idempotency_key_reused"] if op.seat != "host" else [],
            }
        return merge(body, SESSION_ERRORS, seat, query, written, RATE_LIMITED if op.writes else {})

    def table(self, session_id: str) -> Table:
        loaded = flow.load(self.api, session_id)
        return Table(self.api, loaded.env, loaded.now_ms, loaded)

    def read(self, op: Operation, body: Mapping[str, Any], session_id: str | None) -> Any:
        assert session_id is not None
        t = self.table(session_id)
        seat = body.get("seat")
        if op.seat == "host" or (op.seat == "seat_or_host" and seat is None):
            sealer().check_host(t.env.game_id, bearer())
        elif seat is not None:
            authorize(t.env, seat, bearer())
        loaded = flow.fresh(t.loaded)  # type: ignore[arg-type]
        t = Table(self.api, loaded.env, loaded.now_ms, loaded)
        if op.bare:
            return json_response(op.read(t, seat, body))  # type: ignore[misc]
        out: dict[str, Any] = {"version": loaded.session.version}
        if op is not LEGAL_MOVES:
            out["session_id"] = session_id
        if op is VIEW:
            out.update(flow.session_block(loaded, loaded.env, seat))
            out["seat"] = seat
            return json_response(out)
        out.update(op.read(t, seat, body))  # type: ignore[misc]
        return json_response(out)

    def write(self, op: Operation, body: Mapping[str, Any], session_id: str | None) -> Any:
        assert session_id is not None and op.write is not None
        credential = bearer()
        run = op.write

        def on_host(loaded: flow.Loaded) -> tuple[Envelope, list[Event]]:
            played = run(Table(self.api, loaded.env, loaded.now_ms, loaded), None, body)
            return played.env, played.events

        if op.seat == "host":
            return json_response(flow.host_change(self.api, session_id, credential, on_host))

        # what the answer should carry, not part of the move: its key's replay ignores it
        legal = bool(body.get("legal_moves"))
        move_body = {k: v for k, v in body.items() if k != "legal_moves"}

        def compute(loaded: flow.Loaded) -> tuple[Envelope, Move, list[Event]]:
            t = Table(self.api, loaded.env, loaded.now_ms, loaded)
            played = run(t, move_body["seat"], move_body)
            return played.env, played.move, played.events

        result, replayed = flow.play(
            self.api,
            session_id,
            move_body["seat"],
            move_body["version"],
            op.fingerprint(move_body),
            compute,
            credential=credential,
            idempotency_key=idempotency_key(),
            quiet=own_stream(),
            legal=legal,
        )
        return json_response(result, headers={"Idempotent-Replayed": "true"} if replayed else None)


# ---------------------------------------------------------------- the blueprints ---
class SessionQuerySchema(StrictSchema):
    """``GET /sessions/{id}?seat=``: whose view (none: an observer's)."""

    seat = seat_field(required=False, strict=False)


_BUILT: dict[tuple[Same, bool], list[Blueprint]] = {}


def blueprints(api: GameApi) -> list[Blueprint]:
    """Every operation of ``api``'s game, in every mode it is played in: built once per
    process for what they are built from, and registered by every app the process
    builds. A view reads its app's settings when it answers, none when it is built;
    what building reads is the game and how a view is made (``OneMethodView.direct``,
    which the tests turn off to compare with Flask's way)."""
    key = (Same(api.game), OneMethodView.direct)
    built = _BUILT.get(key)
    if built is None:
        built = _BUILT[key] = _blueprints(api)
    return list(built)


def _blueprints(api: GameApi) -> list[Blueprint]:
    modes: list[Mode] = [Stateless(api)] if api.stateless else []
    modes.append(Hosted(api))
    extras = tuple(extra_operation(e) for e in api.game.extras)
    out = []
    for mode in modes:
        blp = Blueprint(
            f"{api.slug}{'-' + mode.key.lower() + 's' if mode.key else ''}",
            __name__ + "." + api.slug + mode.key,
            url_prefix=mode.prefix(),
            description=f"{api.info.title}: {api.info.summary} {mode.title}",
        )
        _setup_route(blp, mode)
        for op in (*OPERATIONS, *extras):
            _route(blp, mode, op)
        if isinstance(mode, Hosted):
            event_stream(blp, api, mode.operation_id("Events"))
        out.append(blp)
    out.append(replays.blueprint(api))
    return out


def _request_schema(mode: Mode, op: Operation) -> type[ma.Schema] | None:
    members = {**mode.request_members(op), **op.body(mode.api)}
    if not members:
        return None
    return StrictSchema.from_dict(members, name=mode.schema_name(f"{op.name}Request"))


def _answer_ref(mode: Mode, op: Operation) -> dict[str, Any]:
    if op.bare:
        declared = mode.api.docs.extras[op.path][1]
        assert declared is not None
        return declared
    members = {**mode.answer_members(op), **op.answer(mode.api)}
    if isinstance(mode, Hosted) and op is VIEW:
        members["view"] = mode.api.docs.view
        return c.answer(
            mode.schema_name(""), "A hosted game as one seat (or an observer) sees it.", members
        )
    if op is LEGAL_MOVES:
        return c.answer(_legal_moves_answer(mode.api), "The legal moves of a seat.", members)
    optional = None
    if isinstance(mode, Hosted) and op.writes and op.seat == "required":
        optional = {
            "legal_moves": {
                **c.ref(_legal_moves_answer(mode.api)),
                "description": "With `legal_moves: true` in the request (never on a "
                "replay): the seat's legal moves just after the move, at `version`.",
            }
        }
    return c.answer(mode.schema_name(f"{op.name}Response"), op.summary, members, optional)


def _legal_moves_answer(api: GameApi) -> str:
    return f"{api.name}LegalMovesResponse"


def _route(blp: Blueprint, mode: Mode, op: Operation) -> None:
    api = mode.api
    hosted = isinstance(mode, Hosted)
    get = hosted and op in (VIEW, SCORES, RECORD)
    path = ("/<session_id>" if hosted else "") + ("" if hosted and op is VIEW else f"/{op.path}")
    request_schema = _request_schema(mode, op)
    security = {
        "required": AS_SEAT,
        "optional": AS_SEAT_OR_OBSERVER,
        "seat_or_host": AS_SEAT,
        "host": AS_HOST,
        "none": PUBLIC,
    }[op.seat]
    table = merge(mode.codes(op), op.codes(api))
    ex = examples.for_mode(api, hosted).get(op.example or "")
    headers = (
        {"Idempotent-Replayed": header("Idempotent-Replayed")} if hosted and op.writes else None
    )

    def handle(self: Any, *args: Any, **kwargs: Any) -> Any:
        session_id = kwargs.get("session_id")
        body: Mapping[str, Any] = args[0] if args else {}
        if op.writes:
            return mode.write(op, body, session_id)
        return mode.read(op, body, session_id)

    handle.__doc__ = f"{op.summary}\n\n{op.description}"
    decorated: Callable[..., Any] = handle
    session = c.ref(mode.schema_name("")) if hosted and op.writes else None
    decorated = operation(
        blp, mode.operation_id(op.name), table, security=security, session=session
    )(decorated)
    if hosted and op.writes and op.seat != "host":
        decorated = docs_only(blp.doc(parameters=[IDEMPOTENCY, STREAM_ID]))(decorated)
    # handle returns its own Response: flask-smorest's wrapper would only pass it on
    decorated = docs_only(
        blp.response(200, _answer_ref(mode, op), example=ex, headers=headers or None)
    )(decorated)
    if get and op in (VIEW, RECORD):
        decorated = blp.arguments(SessionQuerySchema(), location="query", unknown=ma.RAISE)(
            decorated
        )
    elif request_schema is not None:
        decorated = blp.arguments(request_schema())(decorated)
    # the view keeps nothing between requests: one instance serves them all
    members = {"get" if get else "post": decorated}
    view = type(f"{mode.key}{op.name}", (OneMethodView,), members)
    blp.route(path, endpoint=f"{mode.key.lower()}-{op.path}")(view)


def check_quota(operator: str) -> None:
    """Refuse a new session to an operator that has as many live ones as allowed."""
    quota = current_app.config["SETTINGS"].operator_session_quota
    if flow.store().live_count(operator) >= quota:
        raise Problem(
            "session_quota_exceeded",
            f"Your operator key has {quota} sessions being played, the most this deployment "
            "allows; end one (DELETE /v1/operator/sessions/{id}) or wait for one to finish.",
            headers={"Retry-After": "60"},
            quota=quota,
        )


def _setup_route(blp: Blueprint, mode: Mode) -> None:
    """``POST /setup`` (stateless) or ``POST /sessions`` (hosted): deal a new game."""
    api = mode.api
    hosted = isinstance(mode, Hosted)
    members: dict[str, fields.Field[Any]] = {
        "players": fields.Integer(
            required=True,
            strict=True,
            validate=ma.validate.Range(min=-(2**31), max=2**31),
            metadata={
                "description": "Number of seats.",
                "example": api.info.min_players,
                "minimum": api.info.min_players,
                "maximum": api.info.max_players,
            },
        ),
        "options": OptionsField(api.docs.options, load_default=dict),
        "seed": seed_field(),
    }
    if api.bots_allowed:
        members["bots"] = bots_field(api.docs)
    if hosted:
        members["callback"] = fields.Nested(
            callbacks.CallbackRequest,
            load_default=lambda: None,  # a callable: no `default` keyword in the contract
            allow_none=True,
            metadata={
                "description": "An operator's server to tell when the game ends (and, "
                "with `moves`, after every move): signed Standard Webhooks events, "
                "retried for hours (docs/RECORDS.md). Needs an operator key. Default: "
                "none."
            },
        )
    name = "SessionRequest" if hosted else "SetupRequest"
    schema = StrictSchema.from_dict(
        members, name=mode.schema_name(name) if not hosted else f"{api.name}SessionRequest"
    )
    answer_members: dict[str, dict[str, Any]] = {
        "game_id": c.string("The game's id."),
        "version": c.VERSION,
        "to_act": c.TO_ACT,
        "outcome": c.OUTCOME,
        "seats": {"type": "array", "items": c.ref("SeatToken"), "description": "One per seat."},
        "host_token": {
            "type": ["string", "null"],
            "description": "Acts for any seat and for the host; keep it secret "
            "(Authorization: Bearer <host_token>). Null for a game with bot seats "
            "created without an operator key: only an operator may hold a credential "
            "that sees a bot seat's hand.",
        },
        "bots": {**api.docs.bots, "description": "The seats the service plays: seat -> bot."},
        "view": api.docs.view,
        "events": api.docs.events("What happened, in order (the deal, then the bot seats' moves)."),
    }
    if hosted:
        answer_members.update(session_id=c.string("The new session."), **api.docs.clock)
        answer_members["callback"] = {
            "anyOf": [c.ref("Callback"), {"type": "null"}],
            "description": "The callback named, with its signing secret; null for none.",
        }
        ref_ = c.answer(f"{api.name}SessionCreated", "A new hosted game.", answer_members)
    else:
        answer_members["token"] = c.string("The sealed state token: send it with every call.")
        ref_ = c.answer(f"{api.name}SetupResponse", "A new game.", answer_members)
    codes = merge(
        BODY_ERRORS,
        rule_codes(api, At.SETUP),
        {422: ["bad_bots"]} if api.bots_allowed else {},
        {
            401: ["credentials_missing"],
            403: ["operator_key_invalid"],
            429: ["session_quota_exceeded"],
            503: ["redis_unavailable"],
            422: ["bad_callback"],
        }
        if hosted
        else {401: ["credentials_missing"], 403: ["operator_key_invalid"]},
        RATE_LIMITED,
    )
    ex = examples.for_mode(api, hosted)["setup"]
    headers: dict[str, Any] = {name: header(name) for name in LIMIT_HEADERS}
    if hosted:
        headers["Location"] = header("Location")

    def post(self: Any, body: dict[str, Any]) -> Any:
        if hosted:
            operator = creator()  # 401 / 403 where the deployment has operator keys
            if operator:
                check_quota(operator)
            named = body.get("callback")
            told = None
            if named is not None:
                told = callbacks.register(named, operator, request.host_url)
            loaded, events = flow.create(api, body, operator, told)
            env = loaded.env
            # a game against bot seats created without an operator key: only the human
            # seats' credentials, so nobody can look at a bot seat's hand (issue 17)
            trusted = bool(operator) or not env.bots
            return json_response(
                {
                    **flow.session_block(loaded, env, None),
                    "game_id": env.game_id,
                    "seats": seats_block(env, with_bots=trusted),
                    "host_token": sealer().host_token(env.game_id) if trusted else None,
                    "bots": bots_block(env),
                    "events": events_for(events, None),
                    "callback": None
                    if told is None
                    else {"url": told.url, "moves": told.moves, "secret": told.secret},
                },
                status=201,
                headers={"Location": f"{mode.prefix()}/{env.game_id}"},
            )
        operator = caller()  # 403 for a key that is not an operator's
        env = new_game(api, body["players"], body["options"], body.get("seed"), body.get("bots"))
        started = with_actor([{"type": "game_started", "players": env.state["players"]}], None)
        env, events = play_bots(api, env)
        # as for a hosted game: against bot seats, only an operator gets the credentials
        # that see a bot seat's hand (issue 27)
        trusted = bool(operator) or not env.bots
        return json_response(
            {
                "game_id": env.game_id,
                "token": seal(env),
                "version": env.version,
                **turn_block(api, env),
                "seats": seats_block(env, with_bots=trusted),
                "host_token": sealer().host_token(env.game_id) if trusted else None,
                "bots": bots_block(env),
                "view": api.game.view(env.state, None),
                "events": events_for(started + events, None),
            },
            status=201,
        )

    post.__doc__ = (
        "Deal a new game and keep it in Redis (a hosted session).\n\n"
        "Returns the session id, one seat token per seat (give each player only their own), "
        "the host token and the observer's view. The state token stays on the server: "
        "nobody can peek at a draw and go back."
        if hosted
        else "Deal a new game.\n\n"
        "Returns the sealed state token, one seat token per seat (give each player only "
        "their own), the host token, and the observer's view. Seats named in `bots` are "
        "played by the service right away when they are to act; such a game dealt "
        "without an operator key gets only the human seats' tokens and no host token "
        "(an operator may send its key as Authorization: Bearer <operator key> to get "
        "every credential)."
    )
    decorated: Callable[..., Any] = post
    op_id = mode.operation_id("CreateSession" if hosted else "Setup")
    if hosted:
        op_id = _lower(f"{api.name}CreateSession")
    security = AS_OPERATOR_IF_REQUIRED
    decorated = operation(blp, op_id, codes, security=security)(decorated)
    # post returns its own Response: flask-smorest's wrapper would only pass it on
    decorated = docs_only(blp.response(201, ref_, example=ex, headers=headers))(decorated)
    decorated = blp.arguments(schema(), example=api.example or None)(decorated)
    view = type(f"{mode.key}Setup", (OneMethodView,), {"post": decorated})
    blp.route("" if hosted else "/setup", endpoint=f"{mode.key.lower()}-setup")(view)


__all__ = ["OPERATIONS", "Operation", "blueprints"]
