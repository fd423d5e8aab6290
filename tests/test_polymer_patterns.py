"""Polymer's patterns, best arrangement and scores.

The property tests compare ``best_arrangement`` with two independent exact searches
that share no code with it:

* ``brute_force`` enumerates every partition of a small hand (<= 9 cards) into
  patterns and unused cards and keeps the best (longest length, rest value, top rank);
* ``reference`` (for hands up to ~30 cards) fixes every possible longest pattern and
  solves the rest by a memoised search over the remaining multiset of faces: the
  lowest remaining face is left unused, put in a group with any sub-multiset of its
  rank, or put in any circular run of its suit that contains it.
"""

from __future__ import annotations

import doctest
from collections.abc import Sequence
from itertools import combinations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules.polymer.patterns as patterns_module
from rules.core import RuleViolation
from rules.polymer.cards import card_code, ids_for_codes, twin
from rules.polymer.patterns import (
    Arrangement,
    arrangement_for,
    best_arrangement,
    best_rest_arrangement,
    is_group,
    is_sequence,
    longest_possible,
    ranking,
    seat_score,
    table_scores,
    tie_break_key,
    top_rank,
    validate_arrangement,
)

Objective = tuple[int, int, int]


# ------------------------------------------------------------------ independent oracles


def _rank(card: int) -> int:
    return card % 52 % 13


def _suit(card: int) -> int:
    return card % 52 // 13


def oracle_is_pattern(cards: Sequence[int]) -> bool:
    if len(cards) < 2:
        return False
    ranks = [_rank(c) for c in cards]
    if len(set(ranks)) == 1:
        return True
    if len({_suit(c) for c in cards}) != 1 or len(set(ranks)) != len(ranks):
        return False
    return any(set(ranks) == {(a + j) % 13 for j in range(len(ranks))} for a in range(13))


def brute_force(hand: Sequence[int]) -> Objective:
    """Best (longest length, sum of (length - 1) of the others, top rank of the longest)
    over every partition of the hand into patterns and unused cards."""
    cards = sorted(hand)
    n = len(cards)
    by_lowest: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    for mask in range(1, 1 << n):
        members = [cards[i] for i in range(n) if mask >> i & 1]
        if oracle_is_pattern(members):
            lowest = (mask & -mask).bit_length() - 1
            by_lowest[lowest].append((mask, len(members), max(_rank(c) + 1 for c in members)))
    best: list[Objective] = [(0, 0, 0)]
    chosen: list[tuple[int, int]] = []

    def walk(i: int, used: int) -> None:
        while i < n and used >> i & 1:
            i += 1
        if i == n:
            if chosen:
                longest = max(length for length, _ in chosen)
                rest = sum(length - 1 for length, _ in chosen) - (longest - 1)
                top = max(t for length, t in chosen if length == longest)
                best[0] = max(best[0], (longest, rest, top))
            return
        walk(i + 1, used | 1 << i)  # card i unused
        for mask, length, top in by_lowest[i]:
            if not mask & used:
                chosen.append((length, top))
                walk(i + 1, used | mask)
                chosen.pop()

    walk(0, 0)
    return best[0]


def every_objective(hand: Sequence[int]) -> set[Objective]:
    """(longest length, sum of (length - 1) of the others, top rank of the longest) of
    every arrangement of the hand: every partition into patterns and unused cards, each
    pattern of the longest length in turn taken as the shown longest."""
    cards = sorted(hand)
    n = len(cards)
    by_lowest: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    for mask in range(1, 1 << n):
        members = [cards[i] for i in range(n) if mask >> i & 1]
        if oracle_is_pattern(members):
            lowest = (mask & -mask).bit_length() - 1
            by_lowest[lowest].append((mask, len(members), max(_rank(c) + 1 for c in members)))
    found: set[Objective] = set()
    chosen: list[tuple[int, int]] = []

    def walk(i: int, used: int) -> None:
        while i < n and used >> i & 1:
            i += 1
        if i == n:
            if not chosen:
                found.add((0, 0, 0))
                return
            longest = max(length for length, _ in chosen)
            rest = sum(length - 1 for length, _ in chosen) - (longest - 1)
            for length, top in chosen:
                if length == longest:
                    found.add((longest, rest, top))
            return
        walk(i + 1, used | 1 << i)
        for mask, length, top in by_lowest[i]:
            if not mask & used:
                chosen.append((length, top))
                walk(i + 1, used | mask)
                chosen.pop()

    walk(0, 0)
    return found


