"""The polymer-chain game's rules, card type by card type, with every refusal coded.

Card ids come from tests/polymerization_helpers.py (S1 = styrene cards of value 1,
M2 = methyl methacrylate of value 2, N = acrylonitrile, A = methyl acrylate...).
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import RuleViolation
from rules.polymerization import GAME
from rules.polymerization.cards import formula_mass

from .polymerization_helpers import (
    A1,
    A2,
    A3,
    AIBN,
    COMB,
    COPO,
    CTA,
    DISP,
    FENTON,
    M1,
    M2,
    N1,
    N2,
    N3,
    S1,
    S2,
    S3,
    TEMPO,
    chain,
    deal,
    drawn,
    next_draw,
    pass_turn,
    play,
)


def refused(state: dict[str, Any], seat: int, move: dict[str, Any], code: str) -> RuleViolation:
    if state["phase"] == "draw" and move.get("type") != "draw":
        state = drawn(state, seat)
    with pytest.raises(RuleViolation) as err:
        GAME.apply(state, seat, move)
    assert err.value.code == code, err.value.message
    assert GAME.can(state, seat, GAME.parse_move(move)) is False
    return err.value


# ---------------------------------------------------------------- deal and turn -----
@pytest.mark.parametrize(("players", "hand", "stack"), [(2, 15, 80), (3, 13, 71), (4, 11, 66)])
def test_hands_of_15_13_11_and_the_rest_is_the_stack(players: int, hand: int, stack: int) -> None:
    state = GAME.setup(players, {}, 3)
    assert [len(h) for h in state["zones"]["hand"]] == [hand] * players
    assert len(state["zones"]["stack"]) == stack
    assert GAME.to_act(state) == [0] and state["phase"] == "draw"


def test_one_deck_option_plays_55_cards() -> None:
    state = GAME.setup(4, {"decks": 1}, 3)
    assert len(state["zones"]["stack"]) == 55 - 44


@pytest.mark.parametrize(
    "options",
    [
        {"decks": 3},
        {"propagation": "chain"},
        {"capped_count": "yes"},
        {"scoring": "mass"},
        {"ranking": True},
    ],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(RuleViolation) as err:
        GAME.setup(2, options, 1)
    assert err.value.code == "bad_option"


@pytest.mark.parametrize(
    "hands", [[[1, 2], [2, 3]], [[0], [3]], [[111], [3]], [[1]], list(map(list, [[1], []]))]
)
def test_bad_deals_are_refused(hands: list[list[int]]) -> None:
    with pytest.raises(RuleViolation) as err:
        GAME.setup(2, {"deal": hands}, 1)
    assert err.value.code == "bad_deal"


def test_a_turn_is_draw_then_one_round_or_a_discard() -> None:
    state = deal([[S1[0]], [S1[1]]])
    refused(state, 1, {"type": "draw"}, "not_your_turn")
    with pytest.raises(RuleViolation) as err:
        GAME.apply(state, 0, {"type": "discard", "card": S1[0]})
    assert err.value.code == "draw_first"
    state, events = GAME.apply(state, 0, {"type": "draw"})
    assert events[0]["type"] == "card_drawn" and len(state["zones"]["hand"][0]) == 6
    refused(state, 0, {"type": "draw"}, "already_drawn")
    refused(state, 0, {"type": "discard", "card": S1[1]}, "not_in_hand")
    state, events = GAME.apply(state, 0, {"type": "discard", "card": S1[0]})
    assert state["zones"]["discard"] == [S1[0]]
    assert GAME.view(state, 1)["discard"] == {"count": 1, "top": events[0]["cards"][0]}
    assert GAME.to_act(state) == [1] and state["phase"] == "draw"


def test_the_drawn_card_is_told_to_the_drawer_only() -> None:
    state = deal([[S1[0]], [S1[1]]])
    _, events = GAME.apply(state, 0, {"type": "draw"})
    assert "cards" not in events[0] and events[0]["count"] == 1
    assert list(events[0]["private"]) == [0]


def test_unknown_and_malformed_moves() -> None:
    state = drawn(deal([[S1[0]], [S1[1]]]), 0)
    moves: list[tuple[dict[str, Any], str]] = [
        ({"type": "polymerise"}, "unknown_move"),
        ({"type": "discard"}, "bad_move"),
        ({"type": "discard", "card": "1"}, "bad_move"),
        ({"type": "discard", "card": 1, "extra": 2}, "bad_move"),
        ({"type": "propagate", "chain": 1, "cards": [1, "x"]}, "bad_move"),
        ({"type": "initiate", "card": 41, "monomers": [1]}, "bad_move"),
        ({"type": "initiate", "card": 41, "monomers": [[1], [2], [3]]}, "bad_move"),
        ({"type": "terminate", "card": 49, "chains": [1, 2], "mechanism": "fusion"}, "bad_move"),
        ({"type": "propagate", "chain": 1, "cards": list(range(1, 10))}, "bad_move"),
    ]
    for move, code in moves:
        with pytest.raises(RuleViolation) as err:
            GAME.apply(state, 0, move)
        assert err.value.code == code, move


# ---------------------------------------------------------------- initiation --------
def test_seed_example_single_radical_start_with_three_cards() -> None:
    """'initiator, monomer with value 1 (radical transfer to a monomer) and another
    monomer to further extend the chain'."""
    state = deal([[FENTON[0], S1[0], S2[0]], []])
    state, events = play(
        state, 0, {"type": "initiate", "card": FENTON[0], "monomers": [[S1[0], S2[0]]]}
    )
    (made,) = state["chains"]
    assert made["cards"] == [FENTON[0], S1[0], S2[0]] and made["ends"] == ["HO"]
    assert made["state"] == "growing" and made["owner"] == 0
    event = events[0]
    assert event["type"] == "initiation" and event["radicals"] == 1
    assert event["chains"][0]["units"] == 3 and event["chains"][0]["values"] == [1, 2]
    assert "HO" in event["explanation"] and "radical" in event["explanation"]
    assert FENTON[0] not in state["zones"]["hand"][0] and S2[0] in state["zones"]["table"]


