"""Hosted sessions on a real Redis: element-draft (turn-based) and Polymer (real time).

What a session must guarantee whatever the game: credentials first (a seat acts and
looks only with its own token or the host's), compare-and-set on the version, bot
seats played inside the session, events with their actor and without a card the
receiver could not see (in responses and on the stream), idempotent retries that
only ever answer the credential that made the move (issue 6 §1), the deadline
enforced by Redis's clock, and a shorter TTL once the game is over.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest
import zstandard
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from rules.element_draft import GAME as DRAFT
from rules.polymer import GAME as POLYMER
from service import create_app
from service.http import streams
from service.sessions.flow import ENDED_TTL_SECONDS
from service.sessions.store import ANSWER_DICTIONARY, ZSTD_MAGIC, SessionStore, pack, unpack

from .conftest import KEY_A, TEST_PREFIX, auth, make_settings
from .test_never_500 import Lines
from .test_polymer_service import stored_state

pytestmark = [pytest.mark.redis, pytest.mark.every_redis]
ED = "element-draft"
PO = "polymer"
# a short draft (3 rounds for 2 players, 2 rounds for 3): whole games stay fast
DEAL_2 = [[1, 8, 26], [6, 11, 17]]
DEAL_3 = [[1, 8], [6, 11], [17, 26]]


class Hosted:
    """A hosted session of any game, played through a test client."""

    def __init__(self, client: FlaskClient, slug: str, **setup: Any) -> None:
        self.client = client
        self.slug = slug
        resp = client.post(f"/v1/{slug}/sessions", json=setup)
        assert resp.status_code == 201, resp.get_json()
        self.created: dict[str, Any] = resp.get_json()
        self.resp = resp
        self.id: str = self.created["session_id"]
        self.tokens = {s["seat"]: s["seat_token"] for s in self.created["seats"]}
        self.host: str = self.created["host_token"]
        self.version: int = self.created["version"]

    @property
    def app(self) -> Flask:
        return self.client.application

    @property
    def store(self) -> SessionStore:
        return self.app.extensions["chemgames.store"]  # type: ignore[no-any-return]

    def url(self, suffix: str = "") -> str:
        return f"/v1/{self.slug}/sessions/{self.id}{suffix}"

    def credential(self, seat: int | None, token: str | None) -> dict[str, str]:
        if token is not None:
            return auth(token)
        return auth(self.tokens[seat]) if seat is not None else {}

    def send(
        self, method: str, suffix: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> TestResponse:
        if method == "GET":
            return self.client.get(self.url(suffix), headers=headers or {})
        return self.client.post(self.url(suffix), json=body, headers=headers or {})

    def start(self) -> dict[str, Any]:
        """Polymer: the host starts the timer."""
        resp = self.send("POST", "/start", headers=auth(self.host))
        assert resp.status_code == 200, resp.get_json()
        self.version = resp.get_json()["version"]
        return resp.get_json()  # type: ignore[no-any-return]

    def get(self, seat: int | None = None, *, token: str | None = None) -> dict[str, Any]:
        query = f"?seat={seat}" if seat is not None else ""
        resp = self.send("GET", query, headers=self.credential(seat, token))
        assert resp.status_code == 200, resp.get_json()
        body: dict[str, Any] = resp.get_json()
        self.version = body["version"]
        return body

    def legal(self, seat: int) -> list[dict[str, Any]]:
        resp = self.send("POST", "/legal-moves", {"seat": seat}, auth(self.tokens[seat]))
        assert resp.status_code == 200, resp.get_json()
        return resp.get_json()["moves"]  # type: ignore[no-any-return]

    def raw_move(
        self,
        seat: int,
        move: dict[str, Any],
        *,
        version: int | None = None,
        token: str | None = None,
        key: str | None = None,
    ) -> TestResponse:
        headers = self.credential(seat, token)
        if key is not None:
            headers["Idempotency-Key"] = key
        body = {"seat": seat, "version": self.version if version is None else version, "move": move}
        return self.send("POST", "/moves", body, headers)

    def move(
        self, seat: int, move: dict[str, Any], *, expect: int = 200, **kw: Any
    ) -> dict[str, Any]:
        resp = self.raw_move(seat, move, **kw)
        body: dict[str, Any] = resp.get_json()
        assert resp.status_code == expect, body
        if expect == 200:
            self.version = body["version"]
        return body

    def bot(self, seat: int, bot: str = "random", *, expect: int = 200) -> dict[str, Any]:
        body = {"seat": seat, "version": self.version, "bot": bot}
        resp = self.send("POST", "/bot-move", body, auth(self.tokens[seat]))
        out: dict[str, Any] = resp.get_json()
        assert resp.status_code == expect, out
        if expect == 200:
            self.version = out["version"]
        return out

    def scores(self) -> dict[str, Any]:
        resp = self.send("GET", "/scores")
        assert resp.status_code == 200, resp.get_json()
        return resp.get_json()  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        return stored_state(self.app, self.id, self.slug)

    def stored_version(self) -> int:
        session, _ = self.store.load(self.id)
        assert session is not None
        return session.version

    def ttl(self) -> int:
        return int(self.store.redis.ttl(self.store.key(self.id)))

    def play_out(self, bot: str = "random") -> list[dict[str, Any]]:
        """Bot moves for whoever is to act until the game is over; every answer."""
        answers: list[dict[str, Any]] = []
        while True:
            body = self.get()
            if not body["to_act"]:
                return answers
            answers.append(self.bot(body["to_act"][0], bot))


def draft(seat_view: dict[str, Any], i: int = 0) -> dict[str, Any]:
    return {"type": "draft", "card": seat_view["view"]["you"]["hand"][i]["z"]}


def a_move(t: Hosted, seat: int) -> dict[str, Any]:
    """A legal move for ``seat`` that changes the state (never a pass or time-up)."""
    return next(m for m in t.legal(seat) if m["type"] in ("draft", "lend"))


def ready(client: FlaskClient, slug: str) -> Hosted:
    """A session where seats 0 and 1 may act now."""
    if slug == PO:
        t = Hosted(client, PO, players=5, seed=7, options={"timer_seconds": 600})
        t.start()
        return t
    return Hosted(client, ED, players=3, seed=5)


def check_actor(events: list[dict[str, Any]]) -> None:
    for event in events:
        assert "actor" in event, event
        assert event["actor"] is None or isinstance(event["actor"], int), event


def check_draft_events(events: list[dict[str, Any]], receiver: int | None) -> None:
    """A selection shows its card to the selecting seat only, until the reveal."""
    check_actor(events)
    for event in events:
        assert "private" not in event, event
        if event["type"] == "card_selected":
            assert ("card" in event) == (receiver is not None and event["seat"] == receiver), (
                receiver,
                event,
            )


POLYMER_PRIVATE = {"give", "gave", "cards", "ask", "card", "hand"}


def polymer_cards(node: Any) -> list[Any]:
    """Card identities anywhere in ``node``: card objects or the private keys."""
    found: list[Any] = []
    if isinstance(node, dict):
        if "id" in node and "code" in node:
            found.append(node)
        for key, value in node.items():
            if key in POLYMER_PRIVATE:
                found.append({key: value})
            found.extend(polymer_cards(value))
    elif isinstance(node, list):
        for item in node:
            found.extend(polymer_cards(item))
    return found


# ------------------------------------------------------------------ streams -----------
@pytest.fixture(scope="module")
def stream_app(redis_url: str) -> Flask:
    """An instance whose streams beat often and end soon (a failing test ends quickly)."""
    return create_app(
        make_settings(KEY_A, redis_url=redis_url, sse_max_seconds=6, sse_heartbeat_seconds=0.2)
    )


class Stream:
    """A session's event stream, read frame by frame in this thread.

    The stream subscribes before it sends its first frame, so once ``retry`` and
    ``hello`` have been read every later commit is delivered.
    """

    def __init__(self, client: FlaskClient, url: str) -> None:
        self.resp = client.get(url, buffered=False)
        assert self.resp.status_code == 200, self.resp.data[:300]
        assert self.resp.mimetype == "text/event-stream"
        self.chunks: Iterator[Any] = iter(self.resp.response)
        self.pending = ""
        assert self.frame() == {"retry": "2000"}
        hello = self.frame()
        assert hello is not None and hello["event"] == "hello", hello
        self.hello = hello

    def frame(self) -> dict[str, Any] | None:
        while "\n\n" not in self.pending:
            try:
                chunk = next(self.chunks)
            except StopIteration:
                return None
            self.pending += chunk.decode() if isinstance(chunk, bytes) else chunk
        raw, self.pending = self.pending.split("\n\n", 1)
        out: dict[str, Any] = {}
        for line in raw.split("\n"):
            if line.startswith(":"):
                out["comment"] = line[1:].strip()
            else:
                name, _, value = line.partition(": ")
                out[name] = json.loads(value) if name == "data" else value
        return out

    def until(self, done: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        """Frames with an ``event`` (keep-alives skipped), up to the first ``done`` one."""
        frames = []
        while (frame := self.frame()) is not None:
            if "event" not in frame:
                continue
            frames.append(frame)
            if done(frame):
                return frames
        raise AssertionError(f"the stream closed before the awaited frame: {frames}")

    def close(self) -> None:
        self.resp.close()


# ------------------------------------------------------------------ create & resync ----
def test_create_answers_201_with_location_seat_tokens_and_no_state(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=3, seed=2)
    body = t.created
    assert t.resp.headers["Location"] == f"/v1/{ED}/sessions/{t.id}"
    assert body["version"] == 0 and body["to_act"] == [0, 1, 2]
    assert body["outcome"]["finished"] is False
    assert [s["seat"] for s in body["seats"]] == [0, 1, 2]
    assert len({*t.tokens.values(), t.host}) == 4
    assert body["bots"] == {} and all(s["bot"] is None for s in body["seats"])
    assert body["view"]["you"] is None  # the observer's view
    assert body["events"] == [{"type": "game_started", "players": 3, "actor": None}]
    # the state stays in Redis: no state token (nothing to peek at and go back to)
    assert "token" not in body
    session, _ = t.store.load(t.id)
    assert session is not None and session.slug == ED and session.token not in t.resp.text
    DRAFT.check(t.state())
    assert t.ttl() > ENDED_TTL_SECONDS


def test_resync_as_a_seat_and_as_an_observer(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=3, seed=2)
    state = t.state()
    for seat in range(3):
        mine = t.get(seat)
        assert mine["seat"] == seat and mine["version"] == 0 and mine["to_act"] == [0, 1, 2]
        assert [c["z"] for c in mine["view"]["you"]["hand"]] == state["hands"][seat]
        assert "token" not in mine
    by_host = t.get(2, token=t.host)
    assert by_host["view"]["you"]["seat"] == 2
    observer = t.get()
    assert observer["seat"] is None and observer["view"]["you"] is None
    assert '"hand":' not in json.dumps(observer["view"])  # no seat's hand
    # after a move, a resync shows the new version and the seat's own selection only
    t.move(0, draft(t.get(0)))
    assert t.get(0)["view"]["you"]["selection"]["z"] == t.state()["pending"][0]
    other = t.get(1)
    assert other["version"] == 1 and other["view"]["you"]["selection"] is None
    assert other["view"]["seats"][0]["has_selected"] is True
    assert other["to_act"] == [1, 2]


def test_a_move_names_its_version_and_advances_it(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=3, seed=2)
    move = draft(t.get(0), 1)
    body = t.move(0, move, version=0)
    assert body["version"] == 1 and body["seat"] == 0 and body["move"] == move
    assert body["events"] == [
        {"type": "card_selected", "seat": 0, "actor": 0, "card": move["card"]}
    ]
    assert body["view"]["you"]["selection"]["z"] == move["card"]
    assert "token" not in body
    assert t.stored_version() == 1 and t.state()["pending"][0] == move["card"]


def test_a_selection_on_the_version_read_is_accepted_after_another_seats(
    client: FlaskClient,
) -> None:
    """Simultaneous selection: another seat's selection changes nothing a seat chose
    from, so its move on the version it read is judged on the current state."""
    t = Hosted(client, ED, players=3, seed=2)
    t.move(0, draft(t.get(0)), version=0)
    late = draft(t.get(1))
    body = t.move(1, late, version=0)
    assert body["version"] == 2 and t.state()["pending"][1] == late["card"]
    assert body["view"]["you"]["selection"]["z"] == late["card"]


def test_a_move_on_a_version_whose_view_has_changed_is_stale_and_changes_nothing(
    client: FlaskClient,
) -> None:
    t = Hosted(client, ED, players=3, seed=2)
    mine = t.get(1)
    t.move(1, draft(mine, 0), version=0)  # seat 1's own selection changes what it sees
    t.move(0, draft(t.get(0)), version=1)
    again = draft(mine, 1)
    problem = t.move(1, again, version=0, expect=409)
    assert problem["code"] == "stale_version" and problem["current_version"] == 2
    # the answer carries the game as seat 1 sees it now: decide again without a GET
    assert problem["session"] == {**t.get(1), "seat": 1}
    assert (
        problem["session"]["view"]["you"]["selection"]["z"] == mine["view"]["you"]["hand"][0]["z"]
    )
    assert t.state()["pending"][1] == mine["view"]["you"]["hand"][0]["z"]
    assert t.stored_version() == 2
    future = t.move(2, draft(t.get(2)), version=7, expect=409)
    assert future["code"] == "stale_version" and future["current_version"] == 2
    assert future["session"]["seat"] == 2 and t.stored_version() == 2
    # once every seat has selected, the cards are revealed and the hands pass: every
    # seat's situation has changed, so a selection decided before is stale
    t.move(2, draft(t.get(2)), version=2)
    stale = t.move(0, {"type": "draft", "card": 1}, version=2, expect=409)
    assert stale["code"] == "stale_version" and stale["current_version"] == 3


def test_a_session_of_another_game_is_not_found(client: FlaskClient) -> None:
    ed = Hosted(client, ED, players=2, seed=1)
    po = Hosted(client, PO, players=5, seed=1)
    moves = {PO: {"type": "ready"}, ED: {"type": "draft", "card": 1}}
    for slug, other in ((PO, ed), (ED, po)):
        base = f"/v1/{slug}/sessions/{other.id}"
        token = auth(other.tokens[0])
        move = {"seat": 0, "version": 0, "move": moves[slug]}  # well formed for the URL's game
        answers = [
            client.get(base),
            client.get(f"{base}?seat=0", headers=token),
            client.post(f"{base}/moves", json=move, headers=token),
            client.post(f"{base}/bot-move", json={"seat": 0, "version": 0}, headers=token),
            client.post(f"{base}/legal-moves", json={"seat": 0}, headers=token),
            client.get(f"{base}/scores"),
            client.get(f"{base}/events"),
        ]
        for resp in answers:
            assert resp.status_code == 404, (slug, resp.get_json())
            assert resp.get_json()["code"] == "session_not_found"
    assert ed.get()["version"] == 0 and po.get()["version"] == 0
    unknown = client.get(f"/v1/{ED}/sessions/{'0' * 24}")
    assert unknown.status_code == 404 and unknown.get_json()["code"] == "session_not_found"


# ------------------------------------------------------------------ bots --------------
def test_bot_seats_are_played_inside_the_session(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=2, seed=3, bots={"1": "greedy"})
    body = t.created
    assert body["bots"] == {"1": "greedy"} and body["seats"][1]["bot"] == "greedy"
    # the bot selected at once; the human seat is the only one left to act
    assert body["version"] == 1 and body["to_act"] == [0]
    assert body["events"] == [
        {"type": "game_started", "players": 2, "actor": None},
        {"type": "card_selected", "seat": 1, "actor": 1},
    ]
    assert t.state()["pending"][1] is not None
    mine = t.get(0)
    move = draft(mine)
    moved = t.move(0, move)
    events = moved["events"]
    check_draft_events(events, 0)
    assert {e["actor"] for e in events} == {0, 1}
    assert [e["type"] for e in events] == [
        "card_selected",
        "cards_revealed",
        "hands_passed",
        "card_selected",
    ]
    assert events[0] == {"type": "card_selected", "seat": 0, "actor": 0, "card": move["card"]}
    assert events[-1] == {"type": "card_selected", "seat": 1, "actor": 1}
    revealed = {c["seat"]: c["z"] for c in events[1]["cards"]}
    assert revealed[0] == move["card"]
    # one human move, then one bot move: two versions
    assert moved["version"] == 3 and moved["to_act"] == [0]
    state = t.state()
    assert state["pending"] == [None, state["pending"][1]] and state["pending"][1] is not None
    assert state["drafted"][1] == [revealed[1]]
    DRAFT.check(state)


def test_a_session_of_bots_only_is_over_when_created(client: FlaskClient) -> None:
    t = Hosted(
        client, ED, players=2, seed=3, options={"deal": DEAL_2}, bots={"0": "greedy", "1": "random"}
    )
    body = t.created
    assert body["outcome"]["finished"] is True and body["to_act"] == []
    assert body["version"] == 6  # 3 rounds, 2 seats
    assert body["events"][-1]["type"] == "game_over"
    check_draft_events(body["events"], None)
    assert {e["actor"] for e in body["events"]} == {None, 0, 1}
    assert t.scores()["scores"]["final"] is True
    assert 0 < t.ttl() <= ENDED_TTL_SECONDS


def test_a_whole_game_through_bot_move(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=3, seed=11, options={"deal": DEAL_3})
    answers = t.play_out("greedy")
    assert len(answers) == 6 and [a["version"] for a in answers] == list(range(1, 7))
    for seat_answer in answers:
        check_draft_events(seat_answer["events"], seat_answer["seat"])
        assert seat_answer["move"]["type"] == "draft"
    last = answers[-1]
    assert last["outcome"]["finished"] and last["to_act"] == []
    assert last["events"][-1]["type"] == "game_over"
    state = t.state()
    DRAFT.check(state)
    assert sorted(z for d in state["drafted"] for z in d) == sorted(
        z for hand in DEAL_3 for z in hand
    )
    scores = t.scores()
    assert scores["session_id"] == t.id and scores["version"] == 6
    assert scores["scores"] == DRAFT.scores(state) and scores["scores"]["final"] is True
    assert scores["outcome"] == DRAFT.outcome(state).to_json()
    places = scores["outcome"]["places"]
    assert sorted(p["place"] for p in places) == [1, 2, 3]
    assert sorted(p["seat"] for p in places) == [0, 1, 2]
    over = t.bot(0, expect=422)
    assert over["code"] == "game_over"
    move = {"type": "draft", "card": 1}
    assert t.move(0, move, expect=422)["code"] == "game_over"
    assert t.stored_version() == 6


def test_scores_before_and_after_the_end(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=2, seed=4, options={"deal": DEAL_2})
    early = t.scores()
    assert early["scores"]["final"] is False and early["outcome"]["finished"] is False
    assert early["version"] == 0
    t.play_out()
    final = t.scores()
    assert final["scores"]["final"] is True and final["outcome"]["finished"] is True
    assert final["scores"]["seats"] == DRAFT.scores(t.state())["seats"]


def test_a_finished_session_keeps_its_key_for_the_shorter_ttl(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=2, seed=4, options={"deal": DEAL_2})
    t.bot(0)
    assert t.ttl() > ENDED_TTL_SECONDS  # still in play: the full TTL
    t.play_out()
    assert t.get()["outcome"]["finished"]
    assert 0 < t.ttl() <= ENDED_TTL_SECONDS


# ------------------------------------------------------------------ the event stream ---
def test_the_stream_delivers_every_move_with_public_events_only(stream_app: Flask) -> None:
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    stream = Stream(client, t.url("/events"))
    try:
        hello = stream.hello
        assert hello["id"] == "0" and hello["data"]["session_id"] == t.id
        assert hello["data"]["version"] == 0 and hello["data"]["to_act"] == [0, 1]
        assert hello["data"]["finished"] is False
        answers = t.play_out()
        frames = stream.until(lambda f: f["event"] == "end")
    finally:
        stream.close()
    updates = [f for f in frames if f["event"] == "update"]
    assert [u["data"]["version"] for u in updates] == list(range(1, 7))
    assert [u["id"] for u in updates] == [str(v) for v in range(1, 7)]
    for update, answer in zip(updates, answers, strict=True):
        data = update["data"]
        assert data["session_id"] == t.id and data["to_act"] == answer["to_act"]
        check_draft_events(data["events"], None)  # nobody's selection on the stream
        # the same facts as the mover's answer, less what only the mover may see
        mover = answer["seat"]
        assert [e["type"] for e in data["events"]] == [e["type"] for e in answer["events"]]
        assert data["events"] == [
            {k: v for k, v in e.items() if not (k == "card" and e["type"] == "card_selected")}
            for e in answer["events"]
        ]
        assert all(e["actor"] == mover for e in data["events"])
    selected = [e for u in updates for e in u["data"]["events"] if e["type"] == "card_selected"]
    assert len(selected) == 6
    assert updates[-1]["data"]["finished"] is True
    assert updates[-1]["data"]["events"][-1]["type"] == "game_over"
    assert frames[-1]["data"] == {"session_id": t.id, "finished": True}


@pytest.mark.parametrize("subscribed", [False, True], ids=["before", "after"])
def test_a_move_made_while_the_stream_opens_is_in_its_hello_and_not_repeated(
    stream_app: Flask, monkeypatch: pytest.MonkeyPatch, subscribed: bool
) -> None:
    """A move lands between the endpoint's read and its subscription (else it would be
    in neither the hello nor an update), or just after the subscription (else twice)."""
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    subscribe = streams.Subscription.__init__

    def racing(self: streams.Subscription, *args: Any, **kw: Any) -> None:
        if subscribed:
            subscribe(self, *args, **kw)
        t.bot(0)
        if not subscribed:
            subscribe(self, *args, **kw)

    monkeypatch.setattr(streams.Subscription, "__init__", racing)
    stream = Stream(client, t.url("/events"))
    monkeypatch.undo()
    try:
        assert stream.hello["data"]["version"] == 1 and stream.hello["id"] == "1"
        t.play_out()
        frames = stream.until(lambda f: f["event"] == "end")
    finally:
        stream.close()
    updates = [f["data"]["version"] for f in frames if f["event"] == "update"]
    assert updates == list(range(2, 7))


def test_the_stream_shows_bot_seats_moves_with_their_actor(stream_app: Flask) -> None:
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=3, bots={"1": "greedy"})
    stream = Stream(client, t.url("/events"))
    try:
        assert stream.hello["data"]["version"] == 1 and stream.hello["data"]["to_act"] == [0]
        t.move(0, draft(t.get(0)))
        (update,) = stream.until(lambda f: f["event"] == "update")
    finally:
        stream.close()
    events = update["data"]["events"]
    assert update["data"]["version"] == 3
    assert [(e["type"], e["actor"]) for e in events] == [
        ("card_selected", 0),
        ("cards_revealed", 0),
        ("hands_passed", 0),
        ("card_selected", 1),
    ]
    check_draft_events(events, None)


def test_offered_cards_never_reach_a_public_event_or_the_stream(stream_app: Flask) -> None:
    client = stream_app.test_client()
    t = ready(client, PO)
    stream = Stream(client, t.url("/events"))
    try:
        hand0, hand1 = t.get(0)["view"]["you"]["hand"], t.get(1)["view"]["you"]["hand"]
        give = hand0[0]
        offer = t.move(0, {"type": "offer", "to": 1, "give": [give["id"]], "ask": ["any"]})
        # the offering seat sees its own cards: the check below can see cards at all
        assert polymer_cards(offer["events"])
        oid = offer["events"][0]["offer"]
        accepted = t.move(1, {"type": "accept", "offer": oid, "give": [hand1[0]["id"]]})
        assert polymer_cards(accepted["events"])
        t.move(2, {"type": "lend", "to": 3, "cards": [t.get(2)["view"]["you"]["hand"][0]["id"]]})
        frames = stream.until(lambda f: f["data"].get("version") == t.version)
    finally:
        stream.close()
    updates = [f["data"] for f in frames if f["event"] == "update"]
    types = [e["type"] for u in updates for e in u["events"]]
    assert types == ["offer_made", "trade_executed", "loan_made"]
    assert polymer_cards(updates) == []
    for update in updates:
        check_actor(update["events"])
    assert updates[0]["events"][0]["count"] == 1 and updates[0]["events"][0]["actor"] == 0
    assert updates[1]["events"][0]["actor"] == 1
    # nor in what the other seats or an observer read
    views = {seat: t.get(seat)["view"] for seat in (0, 1, 2, 3, 4)} | {None: t.get()["view"]}
    for seat in (2, 3, 4, None):
        assert polymer_cards(views[seat]["trades"]) == [], seat
    for seat in (0, 1, 4, None):  # the loan's cards: lender 2 and debtor 3 only
        assert polymer_cards(views[seat]["loans"]) == [], seat
    for seat in (0, 1):
        assert polymer_cards(views[seat]["trades"]), seat
    for seat in (2, 3):
        assert polymer_cards(views[seat]["loans"]), seat


# ------------------------------------------------------------------ credentials --------
def _request(t: Hosted, endpoint: str, seat: int) -> tuple[str, str, Any]:
    if endpoint == "moves":
        return "POST", "/moves", {"seat": seat, "version": t.version, "move": a_move(t, seat)}
    if endpoint == "bot-move":
        return "POST", "/bot-move", {"seat": seat, "version": t.version, "bot": "random"}
    if endpoint == "legal-moves":
        return "POST", "/legal-moves", {"seat": seat}
    if endpoint == "arrangement":
        return "POST", "/arrangement", {"seat": seat, "patterns": []}
    return "GET", f"?seat={seat}", None


SEAT_ENDPOINTS = [
    (slug, endpoint)
    for slug in (ED, PO)
    for endpoint in ("moves", "bot-move", "view", "legal-moves", "arrangement")
    if endpoint != "arrangement" or slug == PO
]


@pytest.mark.parametrize(("slug", "endpoint"), SEAT_ENDPOINTS)
def test_a_seat_endpoint_needs_that_seats_own_credential(
    client: FlaskClient, slug: str, endpoint: str
) -> None:
    t = ready(client, slug)
    elsewhere = ready(client, slug)  # seat 0's token of another session
    method, path, body = _request(t, endpoint, 0)
    version = t.stored_version()

    missing = t.send(method, path, body)
    assert missing.status_code == 401, missing.get_json()
    assert missing.get_json()["code"] == "credentials_missing"
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    mine = t.tokens[0]
    for header in (f"Basic {mine}", "Bearer", mine, f"Bearer {'é' * 8}"):
        resp = t.send(method, path, body, {"Authorization": header})
        assert resp.status_code == 401, (header, resp.get_json())
        assert resp.get_json()["code"] == "credentials_missing"

    flipped = mine[:-1] + ("A" if mine[-1] != "A" else "B")
    for wrong in (t.tokens[1], t.tokens[2], elsewhere.tokens[0], elsewhere.host, flipped):
        resp = t.send(method, path, body, auth(wrong))
        assert resp.status_code == 403, resp.get_json()
        problem = resp.get_json()
        assert problem["code"] == "seat_token_invalid" and problem["seat"] == 0
        assert "view" not in problem and "moves" not in problem
        assert "Idempotent-Replayed" not in resp.headers
    assert t.stored_version() == version  # nothing was applied

    ok = t.send(method, path, body, auth(mine))
    assert ok.status_code == 200, ok.get_json()
    if endpoint != "arrangement":
        assert ok.get_json()["seat"] == 0
    t.get()  # the version after seat 0's request
    method, path, body = _request(t, endpoint, 1)
    by_host = t.send(method, path, body, auth(t.host))  # the host acts for any seat
    assert by_host.status_code == 200, by_host.get_json()


def test_a_seat_out_of_range_is_refused_even_with_the_host_token(client: FlaskClient) -> None:
    t = ready(client, ED)
    for method, path, body in (
        ("GET", "?seat=3", None),
        ("POST", "/legal-moves", {"seat": 3}),
        ("POST", "/bot-move", {"seat": 3, "version": 0, "bot": "random"}),
    ):
        resp = t.send(method, path, body, auth(t.host))
        assert resp.status_code == 422 and resp.get_json()["code"] == "seat_out_of_range"


def test_the_host_alone_starts_polymers_timer(client: FlaskClient) -> None:
    t = Hosted(client, PO, players=5, seed=7, options={"timer_seconds": 600})
    assert t.send("POST", "/start").status_code == 401
    for wrong in (*t.tokens.values(), ready(client, PO).host):
        resp = t.send("POST", "/start", headers=auth(wrong))
        assert resp.status_code == 403 and resp.get_json()["code"] == "host_token_invalid"
    assert t.get()["phase"] == "waiting" and t.stored_version() == 0
    started = t.start()
    assert started["phase"] == "trading" and started["version"] == 1
    assert [(e["type"], e["actor"]) for e in started["events"]] == [("timer_started", None)]


# ------------------------------------------------------------------ idempotency --------
def keyed(t: Hosted, endpoint: str, seat: int) -> tuple[str, dict[str, Any]]:
    method, path, body = _request(t, endpoint, seat)
    assert method == "POST"
    return path, body


@pytest.mark.parametrize("slug", [ED, PO])
@pytest.mark.parametrize("endpoint", ["moves", "bot-move"])
def test_a_replayed_key_without_the_right_credential_gets_no_stored_answer(
    client: FlaskClient, slug: str, endpoint: str
) -> None:
    t = ready(client, slug)
    path, body = keyed(t, endpoint, 0)
    key = {"Idempotency-Key": "1"}
    first = t.send("POST", path, body, {**auth(t.tokens[0]), **key})
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    for headers, status in (
        (key, 401),
        ({**key, "Authorization": "Bearer"}, 401),
        ({**key, **auth("x")}, 403),
        ({**key, **auth(t.tokens[1])}, 403),
        ({**key, **auth(ready(client, slug).host)}, 403),
    ):
        resp = t.send("POST", path, body, headers)
        assert resp.status_code == status, resp.get_json()
        assert "Idempotent-Replayed" not in resp.headers
        assert "view" not in resp.get_json() and "events" not in resp.get_json()
    again = t.send("POST", path, body, {**auth(t.tokens[0]), **key})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert t.stored_version() == first.get_json()["version"]


def test_nothing_is_looked_up_before_the_credential_is_checked(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = ready(client, PO)
    path, body = keyed(t, "moves", 0)
    first = t.send("POST", path, body, {**auth(t.tokens[0]), "Idempotency-Key": "K"})
    assert first.status_code == 200
    lookups: list[tuple[Any, ...]] = []
    real = SessionStore.idempotent

    def spy(store: SessionStore, *args: Any) -> Any:
        lookups.append(args)
        return real(store, *args)

    real_peek = SessionStore.peek

    def peek_spy(store: SessionStore, *args: Any) -> Any:  # read with the session's load
        lookups.append(args)
        return real_peek(store, *args)

    monkeypatch.setattr(SessionStore, "idempotent", spy)
    monkeypatch.setattr(SessionStore, "peek", peek_spy)
    for wrong in (t.tokens[1], "x", ready(client, PO).host):
        for sent in (body, {**body, "version": body["version"] + 1}):
            headers = {**auth(wrong), "Idempotency-Key": "K"}
            resp = t.send("POST", path, sent, headers)
            assert resp.status_code == 403, resp.get_json()
    assert lookups == []  # a wrong credential learns nothing, not even which keys exist
    again = t.send("POST", path, body, {**auth(t.tokens[0]), "Idempotency-Key": "K"})
    assert again.headers["Idempotent-Replayed"] == "true" and len(lookups) == 1


def test_a_stored_answer_belongs_to_the_credential_that_made_the_move(
    client: FlaskClient,
) -> None:
    t = Hosted(client, ED, players=2, seed=6)
    move = draft(t.get(0))
    first = t.raw_move(0, move, version=0, key="K")
    assert first.status_code == 200
    # the host retries seat 0's very request with the same key: not its answer to get
    by_host = t.raw_move(0, move, version=0, key="K", token=t.host)
    assert by_host.status_code == 409, by_host.get_json()
    assert by_host.get_json()["code"] == "stale_version"
    assert "Idempotent-Replayed" not in by_host.headers
    t.move(1, draft(t.get(1)), version=1)
    # the host's key K is its own: a new move for seat 0 with it applies
    later = draft(t.get(0))
    applied = t.raw_move(0, later, version=2, key="K", token=t.host)
    assert applied.status_code == 200, applied.get_json()
    assert "Idempotent-Replayed" not in applied.headers
    assert t.state()["pending"][0] == later["card"]
    # and seat 0's own answer is still there for seat 0's token only
    again = t.raw_move(0, move, version=0, key="K")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()


def test_a_key_first_used_by_the_host_is_not_replayed_to_the_seat(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=2, seed=6)
    move = draft(t.get(0))
    first = t.raw_move(0, move, version=0, key="H", token=t.host)
    assert first.status_code == 200
    by_seat = t.raw_move(0, move, version=0, key="H")
    assert by_seat.status_code == 409 and "Idempotent-Replayed" not in by_seat.headers
    replay = t.raw_move(0, move, version=0, key="H", token=t.host)
    assert replay.headers["Idempotent-Replayed"] == "true"


def test_a_reused_key_is_refused_only_after_authentication(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=3, seed=6)
    hand = t.get(0)
    assert t.raw_move(0, draft(hand, 0), key="same").status_code == 200
    other = draft(hand, 1)
    for token, status, code in (
        (None, 401, "credentials_missing"),
        ("x", 403, "seat_token_invalid"),
        (t.tokens[1], 403, "seat_token_invalid"),
    ):
        headers = {"Idempotency-Key": "same", **(auth(token) if token else {})}
        body = {"seat": 0, "version": 0, "move": other}
        resp = t.send("POST", "/moves", body, headers)
        assert resp.status_code == status and resp.get_json()["code"] == code, resp.get_json()
    reused = t.raw_move(0, other, version=0, key="same")
    assert reused.status_code == 422 and reused.get_json()["code"] == "idempotency_key_reused"
    # the same move on another version is another request too
    moved_on = t.raw_move(0, draft(hand, 0), version=1, key="same")
    assert moved_on.get_json()["code"] == "idempotency_key_reused"
    assert t.stored_version() == 1


def test_a_key_answered_at_the_current_version_is_caught_by_the_commit(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A keyed move on the current version is not looked up first (one round trip
    fewer); if its key was answered already, the compare-and-set refuses it and the
    answer decides: 422 for another move, and nothing applied."""
    t = Hosted(client, ED, players=3, seed=6)
    t.move(0, draft(t.get(0)), key="K")
    lookups: list[tuple[Any, ...]] = []
    real_lookup = SessionStore.idempotent

    def looked_up(*a: Any) -> dict[str, Any] | None:
        lookups.append(a)
        return real_lookup(*a)

    monkeypatch.setattr(SessionStore, "idempotent", looked_up)
    t.move(1, draft(t.get(1)), key="K")  # another seat's key is its own
    t.move(2, draft(t.get(2)))
    assert lookups == [], "a move on the current version is not looked up first"
    version = t.stored_version()
    reused = t.raw_move(0, draft(t.get(0)), key="K")  # a legal move, on the current version
    assert reused.status_code == 422, reused.get_json()
    assert reused.get_json()["code"] == "idempotency_key_reused"
    assert len(lookups) == 1 and t.stored_version() == version


