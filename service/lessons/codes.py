"""Join codes and display names: what a student types, checked and made plain.

A join code is eight characters of Crockford's base32 (no I, L, O or U: nothing to
misread from a projector), shown in two groups of four (``7K3M-Q9XD``). Read back,
case, spaces and hyphens do not matter and the letters a person confuses with digits
are read as those digits (O as 0, I and L as 1). 32**8 is about 10**12 codes: with the
join budget (``LESSON_JOIN_MISSES`` wrong codes per address per window) a guesser
finds a live code with a chance of about one in ten million a day per address, even
with ten thousand lessons open.

>>> normal_code(" 7k3m-q9xd "), normal_code("OIL0-abcd"), normal_code("7K3M")
('7K3MQ9XD', '0110ABCD', None)
>>> shown_code("7K3MQ9XD")
'7K3M-Q9XD'
>>> display_name("  Ada   Lovelace\\u200b "), display_name("\\x00"), display_name("x" * 41)
('Ada Lovelace', None, None)
>>> name_key("ADA  lovelace") == name_key("ada lovelace")
True
"""

from __future__ import annotations

import secrets
import unicodedata

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8
NAME_MAX = 40
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1", "-": None, " ": None})


def new_code() -> str:
    """A fresh join code (its stored form: eight characters, no hyphen)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def shown_code(code: str) -> str:
    """The code as a projector shows it."""
    return f"{code[:4]}-{code[4:]}"


def normal_code(typed: str) -> str | None:
    """The stored form of a code as typed; None if it cannot be one."""
    code = typed.strip().upper().translate(_READ_AS)
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def display_name(typed: str) -> str | None:
    """A display name as kept: NFC, runs of spaces made one, no control, format or
    private-use character (nothing that hides or reorders text); None when nothing
    is left or it is longer than :data:`NAME_MAX` characters. It is plain text: every
    page writes it as text, never as HTML."""
    text = unicodedata.normalize("NFC", typed)
    kept = "".join(
        " " if c.isspace() else c for c in text if unicodedata.category(c)[0] != "C" or c.isspace()
    )
    name = " ".join(kept.split())
    if not name or len(name) > NAME_MAX:
        return None
    return name


def name_key(name: str) -> str:
    """What two display names must differ in (case and spacing do not count)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())