def test_single_radical_start_with_two_cards() -> None:
    state = deal([[FENTON[0], M1[0]], []])
    state, _ = play(state, 0, {"type": "initiate", "card": FENTON[0], "monomers": [[M1[0]]]})
    assert chain(state, 1)["cards"] == [FENTON[0], M1[0]]


def test_seed_example_aibn_double_start() -> None:
    """'one initiator and two monomers with the value of one ... the same or two
    different monomers'."""
    state = deal([[AIBN[0], S1[0], N1[0]], [AIBN[1], S1[1], S1[2]]])
    state, events = play(
        state, 0, {"type": "initiate", "card": AIBN[0], "monomers": [[S1[0]], [N1[0]]]}
    )
    one, two = state["chains"]
    assert (one["cards"], two["cards"]) == ([AIBN[0], S1[0]], [N1[0]])
    assert one["ends"] == two["ends"] == ["C4H6N"]
    assert events[0]["radicals"] == 2 and len(events[0]["chains"]) == 2
    state, _ = play(state, 1, {"type": "initiate", "card": AIBN[1], "monomers": [[S1[1]], [S1[2]]]})
    assert [c["owner"] for c in state["chains"]] == [0, 0, 1, 1]


def test_aibn_starts_two_chains_unless_the_option_allows_one() -> None:
    hands = [[AIBN[0], S1[0], S2[0]], []]
    move = {"type": "initiate", "card": AIBN[0], "monomers": [[S1[0], S2[0]]]}
    err = refused(deal(hands), 0, move, "radical_count")
    assert "two radicals" in err.message
    state, events = play(deal(hands, aibn_single_start=True), 0, move)
    assert len(state["chains"]) == 1 and "lost" in events[0]["explanation"]


@pytest.mark.parametrize(
    ("monomers", "code"),
    [
        ([[S2[0]]], "value_one_needed"),
        ([[S1[0], M2[0]]], "wrong_monomer"),
        ([[S1[0], S3[0]]], "breaks_sequence"),
        ([[S1[0], S1[1], S2[0]]], "too_many_cards"),
        ([[S1[0]], [S1[1]]], "radical_count"),
        ([[]], "monomer_needed"),
        ([[FENTON[1]]], "wrong_card"),
        ([[S1[0], S1[0]]], "card_repeated"),
        ([[S1[3]]], "not_in_hand"),
    ],
)
def test_initiation_refusals(monomers: list[list[int]], code: str) -> None:
    state = deal([[FENTON[0], FENTON[1], S1[0], S1[1], S2[0], S3[0], M2[0]], []])
    refused(state, 0, {"type": "initiate", "card": FENTON[0], "monomers": monomers}, code)


def test_only_an_initiator_initiates() -> None:
    state = deal([[S1[0], S1[1]], []])
    refused(state, 0, {"type": "initiate", "card": S1[0], "monomers": [[S1[1]]]}, "wrong_card")


def test_aibn_monomers_must_each_be_value_one() -> None:
    state = deal([[AIBN[0], S1[0], N2[0]], []])
    move = {"type": "initiate", "card": AIBN[0], "monomers": [[S1[0]], [N2[0]]]}
    refused(state, 0, move, "value_one_needed")


# ---------------------------------------------------------------- propagation -------
def started(
    hand: list[int], first: list[int], other: list[int] | None = None, **opts: Any
) -> dict[str, Any]:
    """Seat 0 has started chain 1 with a fenton and ``first``; seat 1 to play next."""
    state = deal([[FENTON[0], *first, *hand], other or []], **opts)
    state, _ = play(state, 0, {"type": "initiate", "card": FENTON[0], "monomers": [first]})
    return state


