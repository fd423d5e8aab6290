"""Metal vs. Non-Metal: every rule and every worked example of the seed.

Hands are fixed with the `deal` option (ion labels, 6 per seat) and the first draws
with `ion_deck_top`; seat 0 initiates unless a test says otherwise. Seats play
counterclockwise, so the responding player is the seat numbered one lower.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rules.core import RuleViolation, events_for
from rules.metal_vs_nonmetal import GAME
from rules.metal_vs_nonmetal.table import LAYOUT, deck_of

State = dict[str, Any]
Events = list[dict[str, Any]]

FILLER_CATIONS = ["Na+", "Na+", "Ca2+", "Ca2+", "Al3+", "Al3+"]


def table(*hands: list[str], top: list[str] | None = None, **options: Any) -> State:
    """A game with fixed hands; seat 0 initiates (the responder is the last seat)."""
    opts = {"start_player": 0, "deal": [list(h) for h in hands], "ion_deck_top": top}
    return GAME.setup(len(hands), {**opts, **options}, seed=3)


def ids(state: State, seat: int, label: str, n: int | None = None) -> list[int]:
    deck = deck_of(state)
    held = [c for c in sorted(state["zones"]["hand"][seat]) if deck.face(c)["ion"] == label]
    if n is not None:
        assert len(held) >= n, f"seat {seat} holds {len(held)} {label}"
        return held[:n]
    return held


def labels(state: State, cards: list[int]) -> Counter[str]:
    deck = deck_of(state)
    return Counter(deck.face(c)["ion"] for c in cards)


def play(state: State, seat: int, label: str) -> tuple[State, Events]:
    return GAME.apply(state, seat, {"type": "play", "card": ids(state, seat, label, 1)[0]})


def respond(state: State, seat: int, label: str, n: int) -> tuple[State, Events]:
    return GAME.apply(state, seat, {"type": "respond", "cards": ids(state, seat, label, n)})


def refused(state: State, seat: int, move: dict[str, Any]) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.apply(state, seat, move)
    return err.value


def answers(state: State, seat: int) -> list[str]:
    """The legal answers as '2 Cl-' texts."""
    out = []
    for move in GAME.legal_moves(state, seat):
        count = labels(state, move["cards"])
        ((label, n),) = count.items()
        out.append(f"{n} {label}")
    return out


def event(events: Events, kind: str) -> dict[str, Any]:
    found = [e for e in events if e["type"] == kind]
    assert len(found) == 1, [e["type"] for e in events]
    return found[0]


def collection(state: State, seat: int) -> Counter[str]:
    return labels(state, state["zones"]["collection"][seat])


# ------------------------------------------------------------------ set up -----------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_six_cards_each_and_the_rest_is_the_ion_deck(players: int) -> None:
    state = GAME.setup(players, {}, seed=players)
    zones = state["zones"]
    assert [len(h) for h in zones["hand"]] == [6] * players
    assert len(zones["ion_deck"]) == 40 - 6 * players
    assert GAME.info.player_counts[players] == {"hand_size": 6, "ion_deck": 40 - 6 * players}
    GAME.check(state)


@pytest.mark.parametrize("players", [1, 5, 0])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(RuleViolation) as err:
        GAME.setup(players, {}, seed=1)
    assert err.value.code == "bad_players"


def test_the_start_player_is_drawn_by_the_games_own_generator() -> None:
    starts = {GAME.setup(4, {}, seed=s)["start_player"] for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert GAME.setup(4, {}, seed=9) == GAME.setup(4, {}, seed=9)
    state = GAME.setup(4, {}, seed=9)
    assert GAME.to_act(state) == [state["start_player"]] == [state["initiator"]]
    assert "rng" not in GAME.view(state, None) and state["rng"]["key"] not in repr(
        GAME.view(state, state["start_player"])
    )


def test_a_teacher_may_fix_the_start_player() -> None:
    assert GAME.setup(3, {"start_player": 2}, seed=1)["initiator"] == 2
    for bad in (3, -1, "0", True):
        with pytest.raises(RuleViolation) as err:
            GAME.setup(3, {"start_player": bad}, seed=1)
        assert err.value.code == "bad_option"


@pytest.mark.parametrize(
    ("deal", "why"),
    [
        ([["Na+"] * 6, ["Cl-"] * 6, ["O2-"] * 6], "2 hands"),
        # the deal's shape is checked by the option's declaration (issue 16), with the
        # deal's own code over HTTP and in the rules
        ([["Na+"] * 6], "deal: Length must be between 2 and 4"),
        ([["Na+"] * 6, ["Cl-"] * 5], "deal[1]: Length must be 6"),
        ([["Na+"] * 6, ["Na+"] * 6], "only 8 Na+"),
        ([["Na+"] * 6, ["K+"] * 6], '"K+" is not a card'),
        ([["Na+"] * 6, "Cl-"], "deal[1]: Not a valid list"),
    ],
)
def test_a_fixed_deal_is_checked(deal: list[Any], why: str) -> None:
    with pytest.raises(RuleViolation) as err:
        GAME.setup(2, {"deal": deal}, seed=1)
    assert err.value.code == "bad_deal" and why in err.value.message


def test_ion_deck_top_fixes_the_first_draws_in_order() -> None:
    state = table(["Na+"] * 6, ["Cl-"] * 6, top=["O2-", "N3-"])
    state, events = play(state, 0, "Na+")
    drawn = event(events, "cards_drawn")
    assert drawn["private"][0]["cards"][0]["ion"] == "O2-" and "cards" not in drawn
    assert labels(state, state["zones"]["ion_deck"][-1:]) == {"N3-": 1}


# ------------------------------------------------------------------ order ------------
def test_play_goes_counterclockwise_the_responder_initiates_next() -> None:
    state = GAME.setup(4, {"start_player": 2}, seed=5)
    assert (state["initiator"], state["responder"]) == (2, 1)
    seen = []
    for _ in range(4):
        seen.append(state["initiator"])
        exchange = state["exchange"]
        while state["exchange"] == exchange:
            seat = GAME.to_act(state)[0]
            move, state = GAME.bot_move(state, seat, "greedy")
            state, _ = GAME.apply(state, seat, move)
    assert seen == [2, 1, 0, 3]


def test_moves_out_of_turn_or_out_of_step_are_refused() -> None:
    state = table(FILLER_CATIONS, ["Cl-"] * 6)
    err = refused(state, 1, {"type": "play", "card": ids(state, 1, "Cl-")[0]})
    assert err.code == "not_your_turn" and "seat 0" in err.message
    err = refused(state, 0, {"type": "respond", "cards": ids(state, 0, "Na+", 1)})
    assert err.code == "wrong_step" and "play" in err.message
    err = refused(state, 0, {"type": "play", "card": ids(state, 1, "Cl-")[0]})
    assert err.code == "not_in_hand" and "Cl-" in err.message
    assert GAME.legal_moves(state, 1) == []


@pytest.mark.parametrize(
    "move",
    [
        {"type": "play"},
        {"type": "play", "card": "Na+"},
        {"type": "play", "card": 1, "cards": [1]},
        {"type": "respond", "cards": []},
        {"type": "respond", "cards": [9, 9]},
        {"type": "respond", "cards": [1, 2, 3, 4, 5, 6, 7]},
        {"type": "reinforce", "cards": "9"},
        {"type": "decline", "card": 1},
    ],
)
def test_malformed_moves_are_refused(move: dict[str, Any]) -> None:
    assert refused(table(FILLER_CATIONS, ["Cl-"] * 6), 0, move).code == "bad_move"


def test_unknown_moves_are_refused() -> None:
    err = refused(table(FILLER_CATIONS, ["Cl-"] * 6), 0, {"type": "pass"})
    assert err.code == "unknown_move" and "respond" in err.message


# ------------------------------------------------------------------ step 2-3 ---------
def test_the_initiating_card_can_be_anything_and_is_replaced_at_once() -> None:
    state = table(["Na+", "Cl-", "Ca2+", "O2-", "Al3+", "N3-"], ["Al3+", *["Cl-"] * 5], top=["O2-"])
    assert len(GAME.legal_moves(state, 0)) == 6
    state, events = play(state, 0, "N3-")
    assert [e["type"] for e in events] == ["card_played", "cards_drawn"]
    played = events[0]
    assert played["ion"] == "N3-" and played["name"] == "nitride ion"
    assert played["answers"] == [
        {"ion": "Na+", "count": 3, "total": 3},
        {"ion": "Ca2+", "count": 3, "total": 6},
        {"ion": "Al3+", "count": 1, "total": 3},
    ]
    assert len(state["zones"]["hand"][0]) == 6 and GAME.to_act(state) == [1]


# ------------------------------------------------------------------ step 4 -----------
def test_step_4_example_1_calcium_is_answered_by_2_cl_1_o_or_2_n() -> None:
    state = table(FILLER_CATIONS, ["Cl-", "Cl-", "O2-", "N3-", "N3-", "Na+"])
    state, _ = play(state, 0, "Ca2+")
    assert answers(state, 1) == ["2 Cl-", "1 O2-", "2 N3-"]
    for label, n in (("Cl-", 2), ("O2-", 1), ("N3-", 2)):
        _after, events = respond(state, 1, label, n)
        assert event(events, "responded")["kind"] == "regular"


def test_step_4_example_2_nitride_is_answered_by_3_na_3_ca_or_1_al() -> None:
    responder = ["Na+", "Na+", "Na+", "Ca2+", "Ca2+", "Ca2+"]
    state = table(["N3-", "Cl-", "Cl-", "O2-", "O2-", "O2-"], responder)
    state, _ = play(state, 0, "N3-")
    assert answers(state, 1) == ["3 Na+", "3 Ca2+"]
    state2 = table(
        ["N3-", "O2-", "Cl-", "Cl-", "O2-", "O2-"], ["Al3+", "Na+", "Na+", "Ca2+", "Ca2+", "Cl-"]
    )
    state2, _ = play(state2, 0, "N3-")
    assert answers(state2, 1) == ["1 Al3+"]


def test_step_4_example_2_misprint_3_oxide_breaks_rule_i() -> None:
    """The seed lists "3 O2-" as an answer to N3-: both are negative, so rule (i)
    forbids it. The answer meant is 3 Ca2+ (a power play, step 5 example 3)."""
    state = table(["N3-", *FILLER_CATIONS[:5]], ["O2-", "O2-", "O2-", "Ca2+", "Ca2+", "Ca2+"])
    state, _ = play(state, 0, "N3-")
    err = refused(state, 1, {"type": "respond", "cards": ids(state, 1, "O2-", 3)})
    assert err.code == "wrong_charge_sign" and err.message.startswith("Rule (i)")
    assert "Legal now: 3 Ca2+" in err.message
    assert err.details["legal"] == [{"ion": "Ca2+", "count": 3, "total": 6}]


def test_rule_ii_one_ion_only() -> None:
    """The seed's own example: you can't play a Cl- and an O2-."""
    state = table(FILLER_CATIONS, ["Cl-", "O2-", "Cl-", "O2-", "Na+", "Na+"])
    state, _ = play(state, 0, "Ca2+")
    mixed = ids(state, 1, "Cl-", 1) + ids(state, 1, "O2-", 1)
    err = refused(state, 1, {"type": "respond", "cards": mixed})
    assert err.code == "mixed_ions" and err.message.startswith("Rule (ii)")
    assert "Legal now: 2 Cl- or 1 O2-" in err.message


@pytest.mark.parametrize(
    ("label", "n", "why"),
    [("Cl-", 1, "played 1 Cl-"), ("O2-", 2, "played 2 O2-"), ("Cl-", 3, "played 3 Cl-")],
)
def test_rule_iii_count_equals_the_charge_number_unless_the_same(
    label: str, n: int, why: str
) -> None:
    state = table(FILLER_CATIONS, ["Cl-", "Cl-", "Cl-", "O2-", "O2-", "Na+"])
    state, _ = play(state, 0, "Ca2+")
    err = refused(state, 1, {"type": "respond", "cards": ids(state, 1, label, n)})
    assert err.code == "wrong_count" and err.message.startswith("Rule (iii)")
    assert why in err.message and "Legal now: 2 Cl- or 1 O2-" in err.message


def test_advanced_ruling_1_example_3_sodium_is_answered_by_any_one_anion() -> None:
    """Na+ (+1) against a hand of only N3- and O2-: step 4 describes 1 O2- or 1 N3-,
    so the rulings do not apply; either is a power play (step 5)."""
    state = table(
        ["Na+", "Na+", "Na+", "Ca2+", "Ca2+", "Al3+"], ["N3-", "O2-", *FILLER_CATIONS[:4]]
    )
    state, _ = play(state, 0, "Na+")
    assert answers(state, 1) == ["1 O2-", "1 N3-"]
    after, events = respond(state, 1, "O2-", 1)
    assert event(events, "responded")["kind"] == "regular"
    power = event(events, "power_play")
    assert (power["initiator_total"], power["responder_total"], power["difference"]) == (1, -2, 1)
    assert power["reinforcement"] == {"ion": "Na+", "count": 1}
    assert GAME.to_act(after) == [0]


def test_advanced_ruling_1_plus_one_against_every_anion() -> None:
    """ "if +1 was the charge played, you can play 1 card of Cl-, O2-, or N3-"."""
    state = table(FILLER_CATIONS, ["Cl-", "O2-", "N3-", "Na+", "Ca2+", "Al3+"])
    state, _ = play(state, 0, "Na+")
    assert answers(state, 1) == ["1 Cl-", "1 O2-", "1 N3-"]


# ------------------------------------------------------------------ step 5 -----------
def test_step_5_example_1_nitride_against_one_aluminium_initiator_collects_2() -> None:
    state = table(["N3-", *FILLER_CATIONS[:5]], ["Al3+", "Cl-", "Cl-", "O2-", "O2-", "Na+"])
    state, _ = play(state, 0, "N3-")
    state, events = respond(state, 1, "Al3+", 1)
    settled = event(events, "exchange_settled")
    assert settled["result"] == "balanced" and settled["collector"] == 0
    assert settled["neutral"] and settled["equation"] == "Al3+ + N3- -> AlN"
    assert settled["formula_units"] == 1
    assert settled["compound"]["name"] == "aluminium nitride"
    assert collection(state, 0) == {"N3-": 1, "Al3+": 1}
    assert "aluminium nitride" in settled["explanation"]


def test_step_5_example_2_one_sodium_against_nitride_initiator_collects_2() -> None:
    """The responder "has no other positive ions, so plays 1 Na+" (advanced ruling 1);
    it draws, the card is not Na+, and player 1 collects the 2 cards."""
    state = table(
        ["N3-", "Cl-", "Cl-", "O2-", "O2-", "Na+"],
        ["Na+", "Cl-", "Cl-", "O2-", "O2-", "N3-"],
        top=["Cl-", "Cl-"],
    )
    state, _ = play(state, 0, "N3-")
    assert answers(state, 1) == ["1 Na+"]
    state, events = respond(state, 1, "Na+", 1)
    assert event(events, "responded")["kind"] == "partial"
    assert event(events, "forced_draws_ended")["reason"] == "different_ion"
    settled = event(events, "exchange_settled")
    assert settled["result"] == "initiator_higher" and settled["collector"] == 0
    assert (settled["stronger"], settled["difference"]) == ("initiator", 2)
    assert not settled["neutral"] and settled["compound"]["formula"] == "Na3N"
    assert settled["formula_units"] == 0 and settled["equation"] is None
    assert collection(state, 0) == {"N3-": 1, "Na+": 1}
    assert "2 more" in settled["explanation"]


def example_3() -> State:
    state = table(
        ["N3-", "N3-", "Cl-", "O2-", "O2-", "Cl-"],
        ["Ca2+", "Ca2+", "Ca2+", "Cl-", "O2-", "Na+"],
        top=["Cl-", "Cl-", "O2-", "O2-"],
    )
    state, _ = play(state, 0, "N3-")
    state, events = respond(state, 1, "Ca2+", 3)
    power = event(events, "power_play")
    assert (power["initiator_total"], power["responder_total"], power["difference"]) == (-3, 6, 3)
    assert "power play" in power["explanation"]
    return state


def test_step_5_example_3_one_more_nitride_balances_and_collects_5() -> None:
    """2 x (-3) = -6 against 3 x (+2) = +6 (the seed prints "+2": a misprint)."""
    state = example_3()
    view = GAME.view(state, 1)["exchange"]
    assert view["reinforcement"] == {"ion": "N3-", "count": 1, "difference": 3}
    assert {"type": "reinforce", "cards": ids(state, 0, "N3-")} in GAME.legal_moves(state, 0)
    state, events = GAME.apply(state, 0, {"type": "reinforce", "cards": ids(state, 0, "N3-")})
    assert event(events, "reinforced")["total"] == -6
    settled = event(events, "exchange_settled")
    assert settled["result"] == "reinforced" and settled["collector"] == 0
    assert settled["initiator"]["total"] == -6 and settled["responder"]["total"] == 6
    assert settled["equation"] == "3 Ca2+ + 2 N3- -> Ca3N2"
    assert settled["compound"]["name"] == "calcium nitride"
    assert len(settled["collected"]["cards"]) == 5
    assert collection(state, 0) == {"N3-": 2, "Ca2+": 3}
    # the initiating player replenishes up to 6 first, then the responding player
    drawn = [e["seat"] for e in events if e["type"] == "cards_drawn"]
    assert drawn == [0, 1]
    assert [len(h) for h in state["zones"]["hand"]] == [6, 6]


def test_step_5_example_3_unable_to_reinforce_responder_collects_all_cards() -> None:
    """Step 5: "the responding player collects all the cards in play" (the default)."""
    state = example_3()
    state, events = GAME.apply(state, 0, {"type": "decline"})
    settled = event(events, "exchange_settled")
    assert settled["result"] == "power_play" and settled["collector"] == 1
    assert collection(state, 1) == {"Ca2+": 3, "N3-": 1}
    assert "1 more N3- would have brought its total to -6" in settled["explanation"]


def test_step_5_example_3_reading_responder_collects_the_3_cards() -> None:
    """Example 3's "player 2 collects the 3 cards", as option power_play_prize."""
    state = table(
        ["N3-", "Cl-", "Cl-", "O2-", "O2-", "Cl-"],
        ["Ca2+", "Ca2+", "Ca2+", "Cl-", "O2-", "Na+"],
        top=["Cl-"],
        power_play_prize="responder_cards",
    )
    state, _ = play(state, 0, "N3-")
    state, _ = respond(state, 1, "Ca2+", 3)
    assert [m["type"] for m in GAME.legal_moves(state, 0)] == ["decline"]  # no N3- left
    state, events = GAME.apply(state, 0, {"type": "decline"})
    settled = event(events, "exchange_settled")
    assert collection(state, 1) == {"Ca2+": 3}
    assert labels(state, state["zones"]["set_aside"]) == {"N3-": 1}
    assert len(settled["set_aside"]["cards"]) == 1 and "count for nobody" in settled["explanation"]
    assert GAME.scores(state)["set_aside"] == 1


