"""Property tests: many full Polymer games with bots, 5 to 15 seats, on a logical clock.

After every move: every card is in exactly one place, each seat holds its start count
plus what it borrowed minus what it lent, nobody sees a hand it should not, every
event's sentence names only cards its receiver may know, and a refused move changes
nothing. At the end: loans are settled, counts are back to the
start, every hand is shown to every seat and an observer, and each seat's score is
recomputed here from its reported arrangement.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core import RuleViolation, events_for
from rules.polymer import GAME
from rules.polymer.cards import card_code, ids_for_codes
from rules.polymer.patterns import best_arrangement, table_scores, validate_arrangement
from rules.polymer.wire import SeatScore

from .test_polymer_rules import faces_named, faces_shown


def longest_possible(hand: list[int]) -> int:
    """Independent L_max: biggest same-rank count or longest circular same-suit run."""
    faces = {c % 52 for c in hand}
    best = max(Counter(c % 13 for c in hand).values(), default=0)
    for suit in range(4):
        ranks = {f % 13 for f in faces if f // 13 == suit}
        if len(ranks) == 13:
            return max(best, 13)
        for start in ranks:
            if (start - 1) % 13 in ranks:
                continue
            n = 0
            while (start + n) % 13 in ranks:
                n += 1
            best = max(best, n)
    return best if best >= 2 else 0


def big_and_alone(hands: list[list[int]]) -> bool:
    """A seat holding more than 13 cards (only possible with loans open) between two
    seats without a pattern: the exact search for its split is exponential, and no
    final table has one (``patterns.shown_arrangements``), so the mid-game check
    skips such tables."""
    n = len(hands)
    return any(
        len(h) > 13
        and longest_possible(hands[(s + 1) % n]) == longest_possible(hands[(s - 1) % n]) == 0
        for s, h in enumerate(hands)
    )


def check_counts(state: dict[str, Any]) -> None:
    GAME.check(state)
    owned = Counter(c for h in state["hands"] for c in h)
    assert all(n == 1 for n in owned.values())


def check_views(state: dict[str, Any]) -> None:
    players = state["players"]
    for seat in [None, *range(players)]:
        seen = GAME.view(state, seat)
        if state["phase"] != "ended":
            assert all(s["hand"] is None for s in seen["seats"])
        else:  # time is up: every hand is shown, to every seat and an observer
            shown = [[c["id"] for c in s["hand"]] for s in seen["seats"]]
            assert shown == state["hands"]
        if seat is not None:
            you = seen["you"]
            if state["phase"] == "waiting":
                assert you["hand"] is None and you["best"] is None
            else:
                assert [c["id"] for c in you["hand"]] == state["hands"][seat]
        ended = state["phase"] == "ended"
        for offer in seen["offers"]:
            assert ("give" in offer) == (seat in (offer["from"], offer["to"]) or ended)
        for loan in seen["loans"]:
            assert ("cards" in loan) == (seat in (loan["lender"], loan["debtor"]) or ended)
        for trade in seen["trades"]:
            assert ("gave" in trade) == (seat in trade["seats"] or ended)


def check_explanations(
    before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    """Every event explains itself, and its sentence, as each seat (and an observer)
    receives it, names only faces that seat may know: shown by the event as it
    receives it, in its own hand, or in its view before or after the move (an offer's
    cards to its two seats; every hand once time is up)."""
    for seat in [None, *range(int(after["players"]))]:
        own = {
            card_code(c) for state in (before, after) if seat is not None
            for c in state["hands"][seat]
        }  # fmt: skip
        for event in events_for(events, seat):
            named = faces_named(event["explanation"])
            if named <= faces_shown(event) | own:
                continue
            known = faces_shown(GAME.view(before, seat)) | faces_shown(GAME.view(after, seat))
            assert named <= faces_shown(event) | own | known, (seat, event)


def recompute(state: dict[str, Any], table: list[SeatScore] | None = None) -> None:
    """Each seat's score from its reported arrangement, checked independently.

    A seat shows the arrangement that maximises its own score: its longest possible
    pattern first, unless neither neighbour can form any pattern (then only the other
    patterns score, and the split that maximises them is shown; its exactness is
    tested against every arrangement in ``test_polymer_patterns.py``)."""
    table = GAME.scores(state)["seats"] if table is None else table
    players = state["players"]
    hands = state["hands"]
    for row in table:
        seat = row["seat"]
        hand = hands[seat]
        ids = row["arrangement_ids"]
        patterns = [ids["longest"], *ids["others"]] if ids["longest"] else ids["others"]
        arrangement = validate_arrangement(hand, patterns)
        left, right = (seat + 1) % players, (seat - 1) % players
        alone = longest_possible(hands[left]) == longest_possible(hands[right]) == 0
        rest = sum(len(p) - 1 for p in ids["others"])
        if alone:
            assert row["score"] == rest
            assert rest >= best_arrangement(hand).rest_value
        else:
            assert len(ids["longest"]) == longest_possible(hand)
            # the neighbours have this seat's pattern next door, so show longest first
            neighbours = longest_possible(hands[left]) + longest_possible(hands[right])
            assert row["score"] == len(ids["longest"]) * neighbours + rest
        assert arrangement.longest_length == len(ids["longest"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(5, 15),
    seed=st.integers(0, 2**32),
    timer=st.integers(5, 300),
    bots=st.lists(st.sampled_from(["random", "trading"]), min_size=1, max_size=4),
    noise=st.lists(st.integers(0, 10_000), max_size=30),
)
def test_full_games_keep_every_invariant(
    players: int, seed: int, timer: int, bots: list[str], noise: list[int]
) -> None:
    play(players, seed, timer, bots, noise)


@pytest.mark.parametrize("players", range(5, 16))
def test_every_hand_is_shown_once_time_is_up_at_every_player_count(players: int) -> None:
    play(players, players, 20, ["random", "trading"], [])  # check_views at the end


def play(players: int, seed: int, timer: int, bots: list[str], noise: list[int]) -> None:
    """A whole game by bots, checked after every move and at the end."""
    state = GAME.setup(players, {"timer_seconds": timer}, seed)
    start = state["hand_size"]
    step = 0
    while GAME.to_act(state):
        check_counts(state)
        if step % 7 == 0:
            check_views(state)
        seat = GAME.to_act(state)[step % len(GAME.to_act(state))]
        assert GAME.legal_moves(state, seat), f"seat {seat} is to act with no legal move"
        if noise and step < len(noise):  # a random (probably illegal) move changes nothing
            junk = {"type": "repay", "loan": noise[step] % 5, "cards": [noise[step] % 104]}
            before = repr(state)
            try:
                state, _ = GAME.apply(state, seat, junk)
            except RuleViolation:
                assert repr(state) == before
        move, chosen = GAME.bot_move(state, seat, bots[seat % len(bots)])
        state, events = GAME.apply(chosen, seat, move)
        assert all("type" in e for e in events)
        check_explanations(chosen, state, events)
        if state["phase"] == "trading" and not big_and_alone(state["hands"]):
            # what the table would score if these hands were the final ones
            recompute(state, table_scores(state["hands"]))
        step += 1
        assert step < 20_000
    check_counts(state)
    check_views(state)
    assert state["loans"] == [] and state["offers"] == []
    assert [len(h) for h in state["hands"]] == [start] * players
    recompute(state)
    outcome = GAME.outcome(state)
    assert outcome.finished and set(outcome.ranking) == set(range(players))


def test_seed_example_scores_48() -> None:
    """Sequences of 4 and 3 and two pairs; neighbours' longest 5 and 6 -> 48."""
    deal = [
        ["4S", "5S", "6S", "7S", "9H", "10H", "JH", "2C", "2D", "KC", "KD"],
        ["8C", "8D", "8H", "8S", "8S", "AD", "3C", "5D", "7C", "9D", "JC"],  # a group of five
        ["AC", "2H", "4C", "6D", "8D", "10C", "QC", "KH", "3D", "5C", "7D"],
        ["9C", "JD", "QD", "QH", "10S", "4D", "6C", "3S", "AS", "2S", "9S"],
        ["AH", "2H", "3H", "4H", "5H", "6H", "6S", "10D", "KS", "QS", "JS"],  # a sequence of six
    ]
    deal[2][1] = "7H"  # keep each face at most twice
    state = GAME.setup(5, {"deal": deal, "timer_seconds": 1}, seed=0)
    for seat in range(5):
        state, _ = GAME.apply(state, seat, {"type": "ready", "at": 0})
    state, _ = GAME.apply(state, 0, {"type": "time_up", "at": 1000})
    row = GAME.scores(state)["seats"][0]
    assert row["neighbour_longest"] == {"left": 5, "right": 6}
    assert row["longest_length"] == 4 and row["rest_value"] == 2 + 1 + 1
    assert row["score"] == 48


