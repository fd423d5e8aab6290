"""Polymer's clock in a hosted session: the Redis server's time, a deadline, time-up.

The rules stay pure: each move is stamped with the server time (``at``); the store
refuses any commit after the deadline by Redis's own clock; once it has passed the
service applies ``time_up`` itself (settling loans), exactly once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import fields, validate

from rules.core import JSON, Event, Move, State
from rules.polymer import GAME

from ..sessions.flow import iso
from .schemas import PoPublicLoanSchema


def public_loans(state: Mapping[str, Any]) -> list[dict[str, Any]]:
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


class PolymerClock:
    """The :class:`service.sessions.hooks.SessionHooks` of Polymer."""

    def fields(self) -> Mapping[str, fields.Field[Any]]:
        return {
            "phase": fields.String(
                required=True, validate=validate.OneOf(["waiting", "trading", "ended"])
            ),
            "deadline_ms": fields.Integer(
                required=True,
                allow_none=True,
                metadata={"description": "When time is up (ms since the epoch, server clock)."},
            ),
            "deadline_at": fields.String(
                required=True, allow_none=True, metadata={"format": "date-time"}
            ),
            "server_now_ms": fields.Integer(
                required=True, metadata={"description": "The server clock (Redis's)."}
            ),
            "server_now": fields.String(required=True, metadata={"format": "date-time"}),
            "loans": fields.List(
                fields.Nested(PoPublicLoanSchema),
                required=True,
                metadata={"description": "Open loans and loan calls (public)."},
            ),
        }

    def block(self, state: State, now_ms: int) -> JSON:
        return {
            "phase": state["phase"],
            "deadline_ms": state["deadline_ms"],
            "deadline_at": iso(state["deadline_ms"]),
            "server_now_ms": now_ms,
            "server_now": iso(now_ms),
            "loans": public_loans(state),
        }

    def prepare(self, state: State, now_ms: int) -> State:
        return {**state, "now_ms": max(int(state["now_ms"]), now_ms)}

    def stamp(self, move: Move, now_ms: int) -> Move:
        return {**move, "at": now_ms} if isinstance(move, dict) else move

    def deadline(self, state: State) -> int | None:
        return int(state["deadline_ms"]) if state["phase"] == "trading" else None

    def expire(self, state: State) -> tuple[State, list[Event]]:
        return GAME.apply(state, 0, {"type": "time_up", "at": int(state["deadline_ms"])})

    def public(self, state: State) -> dict[str, Any]:
        return {"phase": state["phase"], "loans": public_loans(state)}


CLOCK = PolymerClock()
