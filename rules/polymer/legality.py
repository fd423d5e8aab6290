"""Who may do what now in Polymer: the clock, loan calls, ``verify``, ``to_act`` and
``legal_moves``.

``verify`` checks what every move shares (phase, clock, a called loan) and then the
move type's own ``moves.VERIFY[type]``; ``can`` and ``legal_moves`` reuse it, so
legality lives in one place. Time is an input: a move's ``at`` (ms), never a clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import Move, RuleViolation, State, check_seat
from rules.core import can as core_can

from . import moves as mv
from .moves import SEED_CALL, blocking_loans

SEED_LOOK = "Players should not look at their cards until the timer starts."
SEED_STOP = "Once the timer reaches 0, all players must stop trading"


# ---------------------------------------------------------------- time --------------
def move_time(state: State, move: Mapping[str, Any]) -> int:
    """The time a move happens: its ``at``, never earlier than the last one seen."""
    at = move.get("at")
    now = int(state["now_ms"])
    return max(now, at) if isinstance(at, int) and not isinstance(at, bool) else now


def time_is_up(state: State, at: int) -> bool:
    deadline = state["deadline_ms"]
    return deadline is not None and at >= int(deadline)


# ---------------------------------------------------------------- legality ----------
def verify(state: State, seat: int, move: Move) -> None:
    """Raise the ``RuleViolation`` that forbids ``move`` now, if any (one place for legality)."""
    check_seat(state, seat)
    kind = move["type"]
    at = move_time(state, move)
    if state["phase"] == "ended":
        raise RuleViolation(
            "timer_expired", "Time is up: the game is over.", rule=SEED_STOP, status=409
        )
    if kind == "time_up":
        if state["phase"] != "trading":
            raise RuleViolation(
                "timer_running", "The timer has not started yet, so time cannot be up."
            )
        if not time_is_up(state, at):
            left = int(state["deadline_ms"]) - at
            raise RuleViolation(
                "timer_running",
                f"Time is not up yet: {left} ms left before the deadline.",
                rule=SEED_STOP,
                left_ms=left,
            )
        return
    if state["phase"] == "waiting":
        if kind != "ready":
            raise RuleViolation(
                "not_started",
                "The timer has not started: declare yourself ready and wait for the others "
                "(or the host) to start it.",
                rule=SEED_LOOK,
            )
        if state["ready"][seat]:
            raise RuleViolation("already_ready", "You have already declared you are ready.")
        return
    if time_is_up(state, at):
        raise RuleViolation(
            "timer_expired",
            "Time is up: trading has stopped.",
            rule=SEED_STOP,
            status=409,
            deadline_ms=state["deadline_ms"],
        )
    if kind == "ready":
        raise RuleViolation("already_started", "The timer is already running.")
    owed = blocking_loans(state, seat)
    if owed and not (kind == "repay" and any(ln["id"] == move["loan"] for ln in owed)):
        loan = owed[0]
        count = min(int(loan["outstanding"]), len(state["hands"][seat]))
        raise RuleViolation(
            "loan_called",
            f"Seat {loan['lender']} has called in its loan #{loan['id']}: return {count} "
            f"card{'s' if count != 1 else ''} to seat {loan['lender']} before anything else.",
            rule=SEED_CALL,
            lender=loan["lender"],
            loan=loan["id"],
            owed=count,
        )
    mv.VERIFY[kind](state, seat, move)


def can(state: State, seat: int, move: Move) -> bool:
    return core_can(verify, state, seat, move)


def to_act(state: State) -> list[int]:
    phase = state["phase"]
    if phase == "ended":
        return []
    if phase == "waiting":
        return [s for s, r in enumerate(state["ready"]) if not r]
    return [s for s in range(int(state["players"])) if not _stuck(state, s)]


def _stuck(state: State, seat: int) -> bool:
    """No card, nothing offered to it, no loan it may call: nothing it may do but wait
    (a seat that lent everything and called it in waits for its repayment)."""
    if state["hands"][seat]:
        return False
    if any(o["to"] == seat for o in state["offers"]):
        return False
    return not any(
        (ln["lender"] == seat and not ln["called"]) or (ln["debtor"] == seat and ln["called"])
        for ln in state["loans"]
    )


def legal_moves(state: State, seat: int) -> list[Move]:
    """Concrete moves ``seat`` may make now. Offers and loans are combinatorial, so the
    list holds the single-card ones; every move in it passes ``verify``."""
    check_seat(state, seat)
    return [m for m in mv.candidates(state, seat) if can(state, seat, m)]
