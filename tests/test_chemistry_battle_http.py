"""Chemistry Battle over HTTP: setup, moves, refusals, views, bots, and the documented schemas."""

from __future__ import annotations

from typing import Any

import pytest

from rules.zones import named_cards
from service.openapi_export import generate

from .test_openapi import conforms

SLUG = "chemistry-battle"
BASE = f"/v1/{SLUG}"
PILE_DEAL = {"deal": [[1, 30, 31], [2, 3, 40]], "kitty": [50, 51], "dealer": 1}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generate()


def documented(spec: dict[str, Any], path: str, body: dict[str, Any], status: int = 200) -> None:
    conforms(spec, f"{BASE}/{path}", body, status)


def problem(body: dict[str, Any], code: str) -> dict[str, Any]:
    """An RFC 9457 problem with its stable code (tests/test_api_errors.py counts on these)."""
    assert body["code"] == code, body
    assert body["status"] == 422 and body["type"] == f"/v1/problems/{code}"
    assert body["title"] and body["detail"]
    return body


def test_a_four_seat_game_deals_13_each_and_2_to_the_kitty(table: Any, spec: Any) -> None:
    t = table(SLUG, players=4, seed=3, options={"dealer": 2})
    documented(spec, "setup", t.setup, 201)
    observer = t.setup["view"]
    assert observer["you"] is None and t.setup["to_act"] == [1]
    assert observer["order"] == [1, 0, 3, 2]
    assert [s["hand_count"] for s in observer["seats"]] == [13] * 4
    assert observer["kitty"] == {"count": 2, "captured_by": None}
    assert not named_cards(observer)
    mine = t.view(1)
    documented(spec, "view", mine)
    hand = [c["z"] for c in mine["view"]["you"]["hand"]]
    assert len(hand) == 13 and hand == sorted(hand)
    other = t.view(0)["view"]
    assert not {c["z"] for c in other["you"]["hand"]} & set(hand)
    assert not named_cards(other) & set(hand)


def test_moves_are_played_in_turn_and_refused_with_codes(table: Any, spec: Any) -> None:
    t = table(SLUG, players=2, seed=1, options=PILE_DEAL)
    wrong = problem(t.move(1, {"type": "play", "card": 2}, expect=422), "not_your_turn")
    assert "seat 0's turn" in wrong["detail"]
    problem(t.move(0, {"type": "play_next"}, expect=422), "hand_not_empty")
    assert t.move(0, {"type": "play", "card": 2}, expect=422)["code"] == "not_in_hand"
    assert t.move(0, {"type": "play", "card": 99}, expect=422)["code"] == "bad_move"
    assert t.move(0, {"type": "play"}, expect=422)["code"] == "bad_move"
    assert t.move(0, {"type": "draft", "card": 1}, expect=422)["code"] == "unknown_move"
    body = t.move(0, {"type": "play", "card": 30})
    documented(spec, "moves", body)
    assert body["events"][0]["card"] == {"id": 30, "z": 30, "symbol": "Zn", "name": "Zinc"}
    assert body["to_act"] == [1]
    body = t.move(1, {"type": "play", "card": 2})
    documented(spec, "moves", body)
    kinds = [e["type"] for e in body["events"]]
    assert kinds == ["card_played", "round_won", "kitty_captured", "round_started"]
    won, captured = body["events"][1], body["events"][2]
    assert won["explanation"] == "30 Zn beats 2 He: higher atomic number"
    assert captured == {"type": "kitty_captured", "seat": 0, "round": 1, "count": 2, "actor": 1}


