"""Ions: monatomic ions and their names, the ionic compound two ions form, and the
largest set of ion pairs a set of element cards can form.

Nothing here is typed per ion or per pair. An ion's charge must be one of its
element's common ion charges (:mod:`rules.chemistry.elements`); whether its element
is a metal, a non-metal or a metalloid comes from the element's family; its name
follows the IUPAC rules for monatomic ions (a cation keeps the element's name, with a
Roman numeral when the element forms several cations; an anion is the element's root
+ "ide"); a compound's formula is the lowest whole-number ratio of the two ions that
cancels their charges, checked with :mod:`molmass` (its composition and its charge),
and its name is the two ion names without the word "ion".

>>> ca, n = ion("Ca2+"), ion("N3-")
>>> ca.name, ca.kind, n.name, n.kind
('calcium ion', 'metal', 'nitride ion', 'non-metal')
>>> c = ionic_compound(ca, n)
>>> c.formula, c.name, c.cations, c.anions, c.equation()
('Ca3N2', 'calcium nitride', 3, 2, '3 Ca2+ + 2 N3- -> Ca3N2')
>>> ionic_compound(ion("Na+"), ion("Cl-")).equation()
'Na+ + Cl- -> NaCl'

Ion pairs among element cards (the Chemistry Card Game's ionization): "Score 5 points
for each matching pair of positive and negative ions with the same number of charges.
Each element can only be used in one pair." A pair is one cation (an element playing
one of its positive charges ``+k``) and one anion (another element playing one of its
negative charges ``-k``). An element with several charges may play any one of them;
an element with charges of both signs (hydrogen: +1 and -1; carbon: +4 and -4) may be
the cation or the anion, but is still used at most once. Finding the most pairs is a
maximum matching; it is solved exactly (see :func:`max_ion_pairs`), never greedily.

>>> [(p.cation, p.anion, p.charge) for p in max_ion_pairs([11, 17, 20, 8])]
[(11, 17, 1), (20, 8, 2)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import product
from math import gcd

import molmass

from rules.chemistry.elements import BY_SYMBOL, ELEMENTS, Element, element

__all__ = [
    "METAL_FAMILIES",
    "NON_METAL_FAMILIES",
    "Ion",
    "IonError",
    "IonPair",
    "IonicCompound",
    "anion_root",
    "ion",
    "ionic_compound",
    "label",
    "max_ion_pairs",
]

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
"""Families whose elements are metals."""

NON_METAL_FAMILIES = frozenset({"nonmetal", "halogen"})
"""Families whose elements are non-metals that form ions (noble gases form none)."""

# Anion names: the element's name without one of these endings, + "ide" (IUPAC
# nomenclature of monatomic anions: hydride, carbide, nitride, oxide, fluoride,
# phosphide, sulfide, chloride, arsenide, selenide, bromide, telluride, iodide,
# astatide). Tried in order.
_ANION_ENDINGS = ("ygen", "ogen", "orus", "ine", "ium", "on", "ur", "ic")

_ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")

_LABEL = re.compile(r"([A-Z][a-z]?)([2-9]?)([+-])")


# ---------------------------------------------------------------- monatomic ions ----
@dataclass(frozen=True)
class Ion:
    """A monatomic ion.

    ``label`` is the symbol with its charge written as a card prints it ("Ca2+",
    "Cl-"); ``charge`` is signed; ``kind`` is the element's: "metal", "non-metal" or
    "metalloid".
    """

    label: str
    symbol: str
    element: str
    charge: int
    name: str
    kind: str

    @property
    def magnitude(self) -> int:
        """The charge number without its sign."""
        return abs(self.charge)

    def signed(self, count: int = 1) -> str:
        """``count`` of these ions' total charge, signed: ``+6``, ``-2``."""
        return f"{self.charge * count:+d}"


def label(symbol: str, charge: int) -> str:
    """An ion's label: the symbol, then the charge number (1 omitted) and the sign.

    >>> label("Ca", 2), label("Cl", -1)
    ('Ca2+', 'Cl-')
    """
    number = str(abs(charge)) if abs(charge) != 1 else ""
    return f"{symbol}{number}{'+' if charge > 0 else '-'}"


