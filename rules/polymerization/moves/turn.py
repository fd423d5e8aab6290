"""The turn: draw a card, then play one round or discard; the end of a turn and of the game.

Every move is refused to a seat that is not in turn or once the game is over
(:func:`before`); every move but ``draw`` is a move of the play step
(:func:`play_step`): refused before the draw, and the turn passes after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Annotated, Literal, NotRequired, TypedDict

from rules.actions import Action, Candidates, Verify
from rules.core import Event, Move, RuleViolation, State, left_of
from rules.shapes import Count, F, Seat
from rules.wire import GameOver
from rules.zones import emitted

from .. import seed
from ..cards import face
from ..layout import DISCARD, LAYOUT, STACK, hand
from ..scoring import outcome, seat_breakdown
from ..shown import card_json
from ..wire import Card, CardNo, EndReason, Explanation
from . import checks
from .faces import hand_by_face

RoundEffect = Callable[[State, int, Move, list[Event]], None]
"""What a move of the play step does to (a copy of) the state, adding its events."""


def waiting(state: State, seat: int) -> None:
    """What forbids ``seat`` any move now: the game is over, or it is not its turn."""
    if state["phase"] == "over":
        raise RuleViolation("game_over", "The game has ended; no more moves are accepted.")
    if seat != state["turn"]:
        raise RuleViolation(
            "not_your_turn",
            f"It is seat {state['turn']}'s turn; wait for yours.",
            rule=seed.TURN,
            turn=state["turn"],
        )


def fresh(state: State) -> State:
    """A copy of ``state`` a move's effect may change (the chain list included)."""
    return {**state, "chains": list(state["chains"])}


def play_step(shape: type, verify: Verify, effect: RoundEffect, candidates: Candidates) -> Action:
    """A move of the play step (a round or a discard): refused before the draw, and the
    turn ends with it."""

    def verify_after_draw(state: State, seat: int, move: Move) -> None:
        if state["phase"] == "draw":
            raise RuleViolation(
                "draw_first",
                "Take a card from the stack first (move 'draw'), then play a round or discard.",
                rule=seed.TURN,
            )
        verify(state, seat, move)

    def candidates_after_draw(state: State, seat: int) -> Iterable[Move]:
        return () if state["phase"] == "draw" else candidates(state, seat)

    def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        new = fresh(state)
        events: list[Event] = []
        effect(new, seat, move, events)
        end_turn(new, seat, events)
        return new, events

    return Action(shape, verify_after_draw, apply, candidates_after_draw)


# ---------------------------------------------------------------- draw -------------
class DrawMove(TypedDict):
    """Take the top card of the face-down stack: the first step of every turn."""

    type: Literal["draw"]


class CardDrawnEvent(TypedDict):
    """Everyone learns that a card was drawn; only the drawer sees which (`cards`)."""

    type: Literal["card_drawn"]
    seat: Annotated[Seat, F("The seat that drew.")]
    stack_count: Annotated[Count, F("Cards left in the stack.")]
    count: Annotated[Count, F("Cards drawn (one).")]
    cards: NotRequired[Annotated[list[Card], F("Drawer only.")]]


class StackEmptyEvent(TypedDict):
    """The last card of the stack was drawn."""

    type: Literal["stack_empty"]
    seat: Annotated[Seat, F("Took the last card.")]
    explanation: Explanation


def verify_draw(state: State, seat: int, move: Move) -> None:
    if state["phase"] == "play":
        if not state["zones"]["stack"]:
            raise RuleViolation(
                "stack_empty",
                "The stack is empty: there is nothing to draw; play a round or discard.",
                rule=seed.TURN,
            )
        raise RuleViolation(
            "already_drawn",
            "You have drawn this turn; now play a round or discard a card.",
            rule=seed.TURN,
        )


def draws(state: State, seat: int) -> list[Move]:
    return [{"type": "draw"}]


