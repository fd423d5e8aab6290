"""Lessons (issue 30): a class seated at tables with bots, watched, ended, its results kept.

Every test runs on a real Redis; the ones marked ``every_redis`` on one server and on a
Redis Cluster too (a lesson's keys share one slot; its tables live in others).
"""

from __future__ import annotations

import csv
import io
import threading
import time
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.app import in_context
from service.lessons import codes
from service.lessons.blueprint import _cell

from .conftest import KEY_A, auth, make_settings

pytestmark = pytest.mark.redis

OPERATOR, OTHER = "lesson-operator-5c1e", "lesson-other-77aa"
SIZES = {
    "element-draft": 4,
    "polymer": 5,
    "chemistry-battle": 2,
    "compound-capture": 4,
    "chemistry-canasta": 4,
    "metal-vs-nonmetal": 4,
    "polymerization": 4,
}
# short games: a lesson may set fewer rounds (Chemistry Battle) or a shorter timer
FAST = {
    "polymer": {"timer_seconds": 1, "bot_think_min_ms": 100, "bot_think_max_ms": 100},
    "chemistry-battle": {"round_limit": 20},
}
_addresses = iter(range(1, 250))


def new_address() -> str:
    """A client address of its own (wrong join codes are counted per address)."""
    return f"10.30.{next(_addresses)}.7"


def operated(redis_url: str, **kw: Any) -> Flask:
    return create_app(
        make_settings(KEY_A, redis_url=redis_url, operator_keys=(OPERATOR, OTHER), **kw)
    )


@pytest.fixture(scope="module")
def app(redis_url: str) -> Flask:
    return operated(redis_url)


@pytest.fixture()
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as c:
        yield c


def create(c: FlaskClient, key: str | None = OPERATOR, **body: Any) -> Any:
    body = {"game": "chemistry-battle", "table_size": 2, **body}
    body.setdefault("options", FAST.get(body["game"], {}))
    return c.post("/v1/lessons", json=body, headers=auth(key) if key else {})


def join(c: FlaskClient, code: str, name: str, address: str | None = None, **more: Any) -> Any:
    return c.post(
        "/v1/join",
        json={"code": code, "name": name, **more},
        environ_base={"REMOTE_ADDR": address or new_address()},
    )


def lesson(c: FlaskClient, lesson_id: str, key: str = OPERATOR) -> dict[str, Any]:
    resp = c.get(f"/v1/lessons/{lesson_id}", headers=auth(key))
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()  # type: ignore[no-any-return]


def run_due(app: Flask) -> int:
    return int(app.extensions["chemgames.due"].run_due(in_context(app)))


def play_to_end(c: FlaskClient, app: Flask, slug: str, seats: list[dict[str, Any]]) -> None:
    """Every table of these students played to its end through the API: each student's
    seat moves by `bot-move` with the student's own credential; the bot seats are the
    service's (a real-time game's run as due work)."""
    by_table: dict[str, dict[int, str]] = {}
    for s in seats:
        by_table.setdefault(s["session_id"], {})[s["seat"]] = s["seat_token"]
    pending = set(by_table)
    deadline = time.monotonic() + 300
    while pending:
        assert time.monotonic() < deadline, f"{slug}: tables still playing: {pending}"
        for sid in sorted(pending):
            view = c.get(f"/v1/{slug}/sessions/{sid}/scores")
            assert view.status_code == 200, view.get_json()
            if view.get_json()["outcome"]["finished"]:
                pending.discard(sid)
                continue
            state = c.get(f"/v1/{slug}/sessions/{sid}").get_json()
            # Polymer's students only get ready; then its one-second timer runs out (a
            # bot-move racing the deadline may choose time_up a moment early and get
            # timer_running, a code bot-move does not declare: reported, not a lesson's)
            if state.get("phase", "waiting") != "waiting":
                continue
            for seat in state["to_act"]:
                token = by_table[sid].get(seat)
                if token is None:
                    continue
                moved = c.post(
                    f"/v1/{slug}/sessions/{sid}/bot-move",
                    json={"seat": seat, "version": state["version"], "bot": "greedy"},
                    headers=auth(token),
                )
                # another seat's move (or time-up) may come first: look again
                assert moved.status_code in (200, 409, 422), moved.get_json()
        if slug == "polymer":
            run_due(app)
            time.sleep(0.05)


