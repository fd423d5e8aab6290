"""Cards, chains and the compounds as views and events show them, built as their
declared ``TypedDict``s (:mod:`.wire`), so ``mypy --strict`` checks every member.

>>> card_json(1)["key"], card_json(1)["value"], card_json(56)["id"]
('styrene', 1, 56)
>>> [m["key"] for m in monomer_table()][:2]
['styrene', 'methyl_methacrylate']
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, TypeVar

from . import wire
from .cards import (
    DECK_FILE,
    INITIATOR,
    INITIATORS,
    MONOMER,
    MONOMERS,
    TERMINATION,
    Face,
    all_ids,
    face,
)
from .chains import GROWING, accepts, composition, current_monomer, mass_of, values

T = TypeVar("T")


def _printed(value: T | None, what: str, f: Face) -> T:
    """A member every card with a formula prints: the deck file gives it (a card
    without one fails when this module is loaded, as a wrong enum does in ``wire``)."""
    if value is None:
        raise ValueError(f"{DECK_FILE}: {f.key} has a formula but no {what}")
    return value


@cache
def card_json(card: int) -> wire.Card:
    """A card as views and events show it (shared and read-only)."""
    f = face(card)
    out: wire.Card = {
        "id": card,
        "kind": wire.KIND[f.kind],
        "key": wire.CARD_KEY[f.key],
        "name": f.name,
        "joker": f.joker,
    }
    if f.kind == MONOMER:
        out["value"] = f.value
    if f.formula is not None:
        out["formula"] = f.formula
        out["molar_mass"] = _printed(f.molar_mass, "molar mass", f)
        out["compound"] = _printed(f.compound, "compound", f)
        out["smiles"] = _printed(f.smiles, "structure", f)
    if f.kind == INITIATOR:
        out["radicals"] = f.radicals
        out["fragment"] = _printed(f.fragment, "fragment", f)
    elif f.kind == TERMINATION:
        out["mechanism"] = wire.MECHANISM[_printed(f.mechanism, "mechanism", f)]
    return out


_DECK = [card_json(c) for c in all_ids(1)]  # every face, once: a bad deck file fails here


def _structure(f: Face) -> wire.Structure:
    return {
        "name": f.name,
        "compound": _printed(f.compound, "compound", f),
        "formula": _printed(f.formula, "formula", f),
        "molar_mass": _printed(f.molar_mass, "molar mass", f),
        "smiles": _printed(f.smiles, "structure", f),
    }


def _monomer(f: Face) -> wire.Monomer:
    return {
        "key": wire.MONOMER_KEY[f.key],
        **_structure(f),
        "polymer": _printed(f.polymer, "polymer", f),
    }


def _initiator(f: Face) -> wire.Initiator:
    return {
        "key": wire.INITIATOR_KEY[f.key],
        **_structure(f),
        "radicals": f.radicals,
        "fragment": _printed(f.fragment, "fragment", f),
        "reaction": _printed(f.reaction, "reaction", f),
    }


_MONOMER_TABLE = tuple(_monomer(f) for f in MONOMERS.values())
_INITIATOR_TABLE = tuple(_initiator(f) for f in INITIATORS.values())


def monomer_table() -> list[wire.Monomer]:
    """The four monomers with their formula, molar mass and structure, as views list
    them (shared and read-only entries)."""
    return list(_MONOMER_TABLE)


def initiator_table() -> list[wire.Initiator]:
    """The initiators with their formula, molar mass, structure and radicals, as views
    list them (shared and read-only entries)."""
    return list(_INITIATOR_TABLE)


def chain_view(chain: Mapping[str, Any], per_card: str, mode: str, end_groups: bool) -> wire.Chain:
    """A chain as everyone sees it (the table is public), with its molar mass Mi as it
    stands (what it would count if it were terminated now)."""
    units_of = composition(chain, per_card)
    return {
        "id": chain["id"],
        "owner": chain["owner"],
        "state": chain["state"],
        "monomer": wire.MONOMER_KEY[current_monomer(chain)],
        "units": sum(units_of.values()),
        "composition": units_of,
        "values": values(chain),
        "accepts": accepts(chain, mode) if chain["state"] == GROWING else [],
        "ends": list(chain["ends"]),
        "mechanism": chain["mechanism"],
        "mi": mass_of(units_of, chain["ends"], end_groups)["mi"],
        "cards": [card_json(c) for c in chain["cards"]],
    }
