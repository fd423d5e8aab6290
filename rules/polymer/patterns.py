"""Polymer's patterns (groups and sequences), the best arrangement of a hand, and scores.

The seed: "A group is a set of at least two cards with the same rank. A sequence is a
set of at least two cards with the same suit and consecutive ranks. Each card can be
used in at most one group or sequence." Ranks loop around, so A both precedes 2 and
follows K. The interpretation (duplicates, wrap-around, what the best arrangement is,
tie-breaks) is written down in ``docs/rules/polymer.md``, section "Patterns and
scoring".

The seed's worked example: a sequence of 4, a sequence of 3 and two pairs, with
neighbours whose longest patterns are a group of 5 and a sequence of 6:

>>> from rules.polymer.cards import ids_for_codes
>>> me = best_arrangement(ids_for_codes("4S 5S 6S 7S 9H 10H JH 2C 2D KC KD"))
>>> me.longest_length, me.rest_value, me.codes()["longest"]
(4, 4, ['4S', '5S', '6S', '7S'])
>>> seat_score(me.longest_length, 5 + 6, me.rest_value)
48

How the best arrangement is found: the longest length ``L`` is fixed by the hand
(:func:`longest_possible`). For each candidate longest pattern of length ``L`` the
rest of the hand is solved exactly by a dynamic programme around the circle of
ranks. In an optimal rest, the cards of one rank that are in no sequence form one
group (merging two groups, or adding a spare card to a group, gains 1), so only the
number of cards of each face used in sequences has to be chosen; the sequences of a
suit then gain one point per link between neighbouring ranks, which depends only on
the usage at consecutive ranks. A suit whose every rank is used in sequences is the
one place where links could close a loop (or a run could pass its own start), so
such a suit carries a small correction state (see :func:`_cycle_dp_full`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.core import RuleViolation, neighbours
from rules.polymer.cards import (
    FACES,
    card_code,
    check_card,
    check_hand,
    rank_of,
)
from rules.polymer.wire import ArrangementCodes, ArrangementIds, SeatScore
from rules.shapes import quote

GROUP_RULE = "A group is a set of at least two cards with the same rank."
SEQUENCE_RULE = (
    "A sequence is a set of at least two cards with the same suit and consecutive ranks."
)
ONCE_RULE = "Each card can be used in at most one group or sequence."
WRAP_RULE = (
    "The ranks of the cards: A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K (and loops around, "
    "so A can both precede 2 and follow K)."
)
SCORE_RULE = (
    "The player's final score is: (number of cards in their longest pattern) * (sum of "
    "the lengths of their immediate neighbors' longest patterns) + (sum of the "
    "(lengths-1) of all other patterns in the players hand)"
)
TIE_RULE = (
    "In the rare case of a tie, the first tiebreaker is the highest rank card in the "
    "player's longest pattern (the highest possible rank is a K for this purpose). The "
    "second and third tiebreaker is the higher and lower of the two ranks in the "
    "player's neighbors' longest patterns, respectively."
)

_RANKS = 13
_SUITS = 4

# A usage vector (cards of one rank used in sequences, per suit, each 0..2) is coded in
# base 3: code = u_C + 3 u_D + 9 u_H + 27 u_S.
_WEIGHTS = (1, 3, 9, 27)
_DECODE: tuple[tuple[int, ...], ...] = tuple(
    tuple((code // weight) % 3 for weight in _WEIGHTS) for code in range(81)
)
# _LINK[a][b]: sequence links between consecutive ranks used as a then b.
_LINK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(min(x, y) for x, y in zip(da, db, strict=True)) for db in _DECODE) for da in _DECODE
)

Counts = list[list[int]]
"""Cards per face of a hand: ``counts[suit][rank - 1]`` in ``0..2``."""


# --------------------------------------------------------------------------- patterns


def _rank_index(card: int) -> int:
    return card % FACES % _RANKS


def _suit_index(card: int) -> int:
    return card % FACES // _RANKS


def _is_circular_interval(rank_indices: Iterable[int]) -> bool:
    """Distinct rank indices forming one run on the circle A-2-...-K-A."""
    ranks = set(rank_indices)
    if len(ranks) == _RANKS:
        return True
    starts = sum(1 for r in ranks if (r - 1) % _RANKS not in ranks)
    return starts == 1


def is_group(ids: Sequence[int]) -> bool:
    """At least two cards of one rank (any suits; two identical cards allowed).

    >>> from rules.polymer.cards import ids_for_codes
    >>> is_group(ids_for_codes("7S 7S 7H")), is_group(ids_for_codes("7S")), is_group([6, 7])
    (True, False, False)
    """
    cards = [check_card(c) for c in ids]
    return len(cards) >= 2 and len({_rank_index(c) for c in cards}) == 1


def is_sequence(ids: Sequence[int]) -> bool:
    """At least two cards of one suit with distinct ranks consecutive on the circle.

    A follows K, so Q-K-A and K-A-2 are sequences; all 13 ranks of a suit are one
    sequence; two identical cards never are.

    >>> from rules.polymer.cards import ids_for_codes
    >>> [is_sequence(ids_for_codes(t)) for t in ("QH KH AH 2H", "9S 10S", "9S 9S", "9S JS")]
    [True, True, False, False]
    """
    cards = [check_card(c) for c in ids]
    if len(cards) < 2 or len({_suit_index(c) for c in cards}) != 1:
        return False
    ranks = [_rank_index(c) for c in cards]
    return len(set(ranks)) == len(ranks) and _is_circular_interval(ranks)


def top_rank(ids: Sequence[int]) -> int:
    """The highest rank in a pattern, A = 1 lowest and K = 13 highest; 0 if empty.

    >>> from rules.polymer.cards import ids_for_codes
    >>> top_rank(ids_for_codes("QD KD AD")), top_rank(ids_for_codes("AD 2D 3D")), top_rank([])
    (13, 3, 0)
    """
    return max((rank_of(check_card(c)) for c in ids), default=0)


def _not_a_pattern_reason(ids: Sequence[int]) -> str | None:
    if len(ids) < 2:
        return "fewer_than_two"
    ranks = [_rank_index(c) for c in ids]
    if len(set(ranks)) == 1:
        return None
    if len({_suit_index(c) for c in ids}) > 1:
        return "mixed_suits"
    if len(set(ranks)) < len(ranks):
        return "repeated_rank"
    if not _is_circular_interval(ranks):
        return "not_consecutive"
    return None


_REASON_TEXT = {
    "fewer_than_two": "a group or a sequence needs at least two cards",
    "mixed_suits": (
        "its ranks differ, so it is not a group, and its suits differ, so it is not a sequence"
    ),
    "repeated_rank": (
        "its ranks differ, so it is not a group, and it repeats a rank, so it is not a "
        "sequence (the ranks of a sequence are all different)"
    ),
    "not_consecutive": (
        "its ranks differ, so it is not a group, and its ranks are not consecutive, so it "
        "is not a sequence (A follows K and precedes 2)"
    ),
}


def _pattern_order(ids: Iterable[int]) -> tuple[int, ...]:
    """A pattern's ids in display order: a sequence from its first rank along the run
    (A-K for a full suit), a group by suit then id."""
    cards = sorted(ids, key=lambda c: (_suit_index(c), c))
    ranks = {_rank_index(c) for c in cards}
    if len(ranks) <= 1:
        return tuple(cards)
    if len(ranks) == _RANKS:
        return tuple(sorted(cards, key=lambda c: (_rank_index(c), c)))
    start = min(r for r in ranks if (r - 1) % _RANKS not in ranks)
    return tuple(sorted(cards, key=lambda c: ((_rank_index(c) - start) % _RANKS, c)))


# ------------------------------------------------------------------------ arrangement


@dataclass(frozen=True)
class Arrangement:
    """A hand split into its longest pattern, the other patterns and unused cards.

    ``longest`` is empty when the hand holds no pattern. Every tuple holds card ids;
    patterns are in display order (a sequence along its run, a group by suit).

    >>> a = Arrangement(longest=(3, 4, 5), others=((13, 26), (40, 41)), unused=(50,))
    >>> a.longest_length, a.rest_value, a.top_rank
    (3, 2, 6)
    """

    longest: tuple[int, ...]
    others: tuple[tuple[int, ...], ...]
    unused: tuple[int, ...]

    @property
    def longest_length(self) -> int:
        """Cards in the longest pattern (0 if none)."""
        return len(self.longest)

    @property
    def rest_value(self) -> int:
        """The sum of (length - 1) over the other patterns."""
        return sum(len(p) - 1 for p in self.others)

    @property
    def top_rank(self) -> int:
        """Highest rank in the longest pattern (K = 13 highest, A = 1), 0 if none."""
        return top_rank(self.longest)

    @property
    def patterns(self) -> tuple[tuple[int, ...], ...]:
        """All patterns, longest first."""
        return ((self.longest,) if self.longest else ()) + self.others

    def to_json(self) -> ArrangementIds:
        """The arrangement as lists of card ids."""
        return {
            "longest": list(self.longest),
            "others": [list(p) for p in self.others],
            "unused": list(self.unused),
        }

    def codes(self) -> ArrangementCodes:
        """The arrangement as lists of card codes.

        >>> Arrangement((39, 51), (), (0,)).codes()
        {'longest': ['AS', 'KS'], 'others': [], 'unused': ['AC']}
        """
        return {
            "longest": [card_code(c) for c in self.longest],
            "others": [[card_code(c) for c in p] for p in self.others],
            "unused": [card_code(c) for c in self.unused],
        }


def _counts(ids: Iterable[int]) -> Counts:
    counts = [[0] * _RANKS for _ in range(_SUITS)]
    for card in ids:
        counts[_suit_index(card)][_rank_index(card)] += 1
    return counts


def _longest_run(row: Sequence[int]) -> int:
    """Longest circular run of present ranks in one suit (13 if the suit is complete)."""
    if all(row):
        return _RANKS
    start = list(row).index(0)
    best = current = 0
    for step in range(1, _RANKS + 1):
        if row[(start + step) % _RANKS]:
            current += 1
            best = max(best, current)
        else:
            current = 0
    return best


def _longest_from_counts(counts: Counts) -> int:
    group = max(sum(counts[s][r] for s in range(_SUITS)) for r in range(_RANKS))
    run = max(_longest_run(row) for row in counts)
    longest = max(group, run)
    return longest if longest >= 2 else 0


def longest_possible(hand: Sequence[int]) -> int:
    """The length of the longest pattern the hand can form, 0 if it has none.

    The larger of the most cards of one rank and the longest circular run of distinct
    ranks in one suit.

    >>> from rules.polymer.cards import ids_for_codes
    >>> longest_possible(ids_for_codes("QS KS AS 2S 7H 7D 7C")), longest_possible([0, 14])
    (4, 0)
    """
    return _longest_from_counts(_counts(check_hand(hand)))


def _candidates(counts: Counts, length: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every pattern of ``length`` cards (as faces), best top rank first.

    Order among equal top ranks (the documented deterministic choice): a group before
    sequences, sequences by suit (C, D, H, S) then by starting rank (A..K).
    """
    found: list[tuple[int, int, tuple[int, ...]]] = []
    c_row, d_row, h_row, s_row = counts
    for r in range(_RANKS):
        if c_row[r] + d_row[r] + h_row[r] + s_row[r] == length:
            faces = tuple(s * _RANKS + r for s in range(_SUITS) for _ in range(counts[s][r]))
            found.append((r + 1, 0, faces))
    for s, row in enumerate(counts):
        if length == _RANKS:
            if all(row):
                found.append((_RANKS, 1 + s, tuple(s * _RANKS + r for r in range(_RANKS))))
            continue
        doubled = row + row
        base = s * _RANKS
        for first in range(_RANKS):
            if row[first] and all(doubled[first : first + length]):
                faces = tuple(base + (first + j) % _RANKS for j in range(length))
                top = _RANKS if first + length > _RANKS else first + length
                found.append((top, 1 + s, faces))
    found.sort(key=lambda item: (-item[0], item[1]))
    return [(top, faces) for top, _, faces in found]


