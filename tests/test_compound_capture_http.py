"""Compound Capture over HTTP: a lesson's deal, the seed's capture, refusals, bots, and
every response true to the documented schemas."""

from __future__ import annotations

from typing import Any

import pytest

from service.openapi_export import generate

from . import test_openapi
from .draw_discard_helpers import bots_over_http

SLUG = "compound-capture"
BASE = f"/v1/{SLUG}"
LESSON = {
    "decks": "covalent",
    "target": None,
    "deal": {"hands": [["C", "O", "O"], ["H", "H", "wild"]], "row": ["CO2", "H2O"]},
}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generate()


def conforms(spec: dict[str, Any], endpoint: str, body: dict[str, Any], status: int = 200) -> None:
    test_openapi.conforms(spec, f"{BASE}/{endpoint}", body, status)


def test_a_lesson_capture_of_carbon_dioxide(table: Any, spec: dict[str, Any]) -> None:
    t = table(SLUG, players=2, seed=1, options=LESSON)
    conforms(spec, "setup", t.setup, 201)
    assert t.setup["view"]["you"] is None and t.setup["to_act"] == [0]
    mine = t.view(0)
    conforms(spec, "view", mine)
    hand = mine["view"]["you"]["hand"]
    assert [c.get("symbol") for c in hand].count("O") >= 2
    assert t.view(1)["view"]["you"]["hand"] != hand
    for _ in range(2):
        body = t.move(0, {"type": "draw", "source": "deck"})
        conforms(spec, "moves", body)
        drawn = body["events"][0]
        assert drawn["type"] == "card_drawn" and len(drawn["cards"]) == 1  # the drawer sees it
    hand = t.view(0)["view"]["you"]["hand"]
    co2 = next(c for c in t.last["view"]["row"]["cards"] if c["formula"] == "CO2")
    c = next(x["id"] for x in hand if x.get("symbol") == "C")
    o = [x["id"] for x in hand if x.get("symbol") == "O"][:2]
    body = t.move(0, {"type": "capture", "compound": co2["id"], "cards": [c, *o]})
    conforms(spec, "moves", body)
    assert body["events"][0]["text"] == "CO2 captured: C + O + O"
    assert body["view"]["seats"][0]["captured"]["cards"][0]["formula"] == "CO2"
    assert body["to_act"] == [1]


def test_refusals_are_problems_with_codes_and_the_seed_rule(table: Any) -> None:
    t = table(SLUG, players=2, seed=2, options=LESSON)
    t.move(0, {"type": "draw", "source": "discard"})
    problem = t.move(0, {"type": "draw", "source": "discard"}, expect=422)
    assert problem["code"] == "two_from_discard"
    assert "may not select two cards from the discard pile" in problem["rule"]
    assert t.move(1, {"type": "draw", "source": "deck"}, expect=422)["code"] == "not_your_turn"
    bad = t.move(0, {"type": "capture", "compound": 1, "cards": []}, expect=422)
    assert bad["code"] == "bad_move"
    t.move(0, {"type": "draw", "source": "deck"})
    view = t.view(0)["view"]
    co2 = next(c for c in view["row"]["cards"] if c["formula"] == "CO2")
    c = next(x["id"] for x in view["you"]["hand"] if x.get("symbol") == "C")
    o = next(x["id"] for x in view["you"]["hand"] if x.get("symbol") == "O")
    short = t.move(0, {"type": "capture", "compound": co2["id"], "cards": [c, o]}, expect=422)
    assert short["code"] == "wrong_elements" and "missing 1 O" in short["detail"]