def reference_rest(counts: Sequence[int], memo: dict[tuple[int, ...], int], cap: int = 13) -> int:
    """Largest sum of (length - 1) over disjoint patterns of a multiset of faces, each
    pattern of at most ``cap`` cards (``memo`` belongs to one cap)."""
    state = tuple(counts)
    if state in memo:
        return memo[state]
    x = next((f for f, c in enumerate(state) if c), None)
    if x is None:
        return 0
    left = list(state)
    left[x] -= 1
    best = reference_rest(left, memo, cap)  # x unused
    suit, rank = divmod(x, 13)
    same_rank = [s * 13 + rank for s in range(4)]
    for combo in product(*(range(left[f] + 1) for f in same_rank)):
        if 1 <= sum(combo) <= cap - 1:
            rest = left[:]
            for f, k in zip(same_rank, combo, strict=True):
                rest[f] -= k
            best = max(best, sum(combo) + reference_rest(rest, memo, cap))
    for length in range(2, min(cap, 13) + 1):
        for offset in range(length):
            first = (rank - offset) % 13
            others = [suit * 13 + (first + j) % 13 for j in range(length) if j != offset]
            if all(left[f] for f in others):
                rest = left[:]
                for f in others:
                    rest[f] -= 1
                best = max(best, length - 1 + reference_rest(rest, memo, cap))
    memo[state] = best
    return best


def reference(hand: Sequence[int]) -> Objective:
    counts = [0] * 52
    for card in hand:
        counts[card % 52] += 1
    candidates: list[tuple[list[int], int]] = []
    for rank in range(13):
        same = [s * 13 + rank for s in range(4)]
        for combo in product(*(range(counts[f] + 1) for f in same)):
            if sum(combo) >= 2:
                faces = [f for f, k in zip(same, combo, strict=True) for _ in range(k)]
                candidates.append((faces, rank + 1))
    for suit in range(4):
        for first in range(13):
            for length in range(2, 14):
                faces = [suit * 13 + (first + j) % 13 for j in range(length)]
                if all(counts[f] for f in faces):
                    candidates.append((faces, max(f % 13 for f in faces) + 1))
    if not candidates:
        return (0, 0, 0)
    longest = max(len(faces) for faces, _ in candidates)
    memo: dict[tuple[int, ...], int] = {}
    best = (0, 0, 0)
    for faces, top in candidates:
        if len(faces) == longest:
            rest = counts[:]
            for f in faces:
                rest[f] -= 1
            best = max(best, (longest, reference_rest(rest, memo), top))
    return best


def objective(arrangement: Arrangement) -> Objective:
    return (arrangement.longest_length, arrangement.rest_value, arrangement.top_rank)


def as_faces(arrangement: Arrangement) -> tuple[object, ...]:
    return (
        tuple(c % 52 for c in arrangement.longest),
        tuple(tuple(c % 52 for c in p) for p in arrangement.others),
        tuple(sorted(c % 52 for c in arrangement.unused)),
    )


def check_consistent(hand: Sequence[int], arrangement: Arrangement) -> None:
    """Every card exactly once, every pattern valid, no longer pattern elsewhere, and the
    validator gives back the very same arrangement."""
    used = list(arrangement.longest) + [c for p in arrangement.others for c in p]
    assert sorted(used + list(arrangement.unused)) == sorted(hand)
    for pattern in arrangement.patterns:
        assert oracle_is_pattern(pattern)
    assert all(len(p) <= arrangement.longest_length for p in arrangement.others)
    assert validate_arrangement(hand, arrangement.patterns) == arrangement
    assert arrangement.longest_length == longest_possible(hand)


# ------------------------------------------------------------------------ strategies


@st.composite
def clustered_hands(draw: st.DrawFn, min_size: int = 0, max_size: int = 9) -> list[int]:
    """Hands from few suits and a window of consecutive ranks (possibly wrapping K-A),
    both decks, so groups, sequences, duplicates and K-A-2 runs are common."""
    n_suits = draw(st.sampled_from([1, 1, 2, 2, 2, 3, 4]))
    suits = draw(st.permutations(range(4)))[:n_suits]
    width = draw(st.sampled_from([2, 3, 3, 4, 4, 5, 6, 7, 13]))
    first = draw(st.integers(0, 12))
    pool = [
        deck * 52 + s * 13 + (first + j) % 13
        for s in suits
        for j in range(width)
        for deck in (0, 1)
    ]
    size = draw(st.integers(min(min_size, len(pool)), min(max_size, len(pool))))
    return draw(st.permutations(pool))[:size]