def test_a_bad_idempotency_key_is_refused(client: FlaskClient) -> None:
    t = ready(client, ED)
    for key in ("", "x" * 129, "caf\u00e9", "a\tb"):
        resp = t.raw_move(0, a_move(t, 0), key=key)
        assert resp.status_code == 422, (key, resp.get_json())
    assert t.stored_version() == 0


def _fifty(app: Flask, t: Hosted, body: dict[str, Any], token: str) -> list[TestResponse]:
    answers: list[TestResponse] = []
    lock = threading.Lock()
    barrier = threading.Barrier(50)

    def retry() -> None:
        with app.test_client() as c:
            barrier.wait()
            resp = c.post(
                t.url("/moves"), json=body, headers={**auth(token), "Idempotency-Key": "retry"}
            )
        with lock:
            answers.append(resp)

    threads = [threading.Thread(target=retry) for _ in range(50)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return answers


@pytest.mark.parametrize("slug", [ED, PO])
def test_fifty_concurrent_retries_of_one_keyed_move_apply_it_once(
    app: Flask, client: FlaskClient, slug: str
) -> None:
    t = ready(client, slug)
    version = t.stored_version()
    move = a_move(t, 0)
    answers = _fifty(app, t, {"seat": 0, "version": version, "move": move}, t.tokens[0])
    assert [r.status_code for r in answers] == [200] * 50, [
        r.get_json() for r in answers if r.status_code != 200
    ]
    bodies = [r.get_json() for r in answers]
    assert all(b == bodies[0] for b in bodies)
    replayed = [r.headers.get("Idempotent-Replayed") for r in answers]
    assert replayed.count("true") == 49 and replayed.count(None) == 1
    assert bodies[0]["version"] == version + 1 == t.stored_version()
    state = t.state()
    if slug == ED:
        assert state["pending"][0] == move["card"]
        DRAFT.check(state)
    else:
        assert len(state["loans"]) == 1
        POLYMER.check(state)


def test_two_seats_may_use_one_key(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=3, seed=9)
    a = t.raw_move(0, draft(t.get(0)), version=0, key="turn-1")
    b = t.raw_move(1, draft(t.get(1)), version=1, key="turn-1")
    assert a.status_code == b.status_code == 200, b.get_json()
    assert "Idempotent-Replayed" not in b.headers and b.get_json()["version"] == 2
    # the host acting for two seats with one key: still two requests
    c = t.raw_move(2, draft(t.get(2)), version=2, key="host-1", token=t.host)
    assert c.status_code == 200
    d = t.raw_move(0, draft(t.get(0)), version=3, key="host-1", token=t.host)
    assert d.status_code == 200, d.get_json()
    assert "Idempotent-Replayed" not in d.headers and d.get_json()["version"] == 4
    state = t.state()
    assert len(state["drafted"][0]) == 1 and state["pending"][0] is not None


class _Blind:
    """Hide the stored answer from the first lookup of a request, as if its twin had
    not committed yet: the races the later lookups exist for, made deterministic."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, peeking: bool = False) -> None:
        self.lookups = 0
        real = SessionStore.idempotent
        real_peek = SessionStore.peek

        def idempotent(store: SessionStore, *args: Any) -> Any:
            self.lookups += 1
            return None if self.lookups == 1 else real(store, *args)

        def peek(store: SessionStore, session_id: str, *args: Any) -> Any:
            self.lookups += 1  # the first look, read with the session: blind it too
            return real_peek(store, session_id, 0, "-", "not-this-key")

        monkeypatch.setattr(SessionStore, "idempotent", idempotent)
        if peeking:
            monkeypatch.setattr(SessionStore, "peek", peek)
        else:  # the key's answer read on its own, as on a cluster
            monkeypatch.setattr(SessionStore, "peeks", property(lambda store: False))


@pytest.mark.parametrize("peeking", [False, True], ids=["alone", "with-the-load"])
def test_a_twin_committed_before_the_version_check_is_replayed_not_stale(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, peeking: bool
) -> None:
    t = Hosted(client, ED, players=2, seed=6)
    move = draft(t.get(0))
    first = t.raw_move(0, move, version=0, key="twin")
    assert first.status_code == 200
    blind = _Blind(monkeypatch, peeking=peeking)
    again = t.raw_move(0, move, version=0, key="twin")
    assert blind.lookups == 2
    assert again.status_code == 200, again.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()


def test_a_twin_committed_before_the_compare_and_set_is_replayed_not_stale(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = Hosted(client, ED, players=2, seed=6)
    before = t.store.load(t.id)  # what the retry read before its twin committed
    move = draft(t.get(0))
    first = t.raw_move(0, move, version=0, key="twin")
    assert first.status_code == 200
    real_load = SessionStore.load
    loads: list[str] = []

    def load(store: SessionStore, session_id: str) -> Any:
        loads.append(session_id)
        return before if len(loads) == 1 else real_load(store, session_id)

    monkeypatch.setattr(SessionStore, "load", load)
    # the stale read is faked through load(): the key's answer read on its own (as on a
    # cluster), not with the session, where it would be as old as the session read
    monkeypatch.setattr(SessionStore, "peeks", property(lambda store: False))
    lookups: list[tuple[Any, ...]] = []
    real_lookup = SessionStore.idempotent

    def looked_up(*a: Any) -> dict[str, Any] | None:
        lookups.append(a)
        return real_lookup(*a)

    monkeypatch.setattr(SessionStore, "idempotent", looked_up)
    again = t.raw_move(0, move, version=0, key="twin")
    # the retry read version 0, so it computed the move; the compare-and-set refused it
    # (the twin had committed, its answer with it, atomically) and read the answer in
    # the same script: found with no lookup of its own
    assert lookups == []
    assert again.status_code == 200, again.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert t.stored_version() == 1


@pytest.mark.parametrize("key", [None, "k1"], ids=["unkeyed", "keyed"])
def test_a_move_that_lost_the_race_is_judged_again_on_what_its_commit_read(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, key: str | None
) -> None:
    """Drafting at once, a seat's move computed on the version before another seat's
    commit is refused by the compare-and-set, then judged again on the session as the
    refused commit read it: no load and no key lookup in round trips of their own."""
    t = Hosted(client, ED, players=2, seed=6)
    before = t.store.load(t.id)  # what the second seat's move reads: version 0
    hand = t.get(1)
    assert t.raw_move(0, draft(t.get(0)), version=0).status_code == 200
    reads: list[str] = []
    real_load, real_after, real_lookup = (
        SessionStore.load,
        SessionStore.load_after,
        SessionStore.idempotent,
    )

    def load(store: SessionStore, session_id: str) -> Any:
        reads.append("load")
        return before if len(reads) == 1 else real_load(store, session_id)

    def load_after(store: SessionStore, session_id: str, calls: Any) -> Any:
        reads.append("load")
        found = real_after(store, session_id, calls)
        return (*before, found[2]) if len(reads) == 1 else found

    def idempotent(*a: Any) -> Any:
        reads.append("key")
        return real_lookup(*a)

    monkeypatch.setattr(SessionStore, "load", load)
    monkeypatch.setattr(SessionStore, "load_after", load_after)
    monkeypatch.setattr(SessionStore, "idempotent", idempotent)
    with logged() as lines:
        second = t.raw_move(1, draft(hand), version=0, key=key)
    assert second.status_code == 200, second.get_json()
    assert reads == ["load"]  # the stale one: the retry used the refused commit's reading
    assert second.get_json()["version"] == 2 and t.stored_version() == 2
    # its log line says it committed twice (bench.bgio.tail counts these), and which
    # process answered it
    (line,) = [line for line in lines if line["msg"] == "request"]
    assert line["path"].endswith("/moves") and line["commits"] == 2
    assert line["pid"] == os.getpid()
    if key is not None:  # and its answer is stored once, as any keyed move's
        again = t.raw_move(1, draft(hand), version=0, key=key)
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.get_json() == second.get_json()


@contextlib.contextmanager
def logged() -> Iterator[list[dict[str, Any]]]:
    """The service's JSON log lines at INFO (each request's) while the block runs."""
    lines = Lines()
    logger = logging.getLogger("chemgames")
    level = logger.level
    logger.addHandler(lines)
    logger.setLevel(logging.INFO)
    try:
        yield lines.lines
    finally:
        logger.removeHandler(lines)
        logger.setLevel(level)


def test_a_move_that_won_its_commit_logs_one_commit(client: FlaskClient) -> None:
    t = Hosted(client, ED, players=2, seed=6)
    hand = t.get(0)
    with logged() as lines:
        assert t.raw_move(0, draft(hand), version=0).status_code == 200
        t.get(0)
    requests = [line for line in lines if line["msg"] == "request"]
    assert [(line["method"], line.get("commits")) for line in requests] == [
        ("POST", 1),
        ("GET", None),  # not a move: no count
    ]


# ------------------------------------------------------------------ the deadline -------
def test_a_polymer_bot_moves_at_the_servers_time(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's move is made at the server's time as of the request: neither the last
    move's time nor the bot's own think time moves the game's clock."""
    import rules.polymer.bots

    monkeypatch.setattr(rules.polymer.bots, "THINK_MS", (200, 201))  # it thinks 200 ms
    t = ready(client, PO)
    started = t.state()["now_ms"]
    time.sleep(0.3)
    body = t.bot(0, "random")
    assert body["server_now_ms"] >= started + 300
    assert body["view"]["now_ms"] == body["server_now_ms"]
    assert t.state()["now_ms"] == body["server_now_ms"]


