"""Rounds of the draw-two table played in a match: what Compound Capture and Chemistry
Canasta share above the turn.

:mod:`rules.draw_discard` is the table and the turn; :mod:`rules.match` the rounds to a
target. Both games build the same game module on them, and this module holds that
common part once: the state before the first deal, the move shapes of the shared turn
(``draw``, ``capture``, ``discard``, ``next_round``), the refusals of the match (a move
once the round or the match is over), who acts, the end of a round, the view of the
table and the scores rows, and the bots' dispatch. Each game passes in what it adds: its
title, its own moves, its rules shown in the view, its board and extra points per seat
(Canasta's runs), its greedy bot and its scoring.

The state keys used, beyond those of :mod:`rules.draw_discard`: ``options``, ``decks``,
``match`` (:mod:`rules.match`) and ``result`` (the finished round's scores, else
``None``).

Refusals: ``unknown_move``, ``bad_move``, ``game_over``, ``round_over`` and
:func:`rules.match.verify_next_round`'s codes, ``unknown_bot``, ``not_your_turn``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules import draw_discard as dd
from rules import match
from rules.chemistry.decks.compound import DECK_NAMES, TableCards, custom_deck
from rules.core import JSON, Event, Move, Outcome, RuleViolation, State, check_seat, is_int
from rules.rng import RngState, choice, new_rng
from rules.zones import Layout

__all__ = [
    "BOTS",
    "DECK_CHOICES",
    "MOVE_FIELDS",
    "ONE_DECK_MAX",
    "bot_move",
    "choose",
    "decks_chosen",
    "end_round",
    "move_kind",
    "new_state",
    "outcome",
    "parse_table_move",
    "redeal_hidden",
    "round_over",
    "scores",
    "to_act",
    "verify_match",
    "view",
]

BOTS = ("random", "greedy")
DECK_CHOICES = ("covalent", "ionic", "both")
ONE_DECK_MAX = 3
"""The most players one compound deck serves (Compound Capture's seed); with option
``decks`` null, both games play one deck up to this count and both decks above it."""

MOVE_FIELDS: Mapping[str, frozenset[str]] = {
    "draw": frozenset({"type", "source"}),
    "capture": frozenset({"type", "compound", "cards"}),
    "discard": frozenset({"type", "card"}),
    "next_round": frozenset({"type"}),
}
"""The members of each move of the shared turn and of the match."""

Greedy = Callable[[State, int, Sequence[Move], TableCards], Move]
PerSeat = Callable[[int], JSON]


def _nothing(seat: int) -> JSON:
    return {}


# ---------------------------------------------------------------- setup -------------
def new_state(players: int, opts: Mapping[str, Any], decks: list[str], seed: int) -> State:
    """The state of a new match before its first deal (the dealer is ``match.dealer``:
    the last seat, so that seat 0, left of the dealer, starts the first round)."""
    return {
        "players": players,
        "options": opts,
        "decks": decks,
        "rng": new_rng(seed),
        "match": match.new_match(
            players,
            target=opts["target"],
            dealer=players - 1,
            on_tie=opts["on_tie"],
            max_rounds=opts["max_rounds"],
        ),
    }


def decks_chosen(opts: dict[str, Any], players: int, *, built_in: str, own: str) -> list[str]:
    """The compound decks that options ``decks`` and ``compounds`` choose: ``["custom"]``
    for a teacher's own (``opts["compounds"]`` is normalised in place; the game decides
    how many copies), covalent or both by player count for ``decks`` null, both for
    ``"both"``, else the one named. ``built_in`` and ``own`` name the two kinds in the
    refusal of both options at once."""
    chosen, custom = opts["decks"], opts["compounds"]
    if chosen is not None and chosen not in DECK_CHOICES:
        raise RuleViolation(
            "bad_option", f"decks must be one of {list(DECK_CHOICES)} or null, not {chosen!r}."
        )
    if custom is not None:
        if chosen is not None:
            raise RuleViolation(
                "bad_option",
                f"Give either decks ({built_in}) or compounds ({own}), not both.",
            )
        deck = custom_deck(custom)  # raises bad_compounds
        opts["compounds"] = [
            {"formula": c.formula, "name": c.name, "bonding": c.bonding} for c in deck.compounds
        ]
        return ["custom"]
    if chosen is None:
        return ["covalent"] if players <= ONE_DECK_MAX else list(DECK_NAMES)
    return list(DECK_NAMES) if chosen == "both" else [chosen]


# ---------------------------------------------------------------- moves -------------
def move_kind(move: Mapping[str, Any], fields: Mapping[str, frozenset[str]], title: str) -> str:
    """The ``type`` of ``move``, refusing a type ``title`` does not have (``unknown_move``)
    or a member its type does not have (``bad_move``). ``fields``: every type's members."""
    kind = move.get("type") if isinstance(move, Mapping) else None
    if not isinstance(kind, str) or kind not in fields:
        raise RuleViolation(
            "unknown_move",
            f"{kind!r} is not a move of {title}; use one of {sorted(fields)}.",
            known=sorted(fields),
        )
    extra = set(move) - fields[kind]
    if extra:
        raise RuleViolation(
            "bad_move", f"A {kind!r} move has only {sorted(fields[kind])}; remove {extra}."
        )
    return kind


