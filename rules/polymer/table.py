"""What every Polymer move shares: the clock, the called loans a seat must repay first,
moving cards between hands, and who may act now.

Time is an input, never read from a clock: a move's ``at`` (ms; the service stamps it
on every move), never earlier than the latest time the state has seen (``now_ms``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core import State

SEED_LOOK = "Players should not look at their cards until the timer starts."
SEED_STOP = "Once the timer reaches 0, all players must stop trading"
SEED_CALL = (
    "During the game, a player may at any time “call in” their loan, at which point the "
    "debtor must immediately return the same number of cards to the loaner (or at least as "
    "many cards as they hold) before executing any other trades."
)


# ---------------------------------------------------------------- time --------------
def move_time(state: State, move: Mapping[str, Any]) -> int:
    """The time a move happens: its ``at``, never earlier than the last one seen."""
    at = move.get("at")
    now = int(state["now_ms"])
    return max(now, at) if isinstance(at, int) and not isinstance(at, bool) else now


def time_is_up(state: State, at: int) -> bool:
    deadline = state["deadline_ms"]
    return deadline is not None and at >= int(deadline)


# ---------------------------------------------------------------- loans and hands ---
def blocking_loans(state: State, seat: int) -> list[dict[str, Any]]:
    """Called loans this seat still owes (each blocks every move but its repayment)."""
    return [ln for ln in state["loans"] if ln["debtor"] == seat and ln["called"]]


def transfer(hands: list[list[int]], giver: int, taker: int, cards: Sequence[int]) -> None:
    moving = set(cards)
    hands[giver] = [c for c in hands[giver] if c not in moving]
    hands[taker] = sorted(hands[taker] + list(cards))


# ---------------------------------------------------------------- who acts ----------
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