def test_bad_setups_are_refused(table: Any) -> None:
    t = table(SLUG, players=1, seed=3)
    resp = t.post("setup", {"players": 4, "options": {"decks": "ionic"}})
    assert resp.status_code == 422 and resp.get_json()["code"] == "bad_option"
    few = [{"formula": "H2O"}, {"formula": "CO2"}]
    resp = t.post("setup", {"players": 2, "options": {"compounds": few}})
    assert resp.status_code == 422 and resp.get_json()["code"] == "bad_compounds"
    six = [{"formula": f} for f in ["H2O", "CO2", "CH4", "NH3", "O2", "NaCl2"]]
    resp = t.post("setup", {"players": 2, "options": {"compounds": six}})
    assert resp.status_code == 422 and resp.get_json()["code"] == "bad_compounds"
    assert "do not balance" in resp.get_json()["detail"]
    resp = t.post("setup", {"players": 2, "options": {"deal": {"row": ["NaCl"]}}})
    assert resp.status_code == 422 and resp.get_json()["code"] == "bad_deal"


def test_a_custom_deck_round_played_by_bots(table: Any, spec: dict[str, Any]) -> None:
    custom = [{"formula": f} for f in ["H2O", "CO2", "CH4", "NH3", "O2", "HCl", "NaCl"]]
    t = table(SLUG, players=3, seed=4, options={"compounds": custom, "target": None})
    assert t.setup["view"]["decks"] == ["custom"]
    for _ in bots_over_http(t, 500):
        pass
    body = t.last
    conforms(spec, "bot-move", body)
    assert body["outcome"]["finished"] and body["view"]["phase"] == "match_over"
    scores = t.post("scores", {"token": t.token}).get_json()
    conforms(spec, "scores", scores)
    seats = scores["scores"]["seats"]
    assert [s["round_points"] for s in seats] == body["view"]["match"]["totals"]
    assert all(
        s["round_points"] == s["compound_points"] - s["elements_in_hand"] - 5 * s["wilds_in_hand"]
        for s in seats
    )


def _hand(t: Any, seat: int) -> list[dict[str, Any]]:
    return t.view(seat)["view"]["you"]["hand"]  # type: ignore[no-any-return]


def test_the_shared_turns_refusals_over_http(table: Any) -> None:
    """The draw-two turn's own codes, each answered over HTTP (the rules tests walk the
    same situations on the rules directly)."""
    t = table(SLUG, players=2, seed=2, options=LESSON)
    t.move(0, {"type": "draw", "source": "deck"})
    t.move(0, {"type": "draw", "source": "deck"})
    hand = _hand(t, 0)
    co2 = next(c for c in t.view(0)["view"]["row"]["cards"] if c["formula"] == "CO2")
    c = next(x["id"] for x in hand if x.get("symbol") == "C")
    o = next(x["id"] for x in hand if x.get("symbol") == "O")
    twice = t.move(0, {"type": "capture", "compound": co2["id"], "cards": [c, o, o]}, expect=422)
    assert twice["code"] == "duplicate_card"
    hidden = t.move(0, {"type": "capture", "compound": 200, "cards": [c, o]}, expect=422)
    assert hidden["code"] == "not_face_up"

    wilds = {**LESSON, "deal": {"hands": [["wild"] * 3, ["H", "H", "C"]], "row": ["CO2"]}}
    w = table(SLUG, players=2, seed=2, options=wilds)
    w.move(0, {"type": "draw", "source": "deck"})
    w.move(0, {"type": "draw", "source": "deck"})
    co2 = w.view(0)["view"]["row"]["cards"][0]
    jokers = [x["id"] for x in _hand(w, 0) if x.get("kind") == "wild" or "wild" in str(x)][:3]
    all_wild = w.move(0, {"type": "capture", "compound": co2["id"], "cards": jokers}, expect=422)
    assert all_wild["code"] == "all_wild"


def test_next_round_after_the_match_is_match_over(table: Any) -> None:
    # a student against a bot (a game of bots alone gives nobody a seat's credential)
    done = table(SLUG, players=2, seed=5, bots={"1": "random"}, options={"target": None})
    while not done.last["outcome"]["finished"]:
        done.bot(0)
    over = done.move(0, {"type": "next_round"}, expect=422)
    assert over["code"] == "match_over"