def anion_root(name: str) -> str:
    """The root of an element's name that takes the ending "-ide".

    >>> [anion_root(n) for n in ("Oxygen", "Nitrogen", "Chlorine", "Sulfur", "Arsenic")]
    ['ox', 'nitr', 'chlor', 'sulf', 'arsen']
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


def _kind(e: Element) -> str:
    if e.family in METAL_FAMILIES:
        return "metal"
    if e.family in NON_METAL_FAMILIES:
        return "non-metal"
    return "metalloid"


class IonError(ValueError):
    """A label that does not name an ion (the message says why)."""


@cache
def ion(text: str) -> Ion:
    """The monatomic ion a label names, checked against the chemistry data.

    >>> ion("Al3+")
    Ion(label='Al3+', symbol='Al', element='Aluminium', charge=3, name='aluminium ion', \
kind='metal')
    >>> ion("Fe3+").name, ion("H-").name, ion("As3-").kind
    ('iron(III) ion', 'hydride ion', 'metalloid')
    >>> ion("Na2+")
    Traceback (most recent call last):
    ...
    rules.chemistry.ions.IonError: Na2+ is not an ion of sodium: its ion charge is +1.
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
    _check_with_molmass(symbol, charge)
    name = _cation_name(e, charge) if charge > 0 else f"{anion_root(e.name)}ide ion"
    return Ion(
        label=label(symbol, charge),
        symbol=symbol,
        element=e.name,
        charge=charge,
        name=name,
        kind=_kind(e),
    )


def _check_with_molmass(symbol: str, charge: int) -> None:
    parsed = molmass.Formula(f"[{symbol}]{abs(charge)}{'+' if charge > 0 else '-'}")
    if int(parsed.charge) != charge or parsed.formula.split("]")[0] != f"[{symbol}":
        raise ValueError(f"molmass reads [{symbol}] with charge {parsed.charge}, not {charge}")