def parse_table_move(kind: str, move: Mapping[str, Any]) -> Move:
    """A move of :data:`MOVE_FIELDS` (its members checked by :func:`move_kind`), with
    each value checked for its shape."""
    if kind == "draw":
        if move.get("source") not in ("deck", "discard"):
            raise RuleViolation(
                "bad_move", "A draw names its source: 'deck' (the draw deck) or 'discard'."
            )
        return {"type": "draw", "source": move["source"]}
    if kind == "capture":
        cards = move.get("cards")
        if (
            not is_int(move.get("compound"))
            or not isinstance(cards, list)
            or not 1 <= len(cards) <= 60
            or not all(is_int(c) for c in cards)
        ):
            raise RuleViolation(
                "bad_move",
                "A capture names the face-up compound card ('compound': its id) and the cards "
                "you play ('cards': a list of 1 or more card ids from your hand).",
            )
        return {"type": "capture", "compound": move["compound"], "cards": list(cards)}
    if kind == "discard":
        if not is_int(move.get("card")):
            raise RuleViolation("bad_move", "A discard names one card id of your hand: 'card'.")
        return {"type": "discard", "card": move["card"]}
    return {"type": "next_round"}


# ---------------------------------------------------------------- the round ---------
def round_over(state: State) -> bool:
    return state["result"] is not None


def verify_match(state: State, seat: int, move: Move) -> None:
    """Refuse what the match forbids: a ``next_round`` move out of its time or by another
    seat than the next dealer (:func:`rules.match.verify_next_round`), and any other move
    once the match or the round is over."""
    check_seat(state, seat)
    if move["type"] == "next_round":
        match.verify_next_round(state["match"], round_over(state), seat)
        return
    if state["match"]["over"]:
        raise RuleViolation("game_over", "The match is over; no more moves are accepted.")
    if round_over(state):
        dealer = match.next_round_seat(state["match"])
        raise RuleViolation(
            "round_over",
            f"The round is over: seat {dealer}, the next dealer, deals the next round.",
            dealer=dealer,
        )


def to_act(state: State) -> list[int]:
    """The seat whose turn it is; between rounds the next dealer; nobody once the match
    is over."""
    if state["match"]["over"]:
        return []
    if round_over(state):
        return [match.next_round_seat(state["match"])]
    return [int(state["turn"]["seat"])]


def end_round(state: State, result: JSON, events: list[Event]) -> tuple[State, list[Event]]:
    """End the round with ``result`` (its ``seats``' ``points`` go to the match): no seat
    has the turn; events ``round_ended`` and the match's own (:func:`rules.match.end_round`)
    are added to ``events``."""
    m, more = match.end_round(state["match"], [s["points"] for s in result["seats"]])
    new = {**state, "turn": None, "result": result, "match": m}
    events.append({"type": "round_ended", "round": m["round"], **result})
    events.extend(more)
    return new, events


def outcome(state: State) -> Outcome:
    return match.outcome(state["match"])


def redeal_hidden(state: State, seat: int | None, seed: int) -> State:
    """``state`` with every card ``seat`` cannot see resampled (element and wild cards
    among the draw deck and the other hands, compound cards within the compound pile)."""
    zones, rng = dd.redeal_hidden(state["zones"], seat, new_rng(seed))
    return {**state, "zones": zones, "rng": rng}


