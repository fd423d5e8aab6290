"""Cards and events of the Chemistry Card Game describe themselves (issue 20): every card
shown carries its element's facts, and the reveal, the word race and the ion pairs are
explained with the symbols, the ions, their charges and the points."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest

from rules.chemistry.elements import ELEMENTS, FAMILY_NAMES, element, is_radioactive
from rules.element_draft import GAME

ION = re.compile(r"^(?P<symbol>[A-Z][a-z]?)(?P<size>[2-9]?)(?P<sign>[+-])$")


def play(
    state: dict[str, Any], picks: Sequence[tuple[int, ...]]
) -> tuple[dict[str, Any], list[Any]]:
    """Draft ``picks`` (one tuple of cards per round, in seat order); every event."""
    events: list[dict[str, Any]] = []
    for round_picks in picks:
        for seat, z in enumerate(round_picks):
            state, more = GAME.apply(state, seat, {"type": "draft", "card": z})
            events += more
    return state, events


def cards_in(node: Any) -> list[dict[str, Any]]:
    """Every card object (a dict with ``z`` and ``symbol``) anywhere in ``node``."""
    if isinstance(node, dict):
        found = [node] if "z" in node and "symbol" in node else []
        return found + [c for v in node.values() for c in cards_in(v)]
    if isinstance(node, list):
        return [c for v in node for c in cards_in(v)]
    return []


def assert_describes_itself(shown: dict[str, Any], *, bismuth: bool = False) -> None:
    e = element(shown["z"])
    assert (shown["symbol"], shown["name"], shown["mass"]) == (e.symbol, e.name, e.mass)
    assert shown["family"] == e.family
    assert shown["ion_charges"] == list(e.ion_charges)
    assert shown["radioactive"] is is_radioactive(e.number, bismuth_radioactive=bismuth)


def assert_lists_itself(shown: dict[str, Any]) -> None:
    """A catalogue card: also the family's name, the kind of mass, the ions written."""
    assert_describes_itself(shown)
    e = element(shown["z"])
    assert shown["mass_is_standard"] is e.mass_is_standard
    assert shown["family_name"] == FAMILY_NAMES[e.family]
    # the ions as written say the same charges: symbol, size (over 1), sign
    assert len(shown["ions"]) == len(shown["ion_charges"])
    for text, charge in zip(shown["ions"], shown["ion_charges"], strict=True):
        found = ION.match(text)
        assert found and found["symbol"] == e.symbol, text
        size = int(found["size"] or 1)
        assert (size if found["sign"] == "+" else -size) == charge, text


def test_every_card_in_every_view_and_event_carries_its_facts() -> None:
    state = GAME.setup(4, {}, seed=3)
    shown = 0
    while not GAME.outcome(state).finished:
        for seat in GAME.to_act(state):
            move = GAME.legal_moves(state, seat)[0]
            state, events = GAME.apply(state, seat, move)
            for node in [GAME.view(state, s) for s in (0, 1, 2, 3, None)] + events:
                for card in cards_in(node):
                    assert_describes_itself(card)
                    shown += 1
    assert shown > 1000


def test_radioactive_on_a_card_follows_the_games_reading_of_bismuth() -> None:
    deal = [[83, 1], [2, 3]]
    for bismuth in (False, True):
        state = GAME.setup(2, {"deal": deal, "bismuth_radioactive": bismuth}, seed=0)
        (_h, bi) = GAME.view(state, 0)["you"]["hand"]  # hands are sorted
        assert bi["symbol"] == "Bi" and bi["radioactive"] is bismuth
        assert_describes_itself(bi, bismuth=bismuth)
        _, events = play(state, [(83, 3)])
        (revealed,) = [e for e in events if e["type"] == "cards_revealed"]
        assert revealed["cards"][0]["radioactive"] is bismuth
    # the catalogue reads the default options
    assert next(c for c in GAME.deck() if c["z"] == 83)["radioactive"] is False


def test_the_catalogue_lists_every_card_with_the_same_facts() -> None:
    deck = GAME.deck()
    assert [c["z"] for c in deck] == [e.number for e in ELEMENTS]
    for card in deck:
        assert_lists_itself(card)
    fe = deck[25]
    assert fe["ions"] == ["Fe2+", "Fe3+"] and fe["family_name"] == "Transition metals"


def test_the_reveal_names_each_seats_element() -> None:
    state = GAME.setup(2, {"deal": [[11, 10], [2, 17]]}, seed=0)
    _, events = play(state, [(11, 2)])
    (revealed,) = [e for e in events if e["type"] == "cards_revealed"]
    assert [(c["seat"], c["name"]) for c in revealed["cards"]] == [(0, "Sodium"), (1, "Helium")]
    assert revealed["explanation"] == (
        "Round 1: seat 0 drafts sodium (Na, 11); seat 1 drafts helium (He, 2)."
    )


