"""Polymer in a hosted session: its clock, and the two operations it adds to moves.

The rules never read a clock. The service passes its own (the session store's, the
one clock every device and instance shares) as ``now_ms``: it is stamped on every
move (``at``), the deadline is enforced by the store, and once it has passed the
service applies ``time_up`` itself, exactly once. The host may start the timer
without waiting for every seat to be ready; a seat may check the arrangement it
would show.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import JSON, Clock, Event, Move, State
from rules.times import iso

from . import wire
from .bots import answers, pace
from .moves import apply, start_timer


def public_loans(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Open loans and loan calls, as everyone may see them."""
    return [
        {
            "id": ln["id"],
            "lender": ln["lender"],
            "debtor": ln["debtor"],
            "outstanding": ln["outstanding"],
            "called": ln["called"],
        }
        for ln in state["loans"]
    ]


def block(state: State, now_ms: int) -> JSON:
    return {
        "phase": state["phase"],
        "deadline_ms": state["deadline_ms"],
        "deadline_at": iso(state["deadline_ms"]),
        "server_now_ms": now_ms,
        "server_now": iso(now_ms),
        "loans": public_loans(state),
    }


def prepare(state: State, now_ms: int) -> State:
    return {**state, "now_ms": max(int(state["now_ms"]), now_ms)}


def stamp(move: Move, now_ms: int) -> Move:
    return {**move, "at": now_ms}


def deadline(state: State) -> int | None:
    return int(state["deadline_ms"]) if state["phase"] == "trading" else None


def expire(state: State) -> tuple[State, list[Event]]:
    return apply(state, 0, {"type": "time_up", "at": int(state["deadline_ms"])})


def started(state: State, now_ms: int) -> State:
    return start_timer(state, now_ms)[0]


CLOCK = Clock(
    public=wire.SessionClock,
    block=block,
    prepare=prepare,
    stamp=stamp,
    deadline=deadline,
    ends_at=lambda state: state["deadline_ms"],
    expire=expire,
    started=started,
    stored=lambda state: {"phase": state["phase"], "loans": public_loans(state)},
    pace=pace,
    answers=answers,
)
