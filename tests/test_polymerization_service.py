"""The polymer-chain game over HTTP, through the `table` fixture; every response is
checked against the OpenAPI document."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from service.openapi_export import generate

from .polymerization_helpers import FENTON, S1, S2
from .test_openapi import response_schema

SLUG = "polymerization"
HANDS = [[FENTON[0], S1[0], S2[0], 38, 39, 40], [FENTON[1], S1[1], 18, 19, 20, 28]]


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generate()


def conforms(spec: dict[str, Any], endpoint: str, body: dict[str, Any], status: int = 200) -> None:
    schema = response_schema(spec, f"/v1/{SLUG}/{endpoint}", status)
    errors = sorted(Draft202012Validator(schema).iter_errors(body), key=str)
    assert not errors, f"{endpoint}: {errors[0].message} at {list(errors[0].path)}"


def test_a_game_over_http(table: Any, spec: dict[str, Any]) -> None:
    t = table(SLUG, players=2, seed=3, options={"deal": HANDS})
    conforms(spec, "setup", t.setup, 201)
    view = t.view(0)
    conforms(spec, "view", view)
    assert [c["id"] for c in view["view"]["you"]["hand"]["cards"]] == sorted(HANDS[0])
    assert t.view()["view"]["you"] is None
    body = t.move(0, {"type": "draw"})
    conforms(spec, "moves", body)
    assert body["events"][0]["type"] == "card_drawn" and "cards" in body["events"][0]
    body = t.move(0, {"type": "initiate", "card": FENTON[0], "monomers": [[S1[0], S2[0]]]})
    conforms(spec, "moves", body)
    assert body["events"][0]["type"] == "initiation"
    assert body["view"]["chains"][0]["units"] == 3
    other = t.view(1)["view"]
    assert other["chains"][0]["owner"] == 0 and "cards" in other["you"]["hand"]
    assert other["seats"][0]["hand_count"] == 4


def test_refusals_are_problems_with_codes(table: Any) -> None:
    t = table(SLUG, players=2, seed=3, options={"deal": HANDS})
    problem = t.move(0, {"type": "discard", "card": 38}, expect=422)
    assert problem["code"] == "draw_first" and "Take a card" in problem["detail"]
    assert problem["rule"].startswith("Each turn players take a card")
    t.move(0, {"type": "draw"})
    problem = t.move(0, {"type": "initiate", "card": FENTON[0], "monomers": [[S2[0]]]}, expect=422)
    assert problem["code"] == "value_one_needed"
    problem = t.move(0, {"type": "propagate", "chain": 1, "cards": [1, 2, 3, 4]}, expect=422)
    assert problem["code"] == "no_such_chain"
    problem = t.move(1, {"type": "draw"}, expect=422)
    assert problem["code"] == "not_your_turn"
    assert t.move(0, {"type": "polymerise"}, expect=422)["code"] == "unknown_move"
    assert t.move(0, {"type": "discard", "card": "x"}, expect=422)["code"] == "bad_move"


def test_bots_play_a_whole_game_over_http(table: Any, spec: dict[str, Any]) -> None:
    t = table(SLUG, players=3, seed=11, options={"decks": 1, "scoring": "molar_mass"})
    for _ in range(400):
        if t.last["outcome"]["finished"]:
            break
        seat = t.last["to_act"][0]
        legal = t.post(
            "legal-moves", {"token": t.token, "seat": seat, "seat_token": t.seat_tokens[seat]}
        )
        conforms(spec, "legal-moves", legal.get_json())
        assert legal.get_json()["moves"]
        conforms(spec, "bot-move", t.bot(seat, "greedy"))
    assert t.last["outcome"]["finished"]
    assert t.last["events"][-1]["type"] == "game_over"
    scores = t.post("scores", {"token": t.token}).get_json()
    conforms(spec, "scores", scores)
    assert scores["scores"]["final"] is True
    for seat in scores["scores"]["seats"]:
        assert seat["arithmetic"]["mn"].startswith("Mn")


def test_the_catalogue_serves_the_rules_document_and_the_deck(table: Any) -> None:
    t = table(SLUG, players=4, seed=1)
    detail = t.client.get(f"/v1/games/{SLUG}").get_json()
    assert detail["rules_document"].startswith("# Polymerization")
    assert len(detail["deck"]) == 110 and detail["deck"][0]["formula"] == "C8H8"
    assert detail["player_counts"]["4"]["hand_size"] == 11
    assert {"breaks_sequence", "chain_capped", "game_over"} <= set(detail["codes"])
