"""What one seat (or an observer) sees: the table by the layout, the exchange, its own
hand; never another hand, the Ion Deck, or a face-down collection before the end."""

from __future__ import annotations

from typing import Any

from rules.core import State, check_seat, left_of, right_of

from . import exchange as ex
from .info import INFO
from .table import ION_DECK, SET_ASIDE, deck_of, finished, hand, in_play, layout, lead_ion, side


def _exchange_view(state: State) -> dict[str, Any] | None:
    if finished(state):
        return None
    phase = state["phase"]
    deck = deck_of(state)
    initiator, responder = int(state["initiator"]), int(state["responder"])
    out: dict[str, Any] = {
        "number": state["exchange"],
        "step": phase,
        "initiator": initiator,
        "responder": responder,
        "lead": None,
        "answers": [],
        "initiator_total": 0,
        "responder_total": 0,
        "reinforcement": None,
    }
    if phase == "initiate":
        return out
    lead = lead_ion(state)
    first = side(state, initiator)
    out.update(
        lead=lead.label,
        answers=[a.to_json() for a in ex.answers(deck, lead)],
        initiator_total=first.total,
    )
    if phase == "reinforce":
        second = side(state, responder)
        out["responder_total"] = second.total
        out["reinforcement"] = {
            "ion": lead.label,
            "count": ex.reinforcement_need(lead, abs(first.total), abs(second.total)),
            "difference": abs(second.total) - abs(first.total),
        }
    return out


def _last_collected(state: State) -> dict[str, Any] | None:
    last = state["last_collected"]
    if last is None:
        return None
    face = deck_of(state).face
    return {**last, "cards": [face(c) for c in last["cards"]]}


def view(state: State, seat: int | None) -> dict[str, Any]:
    if seat is not None:
        check_seat(state, seat)
    players = int(state["players"])
    zones = state["zones"]
    cards = deck_of(state)
    face = cards.face
    lay = layout(state)
    seats = []
    for s in range(players):
        play = in_play(state, s)
        seats.append(
            {
                "seat": s,
                "hand": lay.pile_view(zones, ("hand", s), seat, face),
                "in_play": lay.pile_view(zones, ("in_play", s), seat, face),
                "in_play_total": sum(cards.ion_of(c).charge for c in play),
                "collection": lay.pile_view(zones, ("collection", s), seat, face),
                "collected": len(zones["collection"][s]),
            }
        )
    you = None
    if seat is not None:
        role = "waiting"
        if seat == state["initiator"]:
            role = "initiator"
        elif seat == state["responder"]:
            role = "responder"
        you = {
            "seat": seat,
            "role": role,
            "hand": [face(c) for c in sorted(hand(state, seat))],
            "next": right_of(seat, players),
            "previous": left_of(seat, players),
        }
    return {
        "game": INFO.slug,
        "players": players,
        "finished": finished(state),
        "start_player": state["start_player"],
        "direction": "counterclockwise",
        "power_play_prize": state["options"]["power_play_prize"],
        "collected": state["options"]["collected"],
        "ion_deck": lay.pile_view(zones, ION_DECK, seat, face),
        "set_aside": lay.pile_view(zones, SET_ASIDE, seat, face),
        "exchange": _exchange_view(state),
        "seats": seats,
        "history": [dict(h) for h in state["history"]],
        "last_collected": _last_collected(state),
        "you": you,
    }
