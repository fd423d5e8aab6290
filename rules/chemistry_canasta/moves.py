"""The moves of Chemistry Canasta, each type in one section (:mod:`rules.actions`).

A turn: two ``draw`` moves (:mod:`rules.draw_discard`); then, in the ``play`` step, any
number of ``claim`` moves, and either one ``capture`` (which ends the turn) or any
number of ``run`` and ``extend`` moves followed by a ``discard``. A seat whose hand
empties goes out and ends the round; between rounds the next dealer moves
``next_round``. Each section holds a move type's legality, its candidates and its
effect (with, for this game's own types, its shape and its events); :data:`ACTIONS`
puts them together, each refused first once the round or the match is over
(:func:`rules.draw_discard_match.in_round`).

>>> from rules.chemistry_canasta import GAME
>>> state = GAME.setup(2, {"target": None}, seed=3)
>>> legal_moves(state, 0), legal_moves(state, 1)
([{'type': 'draw', 'source': 'deck'}, {'type': 'draw', 'source': 'discard'}], [])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, TypedDict

from rules import draw_discard as dd
from rules import draw_discard_match as dm
from rules import draw_discard_wire as dw
from rules import match
from rules.actions import Action, Actions
from rules.chemistry.decks.compound import TableCards
from rules.core import JSON, Event, Move, RuleViolation, State, left_of
from rules.shapes import Count, F, Seat
from rules.zones import emitted

from . import runs as rn
from . import scoring
from .table import DECK_OUT, LAYOUT, cards_of, deal, new_turn, position_view
from .wire import Card, Number, Position, RoundEndedEvent

__all__ = ["ACTIONS", "EVENTS", "can_reshuffle", "legal_moves", "to_act"]

SEED_DISCARD = (
    "If the player cannot capture a compound. i.e if they can only make a run or have no play "
    "they must discard a card to the discard pile."
)

round_over = dm.round_over
to_act = dm.to_act

# ---------------------------------------------------------------- shared members ----
Owner = Annotated[int, F("The seat whose board the run is on.", minimum=0, maximum=5, example=0)]
RunNo = Annotated[
    int, F("The run's number on that board, from 0.", minimum=0, maximum=200, example=0)
]


def _hand(state: State, seat: int, cards: TableCards[Card]) -> list[Card]:
    return [cards.face(c) for c in state["zones"]["hand"][seat]]


def _playing(state: State, seat: int) -> bool:
    """Whether it is ``seat``'s play step (the moves of that step may be worth trying)."""
    turn = state["turn"]
    return turn is not None and turn["seat"] == seat and turn["step"] == "play"


def _must_capture(state: State, seat: int, cards: TableCards[Card]) -> bool:
    """Whether a capture is due now: the seat can capture and has laid no run this turn
    (option ``must_capture``)."""
    return (
        bool(state["options"]["must_capture"])
        and not state["turn"]["melded"]
        and dd.can_capture(state, seat, cards)
    )


def _refuse_unless_captured(state: State, seat: int, cards: TableCards[Card], instead: str) -> None:
    if _must_capture(state, seat, cards):
        raise RuleViolation(
            "must_capture",
            "You can capture a face-up compound with your cards, so you must capture it "
            f"instead of {instead} (see your legal moves).",
            rule=rn.SEED_RUN,
        )


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


# ---------------------------------------------------------------- draw --------------
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


def verify_draw(state: State, seat: int, move: Move) -> None:
    dd.verify_draw(state, seat, move["source"], _deck_out(state))


def draws(state: State, seat: int) -> list[Move]:
    return [{"type": "draw", "source": s} for s in ("deck", "discard")]


