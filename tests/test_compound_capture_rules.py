"""Compound Capture: every rule of the seed, its worked example, and each refusal."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from rules import draw_discard as dd
from rules.compound_capture import GAME
from rules.compound_capture.game import LAYOUT, cards_of
from rules.core import RuleViolation

from . import draw_discard_helpers as helpers
from .test_conformance import events_match_the_declarations

State = dict[str, Any]


def setup(players: int = 2, **options: Any) -> State:
    return GAME.setup(players, {"target": None, **options}, 7)


def arrange(
    state: State,
    *,
    hands: Sequence[Sequence[str]] = (),
    draw_top: Sequence[str] = (),
    discard: Sequence[str] = ("N",),
    row: Sequence[str] = (),
    draw: int | None = None,
) -> State:
    """Lay the cards out by name (element symbol, "wild", or a compound's formula):
    each hand exactly as given, the draw deck with ``draw_top`` on top (and ``draw``
    cards in all, when given), the discard pile bottom first, the row as given; every
    other card goes to the bottom of the draw deck or to the compound pile."""
    players = int(state["players"])
    pool = helpers.Pool(cards_of(state))
    hand_ids = [pool.take(h) for h in hands] + [[] for _ in range(players - len(hands))]
    zones = pool.lay_out(
        LAYOUT, players, hand_ids, draw_top=draw_top, discard=discard, row=row, draw=draw
    )
    new = {**state, "zones": zones, "turn": dd.new_turn(0), "quiet": 0, "result": None}
    GAME.check(new)
    return new


def row_card(state: State, formula: str) -> int:
    cards = cards_of(state)
    row: list[int] = state["zones"]["row"]
    return next(c for c in row if cards.face(c)["formula"] == formula)


MOVES = helpers.Moves(GAME, cards_of)
ids, play, refused, draw_two = MOVES.ids, MOVES.play, MOVES.refused, MOVES.draw_two


ROW = ["CO2", "H2O", "CH4", "NH3", "HCl", "NO"]


def co2_table(hand: Sequence[str], players: int = 2, **options: Any) -> State:
    state = arrange(
        setup(players, **options),
        hands=[hand, ["H"] * 7][:players],
        draw_top=["S", "S"],
        row=ROW,
    )
    return draw_two(state)


# ---------------------------------------------------------------- the deal ----------
@pytest.mark.parametrize(("players", "decks"), [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2)])
def test_the_deal_follows_the_seed(players: int, decks: int) -> None:
    state = GAME.setup(players, {}, 11)
    zones = state["zones"]
    cards = cards_of(state)
    assert len(state["decks"]) == decks and len(cards.faces) == 54 * decks
    assert [len(h) for h in zones["hand"]] == [7] * players
    assert len(zones["row"]) == 6 and len(zones["discard"]) == 1
    assert len(zones["compounds"]) == 15 * decks - 6
    assert len(zones["draw"]) == 39 * decks - 7 * players - 1
    assert all(cards.kind(c) == "compound" for c in zones["row"] + zones["compounds"])
    # the player to the left of the dealer starts; the first dealer is the last seat
    assert state["match"]["dealer"] == players - 1 and GAME.to_act(state) == [0]


def test_decks_option_and_player_counts() -> None:
    assert setup(3, decks="ionic")["decks"] == ["ionic"]
    assert setup(2, decks="both")["decks"] == ["covalent", "ionic"]
    assert setup(4)["decks"] == ["covalent", "ionic"]
    for bad in ({"decks": "covalent"}, {"decks": "metallic"}, {"deck_out": "never"}):
        with pytest.raises(RuleViolation) as err:
            GAME.setup(4, bad, 1)
        assert err.value.code == "bad_option"
    with pytest.raises(RuleViolation) as err:
        GAME.setup(7, {}, 1)
    assert err.value.code == "bad_players"
    with pytest.raises(RuleViolation) as err:
        GAME.setup(2, {"must_capture": "yes"}, 1)
    assert err.value.code == "bad_option"


def test_a_fixed_deal_sets_hands_row_and_discard() -> None:
    deal = {"hands": [["C", "O", "O"], ["wild"]], "row": ["CO2"], "discard": "H"}
    state = setup(2, deal=deal)
    cards = cards_of(state)
    hand0 = [cards.face(c) for c in state["zones"]["hand"][0]]
    assert [f["symbol"] for f in hand0].count("O") >= 2 and len(hand0) == 7
    assert any(cards.is_wild(c) for c in state["zones"]["hand"][1])
    assert cards.face(state["zones"]["row"][0])["formula"] == "CO2"
    assert cards.face(state["zones"]["discard"][-1])["symbol"] == "H"
    bad: object
    for bad in (
        {"hands": [["Na"], []]},
        {"hands": [["O"] * 8, []]},
        {"hands": [[]]},
        {"row": ["NaCl"]},
        {"discard": "wild", "hands": [["wild"] * 6, []]},
        {"bottom": []},
        [],
    ):
        with pytest.raises(RuleViolation) as err:
            setup(2, deal=bad)
        assert err.value.code == "bad_deal", bad


# ---------------------------------------------------------------- drawing -----------
def test_draw_two_from_the_deck_or_one_and_the_discard_top() -> None:
    state = arrange(setup(), hands=[["H"] * 7], draw_top=["C", "S"], discard=["O", "N"], row=ROW)
    state, events = play(state, 0, {"type": "draw", "source": "deck"})
    assert events[0]["source"] == "deck" and "cards" not in events[0]
    assert [f["symbol"] for f in events[0]["private"][0]["cards"]] == ["C"]
    state, events = play(state, 0, {"type": "draw", "source": "discard"})
    assert events[0]["cards"][0]["symbol"] == "N"  # the discard top is public
    assert state["turn"]["step"] == "play" and len(state["zones"]["hand"][0]) == 9


def test_two_cards_from_the_discard_pile_are_refused() -> None:
    state = arrange(setup(), hands=[["H"] * 7], discard=["O", "N"], row=ROW)
    state, _ = play(state, 0, {"type": "draw", "source": "discard"})
    err = refused(state, 0, {"type": "draw", "source": "discard"})
    assert err.code == "two_from_discard" and "two cards from the discard pile" in (err.rule or "")
    assert GAME.legal_moves(state, 0) == [{"type": "draw", "source": "deck"}]


def test_no_third_draw_no_capture_before_drawing_and_only_in_turn() -> None:
    state = co2_table(["C", "O", "O"])
    assert refused(state, 0, {"type": "draw", "source": "deck"}).code == "already_drawn"
    fresh = arrange(setup(), hands=[["C", "O", "O"]], row=ROW)
    move = {
        "type": "capture",
        "compound": row_card(fresh, "CO2"),
        "cards": ids(fresh, 0, "C", "O", "O"),
    }
    assert refused(fresh, 0, move).code == "draw_first"
    assert refused(fresh, 1, {"type": "draw", "source": "deck"}).code == "not_your_turn"
    assert GAME.legal_moves(fresh, 1) == []


# ---------------------------------------------------------------- capturing ---------
def test_the_seeds_example_capture_carbon_dioxide_with_c_o_o() -> None:
    state = co2_table(["C", "O", "O"])
    played = ids(state, 0, "C", "O", "O")
    compound = row_card(state, "CO2")
    before = len(state["zones"]["compounds"])
    state, events = play(state, 0, {"type": "capture", "compound": compound, "cards": played})
    captured = events[0]
    assert captured["type"] == "compound_captured" and captured["points"] == 25
    assert captured["text"] == "CO2 captured: C + O + O"
    assert captured["card"]["name"] == "Carbon dioxide" and captured["card"]["molar_mass"] == 44.01
    assert "covalent" in captured["explanation"]
    zones = state["zones"]
    assert zones["captured"][0] == [compound]
    assert zones["discard"][-3:] == played  # played onto the discard pile, last on top
    assert not set(played) & set(zones["hand"][0])
    # a new compound is turned up so the next player has six to choose from
    assert events[1]["type"] == "compound_turned_up" and len(zones["row"]) == 6
    assert len(zones["compounds"]) == before - 1
    assert events[-1] == {"type": "turn_started", "seat": 1} and GAME.to_act(state) == [1]


def test_a_capture_with_a_wild_card_names_its_law() -> None:
    state = co2_table(["C", "O", "wild"])
    move: dict[str, Any] = {
        "type": "capture",
        "compound": row_card(state, "CO2"),
        "cards": ids(state, 0, "C", "O", "wild"),
    }
    state, events = play(state, 0, move)
    assert events[0]["text"] == "CO2 captured: C + O + O (wild: Law of Conservation of Mass as O)"
    wild = [p for p in events[0]["parts"] if p["wild"]]
    assert wild == [
        {
            "card": move["cards"][2],
            "symbol": "O",
            "wild": True,
            "law": "Law of Conservation of Mass",
        }
    ]


def test_an_ionic_capture_explains_the_ions() -> None:
    state = arrange(
        setup(decks="ionic"),
        hands=[["Al", "Al", "O", "O", "O"]],
        draw_top=["K", "K"],
        discard=["Na"],
        row=["Al2O3", "NaCl", "KCl", "NaF", "LiF", "MgO"],
    )
    state = draw_two(state)
    move = {
        "type": "capture",
        "compound": row_card(state, "Al2O3"),
        "cards": ids(state, 0, "Al", "Al", "O", "O", "O"),
    }
    _, events = play(state, 0, move)
    assert "2 Al3+ give +6 and 3 O2- give -6" in events[0]["explanation"]
    assert events[0]["card"]["ions"][0] == {"ion": "Al3+", "symbol": "Al", "charge": 3, "count": 2}


def test_an_all_wild_capture_is_refused_with_a_code() -> None:
    state = co2_table(["wild", "wild", "wild"])
    err = refused(
        state,
        0,
        {
            "type": "capture",
            "compound": row_card(state, "CO2"),
            "cards": ids(state, 0, "wild", "wild", "wild"),
        },
    )
    assert err.code == "all_wild" and "at least one element card" in (err.rule or "")


@pytest.mark.parametrize(
    ("hand", "names"),
    [
        (["C", "O"], ["C", "O"]),  # one O short
        (["C", "O", "O", "O"], ["C", "O", "O", "O"]),  # one O too many
        (["C", "O", "O", "H"], ["C", "O", "O", "H"]),  # H is not in CO2
        (["C", "O", "wild", "wild"], ["C", "O", "wild", "wild"]),  # a wild too many
    ],
)
def test_inexact_captures_are_refused(hand: list[str], names: list[str]) -> None:
    state = co2_table(hand)
    move = {"type": "capture", "compound": row_card(state, "CO2"), "cards": ids(state, 0, *names)}
    err = refused(state, 0, move)
    assert err.code == "wrong_elements" and "CO2 needs exactly 1 C + 2 O" in err.message


def test_cards_of_another_hand_are_not_in_hand() -> None:
    state = co2_table(["C", "O"])
    move = {
        "type": "capture",
        "compound": row_card(state, "CO2"),
        "cards": ids(state, 0, "C", "O") + ids(state, 1, "H"),
    }
    err = refused(state, 0, move)
    assert err.code == "not_in_hand" and "(H)" in err.message


def test_a_capture_names_a_face_up_compound_and_each_card_once() -> None:
    state = co2_table(["C", "O", "O"])
    c, o1, o2 = ids(state, 0, "C", "O", "O")
    hidden = state["zones"]["compounds"][0]
    err = refused(state, 0, {"type": "capture", "compound": hidden, "cards": [c, o1, o2]})
    assert err.code == "not_face_up" and "CO2" in err.message
    err = refused(
        state, 0, {"type": "capture", "compound": row_card(state, "CO2"), "cards": [c, o1, o1]}
    )
    assert err.code == "duplicate_card"
    # no table has a card 9999: a malformed move, as over HTTP (issue 16); card 200 is
    # a card id, but not one of this table's
    with pytest.raises(RuleViolation) as malformed:
        GAME.apply(state, 0, {"type": "capture", "compound": 9999, "cards": [c]})
    assert malformed.value.code == "bad_move"
    assert (
        refused(state, 0, {"type": "capture", "compound": 200, "cards": [c]}).code == "not_face_up"
    )


def test_a_seat_that_can_capture_must_unless_the_option_says_otherwise() -> None:
    state = co2_table(["C", "O", "O"])
    card = ids(state, 0, "S")[0]
    err = refused(state, 0, {"type": "discard", "card": card})
    assert err.code == "must_capture" and "cannot capture" in (err.rule or "")
    legal = GAME.legal_moves(state, 0)
    assert legal and all(m["type"] == "capture" for m in legal)
    free = co2_table(["C", "O", "O"], must_capture=False)
    assert {"type": "discard", "card": card} in GAME.legal_moves(free, 0)
    after, events = play(free, 0, {"type": "discard", "card": card})
    assert events[0]["type"] == "card_discarded" and after["zones"]["discard"][-1] == card


def test_only_one_capture_per_turn() -> None:
    state = co2_table(["C", "O", "O", "H", "H", "O"])
    move = {
        "type": "capture",
        "compound": row_card(state, "CO2"),
        "cards": ids(state, 0, "C", "O", "O"),
    }
    state, _ = play(state, 0, move)
    h2o = {
        "type": "capture",
        "compound": row_card(state, "H2O"),
        "cards": ids(state, 0, "H", "H", "O"),
    }
    assert refused(state, 0, h2o).code == "not_your_turn"


def test_legal_captures_list_each_way_once_and_all_pass_verify() -> None:
    state = co2_table(["C", "O", "O", "O", "wild", "H", "H"])
    captures = [m for m in GAME.legal_moves(state, 0) if m["type"] == "capture"]
    cards = cards_of(state)
    formulas = {cards.face(m["compound"])["formula"] for m in captures}
    # CH4 and NH3 need one H more than H + H + wild; NO is a wild for N and an O
    assert formulas == {"CO2", "H2O", "HCl", "NO"}
    assert len({(m["compound"], tuple(m["cards"])) for m in captures}) == len(captures)
    for m in captures:
        assert GAME.can(state, 0, m)


# ---------------------------------------------------------------- round end ---------
def test_a_silent_lap_ends_the_round() -> None:
    state = arrange(setup(3, must_capture=False), hands=[["H"] * 3] * 3, row=ROW)
    for seat in (0, 1):
        state = draw_two(state, seat)
        state, events = play(
            state, seat, {"type": "discard", "card": state["zones"]["hand"][seat][0]}
        )
        assert state["result"] is None and state["quiet"] == seat + 1
    state = draw_two(state, 2)
    state, events = play(state, 2, {"type": "discard", "card": state["zones"]["hand"][2][0]})
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["reason"] == "quiet_lap" and state["turn"] is None
    assert [e["type"] for e in events][-3:] == ["round_ended", "round_scored", "game_over"]


def test_a_capture_restarts_the_lap() -> None:
    state = arrange(setup(2, must_capture=False), hands=[["H"] * 7, ["C", "O", "O"]], row=ROW)
    state = draw_two(state, 0)
    state, _ = play(state, 0, {"type": "discard", "card": state["zones"]["hand"][0][0]})
    state = draw_two(state, 1)
    move = {
        "type": "capture",
        "compound": row_card(state, "CO2"),
        "cards": ids(state, 1, "C", "O", "O"),
    }
    state, _ = play(state, 1, move)
    assert state["quiet"] == 0 and state["result"] is None


def test_solitaire_ends_at_the_first_turn_without_a_capture() -> None:
    state = arrange(
        setup(1),
        hands=[["C", "C", "C", "N", "N", "S", "S"]],
        draw_top=["Cl", "Cl"],
        row=["H2O", "CO2", "CO", "CH4", "NH3", "HCl"],
    )
    state = draw_two(state)
    assert all(m["type"] == "discard" for m in GAME.legal_moves(state, 0))
    state, _ = play(state, 0, {"type": "discard", "card": ids(state, 0, "S")[0]})
    assert state["result"]["reason"] == "quiet_lap"
    assert state["result"]["seats"][0]["points"] == -8  # eight element cards left


def test_the_round_ends_when_the_last_compound_is_captured() -> None:
    state = arrange(setup(2), hands=[["C", "O", "O"]], draw_top=["S", "S"], row=ROW)
    cards = cards_of(state)
    # every other compound already captured by seat 1
    others = [
        c
        for c in state["zones"]["row"] + state["zones"]["compounds"]
        if cards.face(c)["formula"] != "CO2"
    ]
    zones = copy.deepcopy(state["zones"])
    zones["row"] = [row_card(state, "CO2")]
    zones["compounds"] = []
    zones["captured"][1] = others
    state = {**state, "zones": zones}
    GAME.check(state)
    state = draw_two(state)
    move = {
        "type": "capture",
        "compound": row_card(state, "CO2"),
        "cards": ids(state, 0, "C", "O", "O"),
    }
    state, events = play(state, 0, move)
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["reason"] == "all_captured"
    assert "compound_turned_up" not in [e["type"] for e in events]
    seat1 = ended["seats"][1]
    assert seat1["compound_points"] == 25 * 14 and seat1["points"] == 350 - seat1["penalty"]


def test_scoring_at_round_end_25_per_compound_minus_1_and_5() -> None:
    state = arrange(
        setup(2, must_capture=False),
        hands=[["C", "O", "O", "wild", "wild", "H"], ["H"] * 7],
        draw_top=["S", "S", "Cl", "Cl", "N", "N"],
        row=ROW,
    )
    state = draw_two(state)
    move = {
        "type": "capture",
        "compound": row_card(state, "CO2"),
        "cards": ids(state, 0, "C", "O", "O"),
    }
    state, _ = play(state, 0, move)
    state = draw_two(state, 1)
    state, _ = play(state, 1, {"type": "discard", "card": state["zones"]["hand"][1][0]})
    state = draw_two(state, 0)
    assert GAME.scores(state)["seats"][0]["penalty"] is None  # hidden until the round ends
    state, events = play(state, 0, {"type": "discard", "card": ids(state, 0, "S")[0]})
    result = state["result"]
    assert result["reason"] == "quiet_lap"
    # seat 0 holds H, S, and two wilds and the two cards of its last draw
    seat0 = result["seats"][0]
    assert seat0["wilds_in_hand"] == 2 and seat0["compounds"] == ["CO2"]
    assert seat0["points"] == 25 - seat0["elements_in_hand"] - 10
    seat1 = result["seats"][1]
    assert seat1 == {
        **seat1,
        "compounds": [],
        "wilds_in_hand": 0,
        "points": -seat1["elements_in_hand"],
    }
    assert result["winners"] == [0]
    scored = next(e for e in events if e["type"] == "round_scored")
    assert scored["points"] == [seat0["points"], seat1["points"]]
    assert GAME.scores(state)["seats"][0]["round_points"] == seat0["points"]


# ---------------------------------------------------------------- the draw deck -----
def test_an_empty_draw_deck_is_refilled_from_under_the_discard_top() -> None:
    state = arrange(setup(2), hands=[["H"] * 7, ["C"] * 3], row=ROW, draw=0)
    assert state["zones"]["draw"] == [] and len(state["zones"]["discard"]) > 2
    top = state["zones"]["discard"][-1]
    state, events = play(state, 0, {"type": "draw", "source": "deck"})
    assert events[0]["type"] == "deck_reshuffled" and events[0]["count"] > 0
    assert state["zones"]["discard"] == [top]


def test_with_both_piles_spent_the_draw_ends_early() -> None:
    state = arrange(setup(2), hands=[["H"] * 7], row=ROW, draw=0, discard=["N"])
    cards = cards_of(state)
    # everything else sits in seat 1's hand: nothing to draw but the discard top
    zones = copy.deepcopy(state["zones"])
    zones["hand"][1] = sorted(zones["hand"][1] + zones["discard"][:-1])
    zones["discard"] = zones["discard"][-1:]
    state = {**state, "zones": zones}
    GAME.check(state)
    assert refused(state, 0, {"type": "draw", "source": "deck"}).code == "empty_deck"
    assert GAME.legal_moves(state, 0) == [{"type": "draw", "source": "discard"}]
    state, events = play(state, 0, {"type": "draw", "source": "discard"})
    assert events[-1] == {"type": "draw_ended", "seat": 0, "drawn": 1, "reason": "no_cards"}
    events_match_the_declarations(GAME, state, events)  # no playout empties both piles
    assert state["turn"]["step"] == "play" and cards.face(state["zones"]["hand"][0][-1])
    assert refused(state, 0, {"type": "draw", "source": "discard"}).code == "already_drawn"


def test_a_seat_that_took_the_discard_top_is_not_offered_the_discard_again() -> None:
    """Issue 27 item 11: the draw deck is empty and the discard pile holds two cards, so
    a reshuffle could still refill the deck; the seat takes the discard's top card first.
    One card is left, too few to reshuffle, and the seat may not take the discard twice:
    its draw ends with one card. Offered the discard again, it would have no legal move
    and the round would never end."""
    state = arrange(setup(2), hands=[["H"] * 7], row=ROW, draw=0, discard=["N", "O"])
    zones = copy.deepcopy(state["zones"])
    zones["hand"][1] = sorted(zones["hand"][1] + zones["discard"][:-2])
    zones["discard"] = zones["discard"][-2:]
    state = {**state, "zones": zones}
    GAME.check(state)
    assert {m["source"] for m in GAME.legal_moves(state, 0)} == {"deck", "discard"}
    state, events = play(state, 0, {"type": "draw", "source": "discard"})
    assert events[-1] == {"type": "draw_ended", "seat": 0, "drawn": 1, "reason": "no_cards"}
    assert len(state["zones"]["discard"]) == 1 and not state["zones"]["draw"]
    assert state["turn"]["step"] == "play"
    legal = GAME.legal_moves(state, 0)
    assert legal and all(m["type"] != "draw" for m in legal)
    assert refused(state, 0, {"type": "draw", "source": "discard"}).code == "already_drawn"
    state, _ = play(state, 0, legal[0])
    assert GAME.to_act(state) == [1] or state["result"] is not None  # the round goes on


def test_deck_out_end_round_ends_after_the_turn_that_empties_the_deck() -> None:
    state = arrange(
        setup(2, deck_out="end_round", must_capture=False),
        hands=[["H"] * 7],
        row=ROW,
        draw=1,
        discard=["N", "N"],
    )
    state, _ = play(state, 0, {"type": "draw", "source": "deck"})
    assert refused(state, 0, {"type": "draw", "source": "deck"}).code == "empty_deck"
    state, _ = play(state, 0, {"type": "draw", "source": "discard"})
    state, _ = play(state, 0, {"type": "discard", "card": ids(state, 0, "H")[0]})
    assert state["result"]["reason"] == "deck_empty"


def test_the_discard_pile_is_never_empty_when_a_turn_starts() -> None:
    state = setup(3)
    for _ in range(200):
        if not GAME.to_act(state) or state["result"]:
            break
        seat = GAME.to_act(state)[0]
        if state["turn"]["step"] == "draw" and state["turn"]["drawn"] == 0:
            assert state["zones"]["discard"]
        move, state = GAME.bot_move(state, seat, "random")
        state, _ = GAME.apply(state, seat, move)


# ---------------------------------------------------------------- matches -----------
def test_a_match_to_250_rotates_the_dealer_and_ends_at_the_target() -> None:
    MOVES.match_to_250()


def test_between_rounds_only_the_next_dealer_deals() -> None:
    state = arrange(setup(2, must_capture=False, target=1000), hands=[["H"] * 7], row=ROW)
    for seat in (0, 1):
        state = draw_two(state, seat)
        state, _ = play(state, seat, {"type": "discard", "card": state["zones"]["hand"][seat][0]})
    state = MOVES.next_deal(state)  # the dealer was seat 1
    assert [len(h) for h in state["zones"]["hand"]] == [7, 7] and state["quiet"] == 0


def test_max_rounds_ends_a_match_nobody_wins_by_points() -> None:
    state = GAME.setup(2, {"max_rounds": 1, "target": 10_000}, 3)
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        move, state = GAME.bot_move(state, seat, "random")
        state, events = GAME.apply(state, seat, move)
    over = next(e for e in events if e["type"] == "game_over")
    assert over["reason"] == "max_rounds" and len(state["match"]["rounds"]) == 1


# ---------------------------------------------------------------- moves and bots ----
@pytest.mark.parametrize(
    "move",
    [
        {"type": "draw"},
        {"type": "draw", "source": "pile"},
        {"type": "capture", "compound": "CO2", "cards": [1]},
        {"type": "capture", "compound": 1, "cards": []},
        {"type": "capture", "compound": 1, "cards": [True]},
        {"type": "discard", "card": "1"},
        {"type": "discard", "card": 1, "extra": 2},
    ],
)
def test_malformed_moves_are_bad_move(move: dict[str, Any]) -> None:
    with pytest.raises(RuleViolation) as err:
        GAME.apply(setup(), 0, move)
    assert err.value.code == "bad_move"


def test_unknown_moves_and_bots() -> None:
    MOVES.unknown_move_and_bots(setup(), "pass")


def test_greedy_captures_the_capture_worth_most_now() -> None:
    state = co2_table(["C", "O", "O", "wild", "H", "H"])
    move, _ = GAME.bot_move(state, 0, "greedy")
    cards = cards_of(state)
    # each capture scores 25 now plus the penalty of the cards it sheds (1, or 5 for a wild)
    assert move["type"] == "capture" and any(cards.is_wild(c) for c in move["cards"])
    gains = {
        tuple(m["cards"]): len(m["cards"]) + 4 * sum(cards.is_wild(c) for c in m["cards"])
        for m in GAME.legal_moves(state, 0)
    }
    assert gains[tuple(move["cards"])] == max(gains.values())


def test_greedy_takes_a_useful_discard_top_and_discards_what_no_compound_needs() -> None:
    state = arrange(
        setup(2),
        hands=[["C", "H", "H", "N", "Cl", "S"]],
        discard=["N", "O"],
        draw_top=["S"],
        row=ROW,
    )
    move, _ = GAME.bot_move(state, 0, "greedy")
    assert move == {"type": "draw", "source": "discard"}  # O: CO2 and H2O need it
    state, _ = play(state, 0, move)
    move, _ = GAME.bot_move(state, 0, "greedy")
    assert move == {"type": "draw", "source": "deck"}  # never a second discard card
    state, _ = play(state, 0, move)
    move, _ = GAME.bot_move(state, 0, "greedy")
    assert move["type"] == "capture"
    useless = arrange(
        setup(2), hands=[["S", "S", "C", "C", "N", "Cl"]], draw_top=["C", "Cl"], row=ROW
    )
    useless = draw_two(useless)
    assert all(m["type"] == "discard" for m in GAME.legal_moves(useless, 0))
    move, _ = GAME.bot_move(useless, 0, "greedy")
    assert cards_of(useless).face(move["card"])["symbol"] == "S"  # no face-up compound has S


def test_views_show_own_hand_counts_and_public_piles_only() -> None:
    state = co2_table(["C", "O", "O"])
    mine, other, observer = GAME.view(state, 0), GAME.view(state, 1), GAME.view(state, None)
    assert len(mine["you"]["hand"]) == 5 and other["you"]["seat"] == 1 and observer["you"] is None
    assert mine["draw"]["cards"] is None and mine["compound_pile"]["cards"] is None
    assert [s["hand_count"] for s in other["seats"]] == [5, 7]
    assert len(mine["row"]["cards"]) == 6 and mine["discard"]["top"] is not None
    assert mine["discard"]["cards"] is not None  # every discarded card was played face up
    assert mine["turn"] == {"seat": 0, "step": "play", "drawn": 2, "took_discard": False}
    assert mine["phase"] == "play" and mine["round_end"] is None
    with pytest.raises(RuleViolation) as err:
        GAME.view(state, 2)
    assert err.value.code == "seat_out_of_range"


def test_resampling_hidden_cards_keeps_compounds_out_of_hands() -> None:
    state = GAME.setup(4, {}, 9)
    for seat in (None, 0, 3):
        for seed in range(5):
            other = GAME.redeal_hidden(state, seat, seed)
            GAME.check(other)  # each kind of card stays in its own zones
            assert GAME.view(other, seat) == GAME.view(state, seat)
    moved = {tuple(GAME.redeal_hidden(state, 0, s)["zones"]["hand"][1]) for s in range(5)}
    assert len(moved) > 1
