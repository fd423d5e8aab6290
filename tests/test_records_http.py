"""Game records over HTTP (issue 19): every game's record, hosted and stateless, replays
through ``POST /v1/<slug>/replay`` to the outcome and scores the game reached; a record
with one move changed is refused at that move with the move's own problem; a game in
progress shows only its public record, with nothing the stream did not already tell.
"""

from __future__ import annotations

import copy
import queue
import threading
import time
from typing import Any

import orjson
import pytest
from flask.testing import FlaskClient

from rules.records import Log
from rules.registry import GAMES
from service.games.tokens import Envelope, Sealer

from .conftest import KEY_A, auth
from .test_polymer_service import read_events

pytestmark = [pytest.mark.redis]
TURN_BASED = sorted(slug for slug, game in GAMES.items() if game.clock is None)


def _bots(players: int) -> dict[str, str]:
    return {str(s): "random" for s in range(1, players)}


def play_hosted(client: FlaskClient, slug: str, seed: int) -> dict[str, Any]:
    """A hosted game of one human (driven by a bot through bot-move) and bot seats,
    played to its end; its creation answer."""
    game = GAMES[slug]
    players = game.info.min_players if game.info.min_players > 1 else 2
    base = f"/v1/{slug}/sessions"
    made = client.post(base, json={"players": players, "seed": seed, "bots": _bots(players)})
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    sid, me = body["session_id"], auth(body["seats"][0]["seat_token"])
    for _ in range(3000):
        view = client.get(f"{base}/{sid}").get_json()
        if view["outcome"]["finished"]:
            break
        moved = client.post(
            f"{base}/{sid}/bot-move", json={"seat": 0, "version": view["version"]}, headers=me
        )
        assert moved.status_code == 200, moved.get_json()
    return body  # type: ignore[no-any-return]


def play_polymer(client: FlaskClient) -> dict[str, Any]:
    """A short Polymer game: the host starts it, bots trade through bot-move, time runs
    out."""
    base = "/v1/polymer/sessions"
    body = client.post(
        base, json={"players": 5, "seed": 3, "options": {"timer_seconds": 1}}
    ).get_json()
    sid, host = body["session_id"], auth(body["host_token"])
    started = client.post(f"{base}/{sid}/start", headers=host).get_json()
    version = started["version"]
    for seat in (0, 1, 2, 3, 4, 0, 1):
        moved = client.post(
            f"{base}/{sid}/bot-move",
            json={"seat": seat, "version": version, "bot": "trading"},
            headers=host,
        )
        if moved.status_code == 200:
            version = moved.get_json()["version"]
    time.sleep(max(0.0, (started["deadline_ms"] - started["server_now_ms"]) / 1000) + 0.1)
    assert client.get(f"{base}/{sid}").get_json()["phase"] == "ended"
    return body  # type: ignore[no-any-return]


