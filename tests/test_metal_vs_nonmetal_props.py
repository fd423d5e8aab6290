"""Metal vs. Non-Metal: whole games with bots at every player count, checked after
every move: the 40 cards conserved, nothing hidden leaks, scores recomputed, and
every game ends within the bound of the termination argument."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core import events_for
from rules.metal_vs_nonmetal import GAME
from rules.metal_vs_nonmetal.table import layout
from rules.metal_vs_nonmetal.wire import Facing, Prize
from rules.shapes import Enum, shape
from rules.zones import named_cards

from .test_conformance import layout_follows_play, moves_seen


def values(declared: Any) -> tuple[Any, ...]:
    """The values of a declared (named) enum."""
    node = shape(declared)
    assert isinstance(node, Enum)
    return node.values


PRIZES, COLLECTED = values(Prize), values(Facing)
ZONES = ("ion_deck", "hand", "in_play", "collection", "set_aside")


def every_card_once(state: dict[str, Any]) -> None:
    zones = state["zones"]
    held: list[int] = list(zones["ion_deck"]) + list(zones["set_aside"])
    for name in ("hand", "in_play", "collection"):
        for pile in zones[name]:
            held += pile
    size = sum(n for _, n in state["deck"])
    assert sorted(held) == list(range(1, size + 1)), Counter(held).most_common(3)
    assert set(zones) == set(ZONES)


def scores_recomputed(state: dict[str, Any]) -> None:
    """Each seat's count, from the collections and independently from the history."""
    players = int(state["players"])
    scores = GAME.scores(state)["seats"]
    from_history = [0] * players
    for record in state["history"]:
        from_history[record["collector"]] += record["card_count"]
    assert [s["collected"] for s in scores] == [len(c) for c in state["zones"]["collection"]]
    assert [s["collected"] for s in scores] == from_history
    if state["options"]["collected"] == "face_down" and state["phase"] != "over":
        assert all(s["by_ion"] is None for s in scores)  # the piles lie face down
    else:
        assert [sum(s["by_ion"].values()) for s in scores] == from_history


def nothing_leaks(
    state: dict[str, Any],
    before: dict[str, Any],
    events: list[Any],
    salt: int,
    moved: dict[int | None, set[int]],
) -> None:
    """Views and events name only cards their seat may see, and views (and, before the
    end, the scores) do not change when everything the seat cannot see is resampled
    (at the end too, when every seat's cards are shown)."""
    finished = state["phase"] == "over"
    if not finished:
        for k in range(2):
            redealt = GAME.redeal_hidden(state, None, salt * 5 + k)
            assert GAME.scores(redealt) == GAME.scores(state)
    for seat in [None, *range(int(state["players"]))]:
        may_see = layout(state).visible(state["zones"], seat)
        view = GAME.view(state, seat)
        # every card a view names is one its seat sees, but the exchange just collected
        assert named_cards({**view, "last_collected": None}) <= may_see
        for k in range(2):
            assert GAME.view(GAME.redeal_hidden(state, seat, salt * 7 + k), seat) == view
        known = may_see | layout(before).visible(before["zones"], seat)
        # cards seen in play and collected face down in the same move
        known |= moved[seat]
        if state["last_collected"] != before["last_collected"]:  # shown from now on
            assert named_cards(view["last_collected"]) <= known
        for event in events_for(events, seat):
            assert named_cards(event) <= known, (seat, event)


def play_game(
    players: int,
    seed: int,
    bots: list[str],
    prize: str,
    deep: bool = False,
    ions: dict[str, int] | None = None,
    collected: str = "face_down",
) -> dict[str, Any]:
    options = {"power_play_prize": prize, "ions": ions, "collected": collected}
    state = GAME.setup(players, options, seed)
    playing = layout(state)
    size = sum(n for _, n in state["deck"])
    moves = 0
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        move, chosen = GAME.bot_move(state, seat, bots[moves % len(bots)])
        before = chosen
        with moves_seen(players) as moved:
            state, events = GAME.apply(chosen, seat, move)
        moves += 1
        GAME.check(state)
        every_card_once(state)
        layout_follows_play(GAME, state, playing, state["phase"] == "over")
        scores_recomputed(state)
        assert all(len(h) <= 6 for h in state["zones"]["hand"])
        if deep:
            nothing_leaks(state, before, events, moves, moved)
        # termination: every exchange takes >= 2 cards out of the hands and the Ion
        # Deck for good (40 cards: <= 20 exchanges) and has at most 3 moves
        assert state["exchange"] <= size // 2 and moves <= 3 * state["exchange"]
    assert GAME.outcome(state).finished and state["phase"] == "over"
    shown_at_the_end(state)
    return state