def test_one_collected_card_is_1_card() -> None:
    """Counts in explanations agree with their nouns: "the 1 card", never "1 cards"."""
    state = table(
        ["Na+", "Ca2+", "Ca2+", "Al3+", "Al3+", "Ca2+"],
        ["O2-", "Na+", "Na+", "Ca2+", "Al3+", "Na+"],
        top=["Ca2+"],
        power_play_prize="responder_cards",
    )
    state, _ = play(state, 0, "Na+")
    state, _ = respond(state, 1, "O2-", 1)
    state, events = GAME.apply(state, 0, {"type": "decline"})
    text = event(events, "exchange_settled")["explanation"]
    assert "collects the 1 card it played; seat 0's 1 card is set aside" in text


def test_reinforcements_must_be_the_lead_ion_and_the_fewest_cards() -> None:
    state = table(
        ["Na+", "Na+", "Na+", "Na+", "Ca2+", "Cl-"],
        ["N3-", "Cl-", "O2-", "Na+", "Ca2+", "Al3+"],
    )
    state, _ = play(state, 0, "Na+")
    state, _ = respond(state, 1, "N3-", 1)  # -3 against +1: 2 more Na+ balance
    err = refused(state, 0, {"type": "reinforce", "cards": ids(state, 0, "Ca2+")})
    assert err.code == "reinforcement_ion" and "same ion as your first card, Na+" in err.message
    err = refused(state, 0, {"type": "reinforce", "cards": ids(state, 0, "Na+", 1)})
    assert err.code == "reinforcement_count" and "only to +2 against -3" in err.message
    err = refused(state, 0, {"type": "reinforce", "cards": ids(state, 0, "Na+", 3)})
    assert err.code == "reinforcement_count" and "more than the 2 needed" in err.message
    err = refused(state, 0, {"type": "play", "card": ids(state, 0, "Na+")[0]})
    assert err.code == "wrong_step"
    state, events = GAME.apply(state, 0, {"type": "reinforce", "cards": ids(state, 0, "Na+", 2)})
    assert event(events, "exchange_settled")["equation"] == "3 Na+ + N3- -> Na3N"