def test_a_new_ion_pair_is_an_event_with_its_ions_charge_and_points() -> None:
    state = GAME.setup(2, {"deal": [[11, 10], [2, 17]]}, seed=0)
    state, first = play(state, [(11, 2)])
    assert not [e for e in first if e["type"] == "ions_paired"], "one card pairs with nothing"
    state, events = play(state, [(17, 10)])
    (paired,) = [e for e in events if e["type"] == "ions_paired"]
    pair = {
        "cation": 11,
        "anion": 17,
        "charge": 1,
        "formula": "NaCl",
        "cation_ion": "Na+",
        "anion_ion": "Cl-",
    }
    assert paired == {
        "type": "ions_paired",
        "seat": 0,
        "turn": 2,
        "card": 17,
        "pair": pair,
        "pairs": [pair],
        "points": 5,
        "ionization_points": 5,
        "explanation": "Seat 0 drafts chlorine (Cl, 17): the anion Cl- pairs with the cation "
        "Na+ (charges of size 1 cancel), forming NaCl: +5 points. Ion pairs now: NaCl, "
        "5 points.",
    }
    types = [e["type"] for e in events]
    assert types.index("cards_revealed") < types.index("ions_paired") < types.index("game_over")
    assert GAME.scores(state)["seats"][0]["categories"]["ionization"]["pairs"] == [pair]


def test_a_new_pair_may_regroup_the_earlier_ones() -> None:
    """Li+ and the hydride H- pair in round 2; F- finds no partner in round 3; Na+ in
    round 4 makes two pairs by regrouping: Li+ F- and Na+ H-."""
    deal = [[1, 9, 2, 10], [3, 11, 18, 36]]
    state = GAME.setup(2, {"deal": deal}, seed=0)
    state, events = play(state, [(1, 18), (3, 2), (9, 36), (11, 10)])
    paired = [e for e in events if e["type"] == "ions_paired"]
    assert [(e["turn"], e["card"], e["pair"]["formula"]) for e in paired] == [
        (2, 3, "LiH"),
        (4, 11, "NaH"),
    ]
    last = paired[-1]
    assert [p["formula"] for p in last["pairs"]] == ["LiF", "NaH"]
    assert last["ionization_points"] == 10 and last["points"] == 5
    assert last["explanation"] == (
        "Seat 0 drafts sodium (Na, 11): the cation Na+ pairs with the anion H- (charges of "
        "size 1 cancel), forming NaH: +5 points. Ion pairs now: LiF, NaH, 10 points."
    )


def test_a_spelled_word_explains_its_symbols_place_and_points() -> None:
    deal = [[5, 8, 56, 1, 2, 3], [89, 7, 27, 4, 9, 10]]
    picks = [(5, 4), (89, 1), (8, 9), (7, 2)]
    state = GAME.setup(2, {"deal": deal, "words": ["bacon"]}, seed=0)
    state, events = play(state, picks)
    (spelled,) = [e for e in events if e["type"] == "word_spelled"]
    text = (
        "Seat 0 spells BACON with the symbols B + Ac + O + N (boron, actinium, oxygen, "
        "nitrogen) in round 4: first place, 8 points."
    )
    assert spelled["explanation"] == text
    # the view and the scores show the same place with the same words
    assert GAME.view(state, 1)["seats"][0]["word"]["explanation"] == text
    word = GAME.scores(state)["seats"][0]["categories"]["atomic_symbol"]["word"]
    assert word["explanation"] == text
    assert "explanation" not in state["placings"][0], "derived when shown, not stored"


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 3), (7, 4), (10, 5)])
def test_pair_events_add_up_to_the_final_ion_pairs(players: int, seed: int) -> None:
    """Over whole drafts: a seat gets one ions_paired event per pair it ends with (the
    largest set of pairs never shrinks and grows by at most one a card), each naming the
    drafted card's pair, and the points add up to the ionization category."""
    state = GAME.setup(players, {}, seed=seed)
    paired: list[dict[str, Any]] = []
    spelled: list[dict[str, Any]] = []
    while not GAME.outcome(state).finished:
        for seat in GAME.to_act(state):
            move, state = GAME.bot_move(state, seat, "random")
            state, events = GAME.apply(state, seat, move)
            paired += [e for e in events if e["type"] == "ions_paired"]
            spelled += [e for e in events if e["type"] == "word_spelled"]
    table = GAME.scores(state)["seats"]
    for s in range(players):
        mine = [e for e in paired if e["seat"] == s]
        ionization = table[s]["categories"]["ionization"]
        assert len(mine) == len(ionization["pairs"])
        assert sum(e["points"] for e in mine) == ionization["points"]
        # (a later card may regroup the pairs without adding one: no event then)
    for e in paired:
        pair = e["pair"]
        assert e["card"] in (pair["cation"], pair["anion"]) and pair in e["pairs"]
        assert e["card"] in state["drafted"][e["seat"]]
        assert e["ionization_points"] == 5 * len(e["pairs"])
        for p in e["pairs"]:
            cation, anion = element(p["cation"]), element(p["anion"])
            assert p["charge"] in cation.ion_charges and -p["charge"] in anion.ion_charges
        for part in (pair["cation_ion"], pair["anion_ion"], pair["formula"]):
            assert part in e["explanation"]
    for e in spelled:
        assert e["word"].upper() in e["explanation"]
        assert " + ".join(e["symbols"]) in e["explanation"]
        assert f"{e['points']} points" in e["explanation"]