def test_after_the_deadline_the_first_request_shows_the_game_ended(client: FlaskClient) -> None:
    """No move needed: the first request after the deadline, whichever, applies time-up."""
    firsts: dict[str, Callable[[Hosted], Any]] = {
        "observer": lambda t: t.get(),
        "seat": lambda t: t.get(3),
        "scores": lambda t: t.scores(),
        "legal-moves": lambda t: t.legal(0),
        # time is up whatever the move: not a rule violation, not "already started"
        "illegal move": lambda t: t.raw_move(0, {"type": "lend", "to": 2, "cards": [0]}),
        "start": lambda t: t.send("POST", "/start", headers=auth(t.host)),
    }
    tables = {name: Hosted(client, PO, players=5, seed=7, options={"timer_seconds": 1})
              for name in firsts}  # fmt: skip
    started = [t.start() for t in tables.values()]
    last = started[-1]  # the latest deadline
    time.sleep(max(0.0, (last["deadline_ms"] - last["server_now_ms"]) / 1000) + 0.05)
    for name, t in tables.items():
        first = firsts[name](t)
        if name == "scores":
            assert first["scores"]["final"] is True and first["outcome"]["finished"], first
        elif name == "legal-moves":
            assert first == []
        elif name in ("illegal move", "start"):
            assert first.status_code == 409, first.get_json()
            assert first.get_json()["code"] == "timer_expired"
        else:
            assert first["phase"] == "ended" and first["outcome"]["finished"] is True, first
            assert first["to_act"] == [] and first["server_now_ms"] >= first["deadline_ms"]
        assert t.state()["phase"] == "ended", name
        assert t.get(1)["phase"] == "ended"
        assert 0 < t.ttl() <= ENDED_TTL_SECONDS


