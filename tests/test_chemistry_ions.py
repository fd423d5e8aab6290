"""Ions: names and charges from the element data, the compounds two ions form (checked
against a textbook table and molmass), and ion pairing (hand-made examples and a
brute-force maximum on random hands)."""

from __future__ import annotations

import re
from collections.abc import Iterable

import molmass
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.chemistry.elements import BY_SYMBOL, ELEMENTS, element
from rules.chemistry.ions import (
    IonError,
    IonPair,
    anion_root,
    ion,
    ionic_compound,
    label,
    max_ion_pairs,
)


def z(*symbols: str) -> list[int]:
    return [BY_SYMBOL[s].number for s in symbols]


def named(pairs: Iterable[IonPair]) -> list[tuple[str, str, int]]:
    return [(element(p.cation).symbol, element(p.anion).symbol, p.charge) for p in pairs]


def can_pair(a: int, b: int) -> bool:
    """a as cation with b as anion, same number of charges."""
    pos = {c for c in element(a).ion_charges if c > 0}
    neg = {-c for c in element(b).ion_charges if c < 0}
    return bool(pos & neg)


def brute_force(numbers: set[int]) -> int:
    """Largest matching in the general graph, by trying every choice."""
    zs = sorted(numbers)

    def best(rest: tuple[int, ...]) -> int:
        if len(rest) < 2:
            return 0
        first, others = rest[0], rest[1:]
        result = best(others)  # first stays unpaired
        for i, other in enumerate(others):
            if can_pair(first, other) or can_pair(other, first):
                result = max(result, 1 + best(others[:i] + others[i + 1 :]))
        return result

    return best(tuple(zs))


def check_valid(numbers: set[int], pairs: list[IonPair]) -> None:
    used = [p.cation for p in pairs] + [p.anion for p in pairs]
    assert len(used) == len(set(used)), "an element is used in two pairs"
    assert set(used) <= numbers
    for p in pairs:
        assert p.charge > 0
        assert p.charge in element(p.cation).ion_charges
        assert -p.charge in element(p.anion).ion_charges
    assert pairs == sorted(pairs, key=lambda p: (p.cation, p.anion))


# --- hand-made examples ------------------------------------------------------------


def test_sodium_chloride() -> None:
    assert named(max_ion_pairs(z("Na", "Cl"))) == [("Na", "Cl", 1)]


def test_two_pairs() -> None:
    assert named(max_ion_pairs(z("Ca", "O", "Na", "Cl"))) == [("Na", "Cl", 1), ("Ca", "O", 2)]


def test_hydrogen_counts_once() -> None:
    pairs = max_ion_pairs(z("H", "Na", "Cl"))
    assert len(pairs) == 1  # three elements: one is left over
    assert named(pairs) == [("H", "Cl", 1)]  # documented: lower atomic numbers first


def test_hydrogen_as_anion() -> None:
    assert named(max_ion_pairs(z("H", "Na"))) == [("Na", "H", 1)]
    # H- with Na+ and H+... there is only one hydrogen card
    assert named(max_ion_pairs(z("H", "Na", "F"))) == [("H", "F", 1)]
    # H plays the anion for Li so that Na can take Cl
    assert len(max_ion_pairs(z("H", "Li", "Na", "Cl"))) == 2


def test_two_cations_one_anion() -> None:
    assert len(max_ion_pairs(z("Na", "K", "Cl"))) == 1


def test_same_number_of_charges_required() -> None:
    assert max_ion_pairs(z("Na", "O")) == []  # +1 and -2
    assert max_ion_pairs(z("Al", "Cl")) == []  # +3 and -1
    assert named(max_ion_pairs(z("Al", "N"))) == [("Al", "N", 3)]


def test_iron_plays_either_charge() -> None:
    assert named(max_ion_pairs(z("Fe", "O"))) == [("Fe", "O", 2)]
    assert named(max_ion_pairs(z("Fe", "N"))) == [("Fe", "N", 3)]
    # Fe must take N (3) so that Ca (2 only) can take O
    assert named(max_ion_pairs(z("Fe", "O", "N", "Ca"))) == [("Ca", "O", 2), ("Fe", "N", 3)]
    # greedy Fe-O first would strand N; the maximum is two pairs
    assert len(max_ion_pairs(z("Fe", "Cr", "O", "N"))) == 2


def test_augmenting_path_needed() -> None:
    # Co (+2/+3) is tried first and takes N (-3); Ga (+3 only) then needs N, so Co
    # must move over to O (-2). A greedy first choice would stop at one pair.
    numbers = z("Co", "Ga", "N", "O")
    assert named(max_ion_pairs(numbers)) == [("Co", "O", 2), ("Ga", "N", 3)]
    assert brute_force(set(numbers)) == 2


