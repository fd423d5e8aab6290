"""Chemistry Battle: every rule of the seed and every decision of docs/rules/chemistry-battle.md."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from rules.chemistry.decks import basic_deck
from rules.chemistry_battle import GAME, INFO
from rules.chemistry_battle.game import DEFAULT_ROUND_LIMIT
from rules.core import RuleViolation
from rules.zones import named_cards

State = dict[str, Any]


def new(players: int, seed: int = 1, **options: Any) -> State:
    return GAME.setup(players, options, seed)


def play(state: State, seat: int, move: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    state, events = GAME.apply(state, seat, move)
    GAME.check(state)
    return state, events


def card(z: int) -> dict[str, Any]:
    return {"type": "play", "card": z}


NEXT = {"type": "play_next"}
LONGEST = 2000  # rounds: far beyond any game here, so a broken end fails instead of hanging


def run(state: State, bot: str = "greedy") -> tuple[State, list[dict[str, Any]]]:
    """Play bots to the end; every event in order."""
    log: list[dict[str, Any]] = []
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        move, state = GAME.bot_move(state, seat, bot)
        state, events = play(state, seat, move)
        log += events
        assert state["round"] < LONGEST, "the game does not end"
    return state, log


def refused(code: str, state: State, seat: int, move: dict[str, Any]) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        GAME.apply(state, seat, move)
    assert err.value.code == code, err.value
    return err.value


# ------------------------------------------------------------------ the deal -----------
@pytest.mark.parametrize(
    ("players", "hand", "kitty"), [(2, 27, 0), (3, 18, 0), (4, 13, 2), (5, 10, 4), (6, 9, 0)]
)
def test_all_54_cards_are_dealt_by_the_seed_table(players: int, hand: int, kitty: int) -> None:
    state = new(players, seed=players)
    zones = state["zones"]
    assert [len(h) for h in zones["hand"]] == [hand] * players
    assert len(zones["kitty"]) == kitty
    assert zones["set_aside"] == [] and zones["table"] == []
    dealt = [z for h in zones["hand"] for z in h] + zones["kitty"]
    assert sorted(dealt) == list(range(1, 55))
    assert INFO.player_counts[players] == {"hand_size": hand, "kitty": kitty}


def test_three_players_get_18_each_not_the_seeds_impossible_27() -> None:
    assert 3 * 27 > 54
    assert [len(h) for h in new(3)["zones"]["hand"]] == [18, 18, 18]


def test_the_deck_is_the_basic_deck_of_54_elements() -> None:
    assert GAME.deck() == basic_deck()
    assert [c["symbol"] for c in GAME.deck()[:3]] == ["H", "He", "Li"]
    assert GAME.deck()[-1] == {"id": 54, "z": 54, "symbol": "Xe", "name": "Xenon"}


def test_one_player_is_served_with_bot_seats_not_a_one_seat_table() -> None:
    assert (INFO.min_players, INFO.max_players) == (2, 6)
    with pytest.raises(RuleViolation) as err:
        new(1)
    assert err.value.code == "bad_players" and '"bots"' in err.value.message
    assert "bot seats" in INFO.summary
    for players in (0, 7, True, "2"):
        with pytest.raises(RuleViolation) as err:
            GAME.setup(players, {}, 1)  # type: ignore[arg-type]
        assert err.value.code == "bad_players"


def test_the_deal_is_reproducible_from_the_seed_and_differs_between_seeds() -> None:
    assert new(4, seed=9) == new(4, seed=9)
    assert new(4, seed=9)["zones"] != new(4, seed=10)["zones"]


def test_without_a_dealer_option_the_deal_is_cut_with_the_seed() -> None:
    dealers = {new(5, seed=s)["dealer"] for s in range(40)}
    assert dealers == set(range(5))
    assert new(5, seed=3, dealer=2)["dealer"] == 2


# ------------------------------------------------------------------ turn order --------
def test_the_first_player_is_right_of_the_dealer_and_play_goes_right() -> None:
    state = new(4, dealer=2)
    assert GAME.view(state, None)["order"] == [1, 0, 3, 2]
    seen = []
    for _ in range(4):
        (seat,) = GAME.to_act(state)
        seen.append(seat)
        move, state = GAME.bot_move(state, seat, "random")
        state, _ = play(state, seat, move)
    assert seen == [1, 0, 3, 2]  # right is seat - 1
    assert GAME.view(state, None)["round"] == 2


def test_the_next_dealer_is_left_of_the_dealer() -> None:
    assert GAME.view(new(4, dealer=3), None)["next_dealer"] == 0
    assert GAME.view(new(4, dealer=0), None)["next_dealer"] == 1


def test_the_highest_atomic_number_wins_and_collects_in_the_order_played() -> None:
    state = new(3, deal=[[8, 30], [26, 31], [25, 32]], dealer=1)  # seat 0 leads
    state, _ = play(state, 0, card(8))
    state, _ = play(state, 2, card(25))
    state, events = play(state, 1, card(26))
    won = next(e for e in events if e["type"] == "round_won")
    assert won["seat"] == 1 and won["card"]["symbol"] == "Fe"
    assert won["explanation"] == "26 Fe beats 25 Mn and 8 O: highest atomic number"
    assert [(p["seat"], p["card"]["z"]) for p in won["plays"]] == [(0, 8), (2, 25), (1, 26)]
    assert state["zones"]["collected"] == [[], [8, 25, 26], []]
    assert GAME.to_act(state) == [1]  # the winner leads the next round


def test_the_seeds_example_sentence_two_players() -> None:
    state = new(2, deal=[[25, 1], [26, 2]], dealer=1)
    state, _ = play(state, 0, card(25))
    state, events = play(state, 1, card(26))
    assert events[1]["explanation"] == "26 Fe beats 25 Mn: higher atomic number"


@pytest.mark.parametrize(("next_leader", "leader"), [("winner", 1), ("rotate", 2)])
def test_who_leads_the_next_round(next_leader: str, leader: int) -> None:
    state = new(3, deal=[[8, 30], [26, 31], [25, 32]], dealer=1, next_leader=next_leader)
    for seat, z in ((0, 8), (2, 25), (1, 26)):
        state, events = play(state, seat, card(z))
    assert events[-1] == {
        "type": "round_started",
        "round": 2,
        "leader": leader,
        "order": [leader, (leader - 1) % 3, (leader - 2) % 3],
    }
    assert GAME.to_act(state) == [leader]


# ------------------------------------------------------------------ the kitty ---------
@pytest.mark.parametrize(("players", "kitty"), [(4, 2), (5, 4)])
def test_the_first_round_winner_captures_the_kitty_face_down(players: int, kitty: int) -> None:
    state = new(players, seed=7)
    cards = list(state["zones"]["kitty"])
    log = []
    for _ in range(players):
        seat = GAME.to_act(state)[0]
        move, state = GAME.bot_move(state, seat, "greedy")
        state, events = play(state, seat, move)
        log += events
    won = next(e for e in log if e["type"] == "round_won")
    captured = next(e for e in log if e["type"] == "kitty_captured")
    assert captured == {"type": "kitty_captured", "seat": won["seat"], "round": 1, "count": kitty}
    assert state["zones"]["kitty"] == []
    assert state["zones"]["collected_kitty"][won["seat"]] == cards
    view = GAME.view(state, won["seat"])
    assert view["kitty"] == {"count": 0, "captured_by": won["seat"]}
    assert view["seats"][won["seat"]]["kitty_count"] == kitty
    assert view["seats"][won["seat"]]["total"] == players + kitty + view["you"]["hand_count"]
    for seat in [None, *range(players)]:  # nobody, not even the captor, sees the kitty
        assert not named_cards(GAME.view(state, seat)) & set(cards)


def test_no_kitty_with_two_three_or_six_players() -> None:
    for players in (2, 3, 6):
        assert new(players)["zones"]["kitty"] == []


# ------------------------------------------------------------------ collected piles ---
# Seat 0 leads (dealer 1). Round 1: 30 beats 2, seat 0 takes the kitty [50, 51].
# Round 2: 40 beats 1. Round 3 (seat 1 leads): 31 beats 3. Hands are now empty.
PILE_DEAL: dict[str, Any] = {"deal": [[1, 30, 31], [2, 3, 40]], "kitty": [50, 51], "dealer": 1}


def pile_game(**options: Any) -> State:
    state = new(2, **PILE_DEAL, **options)
    for seat, z in ((0, 30), (1, 2), (0, 1), (1, 40), (1, 3), (0, 31)):
        state, _ = play(state, seat, card(z))
    return state


def test_collected_cards_are_kept_in_the_order_collected() -> None:
    state = pile_game()
    assert state["zones"]["hand"] == [[], []]
    assert state["zones"]["collected_kitty"] == [[50, 51], []]
    assert state["zones"]["collected"] == [[30, 2, 3, 31], [1, 40]]
    view = GAME.view(state, 1)
    assert view["seats"][0]["playing_from"] == "collected"


def test_collected_cards_lie_face_down_for_every_seat_the_owner_too() -> None:
    """ "The cards are placed face down in front of the player." "The player should not
    look at the cards": every seat sees how many, none which, until one is played."""
    state = pile_game()
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert view["collected"] == "face_down"
        assert [s["collected"] for s in view["seats"]] == [
            {"count": 4, "cards": None},
            {"count": 2, "cards": None},
        ]
        assert not named_cards({**view, "last_round": None}) & {30, 2, 3, 31, 1, 40}
        # resampling every card the viewer cannot see moves the collected cards...
        redealt = [GAME.redeal_hidden(state, viewer, k) for k in range(6)]
        assert any(r["zones"]["collected"] != state["zones"]["collected"] for r in redealt)
        # ...and changes nothing it is shown, nor the scores
        assert all(GAME.view(r, viewer) == view for r in redealt)
        assert all(GAME.scores(r) == GAME.scores(state) for r in redealt)
    state, events = play(state, 0, NEXT)  # the kitty card first, then the pile in order
    state, events = play(state, 1, NEXT)
    played = [e for e in events if e["type"] == "card_played"]
    assert [e["card"]["z"] for e in played] == [1]  # revealed as it is played, not before
    assert events[0]["type"] == "pile_picked_up" and named_cards(events[0]) == set()


