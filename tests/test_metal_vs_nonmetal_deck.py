"""The Ion Deck of Metal vs. Non-Metal: the seed's table, sound chemistry, custom decks."""

from __future__ import annotations

import re
from collections import Counter

import molmass
import pytest

from rules.core import RuleViolation
from rules.metal_vs_nonmetal import GAME
from rules.metal_vs_nonmetal.cards import custom_spec, deck_from_spec, default_deck
from rules.metal_vs_nonmetal.ions import IonError, anion_root, compound, ion

SEED_TABLE = {"Na+": 8, "Cl-": 8, "Ca2+": 7, "O2-": 7, "Al3+": 5, "N3-": 5}


def test_the_deck_is_the_seeds_table_of_40_cards() -> None:
    deck = default_deck()
    assert len(deck) == 40
    assert Counter(face["ion"] for face in deck.faces) == SEED_TABLE
    assert [face["id"] for face in deck.faces] == list(range(1, 41))


def test_the_charges_balance_plus_37_minus_37() -> None:
    charges = [face["charge"] for face in default_deck().faces]
    assert sum(c for c in charges if c > 0) == 37
    assert sum(c for c in charges if c < 0) == -37


@pytest.mark.parametrize(
    ("label", "charge", "name", "kind"),
    [
        ("Na+", 1, "sodium ion", "metal"),
        ("Ca2+", 2, "calcium ion", "metal"),
        ("Al3+", 3, "aluminium ion", "metal"),
        ("Cl-", -1, "chloride ion", "non-metal"),
        ("O2-", -2, "oxide ion", "non-metal"),
        ("N3-", -3, "nitride ion", "non-metal"),
    ],
)
def test_each_card_shows_ion_charge_name_and_metal_or_non_metal(
    label: str, charge: int, name: str, kind: str
) -> None:
    face = next(f for f in default_deck().faces if f["ion"] == label)
    assert (face["charge"], face["name"], face["kind"]) == (charge, name, kind)
    # the card's charge is the charge molmass reads from the ion's formula
    text = f"[{face['symbol']}]{abs(charge)}{'+' if charge > 0 else '-'}"
    assert molmass.Formula(text).charge == charge


def test_the_catalogue_lists_the_40_cards() -> None:
    cards = GAME.deck()
    assert len(cards) == 40 and cards[0]["ion"] == "Na+" and cards[-1]["ion"] == "N3-"


# Textbook names and formulas of the nine compounds the deck can make (not used by the
# code: it derives them; this table is the independent check).
COMPOUNDS = [
    ("Na+", "Cl-", "NaCl", "sodium chloride", (1, 1)),
    ("Na+", "O2-", "Na2O", "sodium oxide", (2, 1)),
    ("Na+", "N3-", "Na3N", "sodium nitride", (3, 1)),
    ("Ca2+", "Cl-", "CaCl2", "calcium chloride", (1, 2)),
    ("Ca2+", "O2-", "CaO", "calcium oxide", (1, 1)),
    ("Ca2+", "N3-", "Ca3N2", "calcium nitride", (3, 2)),
    ("Al3+", "Cl-", "AlCl3", "aluminium chloride", (1, 3)),
    ("Al3+", "O2-", "Al2O3", "aluminium oxide", (2, 3)),
    ("Al3+", "N3-", "AlN", "aluminium nitride", (1, 1)),
]


@pytest.mark.parametrize(("cation", "anion", "formula", "name", "ratio"), COMPOUNDS)
def test_compounds_are_derived_from_the_charges(
    cation: str, anion: str, formula: str, name: str, ratio: tuple[int, int]
) -> None:
    made = compound(ion(cation), ion(anion))
    assert (made.formula, made.name, (made.cations, made.anions)) == (formula, name, ratio)
    parsed = molmass.Formula(formula)
    assert made.molar_mass == pytest.approx(parsed.mass)
    assert made.cations * ion(cation).charge + made.anions * ion(anion).charge == 0


def test_the_issues_two_worked_equations() -> None:
    assert compound(ion("Ca2+"), ion("N3-")).equation() == "3 Ca2+ + 2 N3- -> Ca3N2"
    assert compound(ion("Na+"), ion("Cl-")).equation() == "Na+ + Cl- -> NaCl"


@pytest.mark.parametrize(
    ("element", "root"),
    [
        ("Hydrogen", "hydr"),
        ("Carbon", "carb"),
        ("Nitrogen", "nitr"),
        ("Oxygen", "ox"),
        ("Fluorine", "fluor"),
        ("Phosphorus", "phosph"),
        ("Sulfur", "sulf"),
        ("Chlorine", "chlor"),
        ("Selenium", "selen"),
        ("Bromine", "brom"),
        ("Iodine", "iod"),
        ("Astatine", "astat"),
    ],
)
def test_anion_names_take_the_root_and_ide(element: str, root: str) -> None:
    assert anion_root(element) == root


def test_cations_of_metals_with_several_charges_carry_roman_numerals() -> None:
    assert ion("Fe2+").name == "iron(II) ion" and ion("Fe3+").name == "iron(III) ion"
    assert compound(ion("Fe3+"), ion("O2-")).name == "iron(III) oxide"
    assert compound(ion("Fe3+"), ion("O2-")).formula == "Fe2O3"


@pytest.mark.parametrize(
    ("label", "why"),
    [
        ("Na2+", "ion charge is +1"),
        ("Cl+", "ion charge is -1"),
        ("H+", "not a metal"),
        ("As3-", "not a non-metal"),
        ("Ar+", "forms no ions"),
        ("Xx+", "no element"),
        ("Na1+", "not an ion label"),
        ("na+", "not an ion label"),
    ],
)
def test_labels_that_are_not_card_ions_are_refused(label: str, why: str) -> None:
    with pytest.raises(IonError, match=re.escape(why)):
        ion(label)


def test_a_teachers_deck_is_checked_like_the_seeds() -> None:
    spec = custom_spec({"K+": 6, "Mg2+": 3, "Br-": 6, "S2-": 3})
    deck = deck_from_spec(spec)
    assert len(deck) == 18 and deck.face(18)["name"] == "sulfide ion"
    state = GAME.setup(3, {"ions": {"K+": 6, "Mg2+": 3, "Br-": 6, "S2-": 3}}, 1)
    assert state["zones"]["ion_deck"] == []


@pytest.mark.parametrize(
    ("ions", "why"),
    [
        ({"K+": 6, "Br-": 5, "S2-": 3}, "must balance"),
        ({"K+": 6, "Xe-": 6}, "xenon"),
        ({"K+": 0, "Br-": 6}, "copies"),
        ({"K+": 3, "Br-": 3}, "12 to 80"),
        ({"K+": 6}, "2 to 12"),
        ([["K+", 6]], "2 to 12"),
        ({"K+": True, "Br-": 1}, "copies"),
    ],
)
def test_unsound_custom_decks_are_refused(ions: object, why: str) -> None:
    with pytest.raises(RuleViolation) as err:
        GAME.setup(2, {"ions": ions}, 1)
    assert err.value.code == "bad_ion_deck" and why in err.value.message


def test_a_custom_deck_too_small_for_the_table_is_refused() -> None:
    ions = {"K+": 6, "Br-": 6}
    assert len(GAME.setup(2, {"ions": ions}, 1)["zones"]["hand"]) == 2
    with pytest.raises(RuleViolation) as err:
        GAME.setup(3, {"ions": ions}, 1)
    assert err.value.code == "bad_ion_deck" and "18 cards" in err.value.message
