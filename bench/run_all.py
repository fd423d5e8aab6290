"""Run every benchmark in turn (`make bench`); each prints its own table."""

from __future__ import annotations

import subprocess
import sys

from rules.registry import GAMES

# every turn-based game is benchmarked the same way; a real-time game (a clock) is
# measured over HTTP with its own benchmark
IN_PROCESS = tuple(slug for slug, game in GAMES.items() if game.clock is None)
BENCHES = [
    ["bench/word_detection.py"],
    *(["-m", "bench.games", "--game", game] for game in IN_PROCESS),
    ["-m", "bench.polymerization_games", "--stats"],
    ["-m", "bench.polymer_patterns"],
    *(["-m", "bench.http_moves", "--game", game] for game in IN_PROCESS),
    *(["-m", "bench.floor", "--game", game] for game in IN_PROCESS),
    ["-m", "bench.http_sessions"],
    ["-m", "bench.http_polymer", "--floor"],
    ["-m", "bench.stages"],
    ["-m", "bench.capacity"],
    ["-m", "bench.redis_cost"],
    ["-m", "bench.records"],
    ["-m", "bench.polymer_bots"],
    ["-m", "bench.slow_clients"],
    ["-m", "bench.classroom"],  # last: it exits 1 when the class met a 429, a 5xx or a spurious 409
]


def main() -> int:
    for args in BENCHES:
        print(f"\n$ python {' '.join(args)}", flush=True)
        code = subprocess.call([sys.executable, *args])
        if code:
            return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