def test_collected_cards_are_shown_when_the_game_ends() -> None:
    state = pile_game()
    while GAME.to_act(state):
        state, _ = play(state, GAME.to_act(state)[0], NEXT)
    for viewer in (None, 0, 1):
        piles = [s["collected"] for s in GAME.view(state, viewer)["seats"]]
        assert [[c["z"] for c in p["cards"]] for p in piles] == state["zones"]["collected"]


def test_collected_face_up_shows_every_collection_in_order_to_everyone() -> None:
    state = pile_game(collected="face_up")
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert view["collected"] == "face_up"
        assert [c["z"] for c in view["seats"][0]["collected"]["cards"]] == [30, 2, 3, 31]
        assert [c["z"] for c in view["seats"][1]["collected"]["cards"]] == [1, 40]
        assert GAME.view(GAME.redeal_hidden(state, viewer, 3), viewer) == view


def test_an_empty_hand_plays_its_collected_cards_in_order_kitty_first() -> None:
    state = pile_game()
    assert GAME.legal_moves(state, 0) == [NEXT]
    refused("play_in_order", state, 0, card(30))
    state, events = play(state, 0, NEXT)
    assert events[0] == {"type": "pile_picked_up", "seat": 0, "round": 4, "count": 6}
    assert events[1]["card"]["z"] == 50 and events[1]["source"] == "captured_kitty"
    state, events = play(state, 1, NEXT)
    assert events[1]["card"]["z"] == 1 and events[1]["source"] == "collected"
    # 50 won: the round's cards go to the end of seat 0's collected cards
    assert state["zones"]["collected"][0] == [30, 2, 3, 31, 50, 1]
    state, events = play(state, 0, NEXT)
    assert [e["type"] for e in events] == ["card_played"]  # picked up once
    assert events[0]["card"]["z"] == 51
    state, events = play(state, 1, NEXT)
    assert events[0]["card"]["z"] == 40
    assert [e["type"] for e in events][-2:] == ["seat_out", "game_over"]


