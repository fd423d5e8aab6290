"""What the move types' candidates are built from: the hand grouped by face (identical
copies are interchangeable, so a move is listed once, with the lowest id of each face),
and the monomer sequences a chain accepts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from rules.core import State

from ..cards import MONOMER, face
from ..chains import follow_problem
from .checks import hand

FaceKey = tuple[str, int, str]
"""A face: its kind, value and key."""
Pool = Mapping[FaceKey, Sequence[int]]
"""Card ids by face, lowest first."""


def by_face(cards: Iterable[int]) -> Pool:
    """Card ids grouped by face (identical copies are interchangeable), lowest first;
    the faces in the order of their lowest id."""
    return _by_face(tuple(sorted(cards)))


@lru_cache(maxsize=1024)
def _by_face(cards: tuple[int, ...]) -> Pool:
    # each move type's candidates group the same hand: group it once (read-only)
    out: dict[FaceKey, list[int]] = {}
    for c in cards:
        f = face(c)
        out.setdefault((f.kind, f.value, f.key), []).append(c)
    return MappingProxyType({k: tuple(ids) for k, ids in out.items()})


def hand_by_face(state: State, seat: int) -> Pool:
    return by_face(hand(state, seat))


def firsts(pool: Pool, kind: str) -> list[tuple[FaceKey, int]]:
    """Each face of ``kind`` in ``pool`` with its lowest id, lowest first."""
    return [(key, ids[0]) for key, ids in pool.items() if key[0] == kind]


def face_key(card: int) -> FaceKey:
    f = face(card)
    return (f.kind, f.value, f.key)


def without(pool: Pool, card: int) -> Pool:
    out = {k: [c for c in ids if c != card] for k, ids in pool.items()}
    return {k: ids for k, ids in out.items() if ids}


def sequences(
    pool: Pool,
    monomer: str | None,
    tail: Sequence[int],
    mode: str,
    lengths: Iterable[int],
    *,
    start: bool = False,
) -> list[list[int]]:
    """Monomer card sequences of the given lengths from ``pool`` (one per choice of faces)
    that may be added to a chain with values ``tail``; ``monomer`` fixes the kind.

    Three styrene 1s (two decks' copies), a styrene 2 and an initiator: the starts of a
    chain are a 1, a pair of 1s or 1-2, each listed once.

    >>> pool = by_face([1, 2, 5, 41, 56])
    >>> sequences(pool, None, [], "follow", [1, 2], start=True)
    [[1], [1, 2], [1, 5]]
    """
    keys = sorted({k for (kind, _v, k) in pool if kind == MONOMER})
    kinds = [monomer] if monomer is not None else keys
    out: list[list[int]] = []
    wanted = set(lengths)
    longest = max(wanted, default=0)

    def extend(key: str, seq: list[int], used: dict[int, int]) -> None:
        if seq and len(seq) in wanted:
            out.append(list(seq))
        if len(seq) == longest:
            return
        for value in (1, 2, 3):
            if start and not seq and value != 1:
                continue
            ids = pool.get((MONOMER, value, key), [])
            if used.get(value, 0) >= len(ids):
                continue
            trial = [face(c).value for c in seq] + [value]
            if follow_problem(tail, trial, mode) is not None:
                continue
            used[value] = used.get(value, 0) + 1
            seq.append(ids[used[value] - 1])
            extend(key, seq, used)
            seq.pop()
            used[value] -= 1

    for key in kinds:
        if key is not None:
            extend(key, [], {})
    return out
