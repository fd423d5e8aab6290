"""What one seat (or an observer) sees: the table by the layout, the exchange, its own
hand; never another hand, the Ion Deck, or a face-down collection before the end.

Each part is built as its declared ``TypedDict`` (:mod:`.wire`), so mypy checks every
member."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from rules.core import State, check_seat, left_of, right_of

from . import exchange as ex
from . import wire
from .table import ION_DECK, SET_ASIDE, deck_of, finished, hand, in_play, layout, lead_ion, side


def _exchange_view(state: State) -> wire.ExchangeView | None:
    if finished(state):
        return None
    phase = state["phase"]
    initiator, responder = int(state["initiator"]), int(state["responder"])
    lead: str | None = None
    answers: list[wire.Answer] = []
    initiator_total = responder_total = 0
    reinforcement: wire.Reinforcement | None = None
    if phase != "initiate":
        led = lead_ion(state)
        first = side(state, initiator)
        lead = led.label
        answers = [a.to_json() for a in ex.answers(deck_of(state), led)]
        initiator_total = first.total
        if phase == "reinforce":
            second = side(state, responder)
            responder_total = second.total
            reinforcement = {
                "ion": led.label,
                "count": ex.reinforcement_need(led, abs(first.total), abs(second.total)),
                "difference": abs(second.total) - abs(first.total),
            }
    return {
        "number": state["exchange"],
        "step": phase,
        "initiator": initiator,
        "responder": responder,
        "lead": lead,
        "answers": answers,
        "initiator_total": initiator_total,
        "responder_total": responder_total,
        "reinforcement": reinforcement,
    }


def history_entry(entry: Mapping[str, Any]) -> wire.History:
    """A settled exchange as the state records it (:func:`.settle.close`)."""
    return {
        "exchange": entry["exchange"],
        "initiator": entry["initiator"],
        "responder": entry["responder"],
        "result": entry["result"],
        "collector": entry["collector"],
        "card_count": entry["card_count"],
        "formula": entry["formula"],
    }


def _last_collected(state: State) -> wire.LastCollected | None:
    last = state["last_collected"]
    if last is None:
        return None
    face = deck_of(state).face
    return {
        "exchange": last["exchange"],
        "seat": last["seat"],
        "count": last["count"],
        "cards": [face(c) for c in last["cards"]],
    }


def _role(state: State, seat: int) -> Literal["initiator", "responder", "waiting"]:
    if seat == state["initiator"]:
        return "initiator"
    if seat == state["responder"]:
        return "responder"
    return "waiting"


def view(state: State, seat: int | None) -> wire.View:
    """What ``seat`` (None: an observer) may see, built as the declared ``View``."""
    if seat is not None:
        check_seat(state, seat)
    players = int(state["players"])
    zones = state["zones"]
    cards = deck_of(state)
    face = cards.face
    lay = layout(state)
    seats: list[wire.SeatView] = [
        {
            "seat": s,
            "hand": lay.pile_for(zones, ("hand", s), seat, face),
            "in_play": lay.pile_for(zones, ("in_play", s), seat, face),
            "in_play_total": sum(cards.ion_of(c).charge for c in in_play(state, s)),
            "collection": lay.pile_for(zones, ("collection", s), seat, face),
            "collected": len(zones["collection"][s]),
        }
        for s in range(players)
    ]
    you: wire.You | None = None
    if seat is not None:
        you = {
            "seat": seat,
            "role": _role(state, seat),
            "hand": [face(c) for c in sorted(hand(state, seat))],
            "next": right_of(seat, players),
            "previous": left_of(seat, players),
        }
    return {
        "game": "metal-vs-nonmetal",
        "players": players,
        "finished": finished(state),
        "start_player": state["start_player"],
        "direction": "counterclockwise",
        "power_play_prize": state["options"]["power_play_prize"],
        "collected": state["options"]["collected"],
        "ion_deck": lay.pile_for(zones, ION_DECK, seat, face),
        "set_aside": lay.pile_for(zones, SET_ASIDE, seat, face),
        "exchange": _exchange_view(state),
        "seats": seats,
        "history": [history_entry(h) for h in state["history"]],
        "last_collected": _last_collected(state),
        "you": you,
    }
