"""Latency of Polymer's ``best_arrangement`` on 20-card hands.

Run: ``.venv/bin/python -m bench.polymer_patterns [--hands N] [--reps N] [--dense N]``

* random: ``--hands`` hands of 20 cards drawn from the 104-card double deck with a
  seeded ``random.Random``, each timed once;
* dense: ``--dense`` hands of 20 cards drawn from a 30-card pool (Q-K-A-2-3 of three
  suits, both decks), where groups and sequences compete everywhere;
* adversarial: hand-built hands (many duplicates, long wrap-around runs, complete
  suits, eight of a rank with runs through it), each timed ``--reps`` times.

Timings are wall-clock ``perf_counter_ns`` around one call, garbage collector on, so
the worst column includes scheduler and GC noise; the "slowest random hand" line
re-times the slowest random hand (best of 20) to tell noise from a slow hand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial

from rules.polymer.cards import card_code, ids_for_codes
from rules.polymer.patterns import _best, longest_possible


def best_arrangement(hand: list[int]) -> object:
    """The optimiser itself, bypassing the memo the service keeps for repeated hands
    (the public ``best_arrangement`` is the memoised one; here we time the work)."""
    return _best.__wrapped__(tuple(sorted(hand)))


HAND_SIZE = 20

ADVERSARIAL: dict[str, str] = {
    "one suit J..7 (wraps), every face twice": ("JS QS KS AS 2S 3S 4S 5S 6S 7S " * 2),
    "8 aces + J-Q-K-2-3-4 in two suits": (
        "AC AC AD AD AH AH AS AS JS QS KS 2S 3S 4S JH QH KH 2H 3H 4H"
    ),
    "complete suit + 7 twins": ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2H 4H 6H 8H 10H QH KH"),
    "complete suit + 7 other aces": (
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS AC AC AD AD AH AH"
    ),
    "two suits J..7, pairs at every rank": (
        "JH QH KH AH 2H 3H 4H 5H 6H 7H JD QD KD AD 2D 3D 4D 5D 6D 7D"
    ),
    "four suits x Q-K-A-2-3": ("QC KC AC 2C 3C QD KD AD 2D 3D QH KH AH 2H 3H QS KS AS 2S 3S"),
    "two suits x Q-K-A-2-3, twice": ("QS KS AS 2S 3S QH KH AH 2H 3H " * 2),
    "no empty rank: A..10 S + 4..K H": (
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    ),
    "two suits with holes, twins": ("AS 2S 3S 5S 6S 7S 9S 10S JS KS AS 2S 3S 5S 6S AD 2D 3D KD KD"),
    "hill-climbed slowest found": ("2C 2D 2H 2S 3C 3D 3H 3S 4C 4H 4S 5H 5H 5S 6D AC AC AD KD KD"),
    "three suits x 7 ranks wrap": ("JC QC KC AC 2C 3C 4C JD QD KD AD 2D 3D 4D JH QH KH AH 2H 3H"),
}


def _time_call(func: Callable[[], object]) -> int:
    start = time.perf_counter_ns()
    func()
    return time.perf_counter_ns() - start


def _summary(samples: Sequence[int]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered) / 1e3, p99 / 1e3, ordered[-1] / 1e3


def _row(name: str, count: int, samples: Sequence[int], extra: str = "") -> str:
    median, p99, worst = _summary(samples)
    return f"| {name:<42} | {count:>7} | {median:>9.1f} | {p99:>9.1f} | {worst:>9.1f} | {extra}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="random hands to time")
    parser.add_argument("--dense", type=int, default=10_000, help="dense-pool hands to time")
    parser.add_argument("--reps", type=int, default=1_000, help="repetitions per fixed hand")
    parser.add_argument("--seed", type=int, default=20_240_601, help="random.Random seed")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    header = (
        f"| {'workload':<42} | {'calls':>7} | {'median us':>9} | {'p99 us':>9} "
        f"| {'worst us':>9} | longest"
    )
    print(header)
    print("|" + "-" * 44 + "|---------|-----------|-----------|-----------|--------")

    started = time.perf_counter()
    samples: list[int] = []
    slowest: tuple[int, list[int]] = (-1, [])
    for _ in range(args.hands):
        hand = rng.sample(range(104), HAND_SIZE)
        elapsed = _time_call(partial(best_arrangement, hand))
        samples.append(elapsed)
        if elapsed > slowest[0]:
            slowest = (elapsed, hand)
    random_seconds = time.perf_counter() - started
    if samples:
        print(_row(f"random 20 of 104 (seed {args.seed})", len(samples), samples))

    pool = ids_for_codes(("QS KS AS 2S 3S QH KH AH 2H 3H QD KD AD 2D 3D " * 2).split())
    dense: list[int] = []
    for _ in range(args.dense):
        hand = rng.sample(pool, HAND_SIZE)
        dense.append(_time_call(partial(best_arrangement, hand)))
    if dense:
        print(_row("dense: 20 of Q-K-A-2-3 x 3 suits x 2", len(dense), dense))

    for name, codes in ADVERSARIAL.items():
        hand = ids_for_codes(codes)
        assert len(hand) == HAND_SIZE, (name, len(hand))
        best_arrangement(hand)  # warm up
        runs = [_time_call(partial(best_arrangement, hand)) for _ in range(args.reps)]
        print(_row(name, len(runs), runs, str(longest_possible(hand))))

    if slowest[1]:
        retimed = min(_time_call(partial(best_arrangement, slowest[1])) for _ in range(20))
        codes = " ".join(sorted(card_code(c) for c in slowest[1]))
        print(
            f"\nslowest random hand: {slowest[0] / 1e3:.1f} us once, "
            f"{retimed / 1e3:.1f} us re-timed (best of 20): {codes}"
        )
    print(f"random workload: {args.hands} hands in {random_seconds:.1f} s")


if __name__ == "__main__":
    main()