def test_reinforcing_is_an_option_declining_is_always_allowed() -> None:
    state = example_3()
    moves = GAME.legal_moves(state, 0)
    assert [m["type"] for m in moves] == ["reinforce", "decline"]
    # the step does not reveal whether the initiating player could reinforce
    assert GAME.to_act(state) == [0]


# ------------------------------------------------------------------ ruling 1 ---------
def ruling_1_example_1(top: list[str]) -> State:
    """Ca2+ against a hand with one Cl- and one N3- (and cations)."""
    state = table(FILLER_CATIONS, ["Cl-", "N3-", "Na+", "Na+", "Ca2+", "Al3+"], top=["O2-", *top])
    state, _ = play(state, 0, "Ca2+")
    return state


def test_advanced_ruling_1_example_1_only_the_chloride_not_the_nitride() -> None:
    state = ruling_1_example_1(["Na+"])
    assert answers(state, 1) == ["1 Cl-"]
    err = refused(state, 1, {"type": "respond", "cards": ids(state, 1, "N3-")})
    assert err.code == "charge_too_high" and err.message.startswith("Advanced ruling 1")
    assert "Legal now: 1 Cl-" in err.message
    state, events = respond(state, 1, "Cl-", 1)
    assert event(events, "responded")["kind"] == "partial"
    assert event(events, "forced_draws_ended")["reason"] == "different_ion"
    settled = event(events, "exchange_settled")
    assert settled["collector"] == 0 and settled["result"] == "initiator_higher"
    assert len(state["zones"]["hand"][1]) == 6  # drew 1 card to replenish the hand of 6