def test_cards_won_while_playing_from_the_pile_are_played_after_it() -> None:
    state = new(2, deal=[[1, 20, 30], [9, 10, 41]], dealer=1)
    for seat, z in ((0, 1), (1, 41), (1, 9), (0, 20), (0, 30), (1, 10)):
        state, _ = play(state, seat, card(z))
    assert state["zones"]["collected"] == [[9, 20, 30, 10], [1, 41]]
    played: list[tuple[int, int]] = []
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state, events = play(state, seat, NEXT)
        played += [(e["seat"], e["card"]["z"]) for e in events if e["type"] == "card_played"]
    # round 4: seat 0's 9 beats seat 1's 1; seat 0 plays those two after the rest of its pile
    assert played[:2] == [(0, 9), (1, 1)]
    assert [z for s, z in played if s == 0][:6] == [9, 20, 30, 10, 9, 1]


def test_the_hand_is_chosen_from_until_empty() -> None:
    state = new(2, deal=[[1, 30, 31], [2, 3, 40]], dealer=1)
    assert GAME.legal_moves(state, 0) == [card(1), card(30), card(31)]
    refused("hand_not_empty", state, 0, NEXT)
    err = refused("not_in_hand", state, 0, card(2))
    assert "2 He is not in your hand" in err.message and "30 Zn" in err.message
    # no card of the deck: the move's declared shape refuses it, as over HTTP
    refused("bad_move", state, 0, card(99))


