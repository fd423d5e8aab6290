"""Run every benchmark in turn (`make bench`); each prints its own table."""

from __future__ import annotations

import subprocess
import sys

BENCHES = [
    ["bench/word_detection.py"],
    *(
        ["-m", "bench.games", "--game", game]
        for game in ("element-draft", "compound-capture", "metal-vs-nonmetal", "polymerization")
    ),
    ["-m", "bench.chemistry_battle_games", "--players", "6"],
    ["-m", "bench.compound_capture_games"],
    ["-m", "bench.polymerization_games", "--stats"],
    ["-m", "bench.polymer_patterns"],
    *(
        ["-m", "bench.http_moves", "--game", game]
        for game in (
            "element-draft",
            "chemistry-battle",
            "compound-capture",
            "metal-vs-nonmetal",
            "polymerization",
        )
    ),
    ["-m", "bench.http_sessions"],
    ["-m", "bench.http_polymer"],
    ["-m", "bench.slow_clients"],
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
