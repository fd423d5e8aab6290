"""Facts about the 103 element cards (hydrogen to lawrencium).

Everything comes from :mod:`molmass` (names, symbols, masses, series and the
common oxidation states it stars); the few places where this project decides
something else are small commented tables below, each with its reason, and are
listed in ``docs/rules/element-draft.md``.

>>> from rules.chemistry.elements import BY_SYMBOL, element
>>> fe = element(26)
>>> fe.symbol, fe.name, fe.family, fe.ion_charges
('Fe', 'Iron', 'transition-metal', (2, 3))
>>> BY_SYMBOL["H"].ion_charges, BY_SYMBOL["Ar"].ion_charges
((1, -1), ())
>>> element(43).radioactive, element(43).mass_is_standard
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from molmass import ELEMENTS as _MOLMASS_ELEMENTS
from molmass.elements import SERIES as _MOLMASS_SERIES

__all__ = [
    "BISMUTH",
    "BY_SYMBOL",
    "ELEMENTS",
    "FAMILIES",
    "FAMILY_NAMES",
    "MAX_Z",
    "Element",
    "element",
    "is_radioactive",
    "parse_oxistates",
]

MAX_Z = 103
"""The deck runs from hydrogen (1) to lawrencium (103)."""

BISMUTH = 83
"""Bismuth's atomic number: the one element whose radioactivity is a setup option."""


@dataclass(frozen=True)
class Element:
    """One element card's facts.

    ``ion_charges`` are signed, non-zero and ordered: positive charges by size,
    then negative ones by size (hydrogen is ``(1, -1)``); empty for noble gases.

    >>> na = element(11)
    >>> (na.number, na.symbol, na.mass, na.family, na.ion_charges, na.radioactive)
    (11, 'Na', 22.98976928, 'alkali-metal', (1,), False)
    """

    number: int
    symbol: str
    name: str
    mass: float
    mass_is_standard: bool
    family: str
    ion_charges: tuple[int, ...]
    radioactive: bool


# --- Families -----------------------------------------------------------------

FAMILY_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "alkali-metal": "Alkali metals",
        "alkaline-earth-metal": "Alkaline earth metals",
        "transition-metal": "Transition metals",
        "post-transition-metal": "Post-transition metals",
        "metalloid": "Metalloids",
        "nonmetal": "Reactive nonmetals",
        "halogen": "Halogens",
        "noble-gas": "Noble gases",
        "lanthanide": "Lanthanides",
        "actinide": "Actinides",
    }
)
"""Family slug -> human name, in the order of :data:`FAMILIES`."""

FAMILIES: tuple[str, ...] = tuple(FAMILY_NAMES)
"""The ten family slugs (molmass's ten series under stable kebab-case names)."""

# molmass series name -> our slug. Keyed by name, not number, so that a renumbering
# in a later molmass release fails loudly at import instead of shuffling families.
_SERIES_SLUG: Mapping[str, str] = {
    "Nonmetals": "nonmetal",
    "Noble gases": "noble-gas",
    "Alkali metals": "alkali-metal",
    "Alkaline earth metals": "alkaline-earth-metal",
    "Metalloids": "metalloid",
    "Halogens": "halogen",
    "Poor metals": "post-transition-metal",
    "Transition metals": "transition-metal",
    "Lanthanides": "lanthanide",
    "Actinides": "actinide",
}

# Where this project's family differs from molmass's series. Everything else is
# molmass's, including these debated members, kept on purpose:
#   H  -> nonmetal (as on most school charts; a family of its own would be an 11th),
#   La..Lu -> lanthanide and Ac..Lr -> actinide (the IUPAC 15-member rows),
#   At -> halogen (group 17), Zn/Cd/Hg -> transition-metal, Al -> post-transition-metal.
_FAMILY_OVERRIDES: Mapping[int, str] = {
    # Polonium: molmass says metalloid. Po conducts like a metal and crystallises in
    # a metallic (simple cubic) lattice; the metalloids commonly recognised are
    # B, Si, Ge, As, Sb and Te. So it joins its row neighbours Tl, Pb and Bi.
    84: "post-transition-metal",
}


# --- Masses -------------------------------------------------------------------

# The 19 elements with no IUPAC standard atomic weight (no stable isotope and no
# characteristic terrestrial isotopic composition). For them molmass gives the mass
# of one isotope, the one printed in brackets in the NIST/IUPAC tables (its
# longest-lived known isotope, except Tc-98 vs Tc-97 and Lr-262 vs Lr-266, where
# later measurements moved the record; the game keeps molmass's value). Th, Pa and U
# are radioactive yet do have standard atomic weights, so they are not listed.
_NO_STANDARD_WEIGHT: frozenset[int] = frozenset(
    {43, 61, 84, 85, 86, 87, 88, 89, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103}
)


# --- Ion charges ----------------------------------------------------------------