# ------------------------------------------------------------------ seating --------------
def test_a_lesson_seats_students_as_they_come_and_deals_full_tables(client: FlaskClient) -> None:
    made = create(client, title="Period 3")
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    assert body["state"] == "open" and body["tables"] == [] and body["title"] == "Period 3"
    assert codes.normal_code(body["code"]) is not None and body["join_url"].endswith(body["code"])
    lid = body["lesson_id"]
    first = join(client, body["code"].lower().replace("-", " "), "Ada").get_json()
    assert first["table"] == 0 and first["seat"] == 0 and not first["rejoined"]
    assert first["seat_url"] == (
        f"/play/chemistry-battle/{first['session_id']}/seat/0#token={first['seat_token']}"
    )
    # the table is not dealt until it is full: its session does not exist yet
    waiting = client.get(f"/v1/chemistry-battle/sessions/{first['session_id']}")
    assert waiting.status_code == 404
    second = join(client, body["code"], "Bo").get_json()
    assert (second["table"], second["seat"], second["session_id"]) == (
        0,
        1,
        first["session_id"],
    )
    dealt = client.get(
        f"/v1/chemistry-battle/sessions/{first['session_id']}?seat=1",
        headers=auth(second["seat_token"]),
    )
    assert dealt.status_code == 200 and dealt.get_json()["seat"] == 1
    seen = lesson(client, lid)
    assert [t["status"] for t in seen["tables"]] == ["playing"]
    assert [s["name"] for s in seen["tables"][0]["seats"]] == ["Ada", "Bo"]
    # a table is a session of the lesson's operator like any other
    listed = client.get("/v1/operator/sessions", headers=auth(OPERATOR)).get_json()
    assert first["session_id"] in {s["session_id"] for s in listed["sessions"]}


def test_rejoining_gives_the_same_seat_and_a_name_is_never_seated_twice(
    client: FlaskClient,
) -> None:
    body = create(client).get_json()
    code = body["code"]
    first = join(client, code, "Ada").get_json()
    again = join(client, code, "someone else", rejoin=first["rejoin"])
    assert again.status_code == 200
    back = again.get_json()
    assert back["rejoined"] and (back["table"], back["seat"], back["seat_token"], back["name"]) == (
        first["table"],
        first["seat"],
        first["seat_token"],
        "Ada",
    )
    twin = join(client, code, "  ADA ")
    assert twin.status_code == 409 and twin.get_json()["code"] == "name_taken"
    # a client that chose its own rejoin secret and retries gets one seat
    mine = "client-chosen-secret-0001"
    a = join(client, code, "Cy", rejoin=mine).get_json()
    b = join(client, code, "Cy", rejoin=mine).get_json()
    assert (a["table"], a["seat"]) == (b["table"], b["seat"]) and b["rejoined"]
    assert lesson(client, body["lesson_id"])["students"] == 2


