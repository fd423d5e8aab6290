"""Compounds on cards: formulas parsed with molmass, ion charges, and exact captures.

A compound card names a formula; everything else on it is derived here: the element
counts (``molmass.Formula(...).composition()``), the molar mass, and for an ionic
compound the ion charges that balance (from :mod:`rules.chemistry.elements`).

Capturing a compound (Compound Capture, Chemistry Canasta) means playing exactly its
atoms as cards: one element card per atom, where wild cards may stand for any element
but at least one real element card must be played. :func:`capture_parts` checks a
play and explains it; :func:`capture_choices` lists every distinct way a hand can
capture a compound.

>>> co2 = parse_compound("CO2", "Carbon dioxide")
>>> co2.elements, co2.atoms, co2.molar_mass
((('C', 1), ('O', 2)), 3, 44.01)
>>> parts = capture_parts(co2, [element_face(1, "C"), element_face(2, "O"), wild_face(9)])
>>> [(p["card"], p["symbol"], p["wild"]) for p in parts]
[(1, 'C', False), (2, 'O', False), (9, 'O', True)]
>>> capture_choices(co2, [element_face(1, "C"), element_face(2, "O"), wild_face(9)])
[[1, 2, 9]]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import product
from typing import Any

import molmass

from rules.chemistry.elements import BY_SYMBOL, FAMILIES
from rules.core import JSON, RuleViolation

__all__ = [
    "BONDINGS",
    "Compound",
    "Ion",
    "capture_choices",
    "capture_parts",
    "capture_text",
    "element_face",
    "explain",
    "ion_balance",
    "missing_atoms",
    "parse_compound",
    "wild_face",
]

BONDINGS = ("covalent", "ionic")

SEED_CAPTURE = (
    "To capture the card the player must state the compound they want to capture and play "
    "the required elements onto the discard pile. [...] Wild cards may be substituted for "
    "element cards."
)
SEED_NOT_ALL_WILD = (
    "A compound cannot be captured entirely with wild cards. The player must have at least "
    "one element card in the play to capture the compound."
)

# Families whose elements are metals: a compound with one of them is ionic by default.
_METAL_FAMILIES = frozenset(FAMILIES) - {"nonmetal", "halogen", "noble-gas", "metalloid"}


@dataclass(frozen=True)
class Ion:
    """``count`` ions of element ``symbol``, each of charge ``charge``."""

    symbol: str
    charge: int
    count: int

    def label(self) -> str:
        """``Al3+``, ``O2-``, ``Na+``.

        >>> Ion("O", -2, 3).label(), Ion("Na", 1, 1).label()
        ('O2-', 'Na+')
        """
        size = abs(self.charge)
        return f"{self.symbol}{size if size > 1 else ''}{'+' if self.charge > 0 else '-'}"


@dataclass(frozen=True)
class Compound:
    """A compound card's chemistry.

    ``elements`` are ``(symbol, count)`` in the order the formula writes them;
    ``ions`` (ionic compounds whose ions balance with one charge per element) give the
    charges that make the compound neutral, else ``None``.
    """

    formula: str
    name: str
    bonding: str
    elements: tuple[tuple[str, int], ...]
    molar_mass: float
    ions: tuple[Ion, ...] | None

    @cached_property
    def atoms(self) -> int:
        """How many element cards a capture plays."""
        return sum(n for _, n in self.elements)

    def need(self) -> dict[str, int]:
        """``symbol -> count``, in formula order."""
        return dict(self.elements)


def _order(formula: str, symbols: set[str]) -> list[str]:
    """The symbols of ``formula`` in the order it writes them (molmass sorts them)."""
    seen: list[str] = []
    for symbol in re.findall(r"[A-Z][a-z]?", formula):
        if symbol in symbols and symbol not in seen:
            seen.append(symbol)
    return seen


def parse_compound(formula: str, name: str | None = None, bonding: str | None = None) -> Compound:
    """The compound written ``formula`` (molmass syntax: ``Ca(OH)2``, ``Al2O3``).

    ``name`` defaults to the formula; ``bonding`` defaults to ``ionic`` when the
    compound contains a metal, else ``covalent``. Raises ``ValueError`` saying what is
    wrong for anything that is not a neutral formula of elements 1-103 (no isotopes,
    no charges).

    >>> parse_compound("Al2O3").bonding, parse_compound("Al2O3").ions
    ('ionic', (Ion(symbol='Al', charge=3, count=2), Ion(symbol='O', charge=-2, count=3)))
    >>> parse_compound("NH3").elements
    (('N', 1), ('H', 3))
    >>> parse_compound("Xy2")
    Traceback (most recent call last):
    ...
    ValueError: 'Xy2' is not a chemical formula (use symbols such as H2O, CO2, Al2O3).
    """
    if not isinstance(formula, str) or not 1 <= len(formula.strip()) <= 40:
        raise ValueError(f"{formula!r} is not a chemical formula of 1-40 characters.")
    formula = formula.strip()
    try:
        parsed = molmass.Formula(formula)
        composition = parsed.composition()
        charge = int(parsed.charge)
        mass = float(parsed.mass)
    except Exception:  # molmass raises several error types for a bad formula
        raise ValueError(
            f"{formula!r} is not a chemical formula (use symbols such as H2O, CO2, Al2O3)."
        ) from None
    counts = {str(symbol): int(item.count) for symbol, item in composition.items()}
    odd = sorted(s for s in counts if s not in BY_SYMBOL)
    if charge or odd:
        raise ValueError(
            f"{formula!r} must be a neutral compound of ordinary elements "
            f"(no ions, isotopes or electrons: {', '.join(odd) or 'a charge'})."
        )
    order = _order(formula, set(counts))
    if sorted(order) != sorted(counts):  # molmass abbreviations (e.g. "Me") are not kept
        raise ValueError(f"{formula!r}: write every element by its symbol.")
    elements = tuple((s, counts[s]) for s in order)
    if bonding is None:
        metal = any(BY_SYMBOL[s].family in _METAL_FAMILIES for s in counts)
        bonding = "ionic" if metal else "covalent"
    if bonding not in BONDINGS:
        raise ValueError(f"bonding must be one of {list(BONDINGS)}, not {bonding!r}.")
    ions = ion_balance(elements) if bonding == "ionic" else None
    return Compound(
        formula=formula,
        name=(name or formula).strip(),
        bonding=bonding,
        elements=elements,
        molar_mass=round(mass, 3),
        ions=ions,
    )


def ion_balance(elements: Sequence[tuple[str, int]]) -> tuple[Ion, ...] | None:
    """One charge per element, from the ion table, that makes the compound neutral.

    Tries each element's charges in the table's order (positive first) and returns the
    first neutral assignment, or ``None``. The table has the simple ions of a school
    chart, so salts of polyatomic ions (Na2SO4) find none.

    >>> [i.label() for i in ion_balance((("Ca", 1), ("Cl", 2)))]
    ['Ca2+', 'Cl-']
    >>> ion_balance((("Na", 2), ("S", 1), ("O", 4))) is None
    True
    """
    choices = [BY_SYMBOL[s].ion_charges for s, _ in elements]
    if not all(choices):
        return None
    for charges in product(*choices):
        if sum(c * n for c, (_, n) in zip(charges, elements, strict=True)) == 0:
            return tuple(Ion(s, c, n) for c, (s, n) in zip(charges, elements, strict=True))
    return None


def explain(compound: Compound) -> str:
    """One sentence on the bonding of ``compound``, for a learner.

    >>> explain(parse_compound("Al2O3", "Aluminium oxide"))
    'Al2O3 (aluminium oxide) is ionic: 2 Al3+ give +6 and 3 O2- give -6, so the compound is \
neutral. Molar mass 101.961 g/mol.'
    >>> explain(parse_compound("CO2", "Carbon dioxide"))
    'CO2 (carbon dioxide) is covalent: 1 C and 2 O atoms share electron pairs in one \
molecule. Molar mass 44.01 g/mol.'
    """
    head = compound.formula
    if compound.name != compound.formula:
        head += f" ({compound.name[0].lower() + compound.name[1:]})"
    mass = f"Molar mass {compound.molar_mass:g} g/mol."
    if compound.bonding == "ionic":
        if compound.ions is None:
            return f"{head} is ionic. {mass}"
        sides = [
            f"{i.count} {i.label()} give {'+' if i.charge > 0 else '-'}{abs(i.charge) * i.count}"
            for i in compound.ions
        ]
        return f"{head} is ionic: {' and '.join(sides)}, so the compound is neutral. {mass}"
    atoms = " and ".join(f"{n} {s}" for s, n in compound.elements)
    return f"{head} is covalent: {atoms} atoms share electron pairs in one molecule. {mass}"


# ---------------------------------------------------------------- cards -------------
def element_face(card: int, symbol: str) -> JSON:
    """A minimal element card face (games add their own fields)."""
    return {"id": card, "kind": "element", "symbol": symbol}


def wild_face(card: int, law: str = "") -> JSON:
    """A minimal wild card face."""
    return {"id": card, "kind": "wild", "law": law}


def _split(cards: Sequence[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], list[int]]:
    elements = [c for c in cards if c["kind"] == "element"]
    wilds = sorted(int(c["id"]) for c in cards if c["kind"] == "wild")
    return elements, wilds


def missing_atoms(compound: Compound, symbols: Sequence[str]) -> dict[str, int]:
    """The atoms of ``compound`` that the element ``symbols`` do not cover.

    >>> missing_atoms(parse_compound("CO2"), ["O", "Na"])
    {'C': 1, 'O': 1}
    """
    have = Counter(symbols)
    return {s: n - have[s] for s, n in compound.elements if n > have[s]}


def _describe(counts: Mapping[str, int]) -> str:
    return " + ".join(f"{n} {s}" for s, n in counts.items())


def capture_parts(compound: Compound, cards: Sequence[Mapping[str, Any]]) -> list[JSON]:
    """Check that ``cards`` (element and wild faces) capture ``compound`` exactly, and
    say what each card is: ``{"card", "symbol", "wild"}`` (a wild with its ``law``).

    Exact means one card per atom: every element card is an atom the formula needs, and
    the wild cards are exactly the atoms left over; each wild stands for one of them,
    in the formula's order, wilds taken by increasing id. Raises ``RuleViolation``
    ``all_wild`` (no element card) or ``wrong_elements`` (missing or surplus cards).

    >>> capture_parts(parse_compound("CO2"), [wild_face(7), wild_face(8), wild_face(9)])
    Traceback (most recent call last):
    ...
    rules.core.RuleViolation: CO2 cannot be captured with wild cards alone: play at least one \
