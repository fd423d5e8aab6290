"""Whose move it is, and the step each move type belongs to.

An exchange has three steps (``state["phase"]``): the initiating player plays
(``initiate``), the responding player answers (``respond``), the initiating player
calls for reinforcements or declines (``reinforce``). Every move is refused once the
game is over and to a seat that is not the one to act (:func:`waiting`); a move of
another step than the current one is ``wrong_step`` (:func:`at_step`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.actions import Action, Candidates, Effect, Verify
from rules.core import Move, RuleViolation, State

from .. import seed
from ..table import deck_of, finished, hand

STEPS: Mapping[str, tuple[str, ...]] = {
    "initiate": ("play",),
    "respond": ("respond",),
    "reinforce": ("reinforce", "decline"),
}
"""The move types of each step."""


def actor(state: State) -> int | None:
    """The seat that acts now (None once the game is over)."""
    phase = state["phase"]
    if phase in ("initiate", "reinforce"):
        return int(state["initiator"])
    if phase == "respond":
        return int(state["responder"])
    return None


def to_act(state: State) -> list[int]:
    seat = actor(state)
    return [] if seat is None else [seat]


def doing(phase: str) -> str:
    return {
        "initiate": "play a card as the initiating player",
        "respond": "answer as the responding player",
        "reinforce": "decide on reinforcements",
    }[phase]


def waiting(state: State, seat: int) -> None:
    """What forbids ``seat`` any move now: the game is over, or another seat acts."""
    if finished(state):
        raise RuleViolation("game_over", "The game is over: no more plays can be made.")
    seat_now = actor(state)
    if seat != seat_now:
        raise RuleViolation(
            "not_your_turn",
            f"It is seat {seat_now}'s turn to {doing(str(state['phase']))}; wait for your turn.",
            rule=seed.ORDER,
            to_act=seat_now,
        )


def at_step(
    step: str, shape: type, verify: Verify, apply: Effect, candidates: Candidates
) -> Action:
    """A move type of ``step``: refused (``wrong_step``) and never listed at another."""

    def verify_at_step(state: State, seat: int, move: Move) -> None:
        phase = str(state["phase"])
        if phase != step:
            raise RuleViolation(
                "wrong_step",
                f"You must {doing(phase)} now: send {' or '.join(STEPS[phase])}, "
                f"not {move['type']}.",
                expected=list(STEPS[phase]),
            )
        verify(state, seat, move)

    def candidates_at_step(state: State, seat: int) -> Iterable[Move]:
        return candidates(state, seat) if state["phase"] == step else ()

    return Action(shape, verify_at_step, apply, candidates_at_step)


def check_in_hand(state: State, seat: int, cards: list[int]) -> None:
    """Refuse a move naming a card that is not in ``seat``'s hand (``not_in_hand``)."""
    deck = deck_of(state)
    mine = hand(state, seat)
    missing = [c for c in cards if c not in mine]
    if missing:
        names = ", ".join(
            f"{c} ({deck.face(c)['ion']})" if 1 <= c <= len(deck) else str(c) for c in missing
        )
        held = ", ".join(f"{c} ({deck.face(c)['ion']})" for c in mine) or "no cards"
        raise RuleViolation(
            "not_in_hand",
            f"Card {names} is not in your hand; you hold {held}.",
            cards=missing,
        )
