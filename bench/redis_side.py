"""Redis's own CPU per hosted move, and where it goes, against a Redis of its own.

    .venv/bin/python -m bench.redis_side [--games 12] [--rounds 6] [--subscribers 2]
        [--baseline /tmp/base]

Starts a ``redis-server`` of its own (127.0.0.1, a free port, no snapshot, no AOF;
stopped by its PID at the end) and plays, in each round, the same fixed set of hosted
element-draft games (2 seats, fixed seeds, the same deployment keys) as bench.bgio's
devices do: every move with an Idempotency-Key, its seat's bearer token, rate limits
counted (budgets no run reaches), and ``--subscribers`` connections following every
session's channel as two gunicorn workers' seat streams do (``SSUBSCRIBE`` on Redis 7:
each commit's message is delivered to each). The devices read nothing: a seat decides
on the state the last commit's message carries (opened here, in process, as a seat
stream does), so the window holds moves only; the games are created, and their first
state read, before it opens.

Each round runs in a child process of each checkout in turn (the branch's, and with
``--baseline`` a ``git archive`` of another, its ``service`` on ``PYTHONPATH``), the
order alternated round by round, against the same server (flushed, and its statistics
reset, before each). Per move, from the server: its CPU (``used_cpu_user`` +
``used_cpu_sys``), ``INFO commandstats`` (calls and usec per command, the scripts'
own commands included), bytes in and out, and its reads of client sockets
(``total_reads_processed``: the round trips); from the subscribers, the message bytes
delivered. Prints a line per round and checkout, then the medians and ranges.
"""

from __future__ import annotations

import argparse
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

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
SLUG = "element-draft"