def test_moves_after_the_deadline_are_refused_but_time_up_settles() -> None:
    state = GAME.setup(5, {"timer_seconds": 10}, seed=3)
    for seat in range(5):
        state, _ = GAME.apply(state, seat, {"type": "ready", "at": 0})
    card = state["hands"][0][0]
    state, _ = GAME.apply(state, 0, {"type": "lend", "to": 1, "cards": [card], "at": 5_000})
    with pytest.raises(RuleViolation) as err:
        GAME.apply(state, 1, {"type": "repay", "loan": 1, "cards": [card], "at": 10_000})
    assert err.value.code == "timer_expired" and err.value.status == 409
    with pytest.raises(RuleViolation) as early:
        GAME.apply(state, 1, {"type": "time_up", "at": 9_999})
    assert early.value.code == "timer_running"
    state, events = GAME.apply(state, 3, {"type": "time_up", "at": 10_000})
    assert [e["type"] for e in events] == ["time_up", "loan_settled", "game_over"]
    assert events[1]["cards"][0]["id"] == card  # the very card lent comes back
    assert [len(h) for h in state["hands"]] == [20] * 5


def test_settlement_returns_least_needed_cards_when_the_lent_ones_moved_on() -> None:
    deal = [
        ["AS", "2S", "3S", "4S", "5S", "6S"],
        ["7H", "7D", "7C", "KD", "QC", "JD"],
        ["2H", "3H", "9C", "9D", "10S", "10H"],
        ["5C", "6C", "8C", "8D", "8H", "8S"],
        ["AH", "AD", "KH", "KC", "QH", "QD"],
    ]
    state = GAME.setup(5, {"deal": deal, "timer_seconds": 60}, seed=0)
    for seat in range(5):
        state, _ = GAME.apply(state, seat, {"type": "ready", "at": 0})
    ace = ids_for_codes("AS")[0]
    state, _ = GAME.apply(state, 0, {"type": "lend", "to": 1, "cards": [ace], "at": 1})
    state, _ = GAME.apply(state, 1, {"type": "lend", "to": 2, "cards": [ace], "at": 2})
    state, events = GAME.apply(state, 0, {"type": "time_up", "at": 60_000})
    settled = [e for e in events if e["type"] == "loan_settled"]
    # the end of the chain first, so the ace travels home: 2 -> 1, then 1 -> 0
    assert [(e["lender"], e["debtor"]) for e in settled] == [(1, 2), (0, 1)]
    assert all(e["cards"][0]["id"] == ace for e in settled)
    assert state["hands"][0] == sorted(ids_for_codes(deal[0]))
    assert state["hands"][1] == sorted(ids_for_codes(deal[1]))
    assert [len(h) for h in state["hands"]] == [6] * 5
    GAME.check(state)


