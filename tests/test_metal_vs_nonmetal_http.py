"""Metal vs. Non-Metal over HTTP: a whole game, the seed's example 3, refusals, secrets,
and every response checked against the documented OpenAPI schemas."""

from __future__ import annotations

from typing import Any

import pytest

from service.openapi_export import generate

from .test_openapi import conforms as shared_conforms

SLUG = "metal-vs-nonmetal"
BASE = f"/v1/{SLUG}"
EXAMPLE_3 = {
    "start_player": 0,
    "deal": [
        ["N3-", "N3-", "Cl-", "O2-", "O2-", "Cl-"],
        ["Ca2+", "Ca2+", "Ca2+", "Cl-", "O2-", "Na+"],
    ],
    "ion_deck_top": ["Cl-", "Cl-", "O2-", "O2-"],
}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generate()


def conforms(spec: dict[str, Any], path: str, body: Any, status: int = 200) -> None:
    shared_conforms(spec, f"{BASE}/{path}", body, status)


def hand(view: dict[str, Any], label: str) -> list[int]:
    return [c["id"] for c in view["you"]["hand"] if c["ion"] == label]


def test_a_whole_game_by_bots_matches_the_contract(table: Any, spec: dict[str, Any]) -> None:
    t = table(SLUG, players=3, seed=12)
    conforms(spec, "setup", t.setup, 201)
    seen_types = set()
    while t.last["to_act"]:
        (seat,) = t.last["to_act"]
        body = t.bot(seat, "greedy" if seat else "random")
        conforms(spec, "bot-move", body)
        seen_types |= {e["type"] for e in body["events"]}
        for who in (None, 0, 1, 2):
            view = t.view(who)
            conforms(spec, "view", view)
            seats = view["view"]["seats"]
            if view["view"]["finished"]:  # hands are shown: empty, their cards set aside
                assert all(s["hand"] == {"count": 0, "cards": []} for s in seats)
            else:
                assert all(s["hand"]["cards"] is None for s in seats if s["seat"] != who)
        conforms(spec, "scores", t.post("scores", {"token": t.token}).get_json())
    assert t.last["outcome"]["finished"]
    assert {"card_played", "responded", "exchange_settled", "game_over"} <= seen_types
    scores = t.post("scores", {"token": t.token}).get_json()
    assert scores["scores"]["final"] is True
    collected = [s["collected"] for s in scores["scores"]["seats"]]
    assert sum(collected) + scores["scores"]["set_aside"] == 40


def test_seed_example_3_over_http(table: Any, spec: dict[str, Any]) -> None:
    t = table(SLUG, players=2, seed=1, options=EXAMPLE_3)
    assert t.last["to_act"] == [0]
    view = t.view(0)["view"]
    body = t.move(0, {"type": "play", "card": hand(view, "N3-")[0]})
    conforms(spec, "moves", body)
    drawn = next(e for e in body["events"] if e["type"] == "cards_drawn")
    assert drawn["cards"][0]["ion"] == "Cl-"  # the drawer sees its card
    legal = t.post("legal-moves", {"token": t.token, "seat": 1}, 1).get_json()
    conforms(spec, "legal-moves", legal)
    ca = hand(t.view(1)["view"], "Ca2+")
    assert {"type": "respond", "cards": ca} in legal["moves"]
    body = t.move(1, {"type": "respond", "cards": ca})
    conforms(spec, "moves", body)
    power = next(e for e in body["events"] if e["type"] == "power_play")
    assert power["reinforcement"] == {"ion": "N3-", "count": 1}
    assert body["view"]["exchange"]["reinforcement"]["difference"] == 3
    body = t.move(0, {"type": "reinforce", "cards": hand(t.view(0)["view"], "N3-")})
    conforms(spec, "moves", body)
    settled = next(e for e in body["events"] if e["type"] == "exchange_settled")
    assert settled["equation"] == "3 Ca2+ + 2 N3- -> Ca3N2"
    assert settled["compound"]["name"] == "calcium nitride" and settled["collector"] == 0
    assert body["view"]["seats"][0]["collected"] == 5


