"""Spelling five-letter words with element symbols, and a fast index to detect them.

Seed: "The first player to spell a 5-letter word with their atomic symbols scores
8 points." A word is spelled by writing the symbols of distinct elements one after
another: each element card exists once in the deck, so no element twice in one
spelling; a two-letter symbol is never split; case does not matter.

Sets of drafted cards are bitmasks: element ``z`` is bit ``1 << z`` (bit 0 unused).

>>> spellings("bacon")
((5, 89, 8, 7), (56, 6, 8, 7), (56, 27, 7))
>>> index = WordIndex(["bacon", "sheep"], max_z=103)
>>> index.spellable_words
('bacon',)
>>> hand = (1 << 56) | (1 << 27) | (1 << 7)
>>> index.first_completed_by(hand, 7)
Spelling(word='bacon', numbers=(56, 27, 7), symbols=('Ba', 'Co', 'N'))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from rules.chemistry.elements import ELEMENTS, MAX_Z
from rules.core import RuleViolation

__all__ = [
    "DEFAULT_WORDS",
    "WORD_LENGTH",
    "WORD_RULE",
    "Spelling",
    "WordIndex",
    "spellings",
    "validate_word_list",
]

WORD_LENGTH = 5
WORD_RULE = "The first player to spell a 5-letter word with their atomic symbols scores 8 points."

_Z_BY_SYMBOL: dict[str, int] = {e.symbol.lower(): e.number for e in ELEMENTS}
_SYMBOL: tuple[str, ...] = ("", *(e.symbol for e in ELEMENTS))


def _check_max_z(max_z: int) -> int:
    if not isinstance(max_z, int) or isinstance(max_z, bool) or not 1 <= max_z <= MAX_Z:
        raise ValueError(f"max_z must be an int in 1..{MAX_Z}, not {max_z!r}")
    return max_z


def spellings(word: str, max_z: int = MAX_Z) -> tuple[tuple[int, ...], ...]:
    """Every way to spell ``word`` with distinct elements of atomic number <= ``max_z``.

    Each way is a tuple of atomic numbers in word order; the ways are sorted.
    Case-insensitive; a word with a character that is no symbol letter has none.

    >>> spellings("CHOPS")  # C H O P S, or C Ho P S
    ((6, 1, 8, 15, 16), (6, 67, 15, 16))
    >>> spellings("bacon", max_z=88)  # B Ac O N needs actinium (89)
    ((56, 6, 8, 7), (56, 27, 7))
    >>> spellings("bacon", max_z=36)  # and Ba Co N, Ba C O N need barium (56)
    ()
    >>> spellings("booth")  # B O O Th would need oxygen twice
    ()
    """
    _check_max_z(max_z)
    text = word.lower()
    found: list[tuple[int, ...]] = []
    path: list[int] = []

    def walk(i: int, used: int) -> None:
        if i == len(text):
            found.append(tuple(path))
            return
        for width in (1, 2):
            z = _Z_BY_SYMBOL.get(text[i : i + width]) if i + width <= len(text) else None
            if z is None or z > max_z or used >> z & 1:
                continue
            path.append(z)
            walk(i + width, used | 1 << z)
            path.pop()

    if text:
        walk(0, 0)
    return tuple(sorted(found))


@dataclass(frozen=True)
class Spelling:
    """One way to spell ``word``: element numbers and symbols in word order.

    >>> s = Spelling("bacon", (56, 27, 7), ("Ba", "Co", "N"))
    >>> "".join(s.symbols), s.mask == (1 << 56) | (1 << 27) | (1 << 7)
    ('BaCoN', True)
    """

    word: str
    numbers: tuple[int, ...]
    symbols: tuple[str, ...]

    @property
    def mask(self) -> int:
        """The elements used, as a bitmask (bit ``1 << z``)."""
        bits = 0
        for z in self.numbers:
            bits |= 1 << z
        return bits


def _mask_of(numbers: Iterable[int]) -> int:
    bits = 0
    for z in numbers:
        bits |= 1 << z
    return bits


class WordIndex:
    """Which words a set of element cards spells, indexed by element.

    Words are normalised to lower case and de-duplicated. Spellings are ordered
    by word (alphabetically), then by their tuple of atomic numbers; "first" in
    the methods below means first in that order. Built once per word list and deck
    size, then every check is a scan of integer masks.

    >>> index = WordIndex(["bacon", "scone", "chops"], max_z=103)
    >>> len(index), index.spellable_words
    (3, ('bacon', 'chops', 'scone'))
    >>> hand = sum(1 << z for z in (6, 1, 8, 15, 16, 26))
    >>> index.first_spelled(hand).word
    'chops'
    >>> index.first_completed_by(hand, 26) is None  # Fe is in no word here
    True
    """

    def __init__(self, words: Iterable[str], max_z: int = MAX_Z) -> None:
        self.max_z = _check_max_z(max_z)
        unique = sorted({w.lower() for w in words})
        self.words: tuple[str, ...] = tuple(unique)
        all_spellings: list[Spelling] = []
        for w in unique:
            for numbers in spellings(w, max_z):
                symbols = tuple(_SYMBOL[z] for z in numbers)
                all_spellings.append(Spelling(w, numbers, symbols))
        self.spellings: tuple[Spelling, ...] = tuple(all_spellings)
        self.spellable_words: tuple[str, ...] = tuple(dict.fromkeys(s.word for s in all_spellings))
        masks = [_mask_of(s.numbers) for s in all_spellings]
        by_z_masks: list[list[int]] = [[] for _ in range(MAX_Z + 1)]
        by_z_ranks: list[list[int]] = [[] for _ in range(MAX_Z + 1)]
        for rank, (s, m) in enumerate(zip(all_spellings, masks, strict=True)):
            for z in s.numbers:
                by_z_masks[z].append(m)
                by_z_ranks[z].append(rank)
        self._masks: tuple[int, ...] = tuple(masks)
        self._by_z_masks: tuple[tuple[int, ...], ...] = tuple(map(tuple, by_z_masks))
        self._by_z_ranks: tuple[tuple[int, ...], ...] = tuple(map(tuple, by_z_ranks))

    @classmethod
    def default(cls, max_z: int = MAX_Z) -> WordIndex:
        """The index of the shipped word list (``data/words5.txt``), cached per ``max_z``.

        >>> WordIndex.default(36) is WordIndex.default(36)
        True
        >>> "bacon" in WordIndex.default(36).spellable_words  # B Ac O N needs Ac (89)
        False
        """
        return _default_index(_check_max_z(max_z))

    @classmethod
    def from_words(cls, words: object, max_z: int = MAX_Z) -> WordIndex:
        """A teacher's own list, checked by :func:`validate_word_list` first.

        >>> WordIndex.from_words(["Bacon", "bacon", "FRESH"], 103).words
        ('bacon', 'fresh')
        """
        return cls(validate_word_list(words), max_z)

    def __len__(self) -> int:
        """How many distinct words the index was built from (spellable or not)."""
        return len(self.words)

    def __repr__(self) -> str:
        return (
            f"WordIndex({len(self.words)} words, {len(self.spellable_words)} spellable, "
            f"max_z={self.max_z})"
        )

    def _check_draft(self, mask: int, z: int) -> None:
        if not 1 <= z <= MAX_Z or not mask >> z & 1:
            raise ValueError(f"element {z!r} must be in the drafted set mask")

    def completed_by(self, mask: int, z: int) -> tuple[Spelling, ...]:
        """Spellings that use ``z`` and lie within ``mask`` (which must contain ``z``).

        After a seat drafts ``z`` and now holds ``mask``, these are the spellings
        that this draft completed (each uses ``z``, so none existed before it).

        >>> index = WordIndex(["bacon"], 103)
        >>> hand = sum(1 << z for z in (56, 6, 27, 8, 7))
        >>> [s.symbols for s in index.completed_by(hand, 7)]
        [('Ba', 'C', 'O', 'N'), ('Ba', 'Co', 'N')]
        """
        self._check_draft(mask, z)
        outside = ~mask
        return tuple(
            self.spellings[r]
            for m, r in zip(self._by_z_masks[z], self._by_z_ranks[z], strict=True)
            if not m & outside
        )

    def first_completed_by(self, mask: int, z: int) -> Spelling | None:
        """The first spelling that uses ``z`` and lies within ``mask``, else ``None``.

        >>> index = WordIndex(["bacon", "cobra"], 103)
        >>> hand = sum(1 << z for z in (56, 6, 27, 8, 7, 5))
        >>> index.first_completed_by(hand, 27)
        Spelling(word='bacon', numbers=(56, 27, 7), symbols=('Ba', 'Co', 'N'))
        """
        self._check_draft(mask, z)
        outside = ~mask
        for i, m in enumerate(self._by_z_masks[z]):
            if not m & outside:
                return self.spellings[self._by_z_ranks[z][i]]
        return None

    def first_spelled(self, mask: int) -> Spelling | None:
        """The first spelling whose elements all lie within ``mask``, else ``None``.

        >>> index = WordIndex(["bacon", "chops"], 103)
        >>> index.first_spelled(sum(1 << z for z in (6, 1, 8, 15, 16))).word
        'chops'
        >>> index.first_spelled(0) is None
        True
        """
        outside = ~mask
        best: int | None = None
        rest = mask & ~1
        while rest:
            low = rest & -rest
            z = low.bit_length() - 1
            rest ^= low
            if z > MAX_Z:
                break
            for i, m in enumerate(self._by_z_masks[z]):
                if not m & outside:
                    rank = self._by_z_ranks[z][i]
                    if best is None or rank < best:
                        best = rank
                    break
        return None if best is None else self.spellings[best]


def validate_word_list(words: object, *, max_words: int = 500) -> tuple[str, ...]:
    """Check a teacher's word list; return it lower-cased, de-duplicated, in order.

    Each entry must be a string of exactly five ASCII letters (surrounding spaces
    are ignored); the list must hold 1..``max_words`` entries. Otherwise
    ``RuleViolation("bad_word_list", ...)`` naming the offending entries.

    >>> validate_word_list(["Bacon", " fresh ", "BACON"])
    ('bacon', 'fresh')
    >>> validate_word_list(["bacon", "neon", "café!"])
    Traceback (most recent call last):
    ...
    rules.core.RuleViolation: Every word must be exactly 5 letters a-z; not: 'neon', 'café!'.
    """
    if not isinstance(words, list | tuple):
        raise RuleViolation(
            "bad_word_list",
            f"The word list must be a list of strings, not {type(words).__name__}.",
        )
    if not words:
        raise RuleViolation("bad_word_list", "The word list is empty; give at least one word.")
    if len(words) > max_words:
        raise RuleViolation(
            "bad_word_list",
            f"The word list has {len(words)} entries; at most {max_words} are allowed.",
            max_words=max_words,
        )
    not_strings = [w for w in words if not isinstance(w, str)]
    if not_strings:
        raise RuleViolation(
            "bad_word_list",
            f"The word list must hold only strings; not: {_name_some(not_strings)}.",
        )
    bad: list[str] = []
    out: dict[str, None] = {}
    for raw in words:
        w = raw.strip().lower()
        if len(w) == WORD_LENGTH and w.isascii() and w.isalpha():
            out[w] = None
        else:
            bad.append(raw)
    if bad:
        raise RuleViolation(
            "bad_word_list",
            f"Every word must be exactly {WORD_LENGTH} letters a-z; not: {_name_some(bad)}.",
            rule=WORD_RULE,
            words=bad[:10],
        )
    return tuple(out)


def _name_some(items: Sequence[object], limit: int = 10) -> str:
    shown = ", ".join(repr(x) for x in items[:limit])
    if len(items) > limit:
        shown += f" and {len(items) - limit} more"
    return shown


def _read_default_words() -> tuple[str, ...]:
    try:
        text = files("rules.chemistry").joinpath("data/words5.txt").read_text(encoding="utf-8")
    except FileNotFoundError:  # only while scripts/build_words.py makes it for the first time
        return ()
    return tuple(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


DEFAULT_WORDS: tuple[str, ...] = _read_default_words()
"""The shipped list (read once, at import): see the header of ``data/words5.txt``."""


@cache
def _default_index(max_z: int) -> WordIndex:
    if not DEFAULT_WORDS:
        raise RuntimeError("rules/chemistry/data/words5.txt is missing: run `make words`")
    return WordIndex(DEFAULT_WORDS, max_z)