def test_advanced_ruling_1_a_drawn_chloride_must_be_played() -> None:
    """ "if the next card you drew was Cl-, then you must play the new Cl- that you drew"."""
    state = ruling_1_example_1(["Cl-", "Na+"])
    state, events = respond(state, 1, "Cl-", 1)
    forced = event(events, "forced_play")
    assert forced["cards"][0]["ion"] == "Cl-" and forced["total"] == -2
    assert event(events, "forced_draws_ended") == {
        "type": "forced_draws_ended",
        "seat": 1,
        "reason": "neutralised",
        "forced": 1,
    }
    settled = event(events, "exchange_settled")
    assert settled["result"] == "balanced" and settled["forced_plays"] == 1
    assert settled["equation"] == "Ca2+ + 2 Cl- -> CaCl2"
    assert "drew and had to play 1 more Cl-" in settled["explanation"]


def test_the_forced_loop_repeats_until_the_charge_is_neutralised() -> None:
    state = table(
        ["Al3+", *FILLER_CATIONS[:5]],
        ["Cl-", "Na+", "Na+", "Ca2+", "Ca2+", "Al3+"],
        top=["O2-", "Cl-", "Cl-", "Cl-"],
    )
    state, _ = play(state, 0, "Al3+")
    state, events = respond(state, 1, "Cl-", 1)
    assert [e["total"] for e in events if e["type"] == "forced_play"] == [-2, -3]
    assert event(events, "exchange_settled")["equation"] == "Al3+ + 3 Cl- -> AlCl3"
    # the third Cl- stays on the Ion Deck: the charge was neutralised
    assert labels(state, state["zones"]["hand"][1]).get("Cl-", 0) == 1