def test_refusals_name_the_rule_and_what_is_legal(table: Any, spec: dict[str, Any]) -> None:
    options = {
        "start_player": 0,
        "deal": [
            ["N3-", "Na+", "Na+", "Ca2+", "Ca2+", "Al3+"],
            ["O2-", "O2-", "O2-", "Ca2+", "Ca2+", "Ca2+"],
        ],
    }
    t = table(SLUG, players=2, seed=1, options=options)
    t.move(0, {"type": "play", "card": hand(t.view(0)["view"], "N3-")[0]})
    problem = t.move(1, {"type": "respond", "cards": hand(t.view(1)["view"], "O2-")}, expect=422)
    conforms(spec, "moves", problem, 422)
    assert problem["code"] == "wrong_charge_sign"
    assert problem["detail"].startswith("Rule (i)") and "Legal now: 3 Ca2+" in problem["detail"]
    assert "opposite charge" in problem["rule"]
    problem = t.move(0, {"type": "decline"}, expect=422)
    assert problem["code"] == "not_your_turn"
    problem = t.move(1, {"type": "play", "card": 1}, expect=422)
    assert problem["code"] == "wrong_step"
    problem = t.move(1, {"type": "respond", "cards": []}, expect=422)
    assert problem["code"] == "bad_move"


def test_a_seat_never_sees_another_hand_or_the_ion_deck(table: Any) -> None:
    t = table(SLUG, players=4, seed=3)
    first = t.last["to_act"][0]
    mine = {c["id"] for c in t.view(first)["view"]["you"]["hand"]}
    body = t.bot(first, "greedy")
    drawn = [e for e in body["events"] if e["type"] == "cards_drawn"]
    assert drawn and all("cards" in e for e in drawn)  # the mover sees its draw
    for seat in range(4):
        view = t.view(seat)["view"]
        assert view["ion_deck"]["cards"] is None
        for other in view["seats"]:
            if other["seat"] != seat:
                assert other["hand"]["cards"] is None
        if seat != first:
            ids = {c["id"] for c in view["you"]["hand"]}
            assert not ids & mine


def test_setup_options_are_checked(table: Any) -> None:
    t = table(SLUG, players=2, seed=1)
    bad = [
        ({"start_player": 5}, "bad_option"),
        ({"power_play_prize": "some"}, "bad_option"),
        ({"deal": [["Na+"] * 6, ["Na+"] * 6]}, "bad_deal"),
        ({"ions": {"K+": 6, "Br-": 5}}, "bad_ion_deck"),
        ({"colour": "red"}, "unknown_option"),
    ]
    for options, code in bad:
        resp = t.post("setup", {"players": 2, "seed": 1, "options": options})
        assert resp.status_code == 422, (options, resp.get_json())
        assert resp.get_json()["code"] == code, options
    resp = t.post("setup", {"players": 5})
    assert resp.get_json()["code"] == "bad_players"


def test_the_catalogue_describes_the_game(table: Any) -> None:
    t = table(SLUG, players=2, seed=1)
    detail = t.client.get(f"/v1/games/{SLUG}").get_json()
    assert detail["min_players"] == 2 and detail["max_players"] == 4
    assert len(detail["deck"]) == 40 and detail["deck"][16]["name"] == "calcium ion"
    assert detail["player_counts"]["4"] == {"hand_size": 6, "ion_deck": 16}
    assert {"wrong_charge_sign", "mixed_ions", "wrong_count"} <= set(detail["codes"])
    assert detail["rules_document"].startswith("# Metal vs. Non-Metal")


# -- every problem this game adds, walked over HTTP ------------------------------------
def _example_3_table(table: Any) -> Any:
    t = table(SLUG, players=2, seed=1, options=EXAMPLE_3)
    t.move(0, {"type": "play", "card": hand(t.view(0)["view"], "N3-")[0]})
    return t


