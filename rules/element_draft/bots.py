"""Bots for the draft: random (uniform over the hand) and greedy (largest immediate gain)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import RuleViolation, State, mask
from rules.rng import RngState, choice

from . import scoring
from .race import placings, word_index

BOTS = ("random", "greedy")


def choose(state: State, seat: int, bot: str, candidates: Sequence[int]) -> tuple[int, RngState]:
    """The card ``bot`` drafts for ``seat`` and the advanced random state."""
    rng: RngState = state["rng"]
    if bot == "random":
        return _random(rng, candidates)
    if bot == "greedy":
        return greedy_pick(state, seat, candidates), rng
    raise RuleViolation("unknown_bot", f"There is no bot {bot!r}; choose one of {list(BOTS)}.")


def _random(rng: RngState, candidates: Sequence[int]) -> tuple[int, RngState]:
    rng, z = choice(rng, list(candidates))
    return z, rng


def gain(state: State, seat: int, z: int) -> int:
    """Score change for ``seat`` if it drafted ``z`` now and the others stood still.

    The word race counts the place the seat would take this turn.
    """
    drafted = [list(d) for d in state["drafted"]]
    placed = placings(state)
    bismuth = bool(state["options"]["bismuth_radioactive"])
    before = scoring.seat_breakdown(seat, drafted, placed, bismuth_radioactive=bismuth)["total"]
    drafted[seat].append(z)
    after_placed: dict[int, dict[str, Any]] = dict(placed)
    if seat not in placed and word_index(state).first_completed_by(mask(drafted[seat]), z):
        place = len(placed) + 1
        after_placed[seat] = {"points": scoring.place_points(place)}
    after = scoring.seat_breakdown(seat, drafted, after_placed, bismuth_radioactive=bismuth)
    return int(after["total"]) - int(before)


def greedy_pick(state: State, seat: int, candidates: Sequence[int]) -> int:
    """Largest gain; ties go to the highest atomic number (the seed's tie-break)."""
    return max(candidates, key=lambda z: (gain(state, seat, z), z))
