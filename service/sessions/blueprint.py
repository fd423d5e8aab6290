"""What only hosted sessions have: Idempotency-Keys and the live event stream.

Every other operation of a hosted session is defined once, for both play modes, in
``service/api/operations.py``; this module adds the ``Idempotency-Key`` header and
``GET .../events``, the public events as server-sent events from any instance, or, with
``?seat=`` and that seat's credential, the seat's own view pushed whenever a move
commits (a device never polls for its hand).
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import marshmallow as ma
import orjson
import redis
from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView

from ..games.docs import AS_SEAT_OR_OBSERVER, SEAT_ERRORS, merge, operation
from ..games.play import authorize, sealer
from ..games.registry import GameApi
from ..games.schemas.common import StrictSchema, seat_field
from ..http import streams
from ..http.auth import bearer
from ..http.client import address
from ..http.errors import redis_down
from ..http.parsing import ApiBlueprint as Blueprint
from ..http.problems import Problem
from . import flow

SESSION_ERRORS = {
    404: ["session_not_found"],
    410: ["session_unreadable"],
    503: ["redis_unavailable"],
}
IDEMPOTENCY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 128},
    "description": "Send the same key when retrying a move: the original answer comes back "
    "(with `Idempotent-Replayed: true`) instead of the move applying twice. An answer is "
    "only ever returned to the credential that made the move.",
}
STREAM_ID = {
    "in": "header",
    "name": "Stream-Id",
    "required": False,
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
    "description": "The `stream_id` of this device's own seat stream (from its `hello`): that "
    "stream sends no `update` of this move's own, since the answer carries the same view and "
    "events (a frame that folds it with moves committed just before it still comes). The "
    "seat's other streams (another device, another tab) still get it. A stream of another "
    "seat is never quietened, whatever the id.",
}
STREAM_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
STREAM_DESCRIPTION = """\
Server-sent events (`text/event-stream`). Frames, in order:

* `retry: 2000` (reconnect delay);
* `event: hello`, `id: <version>`, `data:` a JSON object with `session_id`, `version`,
  `to_act`, `finished` and the game's public session members (Polymer: `phase`,
  `deadline_ms`, `deadline_at`, `server_now_ms`, `server_now`, `loans`);
* one `event: update`, `id: <version>` per committed move, whose `data` has the same
  members plus `events`: the public events of that move (each with its `actor`; no
  card a seat could not see);
* `: keep-alive` comments;
* with `?seat=n` (and that seat's token, or the host's, in `Authorization: Bearer`;
  `fetch` can send it, `EventSource` cannot): the seat's own stream. Its `hello` and
  every `update` carry, besides the members above, `seat`, `outcome` and `view`: the
  game as that seat sees it at `version`, the same as `GET /sessions/{id}?seat=n`, so
  the device never reads it again. With `&legal_moves=true` they carry `legal_moves`
  too: what `POST .../legal-moves` for that seat answers at `version` (`version`, `seat`,
  `moves`, `move_space`; no moves while the seat must wait), so a device that may act
  after another seat's move (Polymer's seats always may) does not read them either.
  The `hello` also carries `stream_id`, this stream's own
  id: a move sent with it in the `Stream-Id` header (with the same seat) gets no `update`
  of its own on this stream, its answer having shown the same (a frame that folds it
  with moves committed just before it still comes). An `update`'s `events` are the public events of
  every move since the previous frame: when moves commit faster than the stream sends,
  one frame carries them all, at the latest version. No other seat's hidden card
  reaches a seat's stream;
* `event: end` with `{"session_id", "finished"}` when the game is over or the stream
  reaches its time limit (reconnect, then resync with `GET /sessions/{id}`), and with
  `"ended": "operator"` too when the session's operator ended it (it is gone), or
  `event: error` with a problem object if the session store fails.
