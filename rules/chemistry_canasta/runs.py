"""Runs of atomic numbers: laying one, extending one, claiming its wild cards.

A run is cards whose atomic numbers follow one another ("3 cards in a series such as
12, 13, and 14"); a wild card may stand for any number of the series. A run on the
board is a list of *cells* in increasing order, each ``{"card", "number", "wild",
"by"}``: the card lying there, the atomic number it is (an element card) or stands for
(a wild card, pinned by its place in the series), and the seat that laid it (it scores
the cell). Everything here is pure and works on card faces (``id``, ``kind``, and
``z``/``symbol`` for an element, ``law`` for a wild), so it needs no game state.

>>> mg, al, si = element_face(101, 12), element_face(102, 13), element_face(103, 14)
>>> cells = lay([mg, al, si], by=0)
>>> [c["number"] for c in cells], run_text(cells, {101: mg, 102: al, 103: si})
([12, 13, 14], 'Mg 12, Al 13, Si 14: consecutive atomic numbers')
>>> tc, rh, wild = element_face(43, 43), element_face(45, 45), wild_face(90, "Boyle's Law")
>>> cells = lay([tc, wild, rh], by=0)
>>> [(c["number"], c["wild"]) for c in cells]
[(43, False), (44, True), (45, False)]
>>> wild_standing_for(cells, 44)
1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from molmass import ELEMENTS

from rules.chemistry.elements import MAX_Z, element
from rules.core import JSON, RuleViolation
from rules.text import plural

__all__ = [
    "MIN_RUN",
    "SEED_CLAIM",
    "SEED_RUN",
    "element_face",
    "explain",
    "extend",
    "extension_choices",
    "lay",
    "run_choices",
    "run_text",
    "wild_face",
    "wild_standing_for",
]

MIN_RUN = 3

SEED_RUN = (
    "If the player cannot capture a card, they may try to create a run. A run is 3 cards in "
    "a series such as 12, 13, and 14. Wild cards may be used to create the series."
)
SEED_CLAIM = (
    "A player may claim a wild card from another player's board or from their own board if "
    "they have the card the wild card represents."
)

Face = Mapping[str, Any]
Cell = JSON


def element_face(card: int, z: int) -> JSON:
    """A minimal element card face (for examples and tests)."""
    return {"id": card, "kind": "element", "symbol": element(z).symbol, "z": z}


def wild_face(card: int, law: str = "") -> JSON:
    """A minimal wild card face."""
    return {"id": card, "kind": "wild", "law": law}


@cache
def label(number: int) -> str:
    """``Mg 12``: an element by symbol and atomic number."""
    return f"{element(number).symbol} {number}"


def _is_wild(face: Face) -> bool:
    return bool(face["kind"] == "wild")


def _check_series(faces: Sequence[Face], first: int) -> None:
    """Refuse element cards that are not the numbers ``first``, ``first + 1``, ...; refuse
    numbers off the periodic table."""
    last = first + len(faces) - 1
    if first < 1 or last > MAX_Z:
        where = f"below hydrogen (1): it would need {first}" if first < 1 else ""
        where = where or f"past {element(MAX_Z).name} ({MAX_Z}): it would need {last}"
        raise RuleViolation(
            "off_the_table",
            f"The series cannot go {where}. Wild cards stand for real elements, 1 to {MAX_Z}.",
            rule=SEED_RUN,
        )
    previous: Face | None = None
    for i, face in enumerate(faces):
        if _is_wild(face):
            continue
        z, want = int(face["z"]), first + i
        if z != want:
            raise RuleViolation(
                "not_consecutive",
                _why_not(face, want, previous),
                rule=SEED_RUN,
                card=int(face["id"]),
                card_z=z,
                expected=want,
            )
        previous = face


def _why_not(face: Face, want: int, previous: Face | None) -> str:
    z = int(face["z"])
    got = label(z)
    if previous is not None and int(previous["z"]) == z:
        return f"{got} is played twice: a run has each atomic number once."
    if z < want:
        return (
            f"{got} is out of order: list a run's cards from the lowest atomic number up, "
            f"each one more than the card before (the place of {got} is {label(want)})."
        )
    gap = ", ".join(label(n) for n in range(want, z))
    return (
        f"{got} does not follow on: the series needs {gap} first. Play "
        f"{'that card' if z - want == 1 else 'those cards'} or wild cards in the gap."
    )


def lay(faces: Sequence[Face], by: int, longest: int | None = None) -> list[Cell]:
    """Check ``faces`` (lowest number first) as a new run; return its cells.

    Raises ``RuleViolation``: ``short_run`` (fewer than 3 cards), ``run_too_long``
    (more than ``longest``), ``all_wild_run`` (no element card: nothing pins the
    series), ``not_consecutive``, ``off_the_table``.

    >>> lay([element_face(1, 12), element_face(2, 14)], by=0)
    Traceback (most recent call last):
    ...
    rules.core.RuleViolation: A run is at least 3 cards in a series (such as 12, 13 and 14); \