def replayed(client: FlaskClient, slug: str, record: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(f"/v1/{slug}/replay", json=record)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()  # type: ignore[no-any-return]


def whole_record(client: FlaskClient, slug: str, made: dict[str, Any]) -> dict[str, Any]:
    """The record of a finished hosted game, asked for by seat 0."""
    answer = client.get(
        f"/v1/{slug}/sessions/{made['session_id']}/record?seat=0",
        headers=auth(made["seats"][0]["seat_token"]),
    )
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["record"]  # type: ignore[no-any-return]


@pytest.mark.every_redis
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_finished_hosted_game_replays_to_its_outcome_and_scores(
    client: FlaskClient, slug: str
) -> None:
    made = play_polymer(client) if slug == "polymer" else play_hosted(client, slug, seed=2)
    sid = made["session_id"]
    base = f"/v1/{slug}/sessions/{sid}"
    scores = client.get(f"{base}/scores").get_json()
    answers = [
        client.get(f"{base}/record?seat={seat['seat']}", headers=auth(seat["seat_token"]))
        for seat in made["seats"]
        if seat["seat_token"] is not None
    ]
    if made["host_token"] is not None:
        answers.append(client.get(f"{base}/record", headers=auth(made["host_token"])))
    for answer in answers:  # every seat and the host get the whole record at the end
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["record"] == answers[0].get_json()["record"]
    record = answers[0].get_json()["record"]
    assert record["complete"] and record["mode"] == "hosted" and record["seed"] is not None
    assert record["dealt"] and all(step["move"] or step["system"] for step in record["steps"])
    assert all(step["at"] for step in record["steps"])  # the server's time of each step
    assert record["outcome"] == scores["outcome"] and record["scores"] == scores["scores"]
    check = replayed(client, slug, record)
    assert check["valid"] and check["refused"] is None, check
    assert check["outcome"] == scores["outcome"] and check["scores"] == scores["scores"]
    assert check["replayed"] == len(record["steps"])


@pytest.mark.parametrize("slug", TURN_BASED)
def test_a_finished_stateless_game_replays_to_its_outcome_and_scores(
    client: FlaskClient, slug: str
) -> None:
    game = GAMES[slug]
    players = game.info.min_players if game.info.min_players > 1 else 2
    base = f"/v1/{slug}"
    body = client.post(
        f"{base}/setup", json={"players": players, "seed": 4, "bots": _bots(players)}
    ).get_json()
    token, me = body["token"], auth(body["seats"][0]["seat_token"])
    assert body["host_token"] is None  # a game against bots without an operator key
    for _ in range(3000):
        if body["outcome"]["finished"]:
            break
        answer = client.post(f"{base}/bot-move", json={"token": token, "seat": 0}, headers=me)
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        token = body["token"]
    scores = client.post(f"{base}/scores", json={"token": token}).get_json()
    answer = client.post(f"{base}/record", json={"token": token, "seat": 0}, headers=me)
    assert answer.status_code == 200, answer.get_json()
    record = answer.get_json()["record"]
    assert record["complete"] and record["mode"] == "stateless"
    assert all(step["at"] is None for step in record["steps"])  # no server clock
    check = replayed(client, slug, record)
    assert check["valid"], check
    assert check["outcome"] == scores["outcome"] and check["scores"] == scores["scores"]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_record_with_one_move_changed_is_refused_at_that_move(
    client: FlaskClient, slug: str
) -> None:
    made = play_polymer(client) if slug == "polymer" else play_hosted(client, slug, seed=6)
    record = whole_record(client, slug, made)
    steps = record["steps"]
    moves = [i for i, step in enumerate(steps) if step["move"]]
    game = GAMES[slug]
    for index in moves[len(moves) // 2 :]:  # the first later move the rules refuse elsewhere
        spoiled = copy.deepcopy(record)
        step = spoiled["steps"][index]
        step["bot"] = None  # a person's move: checked by the rules alone
        others = [s["move"] for s in steps if s["move"] and s["move"] != step["move"]]
        for other in others:
            step["move"] = other
            check = replayed(client, slug, spoiled)
            if check["refused"] is not None and check["refused"]["index"] == index:
                assert not check["valid"] and check["replayed"] == index
                code = check["refused"]["code"]
                assert code in game.info.codes_at("move"), code
                assert check["refused"]["status"] == game.info.all_codes()[code].status
                assert check["agrees"]["events"] and not check["agrees"]["outcome"]
                return
    raise AssertionError("no move of the record is refused elsewhere in it")


def test_a_bot_step_that_is_not_the_bots_choice_and_a_changed_claim_are_found(
    client: FlaskClient,
) -> None:
    made = play_hosted(client, "element-draft", seed=8)
    record = whole_record(client, "element-draft", made)
    bot = next(i for i, s in enumerate(record["steps"]) if s["bot"])
    seat = record["steps"][bot]["seat"]
    mine = next(i for i, s in enumerate(record["steps"]) if s["seat"] == seat and i != bot)
    spoiled = copy.deepcopy(record)
    spoiled["steps"][bot]["move"] = record["steps"][mine]["move"]
    check = replayed(client, "element-draft", spoiled)
    assert check["refused"]["index"] == bot and check["refused"]["code"] == "bad_record"
    claimed = copy.deepcopy(record)
    claimed["outcome"]["winners"] = [s for s in range(record["players"])
                                     if s not in record["outcome"]["winners"]][:1]  # fmt: skip
    check = replayed(client, "element-draft", claimed)
    assert check["refused"] is None and not check["valid"]
    assert check["agrees"] == {"events": True, "outcome": False, "scores": True}


def test_a_game_in_progress_shows_its_public_record_only(client: FlaskClient) -> None:
    """No move, seed, deal or card-fixing option; and its events are exactly what the
    public event stream told, so it leaks nothing the stream did not."""
    deal = {"deal": [[1, 8, 11, 17], [3, 9, 19, 35]]}
    made = client.post(
        "/v1/element-draft/sessions", json={"players": 2, "seed": 1, "options": deal}
    ).get_json()
    sid, host = made["session_id"], auth(made["host_token"])
    base = f"/v1/element-draft/sessions/{sid}"
    out: queue.Queue[str] = queue.Queue()
    stop = threading.Event()
    threading.Thread(
        target=read_events, args=(client.application.test_client(), f"{base}/events", out, stop),
        daemon=True,
    ).start()  # fmt: skip
    time.sleep(0.3)
    for seat, card in ((0, 8), (1, 9), (0, 3)):  # hands pass left after the reveal
        version = client.get(base).get_json()["version"]
        token = made["seats"][seat]["seat_token"]
        answer = client.post(
            f"{base}/moves",
            json={"seat": seat, "version": version, "move": {"type": "draft", "card": card}},
            headers=auth(token),
        )
        assert answer.status_code == 200, answer.get_json()
    record = client.get(f"{base}/record", headers=host).get_json()["record"]
    assert not record["complete"] and record["seed"] is None and record["dealt"] is None
    assert "deal" not in record["options"] and record["options"]["bismuth_radioactive"] is False
    assert [s["move"] for s in record["steps"]] == [None, None, None]
    pending = record["steps"][2]["events"]  # seat 0's pick, not revealed yet
    assert [e["type"] for e in pending] == ["card_selected"] and "card" not in pending[0]
    streamed: list[Any] = []
    deadline = time.monotonic() + 5
    text = ""
    while len(streamed) < 3 and time.monotonic() < deadline:
        try:
            text += out.get(timeout=0.1)
        except queue.Empty:
            continue
        streamed = [orjson.loads(line[6:])["events"] for line in text.splitlines()
                    if line.startswith("data: ") and '"events"' in line]  # fmt: skip
    stop.set()
    assert [s["events"] for s in record["steps"]] == streamed
    as_seat = client.get(f"{base}/record?seat=1", headers=auth(made["seats"][1]["seat_token"]))
    assert as_seat.get_json()["record"] == record  # a seat sees the public record too


def test_a_record_needs_a_seat_or_the_host(client: FlaskClient) -> None:
    made = client.post("/v1/element-draft/sessions", json={"players": 2}).get_json()
    base = f"/v1/element-draft/sessions/{made['session_id']}/record"
    assert client.get(base).status_code == 401
    seat0 = auth(made["seats"][0]["seat_token"])
    refused = client.get(base, headers=seat0)  # a seat's credential, but no seat named
    assert refused.status_code == 403 and refused.get_json()["code"] == "host_token_invalid"
    refused = client.get(f"{base}?seat=1", headers=seat0)
    assert refused.status_code == 403 and refused.get_json()["code"] == "seat_token_invalid"
    setup = client.post("/v1/element-draft/setup", json={"players": 2}).get_json()
    refused = client.post("/v1/element-draft/record", json={"token": setup["token"]}, headers=seat0)
    assert refused.status_code == 403 and refused.get_json()["code"] == "host_token_invalid"


def test_a_game_dealt_before_records_has_none(client: FlaskClient) -> None:
    game = GAMES["element-draft"]
    state = game.setup(2, {}, 1)
    sealer = Sealer((KEY_A,))
    env = Envelope("element-draft", game.info.rules_version, "old", 0, state)
    token = sealer.seal(env)  # an envelope with no log: a format-2 token's
    answer = client.post(
        "/v1/element-draft/record",
        json={"token": token},
        headers=auth(sealer.host_token("old")),
    )
    assert answer.status_code == 409 and answer.get_json()["code"] == "record_unavailable"


def test_a_game_dealt_from_a_seed_javascript_cannot_read_gives_no_record(
    client: FlaskClient,
) -> None:
    """A token sealed before seeds were kept within 2**53 - 1 (a 63-bit seed): its record
    would not replay once a browser had read it, so none is given."""
    game = GAMES["element-draft"]
    seed = 2**62 + 1
    state = game.setup(2, {}, seed)
    sealer = Sealer((KEY_A,))
    log = Log(2, {}, seed, {})
    env = Envelope("element-draft", game.info.rules_version, "old", 0, state, {}, log)
    answer = client.post(
        "/v1/element-draft/record",
        json={"token": sealer.seal(env)},
        headers=auth(sealer.host_token("old")),
    )
    assert answer.status_code == 409 and answer.get_json()["code"] == "record_unavailable"
    assert "2**53" not in answer.get_json()["detail"]


@pytest.mark.game("chemistry-battle")
def test_records_that_cannot_be_replayed_are_refused(client: FlaskClient) -> None:
    made = play_hosted(client, "chemistry-battle", seed=3)
    record = whole_record(client, "chemistry-battle", made)
    other = client.post("/v1/element-draft/replay", json=record)
    assert other.status_code == 422  # another game's record: its shape does not fit either
    assert other.get_json()["code"] in ("invalid_request", "bad_record")
    public = {**record, "complete": False, "seed": None, "dealt": None,
              "steps": [{**s, "move": None} for s in record["steps"]]}  # fmt: skip
    answer = client.post("/v1/chemistry-battle/replay", json=public)
    assert answer.status_code == 422 and answer.get_json()["code"] == "bad_record"
    assert "public record" in answer.get_json()["detail"]
    older = {**record, "rules_version": record["rules_version"] + 1}
    answer = client.post("/v1/chemistry-battle/replay", json=older)
    assert answer.status_code == 422 and answer.get_json()["code"] == "bad_record"
