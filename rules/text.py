"""Words for the sentences that events and refusals say to a learner.

>>> plural(1, "unit"), plural(3, "unit"), plural(0, "card")
('1 unit', '3 units', '0 cards')
>>> plural(1, "styrene unit"), plural(2, "copy", "copies")
('1 styrene unit', '2 copies')
>>> in_words(7), in_words(13)
('seven', '13')
"""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural (``many``, else ``noun + "s"``)
    unless the count is exactly one."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


_WORDS: tuple[str, ...] = ("zero", "one", "two", "three", "four", "five", "six", "seven")
_WORDS += ("eight", "nine", "ten", "eleven", "twelve")


def in_words(count: int) -> str:
    """``count`` in words up to twelve, in digits beyond (as prose writes numbers)."""
    return _WORDS[count] if 0 <= count < len(_WORDS) else str(count)
