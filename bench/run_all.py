"""Run every benchmark in turn (`make bench`); each prints its own table."""

from __future__ import annotations

import subprocess
import sys

BENCHES = [
    ["bench/word_detection.py"],
    ["-m", "bench.element_draft_games"],
    ["-m", "bench.http_moves"],
    ["-m", "bench.polymer_patterns"],
    ["-m", "bench.http_polymer"],
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
