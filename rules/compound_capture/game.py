"""Compound Capture: draw two, capture a face-up compound with its elements, or discard.

The table and the turn are :mod:`rules.draw_discard`, and the round in its match (move
shapes, deck options, views, scores, bots' dispatch) :mod:`rules.draw_discard_match`,
both shared with Chemistry Canasta; the decks are :mod:`rules.chemistry.decks.compound`;
rounds are played to 250 with :mod:`rules.match`. This module adds the rules of the
round: one deck serves 1-3 players, a capture is compulsory when one is possible
(option ``must_capture``), the round ends when every compound is captured or after a
lap of turns with no capture (or when the draw deck runs out, with ``deck_out:
"end_round"``), and the scoring of :mod:`.scoring`.

>>> state = GAME.setup(2, {"target": None}, seed=3)
>>> GAME.to_act(state), len(state["zones"]["row"]), [len(h) for h in state["zones"]["hand"]]
([0], 6, [7, 7])
>>> state, events = GAME.apply(state, 0, {"type": "draw", "source": "deck"})
>>> [e["type"] for e in events], state["turn"]["step"]
(['card_drawn'], 'draw')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import draw_discard as dd
from rules import draw_discard_match as dm
from rules import match
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
    Dynamics,
    Event,
    GameInfo,
    GameRules,
    Move,
    Option,
    RuleViolation,
    State,
    check_players,
    check_seat,
    left_of,
    resolve_options,
)

from . import scoring
from .bots import greedy

SEED_PLAYERS = "1 - 3 players use one deck;1 - 6 players use two decks"
SEED_MATCH = "Multiple rounds can be played until one player reaches 250 points."

LAYOUT = dd.layout()

ONE_DECK_MAX = dm.ONE_DECK_MAX

CODES: Mapping[str, str] = {
    **dd.CODES,
    "must_capture": "The seat can capture a compound, so it may not discard.",
    "bad_compounds": "The custom compound list is invalid or does not make a sound deck.",
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
    min_players=1,
    max_players=6,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=1,
    summary="Draw element and wild cards, capture face-up compounds by playing exactly their "
    "elements (CO2: one C, two O), 25 points each; rounds to 250.",
    options=(
        Option(
            "decks",
            "str | null",
            None,
            "Which compound deck(s): 'covalent', 'ionic' or 'both'. One deck serves 1-3 "
            "players, both serve 1-6. null: the Covalent deck for 1-3 players, both decks "
            f'for 4-6. Seed: "{SEED_PLAYERS}"',
            choices=(None, *dm.DECK_CHOICES),
        ),
        Option(
            "compounds",
            "list[object] | null",
            None,
            "A teacher's own deck instead of the built-in ones: 6-20 compounds, each "
            '{"formula": "CO2", "name": "Carbon dioxide", "bonding": "covalent"} (name and '
            "bonding optional; at most 9 atoms). Six wild cards and element cards complete "
            "it to 54 cards; two copies are used for 4-6 players.",
        ),
        Option(
            "deck_out",
            "str",
            "reshuffle",
            "When the draw deck runs out: 'reshuffle' the discard pile (all but its top card) "
            "into a new draw deck, or 'end_round' after the turn that empties it.",
            choices=dd.DECK_OUT,
        ),
        Option(
            "must_capture",
            "bool",
            True,
            "A seat that can capture a compound must (the seed: 'If the player cannot "
            "capture a card, they must discard'); false lets it discard instead.",
        ),
        match.target_option(250, SEED_MATCH),
        match.on_tie_option("share"),
        match.max_rounds_option(
            30,
            "A round can end before anyone captures, with every seat at zero or below, so "
            "without a limit a match need not end.",
        ),
        Option(
            "deal",
            "object | null",
            None,
            'Fix cards of the first round, for lessons and tests: {"hands": [["C", "O", '
            '"wild"], ...] (one list per seat, at most 7 names: element symbols or "wild"), '
            '"row": ["CO2", ...] (at most 6 formulas), "discard": "H"}; every part optional, '
            "the rest dealt at random.",
        ),
    ),
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


def cards_of(state: State) -> TableCards:
    """The physical cards of this game (ids from 1); memoised, as every move needs them."""
    names = tuple(state["decks"])
    custom = custom_key(state["options"]["compounds"]) if "custom" in names else ()
    return named_table_cards(names, custom)


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
    match.check_options(opts["target"], opts["on_tie"], opts["max_rounds"])
    if opts["deck_out"] not in dd.DECK_OUT:
        raise RuleViolation(
            "bad_option", f"deck_out must be one of {list(dd.DECK_OUT)}, not {opts['deck_out']!r}."
        )
    if not isinstance(opts["must_capture"], bool):
        raise RuleViolation("bad_option", "must_capture must be true or false.")
    dd.check_deal_spec(opts["deal"])
    decks = _choose_decks(players, opts)
    state = {**dm.new_state(players, opts, decks, seed), "quiet": 0, "result": None}
    dealer = int(state["match"]["dealer"])
    state, _ = dd.deal(state, cards_of(state), dealer, LAYOUT, opts["deal"])
    return state


# ---------------------------------------------------------------- moves -------------
def parse_move(move: Mapping[str, Any]) -> Move:
    """A move of the shared turn (:data:`rules.draw_discard_match.MOVE_FIELDS`)."""
    return dm.parse_table_move(dm.move_kind(move, dm.MOVE_FIELDS, INFO.title), move)


round_over = dm.round_over
to_act = dm.to_act


def _can_capture(state: State, seat: int, cards: TableCards) -> bool:
    return bool(dd.capture_moves(state, seat, cards))


def _verify(state: State, seat: int, move: Move, cards: TableCards) -> list[JSON] | None:
    """Raise what forbids ``move``; return a capture's parts."""
    dm.verify_match(state, seat, move)
    if move["type"] == "next_round":
        return None
    deck_out = state["options"]["deck_out"]
    if move["type"] == "draw":
        dd.verify_draw(state, seat, move["source"], deck_out)
        return None
    if move["type"] == "capture":
        return dd.verify_capture(state, seat, move["compound"], move["cards"], cards)
    dd.verify_discard(state, seat, move["card"], cards)
    if state["options"]["must_capture"] and _can_capture(state, seat, cards):
        raise RuleViolation(
            "must_capture",
            "You can capture a face-up compound with your cards, so you must capture it "
            "instead of discarding (see your legal moves).",
            rule=dd.SEED_DISCARD,
        )
    return None


