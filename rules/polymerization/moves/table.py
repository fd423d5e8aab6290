"""What moves do to the table: chains put, grown and started, cards moved between the
hand, the table and the set-aside piles, chains as events show them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core import State

from ..cards import MONOMERS, TEMPO_FACE, face
from ..chains import GROWING, Chain, units
from ..layout import LAYOUT, TABLE, hand, set_aside
from ..shown import chain_view
from ..wire import Chain as ChainView


def shown(state: State, chain: Mapping[str, Any]) -> ChainView:
    """A chain as views and events show it."""
    opts = state["options"]
    return chain_view(chain, opts["units_per_card"], opts["propagation"], opts["end_groups"])


def units_of(state: State, chain: Mapping[str, Any]) -> int:
    return units(chain, state["options"]["units_per_card"])


def put(state: State, chain: Chain) -> None:
    chains = state["chains"]
    for i, old in enumerate(chains):
        if old["id"] == chain["id"]:
            chains[i] = chain
            return
    chains.append(chain)


def get(state: State, chain_id: int) -> Chain:
    return dict(next(c for c in state["chains"] if c["id"] == chain_id))


def new_chain(state: State, seat: int, cards: list[int], fragment: str) -> Chain:
    chain_id = int(state["next_chain"])
    state["next_chain"] = chain_id + 1
    return {
        "id": chain_id,
        "owner": seat,
        "state": GROWING,
        "cards": cards,
        "ends": [fragment],
        "mechanism": None,
    }


def grow(chain: Chain, cards: Sequence[int]) -> Chain:
    return {**chain, "cards": [*chain["cards"], *cards]}


def to_table(state: State, seat: int, cards: Sequence[int]) -> None:
    state["zones"] = LAYOUT.move(state["zones"], hand(seat), TABLE, list(cards))


def to_set_aside(state: State, seat: int, chain: Chain, extra: Sequence[int] = ()) -> None:
    """Move a terminated chain's cards from the table (and ``extra`` from the hand) to
    ``seat``'s set-aside pile."""
    on_table = [c for c in chain["cards"] if c not in extra]
    zones = LAYOUT.move(state["zones"], TABLE, set_aside(seat), on_table)
    if extra:
        zones = LAYOUT.move(zones, hand(seat), set_aside(seat), list(extra))
    state["zones"] = zones


def name(key: str) -> str:
    return MONOMERS[key].name.lower()


def values_text(cards: Sequence[int]) -> str:
    return ", ".join(str(face(c).value) for c in cards)


def tempo_group() -> str:
    """The end group TEMPO adds to a capped chain."""
    assert TEMPO_FACE.formula is not None
    return TEMPO_FACE.formula
