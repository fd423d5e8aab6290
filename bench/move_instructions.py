"""Instructions a hosted move costs a worker, counted, for before/after comparisons
that the machine's noise cannot blur.

    .venv/bin/python -m bench.move_instructions [--game element-draft] [--games 4]
        [--runs 2] [--baseline DIR] [--mode hosted|stateless]

CPU time on this shared two-core machine moves by 10-30% between rounds of the same
code (bench/README.md), more than most single changes to a move save. Instructions do
not: a child process plays whole hosted games in process, as ``bench.move_cpu`` does
(the app's WSGI entry, rate limits counted, an Idempotency-Key on every move, a
legal-moves read before each), under valgrind's callgrind with counting off until its
games are dealt and warm; counting is on only while it plays them. Every game is dealt
from a fixed seed under fixed keys, so two runs of one checkout play the same moves and
agree within about 0.5%. The figure is instructions per move cycle (the read and the
move), in the worker only: Redis's own are ``bench.redis_side --callgrind``'s. With
``--mode stateless`` the games are stateless ones (``POST /setup``, then the token sent
with every read and move), each dealt inside the count.

``bench.move_ir`` counts a hosted move's ``flow.play`` alone, started under valgrind by
hand; this counts whole requests (the app's hooks, the rate limiter, the body's parsing,
the answer: where a change outside ``flow.play`` lands, as the limiter's draws sharing
a round trip did), plays stateless games too, and runs a baseline in turns itself.

With ``--baseline DIR`` (another checkout, e.g. ``git archive main | tar -x -C DIR``)
each run plays both, in turns, each against a flushed private ``redis-server``, and the
last line is the ratio of this checkout's count to the baseline's.

Not counted: gunicorn's parsing and writing, gevent's loop, the seat streams' frames
(``bench.bgio`` measures the whole). Instructions are not time: callgrind counts a
``rep stos``/``rep movs`` (memset, memcpy) once per element, so a change that clears or
copies less memory looks larger here than it is (sealing a hosted state through zlib at
level 0, which clears deflate's 64 KB hash table, was 1.0% of a move cycle here and
0.17 us of about 1.4 us in a loop), and cache misses are not counted at all.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
# fixed, so every run deals the same cards (a hosted seed is mixed with the key)
KEYS = "kPCBuqyA1Kf0ETDy5EO6vmKZ3wx4Ft0oWNIbvOB5m8s="
LIFTED = "10000000 per minute"  # counted, never refused (bench.harness.LIFTED_LIMITS)


def totals(text: str) -> int:
    """The instructions a callgrind output file counted: its ``totals:`` line (the
    ``summary:`` in its header is written when counting starts, and stays 0 when it
    starts off).

    >>> totals("events: Ir\\nsummary: 0\\nfl=x\\n0 5\\ntotals: 1234\\n")
    1234
    """
    for line in reversed(text.splitlines()):
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise ValueError("no totals in the callgrind output")


# ------------------------------------------------------------------- the child -----
def child(game: str, players: int, games: int, flag: str | None, mode: str) -> dict[str, Any]:
    """Deal ``games`` games (and two to warm), play the warm ones, then, between the
    ``flag`` files the parent answers, the counted ones (stateless: dealt as they are
    played, the deal counted too)."""
    from service import create_app  # the checkout's own, by PYTHONPATH

    client = create_app().test_client()
    devices = _move_cpu()
    warm = devices.play if mode == "hosted" else devices.play_stateless
    for seed in range(2):
        warm(client, game, players, 10_000 + seed)
    hosted = mode == "hosted"
    dealt = [(devices.deal(client, game, players, seed), seed) for seed in range(games) if hosted]
    if flag:
        Path(f"{flag}.ready").touch()
        _wait(Path(f"{flag}.go"))
    if hosted:
        moves = sum(devices.play_dealt(client, game, made, seed) for made, seed in dealt)
    else:
        moves = sum(devices.play_stateless(client, game, players, seed) for seed in range(games))
    if flag:
        Path(f"{flag}.done").touch()
        _wait(Path(f"{flag}.stop"))
    return {"moves": moves}


def _move_cpu() -> Any:
    """This checkout's ``bench/move_cpu.py``, its devices, read from its file: the child
    runs with the measured checkout first on its path, whose ``bench`` may be older."""
    spec = importlib.util.spec_from_file_location("_move_cpu", HERE.parent / "move_cpu.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _wait(path: Path, seconds: float = 600) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} never came")
        time.sleep(0.05)


# ------------------------------------------------------------------ the parent -----
def count(checkout: Path, url: str, args: argparse.Namespace, folder: Path) -> float:
    """One child of ``checkout`` under callgrind: its instructions per move cycle."""
    flag = folder / "flag"
    for name in ("ready", "go", "done", "stop"):
        Path(f"{flag}.{name}").unlink(missing_ok=True)
    out = folder / "callgrind.out"
    out.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PYTHONPATH": str(checkout),
        "PYTHONHASHSEED": "0",
        "STATE_KEYS": KEYS,
        "REDIS_URL": url,
        "LOG_LEVEL": "WARNING",
        "DUE_WORK": "off",
        **{f"RATE_LIMIT_{b}": LIFTED for b in ("MOVES", "SETUP", "READS", "STREAMS")},
    }
    command = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        f"--callgrind-out-file={out}",
        sys.executable,
        str(HERE),
        "--child",
        "--game",
        args.game,
        "--players",
        str(args.players),
        "--games",
        str(args.games),
        "--mode",
        args.mode,
        "--flag",
        str(flag),
    ]
    proc = subprocess.Popen(
        command, cwd=checkout, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        _wait(Path(f"{flag}.ready"))
        _toggle("on", proc.pid)
        Path(f"{flag}.go").touch()
        _wait(Path(f"{flag}.done"))
        _toggle("off", proc.pid)
        Path(f"{flag}.stop").touch()
        stdout, stderr = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if proc.returncode:
        raise RuntimeError(stderr.decode()[-2000:])
    moves = int(json.loads(stdout.decode().strip().splitlines()[-1])["moves"])
    return totals(out.read_text()) / moves


def _toggle(state: str, pid: int) -> None:
    subprocess.run(["callgrind_control", "-i", state, str(pid)], check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="element-draft")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4, help="counted games per run")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--baseline", type=Path, help="another checkout, played in turns")
    parser.add_argument(
        "--mode", choices=("hosted", "stateless"), default="hosted", help="how the games play"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--flag", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.game, args.players, args.games, args.flag, args.mode)))
        return
    sys.path.insert(0, str(ROOT))
    from bench.harness import free_port, redis_answers

    checkouts = [("this", ROOT)] + (
        [("baseline", args.baseline.resolve())] if args.baseline else []
    )
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", ""]
        server += ["--appendonly", "no", "--dir", tmp]
        redis = subprocess.Popen(
            server,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            if not redis_answers(port, seconds=10, every=0.1):
                raise RuntimeError("redis-server did not start")
            url = f"redis://127.0.0.1:{port}/0"
            found: dict[str, list[float]] = {name: [] for name, _ in checkouts}
            for run in range(args.runs):
                order = checkouts if run % 2 == 0 else checkouts[::-1]
                for name, checkout in order:
                    subprocess.run(
                        ["redis-cli", "-p", str(port), "FLUSHALL"], check=True, capture_output=True
                    )
                    found[name].append(count(checkout, url, args, Path(tmp)))
                    print(
                        f"run {run + 1} {name:8} {found[name][-1]:,.0f} instructions a move cycle",
                        flush=True,
                    )
        finally:
            redis.terminate()
            redis.wait(timeout=10)
    for name, values in found.items():
        print(
            f"{name}: median {statistics.median(values):,.0f} "
            f"({min(values):,.0f}-{max(values):,.0f})"
        )
    if args.baseline:
        ratio = statistics.median(found["this"]) / statistics.median(found["baseline"])
        print(f"this / baseline: {ratio:.4f}")


if __name__ == "__main__":
    main()