@pytest.fixture()
def store(redis_url: str) -> SessionStore:
    return SessionStore(redis_url, ttl_seconds=60, prefix=TEST_PREFIX)


def _stored(store: SessionStore, deadline_ms: int | None) -> str:
    session_id = f"test-{time.time_ns():x}"
    store.create(
        session_id,
        slug=PO,
        token="t0",
        version=4,
        players=5,
        deadline_ms=deadline_ms,
        public={},
    )
    return session_id


def _commit(store: SessionStore, session_id: str, *, system: bool) -> Any:
    return store.commit(
        session_id,
        expected=4,
        version=5,
        token="t1",
        deadline_ms=None,
        public={},
        message=None,
        system=system,
    )


def test_the_store_refuses_a_commit_after_the_deadline_by_redis_clock(
    store: SessionStore,
) -> None:
    past = _stored(store, store.now_ms() - 1)
    refused = _commit(store, past, system=False)
    assert (refused.status, refused.version) == ("expired", 4)
    session, _ = store.load(past)
    assert session is not None and session.version == 4 and session.token == "t0"
    applied = _commit(store, past, system=True)  # the service's own time-up
    assert (applied.status, applied.version) == ("applied", 5)
    session, _ = store.load(past)
    assert session is not None and session.token == "t1" and session.deadline_ms is None


