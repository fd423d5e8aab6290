"""Chemistry Canasta: capture compounds, lay runs of atomic numbers, claim wild cards.

The table and the draw-two / capture-or-discard turn are :mod:`rules.draw_discard`, and
the round in its match (views, scores, the match's refusals)
:mod:`rules.draw_discard_match`, both shared with Compound Capture; the shapes are
:mod:`.wire` and, for this game's own moves, :mod:`.moves`; the cards are the
Basic Deck of 54 Elements (ids 1-54, the atomic numbers) plus one or two compound
expansions (:mod:`rules.chemistry.decks.compound`); runs are :mod:`.runs`; rounds are played to
250 with :mod:`rules.match`. A turn: two draws; then, in the ``play`` step, any number
of wild-card claims, and either one capture (which ends the turn) or runs and
extensions followed by a discard. A seat whose hand empties goes out and ends the
round; so does the capture of the last compound, and the draw deck running out.

>>> state = GAME.setup(2, {"target": None}, seed=3)
>>> GAME.to_act(state), len(state["zones"]["row"]), [len(h) for h in state["zones"]["hand"]]
([0], 6, [7, 7])
>>> len(state["zones"]["draw"]), state["decks"]
(78, ['covalent'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import draw_discard as dd
from rules import draw_discard_match as dm
from rules import draw_discard_wire as dw
from rules import match
from rules.chemistry.decks.compound import DECK_NAMES, TableCards, named_table_cards
from rules.chemistry.elements import MAX_Z
from rules.core import (
    JSON,
    Code,
    Dynamics,
    GameInfo,
    GameRules,
    Source,
    State,
    check_players,
    check_seat,
    options_of,
    resolve_options,
)
from rules.wire import Wire
from rules.zones import Layout

from . import runs as rn
from . import scoring, wire
from .bots import greedy
from .moves import ACTIONS, EVENTS, can_reshuffle, to_act
from .table import LAYOUT, cards_of, deal, layout, run_view

MOVE_SPACE = (
    "Runs and extensions are listed once per series: an element card wherever your hand "
    "holds the number (its lowest-numbered copy), wild cards only in the gaps. Laying a wild "
    "card where you hold the number, or another copy of the same element, is legal too. "
    "Captures are listed once per distinct way, with the lowest-numbered copies."
)

CODES: Mapping[str, Code] = {
    **dd.CODES,  # three worded for this game's turn (same order as in dd.CODES):
    "draw_first": Code.move("The seat must draw its two cards before it plays."),
    "already_drawn": Code.move("The seat has drawn its two cards; it must now play."),
    "empty_deck": Code.move("The draw deck is empty: the second card must be the discard top."),
    "must_capture": Code.move(
        "The seat can capture a compound, so it may not lay runs or discard."
    ),
    "capture_after_run": Code.move(
        "A turn with a run or an extension ends with a discard, not a capture."
    ),
    "short_run": Code.move("A run is at least 3 cards."),
    "run_too_long": Code.move("This table plays runs of exactly 3 cards."),
    "all_wild_run": Code.move("A run needs at least one element card."),
    "not_consecutive": Code.move("The cards are not consecutive atomic numbers, lowest first."),
    "off_the_table": Code.move("A wild card would stand for a number no element has."),
    "no_such_run": Code.move("The run named is not on that seat's board."),
    "not_your_run": Code.move("Only the run's owner may extend it at this table."),
    "no_extending": Code.move("Runs are never extended at this table."),
    "no_wild_there": Code.move("The run has no wild card standing for that card."),
    "bad_compounds": Code.setup(
        "The custom compound list is invalid or does not make a sound deck."
    ),
    **match.CODES,
}


def _player_counts() -> dict[int, dict[str, int]]:
    table = {}
    for players in range(1, 7):
        names = ("covalent",) if players <= dm.ONE_DECK_MAX else DECK_NAMES
        cards = named_table_cards(names, basic=True)
        playing = len(cards.playing_ids())
        table[players] = {
            "expansions": len(names),
            "playing_cards": playing,
            "compounds": len(cards.compound_ids()),
            **dd.deal_counts(playing, players),
        }
    return table


INFO = GameInfo(
    slug="chemistry-canasta",
    title="Chemistry Canasta",
    seed_file="002_9f20549899bb9774.txt",
    source=Source(
        title="Chemistry Canasta",
        publisher=None,
        origin=(
            "One of three games (Chemistry Battle, Compound Capture, Chemistry Canasta) on a web "
            'page titled "Game Rules" that ends with a "Back to blog" link: a blog post. It '
            'names no author or publisher. The game is "Played with Basic Deck of 54 elements and '
            'one or two compound expansion decks".'
        ),
    ),
    min_players=1,
    max_players=6,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=2,
    summary="Capture face-up compounds with their elements (25 points), lay runs of "
    "consecutive atomic numbers such as Mg 12, Al 13, Si 14 (10 a card), claim wild cards "
    "from runs with the element they stand for, and go out; rounds to 250.",
    options=options_of(wire.Options),
    player_counts=_player_counts(),
    codes=CODES,
)


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    players = check_players(INFO, players)
    opts = resolve_options(INFO, options)
    decks = dm.decks_chosen(opts, players, built_in="the built-in expansions", own="your own")
    state = dm.new_state(players, opts, decks, seed)
    state, _ = deal(state, cards_of(state), int(state["match"]["dealer"]), opts["deal"])
    return state


def _seat_view(
    state: State, s: int, seat: int | None, table: Layout, cards: TableCards[wire.Card]
) -> wire.SeatView:
    """Seat ``s`` with its board of runs after its captured compounds and its run points
    after its compound points."""
    shared = dm.seat_view(state, s, seat, table, cards.face, scoring.COMPOUND_POINTS)
    laid = scoring.run_cards(state["runs"], s)
    return {
        "seat": shared["seat"],
        "hand_count": shared["hand_count"],
        "hand": shared["hand"],
        "captured": shared["captured"],
        "runs": [run_view(s, i, r, cards) for i, r in enumerate(state["runs"][s])],
        "compound_points": shared["compound_points"],
        "run_cards": laid,
        "run_points": scoring.RUN_CARD_POINTS * laid,
        "round_points": shared["round_points"],
        "total": shared["total"],
    }


def view(state: State, seat: int | None) -> wire.View:
    """What ``seat`` (``None``: an observer) may see, built as the declared ``View`` (mypy
    checks every member): the draw-two table's piles, seats and match
    (:mod:`rules.draw_discard_match`), with this game's rules after the turn and each
    seat's board of runs."""
    if seat is not None:
        check_seat(state, seat)
    cards = cards_of(state)
    opts = state["options"]
    table = layout(state)
    players = int(state["players"])
    row, compound_pile, draw, discard = dm.piles(state, seat, table, cards.face)
    turn = state["turn"]
    return {
        "game": "chemistry-canasta",
        "players": players,
        "decks": list(state["decks"]),
        "phase": dm.phase(state),
        "turn": None
        if turn is None
        else {
            "seat": turn["seat"],
            "step": turn["step"],
            "drawn": turn["drawn"],
            "took_discard": turn["took_discard"],
            "melded": turn["melded"],
        },
        "runs_rule": opts["runs"],
        "must_capture": opts["must_capture"],
        "reshuffles": {"allowed": opts["reshuffles"], "used": int(state["reshuffled"])},
        "row": row,
        "compound_pile": compound_pile,
        "draw": draw,
        "discard": discard,
        "seats": [_seat_view(state, s, seat, table, cards) for s in range(players)],
        "round_end": state["result"],
        "match": match.view(state["match"]),
        "you": dm.you(state, seat, cards.face),
    }


