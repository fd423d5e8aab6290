"""The Chemistry Card Game: every rule and every worked example of the seed."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import orjson
import pytest

from rules.core import RuleViolation
from rules.element_draft import GAME
from rules.element_draft import scoring as sc
from rules.element_draft.game import DEAL_TABLE

# ------------------------------------------------------------------ the deal table ------


@pytest.mark.parametrize(
    ("players", "deck", "hand"),
    [
        (2, 36, 15),
        (3, 54, 15),
        (4, 54, 13),
        (5, 54, 10),
        (6, 86, 14),
        (7, 103, 14),
        (8, 103, 12),
        (9, 103, 11),
        (10, 103, 10),
    ],
)
def test_deal_follows_the_seed_table(players: int, deck: int, hand: int) -> None:
    state = GAME.setup(players, {}, seed=players)
    assert DEAL_TABLE[players] == (deck, hand)
    assert [len(h) for h in state["hands"]] == [hand] * players
    dealt = [z for h in state["hands"] for z in h]
    assert len(set(dealt)) == len(dealt) and max(dealt) <= deck
    assert sorted(dealt + state["set_aside"]) == list(range(1, deck + 1))
    assert len(state["set_aside"]) == deck - players * hand


def test_setup_is_deterministic_for_a_seed_and_varies_between_seeds() -> None:
    assert GAME.setup(4, {}, seed=1) == GAME.setup(4, {}, seed=1)
    assert GAME.setup(4, {}, seed=1)["hands"] != GAME.setup(4, {}, seed=2)["hands"]


@pytest.mark.parametrize("players", [1, 11, 0, -3])
def test_player_count_outside_2_to_10_is_refused(players: int) -> None:
    with pytest.raises(RuleViolation) as err:
        GAME.setup(players, {}, seed=1)
    assert err.value.code == "bad_players"


# ------------------------------------------------------------------ drafting ------------


def test_selection_is_private_until_everyone_has_selected() -> None:
    state = GAME.setup(3, {}, seed=5)
    z0 = state["hands"][0][0]
    state, events = GAME.apply(state, 0, {"type": "draft", "card": z0})
    assert events == [{"type": "card_selected", "seat": 0, "private": {0: {"card": z0}}}]
    for seat in (1, 2, None):
        seen = GAME.view(state, seat)
        assert seen["seats"][0]["has_selected"] is True
        assert seen["seats"][0]["drafted"] == []
        assert str(z0) not in repr(seen["seats"])
    assert GAME.view(state, 0)["you"]["selection"]["z"] == z0


def test_reveal_then_pass_left() -> None:
    state = GAME.setup(3, {"deal": [[1, 2], [3, 4], [5, 6]]}, seed=0)
    state, _ = GAME.apply(state, 0, {"type": "draft", "card": 1})
    state, _ = GAME.apply(state, 1, {"type": "draft", "card": 4})
    state, events = GAME.apply(state, 2, {"type": "draft", "card": 5})
    types = [e["type"] for e in events]
    assert types == ["card_selected", "cards_revealed", "hands_passed"]
    assert [c["z"] for c in events[1]["cards"]] == [1, 4, 5]
    assert state["drafted"] == [[1], [4], [5]]
    # seat s passes to seat s+1 (its left): seat 1 now holds seat 0's rest
    assert state["hands"] == [[6], [2], [3]]
    assert state["turn"] == 2


def test_the_draft_ends_when_all_cards_are_drafted() -> None:
    state = GAME.setup(2, {"deal": [[1, 2], [3, 4]]}, seed=0)
    for seat, z in [(0, 1), (1, 3), (0, 4), (1, 2)]:
        state, events = GAME.apply(state, seat, {"type": "draft", "card": z})
    assert events[-1]["type"] == "game_over"
    assert GAME.outcome(state).finished and GAME.to_act(state) == []
    with pytest.raises(RuleViolation) as err:
        GAME.apply(state, 0, {"type": "draft", "card": 1})
    assert err.value.code == "game_over"


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"type": "draft", "card": 99}, "not_in_hand"),
        # a card that does not exist is a malformed move, over HTTP and in the rules
        ({"type": "draft", "card": 0}, "bad_move"),
        ({"type": "draft", "card": "H"}, "bad_move"),
        ({"type": "draft", "card": True}, "bad_move"),
        ({"type": "draft", "card": 1, "extra": 1}, "bad_move"),
        ({"type": "pass"}, "unknown_move"),
        ({}, "unknown_move"),
    ],
)
def test_bad_moves_name_the_rule(move: dict[str, Any], code: str) -> None:
    state = GAME.setup(2, {"deal": [[1, 2], [3, 4]]}, seed=0)
    with pytest.raises(RuleViolation) as err:
        GAME.apply(state, 0, move)
    assert err.value.code == code
    assert err.value.message


def test_a_second_selection_in_one_round_is_refused() -> None:
    state = GAME.setup(2, {"deal": [[1, 2], [3, 4]]}, seed=0)
    state, _ = GAME.apply(state, 0, {"type": "draft", "card": 1})
    with pytest.raises(RuleViolation) as err:
        GAME.apply(state, 0, {"type": "draft", "card": 2})
    assert err.value.code == "already_selected" and "H" in err.value.message
    assert GAME.legal_moves(state, 0) == []


def test_apply_never_mutates_its_input() -> None:
    state = GAME.setup(3, {}, seed=8)
    snapshot = repr(state)
    for seat in range(3):
        GAME.apply(state, seat, {"type": "draft", "card": state["hands"][seat][0]})
    assert repr(state) == snapshot


def test_custom_deal_is_validated() -> None:
    for deal, fragment in [
        ([[1, 2], [3]], "same number"),
        ([[1, 2], [2, 3]], "He"),
        ([[1, 104], [2, 3]], "104"),
        ([[1, 2]], "between 2 and 10"),
    ]:
        with pytest.raises(RuleViolation) as err:
            GAME.setup(2, {"deal": deal}, seed=0)
        assert err.value.code == "bad_deal" and fragment in err.value.message


# ------------------------------------------------------------------ scoring ------------


def test_seed_example_atomic_number() -> None:
    # "if a player has atomic numbers 1, 5, 6, 7, 10, 11, and 13, they would score 9 points"
    result = sc.atomic_number([1, 5, 6, 7, 10, 11, 13])
    assert result["points"] == 9 and result["run"] == [5, 6, 7]


@pytest.mark.parametrize(
    ("numbers", "points"),
    [
        ([], 0),
        ([8], 0),
        ([1, 3, 5], 0),
        ([1, 2], 4),
        ([1, 2, 3], 9),
        ([1, 2, 3, 4], 16),
        ([20, 21, 22, 23, 24, 25], 16),
        ([30, 2, 31, 3], 4),
    ],
)
def test_atomic_number_table(numbers: list[int], points: int) -> None:
    assert sc.atomic_number(numbers)["points"] == points


def masses(*values: str) -> list[Decimal]:
    return [Decimal(v) for v in values]


def test_atomic_mass_two_players_is_plus_or_minus_four() -> None:
    assert sc.atomic_mass(0, masses("50", "10"))["points"] == 4
    assert sc.atomic_mass(1, masses("50", "10"))["points"] == -4
    assert sc.atomic_mass(0, masses("10", "10"))["points"] == 0


def test_atomic_mass_against_each_neighbour() -> None:
    four = masses("10", "20", "30", "40")
    # seat 0: left is seat 1 (20, heavier: -2), right is seat 3 (40, heavier: -2)
    assert sc.atomic_mass(0, four)["points"] == -4
    assert sc.atomic_mass(3, four)["points"] == 4
    assert sc.atomic_mass(1, four)["points"] == 0
    assert sc.atomic_mass(1, masses("10", "20", "20"))["points"] == 2  # tie with seat 2: 0


def test_mass_totals_are_exact_sums_of_the_printed_masses() -> None:
    # 0.1-style float error must neither break a real tie nor decide a comparison
    assert sc.total_mass([1, 2]) == sc.total_mass([2]) + sc.total_mass([1])
    assert sc.total_mass([1, 2]) == Decimal("1.007941") + Decimal("4.002602")
    assert sc.card_mass(9) == Decimal("18.998403163")  # fluorine, as printed
    assert sc.total_mass([]) == 0


def test_the_running_totals_score_an_exact_mass_tie_as_nothing() -> None:
    # the same pile on both sides (a pure-function check): equal masses score 0
    for piles in ([[6], [6]], [[6, 7], [7, 6], [6, 7]]):
        totals = sc.totals(piles, {})
        full = [sc.seat_breakdown(s, piles, {})["total"] for s in range(len(piles))]
        assert totals == full
        masses = [sc.seat_breakdown(s, piles, {})["categories"]["atomic_mass"] for s in (0, 1)]
        assert [m["points"] for m in masses] == [0, 0]


def test_masses_a_millionth_apart_are_not_a_tie() -> None:
    """Issue 6: Be Pm Ta (334.8728631) against F Pr Lu (334.872863163). The totals
    differ by 6.3e-8 u; rounding them to 1e-6 u called it a tie and named seat 0 the
    winner. By the seed, seat 1's mass is greater: +4 and -4, and seat 1 wins."""
    state = GAME.setup(2, {"deal": [[4, 59, 73], [9, 61, 71]]}, seed=0)
    for picks in ((4, 9), (61, 59), (73, 71)):  # hands rotate left each round
        for seat, z in enumerate(picks):
            state, _ = GAME.apply(state, seat, {"type": "draft", "card": z})
    assert [sorted(d) for d in state["drafted"]] == [[4, 61, 73], [9, 59, 71]]
    table = GAME.scores(state)["seats"]
    mass = [t["categories"]["atomic_mass"] for t in table]
    assert [m["points"] for m in mass] == [-4, 4]
    assert [m["mass_exact"] for m in mass] == ["334.8728631", "334.872863163"]
    assert mass[0]["neighbours"][0]["their_mass_exact"] == "334.872863163"
    assert mass[1]["neighbours"][1]["their_mass_exact"] == "334.8728631"
    assert mass[1]["mass"] == 334.872863163
    assert [s["score"] for s in GAME.view(state, None)["seats"]] == [t["total"] for t in table]
    assert GAME.outcome(state).winners == (1,)


