"""The cards of the polymer-chain game, read from ``polymerization-55.toml``.

Every chemical number on a card is computed from its formula with :mod:`molmass`;
the deck file holds only names, formulas, the game's own numbers (a monomer's value,
an initiator's radicals) and the copies per deck.

>>> face(1).name, face(1).value, round(face(1).molar_mass, 2)
('Styrene', 1, 104.15)
>>> [f.key for f in FACES if f.kind == "initiator"][:1], DECK_SIZE
(['fenton'], 55)
>>> round(end_group_mass("C4H6N"), 3), round(end_group_mass("-H"), 3)
(68.097, -1.008)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from molmass import Formula

from rules.chemistry.decks import load

DECK_FILE = "polymerization-55"

MONOMER = "monomer"
INITIATOR = "initiator"
TERMINATION = "termination"
TEMPO = "tempo"
CTA = "cta"
COPOLYMER = "copolymer"
JOKERS = (TERMINATION, TEMPO, CTA, COPOLYMER)
KINDS = (MONOMER, INITIATOR, *JOKERS)

COMBINATION = "combination"
DISPROPORTIONATION = "disproportionation"
MECHANISMS = (COMBINATION, DISPROPORTIONATION)
AIBN_KEY = "aibn"


@dataclass(frozen=True)
class Face:
    """What is printed on a card (identical copies share a face)."""

    key: str
    kind: str
    name: str
    formula: str | None = None
    molar_mass: float | None = None
    compound: str | None = None
    smiles: str | None = None
    value: int = 0
    radicals: int = 0
    fragment: str | None = None
    mechanism: str | None = None
    polymer: str | None = None
    reaction: str | None = None

    @property
    def joker(self) -> bool:
        return self.kind in JOKERS

    def to_json(self) -> dict[str, Any]:
        """The face as a card shows it: the joker flag (the seed's grey label) on every
        card; formula, molar mass, compound and structure on every card with a formula."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "key": self.key,
            "name": self.name,
            "joker": self.joker,
        }
        if self.kind == MONOMER:
            out["value"] = self.value
        if self.formula is not None:
            out.update(
                formula=self.formula,
                molar_mass=self.molar_mass,
                compound=self.compound,
                smiles=self.smiles,
            )
        if self.kind == INITIATOR:
            out.update(radicals=self.radicals, fragment=self.fragment)
        elif self.kind == TERMINATION:
            out["mechanism"] = self.mechanism
        return out


@cache
def formula_mass(formula: str) -> float:
    """Average molar mass in g/mol of ``formula``, from molmass, rounded to 10^-6."""
    return round(float(Formula(formula).mass), 6)


HYDROGEN = "H"
UNSATURATED = "-H"
"""The end a disproportionation leaves on the chain that gives up a hydrogen atom
(a C=C double bond): one hydrogen atom less than the radical it was."""


def end_group_mass(group: str) -> float:
    """Mass of an end group: a formula (``HO``, ``C4H6N``...) or ``-H`` (one H less)."""
    if group == UNSATURATED:
        return -formula_mass(HYDROGEN)
    return formula_mass(group)


def _faces(spec: Mapping[str, Any]) -> tuple[Face, ...]:
    faces: list[Face] = []
    for m in spec["monomer"]:
        mass = formula_mass(m["formula"])
        for value in (1, 2, 3):
            face = Face(
                key=m["key"],
                kind=MONOMER,
                name=m["name"],
                formula=m["formula"],
                molar_mass=mass,
                compound=m["compound"],
                smiles=m["smiles"],
                value=value,
                polymer=m["polymer"],
            )
            faces += [face] * int(m["copies"][str(value)])
    for i in spec["initiator"]:
        face = Face(
            key=i["key"],
            kind=INITIATOR,
            name=i["name"],
            formula=i["formula"],
            molar_mass=formula_mass(i["formula"]),
            compound=i["compound"],
            smiles=i["smiles"],
            radicals=int(i["radicals"]),
            fragment=i["fragment"],
            reaction=i["reaction"],
        )
        faces += [face] * int(i["copies"])
    for j in spec["joker"]:
        formula = j.get("formula")
        face = Face(
            key=j["key"],
            kind=j["kind"],
            name=j["name"],
            formula=formula,
            molar_mass=formula_mass(formula) if formula else None,
            compound=j.get("compound"),
            smiles=j.get("smiles"),
            fragment=j.get("fragment"),
            mechanism=j["key"] if j["kind"] == TERMINATION else None,
            reaction=j["reaction"],
        )
        faces += [face] * int(j["copies"])
    return tuple(faces)


SPEC = load(DECK_FILE)
FACES: tuple[Face, ...] = _faces(SPEC)
"""One deck of 55 cards, in the order of the deck file (card id = position + 1)."""
DECK_SIZE = len(FACES)
if int(SPEC["deck"]["cards_per_deck"]) != DECK_SIZE:
    raise ValueError(f"{DECK_FILE}: the copies add up to {DECK_SIZE} cards, not 55")
MAX_DECKS = int(SPEC["deck"]["decks"])

MONOMERS: Mapping[str, Face] = MappingProxyType(
    {f.key: f for f in FACES if f.kind == MONOMER and f.value == 1}
)
"""Each monomer by key (its value-1 face): name, formula and molar mass."""

INITIATORS: Mapping[str, Face] = MappingProxyType({f.key: f for f in FACES if f.kind == INITIATOR})
"""Each initiator by key."""

CTA_FACE = next(f for f in FACES if f.kind == CTA)
TEMPO_FACE = next(f for f in FACES if f.kind == TEMPO)


def face(card: int) -> Face:
    """The face of card ``card`` (ids repeat the 55 faces deck after deck)."""
    return FACES[(card - 1) % DECK_SIZE]


def all_ids(decks: int) -> range:
    """Card ids of ``decks`` decks."""
    return range(1, DECK_SIZE * decks + 1)


def deck_listing(decks: int = MAX_DECKS) -> list[dict[str, Any]]:
    """Every card, with the chemistry the rules use (``GET /v1/games/polymerization``)."""
    out = []
    for card in all_ids(decks):
        f = face(card)
        entry = {"id": card, "deck": (card - 1) // DECK_SIZE + 1, **f.to_json()}
        if f.polymer:
            entry["polymer"] = f.polymer
        if f.reaction:
            entry["reaction"] = f.reaction
        out.append(entry)
    return out