def shown_at_the_end(state: dict[str, Any]) -> None:
    """Every seat and an observer see every collection, and every hand: empty, its
    cards set aside face up."""
    zones = state["zones"]
    for seat in [None, *range(int(state["players"]))]:
        view = GAME.view(state, seat)
        for s, row in enumerate(view["seats"]):
            assert row["hand"] == {"count": 0, "cards": []}
            assert [c["id"] for c in row["collection"]["cards"]] == zones["collection"][s]
        assert [c["id"] for c in view["set_aside"]["cards"]] == zones["set_aside"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("prize", PRIZES)
@pytest.mark.parametrize("collected", COLLECTED)
def test_deep_checked_games(players: int, prize: str, collected: str) -> None:
    for seed in range(3):
        play_game(players, seed, ["random", "greedy"], prize, deep=True, collected=collected)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**63 - 1),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=3),
    prize=st.sampled_from(PRIZES),
)
def test_bot_games_keep_every_invariant_and_end(
    players: int, seed: int, bots: list[str], prize: str
) -> None:
    state = play_game(players, seed, bots, prize)
    zones = state["zones"]
    outcome = GAME.outcome(state)
    counts = [len(c) for c in zones["collection"]]
    assert sum(counts) + len(zones["set_aside"]) == 40
    assert all(counts[s] == max(counts) for s in outcome.winners)
    # the game ended because fewer than two seats held cards after the last exchange
    last = state["history"][-1]
    assert last["exchange"] == state["exchange"]


TEACHERS_DECK = {"Fe3+": 4, "Fe2+": 3, "K+": 6, "C4-": 3, "S2-": 3, "Br-": 6}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**63 - 1),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=2),
    prize=st.sampled_from(PRIZES),
)
def test_a_teachers_deck_with_other_charges_plays_to_the_end(
    players: int, seed: int, bots: list[str], prize: str
) -> None:
    """Iron(II), iron(III) and carbide (charge number 4): the rules are not tied to the
    seed's six ions."""
    state = play_game(players, seed, bots, prize, deep=seed % 5 == 0, ions=TEACHERS_DECK)
    assert sum(GAME.outcome(state).places) > 0


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(2, 4))
def test_views_do_not_depend_on_what_a_seat_cannot_see(seed: int, players: int) -> None:
    state = GAME.setup(players, {}, seed)
    for step in range(12):
        if not GAME.to_act(state):
            break
        for seat in [None, *range(players)]:
            seen = GAME.view(state, seat)
            assert GAME.view(GAME.redeal_hidden(state, seat, seed + step), seat) == seen
        (actor,) = GAME.to_act(state)
        move, state = GAME.bot_move(state, actor, "random")
        state, _ = GAME.apply(state, actor, move)


def test_every_legal_move_applies_and_waiting_seats_have_none() -> None:
    for players in (2, 3, 4):
        state = GAME.setup(players, {}, players)
        while GAME.to_act(state):
            (actor,) = GAME.to_act(state)
            for seat in range(players):
                legal = GAME.legal_moves(state, seat)
                assert bool(legal) == (seat == actor)
                for move in legal:
                    GAME.verify(state, seat, GAME.parse_move(move))
                    GAME.apply(state, seat, move)
            move, state = GAME.bot_move(state, actor, "greedy")
            state, _ = GAME.apply(state, actor, move)


def test_greedy_collects_more_than_random() -> None:
    """Not a rule: a check that greedy's judgement of answers is not upside down."""
    greedy = random = 0
    for seed in range(40):
        state = GAME.setup(2, {}, seed)
        bots = {0: "greedy", 1: "random"} if seed % 2 else {0: "random", 1: "greedy"}
        while GAME.to_act(state):
            (seat,) = GAME.to_act(state)
            move, state = GAME.bot_move(state, seat, bots[seat])
            state, _ = GAME.apply(state, seat, move)
        counts = [len(c) for c in state["zones"]["collection"]]
        greedy += counts[next(s for s in bots if bots[s] == "greedy")]
        random += counts[next(s for s in bots if bots[s] == "random")]
    assert greedy > random


def test_greedy_answers_with_the_best_expected_gain() -> None:
    """Against Na+, 1 Cl- gives the initiating player both cards (-2); 1 N3- is a power
    play it wins unless the initiating player holds 2 more Na+. With all 8 Na+ but one
    out of sight (a teacher's deck with 6) it cannot hold 2: greedy plays the power play."""
    from rules.metal_vs_nonmetal.bots import answer_value, chance_of_holding

    opts: dict[str, Any] = {
        "start_player": 0,
        "deal": [["Na+", "Cl-", "Cl-", "O2-", "O2-", "Ca2+"], ["Cl-", "N3-", *["Na+"] * 4]],
        "ion_deck_top": ["Cl-"],
        "ions": {"Na+": 6, "Ca2+": 6, "Cl-": 6, "O2-": 3, "N3-": 2},
    }
    state = GAME.setup(2, opts, 1)
    state, _ = GAME.apply(state, 0, {"type": "play", "card": 1})
    cl, n = GAME.legal_moves(state, 1)
    assert chance_of_holding(state, 1, 0, 2) == 0.0  # one Na+ unseen: cannot hold 2
    assert answer_value(state, 1, cl) == -2 and answer_value(state, 1, n) == 2
    assert GAME.bot_move(state, 1, "greedy")[0] == n
    # with most Na+ unseen the risk is real, and the value weighs it
    deal = [opts["deal"][0], ["Cl-", "N3-", *["O2-"] * 4]]
    state = GAME.setup(2, {"start_player": 0, "deal": deal}, 1)
    state, _ = GAME.apply(state, 0, {"type": "play", "card": 1})
    legal = GAME.legal_moves(state, 1)
    n = legal[-1]
    p = chance_of_holding(state, 1, 0, 2)
    assert 0 < p < 1 and answer_value(state, 1, n) == (1 - p) * 2 - p * 4
    best = max(legal, key=lambda m: answer_value(state, 1, m))
    assert GAME.bot_move(state, 1, "greedy")[0] == best