def test_propagation_by_pairs_triplets_and_the_series() -> None:
    state = started([S2[1], S3[0], S3[1], S3[2], S1[2], S1[3]], [S1[0], S2[0]])
    state = pass_turn(state, 1)
    state, events = play(
        state, 0, {"type": "propagate", "chain": 1, "cards": [S2[1], S3[0], S3[1]]}
    )
    assert chain(state, 1)["cards"][-3:] == [S2[1], S3[0], S3[1]]
    assert events[0]["units_added"] == 8 and events[0]["units"] == 11
    state = pass_turn(state, 1)
    state, _ = play(state, 0, {"type": "propagate", "chain": 1, "cards": [S3[2], S1[2]]})
    assert GAME.view(state, None)["chains"][0]["values"] == [1, 2, 2, 3, 3, 3, 1]


def test_a_fourth_card_of_one_value_in_a_row_is_refused() -> None:
    state = started([S1[1], S1[2], S1[3]], [S1[0]])
    state = pass_turn(state, 1)
    err = refused(
        state,
        0,
        {"type": "propagate", "chain": 1, "cards": [S1[1], S1[2], S1[3]]},
        "breaks_sequence",
    )
    assert "fourth" in err.message and err.rule and "pair or triplet" in err.rule


def test_a_value_that_does_not_follow_is_refused() -> None:
    state = started([S3[0], S1[1]], [S1[0], S2[0]])
    state = pass_turn(state, 1)
    refused(state, 0, {"type": "propagate", "chain": 1, "cards": [S1[1]]}, "breaks_sequence")
    state, _ = play(state, 0, {"type": "propagate", "chain": 1, "cards": [S3[0], S1[1]]})
    assert chain(state, 1)["cards"][-2:] == [S3[0], S1[1]]  # after 3, a new series


def test_meld_mode_judges_a_rounds_cards_on_their_own() -> None:
    state = started([S1[1], S2[1], S3[0], S2[2], S3[1]], [S1[0], S2[0]], propagation="meld")
    state = pass_turn(state, 1)
    refused(state, 0, {"type": "propagate", "chain": 1, "cards": [S3[0], S2[1]]}, "breaks_sequence")
    state, _ = play(state, 0, {"type": "propagate", "chain": 1, "cards": [S1[1], S2[1], S3[0]]})
    state = pass_turn(state, 1)
    state, _ = play(state, 0, {"type": "propagate", "chain": 1, "cards": [S2[2]]})  # a single card
    assert chain(state, 1)["cards"][-4:] == [S1[1], S2[1], S3[0], S2[2]]


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ([M2[0]], "wrong_monomer"),
        ([], "monomer_needed"),
        ([S2[1], S3[0], S3[1], S3[2]], "too_many_cards"),
        ([FENTON[1]], "wrong_card"),
        ([S2[2]], "not_in_hand"),
    ],
)
def test_propagation_refusals(cards: list[int], code: str) -> None:
    state = started([S2[1], S3[0], S3[1], S3[2], M2[0], FENTON[1]], [S1[0]])
    state = pass_turn(state, 1)
    refused(state, 0, {"type": "propagate", "chain": 1, "cards": cards}, code)


def test_you_grow_only_your_own_chains_and_only_chains_on_the_table() -> None:
    state = started([], [S1[0]], [S2[0]])
    refused(state, 1, {"type": "propagate", "chain": 1, "cards": [S2[0]]}, "not_your_chain")
    refused(state, 1, {"type": "propagate", "chain": 9, "cards": [S2[0]]}, "no_such_chain")


@pytest.mark.parametrize(("per_card", "units"), [("value", 6), ("one", 3)])
def test_the_number_of_monomers_of_a_chain(per_card: str, units: int) -> None:
    state = started([S3[0]], [S1[0], S2[0]], units_per_card=per_card)
    state = pass_turn(state, 1)
    state, events = play(state, 0, {"type": "propagate", "chain": 1, "cards": [S3[0]]})
    assert GAME.view(state, None)["chains"][0]["units"] == units == events[0]["units"]


def test_explanations_say_1_unit_and_2_units() -> None:
    """One monomer unit is "1 unit", never "1 units" (issue 20)."""
    deal_ = deal([[FENTON[0], S1[0], S1[1]], []], units_per_card="one")
    state, events = play(deal_, 0, {"type": "initiate", "card": FENTON[0], "monomers": [[S1[0]]]})
    assert "(styrene, 1 unit)" in events[0]["explanation"]
    state = pass_turn(state, 1)
    state, events = play(state, 0, {"type": "propagate", "chain": 1, "cards": [S1[1]]})
    text = events[0]["explanation"]
    assert "adds 1 styrene unit (values 1)" in text and "now has 2 units." in text
    assert "1 units" not in text


