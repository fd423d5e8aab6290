"""A seeded random generator whose whole state is a small JSON object.

The state is ``{"key": <hex>, "counter": <int>}``; the n-th 64-bit draw is
BLAKE2b(key, counter=n). Keeping the counter in the game state means chance is
explicit, replayable and travels inside the sealed token, so no module-level
random generator is ever used (``rules/`` may not import ``random``).

>>> rng = new_rng(7)
>>> rng2, order = shuffled(rng, [1, 2, 3, 4, 5])
>>> sorted(order), rng2["counter"] > rng["counter"]
([1, 2, 3, 4, 5], True)
>>> shuffled(new_rng(7), [1, 2, 3, 4, 5])[1] == order
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")
RngState = dict[str, Any]

_MASK64 = (1 << 64) - 1


def new_rng(seed: int) -> RngState:
    """A generator for ``seed`` (any non-negative integer)."""
    if seed < 0:
        raise ValueError("seed must be non-negative")
    key = hashlib.blake2b(seed.to_bytes(32, "big", signed=False), digest_size=32).hexdigest()
    return {"key": key, "counter": 0}


def _draw64(key: str, counter: int) -> int:
    digest = hashlib.blake2b(
        counter.to_bytes(16, "big"), key=bytes.fromhex(key), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big") & _MASK64


def randbelow(rng: RngState, n: int) -> tuple[RngState, int]:
    """A uniform integer in ``[0, n)`` without modulo bias (rejection sampling)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    key, counter = rng["key"], rng["counter"]
    while True:
        value = _draw64(key, counter)
        counter += 1
        if value < limit:
            return {"key": key, "counter": counter}, value % n


def shuffled(rng: RngState, items: Sequence[T]) -> tuple[RngState, list[T]]:
    """A Fisher-Yates shuffle of a copy of ``items``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        rng, j = randbelow(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return rng, out


def choice(rng: RngState, items: Sequence[T]) -> tuple[RngState, T]:
    """One element of a non-empty sequence, uniformly."""
    rng, i = randbelow(rng, len(items))
    return rng, items[i]
