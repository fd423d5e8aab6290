"""Chemistry Canasta over HTTP: a lesson's runs and the seed's wild-card claim, every
problem code the game adds, bots to the end, and every response true to the documented
schemas."""

from __future__ import annotations

from typing import Any

import pytest

from service.openapi_export import generate

from . import test_openapi
from .draw_discard_helpers import bots_over_http

SLUG = "chemistry-canasta"
BASE = f"/v1/{SLUG}"
# seat 0 holds a run and the 43 and 45 of the seed's example with a wild card; seat 1 the 44
LESSON = {
    "decks": "covalent",
    "must_capture": False,
    "target": None,
    "deal": {
        "hands": [["Mg", "Al", "Si", "Tc", "Rh", "wild", "Xe"], ["Ru", "He"]],
        "row": ["CO2", "H2O", "CH4", "NH3", "HCl", "NO"],
    },
}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generate()


def conforms(spec: dict[str, Any], endpoint: str, body: dict[str, Any], status: int = 200) -> None:
    test_openapi.conforms(spec, f"{BASE}/{endpoint}", body, status)


def hand(t: Any, seat: int) -> dict[str, int]:
    """Symbol (or "wild") -> the lowest card id of it in ``seat``'s hand."""
    out: dict[str, int] = {}
    for card in t.view(seat)["view"]["you"]["hand"]:
        name = card.get("symbol") or "wild"
        out[name] = min(card["id"], out.get(name, card["id"]))
    return out


def lesson(table: Any, spec: dict[str, Any] | None = None) -> Any:
    t = table(SLUG, players=2, seed=1, options=LESSON)
    for _ in range(2):
        body = t.move(0, {"type": "draw", "source": "deck"})
        if spec:
            conforms(spec, "moves", body)
    return t


def test_a_lesson_runs_and_the_seeds_claim(table: Any, spec: dict[str, Any]) -> None:
    t = lesson(table, spec)
    conforms(spec, "setup", t.setup, 201)
    mine = hand(t, 0)
    body = t.move(0, {"type": "run", "cards": [mine["Mg"], mine["Al"], mine["Si"]]})
    conforms(spec, "moves", body)
    laid = body["events"][0]
    assert laid["text"] == "Mg 12, Al 13, Si 14: consecutive atomic numbers"
    assert body["to_act"] == [0]  # a run is followed by a discard
    body = t.move(0, {"type": "run", "cards": [mine["Tc"], mine["wild"], mine["Rh"]]})
    conforms(spec, "moves", body)
    run = body["view"]["seats"][0]["runs"][1]
    assert (run["low"], run["high"], run["wilds"]) == (43, 45, 1)
    assert run["positions"][1]["symbol"] == "Ru" and run["positions"][1]["wild"]
    body = t.move(0, {"type": "discard", "card": mine["Xe"]})
    assert body["to_act"] == [1]
    for _ in range(2):
        t.move(1, {"type": "draw", "source": "deck"})
    claim = {"type": "claim", "owner": 0, "run": 1, "card": 44}
    assert claim in t.legal(1)
    body = t.move(1, claim)
    conforms(spec, "moves", body)
    claimed = body["events"][0]
    assert claimed["type"] == "wild_claimed" and claimed["taken"]["card"]["id"] == mine["wild"]
    assert "Ru 44" in claimed["text"]
    assert any(c["id"] == mine["wild"] for c in body["view"]["you"]["hand"])
    observer = t.view()
    conforms(spec, "view", observer)
    assert observer["view"]["you"] is None
    assert [p["card"]["id"] for p in observer["view"]["seats"][0]["runs"][1]["positions"]] == [
        43,
        44,
        45,
    ]
    scores = t.scores()
    conforms(spec, "scores", scores)
    assert scores["scores"]["seats"][0]["run_points"] == 60
    assert scores["scores"]["seats"][0]["penalty"] is None  # hidden until the round ends


# ---------------------------------------------------------------- every problem -----
def p_not_consecutive(table: Any) -> Any:
    t = lesson(table)
    mine = hand(t, 0)
    return t.move(0, {"type": "run", "cards": [mine["Mg"], mine["Si"], mine["Tc"]]}, expect=422)