# ------------------------------------------------------------------ the end -----------
def test_the_game_ends_when_a_seat_runs_out_and_the_cards_are_counted() -> None:
    state = new(3, deal=[[10, 40], [20, 30], [15, 50]], dealer=1)
    state, log = run(state)
    out = [e for e in log if e["type"] == "seat_out"]
    over = log[-1]
    assert over["type"] == "game_over" and over["reason"] == "seat_out"
    assert [e["seat"] for e in out] == state["end"]["out"]
    assert over["counts"] == [s["total"] for s in GAME.scores(state)["seats"]]
    assert sum(over["counts"]) == 6
    assert GAME.scores(state)["final"] is True
    assert GAME.to_act(state) == [] and GAME.view(state, None)["turn"] is None
    refused("game_over", state, 0, NEXT)
    outcome = GAME.outcome(state)
    assert outcome.finished and outcome.places[0] == 1
    assert over["winners"] == list(outcome.winners)


def test_seats_that_run_out_together_share_the_last_place() -> None:
    state = new(3, deal=[[1], [2], [3]], dealer=1)
    state, log = run(state)
    assert state["end"] == {"reason": "seat_out", "round": 1, "out": [0, 1]}
    outcome = GAME.outcome(state)
    assert (outcome.winners, outcome.ranking, outcome.places) == ((2,), (2, 0, 1), (1, 2, 2))
    assert "seat 0 and seat 1 have run out of cards" in log[-1]["message"]


def test_equal_counts_share_first_place() -> None:
    # seat 0 wins round 1 (30), seat 2 round 2 (40); seat 1 has nothing left
    state = new(3, deal=[[30, 1], [2, 3], [4, 40]], dealer=1)
    for seat, z in ((0, 30), (2, 4), (1, 2), (0, 1), (2, 40), (1, 3)):
        state, events = play(state, seat, card(z))
    assert events[-1]["counts"] == [3, 0, 3]
    outcome = GAME.outcome(state)
    assert outcome.winners == (0, 2) and outcome.places == (1, 1, 3)
    assert outcome.tie_break == "shared"
    assert "seat 0 and seat 2 share the win with 3 cards" in events[-1]["message"]


