"""The figures of the side-by-side benchmark (bench/bgio) are summarised as it says.

The benchmark itself needs Node.js packages that `make test` does not install (its
harness runs `npm ci` in bench/bgio), so it is not run here; these tests cover the
Python side that turns its rounds into the README's table and compares two runs, and
the card data it hands to the boardgame.io fixture.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.bgio.__main__ import (
    compare,
    pgo_gunicorn,
    ratios,
    servers_to_run,
    summarise,
    table,
    write_elements,
)


def _row(server: str, matches: int, moves_per_s: float, load: float, **more: Any) -> dict[str, Any]:
    return {
        "server": server,
        "matches": matches,
        "moves_per_s": moves_per_s,
        "p50_ms": 2.0,
        "p99_ms": 9.0,
        "cpu_ms_per_move": 1000 / (5 * moves_per_s),
        "moves_per_cpu_s": 5 * moves_per_s,
        "requests_per_move": 2.0,
        "refused_per_move": 0.5,
        "load_avg": {"min": load - 0.5, "max": load},
        **more,
    }


def test_each_server_and_level_gets_the_median_and_range_of_its_rounds() -> None:
    rows = [
        _row("service", 4, 100, 2.0),
        _row("service", 4, 300, 1.0),
        _row("service", 4, 200, 3.0),
        _row("service", 16, 50, 2.0),
        _row("bgio-memory", 4, 1000, 2.0, p99_ms=None),
    ]
    got = summarise(rows)
    assert set(got) == {("service", 4), ("service", 16), ("bgio-memory", 4)}
    four = got[("service", 4)]
    assert four["rounds"] == 3
    assert four["moves_per_s"] == 200
    assert four["moves_per_s_range"] == (100, 300)
    assert four["load_range"] == (0.5, 3.0)
    assert "p99_ms" not in got[("bgio-memory", 4)]  # no latency measured: no figure
    lines = table(rows).splitlines()
    assert lines[0].startswith("| server | matches | moves/s |")
    assert "| service | 4 | 200 (100-300) |" in table(rows)
    assert len(lines) == 2 + 3


def test_the_waits_and_the_schedulers_figures_are_columns_earlier_runs_leave_empty() -> None:
    rows = [
        _row(
            "service", 16, 100, 2.0, wait_p99_ms=40.0, cpu_wait_ms_per_move=1.5, sleeps_per_move=9.0
        ),
        _row(
            "service",
            16,
            120,
            2.0,
            wait_p99_ms=60.0,
            cpu_wait_ms_per_move=2.5,
            sleeps_per_move=11.0,
        ),
        _row("bgio-memory", 16, 1000, 2.0),  # a run from before load.js measured these
    ]
    lines = table(rows).splitlines()
    assert "| p99 ms | wait p50 ms | wait p99 ms |" in lines[0]
    assert "|  | 50.0 (40.0-60.0) |" in lines[3]  # no wait p50 given, the p99's median
    assert "server waited for a CPU ms/move" in lines[0]
    assert "| refused/move | pushes/move |" in lines[0]  # a stream's frames, or bgio's
    assert "| 2.00 (1.50-2.50) | 10.0 (9.0-11.0) |  |" in lines[3]  # no generator figure
    assert lines[2].endswith("|  |  |  | 1.5-2.0 |")


def test_each_service_is_set_against_each_boardgame_io_server_per_cpu_second() -> None:
    rows = [
        _row("service", 4, 20, 1.0),  # 100 moves per CPU-second
        _row("bgio-memory", 4, 160, 1.0),  # 800
        _row("bgio-flatfile", 4, 40, 1.0),  # 200
        _row("service", 16, 30, 1.0),  # no boardgame.io figure at 16: no ratio
    ]
    assert ratios(rows).splitlines() == [
        "moves per server CPU-second, service / bgio-flatfile: 0.50 at 4 matches",
        "moves per server CPU-second, service / bgio-memory: 0.12 at 4 matches",
    ]


def test_a_second_run_is_compared_to_a_first_metric_by_metric() -> None:
    first = {"started": "a", "commit": "1", "rounds": [_row("service", 4, 100, 1.0)]}
    second = {
        "started": "b",
        "commit": "2",
        "rounds": [_row("service", 4, 150, 1.0), _row("service", 16, 10, 1.0)],
    }
    text = compare(first, second)
    assert "100 -> 150 (1.50x)" in text
    assert "| service | 16 |" not in text  # only in one run: nothing to compare


def test_the_fixture_gets_this_projects_deal_table_and_cards(tmp_path: Path) -> None:
    path = tmp_path / "elements.json"
    write_elements(path)
    data = json.loads(path.read_text())
    assert data["deal"]["2"] == [36, 15]
    assert len(data["cards"]) == 103
    hydrogen = data["cards"][0]
    assert (hydrogen["z"], hydrogen["symbol"], hydrogen["ion_charges"]) == (1, "H", [1, -1])
    assert {"mass", "family", "radioactive"} <= set(hydrogen)


def test_the_tail_report_splits_each_move_by_worker_and_by_inside_the_app() -> None:
    import doctest

    import bench.bgio.tail as tail

    assert doctest.testmod(tail).failed == 0
    traced = [
        {"id": "a", "ms": 10.0},
        {"id": "b", "ms": 20.0},
        {"id": "c", "ms": 90.0},
        {"id": "lost", "ms": 5.0},  # no log line: counted, not joined
    ]
    logged = {
        "a": {"pid": 1, "ms": 4.0, "commits": 1},
        "b": {"pid": 1, "ms": 5.0, "commits": 1},
        "c": {"pid": 2, "ms": 80.0, "commits": 2},
    }
    got = tail.split(traced, logged)
    assert (got["moves"], got["joined"]) == (4, 3)
    assert got["by_worker"]["1"] == {"moves": 2, "p50_ms": 20.0, "p99_ms": 20.0, "raced": 0.0}
    assert got["by_worker"]["2"]["raced"] == 1.0
    assert got["inside_app"]["p99_ms"] == 80.0
    assert sorted([got["around_app"]["p50_ms"], got["around_app"]["p99_ms"]]) == [10.0, 15.0]
    assert got["slowest_1pct"] == {"moves": 1, "p50_ms": 90.0, "p99_ms": 90.0, "raced": 1.0}
    report = {
        "matches": 16,
        "think_ms": 0.0,
        "moves_per_s": 10.0,
        "cpu_ms_per_move": 2.0,
        "latency": got,
        "cpu_waits": tail.waits({"redis": [0, 0, 0]}, {"redis": [10**9, 10**8, 3]}),
        "same_cpu": tail.together([{"redis": 0, "worker0": 0}]),
    }
    text = tail.render(report)
    assert "3 of 4 moves matched" in text and "redis+worker0 100%" in text


def test_service_pgo_says_what_to_install_when_its_interpreter_is_missing() -> None:
    with pytest.raises(SystemExit, match=r"apt-get install python3\.11"):
        pgo_gunicorn("/nonexistent/python3.11")


def test_service_pgo_refuses_an_interpreter_of_another_minor_version(tmp_path: Path) -> None:
    other = tmp_path / "python-other"
    other.write_text(f"#!/bin/sh\necho 3.{sys.version_info.minor + 1}\n")
    other.chmod(0o755)
    with pytest.raises(SystemExit, match=r"is Python 3\.\d+, this virtualenv 3\.\d+"):
        pgo_gunicorn(str(other))


def test_service_pgo_is_left_out_of_the_default_list_only_when_its_python_is_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    names = ["bgio-memory", "service", "service-pgo"]
    assert servers_to_run(names, True, "/nonexistent/python3.11") == ["bgio-memory", "service"]
    assert "service-pgo left out: no /nonexistent/python3.11 here" in capsys.readouterr().out
    # named on purpose: kept, and pgo_gunicorn says what is missing when it starts
    assert servers_to_run(names, False, "/nonexistent/python3.11") == names
    assert servers_to_run(names, True, sys.executable) == names