def _rank_options(counts: Counts) -> list[list[tuple[int, int]]]:
    """Per rank: every usage code (cards of that rank put in sequences, per suit) with
    the group value of what is left, ``max(0, left - 1)``.

    A face with no same-suit neighbour in the hand cannot be in a sequence, so it is
    always left for the group.
    """
    options: list[list[tuple[int, int]]] = []
    for r in range(_RANKS):
        codes = [0]
        used = [0]
        total = 0
        nxt = (r + 1) % _RANKS
        for s in range(_SUITS):
            row = counts[s]
            c = row[r]
            total += c
            if c and (row[r - 1] or row[nxt]):
                weight = _WEIGHTS[s]
                codes = [code + k * weight for code in codes for k in range(c + 1)]
                used = [u + k for u in used for k in range(c + 1)]
        options.append([(code, max(0, total - u - 1)) for code, u in zip(codes, used, strict=True)])
    return options


def _cycle_dp(options: list[list[tuple[int, int]]], start: int) -> tuple[int, list[int]]:
    """Best usage around the circle when no suit is used at all 13 ranks.

    ``start`` is a rank whose usage is enumerated (usually it has the single option
    "nothing in sequences", which cuts the circle). Returns the value and the usage
    code per rank.
    """
    order = [(start + i) % _RANKS for i in range(1, _RANKS)]
    best_value = -1
    best: tuple[int, int, list[dict[int, int]]] | None = None
    for x, x_pool in options[start]:
        values: dict[int, int] = {x: x_pool}
        backs: list[dict[int, int]] = []
        link_to = _LINK
        for r in order:
            items = list(values.items())
            new: dict[int, int] = {}
            back: dict[int, int] = {}
            for code, pool in options[r]:
                top_value = -1
                arg = 0
                for prev, value in items:
                    total = value + link_to[prev][code]
                    if total > top_value:
                        top_value, arg = total, prev
                new[code] = top_value + pool
                back[code] = arg
            values = new
            backs.append(back)
        for code, value in values.items():
            total = value + _LINK[code][x]
            if total > best_value:
                best_value, best = total, (x, code, backs)
    assert best is not None
    x, code, backs = best
    codes = [0] * _RANKS
    codes[start] = x
    for i in range(len(order) - 1, -1, -1):
        codes[order[i]] = code
        code = backs[i][code]
    return best_value, codes