def test_the_round_limit_ends_the_game_by_the_same_count() -> None:
    assert next(o for o in INFO.options if o.name == "round_limit").default == 1000
    assert DEFAULT_ROUND_LIMIT == 1000
    state, log = run(new(4, seed=3, round_limit=3))
    assert state["end"] == {"reason": "round_limit", "round": 3, "out": []}
    scores = GAME.scores(state)["seats"]
    assert [s["hand"] for s in scores] == [10, 10, 10, 10]
    assert sum(s["total"] for s in scores) == 54
    assert log[-1]["counts"] == [s["total"] for s in scores]
    assert "round limit (3 rounds)" in log[-1]["message"]


def test_a_seat_out_on_the_last_allowed_round_is_reported_as_out() -> None:
    state, _ = run(new(3, deal=[[1], [2], [3]], dealer=1, round_limit=1))
    assert state["end"]["reason"] == "seat_out"


def test_a_game_that_would_repeat_forever_ends_with_the_count() -> None:
    state = new(2, deal=[[1, 2, 5], [3, 6, 4]], hand_play="top", dealer=1, round_limit=None)
    positions: dict[str, int] = {}
    repeated = False
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state, events = play(state, seat, NEXT)
        if any(e["type"] == "round_won" for e in events):
            key = json.dumps([state["leader"], state["zones"]])
            repeated = repeated or key in positions
            positions.setdefault(key, state["round"])
        assert state["round"] < LONGEST, "the loop is never detected"
    assert state["end"]["reason"] == "cycle"
    assert repeated  # the position really came back: play would loop forever
    assert "repeat the same rounds forever" in events[-1]["message"]


def test_a_chosen_game_can_loop_too_once_the_hands_are_empty() -> None:
    deal = [[3, 4, 7], [5, 6, 8], [1, 2, 9]]
    state = new(3, deal=deal, dealer=1, next_leader="rotate", round_limit=None)
    state, _ = run(state)
    assert state["end"]["reason"] == "cycle" and state["round"] > 3


def test_every_small_forced_game_ends_and_a_cycle_is_only_called_on_a_real_loop() -> None:
    """Termination, exhaustively on small decks: every deal of 1-6 into two hands of 3.

    Brent's method must call a loop only when a position repeats, and must find it
    within a bounded number of rounds after the loop starts."""
    cycles = 0
    for perm in itertools.permutations(range(1, 7)):
        deal = [list(perm[:3]), list(perm[3:])]
        for next_leader in ("winner", "rotate"):
            state = new(
                2,
                deal=deal,
                hand_play="top",
                dealer=1,
                next_leader=next_leader,
                round_limit=None,
            )
            first_seen: dict[str, int] = {}
            loop_start = None
            while GAME.to_act(state):
                state, _ = GAME.apply(state, GAME.to_act(state)[0], NEXT)
                if state["zones"]["table"]:
                    continue
                assert state["round"] < LONGEST, "the loop is never detected"
                key = json.dumps([state["leader"], state["zones"]])
                if key in first_seen and loop_start is None:
                    loop_start = first_seen[key]
                first_seen.setdefault(key, state["round"])
            if state["end"]["reason"] == "cycle":
                cycles += 1
                assert loop_start is not None
                assert state["round"] <= 3 * len(first_seen) + 2
            else:
                assert state["end"]["reason"] == "seat_out" and loop_start is None
    assert cycles > 0


# ------------------------------------------------------------------ hand_play top -----
def test_top_card_play_keeps_the_hand_face_down_and_in_order() -> None:
    state = new(2, deal=[[5, 1, 9], [2, 8, 3]], hand_play="top", dealer=1)
    view = GAME.view(state, 0)
    assert view["you"]["hand"] is None and view["you"]["hand_count"] == 3
    assert not named_cards(view)
    assert GAME.legal_moves(state, 0) == [NEXT]
    err = refused("play_in_order", state, 0, card(5))
    assert "face-down stack" in err.message
    played: list[tuple[int, int]] = []
    while GAME.to_act(state) and len(played) < 6:
        seat = GAME.to_act(state)[0]
        state, events = play(state, seat, NEXT)
        played += [(e["seat"], e["card"]["z"]) for e in events if e["type"] == "card_played"]
    # round 1: 5 beats 2 (seat 0 leads again); round 2: 1 loses to 8; round 3: seat 1 leads
    assert played == [(0, 5), (1, 2), (0, 1), (1, 8), (1, 3), (0, 9)]


