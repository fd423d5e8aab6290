"""Element cards as views, events and the catalogue show them: every fact the scoring
uses, from :mod:`rules.chemistry.elements` (molmass), so a front end needs no table of
its own.

>>> fe = card(26)
>>> fe["name"], fe["family"], fe["ion_charges"]
('Iron', 'transition-metal', [2, 3])
>>> full = deck_card(26)
>>> full["family_name"], full["ions"]
('Transition metals', ['Fe2+', 'Fe3+'])
>>> card(83)["radioactive"], card(83, bismuth_radioactive=True)["radioactive"]
(False, True)
>>> named(17)
'chlorine (Cl, 17)'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.chemistry.elements import ELEMENTS, FAMILY_NAMES, Element, element, is_radioactive

from .wire import FAMILY_KEY, Card


def ion(symbol: str, charge: int) -> str:
    """An ion as chemists write it: the size of the charge (when over 1), then its sign.

    >>> ion("Na", 1), ion("Ca", 2), ion("O", -2), ion("H", -1)
    ('Na+', 'Ca2+', 'O2-', 'H-')
    """
    size = "" if abs(charge) == 1 else str(abs(charge))
    return f"{symbol}{size}{'+' if charge > 0 else '-'}"


def _card(e: Element, bismuth_radioactive: bool) -> Card:
    # what every view and event carries: a 10-seat view holds a hundred cards, so the
    # facts a front end can also read once from the catalogue (deck_card) stay there
    return {
        "z": e.number,
        "symbol": e.symbol,
        "name": e.name,
        "mass": e.mass,
        "family": FAMILY_KEY[e.family],
        "ion_charges": list(e.ion_charges),
        "radioactive": is_radioactive(e.number, bismuth_radioactive=bismuth_radioactive),
    }


def deck_card(z: int) -> dict[str, Any]:
    """Card ``z`` as the catalogue lists it: also the family's name, whether the mass is
    a standard atomic weight, and the ions as chemists write them."""
    e = element(z)
    return {
        **_card(e, False),
        "mass_is_standard": e.mass_is_standard,
        "family_name": FAMILY_NAMES[e.family],
        "ions": [ion(e.symbol, c) for c in e.ion_charges],
    }


# Built once: a view shows up to 103 cards, each a shared, read-only dict.
_CARDS: dict[bool, tuple[Card, ...]] = {
    bismuth: tuple(_card(e, bismuth) for e in ELEMENTS) for bismuth in (False, True)
}


def card(z: int, *, bismuth_radioactive: bool = False) -> Card:
    """Card ``z`` with its facts; ``radioactive`` as the game's option counts bismuth
    (a shared, read-only dict)."""
    return _CARDS[bismuth_radioactive][z - 1]


def cards(numbers: Iterable[int], *, bismuth_radioactive: bool = False) -> list[Card]:
    """Cards ``numbers`` in order, as :func:`card` gives each (the shared dicts).

    >>> [c["symbol"] for c in cards([26, 8])]
    ['Fe', 'O']
    """
    table = _CARDS[bismuth_radioactive]
    return [table[z - 1] for z in numbers]


def named(z: int) -> str:
    """An element as an explanation names it: its name, symbol and atomic number."""
    e = element(z)
    return f"{e.name.lower()} ({e.symbol}, {z})"