def _seat_score(state: State, s: int, cards: TableCards[wire.Card]) -> wire.SeatScore:
    """Seat ``s``'s score so far with its run places after its compound points."""
    shared = dm.seat_score(state, s, cards, scoring.COMPOUND_POINTS)
    laid = scoring.run_cards(state["runs"], s)
    return {
        "seat": shared["seat"],
        "compounds": shared["compounds"],
        "compound_points": shared["compound_points"],
        "run_cards": laid,
        "run_points": scoring.RUN_CARD_POINTS * laid,
        "hand_count": shared["hand_count"],
        "elements_in_hand": shared["elements_in_hand"],
        "wilds_in_hand": shared["wilds_in_hand"],
        "penalty": shared["penalty"],
        "round_points": shared["round_points"],
        "total": shared["total"],
    }


def scores(state: State) -> wire.Scores:
    """Compounds and runs of the round so far; the hand penalties once the round is over
    (before then they would tell how many wild cards a hand holds)."""
    cards = cards_of(state)
    return dm.scores(state, [_seat_score(state, s, cards) for s in range(int(state["players"]))])


# ---------------------------------------------------------------- invariants --------
def _run_problems(state: State, cards: TableCards[wire.Card]) -> list[str]:
    problems = []
    zones = state["zones"]
    option = state["options"]["runs"]
    players = int(state["players"])
    for owner, board in enumerate(state["runs"]):
        laid = sorted(int(p["card"]) for run in board for p in run)
        if laid != sorted(zones["runs"][owner]):
            problems.append(f"seat {owner}'s runs and board disagree")
        for index, run in enumerate(board):
            name = f"run {index} of seat {owner}"
            numbers = [int(p["number"]) for p in run]
            if len(run) < rn.MIN_RUN or (option == "three" and len(run) != rn.MIN_RUN):
                problems.append(f"{name} has {len(run)} cards")
            if numbers != list(range(numbers[0], numbers[0] + len(run))) or not (
                numbers[0] >= 1 and numbers[-1] <= MAX_Z
            ):
                problems.append(f"{name} is not a series: {numbers}")
            if all(p["wild"] for p in run):
                problems.append(f"{name} has no element card")
            for p in run:
                face = cards.face(int(p["card"]))
                if p["wild"] != (face["kind"] == "wild") or (
                    not p["wild"] and face.get("z") != p["number"]
                ):
                    problems.append(f"{name}: card {p['card']} is not {p['number']}")
                if not 0 <= int(p["by"]) < players or (option != "anyone" and p["by"] != owner):
                    problems.append(f"{name}: card {p['card']} laid by seat {p['by']}")
    return problems


