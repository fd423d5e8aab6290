"""A class plays at once: a move is stale only when what it rests on changed for the mover.

The marks' bookkeeping against a brute-force recomputation in every game; then, through
the service on a real Redis: a whole table drafting on the version it read (one after
the other and all at once), turn-based moves decided before the turn passed, and the
409 that carries what a device needs to decide again.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules.core import Dynamics
from rules.registry import GAMES
from service import create_app
from service.games.tokens import Envelope
from service.sessions import situations
from service.sessions.store import SessionStore

from .conftest import KEY_A, auth, checked, make_settings
from .test_conformance import QUICK_OPTIONS

pytestmark = [pytest.mark.redis]


# ------------------------------------------------------- the bookkeeping, every game --
def _playout(slug: str, players: int, seed: int, limit: int = 80) -> None:
    """Marks after every move agree with the situations of every version so far: a
    seat is unchanged since ``v`` exactly when its situation was the same at every
    version from ``v`` on and it made no move since."""
    game = GAMES[slug]
    state = game.setup(players, QUICK_OPTIONS.get(slug, {}), seed)
    env = situations.marked(game, None, Envelope(slug, 1, "g", 0, state), None)
    history = [[game.situation_of(state, s) for s in range(players)]]
    movers: list[int | None] = [None]
    for n in range(limit):
        to_act = game.to_act(env.state)
        if not to_act:
            break
        seat = to_act[(seed + n) % len(to_act)]
        move, chosen = game.bot_move(env.state, seat, "random")
        after, _ = game.apply(chosen, seat, move)
        env = situations.marked(game, env, replace(env, state=after, version=n + 1), seat)
        history.append([game.situation_of(after, s) for s in range(players)])
        movers.append(seat)
        now = len(history) - 1
        for s in range(players):
            for v in range(now + 1):
                same = all(
                    history[u][s] == history[u - 1][s] and movers[u] != s
                    for u in range(v + 1, now + 1)
                )
                assert situations.unchanged_since(env, s, v) == same, (slug, s, v, now)
        assert not situations.unchanged_since(env, seat, now + 1)  # a version to come


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_marks_say_exactly_when_a_seats_situation_is_unchanged(slug: str) -> None:
    game = GAMES[slug]
    for players in sorted({game.info.min_players, max(game.info.min_players, 4)}):
        _playout(slug, players, seed=players)


def test_a_game_without_marks_treats_every_older_version_as_stale() -> None:
    game = GAMES["element-draft"]
    env = Envelope("element-draft", 1, "g", 3, game.setup(2, {}, 1))
    assert not situations.unchanged_since(env, 0, 2) and situations.unchanged_since(
        situations.marked(game, None, env, None), 0, 3
    )


# ---------------------------------------------------------------- hosted, in Redis --
class Table:
    def __init__(self, client: FlaskClient, slug: str, players: int, **setup: Any) -> None:
        self.client, self.slug = client, slug
        resp = client.post(f"/v1/{slug}/sessions", json={"players": players, **setup})
        assert resp.status_code == 201, resp.get_json()
        made = resp.get_json()
        self.id = made["session_id"]
        self.tokens = {s["seat"]: s["seat_token"] for s in made["seats"]}

    def url(self, suffix: str = "") -> str:
        return f"/v1/{self.slug}/sessions/{self.id}{suffix}"

    def get(self, seat: int) -> dict[str, Any]:
        resp = self.client.get(self.url(f"?seat={seat}"), headers=auth(self.tokens[seat]))
        assert resp.status_code == 200, resp.get_json()
        return resp.get_json()  # type: ignore[no-any-return]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        resp = self.client.post(
            self.url("/legal-moves"), json={"seat": seat}, headers=auth(self.tokens[seat])
        )
        assert resp.status_code == 200, resp.get_json()
        return resp.get_json()["moves"]  # type: ignore[no-any-return]

    def send(
        self, seat: int, version: int, move: dict[str, Any], client: FlaskClient | None = None
    ) -> tuple[int, dict[str, Any]]:
        resp = (client or self.client).post(
            self.url("/moves"),
            json={"seat": seat, "version": version, "move": move},
            headers=auth(self.tokens[seat]),
        )
        return resp.status_code, resp.get_json()


def _first_card(seen: dict[str, Any]) -> dict[str, Any]:
    return {"type": "draft", "card": seen["view"]["you"]["hand"][0]["z"]}


def test_ten_seats_drafting_one_after_another_on_the_version_they_read(
    client: FlaskClient,
) -> None:
    t = Table(client, "element-draft", 10, seed=3)
    for _ in range(2):  # two rounds: after the pass, each seat reads its new hand
        seen = {seat: t.get(seat) for seat in range(10)}
        read = {s["version"] for s in seen.values()}
        assert len(read) == 1
        answers = [t.send(seat, seen[seat]["version"], _first_card(seen[seat])) for seat in seen]
        assert [status for status, _ in answers] == [200] * 10, answers
        assert answers[-1][1]["version"] == read.pop() + 10
        assert any(e["type"] == "hands_passed" for e in answers[-1][1]["events"])


def test_a_keyed_move_on_an_older_version_reads_its_key_with_the_session(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drafting at once, the second seat's move names an older version, so its
    Idempotency-Key's answer is looked for before the move is judged: it is read in the
    session's own round trip, not in one of its own; a retry is answered from it."""
    looked: list[str] = []
    separate = SessionStore.idempotent

    def counting(self: SessionStore, *args: Any) -> Any:
        looked.append(args[-1])
        return separate(self, *args)

    monkeypatch.setattr(SessionStore, "idempotent", counting)
    t = Table(client, "element-draft", 3, seed=5)
    seen = {seat: t.get(seat) for seat in range(3)}
    version = seen[0]["version"]
    answers: dict[int, Any] = {}
    for seat in range(3):
        body = {"seat": seat, "version": version, "move": _first_card(seen[seat])}
        headers = {**auth(t.tokens[seat]), "Idempotency-Key": f"k{seat}"}
        for attempt in range(2):
            resp = client.post(t.url("/moves"), json=body, headers=headers)
            assert resp.status_code == 200, resp.get_json()
            replayed = resp.headers.get("Idempotent-Replayed") == "true"
            assert replayed == (attempt == 1)
            answers.setdefault(seat, resp.get_json())
            assert resp.get_json() == answers[seat]
    assert answers[2]["version"] == version + 3
    assert looked == []