def test_seed_example_word_race_with_a_tie() -> None:
    """Barry and Suzy tie first on turn 4 (8 each); the next on turn 5 is 3rd (2)."""
    deal = [[5, 7, 73, 10, 13], [8, 16, 19, 3, 33], [89, 4, 6, 2, 53]]
    picks = {  # turn -> picks of seats 0, 1, 2 (hands rotate left every turn)
        1: (5, 16, 2),
        2: (89, 73, 3),
        3: (8, 6, 13),
        4: (7, 19, 53),
        5: (4, 10, 33),
    }
    state = GAME.setup(3, {"deal": deal, "words": ["bacon", "stack", "alias"]}, seed=0)
    spelled: list[dict[str, Any]] = []
    for turn in range(1, 6):
        for seat, z in enumerate(picks[turn]):
            state, events = GAME.apply(state, seat, {"type": "draft", "card": z})
            spelled += [e for e in events if e["type"] == "word_spelled"]
    got = {(e["seat"], e["turn"], e["place"], e["points"], e["word"]) for e in spelled}
    assert got == {(0, 4, 1, 8, "bacon"), (1, 4, 1, 8, "stack"), (2, 5, 3, 2, "alias")}
    assert {e["seat"]: e["tied"] for e in spelled} == {0: True, 1: True, 2: False}
    table = GAME.scores(state)["seats"]
    assert [t["categories"]["atomic_symbol"]["points"] for t in table] == [8, 8, 2]
    assert table[0]["categories"]["atomic_symbol"]["word"]["symbols"] == ["B", "Ac", "O", "N"]