def test_a_seat_with_nothing_to_do_waits() -> None:
    state = GAME.setup(5, {"timer_seconds": 60}, seed=5)
    for seat in range(5):
        state, _ = GAME.apply(state, seat, {"type": "ready", "at": 0})
    everything = list(state["hands"][0])
    state, _ = GAME.apply(state, 0, {"type": "lend", "to": 1, "cards": everything, "at": 1})
    assert 0 in GAME.to_act(state)  # it may still call its loan in
    state, _ = GAME.apply(state, 0, {"type": "call_loan", "loan": 1, "at": 2})
    assert 0 not in GAME.to_act(state)
    with pytest.raises(RuleViolation) as err:
        GAME.bot_move(state, 0, "random")
    assert err.value.code == "no_move"
    state, _ = GAME.apply(state, 1, {"type": "repay", "loan": 1, "cards": everything, "at": 3})
    assert 0 in GAME.to_act(state)


def test_a_called_debtor_with_no_card_clears_the_call_with_none() -> None:
    state = GAME.setup(5, {"timer_seconds": 60}, seed=6)
    for seat in range(5):
        state, _ = GAME.apply(state, seat, {"type": "ready", "at": 0})
    one = state["hands"][0][0]
    state, _ = GAME.apply(state, 0, {"type": "lend", "to": 1, "cards": [one], "at": 1})
    all_of_1 = list(state["hands"][1])
    state, _ = GAME.apply(state, 1, {"type": "lend", "to": 2, "cards": all_of_1, "at": 2})
    state, _ = GAME.apply(state, 0, {"type": "call_loan", "loan": 1, "at": 3})
    with pytest.raises(RuleViolation) as err:
        GAME.apply(state, 1, {"type": "call_loan", "loan": 2, "at": 4})
    assert err.value.code == "loan_called"
    state, events = GAME.apply(state, 1, {"type": "repay", "loan": 1, "cards": [], "at": 5})
    assert events[0]["remaining"] == 1  # still owed, no longer called
    state, _ = GAME.apply(state, 1, {"type": "call_loan", "loan": 2, "at": 6})
    GAME.check(state)


