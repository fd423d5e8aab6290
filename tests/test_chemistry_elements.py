"""Element facts: shape, families, masses, ion charges, radioactivity."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest
from molmass import ELEMENTS as MOLMASS
from molmass.elements import SERIES

from rules.chemistry import elements as el
from rules.chemistry.elements import (
    BISMUTH,
    BY_SYMBOL,
    ELEMENTS,
    FAMILIES,
    FAMILY_NAMES,
    element,
    is_radioactive,
    parse_oxistates,
)


def symbols(family: str) -> list[str]:
    return [e.symbol for e in ELEMENTS if e.family == family]


# --- shape ---------------------------------------------------------------------


def test_103_elements_indexed_by_atomic_number() -> None:
    assert len(ELEMENTS) == 103
    assert [e.number for e in ELEMENTS] == list(range(1, 104))
    assert all(element(z) is ELEMENTS[z - 1] for z in range(1, 104))
    assert (ELEMENTS[0].symbol, ELEMENTS[-1].symbol) == ("H", "Lr")


@pytest.mark.parametrize("z", [0, -1, 104, 118])
def test_element_outside_the_deck(z: int) -> None:
    with pytest.raises(KeyError):
        element(z)


@pytest.mark.parametrize("z", ["1", 1.0, True, None])
def test_element_needs_an_int(z: object) -> None:
    with pytest.raises(TypeError):
        element(z)  # type: ignore[arg-type]


def test_symbols_unique_and_exact_case() -> None:
    assert len({e.symbol for e in ELEMENTS}) == 103
    assert len(BY_SYMBOL) == 103
    assert BY_SYMBOL["Fe"].number == 26
    assert BY_SYMBOL["Lr"].name == "Lawrencium"
    assert "FE" not in BY_SYMBOL and "fe" not in BY_SYMBOL


def test_elements_are_frozen() -> None:
    with pytest.raises(AttributeError):
        ELEMENTS[0].mass = 2.0  # type: ignore[misc]


def test_names_symbols_masses_come_from_molmass() -> None:
    for e in ELEMENTS:
        src = MOLMASS[e.number]
        assert (e.symbol, e.name, e.mass) == (src.symbol, src.name, src.mass)


# --- masses --------------------------------------------------------------------

# Atomic mass usually grows with atomic number; these pairs are the known exceptions.
MASS_INVERSIONS = {
    ("Ar", "K"),
    ("Co", "Ni"),
    ("Te", "I"),
    ("Th", "Pa"),
    ("U", "Np"),
    ("Pu", "Am"),
    ("Cm", "Bk"),  # 247.0704 vs 247.0703: both are the mass of a mass-247 isotope
}

NON_STANDARD = [
    *("Tc", "Pm", "Po", "At", "Rn", "Fr", "Ra", "Ac"),
    *("Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr"),
]
# Mass number of the isotope whose mass molmass gives for each of them.
NON_STANDARD_ISOTOPE = dict(
    zip(
        NON_STANDARD,
        [
            98,
            145,
            209,
            210,
            222,
            223,
            226,
            227,
            237,
            244,
            243,
            247,
            247,
            251,
            252,
            257,
            258,
            259,
            262,
        ],
        strict=True,
    )
)


def test_masses_increase_except_known_inversions() -> None:
    inversions = {(a.symbol, b.symbol) for a, b in pairwise(ELEMENTS) if b.mass < a.mass}
    assert inversions == MASS_INVERSIONS
    assert all(e.mass > 0 for e in ELEMENTS)
    # "roughly": never more than 2 u below the previous element
    assert all(b.mass > a.mass - 2 for a, b in pairwise(ELEMENTS))


def test_exactly_the_19_have_no_standard_atomic_weight() -> None:
    assert len(NON_STANDARD) == 19
    assert [e.symbol for e in ELEMENTS if not e.mass_is_standard] == NON_STANDARD


def test_non_standard_masses_are_an_isotope_mass() -> None:
    for sym, mass_number in NON_STANDARD_ISOTOPE.items():
        e = BY_SYMBOL[sym]
        assert round(e.mass) == mass_number, sym
        assert abs(e.mass - mass_number) < 0.15, sym


def test_non_standard_are_the_radioactive_ones_but_th_pa_u() -> None:
    radioactive = {e.symbol for e in ELEMENTS if e.radioactive}
    assert set(NON_STANDARD) == radioactive - {"Th", "Pa", "U"}


# --- families ------------------------------------------------------------------


def test_ten_families_with_names() -> None:
    assert len(FAMILIES) == 10
    assert tuple(FAMILY_NAMES) == FAMILIES
    assert FAMILIES == (
        "alkali-metal",
        "alkaline-earth-metal",
        "transition-metal",
        "post-transition-metal",
        "metalloid",
        "nonmetal",
        "halogen",
        "noble-gas",
        "lanthanide",
        "actinide",
    )
    assert all(FAMILY_NAMES[f] for f in FAMILIES)


def test_every_element_in_exactly_one_nonempty_family() -> None:
    counts = Counter(e.family for e in ELEMENTS)
    assert set(counts) == set(FAMILIES)
    assert sum(counts.values()) == 103
    assert all(counts[f] > 0 for f in FAMILIES)


def test_family_members() -> None:
    assert symbols("alkali-metal") == ["Li", "Na", "K", "Rb", "Cs", "Fr"]
    assert symbols("alkaline-earth-metal") == ["Be", "Mg", "Ca", "Sr", "Ba", "Ra"]
    assert symbols("nonmetal") == ["H", "C", "N", "O", "P", "S", "Se"]
    assert symbols("halogen") == ["F", "Cl", "Br", "I", "At"]
    assert symbols("noble-gas") == ["He", "Ne", "Ar", "Kr", "Xe", "Rn"]
    assert symbols("metalloid") == ["B", "Si", "Ge", "As", "Sb", "Te"]
    assert symbols("post-transition-metal") == ["Al", "Ga", "In", "Sn", "Tl", "Pb", "Bi", "Po"]
    assert [e.number for e in ELEMENTS if e.family == "lanthanide"] == list(range(57, 72))
    assert [e.number for e in ELEMENTS if e.family == "actinide"] == list(range(89, 104))
    transition = [e.number for e in ELEMENTS if e.family == "transition-metal"]
    assert transition == [*range(21, 31), *range(39, 49), *range(72, 81)]


def test_debated_family_members() -> None:
    assert BY_SYMBOL["H"].family == "nonmetal"
    assert BY_SYMBOL["La"].family == BY_SYMBOL["Lu"].family == "lanthanide"
    assert BY_SYMBOL["Ac"].family == BY_SYMBOL["Lr"].family == "actinide"
    assert BY_SYMBOL["Po"].family == "post-transition-metal"
    assert BY_SYMBOL["At"].family == "halogen"
    assert {BY_SYMBOL[s].family for s in ("Zn", "Cd", "Hg")} == {"transition-metal"}


def test_families_follow_molmass_except_the_override_table() -> None:
    differ = {
        e.number for e in ELEMENTS if e.family != el._SERIES_SLUG[SERIES[MOLMASS[e.number].series]]
    }
    assert differ == set(el._FAMILY_OVERRIDES) == {84}


# --- ion charges -----------------------------------------------------------------


def test_charges_are_nonzero_unique_ints() -> None:
    for e in ELEMENTS:
        assert all(type(c) is int and c != 0 for c in e.ion_charges), e.symbol
        assert len(set(e.ion_charges)) == len(e.ion_charges), e.symbol


def test_noble_gases_alone_have_no_charge() -> None:
    assert [e.symbol for e in ELEMENTS if not e.ion_charges] == symbols("noble-gas")


def test_school_chart_charges() -> None:
    charges = {e.symbol: e.ion_charges for e in ELEMENTS}
    assert charges["H"] == (1, -1)
    assert all(charges[s] == (1,) for s in symbols("alkali-metal"))
    assert all(charges[s] == (2,) for s in symbols("alkaline-earth-metal"))
    assert all(charges[s] == (-1,) for s in symbols("halogen"))
    assert charges["Al"] == (3,)
    assert charges["N"] == charges["P"] == (-3,)
    assert charges["O"] == charges["S"] == (-2,)
    assert charges["Fe"] == (2, 3)
    assert charges["Cu"] == (1, 2)
    assert charges["Zn"] == (2,) and charges["Ag"] == (1,)
    assert charges["Sn"] == charges["Pb"] == (2, 4)


def test_only_h_and_c_have_both_signs() -> None:
    both = [e.symbol for e in ELEMENTS if min(e.ion_charges, default=0) < 0 < max(e.ion_charges)]
    assert both == ["H", "C"]


def test_charges_follow_molmass_stars_except_the_override_table() -> None:
    for e in ELEMENTS:
        derived = parse_oxistates(MOLMASS[e.number].oxistates)
        if e.number in el._ION_CHARGE_OVERRIDES:
            # every override really changes something (keeps the table minimal)
            assert e.ion_charges != derived, e.symbol
        else:
            assert e.ion_charges == derived, e.symbol


def test_override_table_has_a_reason_each() -> None:
    for z, (charges, reason) in el._ION_CHARGE_OVERRIDES.items():
        assert element(z).ion_charges == el._ordered(charges)
        assert len(reason) > 10


def test_parse_oxistates() -> None:
    assert parse_oxistates("6, 3*, 2, 0, -2") == (3,)
    assert parse_oxistates("7, 5, 3, 1, -1*") == (-1,)
    assert parse_oxistates("8, 6, 4*, 3*, 2, 0, -2") == (3, 4)
    assert parse_oxistates("0*") == ()
    assert parse_oxistates("") == ()


# --- radioactivity ---------------------------------------------------------------

RADIOACTIVE = {43, 61, *range(84, 104)}


def test_radioactive_set_is_exactly_no_stable_isotope() -> None:
    assert {e.number for e in ELEMENTS if e.radioactive} == RADIOACTIVE
    assert len(RADIOACTIVE) == 22


def test_bismuth_is_an_option() -> None:
    assert BISMUTH == 83 and BY_SYMBOL["Bi"].number == BISMUTH
    assert element(BISMUTH).radioactive is False
    assert is_radioactive(BISMUTH) is False
    assert is_radioactive(BISMUTH, bismuth_radioactive=True) is True
    for z in range(1, 104):
        if z != BISMUTH:
            assert is_radioactive(z, bismuth_radioactive=True) == (z in RADIOACTIVE)
            assert is_radioactive(z) == (z in RADIOACTIVE)


# --- optional cross-check with mendeleev (not a dependency) ------------------------

MENDELEEV_FAMILY_DIFFERENCES = {
    71: "mendeleev puts Lu in transition metals; we keep the IUPAC 15-member lanthanide row",
    84: "mendeleev (like molmass) says metalloid; we say post-transition metal",
    103: "mendeleev puts Lr in transition metals; we keep the IUPAC 15-member actinide row",
}


def test_cross_check_with_mendeleev() -> None:
    fetch = pytest.importorskip("mendeleev.fetch")
    table = fetch.fetch_table("elements").set_index("atomic_number")
    series = fetch.fetch_table("series").set_index("id")["name"]
    oxidation = fetch.fetch_table("oxidationstates")
    for e in ELEMENTS:
        row = table.loc[e.number]
        assert row["symbol"] == e.symbol
        if e.mass_is_standard:
            assert abs(row["atomic_weight"] - e.mass) < 0.01, e.symbol
        else:
            assert round(row["atomic_weight"]) == round(e.mass), e.symbol
        assert bool(row["is_radioactive"]) == e.radioactive, e.symbol
        family = el._SERIES_SLUG[series[row["series_id"]]]
        if e.number in MENDELEEV_FAMILY_DIFFERENCES:
            assert family != e.family, e.symbol
        else:
            assert family == e.family, e.symbol
        # every charge we use is a known oxidation state ("main" or "extended")
        states = set(oxidation[oxidation["atomic_number"] == e.number]["oxidation_state"])
        assert set(e.ion_charges) <= states, e.symbol