def draw(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    cards = cards_of(state)
    events: list[Event] = []
    if _deck_out(state) == "reshuffle":
        # whatever the source, so that this turn too takes a card from the draw deck
        state, event = dd.reshuffle(state)
        state["reshuffled"] = int(state["reshuffled"]) + 1
        events.append(event)
    new, more = dd.apply_draw(state, seat, move["source"], cards, LAYOUT, DECK_OUT)
    return new, events + more


DRAW = Action(dw.DrawMove, dm.in_round(verify_draw), draw, draws)


# ---------------------------------------------------------------- capture -----------
def verify_capture(state: State, seat: int, move: Move) -> None:
    dd.verify_step(state, seat, "play")
    if state["turn"]["melded"]:
        raise RuleViolation(
            "capture_after_run",
            "You laid a run this turn: a turn with a run ends with a discard, not a "
            "capture (a capture comes instead of a run).",
            rule=SEED_DISCARD,
        )
    dd.verify_capture(state, seat, move["compound"], move["cards"], cards_of(state))


def captures(state: State, seat: int) -> list[Move]:
    if not _playing(state, seat) or state["turn"]["melded"]:
        return []
    return dd.capture_moves(state, seat, cards_of(state))


def capture(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    cards = cards_of(state)
    new, events = dd.apply_capture(
        state, seat, move["compound"], move["cards"], cards, LAYOUT, scoring.COMPOUND_POINTS
    )
    return _end_turn(new, seat, events, cards)


CAPTURE = Action(dw.CaptureMove, dm.in_round(verify_capture), capture, captures)


# ---------------------------------------------------------------- claim -------------
class ClaimMove(TypedDict):
    """Put the element card a run's wild card stands for in its place and take the wild
    card into your hand (any board, your own included)."""

    type: Literal["claim"]
    owner: Owner
    run: RunNo
    card: Annotated[dw.MoveCard, F("The element card of your hand that replaces the wild.")]


class PlacedCard(TypedDict):
    """A card put in a run, or taken from it."""

    card: Annotated[Card, F("The card.")]


class WildClaimedEvent(TypedDict):
    """A seat put an element card in the place of the wild card standing for it."""

    type: Literal["wild_claimed"]
    seat: Annotated[Seat, F("The seat that claimed the wild card.")]
    owner: Annotated[Seat, F("The seat whose board the run is on.")]
    run: Annotated[int, F("The run's number on that board.", minimum=0)]
    number: Annotated[Number, F("The atomic number the wild card stood for.")]
    symbol: Annotated[str, F("Its element.", example="Ru")]
    placed: Annotated[PlacedCard, F("The element card put in the wild card's place.")]
    taken: Annotated[PlacedCard, F("The wild card, now in the claiming seat's hand.")]
    text: Annotated[str, F("What happened, for a learner.")]


def _claimed_place(state: State, seat: int, move: Move, cards: TableCards[Card]) -> int:
    """Where in the run the wild card stands for the move's card (refused if none)."""
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


def verify_claim(state: State, seat: int, move: Move) -> None:
    dd.verify_step(state, seat, "play")
    _claimed_place(state, seat, move, cards_of(state))


def claims(state: State, seat: int) -> list[Move]:
    """One claim per wild card the hand holds the element of (its lowest-numbered copy)."""
    if not _playing(state, seat):
        return []
    lowest: dict[int, int] = {}
    for face in _hand(state, seat, cards_of(state)):
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


def claim(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    cards = cards_of(state)
    where = _claimed_place(state, seat, move, cards)
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
    number = int(face["z"])
    whose = "its own" if owner == seat else f"seat {owner}'s"
    event: WildClaimedEvent = {
        "type": "wild_claimed",
        "seat": seat,
        "owner": owner,
        "run": index,
        "number": number,
        "symbol": str(face["symbol"]),
        "placed": {"card": face},
        "taken": {"card": wild_face},
        "text": f"Seat {seat} put {rn.label(number)} in place of the wild card "
        f"({wild_face['law']}) in {whose} run {_span(run)} and took the wild card.",
    }
    return {**state, "zones": zones, "runs": all_runs}, [emitted(event)]


CLAIM = Action(ClaimMove, dm.in_round(verify_claim), claim, claims)


# ---------------------------------------------------------------- run and extend ----
class RunMove(TypedDict):
    """Lay a new run: 3 or more cards of consecutive atomic numbers, listed lowest first; a
    wild card stands for the number of its place (at least one element card)."""

    type: Literal["run"]
    cards: Annotated[
        dw.MoveCards,
        F("Card ids from your hand, lowest atomic number first.", example=[12, 13, 14]),
    ]


RunEnd = Annotated[
    Literal["low", "high"], F("An end of a run: its lowest or highest number.", name="RunEnd")
]


class ExtendMove(TypedDict):
    """Add cards to one end of a run (your own; anyone's with option runs 'anyone')."""

    type: Literal["extend"]
    owner: Owner
    run: RunNo
    end: Annotated[RunEnd, F("Below the lowest number or above the highest.")]
    cards: Annotated[
        dw.MoveCards, F("Card ids from your hand, lowest atomic number first.", example=[15])
    ]


class Meld(TypedDict):
    """Cards laid in a run: the run as it is now and the places laid."""

    seat: Annotated[Seat, F("The seat that laid it.")]
    run: Annotated[int, F("Its number on that board.", minimum=0)]
    cards: Annotated[list[Card], F("The cards laid, lowest number first.")]
    positions: Annotated[list[Position], F("The places laid, with what each wild card stands for.")]
    low: Annotated[Number, F("The run's lowest atomic number.")]
    high: Annotated[Number, F("The run's highest atomic number.")]
    length: Annotated[int, F("Cards in the run now.", minimum=3)]
    text: Annotated[str, F("The call.", example="Mg 12, Al 13, Si 14: consecutive atomic numbers")]
    explanation: Annotated[str, F("Why the numbers belong together, for a learner.")]
    points: Annotated[Count, F("10 per card laid.", example=30)]


class RunLaidEvent(Meld):
    """A new run on the seat's own board."""

    type: Literal["run_laid"]
    owner: Annotated[Seat, F("The board it is on (the same seat).")]


class RunExtendedEvent(Meld):
    """Cards added to one end of a run (its owner's, or any with option runs 'anyone')."""

    type: Literal["run_extended"]
    owner: Annotated[Seat, F("The board it is on (the seat's own, or any with runs 'anyone').")]
    end: Annotated[RunEnd, F("The end extended.")]


def _melded_places(state: State, seat: int, move: Move, cards: TableCards[Card]) -> list[JSON]:
    """The places a run or an extension lays (refused if it may not be laid)."""
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


def verify_meld(state: State, seat: int, move: Move) -> None:
    """A run or an extension: cards the seat holds, no capture due, a true series."""
    dd.verify_step(state, seat, "play")
    cards = cards_of(state)
    dd.verify_cards(state, seat, move["cards"], cards)
    _refuse_unless_captured(state, seat, cards, "laying a run")
    _melded_places(state, seat, move, cards)


def _may_meld(state: State, seat: int) -> bool:
    return _playing(state, seat) and not _must_capture(state, seat, cards_of(state))


def runs(state: State, seat: int) -> list[Move]:
    """One run per series the hand can lay (:func:`.runs.run_choices`)."""
    if not _may_meld(state, seat):
        return []
    hand = _hand(state, seat, cards_of(state))
    longest = 3 if state["options"]["runs"] == "three" else None
    return [{"type": "run", "cards": c} for c in rn.run_choices(hand, longest)]


def extensions(state: State, seat: int) -> list[Move]:
    """One extension per end and series (:func:`.runs.extension_choices`) of every run
    the seat may extend."""
    option = state["options"]["runs"]
    if option == "three" or not _may_meld(state, seat):
        return []
    hand = _hand(state, seat, cards_of(state))
    out: list[Move] = []
    for owner, board in enumerate(state["runs"]):
        if option == "own" and owner != seat:
            continue
        for index, run in enumerate(board):
            for end, cards in rn.extension_choices(run, hand):
                out.append(
                    {"type": "extend", "owner": owner, "run": index, "end": end, "cards": cards}
                )
    return out


def meld(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    cards = cards_of(state)
    added = _melded_places(state, seat, move, cards)
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
    laid = [faces[c] for c in move["cards"]]
    places = [position_view(p, cards) for p in added]
    low, high = int(run[0]["number"]), int(run[-1]["number"])
    text = rn.run_text(run, {int(p["card"]): cards.face(int(p["card"])) for p in run})
    explanation = rn.explain([int(p["number"]) for p in run])
    points = scoring.RUN_CARD_POINTS * len(added)
    event: RunLaidEvent | RunExtendedEvent
    if move["type"] == "run":
        event = {
            "type": "run_laid",
            "seat": seat,
            "owner": owner,
            "run": index,
            "cards": laid,
            "positions": places,
            "low": low,
            "high": high,
            "length": len(run),
            "text": text,
            "explanation": explanation,
            "points": points,
        }
    else:
        event = {
            "type": "run_extended",
            "seat": seat,
            "owner": owner,
            "run": index,
            "cards": laid,
            "positions": places,
            "low": low,
            "high": high,
            "length": len(run),
            "text": text,
            "explanation": explanation,
            "points": points,
            "end": move["end"],
        }
    events = [emitted(event)]
    if not zones["hand"][seat]:
        how = "laid its last card in a run" + (" extension" if move["type"] == "extend" else "")
        return _end_round(new, cards, events, "went_out", seat, how)
    return new, events


RUN = Action(RunMove, dm.in_round(verify_meld), meld, runs)
EXTEND = Action(ExtendMove, dm.in_round(verify_meld), meld, extensions)


# ---------------------------------------------------------------- discard -----------
def verify_discard(state: State, seat: int, move: Move) -> None:
    dd.verify_step(state, seat, "play")
    cards = cards_of(state)
    dd.verify_cards(state, seat, [move["card"]], cards)
    _refuse_unless_captured(state, seat, cards, "discarding")


def discards(state: State, seat: int) -> list[Move]:
    if not _may_meld(state, seat):
        return []
    return [{"type": "discard", "card": c} for c in state["zones"]["hand"][seat]]


def discard(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    cards = cards_of(state)
    new, events = dd.apply_discard(state, seat, move["card"], cards, LAYOUT)
    return _end_turn(new, seat, events, cards)


DISCARD = Action(dw.DiscardMove, dm.in_round(verify_discard), discard, discards)


# ---------------------------------------------------------------- the end of a turn -
class WentOutEvent(TypedDict):
    """A seat played its last card: it goes out and the round ends."""

    type: Literal["went_out"]
    seat: Annotated[Seat, F("The seat that played its last card.")]
    discarded: Annotated[
        bool, F("Its last card was a discard (else it was laid or captured with).")
    ]
    text: Annotated[
        str, F("What happened.", example="Seat 0 went out: it laid its last card in a run.")
    ]


def _end_turn(
    state: State, seat: int, events: list[Event], cards: TableCards[Card]
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
    started: dw.TurnStartedEvent = {"type": "turn_started", "seat": nxt}
    events.append(emitted(started))
    return new, events


def _end_round(
    state: State,
    cards: TableCards[Card],
    events: list[Event],
    reason: scoring.RoundEnd,
    went_out: int | None = None,
    how: str = "",
) -> tuple[State, list[Event]]:
    if went_out is not None:
        out: WentOutEvent = {
            "type": "went_out",
            "seat": went_out,
            "discarded": how.startswith("discarded"),
            "text": f"Seat {went_out} went out: it {how}.",
        }
        events.append(emitted(out))
    result = scoring.round_result(state["zones"], state["runs"], cards, reason, went_out)
    ended: RoundEndedEvent = {
        "type": "round_ended",
        "round": state["match"]["round"],
        "reason": result["reason"],
        "went_out": result["went_out"],
        "seats": result["seats"],
        "winners": result["winners"],
    }
    return dm.end_round(state, result, ended, events)


# ---------------------------------------------------------------- next round --------
def next_round(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    m = match.next_round(state["match"])
    return deal({**state, "match": m}, cards_of(state), int(m["dealer"]))


NEXT_ROUND = Action(match.NextRoundMove, dm.verify_next_round, next_round, dm.next_rounds)


# ---------------------------------------------------------------- all of them -------
ACTIONS = Actions((DRAW, CAPTURE, CLAIM, RUN, EXTEND, DISCARD, NEXT_ROUND))
"""The move types in the order their legal moves are listed (the random bot draws from
that list): the draws; then the captures, the claims, the runs, the extensions and the
discards; the next round between rounds."""

legal_moves = ACTIONS.legal_moves

EVENTS: tuple[type, ...] = (WildClaimedEvent, RunLaidEvent, RunExtendedEvent, WentOutEvent)
"""The events of this game's own moves and of going out."""