# ---------------------------------------------------------------- TEMPO (SFRP) ------
def test_tempo_caps_your_own_growing_chain_and_protects_it() -> None:
    state = started([TEMPO[0], S2[0]], [S1[0]], [CTA[0], COPO[0], COMB[0], M1[0], N1[0]])
    state = pass_turn(state, 1)
    state, events = play(state, 0, {"type": "cap", "card": TEMPO[0], "chain": 1})
    capped = chain(state, 1)
    assert capped["state"] == "capped" and capped["ends"] == ["HO", "C9H18NO"]
    assert events[0]["type"] == "tempo_capping"
    for move in (
        {"type": "transfer", "card": CTA[0], "chain": 1, "monomers": [M1[0]]},
        {"type": "copolymerize", "card": COPO[0], "chain": 1, "monomers": [N1[0]]},
    ):
        refused(state, 1, move, "chain_capped")
    state = pass_turn(state, 1)
    refused(state, 0, {"type": "propagate", "chain": 1, "cards": [S2[0]]}, "chain_capped")


def test_tempo_refusals() -> None:
    state = started([TEMPO[0], TEMPO[1], S2[0]], [S1[0]], [TEMPO[2]])
    refused(state, 1, {"type": "cap", "card": TEMPO[2], "chain": 1}, "not_your_chain")
    state = pass_turn(state, 1)
    refused(state, 0, {"type": "cap", "card": S2[0], "chain": 1}, "wrong_card")
    state, _ = play(state, 0, {"type": "cap", "card": TEMPO[0], "chain": 1})
    state = pass_turn(state, 1)
    refused(state, 0, {"type": "cap", "card": TEMPO[1], "chain": 1}, "chain_capped")


def test_reactivation_releases_tempo_to_the_discard_stack_and_grows() -> None:
    state = started([TEMPO[0], S2[0], S2[1]], [S1[0]])
    state = pass_turn(state, 1)
    refused(state, 0, {"type": "reactivate", "chain": 1}, "chain_not_capped")
    state, _ = play(state, 0, {"type": "cap", "card": TEMPO[0], "chain": 1})
    state = pass_turn(state, 1)
    refused(state, 0, {"type": "reactivate", "chain": 1, "cards": [S3[0]]}, "not_in_hand")
    state, events = play(state, 0, {"type": "reactivate", "chain": 1, "cards": [S2[0], S2[1]]})
    again = chain(state, 1)
    assert again["state"] == "growing" and again["ends"] == ["HO"]
    assert again["cards"] == [FENTON[0], S1[0], S2[0], S2[1]]
    assert state["zones"]["discard"][-1] == TEMPO[0]
    assert events[0]["type"] == "reactivation" and events[0]["card"]["id"] == TEMPO[0]


def test_only_the_owner_reactivates() -> None:
    state = started([TEMPO[0]], [S1[0]])
    state = pass_turn(state, 1)
    state, _ = play(state, 0, {"type": "cap", "card": TEMPO[0], "chain": 1})
    refused(state, 1, {"type": "reactivate", "chain": 1}, "not_your_chain")


# ---------------------------------------------------------------- CTA ---------------
def test_cta_takes_an_opponents_chain_terminates_it_and_starts_a_new_one() -> None:
    state = started([], [S1[0], S2[0]], [CTA[0], M1[0], M2[0]])
    state, events = play(
        state, 1, {"type": "transfer", "card": CTA[0], "chain": 1, "monomers": [M1[0], M2[0]]}
    )
    old, new = chain(state, 1), chain(state, 2)
    assert old["owner"] == 1 and old["state"] == "terminated" and old["mechanism"] == "transfer"
    assert old["ends"] == ["HO", "H"]
    assert new["owner"] == 1 and new["cards"] == [CTA[0], M1[0], M2[0]]
    assert new["ends"] == ["C12H25S"] and new["state"] == "growing"
    assert sorted(state["zones"]["set_aside"][1]) == sorted([FENTON[0], S1[0], S2[0]])
    assert [e["type"] for e in events] == ["chain_taken", "chain_transfer"]
    assert events[0]["from_seat"] == 0 and events[0]["units"] == 3
    assert GAME.scores(state)["seats"][1]["monomers"] == 3


def test_cta_on_your_own_chain_secures_it() -> None:
    state = started([CTA[0], N1[0]], [S1[0]])
    state = pass_turn(state, 1)
    state, events = play(
        state, 0, {"type": "transfer", "card": CTA[0], "chain": 1, "monomers": [N1[0]]}
    )
    assert chain(state, 1)["state"] == "terminated" and chain(state, 1)["owner"] == 0
    assert [e["type"] for e in events] == ["chain_transfer"]