def test_ten_seats_drafting_all_at_once_on_the_version_they_read(app: Flask) -> None:
    t = Table(app.test_client(), "element-draft", 10, seed=4)
    seen = {seat: t.get(seat) for seat in range(10)}
    answers: list[tuple[int, dict[str, Any]]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(10)

    def draft(seat: int) -> None:
        with app.test_client() as c:
            barrier.wait()
            answer = t.send(seat, 0, _first_card(seen[seat]), c)
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=draft, args=(seat,)) for seat in range(10)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(status for status, _ in answers) == [200] * 10, answers
    assert sorted(body["version"] for _, body in answers) == list(range(1, 11))
    after = t.get(0)
    assert after["version"] == 10 and after["view"]["turn"] == 2  # revealed, passed on
    drafted = [seat["drafted"][0]["z"] for seat in after["view"]["seats"]]
    assert drafted == [_first_card(seen[seat])["card"] for seat in range(10)]


TURN_BASED = sorted(
    slug
    for slug, game in GAMES.items()
    if game.info.dynamics is Dynamics.TURN_BASED and game.info.min_players <= 2
)


@pytest.mark.parametrize("slug", TURN_BASED)
def test_a_turn_based_move_decided_before_the_turn_passed_is_stale(
    client: FlaskClient, slug: str
) -> None:
    """A seat's second move on the version of its first is stale; so is the other
    seat's move sent on a version from before the turn passed to it, although the
    move is legal now: what it saw has changed. The 409 carries the game as the seat
    sees it now, and the same move sent on that version applies."""
    t = Table(client, slug, 2, seed=5, options=QUICK_OPTIONS.get(slug, {}))
    first = t.get(0)
    mover = first["to_act"][0]
    other = 1 - mover
    version = first["version"]
    status, moved = t.send(mover, version, t.legal(mover)[0])
    assert status == 200, moved
    again = t.legal(mover)
    if again:
        status, problem = t.send(mover, version, again[0])
        assert (status, problem["code"]) == (409, "stale_version"), problem
        assert problem["session"] == {**t.get(mover), "seat": mover}
    before = version
    while other not in moved["to_act"]:  # the mover's turn goes on: play it out
        assert moved["to_act"] == [mover], moved
        before = moved["version"]
        status, moved = t.send(mover, before, t.legal(mover)[0])
        assert status == 200, moved
    now = moved["version"]
    move = t.legal(other)[0]
    status, problem = t.send(other, before, move)
    assert status == 409, problem
    assert problem["code"] == "stale_version" and problem["current_version"] == now
    session = problem["session"]
    assert session == {**t.get(other), "seat": other} and other in session["to_act"]
    status, body = t.send(other, session["version"], move)
    assert status == 200 and body["version"] == now + 1, body


