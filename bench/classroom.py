"""A class of 30 plays every game at once against one instance, as their devices would.

    .venv/bin/python -m bench.classroom [--seconds 180] [--think 1,4] [--polymer-timer 60]

One instance started as `make serve` starts it (the project's gunicorn.conf.py, 2
gevent workers, due work on), with the rate limits on at the service's default
budgets and an operator key (a school's deployment has one), against a Redis of its
own (`redis-server` on a free 127.0.0.1 port, `--save '' --appendonly no`, so its
memory is the benchmark's alone). Every request comes from 127.0.0.1: one school
behind one address.

The class (:data:`PLAN`) sits at one table per game at the seeds' table sizes, two
for Polymer (one student among four trading bots, and a table of students with
bots), the service's bots filling the empty seats. A teacher's device deals each
table as a hosted session with the operator key, and deals again with the same
students whenever a table's game ends, until time is up.

Each student's device (a thread) does what a front end does: it holds its seat's
credential, keeps its seat's own event stream open (a thread of its own: ``events?seat=N``,
each frame the seat's view, as the pages under /play follow it), and when the stream
says it may act (turn-based and simultaneous games; Polymer decides continually) takes
the frame's view, reads its legal moves, thinks (``--think``, 1-4 s), and sends one
legal move with the version it decided on, an Idempotency-Key and the stream's
``Stream-Id``. With ``--device poll`` it follows the public stream instead and reads its
view (``GET .../sessions/{id}?seat=N``) before each decision, as every device did before
issue 32's seat streams. It decides again on what the service answers: a move's answer
(its view and version), or a ``409 stale_version``'s ``session`` (no extra GET).
Every connection is kept alive (one per device, one per stream).

Each ``409 stale_version`` is classified: "view changed" when the problem's
``session.view`` differs from the view the move was decided on, else "spurious".
Only clock readings are left out of that comparison
(:data:`bench.devices.CLOCK_READINGS`), and the members that differed are listed.

Reported per table: moves accepted, 409s (view changed, spurious, others by code),
422s by code and kind of move, 429s, 5xx, connection errors, move latency p50/p99; the
commits made (bot moves included) and what each session holds in Redis. Then the
busiest minute per kind of request (against the address's budgets), the stale moves
of the draft and of each Polymer table, Redis's ``used_memory`` before and after, the
CPU of the workers, of Redis and of this load generator, and the load average. It
exits 1 if the class met a spurious 409, a 429 or a 5xx. Everything is bounded in
time and every process started here is stopped by its PID.

``--lesson``: the class comes in through lessons (docs/LESSONS.md) instead. The
teacher creates one lesson per table of the plan (its game, table size, bot and
options), every student joins with the code at once (30 threads released together,
one address), the teacher starts every lesson (the joins already dealt the full
tables; start deals the rest with bots), and the students play the tables their joins
gave them (students sit at the first seats, in the order they joined). Reported too:
each join's latency (p50, p99, the slowest) and how long until all 30 were seated.
Later games at a table are dealt as without lessons.

tests/test_classroom.py runs :func:`run` for a few seconds against a real server.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import resource
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

import orjson

from .devices import Game, Seating, Student, Table, Tally, Teacher
from .harness import free_port, start, stop, workers_cpu

PLAN: tuple[Seating, ...] = (
    # a simultaneous draft at the seed's largest table ("2-10 players")
    Seating("element-draft", "element-draft", 10, tuple(range(8))),
    # the case: one student moving at a human pace among four trading bots
    Seating("polymer 1+4", "polymer", 5, (0,), "trading"),
    # a table of students trading with each other, bots in between ("5-15 players")
    Seating("polymer 5+3", "polymer", 8, (0, 1, 3, 4, 6), "trading"),
    Seating("chemistry-battle", "chemistry-battle", 6, (0, 1, 2, 3)),
    Seating("compound-capture", "compound-capture", 4, (0, 1, 2)),
    Seating("chemistry-canasta", "chemistry-canasta", 4, (0, 1, 2)),
    Seating("metal-vs-nonmetal", "metal-vs-nonmetal", 4, (0, 1, 2)),
    Seating("polymerization", "polymerization", 4, (0, 1, 2)),
)
"""30 students at 8 tables. A seed's largest table for the draft; Polymer at its
smallest (the issue's one student among four bots) and at 8 of 5-15; Chemistry Battle
at 6 of 2-6; the other four at 4 (Metal vs. Non-Metal's and the polymer-chain game's
most; Compound Capture and Chemistry Canasta take 1-6)."""


# ---------------------------------------------------------------------------- a run --
@dataclass
class Report:
    seconds: float
    tables: list[Table]
    teacher: Tally
    dealt: Counter[str]
    failed_deals: list[str]
    cpu_seconds: float  # this process
    memory: dict[str, int]  # session id -> bytes in Redis (MEMORY USAGE of its keys)
    joins: list[float] = field(default_factory=list)  # lesson mode: each join's seconds
    seated: float = 0.0  # lesson mode: from the first join sent to the last answered

    def total(self) -> Tally:
        out = Tally()
        for table in self.tables:
            out.add(self.merged(table))
        out.add(self.teacher)
        return out

    @staticmethod
    def merged(table: Table) -> Tally:
        out = Tally()
        for tally in table.tallies:
            out.add(tally)
        return out


def run(
    port: int,
    *,
    operator_key: str,
    seconds: float,
    think: tuple[float, float] = (1.0, 4.0),
    plan: tuple[Seating, ...] = PLAN,
    polymer_options: Mapping[str, Any] | None = None,
    seed: int = 26,
    redis_url: str | None = None,
    prefix: str = "",
    lesson: bool = False,
    push: bool = True,
) -> Report:
    """The class plays for ``seconds`` against the service on ``port``; what it saw.

    ``polymer_options`` are given to every real-time game's deal (Polymer's
    ``timer_seconds``). With ``redis_url`` (and the server's key ``prefix``), each
    session's keys are measured at the end with ``MEMORY USAGE``. ``push``: each
    device follows its seat's own stream (:class:`bench.devices.Student`)."""
    catalogue = _get(port, "/v1/games")["games"]
    dynamics = {g["slug"]: g["dynamics"] for g in catalogue}
    for seating in plan:
        _check_seating(port, seating, next(g for g in catalogue if g["slug"] == seating.slug))
    stop = threading.Event()
    if lesson:  # a lesson seats its students first, in the order they join
        plan = tuple(replace(s, students=tuple(range(len(s.students)))) for s in plan)
    tables = [Table(s, dynamics[s.slug]) for s in plan]
    teacher = Teacher(port, operator_key, stop, polymer_options or {})
    students = [
        Student(port, table, seat, think, seed * 1000 + n, stop, teacher.ended, push)
        for n, (table, seat) in enumerate(
            (table, seat) for table in tables for seat in table.seating.students
        )
    ]
    cpu = _own_cpu()
    began = time.monotonic()
    joins: list[float] = []
    seated = 0.0
    if lesson:
        joins, seated = _through_lessons(port, operator_key, tables, teacher, polymer_options)
    else:
        for table in tables:
            teacher.deal(table)
    teacher.start()
    for student in students:
        student.start()
    stop.wait(max(0.0, seconds - (time.monotonic() - began)))
    stop.set()
    for table in tables:
        table.stop()
    for student in students:  # wakes a student waiting for its stream
        if student.stream is not None:
            student.stream.close()
    deadline = time.monotonic() + 15
    for thread in [teacher, *students]:
        thread.join(max(0.1, deadline - time.monotonic()))
    took = time.monotonic() - began
    memory = _session_memory(redis_url, prefix, tables) if redis_url else {}
    return Report(
        took,
        tables,
        teacher.tally,
        teacher.generations,
        teacher.failed,
        _own_cpu() - cpu,
        memory,
        joins,
        seated,
    )


def _call(port: int, method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, orjson.dumps(body) if body is not None else None, headers)
        resp = conn.getresponse()
        return resp.status, orjson.loads(resp.read() or b"null")
    finally:
        conn.close()


def _through_lessons(
    port: int,
    operator_key: str,
    tables: list[Table],
    teacher: Teacher,
    clock_options: Mapping[str, Any] | None,
) -> tuple[list[float], float]:
    """One lesson per table; every student joins at once; every lesson started; each
    table's first game is the one its lesson dealt. The joins' latencies and how long
    until every student was seated."""
    codes: list[tuple[Table, str, str]] = []
    for table in tables:
        seating = table.seating
        options = dict(seating.options)
        if table.realtime:
            options = {**(clock_options or {}), **options}
        status, made = _call(
            port,
            "POST",
            "/v1/lessons",
            {
                "game": seating.slug,
                "table_size": seating.players,
                "bot": seating.bot,
                "options": options,
                "title": seating.name,
            },
            operator_key,
        )
        if status != 201:
            raise RuntimeError(f"{seating.name}: lesson refused: {status} {made}")
        codes.append((table, made["lesson_id"], made["code"]))
    who = [(t, code, n) for t, _, code in codes for n in range(len(t.seating.students))]
    answers: list[Any] = [None] * len(who)
    took: list[float] = [0.0] * len(who)
    gate = threading.Barrier(len(who) + 1)

    def join(i: int) -> None:
        table, code, n = who[i]
        gate.wait()
        began = time.monotonic()
        status, seat = _call(
            port,
            "POST",
            "/v1/join",
            {"code": code, "name": f"{table.seating.name} {n}"},
            None,
        )
        took[i] = time.monotonic() - began
        if status != 200:
            raise RuntimeError(f"join refused: {status} {seat}")
        answers[i] = seat

    threads = [threading.Thread(target=join, args=(i,), daemon=True) for i in range(len(who))]
    for thread in threads:
        thread.start()
    gate.wait()
    first = time.monotonic()
    for thread in threads:
        thread.join(60)
    seated = time.monotonic() - first
    if any(a is None for a in answers):
        raise RuntimeError("not every student was seated")
    for table, lesson_id, _ in codes:
        status, _ = _call(port, "POST", f"/v1/lessons/{lesson_id}/start", None, operator_key)
        if status != 200:
            raise RuntimeError(f"{table.seating.name}: start refused: {status}")
    for table, _, _ in codes:
        mine = [a for a in answers if a["name"].startswith(table.seating.name + " ")]
        (session_id,) = {a["session_id"] for a in mine}
        tokens = {a["seat"]: a["seat_token"] for a in mine}
        teacher.generations[table.seating.name] += 1
        table.deal(Game(1, session_id, tokens))
    return took, seated


def _get(port: int, path: str) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        body = orjson.loads(resp.read())
        if resp.status != 200:
            raise RuntimeError(f"GET {path} answered {resp.status}: {body}")
        return body
    finally:
        conn.close()


def _check_seating(port: int, seating: Seating, listed: Mapping[str, Any]) -> None:
    """The plan fits the game as the service describes it (a table size it deals, its
    own bot's name)."""
    detail = _get(port, f"/v1/games/{seating.slug}")
    if str(seating.players) not in detail["player_counts"]:
        raise ValueError(f"{seating.name}: {seating.players} seats is not a table size")
    if seating.bots and seating.bot not in detail["bots"]:
        raise ValueError(f"{seating.name}: no bot {seating.bot!r} in {detail['bots']}")
    if not listed["min_players"] <= seating.players <= listed["max_players"]:
        raise ValueError(f"{seating.name}: {seating.players} seats")


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _session_memory(url: str, prefix: str, tables: list[Table]) -> dict[str, int]:
    import redis

    r = redis.Redis.from_url(url)
    out: dict[str, int] = {}
    try:
        for table in tables:
            for sid in table.sessions:
                keys = list(r.scan_iter(match=f"{prefix}{{{sid}}}*", count=1000))
                out[sid] = sum(int(r.memory_usage(k) or 0) for k in keys)
    finally:
        r.close()
    return out


# ------------------------------------------------------------------------ the report --
def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"


def _codes(counts: Counter[str]) -> str:
    return ", ".join(f"{code} {n}" for code, n in counts.most_common()) or "0"


def busiest_minute(tally: Tally) -> Counter[str]:
    """Per kind of request, the most answered within any 60 s: what a per-minute
    budget of the address meets.

    >>> t = Tally(stamps=[(0.0, "move"), (30.0, "move"), (61.0, "move"), (70.0, "read")])
    >>> busiest_minute(t)
    Counter({'move': 2, 'read': 1})
    """
    out: Counter[str] = Counter()
    for kind in {k for _, k in tally.stamps}:
        times = sorted(t for t, k in tally.stamps if k == kind)
        first = 0
        for last, now in enumerate(times):
            while now - times[first] > 60.0:
                first += 1
            out[kind] = max(out[kind], last - first + 1)
    return out


def stale_rate(tally: Tally) -> float:
    """The share of the moves sent that were refused as stale."""
    return (tally.changed + tally.spurious) / tally.sent if tally.sent else 0.0


def markdown(report: Report) -> str:
    """The report's tables, as bench/README.md shows them."""
    head = (
        "| table | seats (students + bots) | games | moves | 409 view changed | "
        "409 spurious | other 409 | 422 | 429 | 5xx | conn. errors | move p50 / p99 ms |\n"
        "| --- | --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |"
    )
    rows = [head]
    for table in report.tables:
        t = Report.merged(table)
        s = table.seating
        rows.append(
            f"| `{s.name}` | {s.players} ({len(s.students)} + {s.players - len(s.students)} "
            f"{s.bot}) | {report.dealt[s.name]} | {t.moves:,} | {t.changed} | {t.spurious} | "
            f"{_codes(t.conflicts)} | {_codes(t.refused)} | {sum(t.limited.values())} | "
            f"{t.server_errors} | {t.broken} | {_ms(t.latencies, 0.5)} / {_ms(t.latencies, 0.99)} |"
        )
    total = report.total()
    rows.append(
        f"| **all** | {sum(t.seating.players for t in report.tables)} "
        f"({sum(len(t.seating.students) for t in report.tables)} students) | "
        f"{sum(report.dealt.values())} | **{total.moves:,}** | {total.changed} | "
        f"**{total.spurious}** | {_codes(total.conflicts)} | {_codes(total.refused)} | "
        f"**{sum(total.limited.values())}** | **{total.server_errors}** | {total.broken} | "
        f"{_ms(total.latencies, 0.5)} / {_ms(total.latencies, 0.99)} |"
    )
    out = ["\n".join(rows), ""]
    second = [
        "| table | commits (bots' moves too) | moves sent | stale | reads | read p50 / p99 ms | "
        "streams opened | Redis per session KB | view members that differed (409 view changed) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for table in report.tables:
        t = Report.merged(table)
        sizes = [report.memory[sid] for sid in table.sessions if sid in report.memory]
        kb = f"{statistics.mean(sizes) / 1024:,.0f}" if sizes else "-"
        members = ", ".join(f"{m} {n}" for m, n in t.differed.most_common(3)) or "-"
        second.append(
            f"| `{table.seating.name}` | {sum(table.commits.values()):,} | {t.sent:,} | "
            f"{100 * stale_rate(t):.1f}% | {t.reads:,} | {_ms(t.read_latencies, 0.5)} / "
            f"{_ms(t.read_latencies, 0.99)} | {t.streams} | {kb} | {members} |"
        )
    out += ["\n".join(second), ""]
    return "\n".join(out)


def summary(report: Report) -> str:
    total = report.total()
    teacher = report.teacher
    requests = total.sent + total.reads + total.streams + sum(report.dealt.values())
    lines = [
        f"{report.seconds:.0f} s; {total.moves:,} moves accepted of {total.sent:,} sent, "
        f"{total.reads:,} reads, {total.streams} streams opened, "
        f"{sum(report.dealt.values())} games dealt ({requests / report.seconds:.1f} requests/s); "
        f"429 by kind of request: {_codes(total.limited)}; sent again on a new connection "
        f"after a kept-alive one was dropped: {total.resent}",
        "the busiest minute from the school's address: "
        + ", ".join(f"{kind} {n:,}" for kind, n in sorted(busiest_minute(total).items()))
        + f" (the budgets: {default_budgets()})",
        f"the teacher: {sum(report.dealt.values())} games dealt, "
        f"{len(report.failed_deals)} refused, 429 {sum(teacher.limited.values())}, "
        f"5xx {teacher.server_errors}, connection errors {teacher.broken}",
        f"load generator CPU: {report.cpu_seconds:.1f} s "
        f"({100 * report.cpu_seconds / report.seconds:.0f}% of one core)",
    ]
    for table in report.tables:
        t = Report.merged(table)
        stale = t.changed + t.spurious
        if table.dynamics == "simultaneous":
            lines.append(
                f"{table.seating.name} (simultaneous): {stale} of {t.sent} drafts refused as stale"
            )
        if table.realtime:
            goal = "; goal: under 5%" if len(table.seating.students) == 1 else ""
            lines.append(
                f"{table.seating.name} (real time): {stale} of {t.sent} moves the students sent "
                f"were refused as stale ({100 * stale_rate(t):.1f}%{goal}); with the phase "
                f"unchanged (another seat's move): {stale - t.differed['view.phase']}"
            )
    for failed in report.failed_deals[:5]:
        lines.append(f"deal refused: {failed}")
    return "\n".join(lines)


# ----------------------------------------------------------- the processes it starts --
@contextlib.contextmanager
def own_redis() -> Iterator[str]:
    """A redis-server of the benchmark's own on a free loopback port, no persistence;
    stopped by its PID."""
    import redis

    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not on PATH (apt-get install redis-server)")
    port = free_port()
    with tempfile.TemporaryDirectory() as home:
        args = ["--port", str(port), "--bind", "127.0.0.1", "--dir", home]
        proc = subprocess.Popen(
            [binary, *args, "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            url = f"redis://127.0.0.1:{port}/0"
            deadline = time.monotonic() + 10
            while True:
                try:
                    redis.Redis.from_url(url, socket_timeout=0.5).ping()
                    break
                except redis.RedisError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            yield url
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


def service_env(redis_url: str, operator_key: str) -> dict[str, str]:
    """`make serve`'s environment for the run: rate limits on at the service's default
    budgets (whatever this shell says about them), an operator key, quiet logs."""
    from cryptography.fernet import Fernet

    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("RATE_LIMIT") and k not in ("OPERATOR_KEYS", "REDIS_KEY_PREFIX")
    }
    return {
        **env,
        "STATE_KEYS": Fernet.generate_key().decode(),
        "LOG_LEVEL": "WARNING",
        "REDIS_URL": redis_url,
        "RATE_LIMITS": "on",
        "OPERATOR_KEYS": operator_key,
    }


def default_budgets() -> str:
    from service.base.config import Settings

    found = {f.name: f.default for f in fields(Settings) if f.name.startswith("rate_limit_")}
    return "; ".join(f"{name[11:]} {value}" for name, value in found.items())


def _healthy(port: int, within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if _get(port, "/healthz") is not None:
                return
        except (OSError, RuntimeError, http.client.HTTPException, ValueError):
            pass
        time.sleep(0.2)
    raise RuntimeError("the service did not answer /healthz")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--think", default="1,4", help="a student's think time, min,max s")
    parser.add_argument(
        "--polymer-timer", type=int, default=60, help="Polymer's timer_seconds (seed: 600)"
    )
    parser.add_argument("--seed", type=int, default=26, help="the students' choices")
    parser.add_argument(
        "--lesson", action="store_true", help="the class joins through lessons (join codes)"
    )
    parser.add_argument(
        "--device",
        choices=("push", "poll"),
        default="push",
        help="push: each phone follows its seat's own stream (the /play pages since issue 32); "
        "poll: the public stream, and a view read before each decision",
    )
    args = parser.parse_args()
    low, high = (float(x) for x in args.think.split(","))
    operator_key = secrets.token_urlsafe(24)
    load_before = os.getloadavg()
    with own_redis() as url:
        import redis

        r = redis.Redis.from_url(url)
        port = free_port()
        server = start("service:create_app()", port, service_env(url, operator_key))
        try:
            _healthy(port, 60)
            before = int(r.info("memory")["used_memory"])
            redis_cpu = _redis_cpu(r)
            workers = workers_cpu(server.pid)
            print(
                f"one instance (gunicorn.conf.py) on 127.0.0.1:{port}, Redis of its own at {url}; "
                f"rate limits on, the default budgets ({default_budgets()}); students think "
                f"{low:g}-{high:g} s; Polymer's timer {args.polymer_timer} s; "
                f"{args.seconds:.0f} s; devices {args.device}; load average "
                f"{load_before[0]:.2f} on {os.cpu_count()} CPUs",
                flush=True,
            )
            print(
                "plan: "
                + "; ".join(
                    f"{s.name}: {s.players} seats, students at {list(s.students)}, "
                    f"{s.players - len(s.students)} {s.bot}"
                    for s in PLAN
                ),
                flush=True,
            )
            report = run(
                port,
                operator_key=operator_key,
                seconds=args.seconds,
                think=(low, high),
                polymer_options={"timer_seconds": args.polymer_timer},
                seed=args.seed,
                redis_url=url,
                prefix="chemgames:",
                lesson=args.lesson,
                push=args.device == "push",
            )
            workers = workers_cpu(server.pid) - workers
            redis_cpu = _redis_cpu(r) - redis_cpu
            after = int(r.info("memory")["used_memory"])
        finally:
            stop(server)
        sessions = sum(report.dealt.values())
        print()
        print(markdown(report))
        print(summary(report))
        if report.joins:
            ms = sorted(t * 1000 for t in report.joins)
            p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
            print(
                f"lesson mode: {len(ms)} students joined at once from one address, every one "
                f"seated in {report.seated * 1000:,.0f} ms; a join's latency p50 "
                f"{statistics.median(ms):,.0f} ms, p99 {p99:,.0f} "
                f"ms, slowest {ms[-1]:,.0f} ms"
            )
        print(
            f"Redis used_memory: {before / 2**20:.1f} MiB before, {after / 2**20:.1f} MiB after "
            f"({(after - before) / max(1, sessions) / 1024:,.0f} KB per session dealt, "
            f"{sessions} sessions; MEMORY USAGE of a session's own keys: "
            f"{statistics.mean(report.memory.values()) / 1024 if report.memory else 0:,.0f} KB "
            f"mean); CPU: workers {workers:.1f} s, Redis {redis_cpu:.1f} s"
        )
        load_after = os.getloadavg()
        command = os.path.relpath(sys.executable)
        print(
            f"load average {load_before[0]:.2f} / {load_before[1]:.2f} / {load_before[2]:.2f} "
            f"before, {load_after[0]:.2f} / {load_after[1]:.2f} / {load_after[2]:.2f} after; "
            f"command: {' '.join([command, '-m', 'bench.classroom', *sys.argv[1:]])}"
        )
    total = report.total()
    return 1 if total.spurious or sum(total.limited.values()) or total.server_errors else 0


def _redis_cpu(r: Any) -> float:
    cpu = r.info("cpu")
    return float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])


if __name__ == "__main__":
    raise SystemExit(main())