# ------------------------------------------------------------------ moves and errors --
def test_moves_are_checked_for_turn_shape_and_type() -> None:
    state = new(4, dealer=2)
    hand = state["zones"]["hand"][0]
    err = refused("not_your_turn", state, 0, card(hand[0]))
    assert "seat 1's turn" in err.message and err.details["turn"] == 1
    refused("seat_out_of_range", state, 4, NEXT)
    refused("seat_out_of_range", state, -1, NEXT)
    refused("unknown_move", state, 1, {"type": "draft", "card": 1})
    refused("unknown_move", state, 1, {"card": 1})
    refused("bad_move", state, 1, {"type": "play"})
    refused("bad_move", state, 1, {"type": "play", "card": "26"})
    refused("bad_move", state, 1, {"type": "play", "card": True})
    refused("bad_move", state, 1, {"type": "play", "card": 26, "seat": 1})
    refused("bad_move", state, 1, {"type": "play_next", "card": 26})
    assert GAME.legal_moves(state, 0) == []
    with pytest.raises(RuleViolation) as err2:
        GAME.bot_move(state, 0, "greedy")
    assert err2.value.code == "not_your_turn"
    with pytest.raises(RuleViolation) as err2:
        GAME.bot_move(state, 1, "clever")
    assert err2.value.code == "unknown_bot"


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"dealer": 4}, "bad_option"),
        ({"dealer": -1}, "bad_option"),
        ({"dealer": "0"}, "bad_option"),
        ({"next_leader": "loser"}, "bad_option"),
        ({"hand_play": "bottom"}, "bad_option"),
        ({"round_limit": 0}, "bad_option"),
        ({"round_limit": 10_001}, "bad_option"),
        ({"round_limit": True}, "bad_option"),
        ({"kitty": [1, 2]}, "bad_option"),
        ({"trumps": "Fe"}, "unknown_option"),
        ({"deal": [[1, 2], [3, 4], [5, 6]]}, "bad_deal"),
        ({"deal": [[1, 2], [3]]}, "bad_deal"),
        ({"deal": [[1, 2], []]}, "bad_deal"),
        ({"deal": [[1, 2], [2, 3]]}, "bad_deal"),
        ({"deal": [[1, 55], [2, 3]]}, "bad_deal"),
        ({"deal": [[0, 1], [2, 3]]}, "bad_deal"),
        ({"deal": [[1, 2], [3, "4"]]}, "bad_deal"),
        ({"deal": [[1, 2], [3, 4]], "kitty": [4]}, "bad_deal"),
        ({"deal": [[1, 2], [3, 4]], "kitty": "5"}, "bad_deal"),
        ({"deal": "all"}, "bad_deal"),
    ],
)
def test_bad_setup_options_are_refused(options: dict[str, Any], code: str) -> None:
    with pytest.raises(RuleViolation) as err:
        GAME.setup(2 if "deal" in options else 4, options, 1)
    assert err.value.code == code


def test_a_custom_deal_leaves_the_other_cards_out_of_the_game() -> None:
    state = new(2, deal=[[2, 1], [3, 4]], kitty=[6, 5])
    assert state["zones"]["hand"] == [[1, 2], [3, 4]]  # a held hand is kept sorted
    assert state["zones"]["kitty"] == [6, 5]  # the kitty keeps the order given
    assert len(state["zones"]["set_aside"]) == 48
    GAME.check(state)