def test_a_forced_play_can_overshoot_into_a_power_play() -> None:
    state = table(
        ["Al3+", "Al3+", "Na+", "Na+", "Ca2+", "Ca2+"],
        ["O2-", "Na+", "Na+", "Ca2+", "Ca2+", "Al3+"],
        top=["Cl-", "O2-"],
    )
    state, _ = play(state, 0, "Al3+")
    state, events = respond(state, 1, "O2-", 1)
    assert event(events, "forced_play")["total"] == -4
    assert event(events, "power_play")["reinforcement"] == {"ion": "Al3+", "count": 1}
    state, events = GAME.apply(state, 0, {"type": "reinforce", "cards": ids(state, 0, "Al3+")})
    settled = event(events, "exchange_settled")
    assert settled["result"] == "reinforced" and not settled["neutral"]
    assert (settled["stronger"], settled["difference"]) == ("initiator", 2)
    assert settled["compound"]["formula"] == "Al2O3"


def test_same_charge_means_the_same_ion() -> None:
    """With a teacher's deck holding Na+ and K+ (both +1), a drawn K+ after a short
    Na+ answer ends the loop: rule (ii) keeps an answer to one ion."""
    ions = {"Na+": 3, "K+": 3, "Ca2+": 3, "N3-": 2, "Cl-": 6}
    state = table(
        ["N3-", "Cl-", "Cl-", "Cl-", "Ca2+", "Ca2+"],
        ["Na+", "Cl-", "Cl-", "Cl-", "N3-", "Ca2+"],
        top=["K+"],
        ions=ions,
    )
    state, _ = play(state, 0, "N3-")
    state, events = respond(state, 1, "Na+", 1)
    assert event(events, "forced_draws_ended")["reason"] == "different_ion"
    assert labels(state, state["zones"]["hand"][1])["K+"] == 1