def test_second_place_scores_five_and_fourth_scores_nothing() -> None:
    assert [sc.place_points(p) for p in (1, 2, 3, 4, 5)] == [8, 5, 2, 0, 0]


def test_a_seat_places_only_once() -> None:
    """Seat 0 spells bacon as B Ac O N on turn 4 (first place, 8 points), then
    completes Ba Co N on turn 6: no second placing, no second word event."""
    deal = [[5, 8, 56, 1, 2, 3], [89, 7, 27, 4, 9, 10]]
    picks = [(5, 4), (89, 1), (8, 9), (7, 2), (56, 10), (27, 3)]  # hands swap every turn
    state = GAME.setup(2, {"deal": deal, "words": ["bacon"]}, seed=0)
    spelled: list[dict[str, Any]] = []
    for turn_picks in picks:
        for seat, z in enumerate(turn_picks):
            state, events = GAME.apply(state, seat, {"type": "draft", "card": z})
            spelled += [e for e in events if e["type"] == "word_spelled"]
    assert sorted(state["drafted"][0]) == [5, 7, 8, 27, 56, 89]  # both spellings drafted
    assert [(e["seat"], e["turn"], e["place"], e["word"]) for e in spelled] == [(0, 4, 1, "bacon")]
    assert spelled[0]["symbols"] == ["B", "Ac", "O", "N"] and spelled[0]["tied"] is False
    assert [(p["seat"], p["turn"], p["points"]) for p in state["placings"]] == [(0, 4, 8)]
    table = GAME.scores(state)["seats"]
    assert [t["categories"]["atomic_symbol"]["points"] for t in table] == [8, 0]


