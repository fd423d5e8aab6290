"""Decks as data: each deck is a TOML file here, with its provenance and choices.

The files say what a deck holds and why; the chemistry on each card (symbols, names,
masses, element counts of a formula) is derived from :mod:`rules.chemistry`, never
typed into the file.

>>> deck = basic_deck()
>>> len(deck), deck[0], deck[-1]["symbol"]
(54, {'id': 1, 'z': 1, 'symbol': 'H', 'name': 'Hydrogen'}, 'Xe')
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from rules.chemistry.elements import element


def load(name: str) -> dict[str, Any]:
    """The parsed TOML of deck file ``name`` (without ``.toml``)."""
    text = resources.files(__package__).joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def _basic() -> tuple[dict[str, Any], ...]:
    spec = load("basic-54")["deck"]
    first, last = int(spec["first_atomic_number"]), int(spec["last_atomic_number"])
    cards = []
    for z in range(first, last + 1):
        e = element(z)
        cards.append({"id": z, "z": z, "symbol": e.symbol, "name": e.name})
    return tuple(cards)


def basic_deck() -> list[dict[str, Any]]:
    """The Basic Deck of 54 Elements: one card per element, hydrogen to xenon.

    A card's ``id`` is its atomic number (each element is in the deck once).
    """
    return [dict(card) for card in _basic()]