def test_play_what_you_have_all_of_that_ion() -> None:
    state = table(
        ["Al3+", *FILLER_CATIONS[:5]],
        ["Cl-", "Cl-", "Na+", "Ca2+", "Ca2+", "Al3+"],
        top=["O2-", "Na+"],
    )
    state, _ = play(state, 0, "Al3+")
    assert answers(state, 1) == ["2 Cl-"]
    err = refused(state, 1, {"type": "respond", "cards": ids(state, 1, "Cl-", 1)})
    assert err.code == "wrong_count" and "all 2 of your Cl-" in err.message


def test_the_rulings_do_not_apply_when_step_4_answers_exist() -> None:
    state = table(FILLER_CATIONS, ["Cl-", "O2-", "Na+", "Na+", "Ca2+", "Al3+"])
    state, _ = play(state, 0, "Ca2+")
    err = refused(state, 1, {"type": "respond", "cards": ids(state, 1, "Cl-")})
    assert err.code == "wrong_count" and "does not apply" in err.message


def test_a_short_answer_that_beats_the_lead_is_a_power_play_without_draws() -> None:
    state = table(
        ["Al3+", *FILLER_CATIONS[:5]],
        ["O2-", "O2-", "Na+", "Ca2+", "Ca2+", "Al3+"],
        top=["Na+"],
    )
    state, _ = play(state, 0, "Al3+")
    assert answers(state, 1) == ["2 O2-"]
    state, events = respond(state, 1, "O2-", 2)
    assert [e["type"] for e in events] == ["responded", "power_play"]


def no_play_table(seed: int, **options: Any) -> State:
    return GAME.setup(
        2,
        {
            "start_player": 0,
            "deal": [FILLER_CATIONS, ["Na+", "Na+", "Ca2+", "Al3+", "Al3+", "N3-"]],
            **options,
        },
        seed=seed,
    )


def test_advanced_ruling_1_example_2_no_possible_play() -> None:
    """Ca2+ against only cations and one N3-: the initiating player takes a random card
    of the responder's hand and collects it with its card; the responder draws 1."""
    state = no_play_table(1)
    assert GAME.to_act(state) == [0]
    lead = ids(state, 0, "Ca2+", 1)[0]
    state, events = play(state, 0, "Ca2+")
    taken = event(events, "card_taken")
    assert taken["seat"] == 0 and taken["from_seat"] == 1 and taken["count"] == 1
    # into a face-down collection: only the seat it was taken from knows the card
    assert "cards" not in taken and list(taken["private"]) == [1]
    (card,) = taken["private"][1]["cards"]
    assert [e.get("cards") for e in events_for(events, 0) if e["type"] == "card_taken"] == [None]
    settled = event(events, "exchange_settled")
    assert settled["collected"] == {"seat": 0, "count": 2, "cards": [lead]}
    assert "a random card from its hand, face down, and collects it" in settled["explanation"]
    assert card["ion"] not in settled["explanation"].split("Ca2+")[-1]
    assert settled["result"] == "no_response" and settled["collector"] == 0
    assert settled["responder"] is None and settled["compound"] is None
    assert "no answer to Ca2+" in settled["explanation"]
    assert "nor any Cl-" in settled["explanation"]
    assert len(state["zones"]["collection"][0]) == 2
    assert [len(h) for h in state["zones"]["hand"]] == [6, 6]
    assert event(events, "exchange_started")["initiator"] == 1
    assert state["history"][0]["result"] == "no_response"