random_hands = st.lists(st.integers(0, 103), unique=True, max_size=20)
small_random_hands = st.lists(st.integers(0, 103), unique=True, max_size=9)


@st.composite
def complete_suit_hands(draw: st.DrawFn) -> list[int]:
    """A complete suit (either deck's copy of each face), some of its twins, a few
    cards of other suits."""
    suit = draw(st.integers(0, 3))
    hand = [draw(st.sampled_from([0, 52])) + suit * 13 + r for r in range(13)]
    twins = draw(st.lists(st.sampled_from([twin(c) for c in hand]), unique=True, max_size=13))
    others = draw(
        st.lists(
            st.sampled_from([c for c in range(104) if _suit(c) != suit]), unique=True, max_size=4
        )
    )
    return hand + twins + others


@st.composite
def circle_hands(draw: st.DrawFn) -> list[int]:
    """Runs in two or three suits whose arcs cover all 13 ranks, so that no rank is free
    of cards that could be in a sequence and the solver has to close the circle."""
    suits = draw(st.permutations(range(4)))[: draw(st.integers(2, 3))]
    start = draw(st.integers(0, 12))
    cuts = sorted(
        draw(
            st.lists(
                st.integers(2, 11), min_size=len(suits) - 1, max_size=len(suits) - 1, unique=True
            )
        )
    )
    bounds = [0, *cuts, 13]
    hand: list[int] = []
    for i, suit in enumerate(suits):
        overlap = draw(st.integers(0, 2))
        first, last = bounds[i], bounds[i + 1] + overlap
        hand += [suit * 13 + (start + r) % 13 for r in range(first, min(last, first + 12))]
    hand = sorted(set(hand))
    twins = draw(st.lists(st.sampled_from([twin(c) for c in hand]), unique=True, max_size=5))
    return hand + twins


# ---------------------------------------------------------------- the seed's example


def test_worked_example_scores_48() -> None:
    hand = ids_for_codes("4S 5S 6S 7S 9H 10H JH 2C 2D KC KD")
    left = ids_for_codes("8C 8D 8H 8S 8S")
    right = ids_for_codes("AD 2D 3D 4D 5D 6D")
    right = [twin(c) if c in hand else c for c in right]  # 2D is in the first hand
    me = best_arrangement(hand)
    assert me.longest_length == 4
    assert sorted(len(p) for p in me.others) == [2, 2, 3]
    assert me.rest_value == (3 - 1) + (2 - 1) + (2 - 1)
    assert seat_score(4, 5 + 6, me.rest_value) == 48
    table = table_scores([hand, left, right])
    assert table[0]["score"] == 48
    assert table[0]["neighbour_longest"] == {"left": 5, "right": 6}
    assert table[0]["arrangement"]["longest"] == ["4S", "5S", "6S", "7S"]


def test_doctests() -> None:
    result = doctest.testmod(patterns_module)
    assert result.attempted > 20
    assert result.failed == 0


# ------------------------------------------------------------------- single patterns


def test_groups_allow_duplicates_and_any_suits() -> None:
    assert is_group(ids_for_codes("7S 7S"))
    assert is_group(ids_for_codes("7C 7C 7D 7D 7H 7H 7S 7S"))
    assert not is_group(ids_for_codes("7S"))
    assert not is_group(ids_for_codes("7S 8S"))
    assert not is_group([])


def test_sequences_are_distinct_consecutive_ranks_around_the_circle() -> None:
    assert is_sequence(ids_for_codes("9S 10S"))
    assert is_sequence(ids_for_codes("KS AS"))
    assert is_sequence(ids_for_codes("QH KH AH 2H"))
    assert is_sequence(ids_for_codes("2H AH KH"))  # order does not matter
    full = ids_for_codes("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")
    assert is_sequence(full)
    assert not is_sequence([*full, twin(full[0])])  # 14 cards repeat a rank
    assert not is_sequence(ids_for_codes("7S 7S"))
    assert not is_sequence(ids_for_codes("7S 8S 8S"))
    assert not is_sequence(ids_for_codes("7S 9S"))
    assert not is_sequence(ids_for_codes("7S 8H"))
    assert not is_sequence(ids_for_codes("JS QS KS 2S"))
    assert not is_sequence(ids_for_codes("7S"))


def test_top_rank_has_ace_low_and_king_high() -> None:
    assert top_rank(ids_for_codes("QS KS AS")) == 13
    assert top_rank(ids_for_codes("KS AS 2S")) == 13
    assert top_rank(ids_for_codes("AS 2S 3S")) == 3
    assert top_rank(ids_for_codes("AS AH AC")) == 1
    assert top_rank([]) == 0


