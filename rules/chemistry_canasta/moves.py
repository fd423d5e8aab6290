"""The moves of Chemistry Canasta: parsing, verifying, listing and applying them.

A turn: two ``draw`` moves (:mod:`rules.draw_discard`); then, in the ``play`` step, any
number of ``claim`` moves, and either one ``capture`` (which ends the turn) or any
number of ``run`` and ``extend`` moves followed by a ``discard``. A seat whose hand
empties goes out and ends the round. Legality lives in :func:`_verify` only; the
listing (:func:`legal_moves`) and the applying (:func:`apply`) reuse it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import draw_discard as dd
from rules import draw_discard_match as dm
from rules import match
from rules.chemistry.decks.compound import TableCards
from rules.core import JSON, Event, Move, RuleViolation, State, check_seat, is_int, left_of

from . import runs as rn
from . import scoring
from .table import DECK_OUT, LAYOUT, cards_of, deal, new_turn, position_view

SEED_DISCARD = (
    "If the player cannot capture a compound. i.e if they can only make a run or have no play "
    "they must discard a card to the discard pile."
)

MOVE_FIELDS: Mapping[str, frozenset[str]] = {
    **dm.MOVE_FIELDS,
    "run": frozenset({"type", "cards"}),
    "extend": frozenset({"type", "owner", "run", "end", "cards"}),
    "claim": frozenset({"type", "owner", "run", "card"}),
}


def _card_list(move: Mapping[str, Any]) -> list[int] | None:
    cards = move.get("cards")
    if isinstance(cards, list) and 1 <= len(cards) <= 60 and all(is_int(c) for c in cards):
        return list(cards)
    return None


def parse_move(move: Mapping[str, Any]) -> Move:
    """A move of the shared turn (:func:`rules.draw_discard_match.parse_table_move`), or
    a ``run``, ``extend`` or ``claim``."""
    kind = dm.move_kind(move, MOVE_FIELDS, "Chemistry Canasta")
    if kind in dm.MOVE_FIELDS:
        return dm.parse_table_move(kind, move)
    cards = _card_list(move)
    if kind == "run":
        if cards is None:
            raise RuleViolation(
                "bad_move",
                "A run lists the cards you lay ('cards': card ids from your hand, lowest "
                "atomic number first, wild cards where they stand).",
            )
        return {"type": "run", "cards": cards}
    # an extend or a claim: both name a run
    if not is_int(move.get("owner")) or not is_int(move.get("run")):
        raise RuleViolation(
            "bad_move",
            f"A{'n' if kind == 'extend' else ''} {kind} names the run: 'owner' (the seat "
            "whose board it is on) and 'run' (its number on that board, from 0).",
        )
    target = {"owner": move["owner"], "run": move["run"]}
    if kind == "claim":
        if not is_int(move.get("card")):
            raise RuleViolation(
                "bad_move",
                "A claim names the element card of your hand ('card') that takes the wild "
                "card's place.",
            )
        return {"type": "claim", **target, "card": move["card"]}
    if move.get("end") not in ("low", "high") or cards is None:
        raise RuleViolation(
            "bad_move",
            "An extend names the end ('end': 'low' or 'high') and the cards you add "
            "('cards': card ids from your hand, lowest atomic number first).",
        )
    return {"type": "extend", **target, "end": move["end"], "cards": cards}


round_over = dm.round_over
to_act = dm.to_act


def _hand(state: State, seat: int, cards: TableCards) -> list[JSON]:
    return [cards.face(c) for c in state["zones"]["hand"][seat]]


def _can_capture(state: State, seat: int, cards: TableCards) -> bool:
    return bool(dd.capture_moves(state, seat, cards))


def _run_of(state: State, owner: int, index: int) -> list[JSON]:
    players = int(state["players"])
    if not 0 <= owner < players or not 0 <= index < len(state["runs"][owner]):
        have = (
            f"seat {owner} has {len(state['runs'][owner])} run(s), numbered from 0"
            if 0 <= owner < players
            else f"seats are numbered 0 to {players - 1}"
        )
        raise RuleViolation(
            "no_such_run", f"There is no run {index} on seat {owner}'s board: {have}."
        )
    run: list[JSON] = state["runs"][owner][index]
    return run


def _span(run: Sequence[Mapping[str, Any]]) -> str:
    return f"{rn.label(int(run[0]['number']))} to {rn.label(int(run[-1]['number']))}"


def _verify_claim(state: State, seat: int, move: Move, cards: TableCards) -> int:
    dd.verify_cards(state, seat, [move["card"]], cards)
    run = _run_of(state, move["owner"], move["run"])
    face = cards.face(move["card"])
    if face["kind"] != "element":
        raise RuleViolation(
            "no_wild_there",
            f"Card {move['card']} is a wild card: a wild card is claimed with the element card "
            "it stands for.",
            rule=rn.SEED_CLAIM,
        )
    where = rn.wild_standing_for(run, int(face["z"]))
    if where is None:
        stands = [rn.label(int(p["number"])) for p in run if p["wild"]]
        has = f"its wild cards stand for {', '.join(stands)}" if stands else "it has no wild card"
        raise RuleViolation(
            "no_wild_there",
            f"No wild card in seat {move['owner']}'s run {_span(run)} stands for "
            f"{rn.label(int(face['z']))}: {has}.",
            rule=rn.SEED_CLAIM,
            card=move["card"],
        )
    return where


def _verify_meld(state: State, seat: int, move: Move, cards: TableCards) -> list[JSON]:
    """A run or an extension: its new positions."""
    faces = [cards.face(c) for c in move["cards"]]
    option = state["options"]["runs"]
    if move["type"] == "run":
        return rn.lay(faces, seat, 3 if option == "three" else None)
    run = _run_of(state, move["owner"], move["run"])
    if option == "three":
        raise RuleViolation(
            "no_extending",
            "Runs are exactly 3 cards at this table (option runs: 'three'), so they are never "
            "extended; lay a new run instead.",
            rule=rn.SEED_RUN,
        )
    if option == "own" and move["owner"] != seat:
        raise RuleViolation(
            "not_your_run",
            f"Run {_span(run)} is seat {move['owner']}'s: at this table (option runs: 'own') "
            "a seat extends only its own runs.",
            rule=rn.SEED_RUN,
        )
    return rn.extend(run, faces, move["end"], seat)


def _verify(
    state: State, seat: int, move: Move, cards: TableCards, capturable: bool | None = None
) -> Any:
    """Raise what forbids ``move``; return what applying it needs (a capture's parts, a
    run's positions, the place of a claimed wild). ``capturable`` saves recomputing
    whether the seat can capture (``legal_moves`` asks it once for every move)."""
    dm.verify_match(state, seat, move)
    kind = move["type"]
    if kind == "next_round":
        return None
    if kind == "draw":
        dd.verify_draw(state, seat, move["source"], _deck_out(state))
        return None
    dd.verify_step(state, seat, "play")
    melded = bool(state["turn"]["melded"])
    if kind == "capture":
        if melded:
            raise RuleViolation(
                "capture_after_run",
                "You laid a run this turn: a turn with a run ends with a discard, not a "
                "capture (a capture comes instead of a run).",
                rule=SEED_DISCARD,
            )
        return dd.verify_capture(state, seat, move["compound"], move["cards"], cards)
    if kind == "claim":
        return _verify_claim(state, seat, move, cards)
    dd.verify_cards(state, seat, [move["card"]] if kind == "discard" else move["cards"], cards)
    if state["options"]["must_capture"] and not melded:
        if capturable is None:
            capturable = _can_capture(state, seat, cards)
        if capturable:
            raise RuleViolation(
                "must_capture",
                "You can capture a face-up compound with your cards, so you must capture it "
                f"instead of {'discarding' if kind == 'discard' else 'laying a run'} (see your "
                "legal moves).",
                rule=rn.SEED_RUN,
            )
    if kind == "discard":
        return None
    return _verify_meld(state, seat, move, cards)


def verify(state: State, seat: int, move: Move) -> None:
    _verify(state, seat, move, cards_of(state))


def _claim_moves(state: State, seat: int, hand: Sequence[Mapping[str, Any]]) -> list[Move]:
    lowest: dict[int, int] = {}
    for face in hand:
        if face["kind"] == "element":
            z, card = int(face["z"]), int(face["id"])
            lowest[z] = min(card, lowest.get(z, card))
    out: list[Move] = []
    for owner, board in enumerate(state["runs"]):
        for index, run in enumerate(board):
            for p in run:
                if p["wild"] and p["number"] in lowest:
                    card = lowest[p["number"]]
                    out.append({"type": "claim", "owner": owner, "run": index, "card": card})
    return out


def _meld_moves(state: State, seat: int, hand: Sequence[Mapping[str, Any]]) -> list[Move]:
    option = state["options"]["runs"]
    out: list[Move] = [
        {"type": "run", "cards": c} for c in rn.run_choices(hand, 3 if option == "three" else None)
    ]
    if option == "three":
        return out
    for owner, board in enumerate(state["runs"]):
        if option == "own" and owner != seat:
            continue
        for index, run in enumerate(board):
            for end, cards in rn.extension_choices(run, hand):
                out.append(
                    {"type": "extend", "owner": owner, "run": index, "end": end, "cards": cards}
                )
    return out


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now. Runs and extensions are listed once per series
    (an element card wherever the hand holds the number, wild cards in the gaps; see
    :func:`.runs.run_choices`), captures once per distinct way."""
    check_seat(state, seat)
    if seat not in to_act(state):
        return []
    if round_over(state):
        return [{"type": "next_round"}]
    cards = cards_of(state)
    if state["turn"]["step"] == "draw":
        options: list[Move] = [{"type": "draw", "source": s} for s in ("deck", "discard")]
        return [m for m in options if _passes(state, seat, m, cards)]
    hand = _hand(state, seat, cards)
    captures = [] if state["turn"]["melded"] else dd.capture_moves(state, seat, cards)
    options = [*captures, *_claim_moves(state, seat, hand)]
    if not (captures and state["options"]["must_capture"]):
        options += _meld_moves(state, seat, hand)
        options += [{"type": "discard", "card": c} for c in state["zones"]["hand"][seat]]
    capturable = bool(captures)
    return [m for m in options if _passes(state, seat, m, cards, capturable)]


def _passes(
    state: State, seat: int, move: Move, cards: TableCards, capturable: bool | None = None
) -> bool:
    try:
        _verify(state, seat, move, cards, capturable)
    except RuleViolation:
        return False
    return True


# ---------------------------------------------------------------- applying ----------
def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    move = parse_move(move)
    cards = cards_of(state)
    found = _verify(state, seat, move, cards)
    kind = move["type"]
    if kind == "next_round":
        return _next_round(state, cards)
    if kind == "draw":
        return _apply_draw(state, seat, move["source"], cards)
    if kind == "capture":
        new, events = dd.apply_capture(
            state, seat, move["compound"], move["cards"], cards, LAYOUT, found
        )
        events[0]["points"] = scoring.COMPOUND_POINTS
        return _end_turn(new, seat, events, cards)
    if kind == "claim":
        return _apply_claim(state, seat, move, cards, found)
    if kind in ("run", "extend"):
        return _apply_meld(state, seat, move, cards, found)
    new, events = dd.apply_discard(state, seat, move["card"], cards, LAYOUT)
    return _end_turn(new, seat, events, cards)


def _apply_meld(
    state: State, seat: int, move: Move, cards: TableCards, added: list[JSON]
) -> tuple[State, list[Event]]:
    owner = seat if move["type"] == "run" else int(move["owner"])
    zones = LAYOUT.move(state["zones"], ("hand", seat), ("runs", owner), move["cards"])
    board = list(state["runs"][owner])
    if move["type"] == "run":
        index, run = len(board), added
        board.append(run)
    else:
        index, old = int(move["run"]), board[int(move["run"])]
        run = [*added, *old] if move["end"] == "low" else [*old, *added]
        board[index] = run
    all_runs = list(state["runs"])
    all_runs[owner] = board
    new = {**state, "zones": zones, "runs": all_runs, "turn": {**state["turn"], "melded": True}}
    faces = {c: cards.face(c) for c in move["cards"]}
    event: Event = {
        "type": "run_laid" if move["type"] == "run" else "run_extended",
        "seat": seat,
        "owner": owner,
        "run": index,
        "cards": [faces[c] for c in move["cards"]],
        "positions": [position_view(p, cards) for p in added],
        "low": int(run[0]["number"]),
        "high": int(run[-1]["number"]),
        "length": len(run),
        "text": rn.run_text(run, {int(p["card"]): cards.face(int(p["card"])) for p in run}),
        "explanation": rn.explain([int(p["number"]) for p in run]),
        "points": scoring.RUN_CARD_POINTS * len(added),
    }
    if move["type"] == "extend":
        event["end"] = move["end"]
    events = [event]
    if not zones["hand"][seat]:
        how = "laid its last card in a run" + (" extension" if move["type"] == "extend" else "")
        return _end_round(new, cards, events, "went_out", seat, how)
    return new, events


def _apply_claim(
    state: State, seat: int, move: Move, cards: TableCards, where: int
) -> tuple[State, list[Event]]:
    owner, index, card = int(move["owner"]), int(move["run"]), int(move["card"])
    run = list(state["runs"][owner][index])
    wild = int(run[where]["card"])
    run[where] = {**run[where], "card": card, "wild": False}
    zones = LAYOUT.move(state["zones"], ("hand", seat), ("runs", owner), [card])
    zones = LAYOUT.move(zones, ("runs", owner), ("hand", seat), [wild])
    board = list(state["runs"][owner])
    board[index] = run
    all_runs = list(state["runs"])
    all_runs[owner] = board
    face, wild_face = cards.face(card), cards.face(wild)
    whose = "its own" if owner == seat else f"seat {owner}'s"
    event: Event = {
        "type": "wild_claimed",
        "seat": seat,
        "owner": owner,
        "run": index,
        "number": int(face["z"]),
        "symbol": str(face["symbol"]),
        "placed": {"card": face},
        "taken": {"card": wild_face},
        "text": f"Seat {seat} put {rn.label(int(face['z']))} in place of the wild card "
        f"({wild_face['law']}) in {whose} run {_span(run)} and took the wild card.",
    }
    return {**state, "zones": zones, "runs": all_runs}, [event]


def can_reshuffle(state: State) -> bool:
    """Whether an empty draw deck may still be refilled this round (option ``reshuffles``)
    from the discard pile under its top card."""
    used, allowed = int(state["reshuffled"]), int(state["options"]["reshuffles"])
    return used < allowed and len(state["zones"]["discard"]) > 1


def _deck_out(state: State) -> str:
    """How the shared draw step treats an empty draw deck: a seat's first draw of a turn
    that starts with one refills it (the end of the previous turn made sure it can);
    otherwise the deck is just empty."""
    first = int(state["turn"]["drawn"]) == 0 and not state["zones"]["draw"]
    return "reshuffle" if first else DECK_OUT


def _apply_draw(
    state: State, seat: int, source: str, cards: TableCards
) -> tuple[State, list[Event]]:
    events: list[Event] = []
    if _deck_out(state) == "reshuffle":
        # whatever the source, so that this turn too takes a card from the draw deck
        state, event = dd.reshuffle(state)
        state["reshuffled"] = int(state["reshuffled"]) + 1
        events.append(event)
    new, more = dd.apply_draw(state, seat, source, cards, LAYOUT, DECK_OUT)
    return new, events + more


def _end_turn(
    state: State, seat: int, events: list[Event], cards: TableCards
) -> tuple[State, list[Event]]:
    """After a capture or a discard: the round ends, or the next seat's turn starts (with a
    card in the draw deck, or a discard pile to shuffle into it at its first draw)."""
    zones = state["zones"]
    discarded = events[0]["type"] == "card_discarded"
    out = seat if not zones["hand"][seat] else None
    how = "discarded its last card" if discarded else "played its last cards in a capture"
    if not zones["row"] and not zones["compounds"]:
        return _end_round(state, cards, events, "all_captured", out, how)
    if out is not None:
        return _end_round(state, cards, events, "went_out", out, how)
    if not zones["draw"] and not can_reshuffle(state):
        return _end_round(state, cards, events, "deck_empty")
    nxt = left_of(seat, int(state["players"]))
    new = {**state, "turn": new_turn(nxt)}
    events.append({"type": "turn_started", "seat": nxt})
    return new, events


def _end_round(
    state: State,
    cards: TableCards,
    events: list[Event],
    reason: str,
    went_out: int | None = None,
    how: str = "",
) -> tuple[State, list[Event]]:
    if went_out is not None:
        events.append(
            {
                "type": "went_out",
                "seat": went_out,
                "discarded": how.startswith("discarded"),
                "text": f"Seat {went_out} went out: it {how}.",
            }
        )
    result = scoring.round_result(state["zones"], state["runs"], cards, reason, went_out)
    return dm.end_round(state, result, events)


def _next_round(state: State, cards: TableCards) -> tuple[State, list[Event]]:
    m = match.next_round(state["match"])
    return deal({**state, "match": m}, cards, int(m["dealer"]))