def p_short_run(table: Any) -> Any:
    t = lesson(table)
    mine = hand(t, 0)
    return t.move(0, {"type": "run", "cards": [mine["Mg"], mine["Al"]]}, expect=422)


def p_all_wild_run(table: Any) -> Any:
    t = table(SLUG, players=2, seed=1, options={**LESSON, "deal": {"hands": [["wild"] * 3, []]}})
    for _ in range(2):
        t.move(0, {"type": "draw", "source": "deck"})
    wilds = [c["id"] for c in t.view(0)["view"]["you"]["hand"] if c["kind"] == "wild"]
    return t.move(0, {"type": "run", "cards": wilds[:3]}, expect=422)


def p_off_the_table(table: Any) -> Any:
    t = table(
        SLUG, players=2, seed=1, options={**LESSON, "deal": {"hands": [["wild", "H", "He"], []]}}
    )
    for _ in range(2):
        t.move(0, {"type": "draw", "source": "deck"})
    mine = hand(t, 0)
    return t.move(0, {"type": "run", "cards": [mine["wild"], 1, 2]}, expect=422)


def p_run_too_long(table: Any) -> Any:
    t = table(SLUG, players=2, seed=1, options={**LESSON, "runs": "three"})
    for _ in range(2):
        t.move(0, {"type": "draw", "source": "deck"})
    mine = hand(t, 0)
    cards = [mine["Mg"], mine["Al"], mine["Si"], mine["wild"]]
    return t.move(0, {"type": "run", "cards": cards}, expect=422)


def p_no_extending(table: Any) -> Any:
    t = table(SLUG, players=2, seed=1, options={**LESSON, "runs": "three"})
    for _ in range(2):
        t.move(0, {"type": "draw", "source": "deck"})
    mine = hand(t, 0)
    t.move(0, {"type": "run", "cards": [mine["Mg"], mine["Al"], mine["Si"]]})
    extend = {"type": "extend", "owner": 0, "run": 0, "end": "high", "cards": [mine["wild"]]}
    return t.move(0, extend, expect=422)


def _seat_one_after_a_run(table: Any, options: dict[str, Any]) -> Any:
    t = table(SLUG, players=2, seed=1, options=options)
    for _ in range(2):
        t.move(0, {"type": "draw", "source": "deck"})
    mine = hand(t, 0)
    t.move(0, {"type": "run", "cards": [mine["Tc"], mine["wild"], mine["Rh"]]})
    t.move(0, {"type": "discard", "card": mine["Xe"]})
    for _ in range(2):
        t.move(1, {"type": "draw", "source": "deck"})
    return t


def p_not_your_run(table: Any) -> Any:
    t = _seat_one_after_a_run(table, LESSON)
    extend = {"type": "extend", "owner": 0, "run": 0, "end": "low", "cards": [hand(t, 1)["He"]]}
    return t.move(1, extend, expect=422)


def p_no_such_run(table: Any) -> Any:
    t = _seat_one_after_a_run(table, LESSON)
    return t.move(1, {"type": "claim", "owner": 0, "run": 3, "card": 44}, expect=422)


def p_no_wild_there(table: Any) -> Any:
    t = _seat_one_after_a_run(table, LESSON)
    return t.move(1, {"type": "claim", "owner": 0, "run": 0, "card": 2}, expect=422)


def p_capture_after_run(table: Any) -> Any:
    deal = {"hands": [["Mg", "Al", "Si", "C", "O", "O"], []], "row": ["CO2"]}
    t = table(SLUG, players=2, seed=1, options={**LESSON, "deal": deal})
    for _ in range(2):
        t.move(0, {"type": "draw", "source": "deck"})
    mine = hand(t, 0)
    t.move(0, {"type": "run", "cards": [mine["Mg"], mine["Al"], mine["Si"]]})
    co2 = next(c["id"] for c in t.view(0)["view"]["row"]["cards"] if c["formula"] == "CO2")
    oxygen = [c["id"] for c in t.view(0)["view"]["you"]["hand"] if c.get("symbol") == "O"]
    capture = {"type": "capture", "compound": co2, "cards": [mine["C"], *oxygen[:2]]}
    return t.move(0, capture, expect=422)