# ---------------------------------------------------------------- views -------------
def view(
    state: State,
    seat: int | None,
    *,
    slug: str,
    table: Layout,
    cards: TableCards,
    compound_points: int,
    rules: JSON,
    board: PerSeat = _nothing,
    points: PerSeat = _nothing,
) -> JSON:
    """What ``seat`` (``None``: an observer) sees of the table: the piles (faces only
    where it may see them), every seat's hand count, captured compounds and points, the
    round's end, the match, and its own hand. ``rules`` (the game's options and counters
    a player should know) follows the turn; ``board(s)`` (a game's own cards on seat
    ``s``'s side of the table) follows its captured compounds, ``points(s)`` (its other
    points) its compound points, ``compound_points`` each."""
    if seat is not None:
        check_seat(state, seat)
    show = cards.face
    zones = state["zones"]
    players = int(state["players"])
    result = state["result"]
    m = state["match"]
    discard = table.pile_view(zones, ("discard", None), seat, show)
    discard["top"] = show(zones["discard"][-1]) if zones["discard"] else None
    seats = []
    for s in range(players):
        seats.append(
            {
                "seat": s,
                "hand_count": len(zones["hand"][s]),
                "captured": table.pile_view(zones, ("captured", s), seat, show),
                **board(s),
                "compound_points": compound_points * len(zones["captured"][s]),
                **points(s),
                "round_points": result["seats"][s]["points"] if result else None,
                "total": m["totals"][s],
            }
        )
    out: JSON = {
        "game": slug,
        "players": players,
        "decks": list(state["decks"]),
        "phase": "match_over" if m["over"] else "round_over" if result else "play",
        "turn": dict(state["turn"]) if state["turn"] else None,
        **rules,
        "row": table.pile_view(zones, ("row", None), seat, show),
        "compound_pile": table.pile_view(zones, ("compounds", None), seat, show),
        "draw": table.pile_view(zones, ("draw", None), seat, show),
        "discard": discard,
        "seats": seats,
        "round_end": result,
        "match": match.view(m),
        "you": None,
    }
    if seat is not None:
        out["you"] = {"seat": seat, "hand": [show(c) for c in zones["hand"][seat]]}
    return out


def scores(
    state: State, cards: TableCards, compound_points: int, points: PerSeat = _nothing
) -> JSON:
    """Each seat's captured compounds (``compound_points`` each) and ``points(s)`` (a
    game's other points) of the round so far; the hand penalties only once the round is
    over (before then they would tell what a hand holds); the match's rounds."""
    zones = state["zones"]
    result = state["result"]
    m = state["match"]
    seats = []
    for s in range(int(state["players"])):
        captured = zones["captured"][s]
        row: JSON = {
            "seat": s,
            "compounds": [str(cards.face(c)["formula"]) for c in captured],
            "compound_points": compound_points * len(captured),
            **points(s),
            "hand_count": len(zones["hand"][s]),
            "elements_in_hand": None,
            "wilds_in_hand": None,
            "penalty": None,
            "round_points": None,
            "total": m["totals"][s],
        }
        if result:
            done = result["seats"][s]
            row.update(
                elements_in_hand=done["elements_in_hand"],
                wilds_in_hand=done["wilds_in_hand"],
                penalty=done["penalty"],
                round_points=done["points"],
            )
        seats.append(row)
    return {
        "round": m["round"],
        "round_over": result is not None,
        "final": bool(m["over"]),
        "seats": seats,
        "rounds": [dict(r) for r in m["rounds"]],
    }


# ---------------------------------------------------------------- bots --------------
def choose(
    state: State,
    seat: int,
    bot: str,
    legal: Sequence[Move],
    cards: TableCards,
    greedy: Greedy,
) -> tuple[Move, RngState]:
    """The move ``bot`` makes for ``seat`` among ``legal``, and the advanced generator:
    ``random`` picks uniformly (with the game's seeded generator), ``greedy`` is the
    game's own."""
    rng: RngState = state["rng"]
    if bot == "random":
        rng, move = choice(rng, list(legal))
        return move, rng
    if bot == "greedy":
        return greedy(state, seat, legal, cards), rng
    raise RuleViolation("unknown_bot", f"There is no bot {bot!r}; choose one of {list(BOTS)}.")


def bot_move(
    state: State,
    seat: int,
    bot: str,
    legal_moves: Callable[[State, int], list[Move]],
    cards: TableCards,
    greedy: Greedy,
) -> tuple[Move, State]:
    """The move ``bot`` (:data:`BOTS`) makes for ``seat``, and the state with the
    generator it advanced; refused for a seat that has no move now."""
    if bot not in BOTS:
        raise RuleViolation("unknown_bot", f"There is no bot {bot!r}; choose random or greedy.")
    legal = legal_moves(state, seat)
    if not legal:
        check_seat(state, seat)
        if state["match"]["over"]:
            raise RuleViolation("game_over", "The match is over; no more moves are accepted.")
        raise RuleViolation(
            "not_your_turn", f"Seat {to_act(state)[0]} is to act, not seat {seat}.", seat=seat
        )
    move, rng = choose(state, seat, bot, legal, cards, greedy)
    return move, {**state, "rng": rng}