def test_set_aside_cards_are_shown_only_once_time_is_up() -> None:
    state = GAME.setup(5, {"timer_seconds": 10}, seed=11)  # 5 x 20 dealt, 4 set aside
    hidden = state["set_aside"]
    assert len(hidden) == 4
    for seat in range(5):
        assert all(GAME.view(state, s)["set_aside"] is None for s in (None, *range(5)))
        state, _ = GAME.apply(state, seat, {"type": "ready", "at": 0})
    assert all(GAME.view(state, s)["set_aside"] is None for s in (None, *range(5)))
    state, _ = GAME.apply(state, 2, {"type": "time_up", "at": 10_000})
    for seat in (None, *range(5)):
        seen = GAME.view(state, seat)
        assert [c["id"] for c in seen["set_aside"]] == hidden
        held = [c["id"] for s in seen["seats"] for c in s["hand"]]
        assert sorted(held + hidden) == list(range(104))  # the whole deal checks out


def test_a_seat_between_two_seats_without_patterns_shows_its_best_split() -> None:
    """Issue 6: seat 1's neighbours (seats 0 and 2) hold no pattern, so only its other
    patterns score. 6C-7C-8C + 6D-6H-6S scores 2; the four 6s + 7C-8C only 1."""
    deal = [
        ["AC", "3D", "5H", "7S", "9C", "JD"],
        ["6C", "6D", "6H", "6S", "7C", "8C"],
        ["2C", "4D", "6H", "8S", "10C", "QD"],
        ["3C", "5D", "7H", "9S", "JC", "KD"],
        ["4C", "6D", "8H", "10S", "QC", "AD"],
    ]
    state = GAME.setup(5, {"deal": deal, "timer_seconds": 1}, seed=0)
    for seat in range(5):
        state, _ = GAME.apply(state, seat, {"type": "ready", "at": 0})
    state, _ = GAME.apply(state, 0, {"type": "time_up", "at": 1000})
    table = GAME.scores(state)["seats"]
    row = table[1]
    assert row["score"] == 2
    assert row["arrangement"] == {
        "longest": ["6C", "7C", "8C"],
        "others": [["6D", "6H", "6S"]],
        "unused": [],
    }
    assert row["arrangement_rule"] == "most_other_patterns"
    assert row["neighbour_longest"] == {"left": 0, "right": 0}
    assert row["tie_break"] == [8, 0, 0]  # the shown longest pattern tops at 8
    assert [r["score"] for r in table] == [0, 2, 0, 0, 0]
    assert all(r["arrangement_rule"] == "longest_first" for r in table if r["seat"] != 1)
    assert GAME.outcome(state).winners == (1,)
    assert GAME.view(state, 1)["you"]["best"]["longest"] == ["6C", "7C", "8C"]
    recompute(state)


