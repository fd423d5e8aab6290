"""Compound Capture: draw two, capture a face-up compound with its elements, or discard.

The table and the turn are :mod:`rules.draw_discard`, and the round in its match (views,
scores, the match's refusals) :mod:`rules.draw_discard_match`, both shared with
Chemistry Canasta; the shapes are :mod:`.wire`; the decks are
:mod:`rules.chemistry.decks.compound`; rounds are played to 250 with :mod:`rules.match`.
This module adds the rules of the round: one deck serves 1-3 players, a capture is
compulsory when one is possible (option ``must_capture``), the round ends when every
compound is captured or after a lap of turns with no capture (or when the draw deck runs
out, with ``deck_out: "end_round"``), and the scoring of :mod:`.scoring`. Each move type
(``draw``, ``capture``, ``discard``, ``next_round``) sits in one section below.

>>> state = GAME.setup(2, {"target": None}, seed=3)
>>> GAME.to_act(state), len(state["zones"]["row"]), [len(h) for h in state["zones"]["hand"]]
([0], 6, [7, 7])
>>> state, events = GAME.apply(state, 0, {"type": "draw", "source": "deck"})
>>> [e["type"] for e in events], state["turn"]["step"]
(['card_drawn'], 'draw')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from rules import draw_discard as dd
from rules import draw_discard_match as dm
from rules import draw_discard_wire as dw
from rules import match
from rules.actions import Action, Actions
from rules.chemistry.decks.compound import (
    DECK_NAMES,
    CompoundDeck,
    TableCards,
    compound_deck,
    custom_deck_of,
    custom_key,
    named_table_cards,
    table_cards,
)
from rules.core import (
    JSON,
    Code,
    Dynamics,
    Event,
    GameInfo,
    GameRules,
    Move,
    RuleViolation,
    Source,
    State,
    check_players,
    check_seat,
    left_of,
    options_of,
    resolve_options,
)
from rules.wire import Wire
from rules.zones import emitted

from . import scoring, wire
from .bots import greedy
from .wire import SEED_PLAYERS

LAYOUT = dd.layout()
"""The table while a round is being played."""
layout = dm.round_layout(LAYOUT)
"""The table of a state: the hands are shown once the round is over."""

ONE_DECK_MAX = dm.ONE_DECK_MAX

CODES: Mapping[str, Code] = {
    **dd.CODES,
    "must_capture": Code.move("The seat can capture a compound, so it may not discard."),
    "bad_compounds": Code.setup(
        "The custom compound list is invalid or does not make a sound deck."
    ),
    **match.CODES,
}


def _player_counts() -> dict[int, dict[str, int]]:
    table = {}
    for players in range(1, 7):
        decks = 1 if players <= ONE_DECK_MAX else 2
        playing = decks * compound_deck("covalent").playing_cards
        table[players] = {"decks": decks, **dd.deal_counts(playing, players)}
    return table


INFO = GameInfo(
    slug="compound-capture",
    title="Compound Capture",
    seed_file="002_9f20549899bb9774.txt",
    source=Source(
        title="Compound Capture",
        publisher=None,
        origin=(
            "One of three games (Chemistry Battle, Compound Capture, Chemistry Canasta) on a web "
            'page titled "Game Rules" that ends with a "Back to blog" link: a blog post. It '
            'names no author or publisher. The game requires a "Covalent Compound Deck and/or '
            'Ionic Compound Deck".'
        ),
    ),
    min_players=1,
    max_players=6,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=2,
    summary="Draw element and wild cards, capture face-up compounds by playing exactly their "
    "elements (CO2: one C, two O), 25 points each; rounds to 250.",
    options=options_of(wire.Options),
    player_counts=_player_counts(),
    codes=CODES,
)


# ---------------------------------------------------------------- the cards ---------
def decks_of(state: State) -> list[CompoundDeck]:
    """The compound decks in play, in card-id order."""
    out = []
    for name in state["decks"]:
        if name == "custom":
            out.append(custom_deck_of(custom_key(state["options"]["compounds"])))
        else:
            out.append(compound_deck(name))
    return out


def cards_of(state: State) -> TableCards[wire.Card]:
    """The physical cards of this game (ids from 1); memoised, as every move needs them."""
    names = tuple(state["decks"])
    custom = custom_key(state["options"]["compounds"]) if "custom" in names else ()
    # Without the Basic Deck no card's deck is "basic": each is one of this game's decks,
    # the narrower deck its declared Card names (a fact of the numbering mypy cannot see).
    return cast("TableCards[wire.Card]", named_table_cards(names, custom))


def _choose_decks(players: int, opts: dict[str, Any]) -> list[str]:
    decks = dm.decks_chosen(opts, players, built_in="the built-in decks", own="your own deck")
    if decks == ["custom"]:  # a copy of it for each deck that more players need
        return decks * (1 if players <= ONE_DECK_MAX else 2)
    if len(decks) == 1 and players > ONE_DECK_MAX:
        raise RuleViolation(
            "bad_option",
            f"One deck serves 1-{ONE_DECK_MAX} players; with {players} players use decks: 'both'.",
            rule=SEED_PLAYERS,
        )
    return decks


# ---------------------------------------------------------------- setup -------------
def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    players = check_players(INFO, players)
    opts = resolve_options(INFO, options)
    decks = _choose_decks(players, opts)
    state = {**dm.new_state(players, opts, decks, seed), "quiet": 0, "result": None}
    dealer = int(state["match"]["dealer"])
    state, _ = dd.deal(
        state, cards_of(state), dealer, LAYOUT, opts["deal"], round_no=state["match"]["round"]
    )
    return state


# ---------------------------------------------------------------- moves -------------
round_over = dm.round_over
to_act = dm.to_act


def _playing(state: State, seat: int) -> bool:
    """Whether it is ``seat``'s play step (a capture or a discard may be worth trying)."""
    turn = state["turn"]
    return turn is not None and turn["seat"] == seat and turn["step"] == "play"