def test_a_stale_system_commit_is_refused_too(store: SessionStore) -> None:
    """The service's own transition (time-up) skips the deadline check, never the version
    check: applied twice, time-up would settle loans twice and move the version back."""
    past = _stored(store, store.now_ms() - 1)
    assert _commit(store, past, system=True).status == "applied"  # version 4 -> 5
    again = _commit(store, past, system=True)  # computed on version 4 again
    assert (again.status, again.version) == ("stale", 5)
    session, _ = store.load(past)
    assert session is not None and session.version == 5 and session.token == "t1"
    ahead = store.commit(
        past,
        expected=5,
        version=7,
        token="t2",
        deadline_ms=None,
        public={},
        message=None,
        system=True,
    )
    assert ahead.status == "applied"
    behind = _commit(store, past, system=True)  # an old transition cannot bring version 5 back
    assert (behind.status, behind.version) == ("stale", 7)


def test_the_store_commits_before_the_deadline_and_without_one(store: SessionStore) -> None:
    for deadline in (store.now_ms() + 60_000, None):
        session_id = _stored(store, deadline)
        result = _commit(store, session_id, system=False)
        assert (result.status, result.version) == ("applied", 5)
        stale = _commit(store, session_id, system=False)
        assert (stale.status, stale.version) == ("stale", 5)
    assert _commit(store, "test-missing", system=False).status == "missing"