def test_longest_possible() -> None:
    assert longest_possible([]) == 0
    assert longest_possible(ids_for_codes("AS 3S 5H 7D")) == 0
    assert longest_possible(ids_for_codes("AS AS")) == 2
    assert longest_possible(ids_for_codes("QS KS AS 2S 7H 7D 7C")) == 4
    assert longest_possible(ids_for_codes("AC AC AD AD AH AH AS AS")) == 8
    full = ids_for_codes("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")
    assert longest_possible(full + [twin(c) for c in full]) == 13


# -------------------------------------------------------------------- best arrangement


def test_no_pattern() -> None:
    hand = ids_for_codes("AS 3S 5H 7D")
    assert best_arrangement(hand) == Arrangement((), (), tuple(sorted(hand)))
    assert best_arrangement([]) == Arrangement((), (), ())


def test_longest_first_even_if_the_rest_is_worth_less() -> None:
    # Four 5s (length 4) leave 6S 7S: rest 1. 5S 6S 7S + 5C 5D 5H would give 3 and
    # rest 2, a higher score only when both neighbours have no pattern.
    arrangement = best_arrangement(ids_for_codes("5C 5D 5H 5S 6S 7S"))
    assert arrangement.codes() == {
        "longest": ["5C", "5D", "5H", "5S"],
        "others": [["6S", "7S"]],
        "unused": [],
    }


def test_rest_value_comes_before_the_top_rank() -> None:
    # Length 3: the run 9D 10D JD (top J) leaves 9C 10C 10C JD: rest 1; the three 10s
    # (top 10) leave 9C 9D and JD JD: rest 2, which wins over the higher top rank.
    arrangement = best_arrangement(ids_for_codes("10C 10C 10D 9C 9D JD JD"))
    assert arrangement.codes() == {
        "longest": ["10C", "10C", "10D"],
        "others": [["9C", "9D"], ["JD", "JD"]],
        "unused": [],
    }
    assert objective(arrangement) == (3, 2, 10)


def test_equal_candidates_group_first() -> None:
    # Three candidates of length 3 all leave rest 2; the 4s (group) and the run 2-3-4
    # both top at 4, and the documented order puts the group first.
    arrangement = best_arrangement(ids_for_codes("2S 3S 4S 3H 3D 4H 4D"))
    assert objective(arrangement) == (3, 2, 4)
    assert arrangement.codes()["longest"] == ["4D", "4H", "4S"]


def test_king_topped_longest_is_preferred() -> None:
    arrangement = best_arrangement(ids_for_codes("2H 3H 4H JS QS KS"))
    assert arrangement.codes()["longest"] == ["JS", "QS", "KS"]
    arrangement = best_arrangement(ids_for_codes("2H 3H 4H KS AS 2S"))
    assert arrangement.codes()["longest"] == ["KS", "AS", "2S"]
    assert arrangement.top_rank == 13
    aces = best_arrangement(ids_for_codes("AC AD AH 2S 3S 4S"))
    assert aces.codes()["longest"] == ["2S", "3S", "4S"]


def test_eight_of_a_rank_and_a_full_circle() -> None:
    aces = ids_for_codes("AC AC AD AD AH AH AS AS")
    assert (
        best_arrangement(aces).codes()["longest"]
        == ["AC"] * 2 + ["AD"] * 2 + ["AH"] * 2 + ["AS"] * 2
    )
    full = ids_for_codes("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    twins = [twin(c) for c in full]
    arrangement = best_arrangement(full + twins[:5] + ids_for_codes("AH AD"))
    assert arrangement.longest_length == 13 and arrangement.top_rank == 13
    assert arrangement.codes()["longest"][0] == "AS"
    # the rest: 2S 3S 4S 5S (+3) and AS AH AD (+2); or AS 2S ... 5S (+4) and AH AD (+1)
    assert arrangement.rest_value == 5
    double = best_arrangement(full + twins)
    assert [len(p) for p in double.patterns] == [13, 13]
    assert double.rest_value == 12


def test_same_multiset_same_answer_lowest_ids_first() -> None:
    hand = ids_for_codes("7S 7S 8S 8S 9S 9S")
    arrangement = best_arrangement(hand)
    assert arrangement.codes()["longest"] == ["7S", "8S", "9S"]
    assert arrangement.longest == (45, 46, 47)
    assert arrangement.others == ((97, 98, 99),)
    assert best_arrangement(list(reversed(hand))) == arrangement


def test_bad_hands_are_refused() -> None:
    with pytest.raises(RuleViolation) as info:
        best_arrangement([1, 1])
    assert info.value.code == "duplicate_card"
    with pytest.raises(RuleViolation) as info:
        best_arrangement([1, 104])
    assert info.value.code == "bad_card"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(clustered_hands(), small_random_hands))