@pytest.mark.parametrize(
    ("monomers", "code"),
    [
        ([], "value_one_needed"),
        ([M2[0]], "value_one_needed"),
        ([M1[0], M2[0], M2[1]], "too_many_cards"),
        ([M1[0], N2[0]], "wrong_monomer"),
    ],
)
def test_cta_refusals(monomers: list[int], code: str) -> None:
    state = started([], [S1[0]], [CTA[0], M1[0], M2[0], M2[1], N2[0]])
    refused(state, 1, {"type": "transfer", "card": CTA[0], "chain": 1, "monomers": monomers}, code)


def test_cta_card_must_be_a_cta() -> None:
    state = started([], [S1[0]], [COPO[0], M1[0]])
    refused(
        state,
        1,
        {"type": "transfer", "card": COPO[0], "chain": 1, "monomers": [M1[0]]},
        "wrong_card",
    )


# ---------------------------------------------------------------- copolymer ---------
def test_copolymer_on_an_opponents_chain_takes_it_and_changes_the_monomer() -> None:
    state = started([S3[0]], [S1[0], S2[0]], [COPO[0], A2[0], A3[0]])
    state, events = play(
        state, 1, {"type": "copolymerize", "card": COPO[0], "chain": 1, "monomers": [A2[0], A3[0]]}
    )
    taken = chain(state, 1)
    assert taken["owner"] == 1 and taken["state"] == "growing"
    assert taken["cards"] == [FENTON[0], S1[0], S2[0], COPO[0], A2[0], A3[0]]
    assert [e["type"] for e in events] == ["chain_taken", "copolymerization"]
    assert events[1]["from_monomer"] == "styrene" and events[1]["to_monomer"] == "methyl_acrylate"
    view = GAME.view(state, None)["chains"][0]
    assert view["monomer"] == "methyl_acrylate" and view["composition"] == {
        "styrene": 3,
        "methyl_acrylate": 5,
    }
    # it is not terminated and can be taken back; it now grows with methyl acrylate only
    refused(state, 0, {"type": "propagate", "chain": 1, "cards": [S3[0]]}, "not_your_chain")


def test_after_a_copolymer_card_the_chain_grows_with_the_new_monomer() -> None:
    state = started([COPO[0], N2[0], S3[0], N3[0]], [S1[0], S2[0]])
    state = pass_turn(state, 1)
    state, _ = play(
        state, 0, {"type": "copolymerize", "card": COPO[0], "chain": 1, "monomers": [N2[0]]}
    )
    state = pass_turn(state, 1)
    refused(state, 0, {"type": "propagate", "chain": 1, "cards": [S3[0]]}, "wrong_monomer")
    state, _ = play(state, 0, {"type": "propagate", "chain": 1, "cards": [N3[0]]})


@pytest.mark.parametrize(
    ("monomers", "code"),
    [
        ([S2[1]], "same_monomer"),
        ([], "monomer_needed"),
        ([A1[0]], "breaks_sequence"),
        ([A2[0], M2[0]], "wrong_monomer"),
        ([A2[0], A2[1], A3[0]], "too_many_cards"),
    ],
)
def test_copolymer_refusals(monomers: list[int], code: str) -> None:
    state = started([], [S1[0], S2[0]], [COPO[0], S2[1], A1[0], A2[0], A2[1], A3[0], M2[0]])
    refused(
        state, 1, {"type": "copolymerize", "card": COPO[0], "chain": 1, "monomers": monomers}, code
    )


# ---------------------------------------------------------------- termination -------
def two_chains(hand0: list[int], hand1: list[int], **opts: Any) -> dict[str, Any]:
    """Seat 0 owns chain 1 (styrene 1, 2: 3 units); seat 1 owns chain 2 (MMA 1, 2: 3
    units); seat 0 to play."""
    state = started(hand0, [S1[0], S2[0]], [FENTON[1], M1[0], M2[0], *hand1], **opts)
    state, _ = play(state, 1, {"type": "initiate", "card": FENTON[1], "monomers": [[M1[0], M2[0]]]})
    return state


def test_termination_by_combination_joins_two_chains_into_one() -> None:
    state = two_chains([COMB[0]], [])
    state, events = play(
        state,
        0,
        {"type": "terminate", "card": COMB[0], "chains": [1, 2], "mechanism": "combination"},
    )
    assert [c["id"] for c in state["chains"]] == [1]
    joined = chain(state, 1)
    assert joined["owner"] == 0 and joined["state"] == "terminated"
    assert joined["cards"] == [FENTON[0], S1[0], S2[0], COMB[0], M2[0], M1[0], FENTON[1]]
    assert joined["ends"] == ["HO", "HO"] and joined["mechanism"] == "combination"
    assert [e["type"] for e in events] == ["chain_taken", "termination"]
    assert events[1]["joined"] == [1, 2] and events[1]["chains"][0]["units"] == 6
    assert state["zones"]["table"] == [] and len(state["zones"]["set_aside"][0]) == 7
    assert GAME.scores(state)["seats"][0]["monomers"] == 6


