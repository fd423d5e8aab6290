"""The atomic-symbol race as the state records it: the word list in force and the
places taken so far. Shared by the game and its bots (imports run one way:
``scoring -> race -> bots -> game``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules.chemistry.words import WordIndex
from rules.core import State


def word_index(state: State) -> WordIndex:
    """The index of the words in force: a teacher's list, or the built-in one."""
    words = state["options"].get("words")
    max_z = int(state["deck_size"])
    if words is None:
        return WordIndex.default(max_z)
    return _custom_index(tuple(words), max_z)


@lru_cache(maxsize=64)
def _custom_index(words: tuple[str, ...], max_z: int) -> WordIndex:
    # memoised: a teacher's list is indexed once per worker, not on every request
    return WordIndex.from_words(words, max_z)


def placings(state: State) -> dict[int, dict[str, Any]]:
    """Seat -> its place record in the word race, for the seats that have placed."""
    return {int(p["seat"]): p for p in state["placings"]}
