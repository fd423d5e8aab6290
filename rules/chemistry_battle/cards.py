"""The cards of Chemistry Battle: the Basic Deck of 54 Elements and the deal table.

A card's id is its atomic number (each element is in the deck once), so the card
with the highest id on the table wins the round.

>>> card(26)
{'id': 26, 'z': 26, 'symbol': 'Fe', 'name': 'Iron'}
>>> label(26)
'26 Fe'
>>> DEAL_TABLE[4], DEAL_TABLE[3]
((13, 2), (18, 0))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.chemistry.decks import basic_deck

from .wire import Card


def _card(entry: Mapping[str, Any]) -> Card:
    return {"id": entry["id"], "z": entry["z"], "symbol": entry["symbol"], "name": entry["name"]}


DECK: tuple[Card, ...] = tuple(_card(entry) for entry in basic_deck())
"""Every card, in atomic-number order; ``DECK[z - 1]`` is the card ``z``."""

CARD_IDS: tuple[int, ...] = tuple(c["id"] for c in DECK)

# Players -> (cards per hand, cards to the kitty). The seed's "3 players, deal 27
# cards" cannot be (3 x 27 = 81): all 54 dealt evenly is 18 each (docs/rules).
DEAL_TABLE: Mapping[int, tuple[int, int]] = {
    2: (27, 0),
    3: (18, 0),
    4: (13, 2),
    5: (10, 4),
    6: (9, 0),
}


def card(z: int) -> Card:
    """A card as views and events show it (a shared, read-only dict)."""
    return DECK[z - 1]


def label(z: int) -> str:
    """The atomic number and symbol a learner reads on the card: ``"26 Fe"``."""
    return f"{z} {DECK[z - 1]['symbol']}"