def parse_oxistates(text: str) -> tuple[int, ...]:
    """The starred (common) non-zero oxidation states in a molmass ``oxistates`` string.

    >>> parse_oxistates("6, 3*, 2, 0, -2")
    (3,)
    >>> parse_oxistates("4*, 2, -4*")
    (4, -4)
    >>> parse_oxistates("*")
    ()
    """
    states: list[int] = []
    for part in text.split(","):
        token = part.strip()
        if not token.endswith("*"):
            continue
        value = token[:-1].strip()
        if value and int(value) != 0:
            states.append(int(value))
    return _ordered(states)


def _ordered(charges: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Positive charges by size, then negative charges by size; no duplicates."""
    return tuple(sorted(set(charges), key=lambda c: (c < 0, abs(c))))


# The rule: an element's ion charges are molmass's starred oxidation states
# (zero dropped). This table replaces them where a school ion chart differs.
# Each entry: atomic number -> (charges, reason).
_ION_CHARGE_OVERRIDES: Mapping[int, tuple[tuple[int, ...], str]] = {
    1: ((1, -1), "H+ and the hydride ion H- both appear on school charts"),
    15: ((-3,), "phosphide P3-; molmass stars +5, which is not a simple ion"),
    16: ((-2,), "sulfide S2-; molmass stars +6, which is not a simple ion"),
    33: ((-3,), "arsenide As3-, the group 15 anion; molmass stars +3"),
    34: ((-2,), "selenide Se2-, the group 16 anion; molmass stars +4"),
    52: ((-2,), "telluride Te2-, the group 16 anion; molmass stars +4"),
    24: ((2, 3), "chromium(II) and chromium(III); molmass stars only +3"),
    26: ((2, 3), "iron(II) and iron(III); molmass stars only +3"),
    27: ((2, 3), "cobalt(II) and cobalt(III); molmass stars only +2"),
    29: ((1, 2), "copper(I) and copper(II); molmass stars only +2"),
    79: ((1, 3), "gold(I) and gold(III); molmass stars only +3"),
    80: ((1, 2), "mercury(I) (as Hg2 2+) and mercury(II); molmass stars only +2"),
    82: ((2, 4), "lead(II) and lead(IV); molmass stars only +2"),
    75: ((4, 7), "rhenium(IV) and rhenium(VII); molmass stars no state at all"),
    36: ((), "noble gas: no ion on a school chart; molmass stars Kr +2 (KrF2)"),
    86: ((), "noble gas: no ion on a school chart; molmass stars Rn +2"),
}


# --- Radioactivity ----------------------------------------------------------------

# No stable isotope: technetium, promethium, and polonium through lawrencium.
# Bismuth (83) is not here: Bi-209 decays, but with a half-life of about 2e19
# years; `is_radioactive(83, bismuth_radioactive=True)` serves the setup option.
_NO_STABLE_ISOTOPE: frozenset[int] = frozenset({43, 61, *range(84, MAX_Z + 1)})


def _build() -> tuple[Element, ...]:
    out: list[Element] = []
    for z in range(1, MAX_Z + 1):
        src = _MOLMASS_ELEMENTS[z]
        family = _FAMILY_OVERRIDES.get(z) or _SERIES_SLUG[_MOLMASS_SERIES[src.series]]
        if z in _ION_CHARGE_OVERRIDES:
            charges = _ordered(_ION_CHARGE_OVERRIDES[z][0])
        else:
            charges = parse_oxistates(str(src.oxistates))
        out.append(
            Element(
                number=int(src.number),
                symbol=str(src.symbol),
                name=str(src.name),
                mass=float(src.mass),
                mass_is_standard=z not in _NO_STANDARD_WEIGHT,
                family=family,
                ion_charges=charges,
                radioactive=z in _NO_STABLE_ISOTOPE,
            )
        )
    return tuple(out)


ELEMENTS: tuple[Element, ...] = _build()
"""Elements 1..103; ``ELEMENTS[z - 1]`` is atomic number ``z``."""

BY_SYMBOL: Mapping[str, Element] = MappingProxyType({e.symbol: e for e in ELEMENTS})
"""Exact-case symbol -> element (``"Fe"``, not ``"FE"``)."""


def element(z: int) -> Element:
    """The element with atomic number ``z`` (1..103).

    Raises ``TypeError`` for a non-integer and ``KeyError`` outside the deck.

    >>> element(79).name
    'Gold'
    >>> element(104)
    Traceback (most recent call last):
    ...
    KeyError: 'no element card with atomic number 104 (the deck is 1..103)'
    """
    if not isinstance(z, int) or isinstance(z, bool):
        raise TypeError(f"atomic number must be an int, not {z!r}")
    if not 1 <= z <= MAX_Z:
        raise KeyError(f"no element card with atomic number {z} (the deck is 1..{MAX_Z})")
    return ELEMENTS[z - 1]


def is_radioactive(z: int, *, bismuth_radioactive: bool = False) -> bool:
    """Whether element ``z`` counts as radioactive in the game.

    Bismuth counts only with the ``bismuth_radioactive`` setup option.

    >>> is_radioactive(92), is_radioactive(83), is_radioactive(83, bismuth_radioactive=True)
    (True, False, True)
    """
    if z == BISMUTH and bismuth_radioactive:
        return True
    return element(z).radioactive
