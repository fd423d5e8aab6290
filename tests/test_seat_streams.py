"""A seat's own stream (``GET .../sessions/{id}/events?seat=n``, issue 32): the seat's view
pushed with every committed move, so a device never polls for its hand.

Every game: each frame is exactly what ``GET /sessions/{id}?seat=n`` answers at that
version (itself tested to hide every other seat's secrets), plus the public events the
public stream carries, and nothing else; a seat's stream needs that seat's credential
(or the host's). Moves that commit faster than the stream sends are folded into one
frame at the latest version, with every move's public events.
"""

from __future__ import annotations

import copy
import queue
import threading
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from flask import Flask

from rules.registry import GAMES
from service import create_app
from service.http import streams
from service.sessions import flow
from service.sessions import store as store_module

from .conftest import KEY_A, auth, make_settings
from .test_conformance import QUICK_OPTIONS
from .test_sessions import DEAL_2, ED, Hosted, Stream, check_draft_events, draft

pytestmark = [pytest.mark.redis]

CLOCK_NOW = ("server_now_ms", "server_now")  # the server's clock, read at each answer


@pytest.fixture(scope="module")
def stream_app(redis_url: str) -> Flask:
    """An instance whose streams beat often and end soon (a failing test ends quickly)."""
    return create_app(
        make_settings(KEY_A, redis_url=redis_url, sse_max_seconds=8, sse_heartbeat_seconds=0.2)
    )


def seat_stream(t: Hosted, seat: int, token: str | None = None) -> Stream:
    return opened_seat_stream(t.client, t.url(f"/events?seat={seat}"), token or t.tokens[seat])


def opened_seat_stream(client: Any, url: str, token: str) -> Stream:
    stream = Stream.__new__(Stream)
    stream.resp = client.get(url, headers=auth(token), buffered=False)
    assert stream.resp.status_code == 200, stream.resp.data[:300]
    stream.chunks = iter(stream.resp.response)
    stream.pending = ""
    assert stream.frame() == {"retry": "2000"}
    hello = stream.frame()
    assert hello is not None and hello["event"] == "hello", hello
    stream.hello = hello
    return stream