def test_with_collections_face_up_the_card_taken_is_shown_to_everyone() -> None:
    state, events = play(no_play_table(1, collected="face_up"), 0, "Ca2+")
    (card,) = event(events, "card_taken")["cards"]
    settled = event(events, "exchange_settled")
    assert settled["collected"]["count"] == 2 and card["id"] in settled["collected"]["cards"]
    assert f"a random card from its hand, {card['ion']} (" in settled["explanation"]
    assert GAME.scores(state)["seats"][0]["by_ion"] == dict(Counter(["Ca2+", card["ion"]]))


def test_the_random_card_comes_from_the_games_generator() -> None:
    def taken(seed: int) -> str:
        _, events = play(no_play_table(seed), 0, "Ca2+")
        return str(event(events, "card_taken")["private"][1]["cards"][0]["ion"])

    assert taken(4) == taken(4)
    assert {taken(s) for s in range(30)} == {"Na+", "Ca2+", "Al3+", "N3-"}


# ------------------------------------------------------------------ ruling 2 ---------
def test_advanced_ruling_2_draws_initiator_first_until_the_deck_runs_out() -> None:
    ions = {"Na+": 6, "Ca2+": 1, "Cl-": 6, "O2-": 1}
    state = table(
        ["Na+", "Na+", "Na+", "Na+", "Na+", "Cl-"],
        ["O2-", "Cl-", "Cl-", "Cl-", "Cl-", "Ca2+"],
        top=["Cl-", "Na+"],
        ions=ions,
    )
    state, _ = play(state, 0, "Na+")
    state, _ = respond(state, 1, "O2-", 1)
    state, events = GAME.apply(state, 0, {"type": "reinforce", "cards": ids(state, 0, "Na+", 1)})
    assert event(events, "exchange_settled")["equation"] == "2 Na+ + O2- -> Na2O"
    assert event(events, "cards_drawn")["seat"] == 0  # the last card goes to the initiator
    assert [len(h) for h in state["zones"]["hand"]] == [6, 5]
    assert state["zones"]["ion_deck"] == []


def test_the_game_ends_when_no_more_plays_can_be_made() -> None:
    """Deck empty from the start (a 12-card deck for 2 players): hands shrink every
    exchange; when fewer than two seats hold cards the game is over and the cards
    left are set aside, counting for nobody."""
    ions = {"Na+": 3, "Cl-": 3, "Ca2+": 3, "O2-": 3}
    state = GAME.setup(2, {"ions": ions, "start_player": 0}, seed=11)
    exchanges = 0
    events: Events = []
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        move, state = GAME.bot_move(state, seat, "random")
        state, events = GAME.apply(state, seat, move)
        GAME.check(state)
        exchanges = state["exchange"]
    assert exchanges <= 6  # each exchange removes at least 2 of the 12 cards from hands
    over = event(events, "game_over")
    zones = state["zones"]
    assert not any(zones["hand"]) and not any(zones["in_play"]) and zones["ion_deck"] == []
    assert over["collected"] == [len(c) for c in zones["collection"]]
    assert over["unused"] == len(zones["set_aside"]) == 12 - sum(over["collected"])
    assert GAME.to_act(state) == [] and GAME.legal_moves(state, 0) == []
    err = refused(state, 0, {"type": "decline"})
    assert err.code == "game_over"


def test_seats_without_cards_are_passed_over() -> None:
    ions = {"Na+": 6, "Cl-": 6, "Ca2+": 3, "O2-": 3}
    state = GAME.setup(
        3,
        {
            "ions": ions,
            "start_player": 0,
            "deal": [
                ["Na+", "Na+", "Ca2+", "Ca2+", "Na+", "Na+"],
                ["Cl-", "Cl-", "O2-", "Na+", "Ca2+", "Cl-"],
                ["Cl-", "O2-", "O2-", "Cl-", "Cl-", "Na+"],
            ],
        },
        seed=2,
    )
    assert state["responder"] == 2
    # seat 2 already collected 5 of its cards in earlier exchanges (a constructed state)
    keep = ids(state, 2, "Cl-", 1)
    rest = [c for c in state["zones"]["hand"][2] if c not in keep]
    state["zones"] = LAYOUT.move(state["zones"], ("hand", 2), ("collection", 2), rest)
    GAME.check(state)
    state, _ = play(state, 0, "Na+")
    state, events = respond(state, 2, "Cl-", 1)
    started = event(events, "exchange_started")
    # seat 2 would initiate next, but it holds no card: seat 1 does, against seat 0
    assert (started["initiator"], started["responder"]) == (1, 0)
    assert started["out_of_cards"] == [2] and started["passed_over"] == [2]