# draw: two cards a turn, from the draw deck or (once) the top of the discard pile
def verify_draw(state: State, seat: int, move: Move) -> None:
    dd.verify_draw(state, seat, move["source"], state["options"]["deck_out"])


def draws(state: State, seat: int) -> list[Move]:
    return [{"type": "draw", "source": s} for s in ("deck", "discard")]


def draw(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    deck_out = state["options"]["deck_out"]
    return dd.apply_draw(state, seat, move["source"], cards_of(state), LAYOUT, deck_out)


# capture: a face-up compound with exactly its elements; it ends the turn
def verify_capture(state: State, seat: int, move: Move) -> None:
    dd.verify_capture(state, seat, move["compound"], move["cards"], cards_of(state))


def captures(state: State, seat: int) -> list[Move]:
    return dd.capture_moves(state, seat, cards_of(state)) if _playing(state, seat) else []


def capture(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    cards = cards_of(state)
    new, events = dd.apply_capture(
        state, seat, move["compound"], move["cards"], cards, LAYOUT, scoring.COMPOUND_POINTS
    )
    return _end_turn(new, seat, events, cards, captured=True)


# discard: a card of the hand, when no capture is due; it ends the turn
def _must_capture(state: State, seat: int, cards: TableCards[wire.Card]) -> bool:
    return bool(state["options"]["must_capture"]) and dd.can_capture(state, seat, cards)


def verify_discard(state: State, seat: int, move: Move) -> None:
    cards = cards_of(state)
    dd.verify_discard(state, seat, move["card"], cards)
    if _must_capture(state, seat, cards):
        raise RuleViolation(
            "must_capture",
            "You can capture a face-up compound with your cards, so you must capture it "
            "instead of discarding (see your legal moves).",
            rule=dd.SEED_DISCARD,
        )


def discards(state: State, seat: int) -> list[Move]:
    if not _playing(state, seat) or _must_capture(state, seat, cards_of(state)):
        return []
    return [{"type": "discard", "card": c} for c in state["zones"]["hand"][seat]]


def discard(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    cards = cards_of(state)
    new, events = dd.apply_discard(state, seat, move["card"], cards, LAYOUT)
    return _end_turn(new, seat, events, cards, captured=False)


# next_round: the next dealer deals again once a round is over
def next_round(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    m = match.next_round(state["match"])
    new = {**state, "match": m, "quiet": 0, "result": None}
    return dd.deal(new, cards_of(state), int(m["dealer"]), LAYOUT, round_no=m["round"])


ACTIONS = Actions(
    (
        Action(dw.DrawMove, dm.in_round(verify_draw), draw, draws),
        Action(dw.CaptureMove, dm.in_round(verify_capture), capture, captures),
        Action(dw.DiscardMove, dm.in_round(verify_discard), discard, discards),
        Action(match.NextRoundMove, dm.verify_next_round, next_round, dm.next_rounds),
    )
)
"""The move types in the order their legal moves are listed (the random bot draws from
that list): the draws, the captures, the discards; the next round between rounds."""


def _end_reason(state: State) -> scoring.RoundEnd | None:
    zones = state["zones"]
    if not zones["row"] and not zones["compounds"]:
        return "all_captured"
    if int(state["quiet"]) >= int(state["players"]):
        return "quiet_lap"
    if dd.deck_ran_out(state, state["options"]["deck_out"]):
        return "deck_empty"
    return None


def _end_turn(
    state: State, seat: int, events: list[Event], cards: TableCards[wire.Card], *, captured: bool
) -> tuple[State, list[Event]]:
    new = {**state, "quiet": 0 if captured else int(state["quiet"]) + 1}
    reason = _end_reason(new)
    if reason is None:
        nxt = left_of(seat, int(state["players"]))
        new["turn"] = dd.new_turn(nxt)
        started: dw.TurnStartedEvent = {"type": "turn_started", "seat": nxt}
        events.append(emitted(started))
        return new, events
    result = scoring.round_result(new["zones"], cards, reason)
    ended: wire.RoundEndedEvent = {
        "type": "round_ended",
        "round": new["match"]["round"],
        "reason": result["reason"],
        "seats": result["seats"],
        "winners": result["winners"],
    }
    return dm.end_round(new, result, ended, events)


# ---------------------------------------------------------------- views -------------
def view(state: State, seat: int | None) -> wire.View:
    """What ``seat`` (``None``: an observer) may see, built as the declared ``View`` (mypy
    checks every member): the draw-two table's piles, seats and match
    (:mod:`rules.draw_discard_match`), with this game's rules after the turn."""
    if seat is not None:
        check_seat(state, seat)
    opts = state["options"]
    show = cards_of(state).face
    table = layout(state)
    players = int(state["players"])
    row, compound_pile, draw, discard = dm.piles(state, seat, table, show)
    turn = state["turn"]
    return {
        "game": "compound-capture",
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
        },
        "quiet_turns": int(state["quiet"]),
        "lap": players,
        "deck_out": opts["deck_out"],
        "must_capture": opts["must_capture"],
        "row": row,
        "compound_pile": compound_pile,
        "draw": draw,
        "discard": discard,
        "seats": [
            dm.seat_view(state, s, seat, table, show, scoring.COMPOUND_POINTS)
            for s in range(players)
        ],
        "round_end": state["result"],
        "match": match.view(state["match"]),
        "you": dm.you(state, seat, show),
    }


def scores(state: State) -> dw.Scores[dw.SeatScore]:
    """Captured compounds of the round so far; the penalties once the round is over
    (before then they would tell which cards are in a hand)."""
    cards = cards_of(state)
    return dm.scores(
        state,
        [
            dm.seat_score(state, s, cards, scoring.COMPOUND_POINTS)
            for s in range(int(state["players"]))
        ],
    )


# ---------------------------------------------------------------- invariants --------
def invariants(state: State) -> list[str]:
    """Cards in their kind of zone (that each is held once is the layout's check); the
    row full while compounds remain; the turn record consistent with the phase."""
    zones = state["zones"]
    problems = dd.misplaced(zones, LAYOUT, cards_of(state))
    players = int(state["players"])
    problems += dd.row_problems(zones)
    if len(zones["hand"]) != players or len(state["match"]["totals"]) != players:
        problems.append("seat lists differ in length from the player count")
    turn = state["turn"]
    if state["result"] is None:
        if turn is not None and int(turn["drawn"]) == 0 and not zones["discard"]:
            problems.append("a turn starts with an empty discard pile")
        problem = dd.turn_problem(turn, players)
        if problem:
            problems.append(problem)
        if not 0 <= int(state["quiet"]) < players:
            problems.append(f"{state['quiet']} quiet turns in a round still being played")
    elif turn is not None:
        problems.append("the round is over but a seat has the turn")
    return problems


def deck() -> list[JSON]:
    """Every card of both built-in decks (ids as in a game with decks: 'both')."""
    return [dict(f) for f in table_cards([compound_deck(n) for n in DECK_NAMES]).faces]


WIRE = Wire(
    options=wire.Options,
    moves=ACTIONS.shapes,
    view=wire.View,
    scores=wire.Scores,
    events=(
        *dw.TABLE_EVENTS,
        *dw.card_events(wire.Card),
        dw.DrawEndedEvent,
        wire.RoundEndedEvent,
        *match.EVENTS,
    ),
    card=wire.Card,
    example={
        "players": 2,
        "options": {
            "decks": "covalent",
            "target": None,
            "deal": {"hands": [["C", "O", "O"], ["H", "H", "wild"]], "row": ["CO2", "H2O"]},
        },
        "seed": 1,
    },
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

__all__ = ["GAME", "INFO"]