class Public:
    """The public stream, or with ``token`` a seat's (``url`` with ``?seat=``), read in a
    thread of its own (two streams read in one thread would interleave their request
    contexts)."""

    def __init__(self, app: Flask, url: str, token: str | None = None) -> None:
        self.frames: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.stop = threading.Event()
        opened = threading.Event()

        def read() -> None:
            client = app.test_client()
            if token is None:
                stream = Stream(client, url)
            else:
                stream = opened_seat_stream(client, url, token)
            self.hello = stream.hello
            opened.set()
            try:
                while not self.stop.is_set() and (frame := stream.frame()) is not None:
                    if "event" in frame:
                        self.frames.put(frame)
            finally:
                stream.close()
                self.frames.put(None)

        self.thread = threading.Thread(target=read, daemon=True)
        self.thread.start()
        assert opened.wait(5)

    def until(self, done: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        out = []
        while (frame := self.frames.get(timeout=5)) is not None:
            out.append(frame)
            if done(frame):
                return out
        raise AssertionError(f"the public stream closed first: {out}")

    def close(self) -> None:
        self.stop.set()


def raw_subscription(t: Hosted) -> streams.Subscription:
    """This process's own subscription to the session's channel: its messages as published."""
    before, _ = t.store.load(t.id)
    assert before is not None
    return streams.Subscription(
        t.store.stream_client(t.id), t.store.channel(t.id), sharded=before.sharded
    )


def as_seat_sees_it(t: Hosted, seat: int) -> dict[str, Any]:
    """``GET /sessions/{id}?seat=``, without the clock's reading of now."""
    body = t.get(seat)
    return {k: v for k, v in body.items() if k not in CLOCK_NOW}


def frame_members(data: dict[str, Any]) -> dict[str, Any]:
    """A frame's members that ``GET /sessions/{id}?seat=`` answers too (a hello's
    ``stream_id`` is the stream's own)."""
    skip = (*CLOCK_NOW, "events", "finished", "stream_id")
    return {k: v for k, v in data.items() if k not in skip}


def cards_named(node: Any) -> set[int]:
    """Every element-draft card (``z``) anywhere in ``node``."""
    if isinstance(node, dict):
        found = {node["z"]} if isinstance(node.get("z"), int) else set()
        return found.union(*(cards_named(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(cards_named(v) for v in node))
    return set()


def _start(client: Any, slug: str) -> Hosted:
    game = GAMES[slug]
    players = max(game.info.min_players, 3)
    t = Hosted(client, slug, players=players, seed=11, options=QUICK_OPTIONS.get(slug, {}))
    if slug == "polymer":
        t.start()
    return t


@pytest.mark.parametrize("committed", ["here", "elsewhere"])
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_frame_is_the_seats_own_view_and_the_public_events(
    stream_app: Flask, slug: str, committed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built from the state the commit had (the stream in the process that made the
    move) or from the one it published, opened (in any other)."""
    if committed == "elsewhere":
        monkeypatch.setattr(streams, "SEALED_KEPT", 0)
    client = stream_app.test_client()
    t = _start(client, slug)
    mine = seat_stream(t, 0)
    public = Public(stream_app, t.url("/events"))
    try:
        hello = mine.hello
        assert hello is not None
        assert frame_members(hello["data"]) == as_seat_sees_it(t, 0)
        assert hello["data"]["finished"] is False
        assert hello["id"] == str(t.version)
        assert len(hello["data"]["stream_id"]) >= 16  # the stream's own, in its hello only
        moved = 0
        for n in range(10):
            to_act = t.get()["to_act"]
            if not to_act:
                break
            # the other seats' moves most (what seat 0 must not see), seat 0's too
            seat = to_act[n % len(to_act)] if n % 3 == 0 else to_act[-1]
            answer = t.bot(seat, "random")
            moved += 1
            version = answer["version"]

            def reached(f: dict[str, Any], v: int = version) -> bool:
                return bool(f["data"].get("version") == v)

            frames, heard = mine.until(reached), public.until(reached)
            (frame,) = [f for f in frames if f["event"] == "update"]
            (update,) = [f for f in heard if f["event"] == "update"]
            data = frame["data"]
            assert frame["id"] == str(version)
            assert frame_members(data) == as_seat_sees_it(t, 0)
            # the public stream's own events, and no member beyond the seat's answer
            assert data["events"] == update["data"]["events"]
            assert data["finished"] == update["data"]["finished"]
            assert set(data) - set(t.get(0)) - {"events", "finished"} == set()
            assert "stream_id" not in data and "stream_id" not in update["data"]
        assert moved > 0
    finally:
        mine.close()
        public.close()


def legal_answer(t: Hosted, seat: int) -> dict[str, Any]:
    """``POST .../legal-moves`` for ``seat``, whole."""
    resp = t.send("POST", "/legal-moves", {"seat": seat}, auth(t.tokens[seat]))
    assert resp.status_code == 200, resp.get_json()
    body: dict[str, Any] = resp.get_json()
    return body


@pytest.mark.parametrize("committed", ["here", "elsewhere"])
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_with_legal_moves_every_frame_carries_what_the_legal_moves_read_answers(
    stream_app: Flask, slug: str, committed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``legal_moves=true``: the hello and every update carry the seat's legal moves at
    the frame's version, exactly the read's answer (moves, or none while it must wait,
    and ``move_space``), on top of the same frame as without it."""
    if committed == "elsewhere":
        monkeypatch.setattr(streams, "SEALED_KEPT", 0)
    client = stream_app.test_client()
    t = _start(client, slug)
    # each in a thread of its own: two streams read in one would interleave their contexts
    mine = Public(stream_app, t.url("/events?seat=0&legal_moves=true"), t.tokens[0])
    plain = Public(stream_app, t.url("/events?seat=0"), t.tokens[0])
    try:
        hello = mine.hello["data"]
        assert hello["legal_moves"] == legal_answer(t, 0)
        assert hello["legal_moves"]["version"] == hello["version"] == t.version
        assert frame_members(hello) == {**as_seat_sees_it(t, 0), "legal_moves": legal_answer(t, 0)}
        assert "legal_moves" not in plain.hello["data"]
        may_act = waits = 0
        for n in range(10):
            to_act = t.get()["to_act"]
            if not to_act:
                break
            seat = to_act[n % len(to_act)] if n % 3 == 0 else to_act[-1]
            version = t.bot(seat, "random")["version"]

            def reached(f: dict[str, Any], v: int = version) -> bool:
                return bool(f["data"].get("version") == v)

            (frame,) = [f["data"] for f in mine.until(reached) if f["event"] == "update"]
            (without,) = [f["data"] for f in plain.until(reached) if f["event"] == "update"]
            expected = legal_answer(t, 0)
            assert expected["version"] == version
            assert frame["legal_moves"] == expected
            assert {k: v for k, v in frame.items() if k != "legal_moves"} == without
            if expected["moves"]:
                may_act += 1
            else:
                waits += 1
        assert may_act > 0  # moves listed, and checked
    finally:
        mine.close()
        plain.close()


def test_a_selection_stays_secret_on_the_other_seats_stream(stream_app: Flask) -> None:
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    stream = seat_stream(t, 1)
    try:
        card = draft(t.get(0))["card"]
        t.move(0, {"type": "draft", "card": card})
        (frame,) = stream.until(lambda f: f["event"] == "update")
        data = frame["data"]
        check_draft_events(data["events"], None)
        assert data["view"]["seats"][0]["has_selected"] is True
        assert data["view"]["you"]["selection"] is None
        # no card of seat 0's hand (its selection among them) anywhere in seat 1's frame
        assert card in DEAL_2[0]
        assert cards_named(data) & set(DEAL_2[0]) == set()
        assert cards_named(data) >= set(DEAL_2[1])  # the check sees cards at all
        assert data["to_act"] == [1]
    finally:
        stream.close()


def test_moves_faster_than_the_stream_are_one_frame_with_every_moves_events(
    stream_app: Flask,
) -> None:
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    stream = seat_stream(t, 0)
    # a subscription of this process to the same channel: the process hands each message
    # to all its subscriptions at once, so once this one has the third, the stream has all
    beside = raw_subscription(t)
    try:
        first = t.bot(1, "random")
        second = t.bot(0, "random")  # both selected: the reveal, hands pass
        third = t.bot(1, "random")
        for version in (1, 2, 3):
            got = beside.get(timeout=5)
            assert got is not None and orjson.loads(got)["version"] == version
        frames = stream.until(lambda f: f["event"] == "update")
    finally:
        beside.close()
        stream.close()
    (frame,) = frames
    data = frame["data"]
    assert data["version"] == third["version"] == 3
    assert frame_members(data) == as_seat_sees_it(t, 0)
    public = [e["type"] for e in data["events"]]
    assert public == [e["type"] for e in (*first["events"], *second["events"], *third["events"])]
    check_draft_events(data["events"], None)


def test_the_stream_ends_with_the_game(stream_app: Flask) -> None:
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    stream = seat_stream(t, 0, token=t.host)  # the host may watch any seat
    try:
        t.play_out()
        frames = stream.until(lambda f: f["event"] == "end")
    finally:
        stream.close()
    updates = [f["data"] for f in frames if f["event"] == "update"]
    assert updates[-1]["finished"] is True and updates[-1]["outcome"]["finished"] is True
    assert updates[-1]["version"] == t.version
    assert frames[-1]["data"] == {"session_id": t.id, "finished": True}


@pytest.mark.parametrize(
    ("query", "who", "status", "code"),
    [
        ("?seat=0", None, 401, "credentials_missing"),
        ("?seat=0", 1, 403, "seat_token_invalid"),
        ("?seat=0", "forged", 403, "seat_token_invalid"),
        ("?seat=7", 0, 422, "seat_out_of_range"),
        ("?seat=one", 0, 422, "invalid_request"),
        ("?seat=-1", 0, 422, "invalid_request"),
        ("?seat=0&hand=1", 0, 422, "invalid_request"),
        ("?legal_moves=true", None, 422, "invalid_request"),  # a seat's own, and no seat
        ("?seat=0&legal_moves=1", 0, 422, "invalid_request"),
        ("?seat=0&legal_moves=yes", 0, 422, "invalid_request"),
        ("?seat=0&legal_moves=true", None, 401, "credentials_missing"),
        ("?seat=0&legal_moves=true", 1, 403, "seat_token_invalid"),
    ],
)
def test_a_seats_stream_needs_that_seats_credential(
    stream_app: Flask, query: str, who: int | str | None, status: int, code: str
) -> None:
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    headers = {}
    if who == "forged":
        headers = auth(t.tokens[0][:-4] + "AAAA")
    elif isinstance(who, int):
        headers = auth(t.tokens[who])
    resp = client.get(t.url(f"/events{query}"), headers=headers)
    assert resp.status_code == status, resp.data[:300]
    assert resp.mimetype == "application/problem+json"
    body = resp.get_json()
    assert body["code"] == code


def test_the_public_stream_still_needs_no_credential(stream_app: Flask) -> None:
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    stream = Stream(client, t.url("/events"))
    try:
        hello = stream.hello
        assert hello is not None
        assert "view" not in hello["data"] and "seat" not in hello["data"]
    finally:
        stream.close()


def test_the_stored_state_rides_the_message_and_never_a_stream(stream_app: Flask) -> None:
    """Each commit publishes its sealed state for the seats' streams; the public stream
    drops it, and no seat's frame carries it."""
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    mine = seat_stream(t, 0)
    public = Public(stream_app, t.url("/events"))
    raw = raw_subscription(t)
    try:
        t.bot(1, "random")
        published = raw.get(timeout=5)
        (frame,) = mine.until(lambda f: f["event"] == "update")
        heard = public.until(lambda f: f["event"] == "update")
        (update,) = [f for f in heard if f["event"] == "update"]
    finally:
        raw.close()
        mine.close()
        public.close()
    session, _ = t.store.load(t.id)
    assert session is not None and session.version == 1
    assert published is not None and orjson.loads(published)["sealed"] == session.token
    for data in (frame["data"], update["data"]):
        assert "sealed" not in data
        assert session.token not in str(data) and session.token[:40] not in str(data)


def test_a_message_without_the_state_is_read_back(
    stream_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An instance older than seat streams (a rolling upgrade) publishes no state: the
    seat's stream reads the session instead."""
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    stream = seat_stream(t, 0)
    monkeypatch.setattr(store_module, "published", lambda message, _token: orjson.dumps(message))
    try:
        t.bot(1, "random")
        (frame,) = stream.until(lambda f: f["event"] == "update")
    finally:
        stream.close()
    assert frame_members(frame["data"]) == as_seat_sees_it(t, 0)


def _both_seats_first_update(
    stream_app: Flask, t: Hosted, move: Callable[[], object]
) -> dict[int, dict[str, Any]]:
    """Both seats' streams open (a thread and a client each), then ``move``: each
    seat's first ``update`` frame, by seat."""
    frames: queue.Queue[dict[str, Any]] = queue.Queue()
    ready = threading.Barrier(3, timeout=5)

    def follow(seat: int) -> None:
        own = copy.copy(t)  # a client of its own: one stream per thread
        own.client = stream_app.test_client()
        stream = seat_stream(own, seat)
        ready.wait()
        try:
            (frame,) = stream.until(lambda f: f["event"] == "update")
            frames.put({"seat": seat, **frame})
        finally:
            stream.close()

    threads = [threading.Thread(target=follow, args=(s,), daemon=True) for s in (0, 1)]
    for thread in threads:
        thread.start()
    ready.wait()
    move()
    got = {f["seat"]: f for f in (frames.get(timeout=5), frames.get(timeout=5))}
    for thread in threads:
        thread.join(5)
    return got


@pytest.mark.parametrize("committed", ["here", "elsewhere"])
def test_a_process_opens_a_commits_state_once_for_all_its_seats_streams(
    stream_app: Flask, monkeypatch: pytest.MonkeyPatch, committed: str
) -> None:
    """Both seats' streams in one process: the state the commit published is opened once
    for the two of them when another process committed it, and not at all when this one
    did (it still has what it sealed); each frame is still exactly the seat's view."""
    from service.games.play import sealer
    from service.sessions import blueprint

    if committed == "elsewhere":  # as in the worker that did not make the move
        monkeypatch.setattr(streams, "SEALED_KEPT", 0)
    opened: list[str] = []

    class Counting:
        def open(self, token: str, **kwargs: Any) -> Any:
            opened.append(token)
            return sealer().open(token, **kwargs)

    monkeypatch.setattr(blueprint, "sealer", Counting)
    t = Hosted(stream_app.test_client(), ED, players=2, seed=8, options={"deal": DEAL_2})
    got = _both_seats_first_update(stream_app, t, lambda: t.bot(1, "random"))
    assert len(opened) == (0 if committed == "here" else 1)
    for seat in (0, 1):
        assert got[seat]["data"]["version"] == 1
        assert frame_members(got[seat]["data"]) == as_seat_sees_it(t, seat)


def test_the_movers_frame_is_its_answers_view_in_the_process_that_answered(
    stream_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process that answered a move sends the mover's stream the session block the
    answer showed the mover (not built again) and builds the other seat's own; each
    frame is still exactly the seat's view, and an answer is never shown to another
    seat's stream."""
    built: list[int | None] = []
    block = flow.session_block

    def counting(loaded: flow.Loaded, env: Any, seat: int | None, **kw: Any) -> dict[str, Any]:
        built.append(seat)
        return block(loaded, env, seat, **kw)

    t = Hosted(stream_app.test_client(), ED, players=2, seed=8, options={"deal": DEAL_2})

    def move() -> None:  # the move's blocks and frames counted, not the hellos
        monkeypatch.setattr(flow, "session_block", counting)
        t.bot(1, "random")

    got = _both_seats_first_update(stream_app, t, move)
    monkeypatch.undo()
    assert sorted(b for b in built if b is not None) == [0, 1]  # the answer's, seat 0's frame
    for seat in (0, 1):
        assert got[seat]["data"]["version"] == 1
        assert frame_members(got[seat]["data"]) == as_seat_sees_it(t, seat)


def test_an_answer_is_kept_for_its_movers_stream_only_and_handed_over_once() -> None:
    streams.sealed_here("token-a", {"state": 1}, 1, {"view": "seat 1's"})
    streams.sealed_here("token-b", {"state": 2})
    assert streams.take("token-c") is None
    a = streams.take("token-a")
    assert a == streams.Sealed({"state": 1}, 1, {"view": "seat 1's"})
    assert streams.take("token-a") is None  # handed over once: the message keeps it
    b = streams.take("token-b")
    assert b is not None and b.seat is None and b.shown is None


def test_a_state_is_kept_only_while_a_stream_of_the_process_follows_its_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Following:
        def follows(self, name: bytes) -> bool:
            return name == b"{s1}:events"

    monkeypatch.setattr(streams, "_listeners", {1: Following()})
    streams.sealed_here("token-1", {"state": 1}, channel="{s1}:events")
    streams.sealed_here("token-2", {"state": 2}, channel="{s2}:events")
    assert streams.take("token-2") is None  # nobody here follows s2: nothing kept
    found = streams.take("token-1")
    assert found is not None and found.state == {"state": 1}


def test_the_states_not_taken_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streams, "SEALED_KEPT", 2)
    for n in range(4):
        streams.sealed_here(f"bounded-{n}", {"state": n})
    assert [streams.take(f"bounded-{n}") is None for n in range(4)] == [True, True, False, False]


# ---------------------------------------------------------------- Stream-Id --------
def bot_move(t: Hosted, seat: int, headers: dict[str, str] | None = None) -> Any:
    """``POST .../bot-move`` for ``seat`` with its credential and ``headers``."""
    body = {"seat": seat, "version": t.version, "bot": "random"}
    return t.send("POST", "/bot-move", body, {**auth(t.tokens[seat]), **(headers or {})})


def at_version(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda f: f["event"] == "end" or f["data"].get("version") == version


@pytest.mark.parametrize("committed", ["here", "elsewhere"])
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_devices_own_move_is_not_sent_back_on_its_stream_but_is_on_the_seats_others(
    stream_app: Flask, slug: str, committed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move sent with ``Stream-Id``: that stream skips its frame (the answer showed it)
    and sends the next move's as ever; the seat's other stream (another tab) gets both,
    and the id is in no frame of any other stream."""
    if committed == "elsewhere":
        monkeypatch.setattr(streams, "SEALED_KEPT", 0)
    client = stream_app.test_client()
    t = _start(client, slug)
    for _ in range(30):  # the others move until seat 0 may
        to_act = t.get()["to_act"]
        if 0 in to_act:
            break
        t.bot(to_act[0], "random")
    assert 0 in t.get()["to_act"]
    mine = seat_stream(t, 0)
    other_tab = Public(stream_app, t.url("/events?seat=0"), t.tokens[0])
    seat_1 = Public(stream_app, t.url("/events?seat=1"), t.tokens[1])
    public = Public(stream_app, t.url("/events"))
    stream_id = mine.hello["data"]["stream_id"]
    assert stream_id != other_tab.hello["data"]["stream_id"]
    answer_only = ("move",)
    try:
        resp = bot_move(t, 0, {"Stream-Id": stream_id})
        assert resp.status_code == 200, resp.get_json()
        answer = resp.get_json()
        t.version = answer["version"]
        (tab,) = [f for f in other_tab.until(at_version(t.version)) if f["event"] == "update"]
        shown = {k: v for k, v in frame_members(answer).items() if k not in answer_only}
        assert frame_members(tab["data"]) == shown
        heard = seat_1.until(at_version(t.version)) + public.until(at_version(t.version))
        to_act = t.get()["to_act"]
        if not to_act:  # seat 0's move ended the game: its stream ends, with no update
            frames = mine.until(lambda f: f["event"] == "end")
            assert [f["event"] for f in frames] == ["end"]
            return
        later = t.bot(to_act[-1], "random")
        frames = mine.until(lambda f: f["event"] == "update")
        (update,) = frames
        assert update["data"]["version"] == later["version"] == t.version
        assert frame_members(update["data"]) == as_seat_sees_it(t, 0)
        (tab_later,) = [f for f in other_tab.until(at_version(t.version)) if f["event"] == "update"]
        assert update["data"]["events"] == tab_later["data"]["events"]  # this move's alone
        heard += seat_1.until(at_version(t.version)) + public.until(at_version(t.version))
        assert heard and all(stream_id not in orjson.dumps(f).decode() for f in heard)
    finally:
        mine.close()
        for threaded in (other_tab, seat_1, public):
            threaded.close()


def test_another_seats_credential_never_quietens_a_seats_stream(stream_app: Flask) -> None:
    """The seat is in what the message carries: seat 1's move naming seat 0's stream is
    still sent to it."""
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    mine = seat_stream(t, 0)
    try:
        resp = bot_move(t, 1, {"Stream-Id": mine.hello["data"]["stream_id"]})
        assert resp.status_code == 200, resp.get_json()
        (frame,) = mine.until(lambda f: f["event"] == "update")
    finally:
        mine.close()
    assert frame["data"]["version"] == resp.get_json()["version"]


def test_the_quiet_stream_is_named_in_the_message_and_dropped_from_the_public_stream(
    stream_app: Flask,
) -> None:
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    mine = seat_stream(t, 0)
    public = Public(stream_app, t.url("/events"))
    raw = raw_subscription(t)
    stream_id = mine.hello["data"]["stream_id"]
    try:
        assert bot_move(t, 0, {"Stream-Id": stream_id}).status_code == 200
        published = raw.get(timeout=5)
        heard = public.until(lambda f: f["event"] == "update")
    finally:
        raw.close()
        mine.close()
        public.close()
    assert published is not None
    assert orjson.loads(published)[flow.QUIET] == flow.quiet_mark(0, stream_id)
    assert all(stream_id not in orjson.dumps(f).decode() for f in heard)
    assert all(flow.QUIET not in f["data"] for f in heard)


@pytest.mark.parametrize("value", ["", "two words", "x" * 65, "a/b", "a.b", "stream=1"])
def test_a_malformed_stream_id_is_refused_before_the_move(stream_app: Flask, value: str) -> None:
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    resp = bot_move(t, 0, {"Stream-Id": value})
    assert resp.status_code == 422
    assert resp.mimetype == "application/problem+json"
    body = resp.get_json()
    assert body["code"] == "invalid_request" and "Stream-Id" in body["errors"]
    assert "hello" in body["detail"]  # what to send instead
    assert t.stored_version() == 0


def lose_the_race(t: Hosted, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Element-draft, two seats drafting at once: seat 0 drafts on version 0, and the next
    move's first load reads version 0 all the same (as a move that read it just before
    seat 0's commit), so its compare-and-set is refused and it is judged again. Returns
    seat 1's view at version 0 (its hand to draft from)."""
    before = t.store.load(t.id)  # what seat 1's move reads: version 0
    hand = t.get(1)
    assert t.raw_move(0, draft(t.get(0)), version=0).status_code == 200
    store = type(t.store)
    real_load, real_after = store.load, store.load_after
    loads: list[int] = []

    def load(st: Any, session_id: str) -> Any:
        loads.append(1)
        return before if len(loads) == 1 else real_load(st, session_id)

    def load_after(st: Any, session_id: str, calls: Any) -> Any:
        loads.append(1)
        found = real_after(st, session_id, calls)
        return (*before, found[2]) if len(loads) == 1 else found

    monkeypatch.setattr(store, "load", load)
    monkeypatch.setattr(store, "load_after", load_after)
    return hand


def test_a_move_that_lost_its_race_still_names_its_quiet_stream_when_it_commits(
    stream_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both seats drafting at once: the move whose compare-and-set lost is judged again and
    commits with the same ``Stream-Id`` (each attempt's message names it)."""
    t = Hosted(stream_app.test_client(), ED, players=2, seed=6)
    hand = lose_the_race(t, monkeypatch)
    quiet: list[Any] = []
    store = type(t.store)
    real_commit = store.commit

    def commit(st: Any, session_id: str, **kw: Any) -> Any:
        quiet.append(kw["message"].get(flow.QUIET))
        return real_commit(st, session_id, **kw)

    monkeypatch.setattr(store, "commit", commit)
    headers = {**auth(t.tokens[1]), "Stream-Id": "tab-1"}
    body = {"seat": 1, "version": 0, "move": draft(hand)}
    resp = t.send("POST", "/moves", body, headers)
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["version"] == 2
    assert quiet == [flow.quiet_mark(1, "tab-1")] * 2  # refused, then applied


def test_the_flow_modules_examples_run() -> None:
    import doctest

    assert doctest.testmod(flow).failed == 0


@pytest.mark.parametrize("own_first", [True, False], ids=["own-move-first", "own-move-last"])
def test_a_quiet_move_folded_with_another_is_sent_at_the_latest_version(
    stream_app: Flask, own_first: bool
) -> None:
    """Both messages already in when the stream reads: the quiet one first is skipped and
    the next is its own frame; after another seat's, one frame folds both (the latest
    state, both moves' events), as any frame folds what it finds waiting."""
    client = stream_app.test_client()
    t = Hosted(client, ED, players=2, seed=8, options={"deal": DEAL_2})
    stream = seat_stream(t, 0)
    beside = raw_subscription(t)  # once it has both, the stream's queue has both too
    quiet = {"Stream-Id": stream.hello["data"]["stream_id"]}
    try:
        first = bot_move(t, 0, quiet) if own_first else bot_move(t, 1)
        t.version = first.get_json()["version"]
        second = bot_move(t, 1) if own_first else bot_move(t, 0, quiet)
        assert first.status_code == second.status_code == 200
        for version in (1, 2):
            got = beside.get(timeout=5)
            assert got is not None and orjson.loads(got)["version"] == version
        (frame,) = stream.until(lambda f: f["event"] == "update")
    finally:
        beside.close()
        stream.close()
    data = frame["data"]
    assert data["version"] == 2
    assert frame_members(data) == as_seat_sees_it(t, 0)
    # the answers' events as their movers saw them, the frame's as the public sees them
    heard = [*first.get_json()["events"], *second.get_json()["events"]]
    if own_first:
        heard = second.get_json()["events"]
    assert [e["type"] for e in data["events"]] == [e["type"] for e in heard]
    check_draft_events(data["events"], None)