# ------------------------------------------------------------------ winner -----------
def finished_with(collected: list[int]) -> State:
    state = GAME.setup(len(collected), {}, seed=1)
    zones = state["zones"]
    pool = [c for pile in zones["hand"] for c in pile] + zones["ion_deck"]
    piles, at = [], 0
    for n in collected:
        piles.append(pool[at : at + n])
        at += n
    zones = LAYOUT.deal(len(collected), collection=piles, set_aside=sorted(pool[at:]), ion_deck=[])
    return {**state, "zones": zones, "phase": "over", "initiator": None, "responder": None}


def test_most_cards_collected_wins_ties_share_a_place() -> None:
    out = GAME.outcome(finished_with([12, 12, 6]))
    assert out.winners == (0, 1) and out.places == (1, 1, 3) and out.tie_break == "shared"
    out = GAME.outcome(finished_with([5, 14, 14, 2]))
    assert out.ranking == (1, 2, 0, 3) and out.places == (1, 1, 3, 4)
    out = GAME.outcome(finished_with([4, 20]))
    assert out.winners == (1,) and out.tie_break is None
    assert not GAME.outcome(GAME.setup(2, {}, seed=1)).finished


# ------------------------------------------------------------------ views ------------
def test_views_show_own_hand_counts_of_others_and_public_cards() -> None:
    state = example_3()
    seen = GAME.view(state, 0)
    assert seen["you"]["role"] == "initiator" and len(seen["you"]["hand"]) == 6
    assert seen["seats"][1]["hand"] == {"count": 3, "cards": None}
    assert seen["seats"][0]["hand"]["cards"] is not None
    assert seen["seats"][1]["in_play_total"] == 6 and seen["seats"][0]["in_play_total"] == -3
    assert seen["ion_deck"] == {"count": 27, "cards": None}
    assert seen["exchange"]["lead"] == "N3-" and seen["exchange"]["step"] == "reinforce"
    assert seen["direction"] == "counterclockwise"
    assert (seen["you"]["next"], seen["you"]["previous"]) == (1, 1)
    observer = GAME.view(state, None)
    assert observer["you"] is None and all(s["hand"]["cards"] is None for s in observer["seats"])


def test_collections_lie_face_down_counted_not_shown_even_to_their_owner() -> None:
    """ "Collected cards are placed beside the player face down." """
    state, events = respond(play(example_3_base(), 0, "N3-")[0], 1, "Al3+", 1)
    collected = event(events, "exchange_settled")["collected"]["cards"]  # seen face up
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert view["collected"] == "face_down"
        assert view["seats"][0]["collection"] == {"count": 2, "cards": None}
        assert view["seats"][0]["collected"] == 2
        # the exchange just settled stays on show, as it lay on the table
        assert [c["id"] for c in view["last_collected"]["cards"]] == collected
        # resampling what the viewer cannot see moves the collected cards, and no view
        # (nor the scores, which need no credential) changes
        redealt = [GAME.redeal_hidden(state, viewer, k) for k in range(6)]
        assert any(r["zones"]["collection"] != state["zones"]["collection"] for r in redealt)
        assert all(GAME.view(r, viewer) == view for r in redealt)
        assert all(GAME.scores(r) == GAME.scores(state) for r in redealt)
    assert GAME.scores(state)["seats"][0]["by_ion"] is None
    assert GAME.view(state, None)["history"][0]["formula"] == "AlN"


def test_collections_face_up_are_shown_to_everyone() -> None:
    state = table(
        ["N3-", *FILLER_CATIONS[:5]],
        ["Al3+", "Cl-", "Cl-", "O2-", "O2-", "Na+"],
        collected="face_up",
    )
    state, _ = respond(play(state, 0, "N3-")[0], 1, "Al3+", 1)
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert [c["ion"] for c in view["seats"][0]["collection"]["cards"]] == ["N3-", "Al3+"]
    assert GAME.scores(state)["seats"][0]["by_ion"] == {"N3-": 1, "Al3+": 1}


def test_collections_are_turned_up_when_the_game_ends() -> None:
    state = GAME.setup(2, {"start_player": 0}, seed=5)
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        move, state = GAME.bot_move(state, seat, "greedy")
        state, _ = GAME.apply(state, seat, move)
    for viewer in (None, 0, 1):
        piles = [s["collection"] for s in GAME.view(state, viewer)["seats"]]
        assert [sorted(c["id"] for c in p["cards"]) for p in piles] == [
            sorted(c) for c in state["zones"]["collection"]
        ]
    assert all(s["by_ion"] is not None for s in GAME.scores(state)["seats"])


def example_3_base() -> State:
    return table(["N3-", *FILLER_CATIONS[:5]], ["Al3+", "Cl-", "Cl-", "O2-", "O2-", "Na+"])


def test_scores_count_collected_cards_with_evidence() -> None:
    state = example_3()
    state, _ = GAME.apply(state, 0, {"type": "reinforce", "cards": ids(state, 0, "N3-")})
    scores = GAME.scores(state)
    assert scores["final"] is False
    assert scores["seats"][0] == {
        "seat": 0,
        "collected": 5,
        "by_ion": None,  # face down until the end
        "exchanges_won": [1],
    }