def test_the_store_files_answers_under_seat_credential_and_key(store: SessionStore) -> None:
    session_id = _stored(store, None)
    answer = {"fingerprint": "f", "body": {"version": 5}}
    result = store.commit(
        session_id,
        expected=4,
        version=5,
        token="t1",
        deadline_ms=None,
        public={},
        message=None,
        idem=(2, "cred", "k", answer),
    )
    assert result.status == "applied"
    assert store.idempotent(session_id, 2, "cred", "k") == answer
    for seat, cred, key in ((1, "cred", "k"), (2, "other", "k"), (2, "cred", "k2")):
        assert store.idempotent(session_id, seat, cred, key) is None
    # the answer is a field of the session's hash: it expires with the session, never later
    assert store.redis.hexists(store.key(session_id), store.idem_field(2, "cred", "k"))
    assert 0 < store.redis.ttl(store.key(session_id)) <= 60


# {"fingerprint":"f","body":{"version":7,"to_act":[0,1]}} as pack() stores it since 0.2.0
PINNED_ANSWER_FRAME = "28b52ffd2037a500002066377d7d0500d025610532660e6316e2cb0001"


def test_stored_answers_are_compressed_against_a_dictionary_that_never_changes() -> None:
    """An answer is a Zstandard frame against a preset dictionary that neither it nor the
    zlib answers of earlier builds carry (those name it by its Adler-32 only): a changed
    dictionary would leave every answer stored under the old one unreadable (a retry's
    replay)."""
    assert zlib.adler32(ANSWER_DICTIONARY) == 3944110806
    answer = {"fingerprint": "f" * 64, "body": {"version": 5, "view": {"seats": []}}}
    raw = pack(answer)
    assert raw[:4] == ZSTD_MAGIC
    frame = zstandard.get_frame_parameters(raw)
    assert frame.dict_id == 0 and not frame.has_checksum  # nothing of it named in the frame
    assert frame.content_size == len(orjson.dumps(answer))
    assert unpack(raw) == answer
    # a frame this build wrote (pinned): what a later build must still read
    pinned = bytes.fromhex(PINNED_ANSWER_FRAME)
    assert unpack(pinned) == {"fingerprint": "f", "body": {"version": 7, "to_act": [0, 1]}}
    # the dictionary is what makes a short answer small: without it, the same frame's
    # bytes are not the answer
    with pytest.raises(zstandard.ZstdError):
        zstandard.ZstdDecompressor().decompress(pinned)
    # answers stored by earlier builds are still read: zlib against the dictionary (0.2.0
    # before Zstandard), plain zlib at level 6 (before 0.2.0, and STATE_SEAL=fernet)
    deflate = zlib.compressobj(1, zlib.DEFLATED, 15, 8, zlib.Z_DEFAULT_STRATEGY, ANSWER_DICTIONARY)
    earlier = deflate.compress(json.dumps(answer).encode()) + deflate.flush()
    assert earlier[1] & 0x20 and int.from_bytes(earlier[2:6], "big") == 3944110806  # FDICT
    assert unpack(earlier) == answer
    assert unpack(zlib.compress(json.dumps(answer).encode(), 6)) == answer