def test_words_use_distinct_cards_and_whole_symbols() -> None:
    from rules.chemistry.words import spellings

    assert (56, 27, 7) in spellings("bacon")  # Ba Co N
    assert all(len(set(s)) == len(s) for s in spellings("cocoa"))  # Co twice is impossible
    assert spellings("bacon", max_z=36) == ()  # needs Ba (56) or Ac (89)
    assert spellings("bacon", max_z=88) == ((56, 6, 8, 7), (56, 27, 7))
    assert spellings("bacon", max_z=89)[0] == (5, 89, 8, 7)


def test_ionization_counts_pairs_by_maximum_matching() -> None:
    assert sc.ionization([11, 17])["points"] == 5  # NaCl
    assert sc.ionization([11, 17, 20, 8])["points"] == 10  # NaCl + CaO
    assert sc.ionization([11, 19, 17])["points"] == 5  # one chloride for two cations
    assert sc.ionization([1, 11, 17])["points"] == 5  # H pairs either way, but only once
    assert sc.ionization([2, 10, 18])["points"] == 0  # noble gases have no ions
    formulas = {p["formula"] for p in sc.ionization([11, 17, 20, 8])["pairs"]}
    assert formulas == {"NaCl", "CaO"}


@pytest.mark.parametrize(
    ("numbers", "counted", "points"),
    [
        ([1], 1, 0),
        ([3, 11], 2, 1),  # two alkali metals: largest family 2
        ([3, 4, 9], 3, 3),  # three families
        ([3, 11, 19, 37], 4, 6),
        ([3, 11, 19, 37, 55], 5, 10),
        ([3, 11, 19, 37, 55, 87], 6, 15),
        ([3, 11, 19, 37, 55, 87, 2, 10], 6, 15),  # capped at 6
    ],
)
def test_family(numbers: list[int], counted: int, points: int) -> None:
    result = sc.family(numbers)
    assert result["counted"] == counted and result["points"] == points


def test_family_takes_the_greater_of_distinct_and_largest() -> None:
    # 7 distinct families counts as 6
    from rules.chemistry.elements import ELEMENTS, FAMILIES

    one_each = [next(e.number for e in ELEMENTS if e.family == f) for f in FAMILIES[:7]]
    assert sc.family(one_each)["distinct"] == 7 and sc.family(one_each)["points"] == 15


@pytest.mark.parametrize(
    ("players", "numbers", "points"),
    [(6, [43, 61], 0), (7, [43, 61], 7), (7, [43, 1], -3), (7, [1, 2], 0), (10, [84, 85, 86], 7)],
)
def test_radioactivity_only_with_seven_or_more(
    players: int, numbers: list[int], points: int
) -> None:
    assert sc.radioactivity(numbers, players)["points"] == points


def test_bismuth_is_an_option() -> None:
    assert sc.radioactivity([83, 1], 7)["points"] == 0
    assert sc.radioactivity([83, 1], 7, bismuth_radioactive=True)["points"] == -3


def test_winner_tie_broken_by_highest_atomic_number() -> None:
    """B, C, N (9 run + 1 family + 5 BN pair - 4 lighter = 11) ties H, Mg, Al
    (4 run + 3 families + 4 heavier = 11); Al (13) beats N (7)."""
    deal = [[5, 12, 7], [1, 6, 13]]  # hands rotate, so these picks end as B C N / H Mg Al
    state = GAME.setup(2, {"deal": deal, "words": ["zzzzz"]}, seed=0)
    for picks in ((5, 1), (6, 12), (7, 13)):
        for seat, z in enumerate(picks):
            state, _ = GAME.apply(state, seat, {"type": "draft", "card": z})
    assert state["drafted"] == [[5, 6, 7], [1, 12, 13]]
    totals = [t["total"] for t in GAME.scores(state)["seats"]]
    assert totals == [11, 11]
    outcome = GAME.outcome(state)
    assert outcome.winners == (1,) and outcome.tie_break == "highest_atomic_number"
    assert outcome.ranking == (1, 0)


def test_scores_come_with_evidence() -> None:
    state = GAME.setup(2, {"deal": [[5, 6, 7, 11], [17, 20, 8, 9]]}, seed=0)
    for _ in range(4):
        for seat in (0, 1):
            state, _ = GAME.apply(state, seat, {"type": "draft", "card": state["hands"][seat][0]})
    seat = GAME.scores(state)["seats"][0]
    assert set(seat["categories"]) == set(sc.CATEGORIES)
    assert seat["total"] == sum(c["points"] for c in seat["categories"].values())
    assert "run" in seat["categories"]["atomic_number"]
    assert seat["categories"]["atomic_mass"]["neighbours"][0]["seat"] == 1


# ------------------------------------------------------------ what the end reveals ------


