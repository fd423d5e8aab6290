"""Property tests: many full games with bots at 2-4 players and random options.

After every move: every card is in exactly one place, no view names a card its seat
cannot see (every hand is shown once the game is over), the scores equal an independent
recomputation written here from the seed's formulas (not the rules' code), and a
measure of the cards left strictly falls with every turn, which proves every game ends
(docs/rules/polymerization.md, "Every game ends").
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from molmass import Formula

from rules.polymerization import GAME
from rules.zones import named_cards

from .test_conformance import layout_follows_play

DECK = {c["id"]: c for c in GAME.deck()}
CHOICES = {o.name: list(o.choices) for o in GAME.info.options if o.choices}
BOOLS = [o.name for o in GAME.info.options if o.kind == "bool"]


@st.composite
def options(draw: st.DrawFn) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, choices in CHOICES.items():
        if draw(st.booleans()):
            out[name] = draw(st.sampled_from(choices))
    for name in BOOLS:
        if draw(st.booleans()):
            out[name] = draw(st.booleans())
    return out


# ------------------------------------------------------------ independent scoring ------
def mass(formula: str) -> float:
    return float(Formula(formula).mass)


def end_mass(group: str) -> float:
    return -mass("H") if group == "-H" else mass(group)


def expected_mi(state: dict[str, Any], chain: dict[str, Any]) -> float:
    """A chain's molar mass from its cards' formulas (and its end groups, by option)."""
    opts = state["options"]
    mi = 0.0
    for card in chain["cards"]:
        c = DECK[card]
        if c["kind"] == "monomer":
            mi += (c["value"] if opts["units_per_card"] == "value" else 1) * mass(c["formula"])
    if opts["end_groups"]:
        mi += sum(end_mass(g) for g in chain["ends"])
    return mi


def counts(state: dict[str, Any], chain: dict[str, Any]) -> bool:
    return chain["state"] == "terminated" or (
        bool(state["options"]["capped_count"]) and chain["state"] == "capped"
    )


def expected_scores(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's monomers and Mn, Mw, PDI, from the chains' cards and the seed's formulas."""
    opts = state["options"]
    out = []
    for seat in range(state["players"]):
        masses, monomers, counted = [], 0, []
        for chain in state["chains"]:
            if chain["owner"] != seat or not counts(state, chain):
                continue
            for card in chain["cards"]:
                c = DECK[card]
                if c["kind"] == "monomer":
                    monomers += c["value"] if opts["units_per_card"] == "value" else 1
            masses.append(expected_mi(state, chain))
            counted.append(chain["id"])
        if masses:
            mn = sum(masses) / len(masses)
            mw = sum(m * m for m in masses) / sum(masses)
            out.append(
                {"monomers": monomers, "counted": counted, "mn": mn, "mw": mw, "pdi": mw / mn}
            )
        else:
            out.append({"monomers": monomers, "counted": [], "mn": None, "mw": None, "pdi": None})
    return out


def view_shows_the_scores(state: dict[str, Any], want: list[dict[str, Any]]) -> None:
    """The view shows each chain's Mi and each seat's Mn, Mw and PDI as play goes, as
    recomputed here (the seats' rows are the same in every seat's view)."""
    shown = GAME.view(state, None)
    for chain, raw in zip(shown["chains"], state["chains"], strict=True):
        assert chain["mi"] == pytest.approx(expected_mi(state, raw), rel=1e-6, abs=1e-6)
    for seat, row in enumerate(shown["seats"]):
        assert row["counted"] == want[seat]["counted"]
        for key in ("mn", "mw", "pdi"):
            if want[seat][key] is None:
                assert row[key] is None
            else:
                assert row[key] == pytest.approx(want[seat][key], rel=1e-6), key


def scores_agree(state: dict[str, Any], *, view: bool = False) -> None:
    """The scores (and, with ``view``, the view) agree with the recomputation."""
    got = GAME.scores(state)["seats"]
    expected = expected_scores(state)
    if view:
        view_shows_the_scores(state, expected)
    for seat, want in enumerate(expected):
        assert got[seat]["monomers"] == want["monomers"]
        for key in ("mn", "mw", "pdi"):
            if want[key] is None:
                assert got[seat][key] is None
            else:
                assert got[seat][key] == pytest.approx(want[key], rel=1e-6), key


