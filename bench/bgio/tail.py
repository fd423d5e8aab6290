"""Where a hosted move's latency goes at a level of matches: by worker, inside the app
or around it, and how the machine's two cores were shared.

    .venv/bin/python -m bench.bgio.tail [--matches 16] [--seconds 15] [--think MS]

Plays the side-by-side benchmark's service load once (``bench/bgio/load.js``, devices
as fast as they can unless ``--think``) against this service with every request logged
(``LOG_LEVEL=INFO``: each line names its worker's pid and the time the app spent on the
request, from its first hook to its last), and every counted move traced by the load
generator (``BGIO_TRACE``: when it was sent, its latency, its request id). Meanwhile it
reads, every 20 ms, the CPU each process last ran on (``/proc/PID/stat``), and at the
window's ends each process's time on a CPU and waiting for one (``/proc/PID/schedstat``).

It prints, and writes to ``bench/out/tail-<time>.json``:

* each worker's moves, p50 and p99 (a device's connections stay with one worker);
* a move's time inside the app and around it (reading the request, waiting for the
  worker's loop, sending the answer, the generator reading it), p50 and p99 of each;
* each process's CPU seconds and seconds runnable but waiting for a CPU;
* how often two processes were last seen on the same CPU.

Logging every request costs the workers CPU, so these figures are for finding where
time goes, not for the side-by-side table (``python -m bench.bgio``).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import tempfile
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .__main__ import OUT, Server, load, npm_ci, start_service, stop_all, write_elements

PERIOD = 0.02


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile as load.js takes it: the value at floor(q * n) of the sorted.

    >>> quantile([5.0, 1.0, 3.0, 2.0], 0.5)
    3.0
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def moves_logged(lines: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The move requests (``POST .../moves``) of the service's JSON log, by request id.

    >>> line = '{"msg": "request", "pid": 7, "method": "POST", "path": "/v1/g/sessions/a/moves",'
    >>> moves_logged([line + ' "request_id": "a-0-1", "ms": 2.5, "commits": 2}', "not json"])
    {'a-0-1': {'pid': 7, 'ms': 2.5, 'commits': 2}}
    """
    out: dict[str, dict[str, Any]] = {}
    for line in lines:
        if not line.startswith("{"):
            continue
        entry = json.loads(line)
        if (
            entry.get("msg") == "request"
            and entry.get("method") == "POST"
            and str(entry.get("path", "")).endswith("/moves")
        ):
            out[entry["request_id"]] = {
                "pid": entry["pid"],
                "ms": entry["ms"],
                "commits": entry.get("commits", 0),
            }
    return out