def test_matches_brute_force_on_small_hands(hand: list[int]) -> None:
    arrangement = best_arrangement(hand)
    assert objective(arrangement) == brute_force(hand)
    check_consistent(hand, arrangement)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clustered_hands(min_size=10, max_size=16))
def test_matches_reference_on_medium_hands(hand: list[int]) -> None:
    arrangement = best_arrangement(hand)
    assert objective(arrangement) == reference(hand)
    check_consistent(hand, arrangement)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(circle_hands())
def test_hands_without_a_free_rank_match_reference(hand: list[int]) -> None:
    arrangement = best_arrangement(hand)
    assert objective(arrangement) == reference(hand)
    check_consistent(hand, arrangement)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_suit_hands())
def test_complete_suits_match_reference(hand: list[int]) -> None:
    arrangement = best_arrangement(hand)
    assert objective(arrangement) == reference(hand)
    check_consistent(hand, arrangement)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(complete_suit_hands(), circle_hands()))
def test_rest_solver_around_the_circle(hand: list[int]) -> None:
    """The circle DP alone (no longest pattern removed): runs through the place where
    the circle is cut must be counted, and a complete suit used at every rank must not
    be counted as a closed loop or as a run longer than 13."""
    counts = patterns_module._counts(hand)
    value, use = patterns_module._rest_value(counts)
    faces = [0] * 52
    for card in hand:
        faces[card % 52] += 1
    assert value == reference_rest(faces, {})
    found, unused = patterns_module._build(counts, use)
    assert all(oracle_is_pattern(p) for p in found)
    assert sum(len(p) - 1 for p in found) == value
    assert sorted([f for p in found for f in p] + unused) == sorted(c % 52 for c in hand)


FULL_SPADES = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"


@pytest.mark.parametrize(
    ("extra", "value", "runs"),
    [
        ("", 12, [13]),  # one run of 13, not a loop of 13 links
        ("2S 3S 4S", 14, [13, 3]),  # one block of twins: a 13-run and the block
        ("QS KS AS 2S", 15, [13, 4]),  # the block wraps around K-A
        ("2S 3S 7S 8S 9S", 16, [8, 10]),  # two blocks: two runs that share no rank
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS", 23, [13, 12]),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", 24, [13, 13]),
    ],
)
def test_rest_solver_on_a_complete_suit(extra: str, value: int, runs: list[int]) -> None:
    hand = ids_for_codes(f"{FULL_SPADES} {extra}")
    counts = patterns_module._counts(hand)
    got, use = patterns_module._rest_value(counts)
    assert (
        got
        == value
        == reference_rest([(hand.count(f) + hand.count(f + 52)) for f in range(52)], {})
    )
    found, unused = patterns_module._build(counts, use)
    assert sorted(len(p) for p in found) == sorted(runs) and unused == []
    assert all(oracle_is_pattern(p) for p in found)
    assert sorted(f for p in found for f in p) == sorted(c % 52 for c in hand)