def _full_step(status: int, prev: int, cur: int) -> int:
    """Track a complete suit: -1 once a rank is unused in sequences, else the number of
    places where usage rises from 1 to 2 (capped at 2)."""
    if status < 0 or cur == 0:
        return -1
    if prev == 1 and cur == 2:
        return min(status + 1, 2)
    return status


def _full_correction(status: int, usage: int) -> int:
    """Links counted by the DP that no valid set of sequences can realise.

    With every rank of the suit used once or twice, the links would close a loop or
    make a run longer than 13 ranks unless the twice-used ranks form at least two
    separate blocks: one block (or none) costs one run more, all ranks used twice
    (``usage`` 2, no rise) costs two.
    """
    if status < 0 or status >= 2:
        return 0
    if status == 1:
        return 1
    return usage


def _cycle_dp_full(
    options: list[list[tuple[int, int]]], full: tuple[int, ...]
) -> tuple[int, list[int]]:
    """:func:`_cycle_dp` for hands with complete suits (all 13 ranks present).

    The state adds, per complete suit, the :func:`_full_step` status so that the
    :func:`_full_correction` can be charged when the circle closes.
    """
    start = min(range(_RANKS), key=lambda r: len(options[r]))
    order = [(start + i) % _RANKS for i in range(1, _RANKS)]
    Key = tuple[int, tuple[int, ...]]
    best_value = -1
    best: tuple[Key, list[dict[Key, Key]]] | None = None
    for x, x_pool in options[start]:
        xd = _DECODE[x]
        values: dict[Key, int] = {(x, tuple(-1 if xd[s] == 0 else 0 for s in full)): x_pool}
        backs: list[dict[Key, Key]] = []
        for r in order:
            new: dict[Key, int] = {}
            back: dict[Key, Key] = {}
            for key, value in values.items():
                prev, status = key
                pd = _DECODE[prev]
                for code, pool in options[r]:
                    cd = _DECODE[code]
                    nstat = tuple(
                        _full_step(st, pd[s], cd[s]) for st, s in zip(status, full, strict=True)
                    )
                    total = value + _LINK[prev][code] + pool
                    nkey = (code, nstat)
                    if total > new.get(nkey, -1):
                        new[nkey] = total
                        back[nkey] = key
            values = new
            backs.append(back)
        for key, value in values.items():
            code, status = key
            cd = _DECODE[code]
            correction = sum(
                _full_correction(_full_step(st, cd[s], xd[s]), xd[s])
                for st, s in zip(status, full, strict=True)
            )
            total = value + _LINK[code][x] - correction
            if total > best_value:
                best_value, best = total, (key, backs)
    assert best is not None
    key, backs = best
    codes = [0] * _RANKS
    for i in range(len(order) - 1, -1, -1):
        codes[order[i]] = key[0]
        key = backs[i][key]
    codes[start] = key[0]
    return best_value, codes


