"""The Ion Deck of Metal vs. Non-Metal: the seed's table, sound chemistry, custom decks.

The ions themselves (charges, names, the compounds they form) are tested with the rest
of the chemistry, in tests/test_chemistry_ions.py."""

from __future__ import annotations

import re
from collections import Counter

import molmass
import pytest

from rules.chemistry.decks.ion import card_ion, custom_spec, deck_from_spec, default_deck
from rules.chemistry.ions import IonError
from rules.core import RuleViolation
from rules.metal_vs_nonmetal import GAME

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
        card_ion(label)


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
        ({"K+": 3, "Br-": 3}, "12 to 80"),
        # the shape is checked by the option's declaration (issue 16), with the deck's code
        ({"K+": 6}, "ions: Number of members must be between 2 and 12"),
        ({"K+": 0, "Br-": 6}, 'ions."K+": Must be greater than or equal to 1'),
        ([["K+", 6]], "ions: Not a valid mapping"),
        ({"K+": True, "Br-": 1}, 'ions."K+": Not a valid integer'),
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