you played 2.
    >>> [c["number"] for c in lay([wild_face(9), element_face(2, 7), element_face(3, 8)], 1)]
    [6, 7, 8]
    """
    if len(faces) < MIN_RUN:
        raise RuleViolation(
            "short_run",
            f"A run is at least {MIN_RUN} cards in a series (such as 12, 13 and 14); you "
            f"played {len(faces)}.",
            rule=SEED_RUN,
        )
    if longest is not None and len(faces) > longest:
        raise RuleViolation(
            "run_too_long",
            f"This table plays runs of exactly {longest} cards (option runs: 'three'); you "
            f"played {len(faces)}.",
            rule=SEED_RUN,
        )
    anchor = next((i for i, f in enumerate(faces) if not _is_wild(f)), None)
    if anchor is None:
        raise RuleViolation(
            "all_wild_run",
            "A run cannot be made of wild cards alone: play at least one element card, which "
            "fixes the numbers the wild cards stand for.",
            rule=SEED_RUN,
        )
    first = int(faces[anchor]["z"]) - anchor
    _check_series(faces, first)
    return _cells(faces, first, by)


def _cells(faces: Sequence[Face], first: int, by: int) -> list[Cell]:
    return [
        {"card": int(f["id"]), "number": first + i, "wild": _is_wild(f), "by": by}
        for i, f in enumerate(faces)
    ]


def extend(cells: Sequence[Cell], faces: Sequence[Face], end: str, by: int) -> list[Cell]:
    """Check ``faces`` (lowest number first) as an extension of the run ``cells`` at its
    ``low`` or ``high`` end; return the new cells (wild cards alone may extend a run: the
    run already pins their numbers).

    >>> run = lay([element_face(1, 12), element_face(2, 13), element_face(3, 14)], 0)
    >>> [c["number"] for c in extend(run, [wild_face(7), element_face(4, 16)], "high", 1)]
    [15, 16]
    >>> extend(run, [element_face(5, 10)], "low", 0)
    Traceback (most recent call last):
    ...
    rules.core.RuleViolation: Ne 10 does not fit: 1 card at the low end of the run Mg 12 \