@pytest.mark.every_redis
def test_thirty_students_joining_at_once_get_exactly_one_seat_each(redis_url: str) -> None:
    app = operated(redis_url)
    c = app.test_client()
    body = create(c, game="metal-vs-nonmetal", table_size=4).get_json()
    code, lid = body["code"], body["lesson_id"]
    answers: list[Any] = [None] * 60
    barrier = threading.Barrier(30)

    def student(i: int) -> None:
        mine = app.test_client()
        barrier.wait()
        secret = f"student-{i:02d}-secret-xyz"
        # every student sends their join twice at once (a double tap)
        answers[2 * i] = join(mine, code, f"Student {i}", "10.99.0.1", rejoin=secret)
        answers[2 * i + 1] = join(mine, code, f"Student {i}", "10.99.0.1", rejoin=secret)

    threads = [threading.Thread(target=student, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(a.status_code == 200 for a in answers), [a.get_json() for a in answers][:3]
    seats = [a.get_json() for a in answers]
    for i in range(30):
        one, two = seats[2 * i], seats[2 * i + 1]
        assert (one["session_id"], one["seat"]) == (two["session_id"], two["seat"])
    placed = {(s["session_id"], s["seat"]) for s in seats}
    assert len(placed) == 30, "thirty different seats"
    assert sorted({s["table"] for s in seats}) == list(range(8))
    seen = lesson(c, lid)
    assert seen["students"] == 30
    statuses = [t["status"] for t in seen["tables"]]
    assert statuses == ["playing"] * 7 + ["forming"], statuses
    started = c.post(f"/v1/lessons/{lid}/start", headers=auth(OPERATOR)).get_json()
    last = started["tables"][7]
    assert last["status"] == "playing"
    assert [s["bot"] for s in last["seats"]] == [None, None, "greedy", "greedy"]
    # a late student gets a new table of their own, with bots, at once
    late = join(c, code, "Late").get_json()
    assert late["table"] == 8 and late["seat"] == 0
    assert c.get(f"/v1/metal-vs-nonmetal/sessions/{late['session_id']}").status_code == 200
    c.post(f"/v1/lessons/{lid}/end", headers=auth(OPERATOR))


def test_removing_a_seat_frees_it_at_a_forming_table(client: FlaskClient) -> None:
    body = create(client, table_size=3, game="element-draft").get_json()
    lid, code = body["lesson_id"], body["code"]
    join(client, code, "Ada")
    join(client, code, "Bo")
    gone = client.delete(f"/v1/lessons/{lid}/tables/0/seats/0", headers=auth(OPERATOR))
    assert gone.status_code == 204
    again = client.delete(f"/v1/lessons/{lid}/tables/0/seats/0", headers=auth(OPERATOR))
    assert again.status_code == 404 and again.get_json()["code"] == "seat_not_found"
    cy = join(client, code, "Cy").get_json()
    assert (cy["table"], cy["seat"]) == (0, 0), "the freed seat is the next student's"
    ada = join(client, code, "Ada").get_json()  # the name is free again
    assert (ada["table"], ada["seat"]) == (0, 2)
    seen = lesson(client, lid)
    assert [s["name"] for s in seen["tables"][0]["seats"]] == ["Cy", "Bo", "Ada"]
    assert seen["tables"][0]["status"] == "playing"


def test_max_students_and_an_ended_lesson_refuse_joins(client: FlaskClient) -> None:
    body = create(client, max_students=1).get_json()
    assert join(client, body["code"], "Ada").status_code == 200
    full = join(client, body["code"], "Bo")
    assert full.status_code == 409 and full.get_json()["code"] == "lesson_full"
    ended = client.post(f"/v1/lessons/{body['lesson_id']}/end", headers=auth(OPERATOR))
    assert ended.status_code == 200 and ended.get_json()["state"] == "ended"
    assert ended.get_json()["code"] is None
    dead = join(client, body["code"], "Cy")
    assert dead.status_code == 404 and dead.get_json()["code"] == "join_code_unknown"
    started = client.post(f"/v1/lessons/{body['lesson_id']}/start", headers=auth(OPERATOR))
    assert started.status_code == 409 and started.get_json()["code"] == "lesson_ended"


# ------------------------------------------------------------------ the teacher ----------
def test_only_its_operator_or_teacher_token_sees_a_lesson(client: FlaskClient) -> None:
    body = create(client).get_json()
    lid, token = body["lesson_id"], body["teacher_token"]
    assert body["teacher_url"] == f"/play/lessons/{lid}#token={token}"
    assert lesson(client, lid, token)["lesson_id"] == lid
    other = client.get(f"/v1/lessons/{lid}", headers=auth(OTHER))
    assert other.status_code == 404 and other.get_json()["code"] == "lesson_not_found"
    wrong = client.get(f"/v1/lessons/{lid}", headers=auth("not-a-teacher-token"))
    assert wrong.status_code == 403 and wrong.get_json()["code"] == "teacher_token_invalid"
    missing = client.get(f"/v1/lessons/{lid}")
    assert missing.status_code == 401 and missing.get_json()["code"] == "credentials_missing"
    nobody = client.post("/v1/lessons", json={"game": "chemistry-battle", "table_size": 2})
    assert nobody.status_code == 401
    bad = client.post(
        "/v1/lessons", json={"game": "chemistry-battle", "table_size": 2}, headers=auth("x")
    )
    assert bad.status_code == 403 and bad.get_json()["code"] == "operator_key_invalid"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "table_size": 2}, "unknown_game"),
        ({"game": "chemistry-battle", "table_size": 7}, "bad_table_size"),
        ({"game": "polymer", "table_size": 4}, "bad_table_size"),
        ({"game": "chemistry-battle", "table_size": 2, "bot": "clever"}, "bad_bots"),
        ({"game": "polymer", "table_size": 5, "options": {"timer_seconds": 0}}, "bad_option"),
        ({"game": "chemistry-battle", "table_size": 2, "options": {"x": 1}}, "unknown_option"),
        ({"game": "chemistry-battle", "table_size": 2, "options": []}, "bad_option"),
        ({"game": "chemistry-battle", "table_size": "2"}, "invalid_request"),
        ({"game": "chemistry-battle", "table_size": 2, "max_students": 0}, "invalid_request"),
        (
            {"game": "chemistry-battle", "table_size": 2, "callback": {"url": "http://10.0.0.1/"}},
            "bad_callback",
        ),
    ],
)
def test_a_bad_lesson_is_refused_with_a_code(
    client: FlaskClient, body: dict[str, Any], code: str
) -> None:
    resp = client.post("/v1/lessons", json=body, headers=auth(OPERATOR))
    assert resp.status_code == 422, resp.get_json()
    assert resp.get_json()["code"] == code, resp.get_json()