of its elements (C, O) as a real element card.
    """
    elements, wilds = _split(cards)
    if not elements:
        raise RuleViolation(
            "all_wild",
            f"{compound.formula} cannot be captured with wild cards alone: play at least one "
            f"of its elements ({', '.join(s for s, _ in compound.elements)}) as a real "
            "element card.",
            rule=SEED_NOT_ALL_WILD,
            compound=compound.formula,
        )
    need = compound.need()
    played = Counter(str(c["symbol"]) for c in elements)
    surplus = {s: n - need.get(s, 0) for s, n in played.items() if n > need.get(s, 0)}
    missing = missing_atoms(compound, list(played.elements()))
    if surplus or sum(missing.values()) != len(wilds):
        problems = []
        if surplus:
            problems.append(f"{_describe(surplus)} that {compound.formula} does not need")
        gap = sum(missing.values()) - len(wilds)
        if gap > 0:
            problems.append(f"{gap} card(s) short: still missing {_describe(missing)}")
        elif gap < 0:
            problems.append(f"{-gap} wild card(s) too many")
        raise RuleViolation(
            "wrong_elements",
            f"{compound.formula} needs exactly {_describe(need)} ({compound.atoms} cards, "
            f"wild cards standing in for any of them); you played {'; '.join(problems)}.",
            rule=SEED_CAPTURE,
            compound=compound.formula,
            missing=missing,
            surplus=surplus,
        )
    parts: list[JSON] = [
        {"card": int(c["id"]), "symbol": str(c["symbol"]), "wild": False} for c in elements
    ]
    stand_ins = [s for s, n in missing.items() for _ in range(n)]
    laws = {int(c["id"]): str(c.get("law", "")) for c in cards if c["kind"] == "wild"}
    for card, symbol in zip(wilds, stand_ins, strict=True):
        parts.append({"card": card, "symbol": symbol, "wild": True, "law": laws[card]})
    order = {s: i for i, (s, _) in enumerate(compound.elements)}
    parts.sort(key=lambda p: (order[p["symbol"]], p["wild"], p["card"]))
    return parts


def capture_text(compound: Compound, parts: Sequence[Mapping[str, Any]]) -> str:
    """The call a player makes, for the event a learner reads.

    >>> co2 = parse_compound("CO2")
    >>> parts = [{"card": 1, "symbol": "C", "wild": False}, {"card": 2, "symbol": "O",
    ...     "wild": False}, {"card": 3, "symbol": "O", "wild": True,
    ...     "law": "Law of Conservation of Mass"}]
    >>> capture_text(co2, parts)
    'CO2 captured: C + O + O (wild: Law of Conservation of Mass as O)'
    """
    text = f"{compound.formula} captured: " + " + ".join(str(p["symbol"]) for p in parts)
    wilds = [f"{p['law'] or 'wild card'} as {p['symbol']}" for p in parts if p["wild"]]
    if wilds:
        text += f" (wild: {'; '.join(wilds)})"
    return text


def capture_choices(compound: Compound, hand: Sequence[Mapping[str, Any]]) -> list[list[int]]:
    """Every distinct way ``hand`` can capture ``compound``, fewest wilds first.

    Copies of the same element are interchangeable, and so are wild cards for this
    purpose, so each way is listed once, with the lowest-numbered copies. Empty when
    the hand cannot capture the compound.

    >>> hand = [element_face(4, "H"), element_face(2, "H"), element_face(3, "O"), wild_face(8)]
    >>> capture_choices(parse_compound("H2O"), hand)
    [[2, 3, 4], [2, 3, 8], [2, 4, 8]]
    """
    elements, wilds = _split(hand)
    by_symbol: dict[str, list[int]] = {}
    for card in sorted(elements, key=lambda c: int(c["id"])):
        by_symbol.setdefault(str(card["symbol"]), []).append(int(card["id"]))
    ranges = []
    for symbol, n in compound.elements:
        held = len(by_symbol.get(symbol, []))
        ranges.append(range(max(0, n - len(wilds)), min(n, held) + 1))  # real cards used
    out: list[tuple[int, list[int]]] = []
    for real in product(*ranges):
        stand_ins = compound.atoms - sum(real)
        if not sum(real) or stand_ins > len(wilds):
            continue
        cards = [
            c
            for (s, _), k in zip(compound.elements, real, strict=True)
            for c in by_symbol.get(s, [])[:k]
        ]
        out.append((stand_ins, sorted(cards + wilds[:stand_ins])))
    out.sort(key=lambda pair: (pair[0], pair[1]))
    return [cards for _, cards in out]