def _answer(table: Any, cards: list[str]) -> Any:
    deal = [["Ca2+", *["Na+"] * 5], [*cards, *["Al3+"] * (6 - len(cards))]]
    t = table(SLUG, players=2, seed=1, options={"start_player": 0, "deal": deal})
    t.move(0, {"type": "play", "card": hand(t.view(0)["view"], "Ca2+")[0]})
    return t


def _respond(t: Any, *labels: str) -> Any:
    view = t.view(1)["view"]
    cards = [hand(view, label)[0] for label in labels]
    return t.move(1, {"type": "respond", "cards": cards}, expect=422)


def p_not_your_turn(table: Any) -> Any:
    return _example_3_table(table).move(0, {"type": "decline"}, expect=422)


def p_wrong_step(table: Any) -> Any:
    return _example_3_table(table).move(1, {"type": "decline"}, expect=422)


def p_wrong_charge_sign(table: Any) -> Any:
    t = _example_3_table(table)
    return t.move(1, {"type": "respond", "cards": hand(t.view(1)["view"], "O2-")}, expect=422)


def p_mixed_ions(table: Any) -> Any:
    return _respond(_answer(table, ["Cl-", "O2-"]), "Cl-", "O2-")


def p_wrong_count(table: Any) -> Any:
    t = _answer(table, ["Cl-", "Cl-"])
    return t.move(1, {"type": "respond", "cards": hand(t.view(1)["view"], "Cl-")[:1]}, expect=422)


def p_charge_too_high(table: Any) -> Any:
    return _respond(_answer(table, ["Cl-", "N3-"]), "N3-")


def _power_play(table: Any) -> Any:
    t = _example_3_table(table)
    t.move(1, {"type": "respond", "cards": hand(t.view(1)["view"], "Ca2+")})
    return t


def p_reinforcement_ion(table: Any) -> Any:
    t = _power_play(table)
    return t.move(0, {"type": "reinforce", "cards": hand(t.view(0)["view"], "O2-")}, expect=422)


def p_reinforcement_count(table: Any) -> Any:
    deal = [
        ["Na+", "Na+", "Na+", "Na+", "Ca2+", "Cl-"],
        ["N3-", "Cl-", "O2-", "Na+", "Ca2+", "Al3+"],
    ]
    t = table(SLUG, players=2, seed=1, options={"start_player": 0, "deal": deal})
    t.move(0, {"type": "play", "card": hand(t.view(0)["view"], "Na+")[0]})
    t.move(1, {"type": "respond", "cards": hand(t.view(1)["view"], "N3-")})
    # -3 against +1: 2 more Na+ balance; 1 is too few
    return t.move(0, {"type": "reinforce", "cards": hand(t.view(0)["view"], "Na+")[:1]}, expect=422)


def p_bad_ion_deck(table: Any) -> Any:
    t = table(SLUG, players=2, seed=1)
    resp = t.post("setup", {"players": 2, "options": {"ions": {"K+": 6, "Br-": 5}}})
    return resp.get_json()


PROBLEMS: dict[str, Any] = {
    name.removeprefix("p_"): fn for name, fn in dict(globals()).items() if name.startswith("p_")
}
"""Every code this game adds, with a request that triggers it (the catalogue walk in
tests/test_polymer_errors.py counts them as walked)."""


@pytest.mark.parametrize("code", sorted(PROBLEMS))
def test_each_problem_of_this_game(table: Any, spec: dict[str, Any], code: str) -> None:
    problem = PROBLEMS[code](table)
    assert problem["code"] == code, problem
    assert problem["status"] == 422 and problem["type"] == f"/v1/problems/{code}"
    assert problem["detail"] and problem["title"]
    if code != "bad_ion_deck":
        conforms(spec, "moves", problem, 422)