def test_set_aside_cards_are_shown_only_once_the_draft_has_ended() -> None:
    state = GAME.setup(2, {}, seed=3)  # 36 cards: 15 each, 6 set aside
    hidden = state["set_aside"]
    assert len(hidden) == 6
    while not GAME.outcome(state).finished:
        for seat in (None, 0, 1):
            seen = GAME.view(state, seat)
            assert seen["set_aside"] is None and seen["set_aside_count"] == 6
            assert not {c["z"] for s in seen["seats"] for c in s["drafted"]} & set(hidden)
        for seat in GAME.to_act(state):
            move, state = GAME.bot_move(state, seat, "greedy")
            state, _ = GAME.apply(state, seat, move)
    for seat in (None, 0, 1):
        shown = GAME.view(state, seat)["set_aside"]
        assert [c["z"] for c in shown] == hidden
        assert shown[0]["symbol"]
    drafted = [c["z"] for s in GAME.view(state, None)["seats"] for c in s["drafted"]]
    assert sorted(drafted + hidden) == list(range(1, 37))  # the whole deal checks out


def test_a_custom_deal_sets_nothing_aside() -> None:
    state = GAME.setup(2, {"deal": [[1], [2]]}, seed=0)
    state, _ = GAME.apply(state, 0, {"type": "draft", "card": 1})
    state, _ = GAME.apply(state, 1, {"type": "draft", "card": 2})
    assert GAME.view(state, None)["set_aside"] == []


def test_the_built_in_word_list_is_served_with_its_provenance() -> None:
    from rules.chemistry.words import DEFAULT_WORDS, WordIndex

    doc = GAME.resources["words"]()
    assert doc["words"] == list(DEFAULT_WORDS) and doc["count"] == len(DEFAULT_WORDS) == 1155
    assert doc["source"]["package"] == "wamerican"
    assert doc["source"]["version"] == "2020.12.07-2"
    assert doc["source"]["file"] == "/usr/share/dict/american-english"
    assert doc["source"]["sha256"] == (
        "9f513f1ceadb6a01c5485b7dbdfd5118dc66cd70b59cae2851292112d4066a32"
    )
    assert doc["build"]["command"] == "make words" and len(doc["build"]["filters"]) == 2
    assert "Kevin Atkinson" in doc["licence"]
    assert doc["spellable_at_deck_size"] == {
        str(size): len(WordIndex.default(size).spellable_words) for size in (36, 54, 86, 103)
    }
    assert doc["spellable_at_deck_size"]["36"] == 174
    assert orjson.loads(orjson.dumps(doc)) == doc


def test_greedy_drafts_the_largest_gain_and_the_highest_card_on_a_tie() -> None:
    from rules.element_draft.bots import gain

    state = GAME.setup(2, {"deal": [[5, 7, 40, 41], [6, 1, 2, 3]], "words": ["zzzzz"]}, seed=0)
    for picks in ((5, 1), (6, 40)):
        for seat, z in enumerate(picks):
            state, _ = GAME.apply(state, seat, {"type": "draft", "card": z})
    assert state["hands"] == [[7, 41], [2, 3]] and state["drafted"] == [[5, 6], [1, 40]]
    # seat 0: N completes B-C-N (+5 run) and pairs with B (BN, +5); Nb makes seat 0 the
    # heavier (-4 -> +4) and adds a third family (+2): 10 each, so the higher card
    assert {z: gain(state, 0, z) for z in (7, 41)} == {7: 10, 41: 10}
    assert GAME.bot_move(state, 0, "greedy")[0] == {"type": "draft", "card": 41}
    # seat 1: Li (3) gains 7, He (2) gains 6
    assert {z: gain(state, 1, z) for z in (2, 3)} == {2: 6, 3: 7}
    assert GAME.bot_move(state, 1, "greedy")[0] == {"type": "draft", "card": 3}


def test_check_names_each_broken_invariant() -> None:
    state = GAME.setup(3, {}, seed=2)
    GAME.check(state)
    lost = {**state, "hands": [h[:-1] for h in state["hands"]]}
    twice = {**state, "hands": [state["hands"][0], state["hands"][0], state["hands"][2]]}
    aside = {**state, "set_aside": [*state["set_aside"], state["hands"][0][0]]}
    stray = {**state, "pending": [state["hands"][1][0], None, None]}
    for broken, words in [
        (lost, "cards were lost or added"),
        (twice, "a card appears twice"),
        (aside, "a card appears twice"),
        (stray, "seat 0 selected a card it does not hold"),
    ]:
        with pytest.raises(RuleViolation) as err:
            GAME.check(broken)
        assert err.value.code == "state_invalid" and words in err.value.message
