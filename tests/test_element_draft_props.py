"""Property tests: many full drafts with bots at every player count (2..10).

After every move: each dealt card is in exactly one place, hands shrink in step,
no view shows another seat's hand or pending pick, and the scores equal an
independent recomputation written here from the seed text (not the rules code). At
the end every card of the deal (drafted or set aside) is shown to every seat and an
observer.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.chemistry.elements import element
from rules.chemistry.words import WordIndex, spellings
from rules.element_draft import GAME


# ------------------------------------------------------------ independent scoring ------
def run_points(cards: list[int]) -> int:
    have = set(cards)
    longest = max((n for z in have if z - 1 not in have for n in [_run_from(z, have)]), default=0)
    return {2: 4, 3: 9}.get(longest, 16 if longest >= 4 else 0)


def _run_from(z: int, have: set[int]) -> int:
    n = 0
    while z + n in have:
        n += 1
    return n


def mass_points(seat: int, drafted: list[list[int]]) -> int:
    n = len(drafted)
    # exact: the printed decimals as fractions (no float, no rounding)
    totals = [sum((Fraction(repr(element(z).mass)) for z in d), Fraction(0)) for d in drafted]
    points = 0
    for other in ((seat + 1) % n, (seat - 1) % n):
        if totals[seat] > totals[other]:
            points += 2
        elif totals[seat] < totals[other]:
            points -= 2
    return points


def ion_pairs(cards: list[int]) -> int:
    """Maximum matching by exhaustive dynamic programming over subsets."""
    charges = [set(element(z).ion_charges) for z in cards]
    n = len(cards)

    def pairs_with(i: int, j: int) -> bool:
        return any(-c in charges[j] for c in charges[i] if c > 0) or any(
            -c in charges[i] for c in charges[j] if c > 0
        )

    @cache
    def best(mask: int) -> int:
        if mask == 0:
            return 0
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        result = best(rest)
        for j in range(i + 1, n):
            if rest >> j & 1 and pairs_with(i, j):
                result = max(result, 1 + best(rest & ~(1 << j)))
        return result

    return best((1 << n) - 1)


def family_points(cards: list[int]) -> int:
    counts: dict[str, int] = {}
    for z in cards:
        counts[element(z).family] = counts.get(element(z).family, 0) + 1
    k = min(max(len(counts), max(counts.values(), default=0)), 6)
    return [0, 0, 1, 3, 6, 10, 15][k]


def radio_points(cards: list[int], players: int) -> int:
    if players < 7:
        return 0
    hot = sum(1 for z in cards if z == 43 or z == 61 or z >= 84)
    return 7 if hot >= 2 else -3 if hot == 1 else 0


@cache
def word_masks(max_z: int) -> tuple[int, ...]:
    masks = []
    for word in WordIndex.default(max_z).spellable_words:
        for numbers in spellings(word, max_z):
            masks.append(sum(1 << z for z in numbers))
    return tuple(masks)


def symbol_points(history: list[list[list[int]]], max_z: int) -> list[int]:
    """Replay the turns: the first turn each seat can spell any word fixes its place."""
    players = len(history[-1])
    placed: dict[int, int] = {}
    points = [0] * players
    for drafted in history:
        new = []
        for seat in range(players):
            if seat in placed:
                continue
            have = sum(1 << z for z in drafted[seat])
            if any(m & ~have == 0 for m in word_masks(max_z)):
                new.append(seat)
        place = len(placed) + 1
        for seat in new:
            placed[seat] = place
            points[seat] = {1: 8, 2: 5, 3: 2}.get(place, 0)
    return points


def expected_totals(history: list[list[list[int]]], max_z: int) -> list[int]:
    drafted = history[-1] if history else []
    players = len(drafted)
    symbols = symbol_points(history, max_z) if history else [0] * players
    return [
        run_points(d)
        + mass_points(s, drafted)
        + symbols[s]
        + 5 * ion_pairs(d)
        + family_points(d)
        + radio_points(d, players)
        for s, d in enumerate(drafted)
    ]


# ------------------------------------------------------------ invariants ---------------
def zs_in(node: Any) -> set[int]:
    found: set[int] = set()
    if isinstance(node, dict):
        if "z" in node:
            found.add(node["z"])
        for value in node.values():
            found |= zs_in(value)
    elif isinstance(node, list):
        for value in node:
            found |= zs_in(value)
    return found


def check_invariants(state: dict[str, Any], dealt: set[int]) -> None:
    hands, drafted = state["hands"], state["drafted"]
    everything = [z for h in hands for z in h] + [z for d in drafted for z in d]
    assert sorted(everything) == sorted(dealt), "a card was lost or duplicated"
    assert len({len(h) for h in hands}) == 1 and len({len(d) for d in drafted}) == 1
    assert len(hands[0]) + len(drafted[0]) == state["hand_size"]
    public = {z for d in drafted for z in d}
    finished = GAME.outcome(state).finished
    if finished:  # the set-aside cards are shown once the draft ends
        public |= set(state["set_aside"])
    for seat in range(state["players"]):
        seen = GAME.view(state, seat)
        allowed = public | set(hands[seat])
        assert zs_in(seen) <= allowed, "a view shows a card it should not"
        others = [p for s, p in enumerate(state["pending"]) if s != seat and p is not None]
        assert not (zs_in(seen) & set(others) - public - set(hands[seat]))
        assert "rng" not in orjson.dumps(seen).decode()
    assert zs_in(GAME.view(state, None)) <= public
    if finished:  # the whole deal is on the table, for every seat and an observer
        assert not any(hands) and not any(p is not None for p in state["pending"])
        for seat in [None, *range(state["players"])]:
            assert zs_in(GAME.view(state, seat)) == public


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 10),
    seed=st.integers(0, 2**32),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=10),
)
def test_full_drafts_keep_every_invariant(players: int, seed: int, bots: list[str]) -> None:
    draft(players, seed, bots)


@pytest.mark.parametrize("players", range(2, 11))
def test_the_end_shows_the_whole_deal_at_every_player_count(players: int) -> None:
    draft(players, players, ["random"])  # check_invariants at the end: every card shown


def draft(players: int, seed: int, bots: list[str]) -> None:
    """A whole draft by bots, checked after every move and at the end."""
    state = GAME.setup(players, {}, seed)
    dealt = {z for h in state["hands"] for z in h}
    history: list[list[list[int]]] = []
    step = 0
    while GAME.to_act(state):
        check_invariants(state, dealt)
        seat = GAME.to_act(state)[step % len(GAME.to_act(state))]
        move, state = GAME.bot_move(state, seat, bots[seat % len(bots)])
        before = state["turn"]
        state, _ = GAME.apply(state, seat, move)
        if state["turn"] != before:
            history.append([list(d) for d in state["drafted"]])
            totals = [t["total"] for t in GAME.scores(state)["seats"]]
            assert totals == expected_totals(history, state["deck_size"])
            assert [s["score"] for s in GAME.view(state, None)["seats"]] == totals
        step += 1
    check_invariants(state, dealt)
    drafted = [z for d in state["drafted"] for z in d]
    assert sorted(drafted) == sorted(dealt), "each dealt card drafted exactly once"
    outcome = GAME.outcome(state)
    totals = expected_totals(history, state["deck_size"])
    best = max(totals)
    tied = [s for s in range(players) if totals[s] == best]
    assert outcome.winners == (max(tied, key=lambda s: max(state["drafted"][s])),)
