"""The limits of a teacher's own compound deck, as ``custom-54.toml`` states them.

Kept apart from :mod:`.compound`, which builds the decks, so that the options that
carry a teacher's list (:mod:`rules.draw_discard_wire`) can be bounded by these limits
while the deck builder imports the card faces those declarations define.

>>> custom_limits()
{'min_compounds': 6, 'max_compounds': 20, 'max_name_length': 60, 'max_atoms': 9}
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import load

HAND_AFTER_DRAW = 9
"""7 cards dealt + 2 drawn: the largest capture a player can make on its first turn, and
so the most atoms a compound card may have."""


@cache
def custom_spec() -> dict[str, Any]:
    """The parsed ``custom-54.toml``: the deck's head, its wild cards and element cards."""
    return load("custom-54")


def custom_limits() -> dict[str, int]:
    """The size limits of a teacher's compound list."""
    head = custom_spec()["deck"]
    return {
        "min_compounds": int(head["min_compounds"]),
        "max_compounds": int(head["max_compounds"]),
        "max_name_length": int(head["max_name_length"]),
        "max_atoms": HAND_AFTER_DRAW,
    }