def test_termination_by_disproportionation_leaves_two_chains() -> None:
    state = two_chains([DISP[0]], [])
    state, events = play(
        state,
        0,
        {"type": "terminate", "card": DISP[0], "chains": [2, 1], "mechanism": "disproportionation"},
    )
    a, b = chain(state, 2), chain(state, 1)
    assert a["ends"] == ["HO", "H"] and b["ends"] == ["HO", "-H"]
    assert a["owner"] == b["owner"] == 0 and a["state"] == b["state"] == "terminated"
    assert DISP[0] in a["cards"]
    assert len(GAME.scores(state)["seats"][0]["chains"]) == 2
    assert "C=C" in events[-1]["explanation"]


def test_terminated_chains_cannot_be_modified_nor_taken() -> None:
    state = two_chains([DISP[0], S3[0]], [CTA[0], N1[0], COPO[0], A3[0]])
    state, _ = play(
        state,
        0,
        {"type": "terminate", "card": DISP[0], "chains": [1, 2], "mechanism": "disproportionation"},
    )
    err = refused(
        state,
        1,
        {"type": "transfer", "card": CTA[0], "chain": 1, "monomers": [N1[0]]},
        "chain_terminated",
    )
    assert err.rule == "Terminated polymer chains cannot be modified and not taken by opponents."
    refused(
        state,
        1,
        {"type": "copolymerize", "card": COPO[0], "chain": 2, "monomers": [A3[0]]},
        "chain_terminated",
    )
    state = pass_turn(state, 1)
    refused(state, 0, {"type": "propagate", "chain": 1, "cards": [S3[0]]}, "chain_terminated")


def test_two_chains_are_needed_for_termination() -> None:
    state = two_chains([COMB[0]], [])
    for chains in ([1], [1, 1], [1, 2, 3]):
        err = refused(
            state,
            0,
            {"type": "terminate", "card": COMB[0], "chains": chains, "mechanism": "combination"},
            "two_chains_needed",
        )
        assert err.rule == "Note that two polymer chains are needed to have termination."


def test_the_printed_mechanism_unless_either_is_allowed() -> None:
    move = {
        "type": "terminate",
        "card": COMB[0],
        "chains": [1, 2],
        "mechanism": "disproportionation",
    }
    refused(two_chains([COMB[0]], []), 0, move, "wrong_mechanism")
    state, _ = play(two_chains([COMB[0]], [], termination_mechanism="either"), 0, move)
    assert chain(state, 2)["ends"] == ["HO", "-H"]


def test_termination_scope() -> None:
    state = started([COMB[0], FENTON[2], N1[0]], [S1[0]], [FENTON[1], M1[0]])
    state, _ = play(state, 1, {"type": "initiate", "card": FENTON[1], "monomers": [[M1[0]]]})
    state, _ = play(state, 0, {"type": "initiate", "card": FENTON[2], "monomers": [[N1[0]]]})
    state = pass_turn(state, 1)
    # chains: 1 and 3 are seat 0's, 2 is seat 1's; seat 0 to play
    move = {"type": "terminate", "card": COMB[0], "chains": [1, 2], "mechanism": "combination"}
    assert GAME.can(drawn(state, 0), 0, move)
    own = {**state, "options": {**state["options"], "termination_scope": "own"}}
    refused(own, 0, move, "not_your_chain")
    assert GAME.can(drawn(own, 0), 0, {**move, "chains": [1, 3]})


def test_two_opponents_chains_need_scope_any() -> None:
    state = deal([[COMB[0]], [FENTON[0], S1[0], FENTON[1], M1[0]]])
    state = pass_turn(state, 0)
    state, _ = play(state, 1, {"type": "initiate", "card": FENTON[0], "monomers": [[S1[0]]]})
    state = pass_turn(state, 0)
    state, _ = play(state, 1, {"type": "initiate", "card": FENTON[1], "monomers": [[M1[0]]]})
    move = {"type": "terminate", "card": COMB[0], "chains": [1, 2], "mechanism": "combination"}
    refused(state, 0, move, "own_chain_needed")
    anyone = {**state, "options": {**state["options"], "termination_scope": "any"}}
    after, events = play(anyone, 0, move)
    assert chain(after, 1)["owner"] == 0 and [e["type"] for e in events].count("chain_taken") == 2


def test_a_capped_chain_cannot_be_terminated() -> None:
    state = two_chains([COMB[0]], [TEMPO[0]])
    state = pass_turn(state, 0)
    state, _ = play(state, 1, {"type": "cap", "card": TEMPO[0], "chain": 2})
    refused(
        state,
        0,
        {"type": "terminate", "card": COMB[0], "chains": [1, 2], "mechanism": "combination"},
        "chain_capped",
    )