to Si 14 must be Na 11, lowest first (a wild card may stand for any of them).
    """
    low, high = int(cells[0]["number"]), int(cells[-1]["number"])
    first = high + 1 if end == "high" else low - len(faces)
    try:
        _check_series(faces, first)
    except RuleViolation as err:
        if err.code != "not_consecutive":
            raise
        wanted = ", ".join(label(n) for n in range(first, first + len(faces)))
        bad = label(int(err.details["card_z"]))
        raise RuleViolation(
            "not_consecutive",
            f"{bad} does not fit: {plural(len(faces), 'card')} at the {end} end of the run "
            f"{label(low)} to {label(high)} must be {wanted}, lowest first (a wild card may "
            "stand for any of them).",
            rule=SEED_RUN,
            card=err.details["card"],
            expected=err.details["expected"],
        ) from None
    return _cells(faces, first, by)


def wild_standing_for(cells: Sequence[Cell], number: int) -> int | None:
    """The index of the wild card in ``cells`` that stands for ``number``, if any."""
    for i, cell in enumerate(cells):
        if cell["wild"] and cell["number"] == number:
            return i
    return None


# ---------------------------------------------------------------- listing -----------
def _holdings(hand: Sequence[Face]) -> tuple[dict[int, int], list[int]]:
    """The lowest-numbered element card of each atomic number held, and the wild cards."""
    by_z: dict[int, int] = {}
    wilds: list[int] = []
    for face in hand:
        card = int(face["id"])
        if _is_wild(face):
            wilds.append(card)
        else:
            z = int(face["z"])
            if z not in by_z or card < by_z[z]:
                by_z[z] = card
    return by_z, sorted(wilds)


def _fill(series: Sequence[int | None], wilds: Sequence[int]) -> list[int]:
    out, k = [], 0
    for card in series:
        if card is None:
            out.append(wilds[k])
            k += 1
        else:
            out.append(card)
    return out


def run_choices(hand: Sequence[Face], longest: int | None = None) -> list[list[int]]:
    """Every new run ``hand`` can lay, each listed once: an element card wherever the hand
    holds the number (its lowest-numbered copy), wild cards only in the gaps.

    A player may also put a wild card where it holds the number, or choose another copy:
    those runs are legal too, but not listed (they are the same series).

    >>> hand = [element_face(1, 12), element_face(2, 13), element_face(3, 15), wild_face(9)]
    >>> run_choices(hand)
    [[9, 1, 2], [1, 2, 9], [1, 2, 9, 3], [2, 9, 3]]
    """
    by_z, wilds = _holdings(hand)
    if not by_z:
        return []
    out: list[list[int]] = []
    zs = sorted(by_z)
    for start in range(max(1, zs[0] - len(wilds)), zs[-1] + 1):
        series: list[int | None] = []
        gaps = real = 0
        for number in range(start, MAX_Z + 1):
            card = by_z.get(number)
            if card is None:
                gaps += 1
                if gaps > len(wilds):
                    break
            else:
                real += 1
            series.append(card)
            if len(series) >= MIN_RUN and real:
                out.append(_fill(series, wilds))
            if longest is not None and len(series) >= longest:
                break
    return out


def extension_choices(cells: Sequence[Cell], hand: Sequence[Face]) -> list[tuple[str, list[int]]]:
    """Every way ``hand`` can extend the run ``cells``: ``(end, cards)``, cards lowest
    number first, listed once as in :func:`run_choices`.

    >>> run = lay([element_face(1, 12), element_face(2, 13), element_face(3, 14)], 0)
    >>> extension_choices(run, [element_face(4, 11), element_face(5, 16), wild_face(9)])
    [('low', [4]), ('low', [9, 4]), ('high', [9]), ('high', [9, 5])]
    """
    by_z, wilds = _holdings(hand)
    low, high = int(cells[0]["number"]), int(cells[-1]["number"])
    out: list[tuple[str, list[int]]] = []
    for end, numbers in (("low", range(low - 1, 0, -1)), ("high", range(high + 1, MAX_Z + 1))):
        series: list[int | None] = []
        gaps = 0
        for number in numbers:
            card = by_z.get(number)
            if card is None:
                gaps += 1
                if gaps > len(wilds):
                    break
            series.append(card)
            ordered = series[::-1] if end == "low" else series
            out.append((end, _fill(ordered, wilds)))
    return out


# ---------------------------------------------------------------- words -------------
def _cell_text(cell: Cell, laws: Mapping[int, str]) -> str:
    if not cell["wild"]:
        return label(int(cell["number"]))
    law = laws.get(int(cell["card"])) or ""
    return f"wild as {label(int(cell['number']))}" + (f" ({law})" if law else "")


def run_text(cells: Sequence[Cell], faces: Mapping[int, Face]) -> str:
    """What a player calls when laying or extending a run (wild cards with their law).

    >>> cells = lay([element_face(1, 43), wild_face(9, "Boyle's Law"), element_face(2, 45)], 0)
    >>> run_text(cells, {9: wild_face(9, "Boyle's Law")})
    "Tc 43, wild as Ru 44 (Boyle's Law), Rh 45: consecutive atomic numbers"
    """
    laws = {c: str(f.get("law") or "") for c, f in faces.items() if _is_wild(f)}
    return ", ".join(_cell_text(c, laws) for c in cells) + ": consecutive atomic numbers"


def explain(numbers: Sequence[int]) -> str:
    """Why a series of atomic numbers belongs together, for a learner (periods from
    molmass).

    >>> explain([12, 13, 14])
    'The atomic number counts the protons in the nucleus: each element of the run has one \
more than the one before (Mg 12, Al 13, Si 14). All of them sit side by side in period 3 \
of the periodic table.'
    >>> explain([9, 10, 11]).split(". ")[-1]
    'The run crosses from period 2 into period 3: after the noble gas Ne 10 a new electron \
shell begins with Na 11.'
    """
    head = (
        "The atomic number counts the protons in the nucleus: each element of the run has "
        f"one more than the one before ({', '.join(label(n) for n in numbers)})."
    )
    crossings = [
        (n, ELEMENTS[n].period, ELEMENTS[n + 1].period)
        for n in numbers[:-1]
        if ELEMENTS[n].period != ELEMENTS[n + 1].period
    ]
    if not crossings:
        period = ELEMENTS[numbers[0]].period
        return f"{head} All of them sit side by side in period {period} of the periodic table."
    parts = [
        f"from period {a} into period {b}: after the noble gas {label(n)} a new electron "
        f"shell begins with {label(n + 1)}"
        for n, a, b in crossings
    ]
    return f"{head} The run crosses {'; then '.join(parts)}."