def expected_winners(state: dict[str, Any]) -> set[int]:
    opts = state["options"]
    table = expected_scores(state)
    seats = range(state["players"])
    if opts["scoring"] == "monomers":
        best = max(t["monomers"] for t in table)
        return {s for s in seats if table[s]["monomers"] == best}
    scored = [s for s in seats if table[s]["mn"] is not None]
    if not scored:
        return set(seats)

    def r(x: float) -> float:
        return round(x, 6)

    if opts["ranking"] == "pareto":
        return {
            s
            for s in scored
            if not any(
                r(table[o]["mn"]) >= r(table[s]["mn"])
                and r(table[o]["pdi"]) <= r(table[s]["pdi"])
                and (r(table[o]["mn"]), r(table[o]["pdi"]))
                != (r(table[s]["mn"]), r(table[s]["pdi"]))
                for o in scored
            )
        }
    if opts["ranking"] == "mn_then_pdi":
        top = max(r(table[s]["mn"]) for s in scored)
        tied = [s for s in scored if r(table[s]["mn"]) == top]
        low = min(r(table[s]["pdi"]) for s in tied)
        return {s for s in tied if r(table[s]["pdi"]) == low}
    low = min(r(table[s]["pdi"]) for s in scored)
    tied = [s for s in scored if r(table[s]["pdi"]) == low]
    top = max(r(table[s]["mn"]) for s in tied)
    return {s for s in tied if r(table[s]["mn"]) == top}


# ------------------------------------------------------------ invariants ---------------
def every_card_once(state: dict[str, Any]) -> None:
    zones = state["zones"]
    held = Counter(
        [*zones["stack"], *zones["discard"], *zones["table"]]
        + [c for h in zones["hand"] for c in h]
        + [c for p in zones["set_aside"] for c in p]
    )
    assert set(held.values()) == {1}
    assert set(held) == set(range(1, 55 * state["options"]["decks"] + 1))
    in_chains = Counter(c for chain in state["chains"] for c in chain["cards"])
    assert set(in_chains.values()) <= {1}
    assert set(in_chains) == {*zones["table"], *(c for p in zones["set_aside"] for c in p)}


def views_leak_nothing(state: dict[str, Any]) -> None:
    """No view names the stack or the covered discards; nor, before the game is over,
    another seat's hand. Once it is over every hand is shown to every seat."""
    zones = state["zones"]
    under = set(zones["discard"][:-1])
    over = state["phase"] == "over"
    for seat in [None, *range(state["players"])]:
        seen = GAME.view(state, seat)
        named = named_cards(seen)
        hidden = set(zones["stack"]) | under
        if not over:
            hidden |= {c for s, h in enumerate(zones["hand"]) if s != seat for c in h}
        assert not named & hidden, f"seat {seat} sees hidden cards {named & hidden}"
        for s, row in enumerate(seen["seats"]):
            if over or s == seat:
                assert [c["id"] for c in row["hand"]["cards"]] == zones["hand"][s]
            else:
                assert row["hand"]["cards"] is None


def measure(state: dict[str, Any]) -> int:
    """3 x stack + 2 x cards in hands + capped chains: falls by at least one every turn."""
    zones = state["zones"]
    capped = sum(1 for c in state["chains"] if c["state"] == "capped")
    return 3 * len(zones["stack"]) + 2 * sum(len(h) for h in zones["hand"]) + capped


def playout(players: int, seed: int, bots: list[str], opts: dict[str, Any], deep: bool) -> int:
    state = GAME.setup(players, opts, seed)
    playing = GAME.layout_of(state)
    start = measure(state)
    turns = 0
    moves = 0
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        before = (state["turns"], measure(state))
        move, state = GAME.bot_move(state, seat, bots[moves % len(bots)])
        state, _ = GAME.apply(state, seat, move)
        moves += 1
        GAME.check(state)
        layout_follows_play(GAME, state, playing, state["phase"] == "over")
        if deep:
            every_card_once(state)
            views_leak_nothing(state)
            scores_agree(state, view=True)
        if state["turns"] != before[0]:
            turns += 1
            assert measure(state) < before[1]
    assert turns <= start
    every_card_once(state)
    views_leak_nothing(state)  # every hand is shown now
    scores_agree(state)
    outcome = GAME.outcome(state)
    assert outcome.finished and set(outcome.winners) == expected_winners(state)
    return turns


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=3),
    opts=options(),
)
def test_random_games_keep_every_invariant(
    players: int, seed: int, bots: list[str], opts: dict[str, Any]
) -> None:
    playout(players, seed, bots, opts, deep=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), opts=options())
def test_greedy_games_end_and_rank_as_recomputed(
    players: int, seed: int, opts: dict[str, Any]
) -> None:
    playout(players, seed, ["greedy"], opts, deep=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_molar_mass_games_at_every_player_count(players: int) -> None:
    for seed in range(3):
        playout(players, seed, ["greedy", "random"], {"scoring": "molar_mass"}, deep=True)