def draw(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    new = fresh(state)
    players = int(new["players"])
    zones, drawn = LAYOUT.draw(new["zones"], STACK, hand(seat), 1)
    new["zones"] = zones
    new["phase"] = "play"
    left = len(zones["stack"])
    # which card only the drawer sees: the layout puts it under ``private``
    drew: CardDrawnEvent = {
        "type": "card_drawn",
        "seat": seat,
        "stack_count": left,
        "count": len(drawn),
    }
    events = [LAYOUT.moved(drew, drawn, STACK, hand(seat), players, card_json)]
    if not left:
        then = (
            "from now on each seat plays a round or discards without drawing"
            if new["options"]["empty_stack"] == "play_on"
            else "the game ends after this turn"
        )
        event: StackEmptyEvent = {
            "type": "stack_empty",
            "seat": seat,
            "explanation": f"Seat {seat} took the last card of the stack: {then}.",
        }
        events.append(emitted(event))
    return new, events


DRAW = Action(DrawMove, verify_draw, draw, draws)


# ---------------------------------------------------------------- discard ----------
class DiscardMove(TypedDict):
    """Put a card of your hand face up on the discard stack instead of playing a round."""

    type: Literal["discard"]
    card: Annotated[CardNo, F("The card to discard.")]


class CardDiscardedEvent(TypedDict):
    """A card was discarded face up."""

    type: Literal["card_discarded"]
    seat: Annotated[Seat, F("The seat that discarded.")]
    count: Annotated[Count, F("Cards discarded (one).")]
    cards: Annotated[list[Card], F("The card discarded.")]
    explanation: Explanation


def verify_discard(state: State, seat: int, move: Move) -> None:
    checks.in_hand(state, seat, [move["card"]], seed.TURN)


def discards(state: State, seat: int) -> list[Move]:
    lowest = sorted(ids[0] for ids in hand_by_face(state, seat).values())
    return [{"type": "discard", "card": card} for card in lowest]


def discard(state: State, seat: int, move: Move, events: list[Event]) -> None:
    players = int(state["players"])
    card = move["card"]
    state["zones"] = LAYOUT.move(state["zones"], hand(seat), DISCARD, [card])
    # face up on the discard stack: the layout shows the card to everyone
    discarded: CardDiscardedEvent = {
        "type": "card_discarded",
        "seat": seat,
        "explanation": f"Seat {seat} discards {face(card).name} face up.",
        "count": 1,
        "cards": [card_json(card)],
    }
    events.append(LAYOUT.moved(discarded, [card], hand(seat), DISCARD, players, card_json))


DISCARD_CARD = play_step(DiscardMove, verify_discard, discard, discards)


# ---------------------------------------------------------------- the end ----------
class HandEmptiedEvent(TypedDict):
    """A seat has emptied its hand: the game ends now, or after the lap (equal_turns)."""

    type: Literal["hand_emptied"]
    seat: Annotated[Seat, F("The seat whose hand is empty.")]
    finish_lap: Annotated[bool, F("The seats after it still play (equal_turns).")]
    explanation: Explanation


class GameOverEvent(GameOver):
    """The game is over: the outcome, and each seat's monomers, Mn and PDI."""

    reason: Annotated[EndReason, F("Why the game ended.")]
    monomers: Annotated[list[Count], F("Monomers in each seat's counted chains, by seat.")]
    mn: Annotated[list[float | None], F("Each seat's Mn, g/mol (null without a chain).")]
    pdi: Annotated[list[float | None], F("Each seat's PDI (null without a chain).")]
    explanation: Explanation


def end_turn(state: State, seat: int, events: list[Event]) -> None:
    players = int(state["players"])
    opts = state["options"]
    state["turns"] = int(state["turns"]) + 1
    if not state["zones"]["hand"][seat] and state["ending"] is None:
        state["ending"] = seat
        lap_left = opts["end"] == "equal_turns" and seat != players - 1
        event: HandEmptiedEvent = {
            "type": "hand_emptied",
            "seat": seat,
            "finish_lap": lap_left,
            "explanation": f"Seat {seat} has emptied its hand: the game ends"
            + (" when every seat has had as many turns." if lap_left else " now."),
        }
        events.append(emitted(event))
    if state["ending"] is not None and (opts["end"] == "immediate" or seat == players - 1):
        finish(state, "hand_emptied", events)
        return
    nxt = left_of(seat, players)
    state["turn"] = nxt
    if state["zones"]["stack"]:
        state["phase"] = "draw"
        return
    if opts["empty_stack"] == "end":
        finish(state, "stack_empty", events)
        return
    state["phase"] = "play"


def finish(state: State, reason: EndReason, events: list[Event]) -> None:
    state["phase"] = "over"
    state["end_reason"] = reason
    result = outcome(state)
    table = [seat_breakdown(state, s) for s in range(int(state["players"]))]
    over: GameOverEvent = {
        "type": "game_over",
        "reason": reason,
        **result.declared(),
        "monomers": [t["monomers"] for t in table],
        "mn": [t["mn"] for t in table],
        "pdi": [t["pdi"] for t in table],
        "explanation": (
            "A player has emptied its hand: the game is over."
            if reason == "hand_emptied"
            else "The stack is empty: the game is over."
        )
        + " Only terminated chains count; growing and capped chains are left as they are.",
    }
    events.append(emitted(over))


EVENTS = (CardDrawnEvent, StackEmptyEvent, CardDiscardedEvent, HandEmptiedEvent, GameOverEvent)