"""


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (0 < len(key) <= 128 and key.isascii() and key.isprintable()):
        raise Problem(
            "invalid_request",
            "Idempotency-Key must be 1-128 printable ASCII characters.",
            errors={"Idempotency-Key": ["1-128 printable ASCII characters."]},
        )
    return key


def own_stream() -> str | None:
    """The ``Stream-Id`` header: the mover's own seat stream, or None."""
    stream_id = request.headers.get("Stream-Id")
    if stream_id is not None and not STREAM_ID_PATTERN.fullmatch(stream_id):
        raise Problem(
            "invalid_request",
            "Stream-Id must be the stream_id your seat's stream sent in its hello "
            "(1-64 letters, digits, '-' or '_').",
            errors={"Stream-Id": ["1-64 letters, digits, '-' or '_'."]},
        )
    return stream_id


def _sse(event: str, data: Any, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {orjson.dumps(data).decode()}\n\n"


def _sse_bytes(event: str, data: Any, event_id: int | None = None) -> bytes:
    """:func:`_sse`, as the bytes the response sends (no decoding and encoding again)."""
    head = b"id: %d\n" % event_id if event_id is not None else b""
    return b"%sevent: %s\ndata: %s\n\n" % (head, event.encode(), orjson.dumps(data))


class EventsQuerySchema(StrictSchema):
    """``GET /sessions/{id}/events?seat=``: whose view to push (none: public events only)."""

    seat = seat_field(required=False, strict=False)
    legal_moves = ma.fields.Boolean(
        load_default=lambda: False,  # a callable: no `default` keyword in the contract
        truthy={"true"},
        falsy={"false"},
        metadata={
            "description": "`true`: the seat's `hello` and every `update` also carry "
            "`legal_moves`, what `POST .../legal-moves` for that seat would answer at that "
            "version, so a device never reads them either. Needs `seat`. Default: `false`."
        },
    )

    @ma.validates_schema
    def _needs_seat(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("legal_moves") and data.get("seat") is None:
            raise ma.ValidationError(
                "legal_moves=true needs seat=n: legal moves are a seat's own.", "legal_moves"
            )


def event_stream(blp: Blueprint, api: GameApi, operation_id: str) -> None:
    """``GET /<session_id>/events``: follow a session live (public events only, or a
    seat's own view with ``?seat=``)."""

    class Events(MethodView):
        @blp.arguments(EventsQuerySchema(), location="query", unknown=ma.RAISE)
        @blp.response(
            200,
            {"type": "string", "description": STREAM_DESCRIPTION},
            content_type="text/event-stream",
            description="A stream of server-sent events (see the schema's description).",
            example='retry: 2000\n\nid: 0\nevent: hello\ndata: {"session_id":"5d1e8a0c",'
            '"version":0,"to_act":[0],"finished":false}\n\n: keep-alive\n\n',
        )
        @operation(
            blp,
            operation_id,
            merge(
                SESSION_ERRORS,
                SEAT_ERRORS,
                {
                    422: ["invalid_request"],
                    429: ["stream_share_exceeded"],
                    503: ["too_many_streams"],
                },
            ),
            security=AS_SEAT_OR_OBSERVER,
        )
        def get(self, query: dict[str, Any], session_id: str) -> Any:
            """Follow a session live, from any instance, without polling.

            Without `seat`, events are public (no card a seat could not see). With
            `seat` and its credential, every frame also carries that seat's view.
            """
            seat: int | None = query.get("seat")
            loaded = flow.load(api, session_id)
            if seat is not None:
                authorize(loaded.env, seat, bearer())
            settings = current_app.config["SETTINGS"]
            share = shares(session_id)  # 429 stream_share_exceeded past its share
            try:
                slot = streams.acquire(settings.sse_max_streams)  # 503 too_many_streams
            except Problem:
                share.release()
                raise
            stream = _stream(
                loaded,
                settings.sse_max_seconds,
                settings.sse_heartbeat_seconds,
                seat,
                legal=query["legal_moves"],
            )
            response = Response(
                stream_with_context(stream),
                mimetype="text/event-stream",
                headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
            )
            response.call_on_close(slot.release)
            response.call_on_close(share.release)
            return response

    blp.route("/<session_id>/events", endpoint="session-events")(Events)


def shares(session_id: str) -> streams.ShareSlot:
    """This stream's place in its address's share and its session's operator's."""
    settings = current_app.config["SETTINGS"]
    st = flow.store()
    if not settings.rate_limits_enabled:  # RATE_LIMITS=off: no per-client bound at all
        return streams.ShareSlot(st.redis, "")
    found: streams.Shares | None = current_app.extensions.get("chemgames.stream-shares")
    if found is None:
        found = current_app.extensions["chemgames.stream-shares"] = streams.Shares(
            st.redis, f"{st.prefix}", int(settings.sse_max_seconds * 1000) + 30_000
        )
    by_address, by_operator = (
        settings.sse_max_streams_per_address,
        settings.sse_max_streams_per_operator,
    )
    if by_address > 0 and by_operator > 0 and st.backend.kind != "cluster":
        # the session's operator read in the address's share's call: a round trip less
        return found.acquire_reading_operator(
            address(), by_address, st.key(session_id), by_operator
        )
    wanted = [("address", address(), by_address)]
    if by_operator > 0:
        listed = st.listing(session_id) or {}
        operator = listed.get("operator")
        if operator:
            wanted.append(("operator", operator, by_operator))
    return found.acquire(wanted)


def _seat_frame(
    loaded: flow.Loaded, seat: int, finished: bool, legal: bool = False
) -> dict[str, Any]:
    """What a seat's stream sends: the public members and the game as ``seat`` sees it
    (and, with ``legal``, its legal moves)."""
    block = flow.session_block(loaded, loaded.env, seat)
    frame = {**block, "finished": finished, "seat": seat}
    if legal:
        frame["legal_moves"] = flow.legal_moves(loaded.api, loaded.env, seat)
    return frame


def _stream(
    loaded: flow.Loaded,
    max_seconds: float,
    heartbeat: float,
    seat: int | None = None,
    *,
    legal: bool = False,
) -> Iterator[bytes]:
    api = loaded.api
    st = flow.store()
    session_id = loaded.id
    subscription: streams.Subscription | None = None
    try:
        # sharded pub/sub where the session's node has it, on a pool of the streams' own
        subscription = streams.Subscription(
            st.stream_client(session_id), st.channel(session_id), sharded=loaded.session.sharded
        )
        # read again once subscribed: a move (or a bot's) made since the first read would
        # otherwise be in neither the hello nor an update
        loaded = _again(loaded)
        env = loaded.env
        finished = api.game.outcome(env.state).finished
        deadline = api.clock.deadline(env.state) if api.clock else None
        yield b"retry: 2000\n\n"
        hello = {
            "session_id": session_id,
            "version": loaded.session.version,
            "to_act": api.game.to_act(env.state),
            "finished": finished,
            **(api.clock.block(env.state, loaded.now_ms) if api.clock else {}),
        }
        seen = loaded.session.version
        quiet = None  # what a commit's message says when this stream's device made the move
        if seat is not None:
            stream_id = secrets.token_urlsafe(16)
            quiet = flow.quiet_mark(seat, stream_id)
            hello = {**_seat_frame(loaded, seat, finished, legal), "stream_id": stream_id}
        yield _sse_bytes("hello", hello, seen)
        started = time.monotonic()
        while not finished and time.monotonic() - started < max_seconds:
            wait = heartbeat
            if deadline is not None:
                wait = min(wait, max(0.05, (deadline - st.now_ms(session_id)) / 1000))
            published = subscription.next(timeout=wait)
            if published is None:
                if deadline is not None and st.now_ms(session_id) >= deadline:
                    flow.expire_if_due(flow.load(api, session_id))  # publishes to everyone
                yield b": keep-alive\n\n"
                continue
            payload = published.payload()  # shared with the process's other streams
            if "ended" in payload:  # its operator ended the session: nothing more will come
                yield _sse_bytes("end", payload)
                return
            if payload.get("version", seen + 1) <= seen:  # published before the re-read
                continue
            frame: bytes | None = None
            if quiet is not None and payload.get(flow.QUIET) == quiet:
                # this device's own move: its answer showed it (the next frame folds
                # nothing of it back in: it starts from the next message); what this
                # process sealed for it is taken all the same, for its other streams
                _here(published)
                seen = payload["version"]
            elif seat is None:
                frame = _public_frame(published)
            else:
                payload = _next_seat_frame(loaded, subscription, published, seat, legal)
                if "ended" in payload:  # its operator ended the session meanwhile
                    yield _sse_bytes("end", payload)
                    return
                seen = payload["version"]
                frame = _sse_bytes("update", payload, payload["version"])
            finished = bool(payload.get("finished"))
            deadline = payload.get("deadline_ms", deadline) if not finished else None
            if frame is not None:
                yield frame
        yield _sse_bytes("end", {"session_id": session_id, "finished": finished})
    except redis.RedisError as err:
        yield _sse_bytes("error", redis_down(err).body())
    except Problem as err:
        yield _sse_bytes("error", err.body())
    finally:
        if subscription is not None:
            subscription.close()


def _again(loaded: flow.Loaded) -> flow.Loaded:
    """The session read again (as :func:`flow.load` reads it); the state it seals is not
    opened again when it is still the one ``loaded`` opened (the same token)."""
    session, now_ms = flow.store().load(loaded.id)
    if session is None or session.slug != loaded.api.slug or session.token != loaded.session.token:
        return flow.load(loaded.api, loaded.id)  # changed (or gone: its refusal)
    return flow.Loaded(loaded.api, session, loaded.env, now_ms)


# a message's members no stream sends: the sealed state, and which stream is quiet
_NOT_PUBLIC = ("sealed", flow.QUIET)


def _public_frame(published: streams.Published) -> bytes:
    """A public stream's ``update`` for ``published``: the message without the state it
    carries (sealed: never on a stream), built once for every public stream of this
    process that follows the session."""
    frame: bytes | None = published.derived.get("public")
    if frame is None:
        payload = published.payload()
        public = {k: v for k, v in payload.items() if k not in _NOT_PUBLIC}
        frame = published.derived["public"] = _sse_bytes("update", public, payload.get("version"))
    return frame


def _here(published: streams.Published) -> streams.Sealed | None:
    """What this process sealed as ``published``'s state, taken by its first stream that
    gets the message and kept with it for the others (a tuple: derived once, even when
    nothing was kept)."""
    token = published.payload().get("sealed")
    if token is None:
        return None
    found: streams.Sealed | None = published.derive("here", lambda: (streams.take(token),))[0]
    return found


# what a move's answer carries besides the session block a seat's frame is made of
_ANSWER_ONLY = ("seat", "move", "events")


def _next_seat_frame(
    loaded: flow.Loaded,
    subscription: streams.Subscription,
    first: streams.Published,
    seat: int,
    legal: bool = False,
) -> dict[str, Any]:
    """The seat's frame after the published message ``first``, or the operator's message
    that ended the session meanwhile.

    Every commit's message carries the state it stored, sealed (``sealed``), so the view
    is built without reading the session back; it is opened once for every seat's stream
    of this process that follows the session, and not at all in the process that
    committed it (it still has the state it sealed; and the mover's frame there is the
    session block its answer showed the mover). Messages already received are folded into
    one frame: the latest state, with every message's public events in order.
    """
    latest = first
    events = list(first.payload().get("events", ()))
    while (published := subscription.next(timeout=0)) is not None:
        message = published.payload()
        if "ended" in message:
            return message
        events.extend(message.get("events", ()))
        if int(message.get("version", -1)) > int(latest.payload()["version"]):
            latest = published
    members = latest.payload()
    token = members.get("sealed")
    if token is not None:
        here = _here(latest)
        if here is not None and here.seat == seat and here.shown is not None:
            # this worker answered the seat's own move: the same view
            frame = {k: v for k, v in here.shown.items() if k not in _ANSWER_ONLY}
            frame["finished"] = bool(members.get("finished"))
            frame["seat"] = seat
            frame["events"] = events
            if legal:
                frame["legal_moves"] = flow.legal_moves(loaded.api, here.state, seat)
            return frame

        def opened() -> Any:
            info = loaded.api.game.info
            return sealer().open(token, slug=info.slug, rules_version=info.rules_version)

        env = here.state if here is not None else latest.derive("state", opened)
        # a real-time game's clock as the commit read it
        at = flow.Loaded(loaded.api, loaded.session, env, int(members.get("server_now_ms", 0)))
    else:  # published by an instance older than issue 32 (a rolling upgrade): read it
        at = flow.load(loaded.api, loaded.id)
    frame = _seat_frame(at, seat, bool(members.get("finished")), legal)
    frame["events"] = events
    return frame
