"""The shared helpers for card zones and matches, on their own and in a tiny game."""

from __future__ import annotations

from typing import Any

import pytest

from rules import match, shapes
from rules.core import RuleViolation, rank_seats
from rules.rng import new_rng
from rules.zones import Layout, Seen, Zone, Zones, named_cards

from . import tiny_game
from .test_conformance import playout

LAYOUT = Layout(
    (
        Zone("draw", Seen.HIDDEN),
        Zone("discard", Seen.TOP),
        Zone("hand", Seen.OWNER, per_seat=True, ordered=False),
        Zone("board", Seen.PUBLIC, per_seat=True),
    )
)


def face(z: int) -> dict[str, Any]:
    """A card as a view shows it."""
    return {"id": z}


def zones() -> Zones:
    return LAYOUT.deal(
        3, draw=[1, 2, 3, 4], discard=[5, 6], hand=[[9, 7], [8], []], board=[[10], [], [11]]
    )


def test_deal_sorts_unordered_zones_and_keeps_piles_in_order() -> None:
    z = zones()
    assert z["hand"] == [[7, 9], [8], []] and z["draw"] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("seat", "seen"),
    [(None, {6, 10, 11}), (0, {6, 7, 9, 10, 11}), (1, {6, 8, 10, 11}), (2, {6, 10, 11})],
)
def test_who_sees_what(seat: int | None, seen: set[int]) -> None:
    assert LAYOUT.visible(zones(), seat) == seen


def test_pile_views_show_counts_always_and_faces_only_when_seen() -> None:
    z = zones()
    assert LAYOUT.pile_view(z, ("draw", None), 0, face) == {"count": 4, "cards": None}
    discard = LAYOUT.pile_view(z, ("discard", None), 1, face)
    assert discard == {"count": 2, "cards": None, "top": {"id": 6}}
    hand = LAYOUT.pile_view(z, ("hand", 0), 0, face)
    assert hand == {"count": 2, "cards": [{"id": 7}, {"id": 9}]}
    assert LAYOUT.pile_view(z, ("hand", 0), 1, face) == {"count": 2, "cards": None}
    assert LAYOUT.pile_view(z, ("hand", 0), None, face)["cards"] is None


def test_move_and_draw_are_pure_and_take_from_the_top() -> None:
    z = zones()
    z2, drawn = LAYOUT.draw(z, ("draw", None), ("hand", 2), 3)
    assert drawn == [4, 3, 2] and z2["hand"][2] == [2, 3, 4] and z2["draw"] == [1]
    assert z["draw"] == [1, 2, 3, 4] and z["hand"][2] == []  # unchanged
    z3, drawn = LAYOUT.draw(z2, ("draw", None), ("hand", 1), 5)
    assert drawn == [1] and z3["draw"] == []
    with pytest.raises(ValueError, match="not in"):
        LAYOUT.move(z, ("hand", 1), ("discard", None), [9])


def test_moved_events_show_faces_only_to_those_who_see_either_end() -> None:
    drew = LAYOUT.moved({"type": "drew", "seat": 1}, [4], ("draw", None), ("hand", 1), 3)
    assert drew == {"type": "drew", "seat": 1, "count": 1, "private": {1: {"cards": [4]}}}
    discarded = LAYOUT.moved({"type": "d"}, [7], ("hand", 0), ("discard", None), 3)
    assert discarded == {"type": "d", "count": 1, "cards": [7]}
    took_top = LAYOUT.moved({"type": "t"}, [6], ("discard", None), ("hand", 2), 3)
    assert took_top["cards"] == [6]
    burned = LAYOUT.moved({"type": "b"}, [1], ("draw", None), ("draw", None), 3)
    assert "cards" not in burned and "private" not in burned


def test_redeal_hidden_keeps_what_a_seat_sees_and_every_pile_size() -> None:
    z = zones()
    for seat in (None, 0, 1, 2):
        for seed in range(20):
            other, _ = LAYOUT.redeal_hidden(z, seat, new_rng(seed))
            assert LAYOUT.conservation_problems(other, range(1, 12)) == []
            for place in LAYOUT.places(z):
                assert len(LAYOUT.pile(other, place)) == len(LAYOUT.pile(z, place))
                assert LAYOUT.pile_view(other, place, seat, face) == LAYOUT.pile_view(
                    z, place, seat, face
                )
    moved = {tuple(LAYOUT.redeal_hidden(z, 0, new_rng(seed))[0]["hand"][1]) for seed in range(30)}
    assert len(moved) > 1, "hidden cards are really resampled"


def test_conservation_problems_name_the_cards() -> None:
    z = zones()
    assert LAYOUT.conservation_problems(z, range(1, 12)) == []
    broken = {**z, "draw": [1, 2, 3, 3]}
    assert LAYOUT.conservation_problems(broken, range(1, 12)) == [
        "cards held twice: [3]",
        "cards lost: [4]",
    ]


def test_named_cards_reads_card_keys_only() -> None:
    event = {"type": "x", "seat": 3, "count": 2, "cards": [{"id": 7}, 8], "top": {"id": 1}}
    assert named_cards(event) == {1, 7, 8}
    assert named_cards({"offer": {"id": 5}, "seat": 2, "card": True}) == set()


