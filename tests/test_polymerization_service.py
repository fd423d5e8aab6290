"""The polymer-chain game over HTTP, through the `table` fixture; every response is
checked against the OpenAPI document."""

from __future__ import annotations

from typing import Any

import pytest

from service.openapi_export import generate

from .polymerization_helpers import (
    A1,
    A3,
    AIBN,
    COMB,
    COPO,
    CTA,
    FENTON,
    M1,
    M2,
    N1,
    S1,
    S2,
    S3,
    TEMPO,
)
from .test_openapi import conforms as shared_conforms

SLUG = "polymerization"
HANDS = [[FENTON[0], S1[0], S2[0], 38, 39, 40], [FENTON[1], S1[1], 18, 19, 20, 28]]


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generate()


def conforms(spec: dict[str, Any], endpoint: str, body: dict[str, Any], status: int = 200) -> None:
    shared_conforms(spec, f"/v1/{SLUG}/{endpoint}", body, status)


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
        legal = t.post("legal-moves", {"token": t.token, "seat": seat}, seat)
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


# ------------------------------------------------------------ every code over HTTP -----
SEAT0 = [FENTON[0], S1[0], S2[0], S3[0], TEMPO[0], M1[0], AIBN[0], N1[0], A1[0], CTA[0]]
SEAT1 = [FENTON[1], M1[1], M2[0], M2[1], COPO[0], COMB[0], TEMPO[1], A3[0]]
Step = tuple[int, dict[str, Any]]
START = (0, {"type": "initiate", "card": FENTON[0], "monomers": [[S1[0], S2[0]]]})  # chain 1
THEIRS = (1, {"type": "initiate", "card": FENTON[1], "monomers": [[M1[1], M2[0]]]})  # chain 2
CAP = (0, {"type": "cap", "card": TEMPO[0], "chain": 1})
TWO_MORE = (0, {"type": "initiate", "card": AIBN[0], "monomers": [[N1[0]], [A1[0]]]})  # 3, 4
JOIN = (1, {"type": "terminate", "card": COMB[0], "chains": [2, 1], "mechanism": "combination"})
PASS = (0, {"type": "discard", "card": S3[0]})


def init(monomers: list[list[int]]) -> dict[str, Any]:
    return {"type": "initiate", "card": FENTON[0], "monomers": monomers}


# code -> (steps that succeed, the step that is refused)
WALK: dict[str, tuple[list[Step], Step]] = {
    "not_your_turn": ([], (1, {"type": "draw"})),
    "draw_first": ([], (0, {"type": "discard", "card": S1[0]})),
    "already_drawn": ([(0, {"type": "draw"})], (0, {"type": "draw"})),
    "not_in_hand": ([], (0, {"type": "discard", "card": S1[1]})),
    "card_repeated": ([], (0, init([[S1[0], S1[0]]]))),
    "wrong_card": ([], (0, {"type": "initiate", "card": S1[0], "monomers": [[S2[0]]]})),
    "too_many_cards": ([], (0, init([[S1[0], S2[0], S3[0]]]))),
    "monomer_needed": ([], (0, init([[]]))),
    "value_one_needed": ([], (0, init([[S2[0]]]))),
    "radical_count": ([], (0, init([[S1[0]], [M1[0]]]))),
    "wrong_monomer": ([], (0, init([[S1[0], M1[0]]]))),
    "breaks_sequence": ([], (0, init([[S1[0], S3[0]]]))),
    "no_such_chain": ([], (0, {"type": "propagate", "chain": 9, "cards": [S1[0]]})),
    "not_your_chain": ([START], (1, {"type": "propagate", "chain": 1, "cards": [M2[0]]})),
    "chain_capped": (
        [START, THEIRS, CAP],
        (1, {"type": "copolymerize", "card": COPO[0], "chain": 1, "monomers": [A3[0]]}),
    ),
    "chain_not_capped": ([START, THEIRS], (0, {"type": "reactivate", "chain": 1})),
    "same_monomer": (
        [START, THEIRS, PASS],
        (1, {"type": "copolymerize", "card": COPO[0], "chain": 2, "monomers": [M2[1]]}),
    ),
    "two_chains_needed": (
        [START, THEIRS, PASS],
        (1, {"type": "terminate", "card": COMB[0], "chains": [1], "mechanism": "combination"}),
    ),
    "wrong_mechanism": (
        [START, THEIRS, PASS],
        (1, {**JOIN[1], "mechanism": "disproportionation"}),
    ),
    "own_chain_needed": (
        [START, (1, {"type": "discard", "card": A3[0]}), TWO_MORE],
        (1, {"type": "terminate", "card": COMB[0], "chains": [1, 3], "mechanism": "combination"}),
    ),
    "chain_terminated": (
        [START, THEIRS, PASS, JOIN],
        (0, {"type": "transfer", "card": CTA[0], "chain": 2, "monomers": [M1[0]]}),
    ),
}


def walk(t: Any, steps: list[Step], last: Step, *, draw_first: bool = True) -> dict[str, Any]:
    """Play ``steps`` (drawing where a turn starts), then ``last``, which must be refused."""
    for i, (seat, move) in enumerate([*steps, last]):
        final = i == len(steps)
        starts = t.last["view"]["phase"] == "draw" and seat in t.last["to_act"]
        if starts and move["type"] != "draw" and (draw_first or not final):
            t.move(seat, {"type": "draw"})
        if final:
            return t.move(seat, move, expect=422)  # type: ignore[no-any-return]
        t.move(seat, move)
    raise AssertionError("unreachable")


@pytest.mark.parametrize("code", sorted(WALK))
def test_every_rule_code_over_http(table: Any, code: str) -> None:
    t = table(SLUG, players=2, seed=5, options={"deal": [SEAT0, SEAT1]})
    steps, last = WALK[code]
    problem = walk(t, steps, last, draw_first=code != "draw_first")
    assert problem["code"] == code and problem["status"] == 422, problem
    assert problem["detail"] and problem["type"].endswith(code)


def test_stack_empty_over_http(table: Any) -> None:
    everything = list(range(1, 56))
    hands = [everything[:27], everything[27:54]]  # one card left in the stack
    t = table(SLUG, players=2, seed=5, options={"decks": 1, "deal": hands})
    t.move(0, {"type": "draw"})
    t.move(0, {"type": "discard", "card": 1})
    assert t.last["view"]["stack"]["count"] == 0 and t.last["to_act"] == [1]
    assert t.move(1, {"type": "draw"}, expect=422)["code"] == "stack_empty"