@settings(max_examples=200, deadline=None)
@given(st.one_of(random_hands, clustered_hands(max_size=20)), st.data())
def test_invariant_under_order_and_identical_cards(hand: list[int], data: st.DataObject) -> None:
    arrangement = best_arrangement(hand)
    check_consistent(hand, arrangement)
    shuffled = data.draw(st.permutations(hand))
    assert best_arrangement(shuffled) == arrangement
    # exchange some cards for their identical twin from the other deck
    swappable = [c for c in hand if twin(c) not in hand]
    chosen = (
        set(data.draw(st.lists(st.sampled_from(swappable), unique=True))) if swappable else set()
    )
    swapped = [twin(c) if c in chosen else c for c in shuffled]
    other = best_arrangement(swapped)
    assert as_faces(other) == as_faces(arrangement)

    def mapped(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(twin(c) if c in chosen else c for c in cards)

    assert other.longest == mapped(arrangement.longest)
    assert other.others == tuple(mapped(p) for p in arrangement.others)
    assert sorted(other.unused) == sorted(mapped(arrangement.unused))


# --------------------------------------------------------------- validate_arrangement


def test_validate_returns_the_declared_arrangement() -> None:
    hand = ids_for_codes("QS KS AS 2H 2D 2C 9C")
    declared = [ids_for_codes("2H 2D"), hand[:3]]
    arrangement = validate_arrangement(hand, declared)
    assert arrangement.codes() == {
        "longest": ["QS", "KS", "AS"],
        "others": [["2D", "2H"]],
        "unused": ["2C", "9C"],
    }
    assert validate_arrangement(hand, []) == Arrangement((), (), tuple(sorted(hand)))


def test_validate_prefers_the_higher_top_rank_among_equal_lengths() -> None:
    hand = ids_for_codes("AS 2S 3S JH QH KH")
    arrangement = validate_arrangement(hand, [hand[:3], hand[3:]])
    assert arrangement.codes()["longest"] == ["JH", "QH", "KH"]
    assert arrangement.codes()["others"] == [["AS", "2S", "3S"]]


def test_validate_card_not_in_hand() -> None:
    hand = ids_for_codes("QS KS")
    with pytest.raises(RuleViolation) as info:
        validate_arrangement(hand, [[hand[0], hand[1], twin(hand[1])]])
    assert info.value.code == "card_not_in_hand"
    assert "KS" in info.value.message


def test_validate_card_used_twice() -> None:
    hand = ids_for_codes("QS KS AS QH")
    with pytest.raises(RuleViolation) as info:
        validate_arrangement(hand, [hand[:3], [hand[0], hand[3]]])
    assert info.value.code == "card_used_twice"
    assert "QS" in info.value.message
    with pytest.raises(RuleViolation) as info:
        validate_arrangement(hand, [[hand[0], hand[0]]])
    assert info.value.code == "card_used_twice"


@pytest.mark.parametrize(
    ("codes", "reason", "words"),
    [
        ("7S", "fewer_than_two", "at least two cards"),
        ("7S 8H", "mixed_suits", "suits differ"),
        ("7S 8S 8S", "repeated_rank", "repeats a rank"),
        ("7S 9S", "not_consecutive", "not consecutive"),
        ("JS QS KS 2S", "not_consecutive", "not consecutive"),
    ],
)
def test_validate_not_a_pattern(codes: str, reason: str, words: str) -> None:
    pattern = ids_for_codes(codes)
    hand = [*pattern, 0] if 0 not in pattern else pattern
    with pytest.raises(RuleViolation) as info:
        validate_arrangement(hand, [pattern])
    err = info.value
    assert err.code == "not_a_pattern"
    assert err.details["reason"] == reason
    assert words in err.message
    assert err.message.startswith(" ".join(card_code(c) for c in pattern) + " is not a pattern")
    assert err.rule is not None and "A group is a set" in err.rule


def test_validate_refuses_bad_input() -> None:
    with pytest.raises(RuleViolation) as info:
        validate_arrangement([1, 2], [[1, 999]])
    assert info.value.code == "bad_card"
    with pytest.raises(RuleViolation) as info:
        validate_arrangement([1, 2], [[]])
    assert info.value.code == "not_a_pattern"
    with pytest.raises(RuleViolation) as info:
        validate_arrangement([1, 2], ["12"])  # type: ignore[list-item]
    assert info.value.code == "bad_patterns"


# -------------------------------------------------------------------- scores, ranking


def test_tie_break_key() -> None:
    assert tie_break_key(13, 2, 9) == (13, 9, 2)
    assert tie_break_key(0, 0, 0) == (0, 0, 0)


def test_table_scores_and_seats_without_patterns() -> None:
    hands = [
        ids_for_codes("AS 2S 3S"),  # longest 3, top 3
        ids_for_codes("5C 7D 9H"),  # nothing
        ids_for_codes("KH KD QC"),  # pair of kings
        ids_for_codes("10C JC 10D"),  # two patterns of 2: 10C JC (top J) or 10C 10D
    ]
    table = table_scores(hands)
    assert [row["seat"] for row in table] == [0, 1, 2, 3]
    assert table[1]["longest_length"] == 0 and table[1]["top_rank"] == 0
    assert table[1]["score"] == 0 * (2 + 3) + 0
    assert table[0]["neighbours"] == {"left": 1, "right": 3}
    assert table[0]["score"] == 3 * (0 + 2)
    assert table[2]["score"] == 2 * (2 + 0)
    assert table[3]["arrangement"]["longest"] == ["10C", "JC"]
    assert table[3]["score"] == 2 * (3 + 2)
    assert table[0]["tie_break"] == [3, 11, 0]
    assert ranking(table) == [[3], [0], [2], [1]]


def test_two_seats_count_the_one_neighbour_twice() -> None:
    table = table_scores([ids_for_codes("AS AD AH"), ids_for_codes("5C 5D")])
    assert table[0]["neighbours"] == {"left": 1, "right": 1}
    assert table[0]["score"] == 3 * (2 + 2)
    assert table[1]["score"] == 2 * (3 + 3)
    assert table[0]["tie_break"] == [1, 5, 5]


def test_table_scores_refuses_bad_tables() -> None:
    with pytest.raises(RuleViolation) as info:
        table_scores([[1, 2]])
    assert info.value.code == "bad_players"
    with pytest.raises(RuleViolation) as info:
        table_scores([[1, 2], [2, 3]])
    assert info.value.code == "duplicate_card"


def test_full_ties_share_a_place() -> None:
    hands = [ids_for_codes(t) for t in ("2C 2D", "2H 2S", "5C 9D")]
    hands[1] = [twin(c) for c in ids_for_codes("2C 2D")]
    table = table_scores(hands)
    assert table[0]["score"] == table[1]["score"] == 2 * 2
    assert table[0]["tie_break"] == table[1]["tie_break"] == [2, 2, 0]
    assert ranking(table) == [[0, 1], [2]]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 103), unique=True, min_size=15, max_size=60), st.integers(2, 6))
