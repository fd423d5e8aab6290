"""The greedy bot (the random bot is a uniform choice among the legal moves).

Greedy, using only what its seat can see:

1. it draws when it must;
2. if its longest growing chain is *threatened* (at least ``THREAT_UNITS`` units while
   some termination, CTA or copolymer card is out of its sight, in the stack or in an
   opponent's hand), it secures that chain if it can: terminated for itself by a CTA
   or a termination card (the most units secured), else capped with TEMPO;
3. otherwise it grows or steals: the move that adds the most units to its side of the
   table (a chain taken from an opponent counts whole), playing more cards on a tie;
4. with nothing to grow or steal it discards its least useful card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import Move, State

from .cards import COPOLYMER, CTA, INITIATOR, MONOMER, TERMINATION, all_ids, face
from .chains import GROWING, current_monomer, units
from .layout import LAYOUT

THREAT_UNITS = 4
STEALERS = (TERMINATION, CTA, COPOLYMER)


def _units(state: State, chain: dict[str, Any]) -> int:
    return units(chain, state["options"]["units_per_card"])


def _chain(state: State, chain_id: int) -> dict[str, Any]:
    chain: dict[str, Any] = next(c for c in state["chains"] if c["id"] == chain_id)
    return chain


def _added(state: State, cards: Sequence[int]) -> int:
    per_card = state["options"]["units_per_card"]
    return sum(
        face(c).value if per_card == "value" else 1 for c in cards if face(c).kind == MONOMER
    )


def unseen_stealers(state: State, seat: int) -> int:
    """How many stealing jokers ``seat`` cannot see (in the stack, hidden discards or
    other hands): each one may be in an opponent's hand."""
    decks = int(state["options"]["decks"])
    seen = LAYOUT.visible(state["zones"], seat)
    total = 0
    visible = 0
    for card in all_ids(decks):
        if face(card).kind in STEALERS:
            total += 1
            visible += card in seen
    return total - visible


def threatened(state: State, seat: int) -> dict[str, Any] | None:
    """The bot's longest growing chain, if it is worth securing now."""
    mine = [c for c in state["chains"] if c["owner"] == seat and c["state"] == GROWING]
    if not mine:
        return None
    longest: dict[str, Any] = max(mine, key=lambda c: (_units(state, c), -c["id"]))
    if _units(state, longest) < THREAT_UNITS or unseen_stealers(state, seat) == 0:
        return None
    return longest


def _secured(state: State, seat: int, move: Move, chain_id: int) -> int | None:
    """Units this move terminates for ``seat`` if it secures chain ``chain_id``, else None."""
    kind = move["type"]
    if kind == "transfer" and move["chain"] == chain_id:
        return _units(state, _chain(state, chain_id))
    if kind == "terminate" and chain_id in move["chains"]:
        return sum(_units(state, _chain(state, c)) for c in move["chains"])
    if kind == "cap" and move["chain"] == chain_id:
        return 0
    return None


def gain(state: State, seat: int, move: Move) -> int:
    """Units a grow-or-steal move adds to ``seat``'s side of the table."""
    kind = move["type"]
    if kind == "initiate":
        return sum(_added(state, cs) for cs in move["monomers"])
    if kind in ("propagate", "reactivate"):
        return _added(state, move["cards"])
    if kind in ("transfer", "copolymerize"):
        target = _chain(state, move["chain"])
        taken = _units(state, target) if target["owner"] != seat else 0
        return taken + _added(state, move["monomers"])
    if kind == "terminate":
        return sum(
            _units(state, c)
            for c in (_chain(state, i) for i in move["chains"])
            if c["owner"] != seat
        )
    return 0


def _cards_used(move: Move) -> int:
    kind = move["type"]
    if kind == "initiate":
        return 1 + sum(len(cs) for cs in move["monomers"])
    if kind in ("propagate", "reactivate"):
        return len(move["cards"])
    if kind in ("transfer", "copolymerize"):
        return 1 + len(move["monomers"])
    return 1


def usefulness(state: State, seat: int, card: int) -> float:
    """How much the bot wants to keep ``card`` (it discards the least useful)."""
    f = face(card)
    if f.kind != MONOMER:
        return 3.0 if f.kind != INITIATOR else 2.0
    kinds = {
        current_monomer(c) for c in state["chains"] if c["owner"] == seat and c["state"] == GROWING
    }
    if f.key in kinds:
        return 2.0 + f.value / 10
    return 1.5 if f.value == 1 else 1.0 - f.value / 10


def choose(state: State, seat: int, legal: Sequence[Move]) -> Move:
    """The greedy bot's move among ``legal`` (never empty)."""
    if state["phase"] == "draw":
        return legal[0]
    chain = threatened(state, seat)
    if chain is not None:
        secure = [
            (value, m)
            for m in legal
            if (value := _secured(state, seat, m, chain["id"])) is not None
        ]
        if secure:
            return max(secure, key=lambda vm: (vm[0], vm[1]["type"] != "cap"))[1]
    best: Move | None = None
    best_key: tuple[int, int] | None = None
    for move in legal:
        if move["type"] in ("discard", "cap"):
            continue
        key = (gain(state, seat, move), _cards_used(move))
        if key[0] > 0 and (best_key is None or key > best_key):
            best, best_key = move, key
    if best is not None:
        return best
    discards = [m for m in legal if m["type"] == "discard"]
    return min(discards, key=lambda m: (usefulness(state, seat, m["card"]), m["card"]))