def _rest_value(counts: Counts) -> tuple[int, list[list[int]]]:
    """The largest sum of (length - 1) over patterns made from ``counts``, and the
    number of cards of each face used in sequences (``use[suit][rank - 1]``)."""
    options = _rank_options(counts)
    full = tuple(s for s in range(_SUITS) if all(counts[s]))
    if full:
        value, codes = _cycle_dp_full(options, full)
    else:
        start = min(range(_RANKS), key=lambda r: len(options[r]))
        value, codes = _cycle_dp(options, start)
    use = [[_DECODE[codes[r]][s] for r in range(_RANKS)] for s in range(_SUITS)]
    return value, use


def _twos_blocks(usage: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal cyclic blocks of ranks used twice, as (first rank, length); needs a 1."""
    one = list(usage).index(1)
    blocks: list[tuple[int, int]] = []
    run_start = -1
    for step in range(1, _RANKS + 1):
        r = (one + step) % _RANKS
        if usage[r] == 2:
            if run_start < 0:
                run_start = r
        elif run_start >= 0:
            blocks.append((run_start, (r - run_start) % _RANKS))
            run_start = -1
    return blocks


def _suit_runs(usage: Sequence[int]) -> list[list[int]]:
    """Split one suit's usage (cards per rank in sequences) into runs of rank indices
    with as many links as possible; runs of one card are returned too (they are
    unused cards)."""
    if all(usage):
        if all(u == 2 for u in usage):
            return [list(range(_RANKS)), list(range(_RANKS))]
        blocks = _twos_blocks(usage)
        if not blocks:
            return [list(range(_RANKS))]
        if len(blocks) == 1:
            first, length = blocks[0]
            return [list(range(_RANKS)), [(first + j) % _RANKS for j in range(length)]]
        runs = []
        for i, (first, _) in enumerate(blocks):
            nfirst, nlength = blocks[(i + 1) % len(blocks)]
            last = (nfirst + nlength - 1) % _RANKS
            runs.append([(first + j) % _RANKS for j in range((last - first) % _RANKS + 1)])
        return runs
    if not any(usage):
        return []
    zero = list(usage).index(0)
    runs = []
    open_runs: list[list[int]] = []
    for step in range(1, _RANKS + 1):
        r = (zero + step) % _RANKS
        k = usage[r]
        keep = min(k, len(open_runs))
        # continue the youngest runs, so that fewer runs stay a single card
        runs.extend(open_runs[: len(open_runs) - keep])
        carried = open_runs[len(open_runs) - keep :]
        for run in carried:
            run.append(r)
        open_runs = carried + [[r] for _ in range(k - keep)]
    return runs


def _build(counts: Counts, use: list[list[int]]) -> tuple[list[tuple[int, ...]], list[int]]:
    """Patterns (as faces) and unused faces for a solved usage."""
    patterns: list[tuple[int, ...]] = []
    unused: list[int] = []
    for s in range(_SUITS):
        for run in _suit_runs(use[s]):
            faces = tuple(s * _RANKS + r for r in run)
            if len(faces) >= 2:
                patterns.append(faces)
            else:
                unused.extend(faces)
    for r in range(_RANKS):
        left = [s * _RANKS + r for s in range(_SUITS) for _ in range(counts[s][r] - use[s][r])]
        if len(left) >= 2:
            patterns.append(tuple(left))
        else:
            unused.extend(left)
    return patterns, unused


def best_arrangement(hand: Sequence[int]) -> Arrangement:
    """The hand's best arrangement for scoring.

    Lexicographically: (1) the longest pattern is as long as the hand allows
    (:func:`longest_possible`); (2) the other patterns' sum of (length - 1) is as
    large as possible; (3) the longest pattern's top rank is as high as possible;
    (4) remaining ties are settled by a fixed order over faces, so the answer depends
    only on the multiset of faces, never on card order or on which deck a card came
    from (identical cards are handed out lowest id first).

    >>> from rules.polymer.cards import ids_for_codes
    >>> best_arrangement(ids_for_codes("QS KS AS 2S 2H 2D 9C")).codes()
    {'longest': ['QS', 'KS', 'AS', '2S'], 'others': [['2D', '2H']], 'unused': ['9C']}
    >>> best_arrangement(ids_for_codes("3C 4C 5C 5D 5H 5S")).codes()["longest"]
    ['5C', '5D', '5H', '5S']
    """
    return _best(tuple(sorted(check_hand(hand))))


@lru_cache(maxsize=4096)
def _best(ids: tuple[int, ...]) -> Arrangement:
    # memoised: views, bots and settlement ask again for hands that did not change
    counts = _counts(ids)
    length = _longest_from_counts(counts)
    if length == 0:
        return Arrangement((), (), tuple(sorted(ids)))
    candidates = _candidates(counts, length)
    bound = _rest_value(counts)[0] - (length - 1) if len(candidates) > 1 else None
    best: tuple[int, int, tuple[int, ...], Counts, list[list[int]]] | None = None
    for top, faces in candidates:
        if best is not None and best[0] == bound:
            break  # later candidates have no higher top rank and cannot beat the bound
        rest = [row[:] for row in counts]
        for face in faces:
            rest[face // _RANKS][face % _RANKS] -= 1
        value, use = _rest_value(rest)
        if best is None or (value, top) > (best[0], best[1]):
            best = (value, top, faces, rest, use)
    assert best is not None
    _, _, longest_faces, rest, use = best
    patterns, unused_faces = _build(rest, use)
    patterns.sort(key=lambda p: (-len(p), p))
    return _assign_ids(ids, longest_faces, patterns, unused_faces)


def _assign_ids(
    ids: Sequence[int],
    longest: tuple[int, ...],
    others: Sequence[tuple[int, ...]],
    unused: Sequence[int],
) -> Arrangement:
    """Turn faces into the hand's ids, identical cards lowest id first."""
    pool: dict[int, list[int]] = {}
    for card in sorted(ids, reverse=True):
        pool.setdefault(card % FACES, []).append(card)

    def take(faces: Iterable[int]) -> tuple[int, ...]:
        return tuple(pool[face].pop() for face in faces)

    first = _pattern_order(take(longest))
    rest = tuple(_pattern_order(take(p)) for p in others)
    spare = tuple(sorted(take(unused)))
    return Arrangement(first, rest, spare)


# ------------------------------------------------- when the neighbours hold no pattern
#
# A seat whose two neighbours hold no pattern scores ``0 * L + R``: only the other
# patterns count, and every pattern's length is capped by the one shown as the
# longest. So the best split maximises R = (max T over arrangements whose patterns
# are all at most d) - (d - 1) over the cap d, where T is the sum of (length - 1)
# over all patterns. With caps the per-rank grouping argument of the dynamic
# programme above no longer holds, so this is an exact memoised search over the
# multiset of faces. It only runs for such seats, whose hands hold at most 13 cards
# in a real game (every seat ends with the start count, and a hand with no pattern
# has at most one card of each rank).

Faces = tuple[int, ...]
"""Cards per face, ``faces[suit * 13 + rank - 1]`` in ``0..2`` (a hashable count vector)."""


def _fates(faces: Faces, cap: int) -> list[tuple[int, tuple[int, ...], Faces]]:
    """Every fate of one copy of the lowest face present, as (value, its pattern's faces
    or () if unused, the faces left). Fixed order: groups (largest first), then
    sequences (longest first, then by first rank), then unused."""
    x = next(f for f, n in enumerate(faces) if n)
    left = list(faces)
    left[x] -= 1
    rank, suit = x % _RANKS, x // _RANKS
    out: list[tuple[int, tuple[int, ...], Faces]] = []
    same = [s * _RANKS + rank for s in range(_SUITS)]
    combos: list[tuple[int, ...]] = [()]
    for face in same:
        combos = [(*c, k) for c in combos for k in range(left[face] + 1)]
    groups = []
    for combo in combos:
        size = sum(combo)
        if 1 <= size <= cap - 1:
            members = (x, *(f for f, k in zip(same, combo, strict=True) for _ in range(k)))
            rest = list(left)
            for face, k in zip(same, combo, strict=True):
                rest[face] -= k
            groups.append((size, tuple(sorted(members)), tuple(rest)))
    groups.sort(key=lambda g: (-g[0], g[1]))
    out += groups
    base = suit * _RANKS
    for length in range(min(cap, _RANKS), 1, -1):
        firsts = [0] if length == _RANKS else [(rank - o) % _RANKS for o in range(length)]
        for first in sorted(firsts):
            run = [base + (first + j) % _RANKS for j in range(length)]
            if all(left[f] for f in run if f != x):
                rest = list(left)
                for face in run:
                    if face != x:
                        rest[face] -= 1
                out.append((length - 1, tuple(run), tuple(rest)))
    out.append((0, (), tuple(left)))
    return out


@lru_cache(maxsize=65536)
def _capped_total(faces: Faces, cap: int) -> int:
    """The largest sum of (length - 1) over patterns of at most ``cap`` cards."""
    if not any(faces):
        return 0
    return max(value + _capped_total(rest, cap) for value, _, rest in _fates(faces, cap))


def _capped_patterns(faces: Faces, cap: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """Patterns (as faces) and unused faces reaching ``_capped_total`` (first fate in
    the fixed order that reaches it, so the answer is deterministic)."""
    patterns: list[tuple[int, ...]] = []
    unused: list[int] = []
    while any(faces):
        target = _capped_total(faces, cap)
        for value, members, rest in _fates(faces, cap):
            if value + _capped_total(rest, cap) == target:
                if members:
                    patterns.append(members)
                else:
                    unused.append(next(f for f, n in enumerate(faces) if n))
                faces = rest
                break
    return patterns, unused


def _patterns_of_length(faces: Faces, length: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every pattern of exactly ``length`` cards (as faces) with its top rank, best top
    rank first; on equal top ranks a group before sequences, groups by their faces,
    sequences by suit (C, D, H, S) then first rank."""
    found: list[tuple[int, int, tuple[int, ...]]] = []
    for rank in range(_RANKS):
        same = [s * _RANKS + rank for s in range(_SUITS)]
        combos: list[tuple[int, ...]] = [()]
        for face in same:
            combos = [(*c, k) for c in combos for k in range(faces[face] + 1)]
        for combo in combos:
            if sum(combo) == length:
                members = tuple(f for f, k in zip(same, combo, strict=True) for _ in range(k))
                found.append((rank + 1, 0, members))
    for suit in range(_SUITS):
        base = suit * _RANKS
        for first in range(1 if length == _RANKS else _RANKS):
            run = tuple(base + (first + j) % _RANKS for j in range(length))
            if length <= _RANKS and all(faces[f] for f in run):
                top = _RANKS if first + length > _RANKS else first + length
                found.append((top, 1 + suit, run))
    found.sort(key=lambda item: (-item[0], item[1], item[2]))
    return [(top, members) for top, _, members in found]


def best_rest_arrangement(hand: Sequence[int]) -> Arrangement:
    """The arrangement that scores most when both neighbours hold no pattern.

    The score is then ``R``, the sum of (length - 1) over the patterns other than the
    longest, so a long pattern is worth more split. Lexicographically: (1) ``R`` as
    large as possible; (2) then the longest pattern as long as possible; (3) then its
    top rank as high as possible; (4) then the fixed order of faces of
    :func:`best_arrangement`.

    The issue's hand: four 6s and 7C-8C score 1; 6C-7C-8C and three 6s score 2.

    >>> from rules.polymer.cards import ids_for_codes
    >>> a = best_rest_arrangement(ids_for_codes("6C 6D 6H 6S 7C 8C"))
    >>> a.codes(), a.rest_value
    ({'longest': ['6C', '7C', '8C'], 'others': [['6D', '6H', '6S']], 'unused': []}, 2)
    >>> run = best_rest_arrangement(ids_for_codes("AS 2S 3S 4S 5S 6S 7S"))  # 7 as 4 + 3
    >>> run.codes()["longest"], run.codes()["others"], run.rest_value
    (['4S', '5S', '6S', '7S'], [['AS', '2S', '3S']], 2)
    """
    return _best_rest(tuple(sorted(check_hand(hand))))


@lru_cache(maxsize=1024)
def _best_rest(ids: tuple[int, ...]) -> Arrangement:
    counts = _counts(ids)
    longest = _longest_from_counts(counts)
    if longest == 0:
        return Arrangement((), (), ids)
    faces: Faces = tuple(counts[s][r] for s in range(_SUITS) for r in range(_RANKS))
    cap, rest_value = 0, -1
    for d in range(2, longest + 1):
        value = _capped_total(faces, d) - (d - 1)
        if value >= rest_value:  # on a tie the longer longest pattern
            cap, rest_value = d, value
    total = rest_value + cap - 1
    for _, members in _patterns_of_length(faces, cap):
        rest = list(faces)
        for face in members:
            rest[face] -= 1
        if cap - 1 + _capped_total(tuple(rest), cap) == total:
            patterns, unused = _capped_patterns(tuple(rest), cap)
            patterns.sort(key=lambda p: (-len(p), p))
            return _assign_ids(ids, members, patterns, unused)
    raise AssertionError("a cap reaching the best value always has a pattern of that length")


def arrangement_for(hand: Sequence[int], neighbour_longest_sum: int) -> Arrangement:
    """The arrangement a seat shows: the one that maximises its own score
    ``L * N + R`` for its neighbours' longest lengths summed (``N``), and among those
    the longest-first one.

    With ``N >= 1`` that is :func:`best_arrangement`: a neighbour's pattern has at
    least two cards, so ``N >= 2``, and no split with a shorter longest pattern gains
    more than it loses (see ``docs/rules/polymer.md``, "Which arrangement is shown";
    ``tests/test_polymer_patterns.py`` checks it against every arrangement of small
    hands). With ``N = 0`` it is :func:`best_rest_arrangement`.

    >>> from rules.polymer.cards import ids_for_codes
    >>> hand = ids_for_codes("6C 6D 6H 6S 7C 8C")
    >>> arrangement_for(hand, 0).longest_length, arrangement_for(hand, 2).longest_length
    (3, 4)
    """
    return best_rest_arrangement(hand) if neighbour_longest_sum == 0 else best_arrangement(hand)


def validate_arrangement(hand: Sequence[int], patterns: Sequence[Sequence[int]]) -> Arrangement:
    """Check a declared set of patterns against the hand and return it as an arrangement.

    Refuses a card not in the hand (``card_not_in_hand``), a card in two patterns or
    twice in one (``card_used_twice``) and a set of cards that is neither a group nor a
    sequence (``not_a_pattern``, saying why). The declared longest pattern (on equal
    lengths the higher top rank, then the first declared) becomes ``longest``; the
    others keep their declared order; cards in no pattern are ``unused``.

    >>> from rules.polymer.cards import ids_for_codes
    >>> hand = ids_for_codes("QS KS AS 2H 2D")
    >>> validate_arrangement(hand, [hand[3:], hand[:3]]).codes()
    {'longest': ['QS', 'KS', 'AS'], 'others': [['2D', '2H']], 'unused': []}
    >>> try:
    ...     validate_arrangement(hand, [hand[1:4]])
    ... except RuleViolation as err:
    ...     print(err.code, "|", err.message)
    not_a_pattern | KS AS 2H is not a pattern: its ranks differ, so it is not a group, \
and its suits differ, so it is not a sequence.
    """
    held = set(check_hand(hand))
    if isinstance(patterns, (str, bytes)) or not isinstance(patterns, Sequence):
        raise RuleViolation("bad_patterns", "Patterns must be a list of lists of card ids.")
    seen: set[int] = set()
    declared: list[tuple[int, ...]] = []
    for pattern in patterns:
        if isinstance(pattern, (str, bytes)) or not isinstance(pattern, Sequence):
            raise RuleViolation(
                "bad_patterns", f"A pattern must be a list of card ids, not {quote(pattern)}."
            )
        for card in pattern:
            check_card(card)
            if card not in held:
                raise RuleViolation(
                    "card_not_in_hand",
                    f"Card {card_code(card)} (id {card}) is not in this hand.",
                    card=card,
                )
            if card in seen:
                raise RuleViolation(
                    "card_used_twice",
                    f"Card {card_code(card)} (id {card}) is used twice; each card can be "
                    "in at most one group or sequence.",
                    rule=ONCE_RULE,
                    card=card,
                )
            seen.add(card)
        declared.append(tuple(pattern))
    for pattern in declared:
        reason = _not_a_pattern_reason(pattern)
        if reason is not None:
            shown = " ".join(card_code(c) for c in pattern) or "An empty set"
            raise RuleViolation(
                "not_a_pattern",
                f"{shown} is not a pattern: {_REASON_TEXT[reason]}.",
                rule=f"{GROUP_RULE} {SEQUENCE_RULE}",
                reason=reason,
                cards=list(pattern),
            )
    if not declared:
        return Arrangement((), (), tuple(sorted(held)))
    index = max(range(len(declared)), key=lambda i: (len(declared[i]), top_rank(declared[i]), -i))
    return Arrangement(
        _pattern_order(declared[index]),
        tuple(_pattern_order(p) for i, p in enumerate(declared) if i != index),
        tuple(sorted(held - seen)),
    )


# ----------------------------------------------------------------------------- scores


def seat_score(own_longest: int, neighbour_longest_sum: int, rest_value: int) -> int:
    """The seed's score: own longest * neighbours' longest lengths summed + rest value.

    >>> seat_score(4, 5 + 6, (3 - 1) + (2 - 1) + (2 - 1))
    48
    """
    return own_longest * neighbour_longest_sum + rest_value


def tie_break_key(
    own_top_rank: int, left_top_rank: int, right_top_rank: int
) -> tuple[int, int, int]:
    """The three tiebreakers in order: own top rank, then the higher and the lower of
    the neighbours' top ranks (K = 13 high, A = 1 low, 0 for no pattern).

    >>> tie_break_key(13, 3, 9)
    (13, 9, 3)
    """
    return (own_top_rank, max(left_top_rank, right_top_rank), min(left_top_rank, right_top_rank))


def shown_arrangements(hands: Sequence[Sequence[int]]) -> list[Arrangement]:
    """The arrangement each seat of a circle shows: the one that maximises its own score.

    A seat's ``N`` (its neighbours' longest lengths summed) is 0 exactly when neither
    neighbour can form any pattern, which the hands alone decide; every other seat
    shows its longest-first arrangement (:func:`arrangement_for`). So the choice is
    never circular: a seat that splits its longest pattern (``N = 0``) sits between
    two seats that score 0 whatever it shows.

    Cost: the search for a seat between two seats without a pattern grows quickly with
    its hand (a few ms at 13 cards, about a second at 24). At the end of a game such a
    seat holds at most 13 cards (every seat is back at the start count, and a hand
    without a pattern has at most one card per rank), so the game only calls this once
    time is up.

    >>> from rules.polymer.cards import ids_for_codes
    >>> hands = [ids_for_codes(t) for t in ("AC 3D 5H", "6C 6D 6H 6S 7C 8C", "2C 4D 9H")]
    >>> [a.codes()["longest"] for a in shown_arrangements(hands)]
    [[], ['6C', '7C', '8C'], []]
    """
    first = [best_arrangement(hand) for hand in hands]
    shown = []
    for seat, hand in enumerate(hands):
        left, right = neighbours(seat, len(hands))
        n = first[left].longest_length + first[right].longest_length
        shown.append(first[seat] if n or not first[seat].longest else arrangement_for(hand, n))
    return shown


def table_scores(hands: Sequence[Sequence[int]]) -> list[SeatScore]:
    """Score a table of hands seated in a circle, each in the arrangement it shows
    (:func:`shown_arrangements`: the one that maximises its own score).

    Seat ``i``'s neighbours are ``i + 1`` (left) and ``i - 1`` (right), modulo the
    number of seats; at a two-seat table the one neighbour counts on both sides.

    >>> from rules.polymer.cards import ids_for_codes
    >>> hands = [ids_for_codes(t) for t in (
    ...     "4S 5S 6S 7S 9H 10H JH 2C 2D KC KD",
    ...     "8C 8D 8H 8S 8S",
    ...     "AH 2H 3H 4H 5H 6H",
    ... )]
    >>> [(row["seat"], row["score"], row["tie_break"]) for row in table_scores(hands)]
    [(0, 48, [7, 8, 6]), (1, 50, [8, 7, 6]), (2, 54, [6, 8, 7])]
    """
    if len(hands) < 2:
        raise RuleViolation(
            "bad_players", f"Scoring needs at least two seats in a circle, not {len(hands)}."
        )
    owner: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        for card in check_hand(hand):
            if card in owner:
                raise RuleViolation(
                    "duplicate_card",
                    f"Card {card_code(card)} (id {card}) is in the hands of seats "
                    f"{owner[card]} and {seat}.",
                    card=card,
                )
            owner[card] = seat
    arrangements = shown_arrangements(hands)
    table: list[SeatScore] = []
    for seat, arrangement in enumerate(arrangements):
        left, right = neighbours(seat, len(hands))
        left_arr, right_arr = arrangements[left], arrangements[right]
        neighbour_sum = left_arr.longest_length + right_arr.longest_length
        table.append(
            {
                "seat": seat,
                "score": seat_score(
                    arrangement.longest_length, neighbour_sum, arrangement.rest_value
                ),
                "arrangement_rule": "most_other_patterns"
                if neighbour_sum == 0 and arrangement.longest
                else "longest_first",
                "longest_length": arrangement.longest_length,
                "top_rank": arrangement.top_rank,
                "rest_value": arrangement.rest_value,
                "arrangement": arrangement.codes(),
                "arrangement_ids": arrangement.to_json(),
                "neighbours": {"left": left, "right": right},
                "neighbour_longest": {
                    "left": left_arr.longest_length,
                    "right": right_arr.longest_length,
                },
                "neighbour_top_ranks": {"left": left_arr.top_rank, "right": right_arr.top_rank},
                "tie_break": list(
                    tie_break_key(arrangement.top_rank, left_arr.top_rank, right_arr.top_rank)
                ),
            }
        )
    return table


def ranking(table: Sequence[Mapping[str, Any]]) -> list[list[int]]:
    """Places, best first: seats equal on score and on all three tiebreakers share one.

    >>> ranking([
    ...     {"seat": 0, "score": 10, "tie_break": [5, 3, 1]},
    ...     {"seat": 1, "score": 12, "tie_break": [1, 1, 1]},
    ...     {"seat": 2, "score": 10, "tie_break": [5, 3, 1]},
    ...     {"seat": 3, "score": 10, "tie_break": [5, 3, 0]},
    ... ])
    [[1], [0, 2], [3]]
    """

    def key(row: Mapping[str, Any]) -> tuple[int, ...]:
        return (int(row["score"]), *(int(v) for v in row["tie_break"]))

    places: list[list[int]] = []
    previous: tuple[int, ...] | None = None
    for row in sorted(table, key=lambda row: (tuple(-v for v in key(row)), row["seat"])):
        current = key(row)
        if current == previous:
            places[-1].append(int(row["seat"]))
        else:
            places.append([int(row["seat"])])
            previous = current
    return places