def verify(state: State, seat: int, move: Move) -> None:
    _verify(state, seat, move, cards_of(state))


def legal_moves(state: State, seat: int) -> list[Move]:
    check_seat(state, seat)
    if seat not in to_act(state):
        return []
    if round_over(state):
        options: list[Move] = [{"type": "next_round"}]
    elif state["turn"]["step"] == "draw":
        options = [{"type": "draw", "source": s} for s in ("deck", "discard")]
    else:
        cards = cards_of(state)
        captures = dd.capture_moves(state, seat, cards)
        options = list(captures)
        if not (captures and state["options"]["must_capture"]):
            options += [{"type": "discard", "card": c} for c in state["zones"]["hand"][seat]]
    return [m for m in options if GAME.can(state, seat, m)]


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    move = parse_move(move)
    cards = cards_of(state)
    parts = _verify(state, seat, move, cards)
    kind = move["type"]
    if kind == "next_round":
        return _next_round(state, cards)
    if kind == "draw":
        return dd.apply_draw(
            state, seat, move["source"], cards, LAYOUT, state["options"]["deck_out"]
        )
    if kind == "capture":
        assert parts is not None
        new, events = dd.apply_capture(
            state, seat, move["compound"], move["cards"], cards, LAYOUT, parts
        )
        events[0]["points"] = scoring.COMPOUND_POINTS
        return _end_turn(new, seat, events, cards, captured=True)
    new, events = dd.apply_discard(state, seat, move["card"], cards, LAYOUT)
    return _end_turn(new, seat, events, cards, captured=False)


def _end_reason(state: State) -> str | None:
    zones = state["zones"]
    if not zones["row"] and not zones["compounds"]:
        return "all_captured"
    if int(state["quiet"]) >= int(state["players"]):
        return "quiet_lap"
    if dd.deck_ran_out(state, state["options"]["deck_out"]):
        return "deck_empty"
    return None


def _end_turn(
    state: State, seat: int, events: list[Event], cards: TableCards, *, captured: bool
) -> tuple[State, list[Event]]:
    new = {**state, "quiet": 0 if captured else int(state["quiet"]) + 1}
    reason = _end_reason(new)
    if reason is None:
        nxt = left_of(seat, int(state["players"]))
        new["turn"] = dd.new_turn(nxt)
        events.append({"type": "turn_started", "seat": nxt})
        return new, events
    return dm.end_round(new, scoring.round_result(new["zones"], cards, reason), events)


def _next_round(state: State, cards: TableCards) -> tuple[State, list[Event]]:
    m = match.next_round(state["match"])
    new = {**state, "match": m, "quiet": 0, "result": None}
    new, events = dd.deal(new, cards, int(m["dealer"]), LAYOUT)
    events[0]["round"] = m["round"]
    return new, events


# ---------------------------------------------------------------- views -------------
def view(state: State, seat: int | None) -> JSON:
    opts = state["options"]
    rules = {
        "quiet_turns": int(state["quiet"]),
        "lap": int(state["players"]),
        "deck_out": opts["deck_out"],
        "must_capture": opts["must_capture"],
    }
    return dm.view(
        state,
        seat,
        slug=INFO.slug,
        table=LAYOUT,
        cards=cards_of(state),
        compound_points=scoring.COMPOUND_POINTS,
        rules=rules,
    )


def scores(state: State) -> JSON:
    """Captured compounds of the round so far; the penalties once the round is over
    (before then they would tell which cards are in a hand)."""
    return dm.scores(state, cards_of(state), scoring.COMPOUND_POINTS)


def bot_move(state: State, seat: int, bot: str) -> tuple[Move, State]:
    return dm.bot_move(state, seat, bot, legal_moves, cards_of(state), greedy)


# ---------------------------------------------------------------- invariants --------
def check(state: State) -> None:
    """Cards conserved and in their kind of zone; the row full while compounds remain;
    the turn record consistent with the phase."""
    zones = state["zones"]
    problems = dd.card_problems(zones, LAYOUT, cards_of(state))
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
    if problems:
        raise RuleViolation("state_invalid", "; ".join(problems))


def deck() -> list[JSON]:
    """Every card of both built-in decks (ids as in a game with decks: 'both')."""
    return [dict(f) for f in table_cards([compound_deck(n) for n in DECK_NAMES]).faces]


GAME = GameRules(
    info=INFO,
    setup=setup,
    parse_move=parse_move,
    verify=verify,
    to_act=to_act,
    legal_moves=legal_moves,
    apply=apply,
    view=view,
    scores=scores,
    outcome=dm.outcome,
    bot_move=bot_move,
    check=check,
    redeal_hidden=dm.redeal_hidden,
    deck=deck,
    layout=LAYOUT,
)

__all__ = ["GAME", "INFO"]
