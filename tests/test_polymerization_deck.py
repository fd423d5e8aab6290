"""The polymer-chain game's deck is sound: counts, chemistry from formulas, startable.

Reference molar masses (g/mol, NIST Chemistry WebBook, rounded to 0.01) are typed here
only to check that the formulas on the cards are the right compounds.
"""

from __future__ import annotations

from collections import Counter

import pytest
from molmass import Formula

from rules.polymerization import GAME
from rules.polymerization.cards import (
    DECK_SIZE,
    FACES,
    MONOMERS,
    SPEC,
    face,
    formula_mass,
)
from rules.polymerization.shown import card_json

REFERENCE = {
    "styrene": 104.15,
    "methyl_methacrylate": 100.12,
    "methyl_acrylate": 86.09,
    "acrylonitrile": 53.06,
}


def test_two_decks_of_55_shuffled_together() -> None:
    listing = GAME.deck()
    assert DECK_SIZE == 55 and len(listing) == 110
    assert [c["id"] for c in listing] == list(range(1, 111))
    assert SPEC["deck"]["shuffled_together"] is True
    for card in range(1, 56):
        assert face(card) == face(card + 55)  # the second deck is a copy of the first
    assert {c["deck"] for c in listing} == {1, 2}


def test_counts_per_card_type() -> None:
    kinds = Counter(f.kind for f in FACES)
    assert kinds == {
        "monomer": 40,
        "initiator": 8,
        "termination": 3,
        "tempo": 2,
        "cta": 1,
        "copolymer": 1,
    }
    assert Counter(f.mechanism for f in FACES if f.kind == "termination") == {
        "combination": 2,
        "disproportionation": 1,
    }
    for key in MONOMERS:
        values = Counter(f.value for f in FACES if f.key == key)
        assert values == {1: 4, 2: 3, 3: 3}


@pytest.mark.parametrize(("key", "mass"), sorted(REFERENCE.items()))
def test_monomer_molar_masses_are_computed_from_their_formulas(key: str, mass: float) -> None:
    monomer = MONOMERS[key]
    assert monomer.molar_mass == formula_mass(str(monomer.formula))
    assert monomer.molar_mass == pytest.approx(mass, abs=0.01)


def test_the_four_monomers_have_four_different_masses() -> None:
    assert len({m.molar_mass for m in MONOMERS.values()}) == 4


def test_every_chain_start_has_value_one_monomers_to_spare() -> None:
    ones = sum(1 for f in FACES if f.kind == "monomer" and f.value == 1)
    starts = sum(f.radicals for f in FACES if f.kind == "initiator")
    starts += sum(1 for f in FACES if f.kind == "cta")
    assert ones >= starts  # 16 value-1 monomers for 11 radicals and 1 CTA per deck


def composition(formula: str) -> Counter[str]:
    return Counter(
        {symbol: int(n) for symbol, n, _mass, _fraction in Formula(formula).composition().astuple()}
    )


def test_radicals_balance_their_parent_molecules() -> None:
    """The fragments on the cards are what the initiators really give."""
    aibn = next(f for f in FACES if f.key == "aibn")
    fenton = next(f for f in FACES if f.key == "fenton")
    cta = next(f for f in FACES if f.kind == "cta")
    assert aibn.fragment and fenton.fragment and cta.fragment
    # AIBN -> 2 (CH3)2C(CN)* + N2
    assert composition(str(aibn.formula)) == composition(aibn.fragment) + composition(
        aibn.fragment
    ) + composition("N2")
    # H2O2 + Fe2+ -> HO* + OH- + Fe3+ : hydrogen peroxide gives two OH halves
    assert composition(str(fenton.formula)) == composition(fenton.fragment) + composition(
        fenton.fragment
    )
    # R-SH + P* -> P-H + RS*
    assert composition(str(cta.formula)) == composition(cta.fragment) + composition("H")


def test_cards_as_shown() -> None:
    assert card_json(1) == {
        "id": 1,
        "kind": "monomer",
        "key": "styrene",
        "name": "Styrene",
        "joker": False,
        "value": 1,
        "formula": "C8H8",
        "molar_mass": formula_mass("C8H8"),
        "compound": "styrene",
        "smiles": "C=Cc1ccccc1",
    }
    # the seed's grey label: termination, TEMPO, CTA and copolymer cards, and no other
    for card in GAME.deck():
        assert card["joker"] is (card["kind"] in ("termination", "tempo", "cta", "copolymer"))
        assert (
            ("smiles" in card)
            is ("formula" in card)
            is (card["kind"] not in ("termination", "copolymer"))
        )
    aibn = next(c for c in GAME.deck() if c["kind"] == "initiator" and c["radicals"] == 2)
    assert aibn["name"] == "AIBN" and aibn["fragment"] == "C4H6N" and "N2" in aibn["reaction"]


def test_the_catalogue_lists_the_deck_and_the_deal_table() -> None:
    info = GAME.info
    assert info.player_counts[2]["hand_size"] == 15 and info.player_counts[4]["hand_size"] == 11