def test_a_whole_game_to_the_count(table: Any, spec: Any) -> None:
    t = table(SLUG, players=2, seed=1, options=PILE_DEAL)
    for seat, z in ((0, 30), (1, 2), (0, 1), (1, 40), (1, 3), (0, 31)):
        t.move(seat, {"type": "play", "card": z})
    view = t.view(1)["view"]
    assert view["seats"][0]["playing_from"] == "collected" and view["collected"] == "face_down"
    # the seed: "The cards are placed face down": counted, not shown, to the owner as well
    for viewer in (None, 0, 1):
        assert t.view(viewer)["view"]["seats"][0]["collected"] == {"count": 4, "cards": None}
    assert view["seats"][0]["kitty_count"] == 2
    assert not named_cards(view) & {50, 51}  # the captured kitty stays face down
    problem(t.move(0, {"type": "play", "card": 30}, expect=422), "play_in_order")
    body = t.move(0, {"type": "play_next"})
    assert body["events"][0] == {
        "type": "pile_picked_up",
        "seat": 0,
        "round": 4,
        "count": 6,
        "actor": 0,
    }
    assert body["events"][1]["card"]["z"] == 50
    while body["to_act"]:
        body = t.bot(body["to_act"][0], "greedy")
        documented(spec, "bot-move", body)
    over = body["events"][-1]
    assert over["type"] == "game_over" and over["reason"] == "seat_out"
    assert over["counts"] == [8, 0] and over["winners"] == [0]
    shown = t.view()["view"]["seats"][0]["collected"]  # turned up at the end
    assert shown["count"] == len(shown["cards"]) == 8
    assert body["outcome"] == {
        "finished": True,
        "winners": [0],
        "ranking": [0, 1],
        "places": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}],
        "tie_break": None,
    }
    scores = t.post("scores", {"token": t.token}).get_json()
    documented(spec, "scores", scores)
    assert scores["scores"]["final"] is True
    assert scores["scores"]["seats"][0] == {
        "seat": 0,
        "hand": 0,
        "kitty": 0,
        "collected": 8,
        "total": 8,
    }
    assert t.move(0, {"type": "play_next"}, expect=422)["code"] == "game_over"


def test_collected_face_up_shows_every_collection_in_order(table: Any, spec: Any) -> None:
    t = table(SLUG, players=2, seed=1, options={**PILE_DEAL, "collected": "face_up"})
    for seat, z in ((0, 30), (1, 2), (0, 1), (1, 40), (1, 3), (0, 31)):
        t.move(seat, {"type": "play", "card": z})
    for viewer in (None, 0, 1):
        view = t.view(viewer)
        documented(spec, "view", view)
        assert view["view"]["collected"] == "face_up"
        assert [c["z"] for c in view["view"]["seats"][0]["collected"]["cards"]] == [30, 2, 3, 31]


def test_bots_play_every_seat_of_a_six_seat_game(table: Any, spec: Any) -> None:
    t = table(SLUG, players=6, seed=11, options={"round_limit": 40})
    body = t.setup
    moves = 0
    while body["to_act"]:
        seat = body["to_act"][0]
        body = t.bot(seat, "random" if moves % 2 else "greedy")
        moves += 1
        if moves % 17 == 0:
            documented(spec, "bot-move", body)
            views = [t.view(s)["view"] for s in range(6)]
            hands = [{c["z"] for c in v["you"]["hand"]} for v in views]
            for s, v in enumerate(views):  # no seat is shown another seat's hand
                assert not named_cards(v) & set().union(*hands[:s], *hands[s + 1 :])
    assert body["outcome"]["finished"] and moves % 6 == 0
    documented(spec, "view", t.view())


def test_setup_refusals(table: Any) -> None:
    t = table(SLUG, players=2, seed=1)
    one = t.post("setup", {"players": 1}).get_json()
    assert one["code"] == "bad_players" and "bots" in one["detail"]
    cases = [
        ({"hand_play": "blind"}, "bad_option"),
        ({"round_limit": 0}, "bad_option"),
        ({"dealer": 3}, "bad_option"),
        ({"trumps": 1}, "unknown_option"),
        ({"kitty": [1]}, "bad_option"),
        ({"deal": [[1, 2], [2, 3]]}, "bad_deal"),
    ]
    for options, code in cases:
        resp = t.post("setup", {"players": 2, "options": options})
        assert resp.status_code == 422 and resp.get_json()["code"] == code, options


def test_the_catalogue_describes_the_game(table: Any) -> None:
    t = table(SLUG, players=2, seed=1)
    games = {g["slug"] for g in t.client.get("/v1/games").get_json()["games"]}
    assert SLUG in games
    detail = t.client.get(f"/v1/games/{SLUG}").get_json()
    assert detail["rules_document"].startswith("# Chemistry Battle")
    assert detail["source"]["title"] == "Chemistry Battle"
    assert "Back to blog" in detail["source"]["origin"] and "seed_text" not in detail
    assert detail["player_counts"]["3"] == {"hand_size": 18, "kitty": 0}
    assert detail["player_counts"]["5"] == {"hand_size": 10, "kitty": 4}
    assert len(detail["deck"]) == 54 and detail["deck"][25]["symbol"] == "Fe"
    assert {"not_your_turn", "play_in_order", "hand_not_empty"} <= set(detail["codes"])
    assert "bot seats" in detail["summary"]
    assert {o["name"] for o in detail["options"]} == {
        "dealer",
        "next_leader",
        "hand_play",
        "collected",
        "round_limit",
        "deal",
        "kitty",
    }