def p_must_capture(table: Any) -> Any:
    deal = {"hands": [["Mg", "Al", "Si", "C", "O", "O"], []], "row": ["CO2"]}
    t = table(SLUG, players=2, seed=1, options={**LESSON, "must_capture": True, "deal": deal})
    for _ in range(2):
        t.move(0, {"type": "draw", "source": "deck"})
    mine = hand(t, 0)
    return t.move(0, {"type": "run", "cards": [mine["Mg"], mine["Al"], mine["Si"]]}, expect=422)


PROBLEMS: dict[str, Any] = {
    name.removeprefix("p_"): fn for name, fn in dict(globals()).items() if name.startswith("p_")
}
"""Every code this game adds to Compound Capture's, with a request that triggers it."""


@pytest.mark.parametrize("code", sorted(PROBLEMS))
def test_each_problem_of_this_game(table: Any, spec: dict[str, Any], code: str) -> None:
    problem = PROBLEMS[code](table)
    assert problem["code"] == code, problem
    assert problem["status"] == 422 and problem["type"] == f"/v1/problems/{code}"
    assert problem["detail"] and problem["title"]
    assert problem.get("rule") or code == "no_such_run"  # naming a run is not a rule
    conforms(spec, "moves", problem, 422)


def test_bad_setups_are_refused(table: Any) -> None:
    t = table(SLUG, players=1, seed=3)
    for options in ({"decks": "metallic"}, {"reshuffles": 9}, {"runs": "never"}):
        resp = t.post("setup", {"players": 2, "options": options})
        assert resp.status_code == 422 and resp.get_json()["code"] == "bad_option", options
    resp = t.post("setup", {"players": 2, "options": {"deal": {"hands": [["Tc", "Tc"]]}}})
    assert resp.status_code == 422 and resp.get_json()["code"] == "bad_deal"
    resp = t.post("setup", {"players": 7})
    assert resp.status_code == 422 and resp.get_json()["code"] == "bad_players"


def test_the_catalogue_describes_the_game(table: Any) -> None:
    t = table(SLUG, players=1, seed=3)
    # the empty draw deck is refilled by default, as in Compound Capture
    assert t.setup["view"]["reshuffles"] == {"allowed": 5, "used": 0}
    body = t.client.get(f"/v1/games/{SLUG}").get_json()
    assert {o["name"]: o["default"] for o in body["options"]}["reshuffles"] == 5
    assert body["slug"] == SLUG and body["rules_document"].startswith("# Chemistry Canasta")
    assert len(body["deck"]) == 54 + 54 + 54 and body["deck"][43]["symbol"] == "Ru"
    assert body["player_counts"]["6"]["expansions"] == 2


def test_a_match_played_by_bots_over_http(table: Any, spec: dict[str, Any]) -> None:
    t = table(SLUG, players=3, seed=4, options={"target": 100, "runs": "anyone"})
    for moves, seat, body in bots_over_http(t, 2000):
        if moves % 40 == 1:
            conforms(spec, "bot-move", body)
            legal = t.post("legal-moves", {"token": t.token, "seat": seat}, seat).get_json()
            conforms(spec, "legal-moves", legal)
            assert legal["move_space"]["description"].startswith("Runs and extensions")
            assert legal["move_space"]["forms"] == []  # the words say it all
    conforms(spec, "bot-move", body)
    assert body["outcome"]["finished"] and body["view"]["phase"] == "match_over"
    scores = t.scores()
    conforms(spec, "scores", scores)
    assert max(body["view"]["match"]["totals"]) >= 100
    for s in scores["scores"]["seats"]:
        assert s["round_points"] == (
            s["compound_points"] + s["run_points"] - s["elements_in_hand"] - 5 * s["wilds_in_hand"]
        )


def test_one_person_against_the_services_bots(client: Any) -> None:
    resp = client.post(
        f"{BASE}/setup",
        json={
            "players": 3,
            "seed": 2,
            "options": {"target": None},
            "bots": {"1": "greedy", "2": "random"},
        },
    )
    body = resp.get_json()
    assert resp.status_code == 201 and body["to_act"] == [0]
    assert body["bots"] == {"1": "greedy", "2": "random"}