def test_the_lesson_stream_tells_seats_turns_and_the_end(app: Flask) -> None:
    client = app.test_client()
    body = create(client).get_json()
    lid, code = body["lesson_id"], body["code"]
    watcher = app.test_client()  # a browser of its own
    token = body["teacher_token"]
    stream = watcher.get(f"/v1/lessons/{lid}/events", headers=auth(token), buffered=False)
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    frames = stream.iter_encoded()
    assert next(frames).startswith(b"retry:")
    hello = next(frames).decode()
    assert hello.startswith("event: hello") and '"code":null' in hello
    ada = join(client, code, "<b>Ada</b>").get_json()
    join(client, code, "Bo")
    sid = ada["session_id"]
    client.post(f"/v1/lessons/{lid}/end", headers=auth(OPERATOR))
    kinds = []
    text = ""
    for frame in frames:
        text += frame.decode()
        if text.count("\n\n") and "event: end" in text:
            break
    for block in text.split("\n\n"):
        if block.startswith("event: lesson"):
            data = orjson.loads(block.split("data: ", 1)[1])
            kinds.append(data["type"])
    assert kinds[:3] == ["seated", "seated", "table_started"], kinds
    assert "table_ended" in kinds and kinds[-1] == "lesson_ended"
    assert "Ada" not in text and "Bo" not in text, "no name travels on the stream"
    stream.close()
    # the table's own stream was told too: its session is gone
    assert client.get(f"/v1/chemistry-battle/sessions/{sid}").status_code == 404


def test_a_move_at_a_table_reaches_the_lesson_stream(app: Flask) -> None:
    client = app.test_client()
    body = create(client).get_json()
    lid, code = body["lesson_id"], body["code"]
    ada = join(client, code, "Ada").get_json()
    bo = join(client, code, "Bo").get_json()
    stream = app.test_client().get(
        f"/v1/lessons/{lid}/events", headers=auth(OPERATOR), buffered=False
    )
    frames = stream.iter_encoded()
    next(frames), next(frames)
    sid = ada["session_id"]
    state = client.get(f"/v1/chemistry-battle/sessions/{sid}").get_json()
    mover = {ada["seat"]: ada, bo["seat"]: bo}[state["to_act"][0]]
    moved = client.post(
        f"/v1/chemistry-battle/sessions/{sid}/bot-move",
        json={"seat": mover["seat"], "version": state["version"]},
        headers=auth(mover["seat_token"]),
    )
    assert moved.status_code == 200
    frame = next(frames).decode()
    data = orjson.loads(frame.split("data: ", 1)[1])
    assert data["type"] == "turn" and data["session_id"] == sid and data["table"] == 0
    assert data["version"] == moved.get_json()["version"] and "scores" in data
    stream.close()
    client.post(f"/v1/lessons/{lid}/end", headers=auth(OPERATOR))