def test_table_scores_match_an_independent_recomputation(cards: list[int], seats: int) -> None:
    size = len(cards) // seats
    hands = [cards[i * size : (i + 1) * size] for i in range(seats)]
    table = table_scores(hands)
    longest = [longest_possible(h) for h in hands]
    # a seat between two seats with no pattern shows its best split for R alone
    arrangements = [
        best_rest_arrangement(h)
        if longest[(i + 1) % seats] == longest[(i - 1) % seats] == 0
        else best_arrangement(h)
        for i, h in enumerate(hands)
    ]
    for i, row in enumerate(table):
        left, right = arrangements[(i + 1) % seats], arrangements[(i - 1) % seats]
        mine = arrangements[i]
        assert row["score"] == mine.longest_length * (
            left.longest_length + right.longest_length
        ) + sum(len(p) - 1 for p in mine.others)
        assert row["tie_break"] == [
            mine.top_rank,
            max(left.top_rank, right.top_rank),
            min(left.top_rank, right.top_rank),
        ]
    places = ranking(table)
    assert sorted(s for place in places for s in place) == list(range(seats))
    keys = [[(table[s]["score"], *table[s]["tie_break"]) for s in place] for place in places]
    assert all(len(set(k)) == 1 for k in keys)
    assert [k[0] for k in keys] == sorted((k[0] for k in keys), reverse=True)


# ------------------------------------------------- the arrangement that maximises the score

NEIGHBOUR_SUMS = (0, 2, 3, 4, 5, 7, 9, 13, 26)  # N is 0 or at least 2 (a pattern has 2+ cards)


def check_maximises_own_score(hand: Sequence[int]) -> None:
    """Against every arrangement: the shown one scores the most for every N, and among
    the arrangements that score as much it is the longest-first one (longest length,
    then the others, then the top rank)."""
    every = every_objective(hand)
    for n in NEIGHBOUR_SUMS:
        shown = arrangement_for(hand, n)
        best_score = max(length * n + rest for length, rest, _ in every)
        assert shown.longest_length * n + shown.rest_value == best_score, (hand, n)
        ties = [o for o in every if o[0] * n + o[1] == best_score]
        assert objective(shown) == max(ties), (hand, n)
        check_valid(hand, shown)
    # with any neighbour holding a pattern, the longest-first arrangement is the answer
    assert all(arrangement_for(hand, n) == best_arrangement(hand) for n in NEIGHBOUR_SUMS[1:])


def check_valid(hand: Sequence[int], arrangement: Arrangement) -> None:
    used = list(arrangement.longest) + [c for p in arrangement.others for c in p]
    assert sorted(used + list(arrangement.unused)) == sorted(hand)
    assert all(oracle_is_pattern(p) for p in arrangement.patterns)
    assert all(len(p) <= arrangement.longest_length for p in arrangement.others)
    assert validate_arrangement(hand, arrangement.patterns) == arrangement


