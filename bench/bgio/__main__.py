"""This service's hosted element-draft against boardgame.io's, side by side, in one run.

    .venv/bin/python -m bench.bgio [--matches 4,16] [--rounds 3] [--seconds 15]
        [--servers bgio-memory,bgio-flatfile,service,service-pgo] [--think MS]
        [--pgo-python /usr/bin/python3.11]
    .venv/bin/python -m bench.bgio --compare bench/out/bgio-A.json bench/out/bgio-B.json

Installs bench/bgio's Node packages (``npm ci``, when package-lock.json is newer than
the last install), then starts on 127.0.0.1, each on a free port:

* ``bgio-memory``: boardgame.io 0.50.2's server with its default InMemory storage;
* ``bgio-flatfile``: the same with its FlatFile storage (node-persist, under a
  temporary directory), the persistent adapter that ships with boardgame.io;
* ``service``: this service as ``make serve`` runs it (``gunicorn.conf.py``, 2 gevent
  workers, due work on, rate limits counted with budgets no run reaches), against a
  redis-server of its own (as compose.yaml runs it: no snapshot, no AOF);
* ``service-nolimits``: the same with ``RATE_LIMITS=off`` (and its own Redis);
* ``service-nokeys`` (not by default): ``service`` whose devices send no
  Idempotency-Key (its own gunicorn and Redis);
* ``service-bare`` (not by default): ``service-nolimits`` whose devices send no
  Idempotency-Key: what the service costs without two of its guarantees (a measure,
  never a way to run it);
* ``service-aof`` (not by default): ``service`` with Redis writing an append-only
  file, fsync every second;
* ``service-poll`` (not by default): ``service`` whose devices play as they did before
  seat streams (issue 32): they follow the public event stream and read their view
  (``GET .../sessions/{id}?seat=``) once they may act again, instead of being pushed it;
* ``service-base`` (with ``--baseline DIR``): ``service`` run from another checkout of
  this project (say ``git archive <commit> | tar -x -C DIR``), with this checkout's
  virtualenv, so that a change is measured against its baseline in the same run;
* ``service-pgo``: ``service`` on another CPython of the same minor version
  (``--pgo-python``, by default Debian's ``/usr/bin/python3.11``), one built with
  profile-guided and link-time optimisation as the Docker image's ``python:3.11-slim``
  is (``--enable-optimizations --with-lto``), where this checkout's virtualenv may sit
  on one built without (pyenv's default). Its virtualenv is made under
  ``bench/out/venv-pgo`` with this checkout installed at the very versions of this
  checkout's virtualenv (``pip freeze`` as constraints), again when they change.

Then ``--rounds`` rounds, each playing every server in turn at each ``--matches``
level for ``--seconds`` (after ``--settle`` seconds of play that do not count): A, B,
C, A, B, C... after a warm-up of each server. With ``--think MS`` every device waits
MS milliseconds before each move (a student looking at the hand), so that a level of
matches loads the machine less than "as fast as it can" (the default, 0). The load
generator (``bench/bgio/load.js``) and how each device plays are described there.
CPU is every server process's (gunicorn's master and workers and their Redis; the
node process for boardgame.io), read from /proc, as is the time their threads (and the
generator's) spent runnable but waiting for a CPU, and how often they slept. Prints
the table (median of the rounds, with the range) and writes every round to
``bench/out/bgio-<time>.json``;
``--compare`` prints how a second run's figures moved against a first's. Every server
is stopped by its PID at the end.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..harness import GUNICORN, ROOT, bench_env, free_port, redis_answers, stop

HERE = Path(__file__).resolve().parent
OUT = ROOT / "bench" / "out"
SERVERS = (
    "bgio-memory",
    "bgio-flatfile",
    "service",
    "service-nolimits",
    "service-nokeys",
    "service-aof",
    "service-poll",
    "service-base",
    "service-bare",
    "service-pgo",
)
DEFAULT_SERVERS = ("bgio-memory", "bgio-flatfile", "service", "service-pgo")
PGO_VENV = OUT / "venv-pgo"
PGO_INSTALL = "Debian: apt-get install python3.11 python3.11-venv; or pass --pgo-python"
APP = "service:create_app()"
METRICS = (
    ("moves_per_s", "moves/s", 0),
    ("p50_ms", "p50 ms", 1),
    ("p99_ms", "p99 ms", 1),
    # from the first sending of the seat's decision: a move dropped or refused as made on
    # an older state, and sent again, counts from its first sending (the student's wait)
    ("wait_p50_ms", "wait p50 ms", 1),
    ("wait_p99_ms", "wait p99 ms", 1),
    ("cpu_ms_per_move", "server CPU ms/move", 2),
    ("moves_per_cpu_s", "moves per server CPU-s", 0),
    ("requests_per_move", "requests/move", 2),
    ("refused_per_move", "refused/move", 2),
    # states sent to the devices (a seat stream's frames; boardgame.io's pushes)
    ("pushes_per_move", "pushes/move", 2),
    # the scheduler's side (load.js, from /proc): every server thread's time runnable
    # but without a CPU, and how often one slept (each sleep is a wake-up later)
    ("cpu_wait_ms_per_move", "server waited for a CPU ms/move", 2),
    ("sleeps_per_move", "server sleeps/move", 1),
    ("generator_cpu_wait_ms_per_move", "generator waited ms/move", 2),
)


class Server:
    """One server under test: its processes (for CPU) and how to stop them."""

    def __init__(self, name: str, target: str, url: str, cpu: dict[str, int]) -> None:
        self.name, self.target, self.url, self.cpu = name, target, url, cpu
        self.procs: list[subprocess.Popen[bytes]] = []


def npm_ci() -> None:
    stamp = HERE / "node_modules" / ".installed"
    lock = HERE / "package-lock.json"
    if stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        return
    print("npm ci in bench/bgio ...", flush=True)
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=HERE,
        check=True,
        timeout=600,
    )
    stamp.touch()


def write_elements(path: Path) -> None:
    """The deal table and every card's facts, from this project's rules."""
    from rules.element_draft.cards import card
    from rules.element_draft.game import DEAL_TABLE

    path.write_text(
        json.dumps(
            {
                "deal": {str(p): list(v) for p, v in DEAL_TABLE.items()},
                "cards": [card(z) for z in range(1, 104)],
            }
        )
    )


def wait_line(proc: subprocess.Popen[bytes], prefix: str, timeout: float) -> str:
    assert proc.stdout is not None
    os.set_blocking(proc.stdout.fileno(), False)
    deadline, buf = time.time() + timeout, b""
    while time.time() < deadline:
        chunk = proc.stdout.read()
        if chunk:
            buf += chunk
            for line in buf.decode().splitlines():
                if line.startswith(prefix):
                    return line
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    raise RuntimeError(f"no {prefix!r} line from {proc.args!r}: {buf.decode()!r}")


def start_redis(tmp: Path, name: str, aof: bool) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    folder = tmp / f"redis-{name}"
    folder.mkdir()
    persistence = ["--appendonly", "yes", "--appendfsync", "everysec"] if aof else []
    proc = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", ""]
        + (persistence or ["--appendonly", "no"])
        + ["--dir", str(folder), "--daemonize", "no", "--loglevel", "warning"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    if redis_answers(port, seconds=10, every=0.1):
        return proc, port
    proc.kill()
    raise RuntimeError("redis-server did not start")


def pgo_gunicorn(python: str) -> str:
    """gunicorn in a virtualenv on ``python`` (``service-pgo``), with this checkout
    installed at the versions of this checkout's virtualenv: made once, and again when
    the interpreter, those versions or pyproject.toml change."""
    exe = shutil.which(python)
    if exe is None:
        raise SystemExit(f"service-pgo: no interpreter {python!r} ({PGO_INSTALL})")
    ours = f"{sys.version_info.major}.{sys.version_info.minor}"
    theirs = subprocess.run(
        [exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if theirs != ours:
        raise SystemExit(f"service-pgo: {exe} is Python {theirs}, this virtualenv {ours}")
    frozen = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--exclude-editable"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    key = hashlib.sha256(
        "\n".join([exe, frozen, (ROOT / "pyproject.toml").read_text()]).encode()
    ).hexdigest()
    gunicorn = PGO_VENV / "bin" / "gunicorn"
    stamp = PGO_VENV / ".installed"
    if stamp.exists() and stamp.read_text() == key and gunicorn.exists():
        return str(gunicorn)
    print(f"service-pgo: a virtualenv on {exe} in {PGO_VENV} ...", flush=True)
    shutil.rmtree(PGO_VENV, ignore_errors=True)
    subprocess.run([exe, "-m", "venv", str(PGO_VENV)], check=True)
    constraints = PGO_VENV / "constraints.txt"
    constraints.write_text(frozen)
    pip = [str(PGO_VENV / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "-c", str(constraints), "-e", f"{ROOT}[embedded,fast]"], check=True)
    stamp.write_text(key)
    return str(gunicorn)


def servers_to_run(names: list[str], by_default: bool, pgo_python: str) -> list[str]:
    """``names``, less ``service-pgo`` when it came with the default list and its
    interpreter is not on this machine (said, not an error: a machine without Debian's
    python3.11 still runs the comparison; named on purpose, it is an error later)."""
    if by_default and "service-pgo" in names and shutil.which(pgo_python) is None:
        print(f"service-pgo left out: no {pgo_python} here ({PGO_INSTALL})", flush=True)
        return [name for name in names if name != "service-pgo"]
    return names


def start_service(
    tmp: Path,
    name: str,
    root: Path = ROOT,
    log: Path | None = None,
    gunicorn: str = GUNICORN,
    extra_env: dict[str, str] | None = None,
) -> Server:
    """``log``: the service logs every request (``LOG_LEVEL=INFO``, each line with its
    worker's pid) to that file, as ``bench.bgio.tail`` reads them; more CPU a move, so
    never for the side-by-side figures. ``gunicorn``: whose (``service-pgo``).
    ``extra_env``: more settings (a fixed ``STATE_KEYS``, so two servers deal alike)."""
    redis, redis_port = start_redis(tmp, name, aof=name == "service-aof")
    env = {
        **bench_env(),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "REDIS_KEY_PREFIX": "bgio-bench:",
        **(extra_env or {}),
    }
    if log is not None:
        env["LOG_LEVEL"] = "INFO"
    if name in ("service-nolimits", "service-bare"):
        env["RATE_LIMITS"] = "off"
    if root != ROOT:  # its own packages first, ahead of this checkout's editable install
        env["PYTHONPATH"] = str(root)
    port = free_port()
    args = [gunicorn, "--config", "gunicorn.conf.py", "--chdir", str(root)]
    out = subprocess.DEVNULL if log is None else log.open("wb")
    try:
        proc = subprocess.Popen(
            [*args, "--bind", f"127.0.0.1:{port}", APP],
            cwd=root,
            env=env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    finally:
        if log is not None:
            out.close()  # type: ignore[union-attr]
    server = Server(name, "service", f"http://127.0.0.1:{port}", {})
    server.procs = [proc, redis]
    import urllib.request

    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{server.url}/readyz", timeout=1) as answer:
                if answer.status == 200:
                    break
        except OSError:
            time.sleep(0.2)
    else:
        raise RuntimeError(f"{name} did not become ready")
    server.cpu = {"gunicorn": proc.pid, "redis": redis.pid}
    return server


def start_bgio(tmp: Path, name: str, elements: Path) -> Server:
    storage = "flatfile" if name == "bgio-flatfile" else "memory"
    args = ["node", "server.js", "--port", "0", "--storage", storage]
    if storage == "flatfile":
        args += ["--dir", str(tmp / "flatfile")]
    env = {**os.environ, "NODE_ENV": "production", "BGIO_ELEMENTS": str(elements)}
    proc = subprocess.Popen(
        args,
        cwd=HERE,
        env=env,
        stdout=subprocess.PIPE,
        # every refused move is an "ERROR: invalid stateID" line on stderr
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    port = int(wait_line(proc, "ready ", 30).split()[1])
    server = Server(name, "bgio", f"http://127.0.0.1:{port}", {"node": proc.pid})
    server.procs = [proc]
    return server


def stop_all(servers: list[Server]) -> None:
    for server in servers:
        for proc in server.procs:
            if proc.poll() is not None:
                continue
            if server.target == "service" and proc is server.procs[0]:
                stop(proc)  # gunicorn's process group, by its PID
                continue
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


def load(
    server: Server,
    matches: int,
    seconds: float,
    elements: Path,
    settle: float = 2.0,
    think_ms: float = 0.0,
    trace: Path | None = None,
) -> dict[str, Any]:
    """One load.js run against ``server``; with ``trace``, every counted move's sending
    time, latency and request id are written there (``BGIO_TRACE``)."""
    cpu = ",".join(f"{k}={v}" for k, v in server.cpu.items())
    args = ["node", "load.js", "--target", server.target, "--url", server.url]
    args += ["--matches", str(matches), "--seconds", str(seconds), "--settle", str(settle)]
    args += ["--clk-tck", str(os.sysconf("SC_CLK_TCK")), "--cpu", cpu]
    if server.name in ("service-nokeys", "service-bare"):
        args += ["--idempotency-keys", "off"]
    if server.name == "service-poll":
        args += ["--device", "poll"]
    if think_ms > 0:
        args += ["--think", f"{think_ms:g}"]
    done = subprocess.run(
        args,
        cwd=HERE,
        env={
            **os.environ,
            "BGIO_ELEMENTS": str(elements),
            **({"BGIO_TRACE": str(trace)} if trace is not None else {}),
        },
        capture_output=True,
        text=True,
        timeout=settle + seconds + 60,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"load.js against {server.name} failed: {done.stderr[-2000:]}")
    row: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    row["server"] = server.name
    row["think_ms"] = think_ms
    if done.stderr:
        row["stderr"] = done.stderr[-2000:]
    return row


# ---------------------------------------------------------------- figures ----------
def summarise(rows: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    """Per (server, matches): the median of each metric over the rounds, and its range.

    >>> rows = [{"server": "s", "matches": 4, "moves_per_s": v, "p50_ms": 1.0,
    ...          "p99_ms": 2.0, "cpu_ms_per_move": 1.0, "moves_per_cpu_s": 1000.0,
    ...          "requests_per_move": 1.0, "refused_per_move": 0.0,
    ...          "load_avg": {"min": 1.0, "max": m}} for v, m in ((10, 2.0), (30, 3.0), (20, 1.5))]
    >>> s = summarise(rows)[("s", 4)]
    >>> s["moves_per_s"], s["moves_per_s_range"], s["load_range"], s["rounds"]
    (20, (10, 30), (1.0, 3.0), 3)
    """
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["server"], row["matches"]), []).append(row)
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for key, group in groups.items():
        figures: dict[str, Any] = {"rounds": len(group)}
        for metric, _, _ in METRICS:
            values = [r[metric] for r in group if r.get(metric) is not None]
            if values:
                figures[metric] = statistics.median(values)
                figures[f"{metric}_range"] = (min(values), max(values))
        figures["load_range"] = (
            min(r["load_avg"]["min"] for r in group),
            max(r["load_avg"]["max"] for r in group),
        )
        out[key] = figures
    return out


def fmt(value: float, digits: int) -> str:
    return f"{value:,.{digits}f}"


def table(rows: list[dict[str, Any]]) -> str:
    """The side-by-side table in Markdown: median (min-max) of the rounds."""
    summary = summarise(rows)
    head = ["server", "matches", *(label for _, label, _ in METRICS), "load avg"]
    lines = ["| " + " | ".join(head) + " |", "| --- | ---: |" + " ---: |" * (len(head) - 2)]
    for (server, matches), f in sorted(summary.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        cells = [server, str(matches)]
        for metric, _, digits in METRICS:
            if metric not in f:
                cells.append("")
                continue
            low, high = f[f"{metric}_range"]
            cells.append(f"{fmt(f[metric], digits)} ({fmt(low, digits)}-{fmt(high, digits)})")
        cells.append(f"{f['load_range'][0]:.1f}-{f['load_range'][1]:.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ratios(rows: list[dict[str, Any]]) -> str:
    """Each service's moves per server CPU-second over each boardgame.io server's, per level
    (issue 32's yardstick: at least 0.25 of the in-memory server's, above the persistent's).

    >>> row = lambda s, m, v: {"server": s, "matches": m, "moves_per_cpu_s": v,
    ...     "load_avg": {"min": 1.0, "max": 1.0}}
    >>> print(ratios([row("service", 4, 100), row("bgio-memory", 4, 800)]))
    moves per server CPU-second, service / bgio-memory: 0.12 at 4 matches
    """
    summary = summarise(rows)

    def per_cpu(server: str, matches: int) -> float:
        return float(summary[(server, matches)]["moves_per_cpu_s"])

    lines = []
    for ours in sorted({s for s, _ in summary if s.startswith("service")}):
        for theirs in sorted({s for s, _ in summary if s.startswith("bgio")}):
            cells = [
                f"{per_cpu(ours, m) / per_cpu(theirs, m):.2f} at {m} matches"
                for m in sorted({m for _, m in summary})
                if (ours, m) in summary and (theirs, m) in summary
            ]
            if cells:
                lines.append(f"moves per server CPU-second, {ours} / {theirs}: {', '.join(cells)}")
    return "\n".join(lines)


def compare(first: dict[str, Any], second: dict[str, Any]) -> str:
    """How each median moved from a first run to a second (second / first)."""
    a, b = summarise(first["rounds"]), summarise(second["rounds"])
    head = ["server", "matches", *(label for _, label, _ in METRICS)]
    lines = [
        f"first: {first['started']} ({first.get('commit', '?')}), "
        f"second: {second['started']} ({second.get('commit', '?')}); second / first",
        "",
        "| " + " | ".join(head) + " |",
        "| --- | ---: |" + " ---: |" * (len(head) - 2),
    ]
    for key in sorted(set(a) & set(b), key=lambda k: (k[1], k[0])):
        cells = [key[0], str(key[1])]
        for metric, _, digits in METRICS:
            x, y = a[key].get(metric), b[key].get(metric)
            if not x or y is None:
                cells.append("")
            else:
                cells.append(f"{fmt(x, digits)} -> {fmt(y, digits)} ({y / x:.2f}x)")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    return done.stdout.strip() or "?"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", default="4,16", help="matches at once, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=15.0, help="per server, level, round")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds per server, untimed")
    parser.add_argument(
        "--settle", type=float, default=2.0, help="seconds of play before each window opens"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="ms each device waits before each move (0: as fast as it can)",
    )
    parser.add_argument("--servers", default=",".join(DEFAULT_SERVERS))
    parser.add_argument("--out", type=Path, default=None, help="where to write every round")
    parser.add_argument(
        "--baseline", type=Path, default=None, help="service-base: the checkout it runs from"
    )
    parser.add_argument(
        "--pgo-python",
        default="/usr/bin/python3.11",
        help="service-pgo: the interpreter (built with PGO and LTO)",
    )
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("FIRST", "SECOND"))
    args = parser.parse_args()
    if args.compare:
        first, second = (json.loads(p.read_text()) for p in args.compare)
        print(compare(first, second))
        return 0
    names = [s for s in args.servers.split(",") if s]
    unknown = set(names) - set(SERVERS)
    if unknown:
        parser.error(f"unknown servers {sorted(unknown)}; choose from {', '.join(SERVERS)}")
    if "service-base" in names and (args.baseline is None or not args.baseline.is_dir()):
        parser.error("service-base needs --baseline DIR, a checkout of this project")
    names = servers_to_run(names, args.servers == parser.get_default("servers"), args.pgo_python)
    levels = [int(m) for m in args.matches.split(",")]
    for tool in ("node", "npm", "redis-server", "redis-cli"):
        if shutil.which(tool) is None:
            parser.error(f"{tool} is needed (Node.js 20.18+ with npm, and Redis)")
    npm_ci()

    started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    record: dict[str, Any] = {
        "started": started,
        "commit": commit(),
        "command": " ".join(["python -m bench.bgio", *sys.argv[1:]]),
        **({"baseline": str(args.baseline)} if args.baseline else {}),
        "cpus": os.cpu_count(),
        "load_before": os.getloadavg(),
        "node": subprocess.run(
            ["node", "--version"], capture_output=True, text=True
        ).stdout.strip(),
        "rounds": [],
        "failed": [],
    }
    servers: list[Server] = []
    with tempfile.TemporaryDirectory(prefix="bgio-bench-") as folder:
        tmp = Path(folder)
        elements = tmp / "elements.json"
        write_elements(elements)
        try:
            for name in names:
                if name.startswith("bgio"):
                    servers.append(start_bgio(tmp, name, elements))
                elif name == "service-base":
                    servers.append(start_service(tmp, name, args.baseline.resolve()))
                elif name == "service-pgo":
                    gunicorn = pgo_gunicorn(args.pgo_python)
                    servers.append(start_service(tmp, name, gunicorn=gunicorn))
                else:
                    servers.append(start_service(tmp, name))
            print(f"servers: {', '.join(f'{s.name} {s.url}' for s in servers)}", flush=True)
            for server in servers:  # untimed: JIT, connection pools, first imports
                load(server, max(levels), args.warmup, elements)
            for r in range(args.rounds):
                for matches in levels:
                    for server in servers:
                        try:
                            row = load(
                                server, matches, args.seconds, elements, args.settle, args.think
                            )
                        except RuntimeError as err:  # one server's round, not the run
                            alive = all(p.poll() is None for p in server.procs)
                            print(
                                f"round {r + 1} {server.name} {matches} matches failed "
                                f"(server {'alive' if alive else 'gone'}): {err}",
                                flush=True,
                            )
                            record["failed"].append(
                                {
                                    "server": server.name,
                                    "matches": matches,
                                    "round": r + 1,
                                    "alive": alive,
                                    "error": str(err)[-2000:],
                                }
                            )
                            continue
                        row["round"] = r + 1
                        record["rounds"].append(row)
                        print(
                            f"round {r + 1} {server.name:17} {matches:3} matches: "
                            f"{row['moves_per_s']:7.0f} moves/s, p50 {row['p50_ms'] or 0:6.1f} "
                            f"p99 {row['p99_ms'] or 0:7.1f} ms, "
                            f"{row['cpu_ms_per_move'] or 0:5.2f} CPU ms/move "
                            f"(waited {row.get('cpu_wait_ms_per_move') or 0:.2f}) "
                            f"({', '.join(f'{k} {v:.2f}' for k, v in row['cpu_s'].items())} s), "
                            f"load {row['load_avg']['max']:.1f}, errors {row['errors']}",
                            flush=True,
                        )
        finally:
            stop_all(servers)
    record["load_after"] = os.getloadavg()
    out = args.out or OUT / f"bgio-{started.replace(':', '')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1))
    print()
    print(table(record["rounds"]))
    print()
    print(ratios(record["rounds"]))
    print(f"\nevery round: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
