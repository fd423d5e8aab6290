"""The largest set of ion pairs a set of element cards can form.

Seed: "Score 5 points for each matching pair of positive and negative ions with the
same number of charges. Each element can only be used in one pair."

A pair is one cation (an element playing one of its positive charges ``+k``) and
one anion (another element playing one of its negative charges ``-k``). An element
with several charges may play any one of them; an element with charges of both
signs (hydrogen: +1 and -1; carbon: +4 and -4) may be the cation or the anion, but
is still used at most once. Finding the most pairs is a maximum matching; it is
solved exactly (see :func:`max_ion_pairs`), never greedily.

>>> [(p.cation, p.anion, p.charge) for p in max_ion_pairs([11, 17, 20, 8])]
[(11, 17, 1), (20, 8, 2)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from rules.chemistry.elements import ELEMENTS, element

__all__ = ["IonPair", "max_ion_pairs"]


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


def _matching(cations: list[int], anions: list[int]) -> dict[int, int]:
    """Maximum bipartite matching (Kuhn's augmenting paths): anion -> cation.

    Cations are tried in the given order, each scanning anions in the given order,
    so the result depends only on the two lists.
    """
    adjacency = {c: [a for a in anions if _POS[c] & _NEG[a]] for c in cations}
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

    for c in cations:
        if adjacency[c]:
            augment(c, set())
    return owner


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
    zs = sorted({element(z).number for z in numbers})
    both = [z for z in zs if _POS[z] and _NEG[z]]
    only_pos = [z for z in zs if _POS[z] and not _NEG[z]]
    only_neg = [z for z in zs if _NEG[z] and not _POS[z]]

    best: dict[int, int] = {}
    for sides in product((True, False), repeat=len(both)):
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
    pairs = [IonPair(c, a, min(_POS[c] & _NEG[a])) for a, c in best.items()]
    pairs.sort(key=lambda p: (p.cation, p.anion))
    return pairs