# ---------------------------------------------------------------- ionic compounds ---
@dataclass(frozen=True)
class IonicCompound:
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

        >>> ionic_compound(ion("Al3+"), ion("O2-")).equation(2)
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
def ionic_compound(cation: Ion, anion: Ion) -> IonicCompound:
    """The compound ``cation`` and ``anion`` form: as many of each as cancel the charges.

    The formula is derived from the charges (lowest whole-number ratio) and checked
    with molmass: its composition must be exactly those atoms. The molar mass is
    molmass's, in g/mol.

    >>> c = ionic_compound(ion("Al3+"), ion("O2-"))
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
    return IonicCompound(
        cation=cation,
        anion=anion,
        cations=cations,
        anions=anions,
        formula=formula,
        name=f"{cation.name.removesuffix(' ion')} {anion.name.removesuffix(' ion')}",
        molar_mass=float(parsed.mass),
    )


# ---------------------------------------------------------------- ion pairs ---------
@dataclass(frozen=True)
class IonPair:
    """A cation giving ``+charge`` matched with an anion giving ``-charge``.

    >>> IonPair(cation=26, anion=8, charge=2)
    IonPair(cation=26, anion=8, charge=2)
    """

    cation: int
    anion: int
    charge: int


# Charge magnitudes each element can offer as a cation / as an anion, by atomic number.
_POS: tuple[frozenset[int], ...] = (
    frozenset(),
    *(frozenset(c for c in e.ion_charges if c > 0) for e in ELEMENTS),
)
_NEG: tuple[frozenset[int], ...] = (
    frozenset(),
    *(frozenset(-c for c in e.ion_charges if c < 0) for e in ELEMENTS),
)
_MAX_Z = len(ELEMENTS)
# Computed once (a scoring of a new pile runs them for every cation): the anions each
# element pairs with as a cation, and each such pair's charge (the smallest they share).
_PAIRS_WITH: tuple[frozenset[int], ...] = tuple(
    frozenset(a for a in range(1, _MAX_Z + 1) if _POS[c] & _NEG[a]) for c in range(_MAX_Z + 1)
)
_ION_PAIR: dict[tuple[int, int], IonPair] = {
    (c, a): IonPair(c, a, min(_POS[c] & _NEG[a])) for c in range(_MAX_Z + 1) for a in _PAIRS_WITH[c]
}
# Which sides each element can take: none (a noble gas), cation only, anion only, both.
_NONE, _CATION, _ANION, _BOTH = 0, 1, 2, 3
_SIDE: tuple[int, ...] = tuple(
    (_CATION if _POS[z] else _NONE) | (_ANION if _NEG[z] else _NONE) for z in range(_MAX_Z + 1)
)


def _matching(cations: list[int], anions: list[int]) -> dict[int, int]:
    """Maximum bipartite matching (Kuhn's augmenting paths): anion -> cation.

    Cations are tried in the given order, each scanning anions in the given order,
    so the result depends only on the two lists. Once every anion has a cation no
    path can augment (and a failed search changes nothing), so the rest are not tried.
    """
    adjacency: dict[int, list[int]] = {}  # of the cations tried so far
    owner: dict[int, int] = {}

    def augment(c: int, seen: set[int]) -> bool:
        for a in adjacency[c]:
            if a in seen:
                continue
            seen.add(a)
            if a not in owner or augment(owner[a], seen):
                owner[a] = c
                return True
        return False

    wanted = len(anions)
    for c in cations:
        if len(owner) == wanted:
            break
        partners = _PAIRS_WITH[c]
        adjacency[c] = adjacent = [a for a in anions if a in partners]
        if adjacent:
            augment(c, set())
    return owner


def _distinct(numbers: Iterable[int]) -> list[int]:
    """The distinct atomic numbers, sorted; anything but an int of 1..103 goes through
    :func:`element` (which raises as it does, or reads an int subclass's number)."""
    zs: set[int] = set()
    for z in numbers:
        zs.add(z if type(z) is int and 0 < z <= _MAX_Z else element(z).number)
    return sorted(zs)


def max_ion_pairs(numbers: Iterable[int]) -> list[IonPair]:
    """A largest list of ion pairs among the elements ``numbers`` (a set of cards).

    Exact: every side (cation or anion) of each element that has charges of both
    signs is tried, and for each the bipartite maximum matching is found. The
    answer is deterministic and independent of the order of ``numbers``: sides are
    tried cation-first in increasing atomic number, the first assignment reaching
    the maximum wins, and within it cations claim anions in increasing atomic
    number. A pair's ``charge`` is the smallest magnitude the two share. Duplicates
    in ``numbers`` are ignored; a number outside 1..103 raises ``KeyError``.
    Pairs come sorted by cation, then anion.

    >>> [(p.cation, p.anion, p.charge) for p in max_ion_pairs([1, 11, 17])]  # H+ Cl-
    [(1, 17, 1)]
    >>> [(p.cation, p.anion, p.charge) for p in max_ion_pairs([7, 8, 26, 20])]
    [(20, 8, 2), (26, 7, 3)]
    >>> max_ion_pairs([2, 10, 18])
    []
    """
    zs = _distinct(numbers)
    both: list[int] = []
    only_pos: list[int] = []
    only_neg: list[int] = []
    for z in zs:  # in increasing atomic number, so each list is sorted too
        side_of = _SIDE[z]
        if side_of == _BOTH:
            both.append(z)
        elif side_of == _CATION:
            only_pos.append(z)
        elif side_of == _ANION:
            only_neg.append(z)

    best: dict[int, int] = {}
    if not both and only_pos and only_neg:
        # every card has one side: the one assignment the loop below would try
        best = _matching(only_pos, only_neg)
    for sides in product((True, False), repeat=len(both)) if both else ():
        side = dict(zip(both, sides, strict=True))
        cations = sorted(only_pos + [z for z in both if side[z]])
        anions = sorted(only_neg + [z for z in both if not side[z]])
        if not cations or not anions:
            continue
        owner = _matching(cations, anions)
        if len(owner) > len(best):
            best = owner
            if len(best) == len(zs) // 2:  # at most one card left over: cannot do better
                break
    pairs = [_ION_PAIR[c, a] for a, c in best.items()]
    pairs.sort(key=lambda p: (p.cation, p.anion))
    return pairs
