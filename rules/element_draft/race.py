"""The atomic-symbol race as the state records it: the word list in force and the
places taken so far. Shared by the game and its bots (imports run one way:
``scoring -> race -> bots -> game``)."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files
from typing import Any

from rules.chemistry.words import DEFAULT_WORDS, WordIndex
from rules.core import State

SEED_DECK_SIZES = (36, 54, 86, 103)
"""The deck sizes of the seed's table (2, 3-5, 6 and 7-10 players)."""


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


# ---------------------------------------------------------------- the served list ---
_SOURCE = re.compile(
    r"Debian package (?P<package>\S+) (?P<version>\S+) \((?P<deb>[^)]*)\), file (?P<file>\S+)"
)


def _header() -> list[str]:
    """The ``#`` header of the shipped list, without the comment marks."""
    text = files("rules.chemistry").joinpath("data/words5.txt").read_text(encoding="utf-8")
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[2:] if line.startswith("# ") else line[1:])
    return lines


def _after(lines: list[str], label: str) -> str:
    return next((ln[len(label) :].strip() for ln in lines if ln.startswith(label)), "")


def _block(lines: list[str], first: str, stop: str) -> list[str]:
    """The lines from the one starting with ``first`` (its text after ``first``) up to
    the one starting with ``stop``, stripped."""
    start = next(i for i, ln in enumerate(lines) if ln.startswith(first))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(stop)), len(lines))
    block = [lines[start][len(first) :], *lines[start + 1 : end]]
    return [ln.strip() for ln in block if ln.strip()]


def _numbered(lines: list[str]) -> list[str]:
    """Join wrapped lines into items, each starting with its number ("1. ...")."""
    items: list[str] = []
    for line in lines:
        if re.match(r"\d+\. ", line) or not items:
            items.append(line)
        else:
            items[-1] += " " + line
    return items


def word_list() -> dict[str, Any]:
    """The built-in word list of the atomic-symbol race, with its provenance, as served
    at ``GET /v1/games/element-draft/words`` (a ``GameRules`` resource).

    Everything is read from the shipped file ``rules/chemistry/data/words5.txt`` (its
    header says where the words come from and how they were filtered), so the served
    list and the list the rules use cannot differ.

    >>> doc = word_list()
    >>> doc["count"] == len(doc["words"]) == len(DEFAULT_WORDS), doc["source"]["package"]
    (True, 'wamerican')
    """
    header = _header()
    source = _after(header, "Source:")
    found = _SOURCE.search(source)
    parts = found.groupdict() if found else {}
    words = list(DEFAULT_WORDS)
    return {
        "name": "words",
        "title": "Five-letter words for the atomic-symbol race (the built-in list)",
        "count": len(words),
        "words": words,
        "spellable_at_deck_size": {
            str(size): len(WordIndex.default(size).spellable_words) for size in SEED_DECK_SIZES
        },
        "source": {
            "package": parts.get("package", ""),
            "version": parts.get("version", ""),
            "file": parts.get("file", ""),
            "description": source,
            "sha256": _after(header, "Source sha256:"),
            "upstream": "SCOWL (Spell Checker Oriented Word Lists), Kevin Atkinson and "
            "contributors, via Debian's wamerican package",
        },
        "build": {
            "script": "scripts/build_words.py",
            "command": "make words",
            "filters": _numbered(_block(header, "Filters:", "Counts:")),
            "counts": _after(header, "Counts:"),
        },
        "licence": "\n".join(_block(header, "Licence:", "\x00")),
        "rule": "A word counts once a seat's drafted cards include the elements of one of "
        "its spellings: symbols of distinct elements with Z <= the deck size, written one "
        "after another, two-letter symbols never split, case ignored.",
    }
