"""Ion pairing: hand-made examples and a brute-force maximum on random hands."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.chemistry.elements import BY_SYMBOL, element
from rules.chemistry.ions import IonPair, max_ion_pairs


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
