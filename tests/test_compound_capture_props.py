"""Property tests: whole matches with bots at every player count and deck choice.

After every move: the invariants hold (cards conserved, each kind in its zones). On a
sample of moves: no view depends on what its seat cannot see, and no event names a card
its receiver cannot see. Every round ends within the bound of the termination argument
(docs/rules/compound-capture.md), every match ends, and every round's scores equal an
independent recomputation from the cards.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.compound_capture import GAME
from rules.compound_capture.game import cards_of

from .draw_discard_helpers import (
    BOT_LISTS,
    SEEDS,
    check_match_end,
    check_round_scores,
    checked_moves,
    with_decks,
)

CUSTOM = [
    {"formula": f}
    for f in ["H2O", "CO2", "CH4", "NH3", "O2", "HCl", "NaCl", "MgO", "CaCl2", "Fe2O3"]
]


def recompute(state: dict[str, Any]) -> list[int]:
    """Round points from the cards alone: 25 per compound, -1 per element, -5 per wild."""
    cards = cards_of(state)
    zones = state["zones"]
    return [
        25 * len(zones["captured"][s])
        - sum(5 if cards.face(c)["kind"] == "wild" else 1 for c in zones["hand"][s])
        for s in range(int(state["players"]))
    ]


def play_match(
    players: int, options: dict[str, Any], seed: int, bots: list[str], sample: int
) -> dict[str, Any]:
    state = GAME.setup(players, options, seed)
    compounds = len(cards_of(state).compound_ids())
    # each capture resets the quiet count and the players-th quiet turn ends the round
    bound = compounds + (compounds + 1) * players
    turns = moves = 0
    totals = [0] * players
    rounds = 0
    for _, move, _, after, events in checked_moves(GAME, state, bots, sample):
        moves += 1
        if move["type"] in ("capture", "discard"):
            turns += 1
            assert turns <= bound, "a round outlasts the termination bound"
        if any(e["type"] == "round_ended" for e in events):
            rounds += 1
            totals = check_round_scores(GAME, after, events, recompute(after), totals)
            turns = 0
    check_match_end(GAME, after, options, rounds)
    return {"moves": moves, "rounds": rounds}


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    players = draw(st.integers(1, 6))
    decks = draw(
        st.sampled_from(
            [None, "covalent", "ionic", "both", "custom"]
            if players <= 3
            else [None, "both", "custom"]
        )
    )
    options: dict[str, Any] = {
        "deck_out": draw(st.sampled_from(["reshuffle", "end_round"])),
        "must_capture": draw(st.booleans()),
        "target": draw(st.sampled_from([None, 100, 250])),
    }
    return players, with_decks(options, decks, CUSTOM)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=SEEDS, bots=BOT_LISTS)
def test_matches_end_conserve_cards_leak_nothing_and_score_truly(
    table: tuple[int, dict[str, Any]], seed: int, bots: list[str]
) -> None:
    players, options = table
    play_match(players, options, seed, bots, sample=23)


def test_every_player_count_and_deck_choice_with_deep_checks() -> None:
    for players in range(1, 7):
        for decks in ["covalent", "ionic", "both"] if players <= 3 else ["both"]:
            play_match(players, {"decks": decks, "target": None}, players, ["random", "greedy"], 3)
        play_match(players, {"compounds": CUSTOM, "target": None}, players, ["greedy"], 5)


def test_rounds_end_even_when_nobody_has_to_capture() -> None:
    # must_capture false and random play: the quiet laps, not the captures, end rounds
    for players in (1, 3, 6):
        for deck_out in ("reshuffle", "end_round"):
            stats = play_match(
                players,
                {"must_capture": False, "deck_out": deck_out, "max_rounds": 3, "target": 10_000},
                players,
                ["random"],
                50,
            )
            assert stats["rounds"] == 3