def test_the_issue_hand_shows_the_split_that_scores_most() -> None:
    """Issue 6: with no pattern next door, four 6s + 7C 8C scores 1 and 6C-7C-8C +
    6D-6H-6S scores 2; with a neighbour's pattern the four 6s score more (4N + 1)."""
    hand = ids_for_codes("6C 6D 6H 6S 7C 8C")
    alone = arrangement_for(hand, 0)
    assert alone.codes() == {
        "longest": ["6C", "7C", "8C"],
        "others": [["6D", "6H", "6S"]],
        "unused": [],
    }
    assert alone.rest_value == 2
    assert arrangement_for(hand, 2).codes()["longest"] == ["6C", "6D", "6H", "6S"]
    check_maximises_own_score(hand)


def test_a_long_run_is_split_when_nobody_next_door_has_a_pattern() -> None:
    hand = ids_for_codes("AS 2S 3S 4S 5S 6S 7S 8S 9S")
    alone = best_rest_arrangement(hand)
    # 9 cards: 3 + 3 + 3 leaves R = 2 + 2 (5 + 4 leaves only 3); top rank 9 shown longest
    assert [len(p) for p in alone.patterns] == [3, 3, 3] and alone.rest_value == 4
    assert alone.codes()["longest"] == ["7S", "8S", "9S"]
    assert best_rest_arrangement(ids_for_codes("AS 3H 5D")) == Arrangement(
        (), (), tuple(sorted(ids_for_codes("AS 3H 5D")))
    )
    assert best_rest_arrangement(ids_for_codes("KH KD")).codes()["longest"] == ["KD", "KH"]


def test_a_split_that_ties_at_n_2_keeps_the_longest_first() -> None:
    # At N = 2, QH-KH-AH-2H + (QD QS) scores 4 * 2 + 1 and the three queens + three
    # pairs score 3 * 2 + 3: a shorter split can tie, never win, and the tie goes to
    # the longest pattern.
    hand = ids_for_codes("KC AD QD AH 2H 2S QS QH KH")
    every = every_objective(hand)
    best = best_arrangement(hand)
    score = best.longest_length * 2 + best.rest_value
    assert any(o[0] < best.longest_length and o[0] * 2 + o[1] == score for o in every)
    assert arrangement_for(hand, 2) == best
    check_maximises_own_score(hand)


def every_small_hand() -> list[tuple[int, ...]]:
    """Every hand of up to 5 cards from Q, K, A, 2 of spades and hearts, both decks:
    groups, duplicates, sequences through K-A, and all their overlaps."""
    pool = [deck * 52 + suit * 13 + rank for deck in (0, 1) for suit in (2, 3)
            for rank in (11, 12, 0, 1)]  # fmt: skip
    return [hand for size in range(6) for hand in combinations(pool, size)]


def test_every_small_hand_shows_the_arrangement_that_scores_most() -> None:
    hands = every_small_hand()
    assert len(hands) == 6885
    for hand in hands:
        check_maximises_own_score(hand)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(clustered_hands(), small_random_hands))
def test_the_shown_arrangement_maximises_the_own_score(hand: list[int]) -> None:
    check_maximises_own_score(hand)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clustered_hands(min_size=9, max_size=14))
def test_best_rest_matches_a_capped_reference_on_medium_hands(hand: list[int]) -> None:
    """R with no pattern next door = max over the cap d of (best total with every
    pattern at most d) - (d - 1); ties go to the larger d (the longer longest)."""
    faces = [0] * 52
    for card in hand:
        faces[card % 52] += 1
    longest = longest_possible(hand)
    values = {d: reference_rest(faces, {}, d) - (d - 1) for d in range(2, longest + 1)}
    shown = best_rest_arrangement(hand)
    check_valid(hand, shown)
    if not values:
        assert shown.patterns == ()
        return
    best = max(values.values())
    assert shown.rest_value == best
    assert shown.longest_length == max(d for d, v in values.items() if v == best)


def test_one_neighbour_with_a_pattern_is_enough_for_longest_first() -> None:
    sixes = "6C 6D 6H 6S 7C 8C"
    for hands in (["KH KD", sixes, "AC 3D 5H"], ["AC 3D 5H", sixes, "KH KD"]):
        table = table_scores([ids_for_codes(h) for h in hands])
        assert table[1]["arrangement"]["longest"] == ["6C", "6D", "6H", "6S"], hands
        assert table[1]["score"] == 4 * 2 + 1 and table[1]["arrangement_rule"] == "longest_first"
    alone = table_scores([ids_for_codes(h) for h in ("AC 3D 5H", sixes, "2C 4D 9H")])
    assert alone[1]["score"] == 2 and alone[1]["arrangement_rule"] == "most_other_patterns"