def test_a_real_answer_is_stored_in_a_third_of_its_bytes_or_fewer(client: FlaskClient) -> None:
    """The dictionary earns its place: a real answer (element-draft, 2 seats, its first
    move) packs to at most a third of its JSON, and smaller than without the dictionary."""
    made = client.post("/v1/element-draft/sessions", json={"players": 2, "seed": 7}).get_json()
    seat = made["seats"][0]
    base = f"/v1/element-draft/sessions/{made['session_id']}"
    moves = client.post(f"{base}/legal-moves", json={"seat": 0}, headers=auth(seat["seat_token"]))
    body = {"seat": 0, "version": made["version"], "move": moves.get_json()["moves"][0]}
    answer = client.post(f"{base}/moves", json=body, headers=auth(seat["seat_token"]))
    assert answer.status_code == 200
    stored = {"fingerprint": "f" * 43, "body": answer.get_json()}
    data = orjson.dumps(stored)
    plain = zstandard.ZstdCompressor(level=1, write_checksum=False).compress(data)
    assert len(pack(stored)) * 3 <= len(data)
    assert len(pack(stored)) < len(plain)


def test_with_state_seal_fernet_answers_are_stored_as_before_the_dictionary(
    redis_url: str,
) -> None:
    """A rolling upgrade's first step (``STATE_SEAL=fernet``): an instance of an earlier
    release, which knows no dictionary, replays the answers this one stores."""
    for seal, dictionary in (("fernet", False), ("aead", True)):
        app = create_app(make_settings(KEY_A, redis_url=redis_url, state_seal=seal))
        store = app.extensions["chemgames.store"]
        assert store.answers_dictionary is dictionary
        session_id = _stored(store, None)
        answer = {"fingerprint": "f", "body": {"version": 5}}
        store.commit(
            session_id, expected=4, version=5, token="t1", deadline_ms=None, public={},
            message=None, idem=(2, "cred", "k", answer),
        )  # fmt: skip
        raw = store.redis.hget(store.key(session_id), store.idem_field(2, "cred", "k"))
        assert (raw[:4] == ZSTD_MAGIC) is dictionary
        if not dictionary:
            assert json.loads(zlib.decompress(raw)) == answer  # how earlier releases read it
        assert store.idempotent(session_id, 2, "cred", "k") == answer


