"""``bench.move_instructions``: its child plays the counted games it was asked for (run
here without callgrind, which would take a minute), and a callgrind file's count is
read from its totals, not its header."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import move_instructions

ROOT = Path(__file__).resolve().parent.parent


def test_the_count_is_the_totals_line_not_the_header() -> None:
    # counting starts off (--instr-atstart=no): the header's summary stays 0
    text = "version: 1\nevents: Ir\nsummary: 0\n\nfl=(1) a.c\nfn=(1) main\n3 700\ntotals: 700\n"
    assert move_instructions.totals(text) == 700
    with pytest.raises(ValueError, match="no totals"):
        move_instructions.totals("events: Ir\nsummary: 0\n")


@pytest.mark.parametrize("mode", ["hosted", "stateless"])
def test_the_child_plays_whole_games(redis_url: str, mode: str) -> None:
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "STATE_KEYS": move_instructions.KEYS,
        "LOG_LEVEL": "WARNING",
        "DUE_WORK": "off",
        **{f"RATE_LIMIT_{b}": move_instructions.LIFTED for b in ("MOVES", "SETUP", "READS")},
    }
    command = [sys.executable, "-m", "bench.move_instructions", "--child", "--games", "1"]
    command += ["--mode", mode]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    moves = json.loads(done.stdout.strip().splitlines()[-1])["moves"]
    # a two-seat element-draft game: every card of both hands drafted, one at a time
    assert moves >= 10


def test_its_examples_hold() -> None:
    import doctest

    assert doctest.testmod(move_instructions).failed == 0
