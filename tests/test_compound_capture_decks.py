"""The Covalent and Ionic Compound Decks, custom decks, and the chemistry of a capture."""

from __future__ import annotations

from collections import Counter
from typing import Any

import molmass
import pytest

from rules.chemistry.compounds import (
    capture_choices,
    capture_parts,
    capture_text,
    element_face,
    ion_balance,
    parse_compound,
    wild_face,
)
from rules.chemistry.decks.compound import (
    DECK_NAMES,
    HAND_AFTER_DRAW,
    capture_report,
    compound_deck,
    custom_deck,
    deck_problems,
    element_copies,
    table_cards,
)
from rules.core import RuleViolation


@pytest.mark.parametrize("name", DECK_NAMES)
def test_each_deck_is_sound_and_follows_the_seed_shape(name: str) -> None:
    deck = compound_deck(name)
    assert deck_problems(deck) == []
    assert deck.size == 54
    # "1 - 3 players use one deck": 3 x 7 dealt + 1 turned up, and a draw deck left over
    assert deck.playing_cards >= 3 * 7 + 1 + 2
    assert len(deck.compounds) >= 6 and len(deck.wilds) == 6
    assert {c.bonding for c in deck.compounds} == {name}
    assert deck.border == {"covalent": "red", "ionic": "purple"}[name]


@pytest.mark.parametrize("name", DECK_NAMES)
def test_every_compound_card_is_a_compound_of_two_or_more_elements(name: str) -> None:
    """A card that "identifies a compound" names no element (O2, N2, Cl2 were once cards)."""
    for c in compound_deck(name).compounds:
        assert len(molmass.Formula(c.formula).composition()) >= 2, c.formula


@pytest.mark.parametrize("name", DECK_NAMES)
def test_element_counts_and_masses_come_from_molmass(name: str) -> None:
    for c in compound_deck(name).compounds:
        formula = molmass.Formula(c.formula)
        composition = {s: item.count for s, item in formula.composition().items()}
        assert dict(c.elements) == composition, c.formula
        assert c.molar_mass == pytest.approx(formula.mass, abs=1e-3)
        assert c.atoms == sum(composition.values()) <= HAND_AFTER_DRAW


@pytest.mark.parametrize("name", DECK_NAMES)
def test_element_copies_are_the_documented_apportionment(name: str) -> None:
    deck = compound_deck(name)
    assert element_copies(deck.compounds, deck.element_cards) == deck.elements