# ---------------------------------------------------------------- the end -----------
def emptying(end: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Seat 1 (of 3) draws a styrene 2 and empties its hand with a three-card start."""
    state = deal([[], [FENTON[0], S1[0]], []], bare=(1,), end=end)
    state = pass_turn(state, 0)
    state = drawn(next_draw(state, S2[0]), 1)
    assert state["zones"]["hand"][1] == sorted([FENTON[0], S1[0], S2[0]])
    return GAME.apply(
        state, 1, {"type": "initiate", "card": FENTON[0], "monomers": [[S1[0], S2[0]]]}
    )


def test_immediate_end_when_a_hand_is_emptied() -> None:
    state, events = emptying("immediate")
    assert [e["type"] for e in events][-2:] == ["hand_emptied", "game_over"]
    assert GAME.outcome(state).finished and state["end_reason"] == "hand_emptied"
    assert GAME.to_act(state) == []
    refused(state, 2, {"type": "draw"}, "game_over")


def test_equal_turns_lets_the_lap_finish() -> None:
    state, events = emptying("equal_turns")
    assert events[-1]["type"] == "hand_emptied" and events[-1]["finish_lap"] is True
    assert GAME.to_act(state) == [2]
    state = pass_turn(state, 2)
    assert GAME.outcome(state).finished and state["ending"] == 1


def run_out(empty_stack: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Both seats draw and discard until the one-deck stack is empty."""
    options = {"deal": [[N3[0], N3[1]], [N2[0]]], "empty_stack": empty_stack, "decks": 1}
    state = GAME.setup(2, options, 5)
    events: list[dict[str, Any]] = []
    while state["zones"]["stack"] and state["phase"] != "over":
        seat = state["turn"]
        state, drew = GAME.apply(state, seat, {"type": "draw"})
        hand = state["zones"]["hand"][seat]
        state, more = GAME.apply(state, seat, {"type": "discard", "card": max(hand)})
        events += drew + more
    return state, events


def test_the_stack_running_out_ends_the_game_with_option_end() -> None:
    state, events = run_out("end")
    assert state["phase"] == "over" and state["end_reason"] == "stack_empty"
    assert [e["type"] for e in events][-4:] == [
        "card_drawn",
        "stack_empty",
        "card_discarded",
        "game_over",
    ]


def test_the_stack_running_out_plays_on_without_drawing() -> None:
    state, events = run_out("play_on")
    assert [e["type"] for e in events].count("stack_empty") == 1
    assert state["phase"] == "play" and not state["zones"]["stack"]
    seat = state["turn"]
    refused(state, seat, {"type": "draw"}, "stack_empty")
    hand = state["zones"]["hand"][seat]
    after, _ = GAME.apply(state, seat, {"type": "discard", "card": hand[0]})
    assert len(after["zones"]["hand"][seat]) == len(hand) - 1
    assert after["phase"] == "play" and after["turn"] != seat


def test_only_terminated_chains_count() -> None:
    state = started([TEMPO[0]], [S1[0], S2[0]])
    state = pass_turn(state, 1)
    state, _ = play(state, 0, {"type": "cap", "card": TEMPO[0], "chain": 1})
    assert GAME.scores(state)["seats"][0]["monomers"] == 0
    counted = {**state, "options": {**state["options"], "capped_count": True}}
    seat0 = GAME.scores(counted)["seats"][0]
    assert seat0["monomers"] == 3 and seat0["chains"][0]["end_groups"][1]["group"] == "C9H18NO"


# ---------------------------------------------------------------- Mn, Mw, PDI -------
STYRENE = formula_mass("C8H8")
MMA = formula_mass("C5H8O2")


def scored_game(**opts: Any) -> dict[str, Any]:
    """Seat 0 ends with two terminated chains: 3 styrene units (chain 1, CTA) and
    6 units, 3 styrene + 3 MMA (the combination)."""
    state = two_chains([CTA[0], S1[1], COMB[0], S2[1]], [], **opts)
    state, _ = play(
        state, 0, {"type": "transfer", "card": CTA[0], "chain": 1, "monomers": [S1[1], S2[1]]}
    )
    state = pass_turn(state, 1)
    state, _ = play(
        state,
        0,
        {"type": "terminate", "card": COMB[0], "chains": [3, 2], "mechanism": "combination"},
    )
    return state


def test_mn_mw_pdi_against_a_hand_computation() -> None:
    seat = GAME.scores(scored_game(scoring="molar_mass"))["seats"][0]
    m1 = 3 * STYRENE  # chain 1: styrene 1 + 2
    m2 = 3 * STYRENE + 3 * MMA  # chain 3 (styrene 1 + 2) joined with chain 2 (MMA 1 + 2)
    mn = (m1 + m2) / 2
    mw = (m1**2 + m2**2) / (m1 + m2)
    assert [c["mi"] for c in seat["chains"]] == pytest.approx([m1, m2])
    assert seat["mn"] == pytest.approx(mn) and seat["mw"] == pytest.approx(mw)
    assert seat["pdi"] == pytest.approx(mw / mn)
    assert (round(mn, 2), round(mw, 2), round(mw / mn, 3)) == (462.62, 511.37, 1.105)  # the doc
    assert seat["sum_n"] == 2 and seat["monomers"] == 9
    assert seat["arithmetic"]["mn"] == f"Mn = ({m1:.2f} + {m2:.2f}) / (1 + 1) = {mn:.2f} g/mol"
    assert seat["chains"][1]["terms"] == [
        {
            "monomer": "styrene",
            "units": 3,
            "molar_mass": STYRENE,
            "mass": pytest.approx(3 * STYRENE),
        },
        {
            "monomer": "methyl_methacrylate",
            "units": 3,
            "molar_mass": MMA,
            "mass": pytest.approx(3 * MMA),
        },
    ]


def test_the_view_shows_mn_mw_pdi_as_play_goes() -> None:
    """Before any chain is terminated a seat has no Mn; after the scored game, every
    view shows seat 0's two dead chains, their Mi, and the Mn, Mw and PDI /scores gives."""
    before = two_chains([CTA[0], S1[1], COMB[0], S2[1]], [])
    row = GAME.view(before, 1)["seats"][0]
    assert (row["counted"], row["mn"], row["mw"], row["pdi"]) == ([], None, None, None)
    assert [c["mi"] for c in GAME.view(before, 1)["chains"]] == pytest.approx(
        [3 * STYRENE, 3 * MMA]
    ), "a growing chain shows its Mi as it stands"
    state = scored_game()
    scores = GAME.scores(state)["seats"][0]
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        row = view["seats"][0]
        assert row["counted"] == [1, 3] == row["terminated"]
        assert (row["mn"], row["mw"], row["pdi"]) == (scores["mn"], scores["mw"], scores["pdi"])
        assert (round(row["mn"], 2), round(row["mw"], 2), round(row["pdi"], 3)) == (
            462.62,
            511.37,
            1.105,
        )
        mi = {c["id"]: c["mi"] for c in view["chains"]}
        assert [mi[1], mi[3]] == [c["mi"] for c in scores["chains"]]
        assert view["seats"][1]["mn"] is None


def test_the_view_counts_capped_chains_with_capped_count() -> None:
    for capped_count in (False, True):
        state = started([TEMPO[0]], [S1[0], S2[0]], capped_count=capped_count)
        state = pass_turn(state, 1)
        state, _ = play(state, 0, {"type": "cap", "card": TEMPO[0], "chain": 1})
        row = GAME.view(state, None)["seats"][0]
        assert row["counted"] == ([1] if capped_count else [])
        assert (row["mn"] is None) is not capped_count
        if capped_count:
            assert row["mn"] == row["mw"] == pytest.approx(3 * STYRENE) and row["pdi"] == 1.0


def test_the_view_names_every_monomer_and_initiator_with_its_structure() -> None:
    view = GAME.view(GAME.setup(2, {}, seed=1), None)
    assert [(m["key"], m["formula"], m["smiles"]) for m in view["monomers"]] == [
        ("styrene", "C8H8", "C=Cc1ccccc1"),
        ("methyl_methacrylate", "C5H8O2", "C=C(C)C(=O)OC"),
        ("methyl_acrylate", "C4H6O2", "C=CC(=O)OC"),
        ("acrylonitrile", "C3H3N", "C=CC#N"),
    ]
    assert view["monomers"][0]["molar_mass"] == STYRENE
    assert [(i["key"], i["compound"], i["radicals"]) for i in view["initiators"]] == [
        ("fenton", "hydrogen peroxide", 1),
        ("aibn", "2,2'-azobis(2-methylpropanenitrile)", 2),
    ]


def test_a_joker_in_hand_is_flagged() -> None:
    state = deal([[TEMPO[0], CTA[0], COMB[0], COPO[0], S1[0], FENTON[0]], []])
    hand = GAME.view(state, 0)["you"]["hand"]["cards"]
    assert {c["key"]: c["joker"] for c in hand} == {
        "tempo": True,
        "cta": True,
        "combination": True,
        "copolymer": True,
        "styrene": False,
        "fenton": False,
        # the fillers (deal): monomers
        "acrylonitrile": False,
        "methyl_methacrylate": False,
    }


def test_end_groups_can_be_added_to_mi() -> None:
    seat = GAME.scores(scored_game(end_groups=True))["seats"][0]
    cta_fragment, ho, h = formula_mass("C12H25S"), formula_mass("HO"), formula_mass("H")
    assert seat["chains"][0]["mi"] == pytest.approx(3 * STYRENE + ho + h)
    assert seat["chains"][1]["mi"] == pytest.approx(3 * STYRENE + 3 * MMA + cta_fragment + ho)