# ------------------------------------------------------------------ a whole class ---------
@pytest.mark.parametrize("slug", sorted(SIZES))
def test_a_class_of_thirty_plays_every_game_to_the_end(app: Flask, slug: str) -> None:
    c = app.test_client()
    size = SIZES[slug]
    body = create(c, game=slug, table_size=size, options=FAST.get(slug, {})).get_json()
    lid, code = body["lesson_id"], body["code"]
    address = new_address()  # a class behind one school address
    seats = [join(c, code, f"Student {i}", address).get_json() for i in range(30)]
    assert len({(s["session_id"], s["seat"]) for s in seats}) == 30
    started = c.post(f"/v1/lessons/{lid}/start", headers=auth(OPERATOR)).get_json()
    assert all(t["status"] == "playing" for t in started["tables"])
    assert len(started["tables"]) == -(-30 // size)
    play_to_end(c, app, slug, seats)
    found = c.get(f"/v1/lessons/{lid}/results", headers=auth(OPERATOR)).get_json()
    assert found["complete"] and found["game"] == slug
    assert len(found["students"]) == 30 and len(found["tables"]) == len(started["tables"])
    # each student's place and score are their table session's own
    by_session: dict[str, Any] = {}
    for student in found["students"]:
        sid = student["session_id"]
        if sid not in by_session:
            by_session[sid] = c.get(f"/v1/{slug}/sessions/{sid}/scores").get_json()
        scores = by_session[sid]
        places = {p["seat"]: p["place"] for p in scores["outcome"]["places"]}
        assert student["finished"] and student["place"] == places[student["seat"]]
        entry = next(e for e in scores["scores"]["seats"] if e["seat"] == student["seat"])
        assert student["score"] == entry
    for table in found["tables"]:
        assert table["outcome"] == by_session[table["session_id"]]["outcome"]
    # the CSV has the same rows
    sheet = c.get(f"/v1/lessons/{lid}/results.csv", headers=auth(body["teacher_token"]))
    assert sheet.status_code == 200 and sheet.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(sheet.data.decode())))
    assert len(rows) == 30
    for row, student in zip(rows, found["students"], strict=True):
        assert row["name"] == student["name"] and int(row["place"]) == student["place"]
        assert int(row["table"]) == student["table"] and row["finished"] == "true"
        for name, value in student["score"].items():
            if name != "seat" and isinstance(value, (int, float)) and not isinstance(value, bool):
                assert float(row[f"score_{name}"]) == value
    seen = lesson(c, lid)
    assert seen["finished"] is not None
    assert all(t["status"] == "finished" and t["record"] for t in seen["tables"])


@pytest.mark.every_redis
def test_a_lesson_plays_through_on_every_redis(redis_url: str) -> None:
    app = operated(redis_url)
    c = app.test_client()
    body = create(c, game="chemistry-battle", table_size=2).get_json()
    seats = [join(c, body["code"], f"S{i}").get_json() for i in range(3)]
    c.post(f"/v1/lessons/{body['lesson_id']}/start", headers=auth(OPERATOR))
    play_to_end(c, app, "chemistry-battle", seats)
    found = c.get(f"/v1/lessons/{body['lesson_id']}/results", headers=auth(OPERATOR)).get_json()
    assert found["complete"] and [s["name"] for s in found["students"]] == ["S0", "S1", "S2"]


