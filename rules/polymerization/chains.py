"""Polymer chains on the table: what may follow what, units and molar masses.

A chain is a plain JSON record::

    {"id": 3, "owner": 1, "state": "growing", "cards": [12, 1, 5],
     "ends": ["HO"], "mechanism": None}

``cards`` are the card ids of the chain's pile in the order they were laid (the
initiator or CTA that started it, monomers, a copolymer card where the monomer
changed, a TEMPO card while it is capped, the termination card). ``ends`` are its
end groups: the primary radical's fragment first, then, once the chain is no longer
a radical, what closed it (``H``, ``-H``, a second fragment, TEMPO).

>>> follow_problem([1, 2], [3, 3, 3], "follow") is None
True
>>> follow_problem([3, 3, 3], [3], "follow")
'a fourth card of value 3 in a row (a pair or a triplet at most)'
>>> follow_problem([3], [1, 2], "follow") is None  # after 3 a new series starts at 1
True
>>> follow_problem([2], [1], "follow")
'value 1 cannot follow value 2 (the same value, or the next of the series 1, 2, 3)'
>>> follow_problem([2], [1, 2, 3], "meld") is None  # meld: a round's cards on their own
True
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import MONOMER, MONOMERS, end_group_mass, face

GROWING = "growing"
CAPPED = "capped"
TERMINATED = "terminated"
STATES = (GROWING, CAPPED, TERMINATED)

FOLLOW = "follow"
MELD = "meld"
PROPAGATION_MODES = (FOLLOW, MELD)

RUN_MAX = 3
"""At most three cards of one value in a row: "as a pair or triplet"."""

Chain = dict[str, Any]


def next_in_series(value: int) -> int:
    """The value after ``value`` in the series 1, 2, 3 (after 3 a new series starts at 1)."""
    return value % 3 + 1


def follow_problem(tail: Sequence[int], added: Sequence[int], mode: str) -> str | None:
    """Why monomer values ``added`` (in order) may not go on a chain whose monomer values
    so far are ``tail``; ``None`` when they may.

    ``follow``: every card follows the card before it: the same value (a pair or a
    triplet, never four in a row) or the next value of the series 1, 2, 3.
    ``meld``: the cards of one round form, on their own, a single card, a pair or
    triplet of equal values, or an ascending series (1-2, 2-3, 1-2-3).
    """
    if mode == MELD:
        if len(added) <= 1 or len(set(added)) == 1:
            return None
        if all(b == a + 1 for a, b in itertools.pairwise(added)):
            return None
        shown = ", ".join(map(str, added))
        return (
            f"{shown} is neither a pair or triplet of one value nor an ascending series "
            "(1-2, 2-3 or 1-2-3)"
        )
    values = list(tail)
    for v in added:
        if values:
            last = values[-1]
            run = 0
            for w in reversed(values):
                if w != last:
                    break
                run += 1
            if v == last and run >= RUN_MAX:
                return f"a fourth card of value {v} in a row (a pair or a triplet at most)"
            if v != last and v != next_in_series(last):
                return (
                    f"value {v} cannot follow value {last} "
                    "(the same value, or the next of the series 1, 2, 3)"
                )
        values.append(v)
    return None


def monomer_cards(chain: Mapping[str, Any]) -> list[int]:
    return [c for c in chain["cards"] if face(c).kind == MONOMER]


def values(chain: Mapping[str, Any]) -> list[int]:
    """The monomer values of a chain, in order."""
    return [face(c).value for c in monomer_cards(chain)]


def current_monomer(chain: Mapping[str, Any]) -> str:
    """The monomer a chain grows with now: that of its last monomer card."""
    return face(monomer_cards(chain)[-1]).key


def card_units(card: int, per_card: str) -> int:
    """Repeat units one monomer card adds: its value, or 1 (option ``units_per_card``)."""
    return face(card).value if per_card == "value" else 1


def units(chain: Mapping[str, Any], per_card: str) -> int:
    """The number of monomers (repeat units) in a chain."""
    return sum(card_units(c, per_card) for c in monomer_cards(chain))


def composition(chain: Mapping[str, Any], per_card: str) -> dict[str, int]:
    """Repeat units per monomer, in the order the monomers first appear."""
    out: dict[str, int] = {}
    for c in monomer_cards(chain):
        key = face(c).key
        out[key] = out.get(key, 0) + card_units(c, per_card)
    return out


def molar_mass(chain: Mapping[str, Any], per_card: str, end_groups: bool) -> dict[str, Any]:
    """A chain's molar mass Mi with its terms: units x repeat-unit mass per monomer, and
    the end groups when ``end_groups`` (else they are listed but not added)."""
    return mass_of(composition(chain, per_card), chain["ends"], end_groups)


def mass_of(units_of: Mapping[str, int], ends: Sequence[str], end_groups: bool) -> dict[str, Any]:
    """Mi with its terms, of a chain of ``units_of`` repeat units per monomer and ``ends``."""
    terms = []
    total = 0.0
    for key, n in units_of.items():
        m0 = _monomer_mass(key)
        mass = round(n * m0, 6)
        terms.append({"monomer": key, "units": n, "molar_mass": m0, "mass": mass})
        total += mass
    shown_ends = []
    for group in ends:
        mass = end_group_mass(group)
        shown_ends.append({"group": group, "mass": mass, "counted": end_groups})
        if end_groups:
            total += mass
    return {"mi": round(total, 6), "terms": terms, "end_groups": shown_ends}


def _monomer_mass(key: str) -> float:
    mass = MONOMERS[key].molar_mass
    assert mass is not None
    return mass


def find(chains: Sequence[Mapping[str, Any]], chain_id: int) -> Chain | None:
    for chain in chains:
        if chain["id"] == chain_id:
            return dict(chain)
    return None


def accepts(chain: Mapping[str, Any], mode: str) -> list[int]:
    """The values a growing chain accepts as its next card (any, in ``meld`` mode).

    >>> accepts({"cards": [41, 1, 5, 6]}, FOLLOW)  # values 1, 2, 2: another 2 or a 3
    [2, 3]
    """
    tail = values(chain)
    return [v for v in (1, 2, 3) if follow_problem(tail, [v], mode) is None]