def split(traced: list[dict[str, Any]], logged: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """Each traced move joined to its log line: its latency by worker, and apart into
    the app's time and the rest; with each group's share of moves committed more than
    once (another seat's move of the same session committed between this one's load
    and its commit). Moves with no log line are counted, not guessed."""
    joined = [(t["ms"], logged[t["id"]]) for t in traced if t.get("id") in logged]
    workers: dict[int, list[tuple[float, dict[str, Any]]]] = {}
    for ms, line in joined:
        workers.setdefault(line["pid"], []).append((ms, line))

    def figures(pairs: list[tuple[float, dict[str, Any]]], inside: bool = False) -> dict[str, Any]:
        values = [line["ms"] if inside else ms for ms, line in pairs]
        return {
            "moves": len(values),
            "p50_ms": quantile(values, 0.5),
            "p99_ms": quantile(values, 0.99),
            "raced": sum(line["commits"] > 1 for _, line in pairs) / len(pairs),
        }

    around = [(ms - line["ms"], line) for ms, line in joined]
    return {
        "moves": len(traced),
        "joined": len(joined),
        "all": figures(joined),
        "by_worker": {str(pid): figures(v) for pid, v in sorted(workers.items())},
        "inside_app": figures(joined, inside=True),
        "around_app": figures(around),
        "slowest_1pct": figures(
            sorted(joined, key=lambda pair: pair[0])[-max(1, len(joined) // 100) :]
        ),
    }


def together(samples: list[dict[str, int | None]]) -> dict[str, float]:
    """For each pair of processes, the share of samples in which both were last seen on
    the same CPU.

    >>> together([{"a": 0, "b": 0, "c": 1}, {"a": 1, "b": 0, "c": 1}])
    {'a+b': 0.5, 'a+c': 0.5, 'b+c': 0.0}
    """
    names = sorted({name for sample in samples for name in sample})
    out: dict[str, float] = {}
    for a, b in itertools.combinations(names, 2):
        seen = [s for s in samples if s.get(a) is not None and s.get(b) is not None]
        out[f"{a}+{b}"] = sum(s[a] == s[b] for s in seen) / len(seen) if seen else 0.0
    return out


def waits(first: Mapping[str, list[int]], last: Mapping[str, list[int]]) -> dict[str, Any]:
    """Seconds on a CPU and seconds runnable but waiting for one, per process, between
    two readings of ``/proc/PID/schedstat`` (nanoseconds, nanoseconds, timeslices).

    >>> waits({"w": [1_000_000_000, 0, 5]}, {"w": [3_000_000_000, 500_000_000, 9]})
    {'w': {'on_cpu_s': 2.0, 'waiting_s': 0.5, 'waiting_per_cpu_s': 0.25}}
    """
    out: dict[str, Any] = {}
    for name, start in first.items():
        end = last.get(name)
        if end is None:
            continue
        ran, waited = (end[0] - start[0]) / 1e9, (end[1] - start[1]) / 1e9
        out[name] = {
            "on_cpu_s": round(ran, 3),
            "waiting_s": round(waited, 3),
            "waiting_per_cpu_s": round(waited / ran, 3) if ran else None,
        }
    return out


# ---------------------------------------------------------------- /proc ------------
def children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(kid) for kid in f.read().split()]
        except OSError:
            continue
    return out


def last_cpu(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[36])  # field 39, processor
    except (OSError, IndexError, ValueError):
        return None


def schedstat(pid: int) -> list[int] | None:
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        return None


class Watch:
    """Reads where each process last ran every ``PERIOD`` seconds, in a thread; the
    load generator is found among this process's children once it has started."""

    def __init__(self, named: dict[str, int]) -> None:
        self.named = dict(named)
        self.samples: list[dict[str, int | None]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(PERIOD):
            if "generator" not in self.named:
                for kid in children(os.getpid()):
                    try:
                        with open(f"/proc/{kid}/comm") as f:
                            if f.read().strip() == "node":
                                self.named["generator"] = kid
                    except OSError:
                        continue
            self.samples.append({name: last_cpu(pid) for name, pid in self.named.items()})

    def schedstats(self) -> dict[str, list[int]]:
        out = {}
        for name, pid in list(self.named.items()):
            stat = schedstat(pid)
            if stat is not None:
                out[name] = stat
        return out

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--settle", type=float, default=2.0)
    parser.add_argument("--think", type=float, default=0.0, help="ms before each move")
    opts = parser.parse_args(argv)
    npm_ci()
    servers: list[Server] = []
    with tempfile.TemporaryDirectory(prefix="bgio-tail-") as folder:
        tmp = Path(folder)
        elements = tmp / "elements.json"
        write_elements(elements)
        log = tmp / "service.log"
        server = start_service(tmp, "service", log=log)
        servers.append(server)
        try:
            workers = children(server.cpu["gunicorn"])
            named = {f"worker{i}": pid for i, pid in enumerate(workers)}
            named["redis"] = server.cpu["redis"]
            watch = Watch(named)
            watch.start()
            first: dict[str, list[int]] = {}
            last: dict[str, list[int]] = {}

            def window() -> None:
                # read at the window's ends (it opens --settle seconds into the run),
                # while the load generator still runs
                began = time.monotonic()
                while "generator" not in watch.named and time.monotonic() - began < opts.settle:
                    time.sleep(PERIOD)
                time.sleep(max(0.0, began + opts.settle + 0.2 - time.monotonic()))
                first.update(watch.schedstats())
                time.sleep(max(0.0, began + opts.settle + opts.seconds - 0.2 - time.monotonic()))
                last.update(watch.schedstats())

            ends = threading.Thread(target=window, daemon=True)
            ends.start()
            trace = tmp / "trace.jsonl"
            row = load(server, opts.matches, opts.seconds, elements, opts.settle, opts.think, trace)
            ends.join()
            watch.stop()
        finally:
            stop_all(servers)
        traced = [json.loads(line) for line in trace.read_text().splitlines() if line]
        with log.open() as lines:
            logged = moves_logged(lines)
    pid_names = {str(pid): name for name, pid in named.items()}
    parts = split(traced, logged)
    parts["by_worker"] = {pid_names.get(k, k): v for k, v in parts["by_worker"].items()}
    report = {
        "matches": opts.matches,
        "think_ms": opts.think,
        "moves_per_s": row["moves_per_s"],
        "cpu_ms_per_move": row["cpu_ms_per_move"],
        "generator_cpu_s": row["generator_cpu_s"],
        "latency": parts,
        "cpu_waits": waits(first, last),
        "same_cpu": together(watch.samples[len(watch.samples) // 5 :]),
        "samples": len(watch.samples),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H%M%S%z")
    path = OUT / f"tail-{stamp}.json"
    path.write_text(json.dumps(report, indent=1))
    print(render(report))
    print(f"\nwritten: {path}")


def render(report: dict[str, Any]) -> str:
    """The report as text: one line per figure."""
    lat = report["latency"]
    out = [
        f"{report['matches']} matches, think {report['think_ms']:g} ms: "
        f"{report['moves_per_s']:.0f} moves/s, {report['cpu_ms_per_move']:.2f} server CPU ms/move "
        f"(requests logged), {lat['joined']} of {lat['moves']} moves matched to their log line",
    ]

    def line(label: str, f: dict[str, Any]) -> str:
        return (
            f"  {label:<12} {f['moves']:>6} moves  p50 {f['p50_ms']:6.1f}"
            f"  p99 {f['p99_ms']:6.1f} ms"
            f"  {f['raced']:4.0%} committed twice"
        )

    out.append(line("all", lat["all"]))
    for name, figures in lat["by_worker"].items():
        out.append(line(name, figures))
    out.append(line("inside app", lat["inside_app"]))
    out.append(line("around app", lat["around_app"]))
    out.append(line("slowest 1%", lat["slowest_1pct"]))
    out.append("  on a CPU / waiting for one, seconds in the window:")
    for name, w in report["cpu_waits"].items():
        out.append(
            f"    {name:<10} {w['on_cpu_s']:6.2f} / {w['waiting_s']:5.2f}"
            f"  ({w['waiting_per_cpu_s']} s waiting per s on a CPU)"
        )
    pairs = sorted(report["same_cpu"].items(), key=lambda kv: -kv[1])
    out.append("  last seen on the same CPU: " + ", ".join(f"{k} {v:.0%}" for k, v in pairs))
    return "\n".join(out)


if __name__ == "__main__":
    main()
