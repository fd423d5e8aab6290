"""Scoring of the Chemistry Card Game: six categories, each with its evidence.

Every function takes plain data (atomic numbers) so that the game, the greedy
bot and the tests share one implementation.

>>> atomic_number([1, 5, 6, 7, 10, 11, 13])["points"]
9
>>> family([3, 11, 19])["points"]  # three alkali metals: largest family 3
3
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any, TypedDict

from rules.chemistry.elements import FAMILIES, MAX_Z, element, is_radioactive
from rules.chemistry.ions import max_ion_pairs
from rules.core import neighbours

from . import wire
from .cards import ion

RUN_POINTS = {2: 4, 3: 9, 4: 16}
FAMILY_POINTS = {2: 1, 3: 3, 4: 6, 5: 10, 6: 15}
SYMBOL_POINTS = (8, 5, 2)
ION_PAIR_POINTS = 5
RADIOACTIVE_BONUS = 7
RADIOACTIVE_PENALTY = -3
RADIOACTIVITY_MIN_PLAYERS = 7

CATEGORIES = (
    "atomic_number",
    "atomic_mass",
    "atomic_symbol",
    "ionization",
    "family",
    "radioactivity",
)


def longest_run(numbers: Iterable[int]) -> list[int]:
    """The longest run of consecutive atomic numbers (the lowest such run on a tie).

    >>> longest_run([1, 5, 6, 7, 10, 11, 13])
    [5, 6, 7]
    >>> longest_run([])
    []
    >>> longest_run([9, 3, 2, 8, 1, 7])
    [1, 2, 3]
    """
    ordered = sorted(set(numbers))
    best_start = best_length = start = 0
    for i, z in enumerate(ordered):
        if i and z != ordered[i - 1] + 1:
            start = i  # a new run begins here
        if i - start + 1 > best_length:
            best_start, best_length = start, i - start + 1
    return ordered[best_start : best_start + best_length]


def atomic_number(numbers: Sequence[int]) -> wire.AtomicNumber:
    """Square of the longest run, counting 2 to 4 cards; a run of 1 scores 0.

    >>> atomic_number([20, 21, 22, 23, 24, 25])["points"]
    16
    """
    run = longest_run(numbers)
    counted = min(len(run), 4)
    return {"points": RUN_POINTS.get(counted, 0), "run": run, "counted": counted}


def card_mass(z: int) -> Decimal:
    """The mass printed on card ``z``, exactly: the decimal the element data give
    (``repr`` of molmass's value is that literal, e.g. 18.998403163 for fluorine).

    >>> card_mass(9), card_mass(61)
    (Decimal('18.998403163'), Decimal('144.9128'))
    """
    return _CARD_MASS[z - 1]


_CARD_MASS: tuple[Decimal, ...] = tuple(Decimal(repr(element(z).mass)) for z in range(1, MAX_Z + 1))


def total_mass(numbers: Iterable[int]) -> Decimal:
    """The exact sum of the printed masses: decimal arithmetic, no rounding, so float
    noise never decides a comparison and no rounding invents a tie.

    >>> total_mass([4, 61, 73]), total_mass([9, 59, 71])  # Be Pm Ta against F Pr Lu
    (Decimal('334.8728631'), Decimal('334.872863163'))
    """
    return _total_mass(tuple(sorted(numbers)))


@lru_cache(maxsize=8192)
def _total_mass(numbers: tuple[int, ...]) -> Decimal:
    return sum((card_mass(z) for z in numbers), Decimal(0))


def mass_text(mass: Decimal) -> str:
    """A mass as an exact decimal string, without trailing zeros.

    >>> mass_text(Decimal("334.8728631000")), mass_text(Decimal("20")), mass_text(Decimal(0))
    ('334.8728631', '20', '0')
    """
    text = format(mass.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def atomic_mass(seat: int, masses: Sequence[Decimal]) -> dict[str, Any]:
    """+2 per neighbour with a lower total, -2 per neighbour with a higher one, 0 only
    for exactly equal totals.

    At a two-player table both neighbours are the same opponent, which gives the
    seed's +4/-4. ``mass`` is the total as a number (for display); ``mass_exact`` is
    the exact decimal the comparison used.

    >>> atomic_mass(0, [Decimal(10), Decimal(5), Decimal(20)])["points"]  # left 5, right 20
    0
    >>> atomic_mass(0, [Decimal(10), Decimal(5)])["points"]
    4
    >>> row = atomic_mass(1, [total_mass([4, 61, 73]), total_mass([9, 59, 71])])
    >>> row["points"], row["mass_exact"], row["neighbours"][0]["their_mass_exact"]
    (4, '334.872863163', '334.8728631')
    """
    players = len(masses)
    mine = masses[seat]
    comparisons = []
    points = 0
    for side, other in zip(("left", "right"), neighbours(seat, players), strict=True):
        theirs = masses[other]
        delta = 2 if mine > theirs else -2 if mine < theirs else 0
        points += delta
        comparisons.append(
            {
                "side": side,
                "seat": other,
                "their_mass": float(theirs),
                "their_mass_exact": mass_text(theirs),
                "points": delta,
            }
        )
    return {
        "points": points,
        "mass": float(mine),
        "mass_exact": mass_text(mine),
        "neighbours": comparisons,
    }


def atomic_symbol(placing: Mapping[str, Any] | None) -> dict[str, Any]:
    """Points for this seat's place in the race to spell a 5-letter word."""
    if placing is None:
        return {"points": 0, "word": None}
    return {"points": placing["points"], "word": placing}


def place_points(place: int) -> int:
    """8, 5, 2 for places 1, 2, 3; nothing after."""
    return SYMBOL_POINTS[place - 1] if 1 <= place <= len(SYMBOL_POINTS) else 0


def ionization(numbers: Sequence[int]) -> wire.Ionization:
    """5 points per cation/anion pair of equal charge magnitude (maximum matching).

    >>> row = ionization([11, 17, 20, 8])  # Na+ Cl-, Ca2+ O2-
    >>> row["points"], [(p["cation_ion"], p["anion_ion"], p["formula"]) for p in row["pairs"]]
    (10, [('Na+', 'Cl-', 'NaCl'), ('Ca2+', 'O2-', 'CaO')])
    """
    pairs = max_ion_pairs(numbers)
    return {
        "points": ION_PAIR_POINTS * len(pairs),
        "pairs": [_pair_row(p.cation, p.anion, p.charge).copy() for p in pairs],
    }


@lru_cache(maxsize=1024)
def _pair_row(cation: int, anion: int, charge: int) -> wire.IonPair:
    """A pair as the ionization shows it (built once per pair: callers copy it)."""
    return {
        "cation": cation,
        "anion": anion,
        "charge": charge,
        "formula": _formula(cation, anion),
        "cation_ion": ion(element(cation).symbol, charge),
        "anion_ion": ion(element(anion).symbol, -charge),
    }


def _formula(cation: int, anion: int) -> str:
    # equal charge magnitudes combine one to one
    return element(cation).symbol + element(anion).symbol


def _checked(numbers: Iterable[int]) -> None:
    """Raise what :func:`element` raises for the first of ``numbers`` that is not an
    atomic number of the deck (the tables below are read without it)."""
    for z in numbers:
        if type(z) is not int or not 0 < z <= MAX_Z:
            element(z)


# Read by atomic number (index 0 unused): each element's family, and the radioactive
# elements with and without bismuth.
_FAMILY_OF: tuple[str, ...] = ("", *(element(z).family for z in range(1, MAX_Z + 1)))
_RADIOACTIVE: dict[bool, frozenset[int]] = {
    bismuth: frozenset(
        z for z in range(1, MAX_Z + 1) if is_radioactive(z, bismuth_radioactive=bismuth)
    )
    for bismuth in (False, True)
}


def family(numbers: Sequence[int]) -> wire.Family:
    """max(distinct families, size of the largest family), capped at 6, scored 1/3/6/10/15.

    >>> family([1, 2])["points"]  # two families, largest 1 -> 2 -> 1 point
    1
    """
    _checked(numbers)
    counts: dict[str, int] = {}  # a plain dict: a Counter costs a new pile about 2 us more
    for z in numbers:
        name = _FAMILY_OF[z]
        counts[name] = counts.get(name, 0) + 1
    distinct = len(counts)
    largest = max(counts.values(), default=0)
    counted = min(max(distinct, largest), 6)
    return {
        "points": FAMILY_POINTS.get(counted, 0),
        "families": {f: counts[f] for f in FAMILIES if f in counts},
        "distinct": distinct,
        "largest": largest,
        "counted": counted,
    }


def radioactivity(
    numbers: Sequence[int], players: int, *, bismuth_radioactive: bool = False
) -> wire.Radioactivity:
    """With 7+ players: 2+ radioactive cards +7, exactly one -3."""
    _checked(numbers)
    radioactive = _RADIOACTIVE[bool(bismuth_radioactive)]
    hot = [z for z in numbers if z in radioactive]
    if players < RADIOACTIVITY_MIN_PLAYERS:
        return {"points": 0, "radioactive": hot, "applies": False}
    points = RADIOACTIVE_BONUS if len(hot) >= 2 else RADIOACTIVE_PENALTY if len(hot) == 1 else 0
    return {"points": points, "radioactive": hot, "applies": True}


class Own(TypedDict):
    """The categories that depend on one seat's cards alone."""

    atomic_number: wire.AtomicNumber
    ionization: wire.Ionization
    family: wire.Family
    radioactivity: wire.Radioactivity


@lru_cache(maxsize=8192)
def own_categories(cards: tuple[int, ...], players: int, bismuth_radioactive: bool) -> Own:
    """The categories that depend on one seat's cards alone.

    Memoised: every view of a game repeats them for every seat, and within a round
    the drafted piles do not change. The result is shared: treat it as read-only.
    """
    numbers = list(cards)
    return {
        "atomic_number": atomic_number(numbers),
        "ionization": ionization(numbers),
        "family": family(numbers),
        "radioactivity": radioactivity(numbers, players, bismuth_radioactive=bismuth_radioactive),
    }


def seat_breakdown(
    seat: int,
    drafted: Sequence[Sequence[int]],
    placings: Mapping[int, Mapping[str, Any]],
    *,
    bismuth_radioactive: bool = False,
    masses: Sequence[Decimal] | None = None,
) -> dict[str, Any]:
    """All six categories for one seat, with the total."""
    players = len(drafted)
    masses = masses if masses is not None else [total_mass(d) for d in drafted]
    own = own_categories(tuple(drafted[seat]), players, bismuth_radioactive)
    categories: dict[str, Mapping[str, Any]] = {
        "atomic_number": own["atomic_number"],
        "atomic_mass": atomic_mass(seat, masses),
        "atomic_symbol": atomic_symbol(placings.get(seat)),
        "ionization": own["ionization"],
        "family": own["family"],
        "radioactivity": own["radioactivity"],
    }
    return {
        "seat": seat,
        "total": sum(c["points"] for c in categories.values()),
        "highest_atomic_number": max(drafted[seat], default=0),
        "categories": categories,
    }


@lru_cache(maxsize=8192)
def _own_points(cards: tuple[int, ...], players: int, bismuth_radioactive: bool) -> int:
    own = own_categories(cards, players, bismuth_radioactive)
    return (
        own["atomic_number"]["points"]
        + own["ionization"]["points"]
        + own["family"]["points"]
        + own["radioactivity"]["points"]
    )


def totals(
    drafted: Sequence[Sequence[int]],
    placings: Mapping[int, Mapping[str, Any]],
    *,
    bismuth_radioactive: bool = False,
) -> list[int]:
    """Every seat's total, without the evidence (what each view shows).

    >>> totals([[5, 6, 7], [1, 12, 13]], {})
    [11, 11]
    """
    players = len(drafted)
    words = (0,) * players  # no word spelled yet: most of a draft
    if placings:
        words = tuple(
            int(placings[seat]["points"]) if placings.get(seat) else 0 for seat in range(players)
        )
    return list(_totals(tuple(map(tuple, drafted)), words, bool(bismuth_radioactive)))


@lru_cache(maxsize=4096)
def _totals(
    drafted: tuple[tuple[int, ...], ...], words: tuple[int, ...], bismuth_radioactive: bool
) -> tuple[int, ...]:
    # memoised on the piles and the word points (every view of one state shows them: the
    # answer to a move, then each seat's stream frame)
    players = len(drafted)
    masses = [total_mass(d) for d in drafted]
    out = []
    for seat, cards in enumerate(drafted):
        mine = masses[seat]
        mass = sum(
            2 if mine > masses[n] else -2 if mine < masses[n] else 0
            for n in neighbours(seat, players)
        )
        out.append(_own_points(cards, players, bismuth_radioactive) + mass + words[seat])
    return tuple(out)
