"""The moves of Chemistry Battle, each type in one place (:mod:`rules.actions`).

A seat in turn plays one card: ``play`` (a card of its hand, chosen) or ``play_next``
(the next card in order: its collected cards once its hand is empty, or the top of a
face-down hand). Both are refused once the game is over and to a seat not in turn
(:func:`waiting`); the card reaches the table the same way whichever move played it
(:func:`_card_played`), and the last card of a round settles it (:func:`_settle_round`).
The legal moves list a seat's ``play`` moves in the order of its hand, then
``play_next`` (the random bot draws from this list).

>>> from rules.chemistry_battle import GAME
>>> state = GAME.setup(2, {"deal": [[1, 26], [25, 3]], "dealer": 1, "hand_play": "top"}, 1)
>>> ACTIONS.legal_moves(state, 0), ACTIONS.legal_moves(state, 1)
([{'type': 'play_next'}], [])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from rules.actions import Action, Actions
from rules.core import Event, Move, RuleViolation, State, right_of
from rules.zones import emitted

from . import rounds, wire
from .cards import card, label
from .layout import layout
from .wire import EndReason

SEED_TURN = (
    "The first player to the right of the dealer plays a card face up. Play continues to the "
    "right with player placing a card face up."
)
SEED_PILE = (
    "When all cards in a player's hand have been played, they may pick up the pile and begin "
    "to play from the collected cards. The player should not look at the cards or shuffle "
    "them but must play the cards in the order they were collected."
)


def waiting(state: State, seat: int) -> None:
    """What forbids ``seat`` any move now: the game is over, or another seat plays next."""
    if state["end"] is not None:
        raise RuleViolation("game_over", "The game is over: the cards have been counted.")
    turn = int(state["turn"])
    if seat != turn:
        raise RuleViolation(
            "not_your_turn",
            f"It is seat {turn}'s turn to play; play goes to the right, one seat at a time.",
            rule=SEED_TURN,
            turn=turn,
        )


def chooses(state: State, seat: int) -> bool:
    """Whether ``seat`` chooses its next card (it holds a hand it may look at)."""
    return state["options"]["hand_play"] == "choice" and bool(state["zones"]["hand"][seat])


# ---------------------------------------------------------------- play -------------
def verify_play(state: State, seat: int, move: Move) -> None:
    hand = state["zones"]["hand"][seat]
    if not chooses(state, seat):
        why = (
            "your hand is a face-down stack played top card first"
            if hand
            else "your hand is empty, so you play your collected cards in the order "
            "you collected them, without looking"
        )
        raise RuleViolation(
            "play_in_order",
            f"You cannot choose a card: {why}. Send play_next.",
            rule=SEED_PILE,
        )
    z = move["card"]
    if z not in hand:
        raise RuleViolation(
            "not_in_hand",
            f"{label(z)} is not in your hand; play one of: {', '.join(map(label, hand))}.",
            card=z,
        )


def plays(state: State, seat: int) -> list[Move]:
    return [{"type": "play", "card": z} for z in state["zones"]["hand"][seat]]


def play(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    return _card_played(state, seat, "hand", int(move["card"]))


PLAY = Action(wire.PlayMove, verify_play, play, plays)


# ---------------------------------------------------------------- play_next --------
def verify_play_next(state: State, seat: int, move: Move) -> None:
    if chooses(state, seat):
        hand = state["zones"]["hand"][seat]
        raise RuleViolation(
            "hand_not_empty",
            f"You still hold {len(hand)} card{'s' if len(hand) > 1 else ''}: choose one with "
            "play. Collected cards are played once your hand is empty.",
            rule=SEED_PILE,
        )


def next_plays(state: State, seat: int) -> list[Move]:
    return [{"type": "play_next"}]


def _next_card(zones: Mapping[str, Any], seat: int) -> tuple[str, int]:
    """The zone a forced play comes from and its card: hand, then kitty, then collected."""
    for name in ("hand", "collected_kitty", "collected"):
        if zones[name][seat]:
            return name, int(zones[name][seat][0])
    raise ValueError(f"seat {seat} has no card to play")  # the game ended before this


def play_next(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    source, z = _next_card(state["zones"], seat)
    return _card_played(state, seat, source, z)


PLAY_NEXT = Action(wire.PlayNextMove, verify_play_next, play_next, next_plays)

ACTIONS = Actions((PLAY, PLAY_NEXT), waiting=waiting)


# ---------------------------------------------------------------- a card on the table
SOURCES: Mapping[str, Literal["hand", "captured_kitty", "collected"]] = {
    "hand": "hand",
    "collected_kitty": "captured_kitty",
    "collected": "collected",
}
"""A zone a card is played from -> the ``source`` its event names."""


def _card_played(state: State, seat: int, source: str, z: int) -> tuple[State, list[Event]]:
    """Card ``z`` goes from ``source`` to the table; the last card of a round settles it."""
    lay = layout(state)
    zones = state["zones"]
    events: list[Event] = []
    new: State = {**state}
    if source != "hand" and not state["picked_up"][seat]:
        picked = list(state["picked_up"])
        picked[seat] = True
        new["picked_up"] = picked
        picked_up: wire.PilePickedUpEvent = {
            "type": "pile_picked_up",
            "seat": seat,
            "round": state["round"],
            "count": len(zones["collected_kitty"][seat]) + len(zones["collected"][seat]),
        }
        events.append(emitted(picked_up))
    zones = lay.move(zones, (source, seat), ("table", None), [z])
    table = zones["table"]
    order = rounds.turn_order(int(state["leader"]), int(state["players"]))
    played: wire.CardPlayedEvent = {
        "type": "card_played",
        "seat": seat,
        "round": state["round"],
        "card": card(z),
        "source": SOURCES[source],
        "position": len(table),
        "leading": z == max(table),
    }
    events.append(emitted(played))
    new["zones"] = zones
    if len(table) < len(order):
        new["turn"] = order[len(table)]
        return new, events
    new, more = _settle_round(new, order)
    return new, events + more


def _settle_round(state: State, order: list[int]) -> tuple[State, list[Event]]:
    lay = layout(state)
    players = int(state["players"])
    zones = state["zones"]
    table = list(zones["table"])
    won = rounds.round_won_event(state, table, order)
    winner = won["seat"]
    events = [emitted(won)]
    zones = lay.move(zones, ("table", None), ("collected", winner), table)
    if zones["kitty"]:
        kitty = list(zones["kitty"])
        zones = lay.move(zones, ("kitty", None), ("collected_kitty", winner), kitty)
        state = {**state, "kitty_captured_by": winner}
        captured: wire.KittyCapturedEvent = {
            "type": "kitty_captured",
            "seat": winner,
            "round": state["round"],
            "count": len(kitty),
        }
        # face down: the layout shows the kitty's faces to nobody
        events.append(
            lay.moved(captured, kitty, ("kitty", None), ("collected_kitty", winner), players)
        )
    rnd = int(state["round"])
    last_round: wire.Round = {
        "round": won["round"],
        "seat": won["seat"],
        "card": won["card"],
        "plays": won["plays"],
        "explanation": won["explanation"],
    }
    leader = winner if state["options"]["next_leader"] == "winner" else right_of(order[0], players)
    new: State = {
        **state,
        "zones": zones,
        "leader": leader,
        "turn": leader,
        "last_round": last_round,
    }
    out = [s for s in range(players) if rounds.cards_held(zones, s) == 0]
    reason: EndReason | None = None
    if out:
        reason = "seat_out"
        for s in out:
            gone: wire.SeatOutEvent = {
                "type": "seat_out",
                "seat": s,
                "round": rnd,
                "message": f"Seat {s} has run out of cards: no hand and no collected cards.",
            }
            events.append(emitted(gone))
    elif rnd == state["options"]["round_limit"]:
        reason = "round_limit"
    else:
        loop, cycled = rounds.track_cycle(new)
        new["loop"] = loop
        if cycled:
            reason = "cycle"
    if reason is None:
        new["round"] = rnd + 1
        started: wire.RoundStartedEvent = {
            "type": "round_started",
            "round": rnd + 1,
            "leader": leader,
            "order": rounds.turn_order(leader, players),
        }
        events.append(emitted(started))
        return new, events
    end: wire.End = {"reason": reason, "round": rnd, "out": out}
    new["end"] = end
    counts = [rounds.cards_held(zones, s) for s in range(players)]
    over: wire.GameOverEvent = {
        "type": "game_over",
        "reason": reason,
        "round": rnd,
        "counts": counts,
        "message": rounds.game_over_message(reason, out, counts, rnd),
        **rounds.outcome(new).declared(),
    }
    events.append(emitted(over))
    return new, events