def test_duplicates_in_a_custom_deal_are_named() -> None:
    with pytest.raises(RuleViolation) as err:
        new(2, deal=[[26, 1], [26, 3]])
    assert "26 Fe" in err.value.message


# ------------------------------------------------------------------ views -------------
def test_a_seat_sees_its_hand_the_table_and_every_count_never_another_hand() -> None:
    state = new(4, seed=5, dealer=3)
    for _ in range(2):
        seat = GAME.to_act(state)[0]
        move, state = GAME.bot_move(state, seat, "greedy")
        state, _ = play(state, seat, move)
    zones = state["zones"]
    for seat in range(4):
        view = GAME.view(state, seat)
        assert [c["z"] for c in view["you"]["hand"]] == zones["hand"][seat]
        others = {z for s in range(4) if s != seat for z in zones["hand"][s]}
        assert not named_cards(view) & (others | set(zones["kitty"]))
        assert [p["card"]["z"] for p in view["table"]] == zones["table"]
        assert [p["seat"] for p in view["table"]] == [2, 1]
        assert [s["hand_count"] for s in view["seats"]] == [13, 12, 12, 13]
        assert view["turn"] == 0 and view["kitty"]["count"] == 2
    observer = GAME.view(state, None)
    assert observer["you"] is None
    assert named_cards(observer) == set(zones["table"])
    refused("seat_out_of_range", state, 9, NEXT)
    with pytest.raises(RuleViolation):
        GAME.view(state, 9)


def test_the_view_keeps_the_last_round_after_the_table_is_cleared() -> None:
    state = new(2, deal=[[25, 1], [26, 2]], dealer=1)
    assert GAME.view(state, None)["last_round"] is None
    state, _ = play(state, 0, card(25))
    state, _ = play(state, 1, card(26))
    last = GAME.view(state, 0)["last_round"]
    assert last["seat"] == 1 and last["explanation"].startswith("26 Fe beats 25 Mn")
    assert GAME.view(state, 0)["table"] == []


def test_card_played_events_show_the_symbol_and_atomic_number() -> None:
    state = new(2, deal=[[25, 1], [26, 2]], dealer=1)
    _, events = play(state, 0, card(25))
    assert events == [
        {
            "type": "card_played",
            "seat": 0,
            "round": 1,
            "card": {"id": 25, "z": 25, "symbol": "Mn", "name": "Manganese"},
            "source": "hand",
            "position": 1,
            "leading": True,
        }
    ]


def test_greedy_wins_as_cheaply_as_it_can_else_throws_its_lowest() -> None:
    state = new(3, deal=[[10, 20, 30], [5, 25, 35], [1, 2, 3]], dealer=1)
    state, _ = play(state, 0, card(20))
    move, _ = GAME.bot_move(state, 2, "greedy")
    assert move == card(1)  # cannot beat 20: its lowest
    state, _ = play(state, 2, card(3))
    move, _ = GAME.bot_move(state, 1, "greedy")
    assert move == card(25)  # the lowest card that beats 20
    state = new(3, deal=[[10, 20, 30], [5, 25, 35], [1, 2, 3]], dealer=1)
    assert GAME.bot_move(state, 0, "greedy")[0] == card(10)  # leading: its lowest


def test_random_bot_is_reproducible_and_advances_the_generator() -> None:
    state = new(4, seed=2)
    seat = GAME.to_act(state)[0]
    a, sa = GAME.bot_move(state, seat, "random")
    b, sb = GAME.bot_move(state, seat, "random")
    assert a == b and sa["rng"] == sb["rng"] != state["rng"]


def test_check_catches_a_lost_or_doubled_card_and_a_wrong_turn() -> None:
    state = new(2)
    zones = state["zones"]
    broken = {**state, "zones": {**zones, "hand": [zones["hand"][0][1:], zones["hand"][1]]}}
    with pytest.raises(RuleViolation, match="cards lost"):
        GAME.check(broken)
    with pytest.raises(RuleViolation, match="is to play"):
        GAME.check({**state, "turn": (state["turn"] + 1) % 2})