@pytest.mark.parametrize("name", DECK_NAMES)
def test_every_compound_is_capturable_from_the_decks_own_cards(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = compound_deck(name)
    cards = table_cards([deck])
    playing = [cards.face(c) for c in cards.playing_ids()]
    elements_only = [f for f in playing if f["kind"] == "element"]
    for compound in deck.compounds:
        assert capture_choices(compound, elements_only), f"{compound.formula} needs wilds"
        ways = capture_choices(compound, playing)
        assert ways and any(cards.is_wild(c) for way in ways for c in way)
    report = capture_report(deck)
    with capsys.disabled():
        print(
            f"\n{deck.title}: a full capture needs {report['atoms_needed']} cards; the deck "
            f"holds {report['playing_cards']} ({report['element_cards']} elements + "
            f"{report['wild_cards']} wilds): "
            + ", ".join(
                f"{e['symbol']} {e['atoms_needed']}/{e['cards']}" for e in report["per_element"]
            )
        )
    need = Counter[str]()
    for c in deck.compounds:
        need.update(dict(c.elements))
    assert report["atoms_needed"] == sum(need.values())
    assert report["playing_cards"] == report["element_cards"] + report["wild_cards"] == 39
    # more atoms than cards: a full capture recycles the discard pile (deck_out reshuffle)
    assert report["atoms_needed"] > report["playing_cards"]


def test_ionic_compounds_balance_with_the_ion_table() -> None:
    for c in compound_deck("ionic").compounds:
        assert c.ions is not None, c.formula
        assert sum(i.charge * i.count for i in c.ions) == 0
        assert [i.symbol for i in c.ions] == [s for s, _ in c.elements]
        assert c.ions[0].charge > 0 > c.ions[-1].charge  # the metal is the cation
    alumina = next(c for c in compound_deck("ionic").compounds if c.formula == "Al2O3")
    assert [(i.label(), i.count) for i in alumina.ions or ()] == [("Al3+", 2), ("O2-", 3)]


def test_every_wild_card_states_a_distinct_law() -> None:
    laws = [w.law for n in DECK_NAMES for w in compound_deck(n).wilds]
    assert len(set(laws)) == len(laws) == 12
    assert all(w.text.endswith((")", ".")) for n in DECK_NAMES for w in compound_deck(n).wilds)


def test_table_cards_number_every_copy_and_can_put_the_basic_deck_first() -> None:
    both = table_cards([compound_deck("covalent"), compound_deck("ionic")])
    assert len(both.faces) == 108 and [f["id"] for f in both.faces] == list(range(1, 109))
    assert len(both.compound_ids()) == 30 and len(both.playing_ids()) == 78
    assert both.face(55)["formula"] == "NaCl" and both.face(55)["border"] == "purple"
    canasta = table_cards([compound_deck("ionic")], basic=True)
    assert all(
        canasta.face(z)["z"] == z and canasta.face(z)["deck"] == "basic" for z in range(1, 55)
    )
    assert canasta.face(55)["formula"] == "NaCl"


# ---------------------------------------------------------------- captures ----------
def co2() -> Any:
    return parse_compound("CO2", "Carbon dioxide")


def test_the_seeds_co2_capture_one_carbon_and_two_oxygen() -> None:
    played = [element_face(1, "C"), element_face(2, "O"), element_face(3, "O")]
    parts = capture_parts(co2(), played)
    assert [(p["symbol"], p["wild"]) for p in parts] == [("C", False), ("O", False), ("O", False)]
    assert capture_text(co2(), parts) == "CO2 captured: C + O + O"


def test_a_wild_card_stands_for_the_missing_element() -> None:
    played = [
        wild_face(9, "Law of Conservation of Mass"),
        element_face(1, "C"),
        element_face(2, "O"),
    ]
    parts = capture_parts(co2(), played)
    assert parts[-1] == {
        "card": 9,
        "symbol": "O",
        "wild": True,
        "law": "Law of Conservation of Mass",
    }
    assert capture_text(co2(), parts) == (
        "CO2 captured: C + O + O (wild: Law of Conservation of Mass as O)"
    )
    parts = capture_parts(co2(), [element_face(2, "O"), wild_face(8), wild_face(9)])
    assert [(p["card"], p["symbol"]) for p in parts] == [(8, "C"), (2, "O"), (9, "O")]


@pytest.mark.parametrize(
    ("played", "code"),
    [
        ([wild_face(7), wild_face(8), wild_face(9)], "all_wild"),
        ([element_face(1, "C"), element_face(2, "O")], "wrong_elements"),
        (
            [
                element_face(1, "C"),
                element_face(2, "O"),
                element_face(3, "O"),
                element_face(4, "O"),
            ],
            "wrong_elements",
        ),
        ([element_face(1, "C"), element_face(2, "O"), element_face(3, "H")], "wrong_elements"),
        (
            [element_face(1, "C"), element_face(2, "O"), wild_face(8), wild_face(9)],
            "wrong_elements",
        ),
    ],
)
def test_inexact_or_all_wild_captures_are_refused(played: list[Any], code: str) -> None:
    with pytest.raises(RuleViolation) as err:
        capture_parts(co2(), played)
    assert err.value.code == code
    assert "CO2" in err.value.message and err.value.rule


def test_wrong_elements_says_what_is_missing_and_what_is_surplus() -> None:
    with pytest.raises(RuleViolation) as err:
        capture_parts(co2(), [element_face(1, "C"), element_face(3, "H")])
    assert err.value.details["missing"] == {"O": 2} and err.value.details["surplus"] == {"H": 1}


def test_capture_choices_list_each_distinct_way_once() -> None:
    hand = [element_face(i, "O") for i in (5, 3, 4)] + [element_face(1, "C"), wild_face(9)]
    assert capture_choices(co2(), hand) == [[1, 3, 4], [1, 3, 9], [3, 4, 9]]
    assert capture_choices(co2(), [wild_face(1), wild_face(2), wild_face(3)]) == []
    assert capture_choices(co2(), [element_face(1, "C"), element_face(2, "H")]) == []


# ---------------------------------------------------------------- formulas ----------
@pytest.mark.parametrize(
    ("formula", "bonding", "ions"),
    [
        ("NaCl", "ionic", ["Na+", "Cl-"]),
        ("Fe2O3", "ionic", ["Fe3+", "O2-"]),
        ("H2O", "covalent", None),
        ("Na2SO4", "ionic", None),  # a polyatomic ion: not on the simple-ion table
    ],
)
def test_bonding_defaults_to_ionic_for_a_metal_and_ions_balance(
    formula: str, bonding: str, ions: list[str] | None
) -> None:
    c = parse_compound(formula)
    assert c.bonding == bonding
    assert (None if c.ions is None else [i.label() for i in c.ions]) == ions


@pytest.mark.parametrize("formula", ["", "Xy", "co2", "H2O+", "[2H]2O", "C" * 41, 42])
def test_bad_formulas_are_value_errors(formula: Any) -> None:
    with pytest.raises(ValueError):
        parse_compound(formula)


def test_ion_balance_needs_charges_of_both_signs() -> None:
    assert ion_balance((("Ne", 1), ("Cl", 1))) is None
    assert ion_balance((("Na", 1), ("K", 1))) is None


# ---------------------------------------------------------------- custom decks ------
SIX = ["H2O", "CO2", "CH4", "NH3", "O2", "HCl"]


def test_a_custom_deck_has_the_shape_of_the_built_in_ones() -> None:
    deck = custom_deck(
        [{"formula": f} for f in SIX] + [{"formula": "NaCl", "name": "Salt", "bonding": "ionic"}]
    )
    assert deck.size == 54 and deck_problems(deck) == []
    assert deck.compounds[-1].name == "Salt" and deck.compounds[0].name == "H2O"
    assert len(deck.wilds) == 6 and deck.element_cards == 54 - 7 - 6


@pytest.mark.parametrize(
    ("entries", "fragment"),
    [
        ([{"formula": f} for f in SIX[:5]], "6 to 20"),
        ([{"formula": "H2O"}] * 21, "6 to 20"),
        ("H2O", "6 to 20"),
        ([{"formula": f} for f in SIX] + [{"formula": "Qq"}], "compounds[6]"),
        ([{"formula": f} for f in SIX] + [{"formula": "C6H12O6"}], "needs 24 cards"),
        ([{"formula": f} for f in SIX] + [{"formula": "H2O"}], "listed twice"),
        ([{"formula": f} for f in SIX] + [{"formula": "NaCl2"}], "do not balance"),
        ([{"formula": f} for f in SIX] + [{"formula": "NaCl", "colour": "red"}], "compounds[6]"),
        ([{"formula": f} for f in SIX] + [{"formula": "NaCl", "name": "x" * 61}], "name"),
        ([{"formula": f} for f in SIX] + [{"formula": "NaCl", "bonding": "metallic"}], "bonding"),
        ([{"formula": f} for f in SIX] + ["NaCl"], "compounds[6]"),
        (
            [{"formula": f} for f in ["S8", "P4", "H2", "N2", "O2", "F2", "Cl2", "Br2", "I2"]]
            + [{"formula": f} for f in ["Li2O", "Na2O", "K2O", "Rb2O", "Cs2O", "Cu2O", "Ag2O"]]
            + [{"formula": f} for f in ["HF", "HCl", "HBr", "HI"]],
            "too many different cards",
        ),
    ],
)
def test_bad_custom_lists_are_refused_with_bad_compounds(entries: Any, fragment: str) -> None:
    with pytest.raises(RuleViolation) as err:
        custom_deck(entries)
    assert err.value.code == "bad_compounds"
    assert fragment in err.value.message
