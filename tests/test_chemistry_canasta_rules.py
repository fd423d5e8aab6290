"""Chemistry Canasta: every rule of the seed, its worked example, and each refusal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from rules.chemistry_canasta import GAME
from rules.chemistry_canasta import runs as rn
from rules.chemistry_canasta.game import cards_of
from rules.chemistry_canasta.table import LAYOUT, new_turn
from rules.core import RuleViolation

from . import draw_discard_helpers as helpers

State = dict[str, Any]
ROW = ["CO2", "H2O", "CH4", "NH3", "HCl", "NO"]
# Element cards of one copy each that make no capture and, within one list, no run.
F0 = ["He", "Ne", "Ar", "Ti", "Zn", "Zr", "Sn"]
F1 = ["Be", "Sc", "Fe", "Ge", "Sr", "Cd", "Te"]
F2 = ["Li", "V", "Ga", "Rb", "Nb", "Ag", "I"]
F3 = ["Cr", "As", "Y", "In", "Sb"]
FILLERS = [F0, F1, F2, F3]


def setup(players: int = 2, **options: Any) -> State:
    return GAME.setup(players, {"target": None, **options}, 7)


def arrange(
    state: State,
    *,
    hands: Sequence[Sequence[str]] = (),
    runs: Sequence[Sequence[Sequence[str]]] = (),
    draw_top: Sequence[str] = (),
    discard: Sequence[str] = ("Co",),
    row: Sequence[str] = ROW,
    draw: int | None = None,
    seat: int = 0,
) -> State:
    """Lay the cards out by name (element symbol, "wild", or a compound's formula): each
    hand as given (seats not given get fillers), each seat's runs (lowest first; a wild
    stands where it lies), the draw deck with ``draw_top`` on top (``draw`` cards in all,
    when given; the rest goes under the discard pile), the discard pile bottom first, the
    row; ``seat`` to draw."""
    cards = cards_of(state)
    players = int(state["players"])
    pool = helpers.Pool(cards)
    hand_ids = [pool.take(h) for h in [*hands, *FILLERS[len(hands) : players]]]
    boards: list[list[list[dict[str, Any]]]] = [[] for _ in range(players)]
    for owner, board in enumerate(runs):
        for names in board:
            faces = [cards.face(c) for c in pool.take(names)]
            boards[owner].append(rn.lay(faces, owner))
    zones = pool.lay_out(
        LAYOUT,
        players,
        hand_ids,
        draw_top=draw_top,
        discard=discard,
        row=row,
        draw=draw,
        runs=[[p["card"] for run in board for p in run] for board in boards],
    )
    new = {
        **state,
        "zones": zones,
        "runs": boards,
        "turn": new_turn(seat),
        "result": None,
        "reshuffled": 0,
    }
    GAME.check(new)
    return new


MOVES = helpers.Moves(GAME, cards_of)
ids, play, refused, draw_two = MOVES.ids, MOVES.play, MOVES.refused, MOVES.draw_two


def table(hand: Sequence[str], *, draw_top: Sequence[str] = ("Kr", "Xe"), **kw: Any) -> State:
    """Seat 0 holds ``hand`` plus what it draws (``draw_top``) and is to play."""
    options = kw.pop("options", {})
    players = kw.pop("players", 2)
    hands = [hand, *kw.pop("others", [F1, F2, F3][: players - 1])]
    state = arrange(setup(players, **options), hands=hands, draw_top=draw_top, **kw)
    return draw_two(state)


def run_move(state: State, seat: int, *names: str) -> dict[str, Any]:
    return {"type": "run", "cards": ids(state, seat, *names)}


# ---------------------------------------------------------------- the deck ----------
@pytest.mark.parametrize(
    ("decks", "compounds", "playing"),
    [("covalent", 15, 93), ("ionic", 15, 93), ("both", 30, 132)],
)
def test_the_basic_deck_plus_expansions(decks: str, compounds: int, playing: int) -> None:
    state = setup(2, decks=decks)
    cards = cards_of(state)
    assert len(cards.compound_ids()) == compounds and len(cards.playing_ids()) == playing
    # the Basic Deck comes first: card n is the element of atomic number n
    assert all(cards.face(z)["z"] == z and cards.face(z)["deck"] == "basic" for z in range(1, 55))
    wilds = [c for c in cards.playing_ids() if cards.is_wild(c)]
    assert len(wilds) == 6 * (2 if decks == "both" else 1)
    zones = state["zones"]
    assert len(zones["draw"]) == playing - 2 * 7 - 1 and len(zones["row"]) == 6


def test_expansion_copies_repeat_atomic_numbers() -> None:
    cards = cards_of(setup(2, decks="covalent"))
    oxygen = [c for c in cards.playing_ids() if cards.face(c).get("z") == 8]
    assert oxygen[0] == 8 and len(oxygen) == 12  # the basic O and 11 covalent copies


@pytest.mark.parametrize("players", range(1, 7))
def test_the_deal_at_every_player_count(players: int) -> None:
    state = GAME.setup(players, {}, 11)
    zones = state["zones"]
    expected = ["covalent"] if players <= 3 else ["covalent", "ionic"]
    assert state["decks"] == expected
    assert [len(h) for h in zones["hand"]] == [7] * players and len(zones["discard"]) == 1
    playing = len(cards_of(state).playing_ids())
    assert len(zones["draw"]) == playing - 7 * players - 1
    assert GAME.info.player_counts[players]["draw_deck"] == len(zones["draw"])
    assert state["match"]["dealer"] == players - 1 and GAME.to_act(state) == [0]
    assert state["runs"] == [[] for _ in range(players)]


def test_any_expansion_serves_any_player_count_and_bad_options_are_refused() -> None:
    assert setup(6, decks="ionic")["decks"] == ["ionic"]
    assert setup(1, decks="both")["decks"] == ["covalent", "ionic"]
    for bad in (
        {"decks": "metallic"},
        {"runs": "sometimes"},
        {"must_capture": "yes"},
        {"reshuffles": 6},
        {"reshuffles": True},
        {"decks": "ionic", "compounds": [{"formula": "H2O"}] * 6},
    ):
        with pytest.raises(RuleViolation) as err:
            GAME.setup(2, bad, 1)
        assert err.value.code == "bad_option", bad
    with pytest.raises(RuleViolation) as err:
        GAME.setup(7, {}, 1)
    assert err.value.code == "bad_players"
    with pytest.raises(RuleViolation) as err:
        GAME.setup(2, {"compounds": [{"formula": f} for f in ["H2O"] * 6]}, 1)
    assert err.value.code == "bad_compounds"


def test_a_teachers_expansion() -> None:
    custom = [{"formula": f} for f in ["H2O", "CO2", "CH4", "NH3", "NaCl", "MgO"]]
    state = setup(4, compounds=custom)
    cards = cards_of(state)
    assert state["decks"] == ["custom"] and len(cards.compound_ids()) == 6
    assert len(cards.playing_ids()) == 54 + 48


def test_a_fixed_deal() -> None:
    state = setup(2, deal={"hands": [["Tc", "Rh", "wild"], ["Ru"]], "row": ["CO2"]})
    cards = cards_of(state)
    assert {43, 45} <= set(state["zones"]["hand"][0]) and 44 in state["zones"]["hand"][1]
    assert any(cards.is_wild(c) for c in state["zones"]["hand"][0])
    assert cards.face(state["zones"]["row"][0])["formula"] == "CO2"
    bad: object
    for bad in ({"hands": [["Tc", "Tc"], []]}, {"row": ["NaCl"]}, {"under": []}, []):
        with pytest.raises(RuleViolation) as err:
            setup(2, deal=bad)
        assert err.value.code == "bad_deal", bad


# ---------------------------------------------------------------- draw and capture ---
def test_drawing_as_in_compound_capture() -> None:
    state = arrange(setup(), hands=[F0], draw_top=["Kr"], discard=["O", "N"], draw=1)
    state, _ = play(state, 0, {"type": "draw", "source": "deck"})
    assert refused(state, 0, {"type": "draw", "source": "deck"}).code == "empty_deck"
    assert refused(state, 0, {"type": "run", "cards": [1, 2, 3]}).code == "draw_first"
    state, _ = play(state, 0, {"type": "draw", "source": "discard"})
    assert refused(state, 0, {"type": "draw", "source": "discard"}).code == "already_drawn"
    assert state["turn"]["step"] == "play" and len(state["zones"]["hand"][0]) == 9
    other = arrange(setup(), hands=[F0], discard=["O", "N"])
    other, _ = play(other, 0, {"type": "draw", "source": "discard"})
    assert refused(other, 0, {"type": "draw", "source": "discard"}).code == "two_from_discard"


def test_the_seeds_capture_of_carbon_dioxide_ends_the_turn_without_a_discard() -> None:
    state = table(["C", "O", "O", "He"])
    co2 = next(c for c in state["zones"]["row"] if cards_of(state).face(c)["formula"] == "CO2")
    state, events = play(
        state, 0, {"type": "capture", "compound": co2, "cards": ids(state, 0, "C", "O", "O")}
    )
    assert events[0]["text"] == "CO2 captured: C + O + O" and events[0]["points"] == 25
    assert events[1]["type"] == "compound_turned_up" and len(state["zones"]["row"]) == 6
    assert events[-1] == {"type": "turn_started", "seat": 1}
    assert state["zones"]["captured"][0] == [co2]


def test_a_seat_that_can_capture_may_not_lay_a_run_or_discard() -> None:
    state = table(["C", "O", "O", "Mg", "Al", "Si"])
    assert refused(state, 0, run_move(state, 0, "Mg", "Al", "Si")).code == "must_capture"
    discard = {"type": "discard", "card": ids(state, 0, "Mg")[0]}
    err = refused(state, 0, discard)
    assert err.code == "must_capture" and "may try to create a run" in (err.rule or "")
    kinds = {m["type"] for m in GAME.legal_moves(state, 0)}
    assert kinds == {"capture"}
    free = table(["C", "O", "O", "Mg", "Al", "Si"], options={"must_capture": False})
    state, _ = play(free, 0, run_move(free, 0, "Mg", "Al", "Si"))
    assert state["turn"]["melded"]


# ---------------------------------------------------------------- runs --------------
def test_a_run_of_consecutive_atomic_numbers() -> None:
    state = table(["Mg", "Al", "Si", "He"])
    state, events = play(state, 0, run_move(state, 0, "Mg", "Al", "Si"))
    (laid,) = events
    assert laid["type"] == "run_laid" and laid["text"] == (
        "Mg 12, Al 13, Si 14: consecutive atomic numbers"
    )
    assert "period 3" in laid["explanation"] and laid["points"] == 30
    assert (laid["low"], laid["high"], laid["length"], laid["owner"]) == (12, 14, 3, 0)
    assert [p["symbol"] for p in laid["positions"]] == ["Mg", "Al", "Si"]
    assert sorted(state["zones"]["runs"][0]) == [12, 13, 14]
    # the turn goes on: a run is followed by a discard (or by going out)
    assert GAME.to_act(state) == [0] and state["turn"]["step"] == "play"
    state, events = play(state, 0, {"type": "discard", "card": ids(state, 0, "He")[0]})
    assert events[-1] == {"type": "turn_started", "seat": 1}
    seat = GAME.view(state, 1)["seats"][0]
    assert seat["run_cards"] == 3 and seat["run_points"] == 30
    assert seat["runs"][0]["positions"][1]["card"]["symbol"] == "Al"


@pytest.mark.parametrize(
    ("names", "numbers", "text"),
    [
        (["wild", "Al", "Si"], [12, 13, 14], "wild as Mg 12, Al 13, Si 14"),
        (["Mg", "wild", "Si"], [12, 13, 14], "Mg 12, wild as Al 13, Si 14"),
        (["Mg", "Al", "wild"], [12, 13, 14], "Mg 12, Al 13, wild as Si 14"),
        (["Mg", "wild", "wild"], [12, 13, 14], "Mg 12, wild as Al 13, wild as Si 14"),
    ],
)
def test_wild_cards_fill_a_run_and_are_pinned_by_their_place(
    names: list[str], numbers: list[int], text: str
) -> None:
    state = table(["Mg", "Al", "Si", "wild", "wild"], options={"must_capture": False})
    state, events = play(state, 0, run_move(state, 0, *names))
    laid = events[0]
    assert [p["number"] for p in laid["positions"]] == numbers
    assert [p["wild"] for p in laid["positions"]] == [n == "wild" for n in names]
    laws = [f" ({p['card']['law']})" if p["wild"] else "" for p in laid["positions"]]
    assert all(laws[i] for i, n in enumerate(names) if n == "wild")
    said = [f"{t}{law}" for t, law in zip(text.split(", "), laws, strict=True)]
    assert laid["text"] == ", ".join(said) + ": consecutive atomic numbers"
    run = GAME.view(state, None)["seats"][0]["runs"][0]
    assert run["wilds"] == names.count("wild") and (run["low"], run["high"]) == (12, 14)


def test_a_longer_run_and_a_run_across_periods() -> None:
    state = table(["F", "Ne", "Na", "Mg", "He"])
    state, events = play(state, 0, run_move(state, 0, "F", "Ne", "Na", "Mg"))
    assert events[0]["length"] == 4 and events[0]["points"] == 40
    assert "from period 2 into period 3" in events[0]["explanation"]


@pytest.mark.parametrize(
    ("names", "code", "words"),
    [
        (["Mg", "Si", "P"], "not_consecutive", "needs Al 13"),
        (["Mg", "Al", "Al"], "not_consecutive", "twice"),
        (["Si", "Al", "Mg"], "not_consecutive", "out of order"),
        (["Mg", "Al"], "short_run", "at least 3"),
        (["wild", "wild", "wild"], "all_wild_run", "at least one element card"),
        (["wild", "H", "He"], "off_the_table", "below hydrogen"),
    ],
)
def test_illegal_runs_are_refused_with_codes(names: list[str], code: str, words: str) -> None:
    hand = ["Mg", "Al", "Al", "Si", "P", "H", "He", "wild", "wild", "wild"]
    state = table(hand, options={"decks": "both", "must_capture": False})
    err = refused(state, 0, run_move(state, 0, *names))
    assert err.code == code and words in err.message
    assert "3 cards in a series such as 12, 13, and 14" in (err.rule or "")


def test_runs_of_exactly_three_when_the_option_says_so() -> None:
    state = table(["Mg", "Al", "Si", "P", "S"], options={"runs": "three"})
    assert refused(state, 0, run_move(state, 0, "Mg", "Al", "Si", "P")).code == "run_too_long"
    state, _ = play(state, 0, run_move(state, 0, "Mg", "Al", "Si"))
    extend = {"type": "extend", "owner": 0, "run": 0, "end": "high", "cards": ids(state, 0, "P")}
    assert refused(state, 0, extend).code == "no_extending"
    assert all(len(m.get("cards", [])) <= 3 for m in GAME.legal_moves(state, 0))


def test_runs_may_repeat_atomic_numbers_across_runs() -> None:
    # the covalent expansion adds copies of C, N and O: two C-N-O runs at once
    state = table(["C", "N", "O", "C", "N", "O", "He"], options={"must_capture": False})
    state, _ = play(state, 0, run_move(state, 0, "C", "N", "O"))
    state, _ = play(state, 0, run_move(state, 0, "C", "N", "O"))
    assert [[p["number"] for p in r] for r in state["runs"][0]] == [[6, 7, 8], [6, 7, 8]]


def test_a_seat_extends_its_own_run_at_either_end() -> None:
    state = table(["Mg", "Al", "Si", "Na", "P", "wild", "He"], options={"must_capture": False})
    state, _ = play(state, 0, run_move(state, 0, "Mg", "Al", "Si"))
    low = {"type": "extend", "owner": 0, "run": 0, "end": "low", "cards": ids(state, 0, "Na")}
    state, events = play(state, 0, low)
    assert events[0]["type"] == "run_extended" and events[0]["end"] == "low"
    assert events[0]["text"] == "Na 11, Mg 12, Al 13, Si 14: consecutive atomic numbers"
    high = {"type": "extend", "owner": 0, "run": 0, "end": "high", "cards": ids(state, 0, "P")}
    wrong = {**high, "end": "low"}
    assert refused(state, 0, wrong).code == "not_consecutive"
    state, _ = play(state, 0, high)
    only_wild = {**high, "cards": ids(state, 0, "wild")}  # the run pins it: S 16
    state, events = play(state, 0, only_wild)
    assert events[0]["positions"][0]["number"] == 16 and events[0]["high"] == 16
    assert [p["number"] for p in state["runs"][0][0]] == list(range(11, 17))


def test_who_may_extend_a_run() -> None:
    runs = [[["Mg", "Al", "Si"]], []]
    state = arrange(setup(2), hands=[F0[:3], ["P", "Be"]], runs=runs, seat=1)
    state = draw_two(state, 1)
    move = {"type": "extend", "owner": 0, "run": 0, "end": "high", "cards": ids(state, 1, "P")}
    assert refused(state, 1, move).code == "not_your_run"
    assert refused(state, 1, {**move, "run": 1}).code == "no_such_run"
    assert refused(state, 1, {**move, "owner": 5}).code == "no_such_run"
    anyone = arrange(setup(2, runs="anyone"), hands=[F0[:3], ["P", "Be"]], runs=runs, seat=1)
    anyone = draw_two(anyone, 1)
    anyone, events = play(anyone, 1, move)
    assert events[0]["owner"] == 0 and events[0]["seat"] == 1 and events[0]["points"] == 10
    # the card lies on seat 0's board but scores for seat 1, who laid it
    assert 15 in anyone["zones"]["runs"][0]
    seats = GAME.view(anyone, None)["seats"]
    assert [s["run_cards"] for s in seats] == [3, 1]


def test_no_capture_after_a_run_in_the_same_turn() -> None:
    state = table(["Mg", "Al", "Si", "C", "O", "O"], options={"must_capture": False})
    state, _ = play(state, 0, run_move(state, 0, "Mg", "Al", "Si"))
    co2 = next(c for c in state["zones"]["row"] if cards_of(state).face(c)["formula"] == "CO2")
    capture = {"type": "capture", "compound": co2, "cards": ids(state, 0, "C", "O", "O")}
    assert refused(state, 0, capture).code == "capture_after_run"
    assert all(m["type"] != "capture" for m in GAME.legal_moves(state, 0))


# ---------------------------------------------------------------- claims ------------
def test_the_seeds_example_claim_of_the_wild_in_43_wild_45() -> None:
    # player a (seat 0) has a run of 43, wildcard, 45; player b (seat 1) draws card 44
    state = arrange(
        setup(2),
        hands=[F0[:5], F1[:6]],
        runs=[[["Tc", "wild", "Rh"]], []],
        draw_top=["Ru", "Kr"],
        seat=1,
    )
    wild = state["runs"][0][0][1]["card"]
    assert state["runs"][0][0][1] == {"card": wild, "number": 44, "wild": True, "by": 0}
    view = GAME.view(state, 1)["seats"][0]["runs"][0]["positions"][1]
    assert (view["number"], view["symbol"], view["wild"]) == (44, "Ru", True)
    state = draw_two(state, 1)
    claim = {"type": "claim", "owner": 0, "run": 0, "card": 44}
    assert claim in GAME.legal_moves(state, 1)
    state, events = play(state, 1, claim)
    (claimed,) = events
    assert claimed["type"] == "wild_claimed" and (claimed["seat"], claimed["owner"]) == (1, 0)
    assert claimed["placed"]["card"]["symbol"] == "Ru" and claimed["taken"]["card"]["id"] == wild
    assert "put Ru 44 in place of the wild card" in claimed["text"]
    assert "seat 0's run Tc 43 to Rh 45" in claimed["text"]
    assert [p["card"] for p in state["runs"][0][0]] == [43, 44, 45]
    assert not any(p["wild"] for p in state["runs"][0][0])
    assert wild in state["zones"]["hand"][1] and 44 not in state["zones"]["hand"][1]
    # seat 0 keeps its three run cards; the turn goes on (a claim is not a discard)
    assert GAME.view(state, None)["seats"][0]["run_cards"] == 3 and GAME.to_act(state) == [1]


def test_a_claimed_wild_can_capture_in_the_same_turn() -> None:
    state = arrange(
        setup(2),
        hands=[["C", "O", "Ru", "He"], F1[:6]],
        runs=[[], [["Tc", "wild", "Rh"]]],
        draw_top=["Kr", "Xe"],
    )
    state = draw_two(state)
    assert all(m["type"] != "capture" for m in GAME.legal_moves(state, 0))
    state, _ = play(state, 0, {"type": "claim", "owner": 1, "run": 0, "card": 44})
    moves = GAME.legal_moves(state, 0)
    assert moves and all(m["type"] == "capture" for m in moves)  # now it must capture
    state, events = play(state, 0, moves[0])
    assert "wild:" in events[0]["text"]


def test_a_seat_claims_from_its_own_board_more_than_once_a_turn() -> None:
    state = arrange(
        setup(2),
        hands=[["Ru", "Mg", "He"], F1[:6]],
        runs=[[["Tc", "wild", "Rh"], ["Na", "wild", "Al"]], []],
        draw_top=["Kr", "Xe"],
    )
    state = draw_two(state)
    claims = [m for m in GAME.legal_moves(state, 0) if m["type"] == "claim"]
    assert claims == [
        {"type": "claim", "owner": 0, "run": 0, "card": 44},
        {"type": "claim", "owner": 0, "run": 1, "card": 12},
    ]
    for claim in claims:
        state, events = play(state, 0, claim)
        assert "its own run" in events[0]["text"]
    assert sum(cards_of(state).is_wild(c) for c in state["zones"]["hand"][0]) == 2


def test_claims_that_are_refused() -> None:
    state = arrange(
        setup(2),
        hands=[["Ru", "Mo", "wild", "He"], F1[:6]],
        runs=[[], [["Tc", "wild", "Rh"], ["Mg", "Al", "Si"]]],
        draw_top=["Kr", "Xe"],
    )
    claim = {"type": "claim", "owner": 1, "run": 0, "card": 44}
    assert refused(state, 0, claim).code == "draw_first"  # claims come after the draw
    state = draw_two(state)
    err = refused(state, 0, {**claim, "card": 42})
    assert err.code == "no_wild_there" and "stand for Ru 44" in err.message
    assert "if they have the card the wild card represents" in (err.rule or "")
    wild = ids(state, 0, "wild")[0]
    assert refused(state, 0, {**claim, "card": wild}).code == "no_wild_there"
    assert refused(state, 0, {**claim, "run": 1, "card": 42}).code == "no_wild_there"
    assert refused(state, 0, {**claim, "run": 2}).code == "no_such_run"
    assert refused(state, 0, {**claim, "card": 45}).code == "not_in_hand"
    assert refused(state, 1, claim).code == "not_your_turn"


# ---------------------------------------------------------------- going out ---------
def test_going_out_without_a_discard() -> None:
    state = arrange(
        setup(2, must_capture=False),
        hands=[["Mg", "Al", "Si"], ["Be", "Sc", "wild"]],
        draw_top=["P", "S"],
    )
    state = draw_two(state)
    state, events = play(state, 0, run_move(state, 0, "Mg", "Al", "Si", "P", "S"))
    kinds = [e["type"] for e in events]
    assert kinds == ["run_laid", "went_out", "round_ended", "round_scored", "game_over"]
    out = events[1]
    assert out == {
        "type": "went_out",
        "seat": 0,
        "discarded": False,
        "text": "Seat 0 went out: it laid its last card in a run.",
    }
    ended = events[2]
    assert ended["reason"] == "went_out" and ended["went_out"] == 0
    assert [s["points"] for s in ended["seats"]] == [50, -2 - 5]
    assert GAME.to_act(state) == [] and GAME.outcome(state).winners == (0,)


def test_going_out_with_a_discard() -> None:
    state = arrange(
        setup(2, must_capture=False, target=500),
        hands=[["Mg", "Al", "Si"], F1[:4]],
        draw_top=["Xe", "P"],
    )
    state = draw_two(state)
    state, _ = play(state, 0, run_move(state, 0, "Mg", "Al", "Si", "P"))
    assert state["result"] is None and [m["type"] for m in GAME.legal_moves(state, 0)] == [
        "discard"
    ]
    state, events = play(state, 0, {"type": "discard", "card": ids(state, 0, "Xe")[0]})
    out = next(e for e in events if e["type"] == "went_out")
    assert out["discarded"] and out["text"] == "Seat 0 went out: it discarded its last card."
    assert state["result"]["reason"] == "went_out" and GAME.to_act(state) == [0]
    assert [s["points"] for s in state["result"]["seats"]] == [40, -4]


def test_going_out_with_a_capture() -> None:
    state = table(["C"], draw_top=["O", "O"], others=[F1[:3]])
    co2 = next(c for c in state["zones"]["row"] if cards_of(state).face(c)["formula"] == "CO2")
    capture = {"type": "capture", "compound": co2, "cards": ids(state, 0, "C", "O", "O")}
    state, events = play(state, 0, capture)
    out = next(e for e in events if e["type"] == "went_out")
    assert out["text"] == "Seat 0 went out: it played its last cards in a capture."
    assert state["result"]["reason"] == "went_out"
    assert [s["points"] for s in state["result"]["seats"]] == [25, -3]


def all_but_co2_captured(state: State) -> State:
    """The last face-up compound is CO2; every other one was captured by seat 0."""
    zones = state["zones"]
    co2 = zones["row"][:1]
    others = [c for c in cards_of(state).compound_ids() if c not in co2]
    state = {**state, "zones": {**zones, "row": co2, "compounds": [], "captured": [others]}}
    GAME.check(state)
    return state


def test_the_round_ends_when_the_last_compound_is_captured() -> None:
    state = arrange(setup(1), hands=[["C", "O", "He"]], draw_top=["O", "Xe"])
    state = draw_two(all_but_co2_captured(state))
    co2 = state["zones"]["row"][0]
    capture = {"type": "capture", "compound": co2, "cards": ids(state, 0, "C", "O", "O")}
    state, events = play(state, 0, capture)
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["reason"] == "all_captured" and ended["went_out"] is None
    assert ended["seats"][0]["points"] == 15 * 25 - 2
    assert "went_out" not in [e["type"] for e in events]


# ---------------------------------------------------------------- the draw deck -----
def test_without_reshuffles_the_round_ends_after_the_turn_that_empties_the_draw_deck() -> None:
    state = arrange(setup(2, reshuffles=0), hands=[F0, F1], draw_top=["Kr", "Xe"], draw=3)
    state = draw_two(state)
    state, events = play(state, 0, {"type": "discard", "card": ids(state, 0, "He")[0]})
    assert events[-1] == {"type": "turn_started", "seat": 1}  # one card left
    state, _ = play(state, 1, {"type": "draw", "source": "deck"})
    assert GAME.legal_moves(state, 1) == [{"type": "draw", "source": "discard"}]
    state, _ = play(state, 1, {"type": "draw", "source": "discard"})
    state, events = play(state, 1, {"type": "discard", "card": ids(state, 1, "Be")[0]})
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["reason"] == "deck_empty" and ended["went_out"] is None
    assert [s["points"] for s in ended["seats"]] == [-8, -8]


def test_by_default_an_empty_draw_deck_is_refilled_as_in_compound_capture() -> None:
    """The two games share the seed's turn and its silence on an empty draw deck: by
    default both refill it from the discard pile (docs/rules, "The draw deck running
    out")."""
    from rules.compound_capture import GAME as CAPTURE

    defaults = {o.name: o.default for o in CAPTURE.info.options + GAME.info.options}
    assert defaults["deck_out"] == "reshuffle" and defaults["reshuffles"] == 5
    state = arrange(
        setup(2, must_capture=False),
        hands=[F0, F1],
        draw_top=["Kr", "Xe"],
        discard=["Li", "B", "Mn"],
        draw=2,
    )
    state = draw_two(state)
    state, events = play(state, 0, {"type": "discard", "card": ids(state, 0, "He")[0]})
    assert state["result"] is None and not state["zones"]["draw"]
    state, events = play(state, 1, {"type": "draw", "source": "deck"})
    assert [e["type"] for e in events] == ["deck_reshuffled", "card_drawn"]


def test_reshuffles_refill_the_draw_deck_at_the_end_of_a_turn() -> None:
    state = arrange(
        setup(2, reshuffles=1, must_capture=False),
        hands=[F0, F1],
        draw_top=["Kr", "Xe"],
        discard=["Li", "B", "Mn"],
        draw=2,
    )
    state = draw_two(state)
    under = len(state["zones"]["discard"])  # the pile, and the card discarded on top
    state, events = play(state, 0, {"type": "discard", "card": ids(state, 0, "He")[0]})
    assert events[-1] == {"type": "turn_started", "seat": 1} and not state["zones"]["draw"]
    # the next seat's first draw shuffles the pile under the discard top into a new deck,
    # even when it takes the discard top: so its other card comes from the draw deck
    state, events = play(state, 1, {"type": "draw", "source": "discard"})
    assert [e["type"] for e in events] == ["deck_reshuffled", "card_drawn"]
    assert events[0]["count"] == under and len(state["zones"]["draw"]) == under
    assert not state["zones"]["discard"]
    assert GAME.view(state, 0)["reshuffles"] == {"allowed": 1, "used": 1}
    assert GAME.legal_moves(state, 1) == [{"type": "draw", "source": "deck"}]
    state, _ = play(state, 1, {"type": "draw", "source": "deck"})
    state, _ = play(state, 1, {"type": "discard", "card": state["zones"]["hand"][1][0]})
    kinds: list[str] = []
    while state["result"] is None:  # draw and discard until the deck runs out again
        seat = state["turn"]["seat"]
        for _ in range(2):
            source = "deck" if state["zones"]["draw"] else "discard"
            state, _ = play(state, seat, {"type": "draw", "source": source})
        card = state["zones"]["hand"][seat][0]
        state, events = play(state, seat, {"type": "discard", "card": card})
        kinds += [e["type"] for e in events]
    assert state["result"]["reason"] == "deck_empty" and "deck_reshuffled" not in kinds


# ---------------------------------------------------------------- scoring -----------
def test_scoring_with_runs_and_penalties() -> None:
    state = arrange(
        setup(3, runs="anyone", must_capture=False),
        hands=[["He", "wild", "Xe"], ["Kr"], ["H", "Li", "wild", "wild"]],
        runs=[[["Tc", "wild", "Rh"]], [["Mg", "Al", "Si", "P"]], []],
        draw_top=["S", "Pd"],
        seat=1,
    )
    zones = state["zones"]
    won = zones["compounds"][:3]
    state["zones"] = {
        **zones,
        "compounds": zones["compounds"][3:],
        "captured": [won[:2], [], won[2:]],
    }
    GAME.check(state)
    state = draw_two(state, 1)
    own = {"type": "extend", "owner": 1, "run": 0, "end": "high", "cards": ids(state, 1, "S")}
    state, _ = play(state, 1, own)
    theirs = {"type": "extend", "owner": 0, "run": 0, "end": "high", "cards": ids(state, 1, "Pd")}
    state, _ = play(state, 1, theirs)
    state, events = play(state, 1, {"type": "discard", "card": ids(state, 1, "Kr")[0]})
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["went_out"] == 1
    by_seat = {s["seat"]: s for s in ended["seats"]}
    # seat 0: 2 compounds + 3 run cards (Pd is seat 1's) - 2 elements - 1 wild
    assert by_seat[0] == {
        "seat": 0,
        "compounds": [cards_of(state).face(c)["formula"] for c in won[:2]],
        "compound_points": 50,
        "elements_in_hand": 2,
        "wilds_in_hand": 1,
        "penalty": 7,
        "run_cards": 3,
        "run_points": 30,
        "points": 73,
    }
    assert (by_seat[1]["run_cards"], by_seat[1]["points"]) == (6, 60)
    assert (by_seat[2]["penalty"], by_seat[2]["points"]) == (12, 13)
    assert ended["winners"] == [0]
    scores = GAME.scores(state)
    assert [s["round_points"] for s in scores["seats"]] == [73, 60, 13]
    assert scores["seats"][2]["wilds_in_hand"] == 2 and scores["round_over"]


def test_penalties_stay_hidden_until_the_round_ends() -> None:
    state = table(["Mg", "Al", "Si", "wild", "He"], options={"must_capture": False})
    state, _ = play(state, 0, run_move(state, 0, "Mg", "Al", "Si"))
    row = GAME.scores(state)["seats"][0]
    assert (row["run_points"], row["penalty"], row["wilds_in_hand"]) == (30, None, None)
    assert row["round_points"] is None and not GAME.scores(state)["round_over"]


# ---------------------------------------------------------------- matches -----------
def test_a_match_to_250() -> None:
    def boards_cleared(state: State) -> None:
        assert state["runs"] == [[], [], []]

    MOVES.match_to_250(boards_cleared, seed=3)  # seed 3: three rounds


def test_between_rounds_only_the_next_dealer_deals() -> None:
    state = arrange(
        setup(2, target=1000, reshuffles=0), hands=[F0, F1], draw_top=["Kr", "Xe"], draw=2
    )
    state = draw_two(state)
    state, _ = play(state, 0, {"type": "discard", "card": ids(state, 0, "He")[0]})
    MOVES.next_deal(state)  # seat 1 dealt, seat 0 deals next


# ---------------------------------------------------------------- moves and bots ----
@pytest.mark.parametrize(
    "move",
    [
        {"type": "draw", "source": "pile"},
        {"type": "capture", "compound": "CO2", "cards": [1]},
        {"type": "run", "cards": []},
        {"type": "run", "cards": [12, "13", 14]},
        {"type": "extend", "owner": 0, "run": 0, "end": "middle", "cards": [1]},
        {"type": "extend", "owner": 0, "cards": [1], "end": "low"},
        {"type": "claim", "owner": 0, "run": 0},
        {"type": "claim", "owner": 0, "run": 0, "card": 44, "wild": 90},
        {"type": "discard", "card": True},
    ],
)
def test_malformed_moves_are_bad_move(move: dict[str, Any]) -> None:
    with pytest.raises(RuleViolation) as err:
        GAME.apply(setup(), 0, move)
    assert err.value.code == "bad_move"


def test_unknown_moves_and_bots() -> None:
    MOVES.unknown_move_and_bots(setup(), "meld")


def test_legal_moves_in_the_play_step_all_pass_verify() -> None:
    state = arrange(
        setup(2, must_capture=False),
        hands=[["Mg", "Al", "Si", "Ru", "Ne", "wild", "He"], F1[:6]],
        runs=[[["F", "wild", "Na"]], [["Tc", "wild", "Rh"]]],
        draw_top=["Kr", "Xe"],
    )
    state = draw_two(state)
    moves = GAME.legal_moves(state, 0)
    kinds = {m["type"] for m in moves}
    assert kinds == {"run", "extend", "claim", "discard"}
    assert {"type": "run", "cards": [12, 13, 14]} in moves
    assert {"type": "claim", "owner": 1, "run": 0, "card": 44} in moves
    assert {"type": "claim", "owner": 0, "run": 0, "card": 10} in moves
    assert {"type": "extend", "owner": 0, "run": 0, "end": "high", "cards": [12]} in moves
    assert not any(m["type"] == "extend" and m["owner"] == 1 for m in moves)
    for move in moves:
        assert GAME.can(state, 0, GAME.parse_move(move)), move
    assert GAME.legal_moves(state, 1) == []


def test_greedy_prefers_capture_then_the_longest_run_then_a_claim() -> None:
    capture = table(["C", "O", "O", "Mg", "Al", "Si"], options={"must_capture": False})
    assert GAME.bot_move(capture, 0, "greedy")[0]["type"] == "capture"
    longest = table(["Mg", "Al", "Si", "P", "wild", "He"], options={"must_capture": False})
    move, _ = GAME.bot_move(longest, 0, "greedy")
    assert move == {"type": "run", "cards": [12, 13, 14, 15, ids(longest, 0, "wild")[0]]}
    claim = arrange(
        setup(2),
        hands=[["Ru", "Ne", "Mg", "Al", "Si", "He"], F1[:6]],
        runs=[[["F", "wild", "Na"]], [["Tc", "wild", "Rh"]]],
        draw_top=["Kr", "Ar"],
    )
    claim = draw_two(claim)
    move, _ = GAME.bot_move(claim, 0, "greedy")
    assert move["type"] in ("run", "extend") and move["cards"] == [12, 13, 14]  # not a claim
    claim, _ = play(claim, 0, move)
    move, _ = GAME.bot_move(claim, 0, "greedy")
    assert move == {"type": "claim", "owner": 1, "run": 0, "card": 44}  # another's first


def test_greedy_discards_the_card_least_useful_to_it() -> None:
    state = table(["Mg", "Al", "Si", "Xe", "He", "V"], draw_top=["Kr", "Cr"])
    move, _ = GAME.bot_move(state, 0, "greedy")
    assert move == {"type": "run", "cards": [12, 13, 14]}
    state, _ = play(state, 0, move)
    move, _ = GAME.bot_move(state, 0, "greedy")
    # V 23 and Cr 24 may become a run; He, Kr and Xe are of no use: the highest id goes
    assert move["type"] == "discard"
    assert cards_of(state).face(move["card"])["symbol"] == "Xe"


def test_greedy_takes_a_useful_discard_top() -> None:
    state = arrange(setup(2), hands=[["Mg", "Al", "He"], F1[:6]], discard=["Xe", "Si"])
    assert GAME.bot_move(state, 0, "greedy")[0] == {"type": "draw", "source": "discard"}
    useless = arrange(setup(2), hands=[["Mg", "Al", "He"], F1[:6]], discard=["Si", "Xe"])
    assert GAME.bot_move(useless, 0, "greedy")[0] == {"type": "draw", "source": "deck"}


# ---------------------------------------------------------------- views -------------
def test_views_show_own_hand_every_board_counts_and_the_discard_top() -> None:
    state = arrange(
        setup(2),
        hands=[F0[:5], F1[:6]],
        runs=[[["Tc", "wild", "Rh"]], []],
        discard=["Li", "B"],
    )
    mine, other, observer = GAME.view(state, 0), GAME.view(state, 1), GAME.view(state, None)
    assert len(mine["you"]["hand"]) == 5 and other["you"]["seat"] == 1 and observer["you"] is None
    assert mine["draw"]["cards"] is None and mine["draw"]["count"] == len(state["zones"]["draw"])
    assert [s["hand_count"] for s in other["seats"]] == [5, 6]
    assert mine["discard"]["top"]["symbol"] == "B" and mine["discard"]["count"] == 2
    run = observer["seats"][0]["runs"][0]
    assert (run["owner"], run["run"], run["low"], run["high"], run["wilds"]) == (0, 0, 43, 45, 1)
    wild = run["positions"][1]
    assert (wild["number"], wild["symbol"], wild["name"], wild["wild"], wild["by"]) == (
        44,
        "Ru",
        "Ruthenium",
        True,
        0,
    )
    assert wild["card"]["kind"] == "wild" and wild["card"]["law"]
    assert mine["turn"] == {
        "seat": 0,
        "step": "draw",
        "drawn": 0,
        "took_discard": False,
        "melded": False,
    }
    with pytest.raises(RuleViolation) as err:
        GAME.view(state, 2)
    assert err.value.code == "seat_out_of_range"


def test_resampling_hidden_cards_keeps_boards_and_compounds_in_place() -> None:
    state = arrange(setup(4), hands=[F0[:5], F1[:5], F2[:5], F3], runs=[[["Tc", "wild", "Rh"]]])
    for seat in (None, 0, 3):
        for seed in range(4):
            other = GAME.redeal_hidden(state, seat, seed)
            GAME.check(other)
            assert GAME.view(other, seat) == GAME.view(state, seat)
            assert other["zones"]["runs"] == state["zones"]["runs"]
