"""Shared helpers for the polymer-chain game's tests: card ids by name, turns."""

from __future__ import annotations

from typing import Any

from rules.polymerization import GAME
from rules.polymerization.cards import all_ids, face


def ids(key: str, value: int = 0) -> list[int]:
    """Every card id (two decks) with this face."""
    return [c for c in all_ids(2) if face(c).key == key and face(c).value == value]


S1, S2, S3 = (ids("styrene", v) for v in (1, 2, 3))
M1, M2, M3 = (ids("methyl_methacrylate", v) for v in (1, 2, 3))
A1, A2, A3 = (ids("methyl_acrylate", v) for v in (1, 2, 3))
N1, N2, N3 = (ids("acrylonitrile", v) for v in (1, 2, 3))
FENTON, AIBN = ids("fenton"), ids("aibn")
COMB, DISP = ids("combination"), ids("disproportionation")
TEMPO, CTA, COPO = ids("tempo"), ids("cta"), ids("copolymer")


FILLERS = [
    [N3[3], N3[4], M3[3], M3[4]],
    [N3[5], M3[5], A3[4], A3[5]],
    [S3[4], S3[5], A3[3], M3[2]],
    [S3[3], N3[2], A3[2], M3[1]],
]
"""Cards each seat is dealt on top of a test's hand, only ever discarded (pass_turn)."""


def deal(hands: list[list[int]], bare: tuple[int, ...] = (), **options: Any) -> dict[str, Any]:
    """A 2-4 player game with these hands, each completed with its seat's fillers
    (except the ``bare`` seats); the other cards are shuffled into the stack."""
    dealt = [h if s in bare else [*h, *FILLERS[s]] for s, h in enumerate(hands)]
    return GAME.setup(len(hands), {"deal": dealt, **options}, 7)


def pass_turn(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """``seat`` draws and discards one of its fillers."""
    if state["phase"] == "draw":
        state = drawn(state, seat)
    card = next(c for c in FILLERS[seat] if c in state["zones"]["hand"][seat])
    return GAME.apply(state, seat, {"type": "discard", "card": card})[0]


def play(
    state: dict[str, Any], seat: int, move: dict[str, Any]
) -> tuple[dict[str, Any], list[Any]]:
    """``seat`` draws if it must, then makes ``move``; the move's events."""
    if state["phase"] == "draw":
        state, _ = GAME.apply(state, seat, {"type": "draw"})
    return GAME.apply(state, seat, move)


def discard(state: dict[str, Any], seat: int, card: int) -> dict[str, Any]:
    return play(state, seat, {"type": "discard", "card": card})[0]


def chain(state: dict[str, Any], chain_id: int) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in state["chains"] if c["id"] == chain_id)
    return found


def drawn(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """``seat`` draws (to reach its play step)."""
    return GAME.apply(state, seat, {"type": "draw"})[0]


def next_draw(state: dict[str, Any], card: int) -> dict[str, Any]:
    """The state with ``card`` (somewhere in the stack) moved to the top of the stack."""
    stack = [c for c in state["zones"]["stack"] if c != card]
    assert len(stack) == len(state["zones"]["stack"]) - 1, f"{card} is not in the stack"
    return {**state, "zones": {**state["zones"], "stack": [*stack, card]}}