def busy_table(seed: int = 4) -> dict[str, Any]:
    """A 5-seat game 60 s long with some offers, trades and loans open, its clock
    still early."""
    state = GAME.setup(5, {"timer_seconds": 60}, seed)
    for seat in range(5):
        state, _ = GAME.apply(state, seat, {"type": "ready", "at": 0})
    for step in range(60):
        seat = GAME.to_act(state)[step % len(GAME.to_act(state))]
        move, state = GAME.bot_move(state, seat, ("trading", "random")[step % 2])
        state, _ = GAME.apply(state, seat, {**move, "at": min(move["at"], 30_000)})
    assert state["now_ms"] <= 30_000 and (state["offers"] or state["loans"])
    return state


@pytest.mark.parametrize("bot", ["random", "trading"])
@pytest.mark.parametrize("left_ms", [30_000, 2_001, 2_000, 1_999, 1_000, 201, 200, 199, 17, 2])
def test_a_bot_acts_within_the_time_left(bot: str, left_ms: int) -> None:
    """Issue 6: a bot whose think time would end after the deadline answered time_up,
    which the service (playing every move at its own clock) refused with 'Time is not
    up yet'. Now a bot acts before the deadline with a move legal at the state's
    time, however little time is left."""
    busy = busy_table()
    deadline = busy["deadline_ms"]
    now = deadline - left_ms
    state = {**busy, "now_ms": now}  # what the service does: its clock is the state's
    for seat in GAME.to_act(state):
        move, chosen = GAME.bot_move(state, seat, bot)
        assert move["type"] != "time_up"
        assert now <= move["at"] < deadline
        as_served = {k: v for k, v in move.items() if k != "at"}
        GAME.apply(chosen, seat, {**as_served, "at": now})  # legal at the service's clock
        after, _ = GAME.apply(chosen, seat, move)  # and at the bot's own time
        assert after["phase"] == "trading"


def test_in_the_last_millisecond_a_bot_waits_for_the_end() -> None:
    busy = busy_table()
    deadline = busy["deadline_ms"]
    state = {**busy, "now_ms": deadline - 1}
    move, chosen = GAME.bot_move(state, 0, "trading")
    assert move == {"type": "time_up", "at": deadline}
    with pytest.raises(RuleViolation) as early:  # a millisecond too early
        GAME.apply(chosen, 0, {"type": "time_up", "at": deadline - 1})
    assert early.value.code == "timer_running" and "1 ms left" in early.value.message
    ended, events = GAME.apply(chosen, 0, move)
    assert ended["phase"] == "ended" and events[-1]["type"] == "game_over"
    with pytest.raises(RuleViolation) as over:
        GAME.bot_move(ended, 0, "random")
    assert over.value.code == "timer_expired"


def test_bots_alone_run_the_clock_to_the_deadline_and_stop() -> None:
    """Each bot move moves the clock on by at least 1 ms, and the one asked in the last
    millisecond ends the game: a table of bots always finishes, near the deadline."""
    state = GAME.setup(6, {"timer_seconds": 5}, seed=9)
    moves = 0
    while GAME.to_act(state):
        seat = GAME.to_act(state)[moves % len(GAME.to_act(state))]
        before = state["now_ms"]
        move, state = GAME.bot_move(state, seat, ("random", "trading")[moves % 2])
        state, _ = GAME.apply(state, seat, move)
        assert state["phase"] != "trading" or state["now_ms"] > before or move["type"] == "ready"
        moves += 1
    assert state["phase"] == "ended" and state["now_ms"] == state["deadline_ms"]
