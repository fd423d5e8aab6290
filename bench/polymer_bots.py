"""How many bot-filled Polymer sessions one instance drives while its bots keep pace,
and how many Redis round trips a bot move costs.

    .venv/bin/python -m bench.polymer_bots [--levels 2,4,8,16,32,64] [--seats 15]
                                           [--seconds 20] [--answers 10]

1. **Round trips** (in process, exact): a 15-seat session with 14 `trading` bots is
   played by calling the due-work runner directly, counting every request the Redis
   client sends (a pipeline or a script is one round trip), per bot move, with claims
   that found nothing counted too.
2. **Capacity** (one instance: the project's gunicorn.conf.py, 2 gevent workers, due
   work on, against REDIS_URL, default the local Redis db 15): for each level N, N
   sessions of ``--seats`` seats, every seat but seat 0 a `trading` bot (think time
   1.5-4 s, the default), seat 0 ready and idle. For ``--seconds`` the benchmark reads
   the due set every 20 ms: how overdue its oldest item is (a bot move due and not yet
   taken by a worker). The bots keep their pace while that lag stays within 10% of
   their mean think time (275 ms; p95 over the samples). Bot moves per second come
   from the sessions' versions.
3. **Answers** (the same instance, before the capacity levels): one 5-seat session,
   seats 1-4 `trading` bots (think time 1.5-4 s), seat 0 offers one card for "any" to
   a neighbouring bot, waits for the answer (accepted or declined), and again,
   ``--answers`` times: how long after each offer the bot answered, by the server's
   clock (the steps' times in the session's record).

Every key is written under a prefix of the benchmark's own and deleted at the end;
the server is stopped by PID.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from typing import Any

import redis

from .harness import Client, RoundTrips, bench_app, bench_env, free_port, start, stop

MEAN_THINK_MS = (1500 + 4000) / 2
KEEPS_PACE = 0.10 * MEAN_THINK_MS


def round_trips(url: str, seats: int) -> tuple[float, int]:
    """Redis round trips per bot move, and the moves counted."""
    prefix = f"bench-rt-{uuid.uuid4().hex[:8]}:"
    app = bench_app(url, prefix)
    client = app.test_client()
    bots = {str(s): "trading" for s in range(1, seats)}
    made = client.post(
        "/v1/polymer/sessions",
        json={"players": seats, "seed": 3, "bots": bots,
              "options": {"bot_think_min_ms": 100, "bot_think_max_ms": 100}},
    ).get_json()  # fmt: skip
    sid, token = made["session_id"], made["seats"][0]["seat_token"]
    due = app.extensions["chemgames.due"]
    with app.app_context():
        due.run_due()  # the bots declare themselves ready
    version = client.get(f"/v1/polymer/sessions/{sid}").get_json()["version"]
    client.post(
        f"/v1/polymer/sessions/{sid}/moves",
        json={"seat": 0, "version": version, "move": {"type": "ready"}},
        headers={"Authorization": f"Bearer {token}"},
    )
    start_version = client.get(f"/v1/polymer/sessions/{sid}").get_json()["version"]
    trips = RoundTrips()
    try:
        with app.app_context():
            until = time.monotonic() + 5
            while time.monotonic() < until:
                due.run_due()
                time.sleep(0.01)
    finally:
        trips.close()
    moves = client.get(f"/v1/polymer/sessions/{sid}").get_json()["version"] - start_version
    r = redis.Redis.from_url(url)
    for key in r.scan_iter(match=f"{prefix}*", count=1000):
        r.unlink(key)
    return trips.count / max(moves, 1), moves


def answers(port: int, offers: int) -> list[int]:
    """How long (ms, server clock) after each of ``offers`` offers a bot answered it."""
    client = Client(port)
    body = {"players": 5, "seed": 1, "options": {"timer_seconds": 600},
            "bots": {str(s): "trading" for s in range(1, 5)}}  # fmt: skip
    status, data, _ = client.post("/v1/polymer/sessions", json.dumps(body).encode())
    assert status == 201, data
    made = json.loads(data)
    url = f"/v1/polymer/sessions/{made['session_id']}"
    auth = {"Authorization": f"Bearer {made['seats'][0]['seat_token']}"}
    time.sleep(1.0)  # the bots declare themselves ready
    delays: list[int] = []
    for n in range(offers + 1):  # the first move is seat 0's ready
        while True:  # a bot may move first: read again and send again
            view = json.loads(Client(port).get(f"{url}?seat=0", auth)[1])
            move: dict[str, Any] = {"type": "ready"}
            if n:
                card = view["view"]["you"]["hand"][0]["id"]
                move = {"type": "offer", "to": (1, 4)[n % 2], "give": [card], "ask": ["any"]}
            payload = {"seat": 0, "version": view["version"], "move": move}
            status, data, _ = Client(port).post(f"{url}/moves", json.dumps(payload).encode(), auth)
            if status != 409:
                break
        assert status == 200, data
        if not n:
            continue
        answer = json.loads(data)
        offer, at = answer["events"][0]["offer"], answer["server_now_ms"]
        while True:
            record = json.loads(Client(port).get(f"{url}/record?seat=0", auth)[1])["record"]
            done = [
                step["at"] for step in record["steps"]
                for e in step["events"]
                if e["type"] in ("offer_declined", "trade_executed") and e.get("offer") == offer
            ]  # fmt: skip
            if done:
                delays.append(done[0] - at)
                break
            time.sleep(0.05)
    return delays


def capacity(port: int, r: redis.Redis, due_key: str, sessions: int, seats: int,
             seconds: float) -> dict[str, float]:  # fmt: skip
    client = Client(port)
    made = []
    for i in range(sessions):
        body = {"players": seats, "seed": i, "options": {"timer_seconds": int(seconds) + 30},
                "bots": {str(s): "trading" for s in range(1, seats)}}  # fmt: skip
        status, data, _ = client.post("/v1/polymer/sessions", json.dumps(body).encode())
        assert status == 201, data
        made.append(json.loads(data))
    time.sleep(1.0)  # the bots declare themselves ready
    for m in made:
        sid = m["session_id"]
        status, data, _ = client.get(f"/v1/polymer/sessions/{sid}")
        version = json.loads(data)["version"]
        body = {"seat": 0, "version": version, "move": {"type": "ready"}}
        auth = {"Authorization": f"Bearer {m['seats'][0]['seat_token']}"}
        status, data, _ = client.post(
            f"/v1/polymer/sessions/{sid}/moves", json.dumps(body).encode(), auth
        )
        assert status == 200, data
    versions = _versions(port, made)
    lags: list[float] = []
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        seconds_, micros = r.time()
        now = seconds_ * 1000 + micros // 1000
        oldest = r.zrangebyscore(due_key, "-inf", now, start=0, num=1, withscores=True)
        lags.append(now - float(oldest[0][1]) if oldest else 0.0)
        time.sleep(0.02)
    took = time.monotonic() - began
    moves = sum(_versions(port, made)) - sum(versions)
    lags.sort()
    return {
        "sessions": sessions,
        "bots": sessions * (seats - 1),
        "moves_per_s": moves / took,
        "lag_p50": lags[len(lags) // 2],
        "lag_p95": lags[int(len(lags) * 0.95)],
        "lag_max": lags[-1],
    }


def _versions(port: int, made: list[dict[str, Any]]) -> list[int]:
    client = Client(port)  # a new connection: the server closes idle ones after 5 s
    out = []
    for m in made:
        _, data, _ = client.get(f"/v1/polymer/sessions/{m['session_id']}")
        out.append(json.loads(data)["version"])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="2,4,8,16,32,64")
    parser.add_argument("--seats", type=int, default=15)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--answers", type=int, default=10)
    args = parser.parse_args()
    env = bench_env()
    url = env["REDIS_URL"]
    per_move, moves = round_trips(url, args.seats)
    print(f"Redis round trips per bot move: {per_move:.2f} (over {moves} bot moves)")
    prefix = f"bench-bots-{uuid.uuid4().hex[:8]}:"
    env.update(REDIS_KEY_PREFIX=prefix, RATE_LIMITS="off")
    r = redis.Redis.from_url(url)
    port = free_port()
    server = start("service:create_app()", port, env)
    print(f"\n{args.seats}-seat sessions, {args.seats - 1} trading bots each, think 1.5-4 s; "
          f"keeps pace: lag p95 <= {KEEPS_PACE:.0f} ms")  # fmt: skip
    print(f"{'sessions':>8} {'bots':>5} {'bot moves/s':>11} {'lag p50':>8} {'lag p95':>8} "
          f"{'lag max':>8}  pace")  # fmt: skip
    try:
        if args.answers:
            delays = answers(port, args.answers)
            quick = sum(1 for d in delays if d < 1500)
            print(f"offers answered by a bot (think 1.5-4 s), ms after the offer: {delays}; "
                  f"{quick} of {len(delays)} within 1.5 s")  # fmt: skip
        for level in (int(x) for x in args.levels.split(",")):
            row = capacity(port, r, f"{prefix}{{due}}", level, args.seats, args.seconds)
            kept = "kept" if row["lag_p95"] <= KEEPS_PACE else "LOST"
            lags = f"{row['lag_p50']:8.0f} {row['lag_p95']:8.0f} {row['lag_max']:8.0f}"
            print(f"{level:8} {row['bots']:5.0f} {row['moves_per_s']:11.1f} {lags}  {kept}")
            if kept == "LOST":
                break
    finally:
        stop(server)
        for key in r.scan_iter(match=f"{prefix}*", count=1000):
            r.unlink(key)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