def test_noble_gases_and_empty() -> None:
    assert max_ion_pairs([]) == []
    assert max_ion_pairs(z("He", "Ne", "Ar")) == []
    assert max_ion_pairs(z("Na")) == []


def test_carbon_can_be_the_anion() -> None:
    assert named(max_ion_pairs(z("C", "Si"))) == [("Si", "C", 4)]


def test_duplicates_ignored_and_order_irrelevant() -> None:
    assert max_ion_pairs([11, 17, 11, 17]) == max_ion_pairs([17, 11])
    assert max_ion_pairs(iter([8, 20, 17, 11])) == max_ion_pairs([11, 17, 20, 8])


@pytest.mark.parametrize("bad", [0, 104, -3])
def test_unknown_element(bad: int) -> None:
    with pytest.raises(KeyError):
        max_ion_pairs([1, bad])


# --- property: exact maximum -------------------------------------------------------

INTERESTING = z("H", "C", "N", "O", "F", "P", "S", "Cl", "Fe", "Cu", "Cr", "Na", "Ca", "Al", "Si")
hands = st.sets(
    st.one_of(st.integers(1, 103), st.sampled_from(INTERESTING)),
    max_size=10,
)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_maximum_matches_brute_force(numbers: set[int]) -> None:
    pairs = max_ion_pairs(numbers)
    check_valid(numbers, pairs)
    assert len(pairs) == brute_force(numbers)


@settings(max_examples=150, deadline=None)
@given(hands.flatmap(lambda s: st.permutations(sorted(s))))
def test_result_independent_of_order(order: list[int]) -> None:
    assert max_ion_pairs(order) == max_ion_pairs(sorted(order))


# --- ions and the compounds they form --------------------------------------------

# Textbook names and formulas of the nine compounds the Ion Deck can make (not used by the
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
    made = ionic_compound(ion(cation), ion(anion))
    assert (made.formula, made.name, (made.cations, made.anions)) == (formula, name, ratio)
    parsed = molmass.Formula(formula)
    assert made.molar_mass == pytest.approx(parsed.mass)
    assert made.cations * ion(cation).charge + made.anions * ion(anion).charge == 0


def test_the_issues_two_worked_equations() -> None:
    assert ionic_compound(ion("Ca2+"), ion("N3-")).equation() == "3 Ca2+ + 2 N3- -> Ca3N2"
    assert ionic_compound(ion("Na+"), ion("Cl-")).equation() == "Na+ + Cl- -> NaCl"


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
        ("Arsenic", "arsen"),
        ("Selenium", "selen"),
        ("Bromine", "brom"),
        ("Tellurium", "tellur"),
        ("Iodine", "iod"),
        ("Astatine", "astat"),
    ],
)
def test_anion_names_take_the_root_and_ide(element: str, root: str) -> None:
    assert anion_root(element) == root


def test_cations_of_metals_with_several_charges_carry_roman_numerals() -> None:
    assert ion("Fe2+").name == "iron(II) ion" and ion("Fe3+").name == "iron(III) ion"
    assert ionic_compound(ion("Fe3+"), ion("O2-")).name == "iron(III) oxide"
    assert ionic_compound(ion("Fe3+"), ion("O2-")).formula == "Fe2O3"


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("H+", "hydrogen ion", "non-metal"),
        ("H-", "hydride ion", "non-metal"),
        ("As3-", "arsenide ion", "metalloid"),
        ("Te2-", "telluride ion", "metalloid"),
        ("Cu+", "copper(I) ion", "metal"),
    ],
)
def test_every_ion_of_the_element_data_is_named(text: str, name: str, kind: str) -> None:
    """Chemistry names any ion of the data; which of them may be a card is the Ion
    Deck's rule (tests/test_metal_vs_nonmetal_deck.py)."""
    assert (ion(text).name, ion(text).kind) == (name, kind)
    for e in ELEMENTS:
        for charge in e.ion_charges:
            assert ion(label(e.symbol, charge)).charge == charge


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Na2+", "ion charge is +1"),
        ("Cl+", "ion charge is -1"),
        ("Ar+", "forms no ions"),
        ("Xx+", "no element"),
        ("Na1+", "not an ion label"),
        ("na+", "not an ion label"),
    ],
)
def test_labels_that_are_not_ions_are_refused(text: str, why: str) -> None:
    with pytest.raises(IonError, match=re.escape(why)):
        ion(text)