# ------------------------------------------------------------------ results kept ---------
def test_results_outlive_the_sessions_for_the_retention_only(redis_url: str) -> None:
    app = operated(redis_url, session_ttl_seconds=2, lesson_retention_seconds=3)
    c = app.test_client()
    body = create(c).get_json()
    lid = body["lesson_id"]
    seats = [join(c, body["code"], n).get_json() for n in ("Ada", "Bo")]
    play_to_end(c, app, "chemistry-battle", seats)
    sid = seats[0]["session_id"]
    time.sleep(2.5)
    assert c.get(f"/v1/chemistry-battle/sessions/{sid}").status_code == 404, "session expired"
    gone = c.get(f"/v1/lessons/{lid}", headers=auth(OPERATOR))
    assert gone.status_code == 404, "nothing but the results is kept"
    kept = c.get(f"/v1/lessons/{lid}/results", headers=auth(OPERATOR))
    assert kept.status_code == 200 and {s["name"] for s in kept.get_json()["students"]} == {
        "Ada",
        "Bo",
    }
    store = app.extensions["chemgames.store"]
    left = list(store.redis.scan_iter(f"{store.prefix}{{lesson:{lid}}}*"))
    assert left and all(k.decode().endswith(":results") for k in left), left
    time.sleep(3.2)
    after = c.get(f"/v1/lessons/{lid}/results", headers=auth(OPERATOR))
    assert after.status_code == 404 and after.get_json()["code"] == "lesson_not_found"


# ------------------------------------------------------------------ joining safely -------
def test_join_code_guessing_is_refused_by_the_budget(redis_url: str) -> None:
    app = operated(redis_url, lesson_join_misses=5, lesson_join_window_seconds=60)
    c = app.test_client()
    body = create(c).get_json()
    guesser = new_address()
    for i in range(5):
        wrong = join(c, f"ZZZZ-ZZ{i:02d}", "Eve", guesser)
        assert wrong.status_code == 404 and wrong.get_json()["code"] == "join_code_unknown"
    refused = join(c, body["code"], "Eve", guesser)  # even the right code, now
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert join(c, body["code"], "Ada", new_address()).status_code == 200, "others still join"
    typo = join(c, "7K3", "Eve", new_address())
    assert typo.status_code == 404, "a code of the wrong length is a miss too"


def test_the_join_budget_lets_a_class_behind_one_address_in(redis_url: str) -> None:
    app = operated(redis_url, rate_limits_enabled=True, rate_limit_joins="40 per minute")
    c = app.test_client()
    body = create(c, game="metal-vs-nonmetal", table_size=4).get_json()
    school = new_address()
    class_ = [join(c, body["code"], f"Pupil {i}", school) for i in range(30)]
    assert all(r.status_code == 200 for r in class_)
    assert "X-RateLimit-Remaining" in class_[-1].headers
    flood = [join(c, body["code"], f"Bot {i}", school) for i in range(15)]
    assert flood[-1].status_code == 429 and flood[-1].get_json()["code"] == "rate_limited"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("<script>alert(1)</script>", "<script>alert(1)</script>"),
        ("Zo\u200be\u202e", "Zoe"),
        ("=SUM(A1:A9)", "=SUM(A1:A9)"),
    ],
)
def test_display_names_are_bounded_plain_text(client: FlaskClient, typed: str, kept: str) -> None:
    body = create(client).get_json()
    seat = join(client, body["code"], typed)
    assert seat.status_code == 200 and seat.get_json()["name"] == kept
    # as plain text in JSON, never as markup; a spreadsheet never runs it
    assert not _cell(kept).startswith("=")


@pytest.mark.parametrize("typed", ["", "   ", "\x00\x01", "x" * 41])
def test_a_name_that_is_empty_or_too_long_is_refused(client: FlaskClient, typed: str) -> None:
    body = create(client).get_json()
    seat = join(client, body["code"], typed)
    assert seat.status_code == 422 and seat.get_json()["code"] == "invalid_request"


def test_a_lesson_that_is_not_there_is_not_found(client: FlaskClient) -> None:
    for path in ("", "/results", "/results.csv"):
        resp = client.get(f"/v1/lessons/{'0' * 24}{path}", headers=auth(OPERATOR))
        assert resp.status_code == 404 and resp.get_json()["code"] == "lesson_not_found"
    ended = client.post(f"/v1/lessons/{'0' * 24}/end", headers=auth(OPERATOR))
    assert ended.status_code == 404


def test_the_module_examples_run() -> None:
    import doctest

    from service.lessons import codes as module
    from service.lessons import store

    for mod in (module, store):
        assert doctest.testmod(mod).failed == 0