def test_the_409_is_in_the_contract_with_the_seats_view(client: FlaskClient) -> None:
    """The conflict's `session` is typed by the contract (tests/contract.py validates
    every answer of every test app against the served contract)."""
    spec = client.get("/openapi.json").get_json()
    moves = spec["paths"]["/v1/element-draft/sessions/{session_id}/moves"]["post"]
    schema = moves["responses"]["409"]["content"]["application/problem+json"]["schema"]
    conflict = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    members = conflict["allOf"][1]["properties"]
    assert members["session"]["$ref"].endswith("/ElementDraftSession")
    assert members["current_version"]["maximum"] == 2**53 - 1


# ------------------------------------------- Polymer in real time, against trading bots --
def test_a_student_at_a_human_pace_among_trading_bots_is_never_stale(redis_url: str) -> None:
    """One student and four trading bots on a real server, the bots trading every
    0.3-0.7 s: the student reads the table, thinks, and moves on the version it read
    (sixteen moves). Other seats' trades never void its move; the rules judge it."""
    from .test_gunicorn import call, serve
    from .test_polymer_bots import PACE, create, ready

    rng = __import__("random").Random(26)
    with serve(redis_url, DUE_POLL_MS="100") as port:
        made = create(port, 5, {str(s): "trading" for s in (1, 2, 3, 4)},
                      timer_seconds=60, **PACE)  # fmt: skip
        sid, token = made["session_id"], made["seats"][0]["seat_token"]
        ready(port, made)
        base = f"/v1/polymer/sessions/{sid}"
        answers: list[tuple[int, dict[str, Any]]] = []
        others_moved = 0
        while len(answers) < 16:
            status, seen = call(port, "GET", f"{base}?seat=0", token=token)
            assert status == 200, seen
            status, legal = call(port, "POST", f"{base}/legal-moves", {"seat": 0}, token)
            moves = [m for m in legal["moves"] if m["type"] in ("accept", "offer", "lend")]
            time_to_think = rng.uniform(0.4, 1.0)
            __import__("time").sleep(time_to_think)
            move = next((m for m in moves if m["type"] == "accept"), None) or rng.choice(moves)
            body = {"seat": 0, "version": seen["version"], "move": move}
            status, answer = call(port, "POST", f"{base}/moves", body, token)
            answers.append((status, answer))
            if status == 200:
                others_moved += answer["version"] - seen["version"] - 1
        stale = [a for s, a in answers if s == 409]
        assert stale == [], stale
        assert {s for s, _ in answers} <= {200, 422}, answers
        assert others_moved > 0, "no bot moved while the student thought"


# ------------------------------------------------------ every number survives JavaScript --
def _through_javascript(documents: list[Any]) -> list[bytes]:
    """``documents`` as a real node reads and writes them back (JSON.parse, stringify)."""
    import shutil
    import subprocess

    from .contract import ROUND_TRIP

    node = shutil.which("node")
    assert node is not None, "node is needed (make test installs the TypeScript tools with it)"
    sent = b"\n".join(__import__("orjson").dumps(d) for d in documents) + b"\n"
    done = subprocess.run([node, str(ROUND_TRIP)], input=sent, capture_output=True, check=True)
    return done.stdout.splitlines()


SHORT = {"compound-capture": {"target": None}, "chemistry-canasta": {"target": None}}
"""One round rather than a match to 250: the records are as long as they need to be."""
OPERATOR = "school-server-key-for-the-javascript-test"


@pytest.fixture()
def school(redis_url: str) -> FlaskClient:
    """An app where an operator deals whole games to bots (and gets the host token)."""
    settings = make_settings(KEY_A, redis_url=redis_url, operator_keys=(OPERATOR,))
    return checked(create_app(settings)).test_client()


def _whole_records(client: FlaskClient) -> dict[str, list[dict[str, Any]]]:
    """Every game played to its end by bots, stateless and hosted: its whole record."""
    out: dict[str, list[dict[str, Any]]] = {}
    op = auth(OPERATOR)
    for slug, game in sorted(GAMES.items()):
        players = game.info.min_players
        found = out.setdefault(slug, [])
        if game.clock is None:  # every seat a bot: the game plays to its end at once
            bots = {str(s): "greedy" for s in range(players)}
            deal = {"players": players, "bots": bots, "options": SHORT.get(slug, {})}
            made = client.post(f"/v1/{slug}/setup", json=deal, headers=op)
            assert made.status_code == 201, made.get_json()
            token, host = made.get_json()["token"], made.get_json()["host_token"]
            got = client.post(f"/v1/{slug}/record", json={"token": token}, headers=auth(host))
            assert got.status_code == 200, got.get_json()
            found.append(got.get_json()["record"])
            # a named seed: the service deals from it mixed with its secret
            made = client.post(f"/v1/{slug}/sessions", json={**deal, "seed": 26}, headers=op)
            assert made.status_code == 201, made.get_json()
        else:  # a real-time game: its clock runs out
            made = client.post(
                f"/v1/{slug}/sessions",
                json={"players": players, "seed": 26, "options": {"timer_seconds": 1}},
                headers=op,
            )
            assert made.status_code == 201, made.get_json()
            started = client.post(
                f"/v1/{slug}/sessions/{made.get_json()['session_id']}/start",
                headers=auth(made.get_json()["host_token"]),
            )
            assert started.status_code == 200, started.get_json()
            __import__("time").sleep(1.1)
        sid, host = made.get_json()["session_id"], made.get_json()["host_token"]
        got = client.get(f"/v1/{slug}/sessions/{sid}/record", headers=auth(host))
        assert got.status_code == 200, got.get_json()
        assert got.get_json()["record"]["complete"], got.get_json()
        found.append(got.get_json()["record"])
    return out


