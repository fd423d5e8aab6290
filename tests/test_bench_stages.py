"""``bench.stages``, the in-process instrument issue 32 names, keeps running: it plays
every request a front end would (legal moves before each move) without a budget of the
deployment's refusing it, and its timers are on the functions that do the work."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from bench.harness import LIFTED_LIMITS
from bench.stages import STAGES

ROOT = Path(__file__).resolve().parent.parent

# a benchmark never sends a wrong credential: that budget stays the deployment's
NEVER_DRAWN = {"RATE_LIMIT_FAILED_CREDENTIALS"}


def test_every_budget_the_service_reads_is_lifted_for_the_benchmarks() -> None:
    """bench.stages stopped at its first game's legal moves once issue 27 added the
    reads budget and only bench_env lifted it (issue 32, 2026-11-28): one list now."""
    read = set()
    for path in (ROOT / "service").rglob("*.py"):
        read |= set(re.findall(r"RATE_LIMIT_[A-Z_]+[A-Z]", path.read_text()))
    assert read, "the service names its budgets RATE_LIMIT_*"
    assert read - NEVER_DRAWN == set(LIFTED_LIMITS)


def test_stages_plays_a_game_both_ways_with_each_stage_timed(redis_url: str) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("RATE_LIMIT_") and key != "REDIS_URL"
    }
    env.update(REDIS_URL=redis_url)
    done = subprocess.run(
        [sys.executable, "-m", "bench.stages", "--games", "1", "--game", "element-draft", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [(row["game"], row["mode"]) for row in rows] == [
        ("element-draft", "stateless"),
        ("element-draft", "hosted"),
    ]
    for row in rows:
        assert row["moves"] > 0 and row["trips"] >= 1
        # a timer that lost its function (renamed, moved, or kept by the app as it was
        # made: the limiter's hooks, a view's loader) would read 0, its time the
        # framework's
        for stage in STAGES:
            assert row[stage] > 0, (row["mode"], stage)
        assert 0 < row["framework"] < row["ms"]
