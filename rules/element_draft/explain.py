"""What the draft's events say to a learner: the cards revealed, the word spelled and its
symbols, the ions paired with their charges, and the points.

>>> revealed(1, [17, 11])
'Round 1: seat 0 drafts chlorine (Cl, 17); seat 1 drafts sodium (Na, 11).'
>>> print(spelled({"seat": 1, "turn": 4, "place": 1, "points": 8, "word": "bacon",
...     "symbols": ["B", "Ac", "O", "N"], "cards": [5, 89, 8, 7], "tied": False}))
... # doctest: +NORMALIZE_WHITESPACE
Seat 1 spells BACON with the symbols B + Ac + O + N (boron, actinium, oxygen, nitrogen)
in round 4: first place, 8 points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from rules.chemistry.elements import element

from .cards import named

_ORDINALS = ("first", "second", "third")


def ordinal(place: int) -> str:
    """``first``, ``second``, ``third``, then ``4th``, ``5th``...

    >>> [ordinal(p) for p in (1, 3, 4, 11)]
    ['first', 'third', '4th', '11th']
    """
    return _ORDINALS[place - 1] if 1 <= place <= len(_ORDINALS) else f"{place}th"


def _points(n: int) -> str:
    return f"{n} point" if abs(n) == 1 else f"{n} points"


def revealed(turn: int, picks: Sequence[int]) -> str:
    """The reveal of a round: each seat's drafted card."""
    drafts = "; ".join(f"seat {s} drafts {named(z)}" for s, z in enumerate(picks))
    return f"Round {turn}: {drafts}."


def spelled(record: Mapping[str, Any]) -> str:
    """A word spelled: by whom, with which symbols (and their elements), the place and
    its points."""
    return _spelled(
        record["seat"],
        record["turn"],
        record["place"],
        record["points"],
        record["word"],
        tuple(record["symbols"]),
        tuple(record["cards"]),
        record["tied"],
    )


@lru_cache(maxsize=1024, typed=True)
def _spelled(
    seat: int,
    turn: int,
    place: int,
    points: int,
    word: str,
    symbols: tuple[str, ...],
    cards: tuple[int, ...],
    tied: bool,
) -> str:
    # memoised on the record's values: every view and score repeats a placed seat's word
    names = ", ".join(element(z).name.lower() for z in cards)
    where = f"{ordinal(int(place))} place"
    if tied:
        where += ", shared with another seat that spelled a word in the same round"
    tail = "" if points else " (only the first three places score)"
    return (
        f"Seat {seat} spells {str(word).upper()} with the symbols "
        f"{' + '.join(symbols)} ({names}) in round {turn}: "
        f"{where}, {_points(int(points))}{tail}."
    )


def paired(
    seat: int,
    z: int,
    pair: Mapping[str, Any],
    pairs: Sequence[Mapping[str, Any]],
    points: int,
    total: int,
) -> str:
    """A drafted card that forms a new ion pair: the ions, their charge, the compound and
    the points; then every pair the seat counts now (the largest set may regroup the
    earlier ones).

    >>> pair = {"cation": 11, "anion": 17, "charge": 1, "formula": "NaCl",
    ...         "cation_ion": "Na+", "anion_ion": "Cl-"}
    >>> print(paired(0, 17, pair, [pair], 5, 5))  # doctest: +NORMALIZE_WHITESPACE
    Seat 0 drafts chlorine (Cl, 17): the anion Cl- pairs with the cation Na+ (charges of
    size 1 cancel), forming NaCl: +5 points. Ion pairs now: NaCl, 5 points.
    """
    mine, other = (
        (f"the cation {pair['cation_ion']}", f"the anion {pair['anion_ion']}")
        if pair["cation"] == z
        else (f"the anion {pair['anion_ion']}", f"the cation {pair['cation_ion']}")
    )
    now = ", ".join(str(p["formula"]) for p in pairs)
    return (
        f"Seat {seat} drafts {named(z)}: {mine} pairs with {other} (charges of size "
        f"{pair['charge']} cancel), forming {pair['formula']}: +{_points(points)}. "
        f"Ion pairs now: {now}, {_points(total)}."
    )
