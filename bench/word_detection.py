"""Micro benchmark: word detection and ion pairing on random 15-card hands.

Run: ``.venv/bin/python bench/word_detection.py`` (add ``--hands N`` / ``--seed S``).

For each deck size of the seed's table, random 15-card hands are drafted one card
at a time; after every draft ``WordIndex.first_completed_by(mask, z)`` is called,
as the game does. Also timed: ``first_spelled`` on the full hand and
``max_ion_pairs`` on the full hand. Prints microseconds per call.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.chemistry.ions import max_ion_pairs
from rules.chemistry.words import WordIndex

HAND = 15
DECK_SIZES = (36, 54, 86, 103)


def bench(deck: int, hands: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed * 1000 + deck)
    index = WordIndex.default(deck)
    drawn = [rng.sample(range(1, deck + 1), HAND) for _ in range(hands)]

    calls = 0
    found = 0
    start = time.perf_counter()
    for hand in drawn:
        mask = 0
        for z in hand:
            mask |= 1 << z
            if index.first_completed_by(mask, z) is not None:
                found += 1
            calls += 1
    per_check = (time.perf_counter() - start) / calls * 1e6

    masks = [sum(1 << z for z in hand) for hand in drawn]
    start = time.perf_counter()
    spelled = sum(index.first_spelled(m) is not None for m in masks)
    per_spelled = (time.perf_counter() - start) / len(masks) * 1e6

    start = time.perf_counter()
    pairs = sum(len(max_ion_pairs(hand)) for hand in drawn)
    per_ions = (time.perf_counter() - start) / len(drawn) * 1e6

    return {
        "spellings": len(index.spellings),
        "first_completed_by_us": per_check,
        "completions_per_hand": found / hands,
        "first_spelled_us": per_spelled,
        "hands_spelling_a_word": spelled / hands,
        "max_ion_pairs_us": per_ions,
        "pairs_per_hand": pairs / hands,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {args.hands} random {HAND}-card hands per deck")
    print(
        f"{'deck':>5} {'spellings':>9} {'first_completed_by':>19} {'first_spelled':>14}"
        f" {'max_ion_pairs':>14} {'hands w/ word':>14} {'ion pairs/hand':>15}"
    )
    for deck in DECK_SIZES:
        r = bench(deck, args.hands, args.seed)
        print(
            f"{deck:>5} {r['spellings']:>9} {r['first_completed_by_us']:>16.2f} us"
            f" {r['first_spelled_us']:>11.2f} us {r['max_ion_pairs_us']:>11.2f} us"
            f" {r['hands_spelling_a_word']:>14.1%} {r['pairs_per_hand']:>15.2f}"
        )


if __name__ == "__main__":
    main()