# ------------------------------------------------------------------ its end ----------------
def test_the_last_table_ending_tells_the_lessons_callback(redis_url: str) -> None:
    from standardwebhooks.webhooks import Webhook

    from .test_callbacks import Receiver

    receiver = Receiver([])
    try:
        app = operated(redis_url, webhook_allow_private=True)
        c = app.test_client()
        body = create(c, callback={"url": receiver.url}).get_json()
        secret = body["callback"]["secret"]
        lid = body["lesson_id"]
        seats = [join(c, body["code"], n).get_json() for n in ("Ada", "Bo", "Cy")]
        c.post(f"/v1/lessons/{lid}/start", headers=auth(OPERATOR))
        play_to_end(c, app, "chemistry-battle", seats[:2])
        run_due(app)
        assert receiver.got == [], "one table is still being played"
        play_to_end(c, app, "chemistry-battle", seats[2:])
        deadline = time.monotonic() + 10
        while not receiver.got:
            assert time.monotonic() < deadline, "the callback was not told"
            run_due(app)
            time.sleep(0.05)
        headers, raw = receiver.got[0]
        event = Webhook(secret).verify(raw, headers)
        assert event["type"] == "lesson.completed" and event["data"]["lesson_id"] == lid
        assert event["data"]["record"].endswith(f"/v1/lessons/{lid}/results")
        run_due(app)
        assert len(receiver.got) == 1, "told once"
    finally:
        receiver.close()


def test_the_time_limit_ends_the_lesson_with_its_scores_so_far(client: FlaskClient) -> None:
    app = client.application
    body = create(client, time_limit_minutes=20).get_json()
    lid = body["lesson_id"]
    seats = [join(client, body["code"], n).get_json() for n in ("Ada", "Bo")]
    started = client.post(f"/v1/lessons/{lid}/start", headers=auth(OPERATOR)).get_json()
    assert started["ends_at"] is not None
    due = app.extensions["chemgames.due"]
    member = due.member("lesson-end", lid)
    assert due.when(member) is not None, "the end is due work"
    due.schedule({member: 0})  # as if twenty minutes had passed
    run_due(app)
    seen = lesson(client, lid)
    assert seen["state"] == "ended" and seen["tables"][0]["status"] == "ended"
    found = client.get(f"/v1/lessons/{lid}/results", headers=auth(OPERATOR)).get_json()
    assert found["complete"] and [s["name"] for s in found["students"]] == ["Ada", "Bo"]
    assert all(not s["finished"] and s["place"] is None for s in found["students"])
    assert found["tables"][0]["ended"] == "ended" and found["tables"][0]["scores"]
    sid = seats[0]["session_id"]
    assert client.get(f"/v1/chemistry-battle/sessions/{sid}").status_code == 404


def test_a_lesson_counts_against_its_operators_quota(redis_url: str) -> None:
    app = operated(redis_url, operator_session_quota=1)
    c = app.test_client()
    body = create(c, key=OTHER).get_json()
    join(c, body["code"], "Ada")
    join(c, body["code"], "Bo")  # its table: one live session of OTHER's
    refused = create(c, key=OTHER)
    assert refused.status_code == 429 and refused.get_json()["code"] == "session_quota_exceeded"
    c.post(f"/v1/lessons/{body['lesson_id']}/end", headers=auth(OTHER))
    assert create(c, key=OTHER).status_code == 201


def test_a_lesson_seats_and_plays_behind_sentinel(tmp_path: Any) -> None:
    """A Sentinel-watched primary (tests/redis_servers.py): seating's scripts and the
    lesson's stream go to the primary the Sentinels name."""
    from .redis_servers import sentinel_set

    with sentinel_set(tmp_path) as sentinels:
        app = operated(sentinels.url)
        c = app.test_client()
        body = create(c).get_json()
        seats = [join(c, body["code"], f"S{i}").get_json() for i in range(3)]
        assert len({(s["session_id"], s["seat"]) for s in seats}) == 3
        c.post(f"/v1/lessons/{body['lesson_id']}/start", headers=auth(OPERATOR))
        play_to_end(c, app, "chemistry-battle", seats)
        found = c.get(f"/v1/lessons/{body['lesson_id']}/results", headers=auth(OPERATOR))
        assert found.get_json()["complete"] and len(found.get_json()["students"]) == 3