def test_a_stale_commit_reads_the_session_and_its_key_as_they_are(store: SessionStore) -> None:
    """Refused because another move committed first, a commit answers what the move's
    next attempt needs, read in the same script: the session as a load reads it, and
    the stored answer of its own Idempotency-Key (another seat's or key's: none)."""
    session_id = _stored(store, None)
    answer = {"fingerprint": "f", "body": {"version": 5}}
    idem = (2, "cred", "k", answer)
    first = store.commit(
        session_id, expected=4, version=5, token="t1", deadline_ms=None, public={"p": 1},
        message=None, idem=idem,
    )  # fmt: skip
    assert first.status == "applied" and first.seen is None and first.answer is None
    for key, stored in (("k", answer), ("k2", None)):
        again = store.commit(
            session_id, expected=4, version=5, token="t9", deadline_ms=None, public={},
            message=None, idem=(2, "cred", key, answer),
        )  # fmt: skip
        assert (again.status, again.version) == ("stale", 5)
        assert again.seen is not None
        seen, now_ms = again.seen
        loaded, load_now = store.load(session_id)
        assert seen == loaded and seen is not None and seen.token == "t1"
        assert abs(now_ms - load_now) < 5_000
        assert (unpack(again.answer) if again.answer else None) == stored
    unkeyed = _commit(store, session_id, system=False)
    assert unkeyed.status == "stale" and unkeyed.answer is None and unkeyed.seen is not None