# ---------------------------------------------------------------- match -------------
def test_a_match_rotates_the_dealer_left_and_adds_up_rounds() -> None:
    m = match.new_match(3, target=10, dealer=2)
    assert match.next_round_seat(m) == 0
    m, _ = match.end_round(m, [4, 2, 3])
    m = match.next_round(m)
    assert (m["round"], m["dealer"]) == (2, 0)
    m, events = match.end_round(m, [7, 1, 0])
    assert m["over"] and m["totals"] == [11, 3, 3]
    assert [r["points"] for r in m["rounds"]] == [[4, 2, 3], [7, 1, 0]]
    out = match.outcome(m)
    assert out.ranking == (0, 1, 2) and out.places == (1, 2, 2) and out.winners == (0,)
    assert events[-1]["type"] == "game_over"
    assert events[-1]["places"] == [
        {"seat": 0, "place": 1},
        {"seat": 1, "place": 2},
        {"seat": 2, "place": 2},
    ]


def test_a_single_round_match_and_a_tie_that_plays_on() -> None:
    one, _ = match.end_round(match.new_match(2, target=None, dealer=0), [0, 0])
    assert one["over"] and match.outcome(one).winners == (0, 1)
    m = match.new_match(2, target=5, dealer=0, on_tie="play_on")
    m, events = match.end_round(m, [5, 5])
    assert not m["over"] and events[-1]["type"] == "match_tied"
    m, _ = match.end_round(match.next_round(m), [1, 0])
    assert m["over"] and match.outcome(m).winners == (0,)


def test_next_round_is_refused_at_the_wrong_time_or_seat() -> None:
    m = match.new_match(3, target=5, dealer=0)
    with pytest.raises(RuleViolation) as err:
        match.verify_next_round(m, round_finished=False, seat=1)
    assert err.value.code == "round_in_progress"
    with pytest.raises(RuleViolation) as err:
        match.verify_next_round(m, round_finished=True, seat=2)
    assert err.value.code == "round_over" and err.value.details["dealer"] == 1
    over, _ = match.end_round(m, [9, 0, 0])
    with pytest.raises(RuleViolation) as err:
        match.verify_next_round(over, round_finished=True, seat=1)
    assert err.value.code == "match_over"


def test_max_rounds_ends_a_match_that_never_reaches_its_target() -> None:
    m = match.new_match(2, target=100, dealer=0, max_rounds=2)
    m, events = match.end_round(m, [-3, 5])
    assert not m["over"] and [e["type"] for e in events] == ["round_scored"]
    m, events = match.end_round(match.next_round(m), [10, 1])
    assert m["over"] and events[-1]["reason"] == "max_rounds"
    assert match.outcome(m).winners == (0,) and match.view(m)["max_rounds"] == 2
    tied = match.new_match(2, target=5, dealer=0, on_tie="play_on", max_rounds=1)
    tied, events = match.end_round(tied, [5, 5])
    assert tied["over"] and events[-1]["reason"] == "max_rounds"
    assert match.outcome(tied).winners == (0, 1)
    reached, events = match.end_round(match.new_match(2, target=5, dealer=0), [6, 1])
    assert events[-1]["reason"] == "target" and match.view(reached)["max_rounds"] is None


@pytest.mark.parametrize("max_rounds", [0, 1001, 2.0, False, "3", None])
def test_impossible_round_limits_are_refused(max_rounds: object) -> None:
    with pytest.raises(shapes.ShapeError):
        shapes.parse(max_rounds, match.MaxRounds)


@pytest.mark.parametrize("target", [0, -1, 10_001, 2.5, True, "250"])
def test_impossible_targets_are_refused(target: object) -> None:
    with pytest.raises(shapes.ShapeError):
        shapes.parse(target, match.Target)
    assert shapes.parse(None, match.Target) is None  # one round


def test_a_match_option_is_refused_with_bad_option_in_a_game() -> None:
    with pytest.raises(RuleViolation) as err:
        tiny_game.setup(2, {"target": 0}, seed=1)
    assert err.value.code == "bad_option" and "target" in err.value.message


def test_rank_seats_gives_competition_places() -> None:
    assert rank_seats([0, 1, 2, 3], [3, 3, 3, 1].__getitem__) == ((0, 1, 2, 3), (1, 1, 1, 4))
    assert rank_seats([0, 1], [(2, 5), (2, 6)].__getitem__) == ((1, 0), (1, 2))


# ---------------------------------------------------------------- the tiny game -----
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tiny_game_meets_the_engine_contract(players: int) -> None:
    for seed in range(3):
        playout(tiny_game.GAME, players, seed, ["random", "greedy"], deep=True, options={})


def test_the_tiny_game_deals_again_after_each_round_until_the_target() -> None:
    state = tiny_game.setup(2, {"target": 6}, seed=4)
    rounds = 0
    while not tiny_game.outcome(state).finished:
        seat = tiny_game.to_act(state)[0]
        move, state = tiny_game.GAME.bot_move(state, seat, "greedy")
        state, events = tiny_game.GAME.apply(state, seat, move)
        rounds += sum(e["type"] == "round_scored" for e in events)
    m = state["match"]
    assert rounds == len(m["rounds"]) >= 1 and max(m["totals"]) >= 6
    assert [r["dealer"] for r in m["rounds"]] == [i % 2 for i in range(rounds)]