def invariants(state: State) -> list[str]:
    """Cards in their kind of zone (that each is held once is the layout's check); every
    run a true series matching its board (once the cards are sound); the row full while
    compounds remain; the turn consistent with the phase."""
    cards = cards_of(state)
    zones = state["zones"]
    problems = dd.misplaced(zones, LAYOUT, cards)
    players = int(state["players"])
    if not problems and not LAYOUT.conservation_problems(zones, cards.ids):
        problems += _run_problems(state, cards)
    problems += dd.row_problems(zones)
    if len(zones["hand"]) != players or len(state["runs"]) != players:
        problems.append("seat lists differ in length from the player count")
    if not 0 <= int(state["reshuffled"]) <= int(state["options"]["reshuffles"]):
        problems.append(f"{state['reshuffled']} reshuffles")
    turn = state["turn"]
    if state["result"] is None:
        problem = dd.turn_problem(turn, players)
        if problem:
            problems.append(problem)
        elif int(turn["drawn"]) == 0 and not (
            zones["discard"] and (zones["draw"] or can_reshuffle(state))
        ):
            problems.append("a turn starts with no card to draw from the draw deck")
        elif turn["melded"] and turn["step"] != "play":
            problems.append("a run laid before drawing")
        if any(not hand for hand in zones["hand"]):
            problems.append("a seat has gone out but the round goes on")
    elif turn is not None:
        problems.append("the round is over but a seat has the turn")
    return problems


def deck() -> list[JSON]:
    """Every card: the Basic Deck (ids 1-54) then both expansions (as with decks 'both')."""
    return [dict(f) for f in named_table_cards(DECK_NAMES, basic=True).faces]


WIRE = Wire(
    options=wire.Options,
    moves=ACTIONS.shapes,
    view=wire.View,
    scores=wire.Scores,
    events=(
        *dw.TABLE_EVENTS,
        *dw.card_events(wire.Card),
        *EVENTS,
        wire.RoundEndedEvent,
        *match.EVENTS,
    ),
    card=wire.Card,
    example={
        "players": 2,
        "options": {
            "decks": "covalent",
            "must_capture": False,
            "target": None,
            "deal": {"hands": [["Mg", "Al", "Si", "Tc", "Rh", "wild"], ["Ru"]]},
        },
        "seed": 1,
    },
    move_space=MOVE_SPACE,
)


# The card-conservation check comes from the layout and the moves from the actions; the
# bots' refusal and redeal_hidden are the draw-two table's own (dm.waiting,
# dm.redeal_hidden: compound cards are never resampled into hands).
GAME = GameRules(
    info=INFO,
    wire=WIRE,
    setup=setup,
    to_act=to_act,
    view=view,
    scores=scores,
    outcome=dm.outcome,
    **{**ACTIONS.functions(), "waiting": dm.waiting},
    bots={"greedy": dm.greedy_bot(greedy, cards_of)},
    cards=lambda state: cards_of(state).ids,
    invariants=invariants,
    redeal_hidden=dm.redeal_hidden(layout),
    deck=deck,
    layout=layout,
)

__all__ = ["GAME", "INFO", "WIRE", "cards_of"]