def test_every_record_replays_after_a_javascript_round_trip(school: FlaskClient) -> None:
    """Records carry the seed that dealt the cards: it and every other number must come
    back from JavaScript's JSON.parse unchanged, and replay to the same game."""
    client = school
    records = _whole_records(client)
    flat = [(slug, r) for slug, found in records.items() for r in found]
    assert len(flat) == 2 * len(GAMES) - 1  # Polymer is hosted only
    back = _through_javascript([r for _, r in flat])
    for (slug, record), text in zip(flat, back, strict=True):
        assert __import__("orjson").loads(text) == record, slug
        replayed = client.post(
            f"/v1/{slug}/replay", data=text, headers={"Content-Type": "application/json"}
        )
        assert replayed.status_code == 200, replayed.get_json()
        assert replayed.get_json()["valid"], (slug, replayed.get_json())


def test_a_move_decided_before_time_ran_out_gets_timer_expired_not_stale(
    client: FlaskClient,
) -> None:
    """What changed since the version the move names is that time ran out: the answer
    says so (timer_expired), whichever request applied the time-up first."""
    made = client.post(
        "/v1/polymer/sessions", json={"players": 5, "options": {"timer_seconds": 1}}
    ).get_json()
    sid, host, token = made["session_id"], made["host_token"], made["seats"][0]["seat_token"]
    assert client.post(f"/v1/polymer/sessions/{sid}/start", headers=auth(host)).status_code == 200
    seen = client.get(f"/v1/polymer/sessions/{sid}?seat=0", headers=auth(token)).get_json()
    card = seen["view"]["you"]["hand"][0]["id"]
    __import__("time").sleep(1.1)
    over = client.get(f"/v1/polymer/sessions/{sid}").get_json()  # applies the time-up
    assert over["phase"] == "ended" and over["version"] > seen["version"]
    late = client.post(
        f"/v1/polymer/sessions/{sid}/moves",
        json={"seat": 0, "version": seen["version"], "move": {"type": "lend", "to": 1,
                                                              "cards": [card]}},
        headers=auth(token),
    )  # fmt: skip
    assert late.status_code == 409 and late.get_json()["code"] == "timer_expired"


def _viewing(game: Any, viewed: list[int | None]) -> Any:
    """``game``, noting in ``viewed`` each seat whose view it computes."""

    def view(state: Any, seat: int | None) -> Any:
        viewed.append(seat)
        return game.view(state, seat)

    return replace(game, view=view)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_movers_view_from_its_answer_marks_as_the_view_computed_again(slug: str) -> None:
    """A hosted commit hands ``marked`` the mover's view its answer shows: in a game
    whose situation is the view, that view is the mover's situation (not computed a
    second time) and the marks are the same; a game with a situation of its own
    ignores it."""
    game = GAMES[slug]
    players = max(game.info.min_players, 2)
    state = game.setup(players, QUICK_OPTIONS.get(slug, {}), 3)
    env = situations.marked(game, None, Envelope(slug, 1, "g", 0, state), None)
    for n in range(6):
        to_act = game.to_act(env.state)
        if not to_act:
            break
        seat = to_act[n % len(to_act)]
        move, chosen = game.bot_move(env.state, seat, "random")
        after, _ = game.apply(chosen, seat, move)
        moved = replace(env, state=after, version=n + 1)
        shown = game.view(after, seat)
        computed = situations.marked(game, env, moved, seat)
        if game.situation is None:
            viewed: list[int | None] = []
            reused = situations.marked(_viewing(game, viewed), env, moved, seat, shown)
            assert seat not in viewed, "the mover's view was computed again"
        else:
            reused = situations.marked(game, env, moved, seat, {"not": "its situation"})
        assert reused.marks == computed.marks
        env = computed