def start_redis(folder: Path, callgrind: bool) -> tuple[subprocess.Popen[bytes], int]:
    # imported here: only the parent starts Redis, and a --child (run as a script with
    # a baseline checkout first on its path) must not need this checkout's harness
    from bench.harness import free_port, redis_answers

    port = free_port()
    valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
    valgrind += [f"--callgrind-out-file={folder}/callgrind.out"]
    # under callgrind the server's cron (hz times a second) counts for the run's wall time,
    # ten times slower: once a second keeps it out of the per-move figures
    proc = subprocess.Popen(
        (valgrind if callgrind else [])
        + ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", ""]
        + ["--appendonly", "no", "--dir", str(folder)]
        + (["--hz", "1"] if callgrind else []),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if redis_answers(port, seconds=20, every=0.05):  # callgrind starts it slowly
        return proc, port
    proc.kill()
    raise RuntimeError("redis-server did not start")


def stop_redis(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


# -- the child: one round of one checkout ------------------------------------------------


def server_figures(r: Any) -> dict[str, Any]:
    cpu, stats = r.info("cpu"), r.info("stats")
    commands = {
        name.removeprefix("cmdstat_"): (int(v["calls"]), int(v["usec"]))
        for name, v in r.info("commandstats").items()
    }
    return {
        "cpu": float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
        "user": float(cpu["used_cpu_user"]),
        "in": int(stats["total_net_input_bytes"]),
        "out": int(stats["total_net_output_bytes"]),
        "reads": int(stats["total_reads_processed"]),
        "commands": commands,
    }


class Followers:
    """``n`` connections, each following every game's channel (a worker's listener)."""

    def __init__(self, url: str, n: int) -> None:
        import redis

        client: Any = redis.Redis.from_url(url)
        self.conns = [client.pubsub() for _ in range(n)]
        self.bytes = 0

    def follow(self, channel: str, sharded: bool) -> None:
        for pubsub in self.conns:
            (pubsub.ssubscribe if sharded else pubsub.subscribe)(channel)
            kind = "ssubscribe" if sharded else "subscribe"
            while (got := pubsub.get_message(timeout=2)) is None or got["type"] != kind:
                pass

    def next(self, sharded: bool) -> dict[str, Any]:
        """The next commit message, as every follower received it (the first's, parsed)."""
        datas = []
        for pubsub in self.conns:
            get = pubsub.get_sharded_message if sharded else pubsub.get_message
            got = get(timeout=5)
            if got is None:
                raise RuntimeError("a commit's message did not arrive")
            datas.append(got["data"])
        self.bytes += sum(len(d) for d in datas)
        found: dict[str, Any] = json.loads(datas[0])
        return found


def toggle(state: str) -> None:
    """Count a callgrind-run server's instructions in the window only (``--callgrind``)."""
    pid = os.environ.get("REDIS_SIDE_CALLGRIND")
    if pid:
        subprocess.run(["callgrind_control", "-i", state, pid], check=True, capture_output=True)


def child(url: str, games: int, subscribers: int) -> dict[str, Any]:
    os.environ.update(
        REDIS_URL=url,
        LOG_LEVEL="WARNING",
        DUE_WORK="off",
        **{f"RATE_LIMIT_{b}": "10000000 per minute" for b in ("MOVES", "SETUP", "READS")},
        RATE_LIMIT_STREAMS="10000000 per minute",
    )
    import redis

    from service import create_app

    app = create_app()
    client = app.test_client()
    store = app.extensions["chemgames.store"]
    api = app.extensions["chemgames.games"][SLUG]
    r = redis.Redis.from_url(url)
    followers = Followers(url, subscribers)
    with app.app_context():
        from service.games.play import open_token

        def table(seed: int) -> tuple[int, dict[str, Any], Any, bool]:
            made = client.post(f"/v1/{SLUG}/sessions", json={"players": 2, "seed": seed})
            made = made.get_json()
            sid = made["session_id"]
            loaded, _ = store.load(sid)
            followers.follow(store.channel(sid), loaded.sharded)
            return seed, made, open_token(api, loaded.token), loaded.sharded

        def play(seed: int, made: dict[str, Any], env: Any, sharded: bool) -> int:
            base = f"/v1/{SLUG}/sessions/{made['session_id']}"
            auth = {
                s["seat"]: {"Authorization": f"Bearer {s['seat_token']}"} for s in made["seats"]
            }
            version, to_act, turn = made["version"], made["to_act"], 0
            while to_act:
                seat = to_act[turn % len(to_act)]
                legal = api.game.legal_moves(env.state, seat)
                move = legal[(seed + turn) % len(legal)]
                headers = {**auth[seat], "Idempotency-Key": f"{made['session_id']}-{turn}"}
                body = {"seat": seat, "version": version, "move": move}
                answer = client.post(f"{base}/moves", json=body, headers=headers)
                assert answer.status_code == 200, answer.get_json()
                message = followers.next(sharded)
                env = open_token(api, message["sealed"])
                version, to_act = message["version"], message["to_act"]
                turn += 1
            return turn

        play(*table(10_000))  # warm: the scripts loaded, the process's first calls made
        tables = [table(seed) for seed in range(games)]
        before, bytes_before = server_figures(r), followers.bytes
        toggle("on")
        moves = sum(play(*t) for t in tables)
        toggle("off")
        after = server_figures(r)
    commands = {
        name: (
            calls - before["commands"].get(name, (0, 0))[0],
            usec - before["commands"].get(name, (0, 0))[1],
        )
        for name, (calls, usec) in after["commands"].items()
    }
    return {
        "moves": moves,
        "cpu_us": 1e6 * (after["cpu"] - before["cpu"]) / moves,
        "user_us": 1e6 * (after["user"] - before["user"]) / moves,
        "sys_us": 1e6 * (after["cpu"] - after["user"] - before["cpu"] + before["user"]) / moves,
        "in_bytes": (after["in"] - before["in"]) / moves,
        "out_bytes": (after["out"] - before["out"]) / moves,
        "reads": (after["reads"] - before["reads"]) / moves,
        "message_bytes": (followers.bytes - bytes_before) / moves / max(1, subscribers),
        "commands": {
            name: (calls / moves, usec / moves) for name, (calls, usec) in commands.items() if calls
        },
    }


# -- the parent: rounds of each checkout, alternated ------------------------------------


def run_child(
    checkout: Path, url: str, games: int, subscribers: int, keys: str, callgrind: int | None
) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "STATE_KEYS": keys, "PYTHONHASHSEED": "0"}
    if callgrind:
        env["REDIS_SIDE_CALLGRIND"] = str(callgrind)
    command = [sys.executable, str(HERE), "--child", url, "--games", str(games)]
    done = subprocess.run(
        [*command, "--subscribers", str(subscribers)],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def instructions(folder: Path, pid: int) -> int:
    """Dump the callgrind-run server's counts so far (the last window's: counting is on
    only in windows) and zero them; the instructions of that dump."""
    before = set(folder.glob("callgrind.out*"))
    subprocess.run(["callgrind_control", "-d", str(pid)], check=True, capture_output=True)
    for _ in range(200):
        new = set(folder.glob("callgrind.out*")) - before
        for dump in new:
            for line in dump.read_text().splitlines():
                if line.startswith("totals:"):
                    dump.unlink()
                    return int(line.split()[1])
        time.sleep(0.1)
    raise RuntimeError("no callgrind dump")


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=12, help="games per round")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--subscribers", type=int, default=2)
    parser.add_argument("--baseline", type=Path, help="another checkout, run in turns")
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="run the server under callgrind and count its instructions per move instead",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.games, args.subscribers)))
        return
    from cryptography.fernet import Fernet

    keys = Fernet.generate_key().decode()
    checkouts = {"branch": ROOT}
    if args.baseline:
        checkouts["baseline"] = args.baseline.resolve()
    folder = Path(tempfile.mkdtemp(prefix="redis-side-"))
    proc, port = start_redis(folder, args.callgrind)
    url = f"redis://127.0.0.1:{port}/0"
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in checkouts}
    try:
        for n in range(args.rounds):
            order = list(checkouts) if n % 2 == 0 else list(reversed(checkouts))
            for name in order:
                subprocess.run(
                    ["redis-cli", "-p", str(port), "flushall"], check=True, capture_output=True
                )
                subprocess.run(
                    ["redis-cli", "-p", str(port), "config", "resetstat"],
                    check=True,
                    capture_output=True,
                )
                row = run_child(
                    checkouts[name],
                    url,
                    args.games,
                    args.subscribers,
                    keys,
                    proc.pid if args.callgrind else None,
                )
                if args.callgrind:
                    row["ir"] = instructions(folder, proc.pid) / row["moves"]
                rows[name].append(row)
                print(
                    f"round {n + 1} {name}: {row['moves']} moves, "
                    f"Redis {row['cpu_us']:.1f} us/move, "
                    f"in {row['in_bytes']:.0f} B, out {row['out_bytes']:.0f} B, "
                    f"message {row['message_bytes']:.0f} B, reads {row['reads']:.2f}"
                    + (f", {row['ir']:,.0f} instructions/move" if "ir" in row else ""),
                    flush=True,
                )
    finally:
        stop_redis(proc)
        shutil.rmtree(folder, ignore_errors=True)
    load = os.getloadavg()
    print(f"\nload average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for name, got in rows.items():
        print(f"\n{name}: Redis CPU us/move {spread([g['cpu_us'] for g in got])}")
        for what in ("user_us", "sys_us", "ir", "in_bytes", "out_bytes", "message_bytes", "reads"):
            if what not in got[0]:
                continue
            print(f"  {what}/move {spread([g[what] for g in got])}")
        names = sorted({c for g in got for c in g["commands"]})
        print("  | command | calls/move | usec/move | usec/call |")
        for c in names:
            calls = [g["commands"].get(c, (0, 0))[0] for g in got]
            usec = [g["commands"].get(c, (0, 0))[1] for g in got]
            per_call = [u / k for u, k in zip(usec, calls, strict=True) if k]
            print(
                f"  | {c} | {statistics.median(calls):.2f} | {spread(usec)} | "
                f"{statistics.median(per_call) if per_call else 0:.2f} |"
            )


if __name__ == "__main__":
    main()
