"""The ions on the cards and the compounds they form: charges, names and formulas.

Nothing here is typed per ion or per pair. An ion's charge must be one of its
element's common ion charges in :mod:`rules.chemistry`; whether it is a metal comes
from the element's family; its name follows the IUPAC rules for monatomic ions (a
cation keeps the element's name, with a Roman numeral when the element forms several
cations; an anion is the element's root + "ide"); a compound's formula is the lowest
whole-number ratio of the two ions that cancels their charges, checked with
:mod:`molmass` (its composition and its charge), and its name is the two ion names
without the word "ion".

>>> ca, n = ion("Ca2+"), ion("N3-")
>>> ca.name, ca.kind, n.name, n.kind
('calcium ion', 'metal', 'nitride ion', 'non-metal')
>>> c = compound(ca, n)
>>> c.formula, c.name, c.cations, c.anions, c.equation()
('Ca3N2', 'calcium nitride', 3, 2, '3 Ca2+ + 2 N3- -> Ca3N2')
>>> compound(ion("Na+"), ion("Cl-")).equation()
'Na+ + Cl- -> NaCl'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from math import gcd

import molmass

from rules.chemistry.elements import BY_SYMBOL, Element

METAL_FAMILIES = frozenset(
    {
        "alkali-metal",
        "alkaline-earth-metal",
        "transition-metal",
        "post-transition-metal",
        "lanthanide",
        "actinide",
    }
)
"""Families whose elements are metals (the cards' "Metal")."""

NON_METAL_FAMILIES = frozenset({"nonmetal", "halogen"})
"""Families whose elements are non-metals that form anions (the cards' "Non-Metal").

Noble gases form no ions; metalloids (B, Si, Ge, As, Sb, Te) are neither, and the
game is "Metal vs. Non-Metal", so they are not allowed on a card.
"""

# Anion names: the element's name without one of these endings, + "ide" (IUPAC
# nomenclature of monatomic anions: hydride, carbide, nitride, oxide, fluoride,
# phosphide, sulfide, chloride, selenide, bromide, iodide, astatide). Tried in order.
_ANION_ENDINGS = ("ygen", "ogen", "orus", "ine", "ium", "on", "ur")

_ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")

_LABEL = re.compile(r"([A-Z][a-z]?)([2-9]?)([+-])")


@dataclass(frozen=True)
class Ion:
    """A monatomic ion as a card shows it.

    ``label`` is the symbol with its charge written as on the card ("Ca2+", "Cl-");
    ``charge`` is signed; ``kind`` is "metal" or "non-metal".
    """

    label: str
    symbol: str
    element: str
    charge: int
    name: str
    kind: str

    @property
    def magnitude(self) -> int:
        """The charge number without its sign (rule (iii)'s "charge number")."""
        return abs(self.charge)

    def signed(self, count: int = 1) -> str:
        """``count`` of these ions' total charge, signed: ``+6``, ``-2``."""
        return f"{self.charge * count:+d}"


def label(symbol: str, charge: int) -> str:
    """The label a card prints: the symbol, then the charge number (1 omitted) and sign.

    >>> label("Ca", 2), label("Cl", -1)
    ('Ca2+', 'Cl-')
    """
    number = str(abs(charge)) if abs(charge) != 1 else ""
    return f"{symbol}{number}{'+' if charge > 0 else '-'}"


def anion_root(name: str) -> str:
    """The root of a non-metal's name that takes the ending "-ide".

    >>> [anion_root(n) for n in ("Oxygen", "Nitrogen", "Chlorine", "Sulfur", "Phosphorus")]
    ['ox', 'nitr', 'chlor', 'sulf', 'phosph']
    """
    low = name.lower()
    for ending in _ANION_ENDINGS:
        if low.endswith(ending):
            return low[: -len(ending)]
    raise ValueError(f"no anion name rule for {name!r}")


def _cation_name(e: Element, charge: int) -> str:
    cations = [c for c in e.ion_charges if c > 0]
    base = e.name.lower()
    # Stock notation when the element forms several cations: iron(II), iron(III)
    return f"{base}({_ROMAN[charge]}) ion" if len(cations) > 1 else f"{base} ion"


class IonError(ValueError):
    """A label that is not an ion this game can put on a card (says why)."""


@cache
def ion(text: str) -> Ion:
    """The ion a card label names, checked against the chemistry data.

    >>> ion("Al3+")
    Ion(label='Al3+', symbol='Al', element='Aluminium', charge=3, name='aluminium ion', \
kind='metal')
    >>> ion("Fe3+").name
    'iron(III) ion'
    >>> ion("Na2+")
    Traceback (most recent call last):
    ...
    rules.metal_vs_nonmetal.ions.IonError: Na2+ is not an ion of sodium: its ion charge is +1.
    """
    match = _LABEL.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise IonError(
            f"{text!r} is not an ion label: write the element symbol, the charge number "
            "(none for 1) and the sign, as on the cards: Na+, Ca2+, Cl-, N3-."
        )
    symbol, number, sign = match.groups()
    e = BY_SYMBOL.get(symbol)
    if e is None:
        raise IonError(f"{text}: there is no element with the symbol {symbol!r}.")
    charge = int(number or 1) * (1 if sign == "+" else -1)
    if charge not in e.ion_charges:
        known = ", ".join(f"{c:+d}" for c in e.ion_charges) or "none (it forms no ions)"
        plural = "s are" if len(e.ion_charges) > 1 else " is"
        raise IonError(f"{text} is not an ion of {e.name.lower()}: its ion charge{plural} {known}.")
    if charge > 0 and e.family not in METAL_FAMILIES:
        raise IonError(f"{text}: {e.name.lower()} is not a metal, so it cannot be a cation card.")
    if charge < 0 and e.family not in NON_METAL_FAMILIES:
        raise IonError(
            f"{text}: {e.name.lower()} is not a non-metal, so it cannot be an anion card."
        )
    _check_with_molmass(symbol, charge)
    name = _cation_name(e, charge) if charge > 0 else f"{anion_root(e.name)}ide ion"
    return Ion(
        label=label(symbol, charge),
        symbol=symbol,
        element=e.name,
        charge=charge,
        name=name,
        kind="metal" if charge > 0 else "non-metal",
    )


def _check_with_molmass(symbol: str, charge: int) -> None:
    parsed = molmass.Formula(f"[{symbol}]{abs(charge)}{'+' if charge > 0 else '-'}")
    if int(parsed.charge) != charge or parsed.formula.split("]")[0] != f"[{symbol}":
        raise ValueError(f"molmass reads [{symbol}] with charge {parsed.charge}, not {charge}")


@dataclass(frozen=True)
class Compound:
    """The neutral compound of a cation and an anion, in lowest whole-number ratio."""

    cation: Ion
    anion: Ion
    cations: int
    anions: int
    formula: str
    name: str
    molar_mass: float

    def equation(self, units: int = 1) -> str:
        """The ions combining into ``units`` formula units, counts of 1 left out.

        >>> compound(ion("Al3+"), ion("O2-")).equation(2)
        '4 Al3+ + 6 O2- -> 2 Al2O3'
        """

        def term(n: int, text: str) -> str:
            return text if n == 1 else f"{n} {text}"

        return (
            f"{term(self.cations * units, self.cation.label)} + "
            f"{term(self.anions * units, self.anion.label)} -> {term(units, self.formula)}"
        )


def _part(symbol: str, count: int) -> str:
    return symbol if count == 1 else f"{symbol}{count}"


@cache
def compound(cation: Ion, anion: Ion) -> Compound:
    """The compound ``cation`` and ``anion`` form: as many of each as cancel the charges.

    The formula is derived from the charges (lowest whole-number ratio) and checked
    with molmass: its composition must be exactly those atoms. The molar mass is
    molmass's, in g/mol.

    >>> c = compound(ion("Al3+"), ion("O2-"))
    >>> c.formula, c.name, round(c.molar_mass, 2)
    ('Al2O3', 'aluminium oxide', 101.96)
    """
    if cation.charge <= 0 or anion.charge >= 0:
        raise ValueError(f"{cation.label} and {anion.label} are not a cation and an anion")
    common = gcd(cation.magnitude, anion.magnitude)
    cations, anions = anion.magnitude // common, cation.magnitude // common
    formula = _part(cation.symbol, cations) + _part(anion.symbol, anions)
    parsed = molmass.Formula(formula)
    atoms = {symbol: item.count for symbol, item in parsed.composition().items()}
    if atoms != {cation.symbol: cations, anion.symbol: anions}:
        raise ValueError(f"molmass reads {formula} as {atoms}")
    if cations * cation.charge + anions * anion.charge != 0:
        raise ValueError(f"{formula} is not neutral")
    return Compound(
        cation=cation,
        anion=anion,
        cations=cations,
        anions=anions,
        formula=formula,
        name=f"{cation.name.removesuffix(' ion')} {anion.name.removesuffix(' ion')}",
        molar_mass=float(parsed.mass),
    )
