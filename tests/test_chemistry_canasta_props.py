"""Property tests: whole matches with bots at every player count, deck choice and rule
option.

After every move: the invariants hold (cards conserved through captures, runs and
claims; each kind of card in its zones; every run a true series). A claim leaves the
board and the hand the same size and swaps exactly one wild card for the element it
stood for. On a sample of moves: no view depends on what its seat cannot see, and no
event names a card its receiver cannot see. Every round ends within the bound of the
termination argument (docs/rules/chemistry-canasta.md), every match ends, and every
round's scores equal an independent recomputation from the cards.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.chemistry_canasta import GAME
from rules.chemistry_canasta.game import cards_of

from .draw_discard_helpers import (
    BOT_LISTS,
    SEEDS,
    check_match_end,
    check_round_scores,
    checked_moves,
    with_decks,
)

CUSTOM = [{"formula": f} for f in ["H2O", "CO2", "CH4", "NH3", "NaCl", "MgO", "Fe2O3", "KBr"]]


def recompute(state: dict[str, Any]) -> list[int]:
    """Round points from the cards alone: 25 per compound captured, 10 per card in a run
    placed by the seat, -1 per element and -5 per wild card in hand."""
    cards = cards_of(state)
    zones = state["zones"]
    placed = [0] * int(state["players"])
    for board in state["runs"]:
        for run in board:
            for position in run:
                placed[position["by"]] += 1
    return [
        25 * len(zones["captured"][s])
        + 10 * placed[s]
        - sum(5 if cards.face(c)["kind"] == "wild" else 1 for c in zones["hand"][s])
        for s in range(int(state["players"]))
    ]


def check_claim(before: dict[str, Any], after: dict[str, Any], seat: int, move: Any) -> None:
    owner = move["owner"]
    zb, za = before["zones"], after["zones"]
    assert len(za["hand"][seat]) == len(zb["hand"][seat])
    assert len(za["runs"][owner]) == len(zb["runs"][owner])
    gained = set(za["hand"][seat]) - set(zb["hand"][seat])
    assert len(gained) == 1 and cards_of(after).is_wild(gained.pop())
    assert set(zb["hand"][seat]) - set(za["hand"][seat]) == {move["card"]}
    run_before = before["runs"][owner][move["run"]]
    run_after = after["runs"][owner][move["run"]]
    assert [p["number"] for p in run_before] == [p["number"] for p in run_after]
    assert sum(p["wild"] for p in run_before) == sum(p["wild"] for p in run_after) + 1


def play_match(
    players: int, options: dict[str, Any], seed: int, bots: list[str], sample: int
) -> dict[str, Any]:
    state = GAME.setup(players, options, seed)
    cards = cards_of(state)
    playing = len(cards.playing_ids())
    # every turn takes a card from the draw deck, which is refilled at most `reshuffles`
    # times; within a turn every claim, run or extension raises 2 x (element cards on the
    # boards) + (wild cards on the boards), which is at most 2 x playing
    turn_bound = (state["options"]["reshuffles"] + 1) * playing
    move_bound = 3 + 2 * playing
    turns = moves = turn_moves = 0
    totals = [0] * players
    stats = {"rounds": 0, "claims": 0, "runs": 0, "went_out": 0, "moves": 0}
    for seat, move, chosen, after, events in checked_moves(GAME, state, bots, sample):
        moves += 1
        turn_moves += 1
        assert turn_moves <= move_bound, "a turn outlasts the termination bound"
        if move["type"] == "claim":
            check_claim(chosen, after, seat, move)
            stats["claims"] += 1
        stats["runs"] += move["type"] in ("run", "extend")
        if any(e["type"] in ("turn_started", "round_ended") for e in events):
            turns += 1
            turn_moves = 0
            assert turns <= turn_bound, "a round outlasts the termination bound"
        ended = [e for e in events if e["type"] == "round_ended"]
        if ended:
            stats["rounds"] += 1
            stats["went_out"] += ended[0]["went_out"] is not None
            totals = check_round_scores(GAME, after, events, recompute(after), totals)
            if ended[0]["reason"] == "went_out":
                assert not after["zones"]["hand"][ended[0]["went_out"]]
            turns = 0
    check_match_end(GAME, after, options, stats["rounds"])
    stats["moves"] = moves
    return stats


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    players = draw(st.integers(1, 6))
    decks = draw(st.sampled_from([None, "covalent", "ionic", "both", "custom"]))
    options: dict[str, Any] = {
        "runs": draw(st.sampled_from(["own", "anyone", "three"])),
        "must_capture": draw(st.booleans()),
        "reshuffles": draw(st.sampled_from([0, 1, 2, 5])),
        "target": draw(st.sampled_from([None, 100, 250])),
    }
    return players, with_decks(options, decks, CUSTOM)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=SEEDS, bots=BOT_LISTS)
def test_matches_end_conserve_cards_leak_nothing_and_score_truly(
    table: tuple[int, dict[str, Any]], seed: int, bots: list[str]
) -> None:
    players, options = table
    play_match(players, options, seed, bots, sample=29)


def test_every_player_count_and_deck_choice_with_deep_checks() -> None:
    seen = {"claims": 0, "runs": 0, "went_out": 0}
    for players in range(1, 7):
        for decks in ("covalent", "ionic", "both"):
            options = {"decks": decks, "target": None, "runs": "anyone", "reshuffles": 1}
            stats = play_match(players, options, players, ["random", "greedy"], 4)
            for key in seen:
                seen[key] += stats[key]
        play_match(players, {"compounds": CUSTOM, "target": None}, players, ["greedy"], 7)
    assert all(seen.values()), seen  # claims, runs and going out all happened


def test_rounds_end_when_nobody_captures_or_goes_out() -> None:
    # random bots that need not capture: the draw deck running out ends the rounds
    for players in (1, 3, 6):
        for reshuffles in (0, 2):
            stats = play_match(
                players,
                {
                    "must_capture": False,
                    "reshuffles": reshuffles,
                    "max_rounds": 2,
                    "target": 10_000,
                },
                players,
                ["random"],
                61,
            )
            assert stats["rounds"] == 2
