"""CPU of the seat streams' frames in process, for before/after comparisons.

    .venv/bin/python -m bench.frame_cpu [--game element-draft] [--games 10] [--rounds 5]
        [--elsewhere] [--legal-moves]

Plays whole hosted games (as ``bench.move_cpu`` does) while every seat follows the
session on its own stream (``GET .../events?seat=n``, each read in a thread of its own
through the app's WSGI entry: the same code gunicorn runs from the routing on, without
gevent), and reads the CPU of each stream's thread (``time.thread_time``) from its
request to its ``hello`` (opening), and from then to its ``end`` (its frames), and of
the process's pub/sub reader (the ``Listener`` thread). With ``--elsewhere`` every frame
is built as in a worker that did not commit the move (it opens the state). Every frame
a stream receives is hashed (its session id and its hello's random ``stream_id`` left
out: :func:`as_hashed`): with the same ``STATE_KEYS`` the deals are the same, so two
checkouts that send the same frames print the same digest (with ``--elsewhere`` or
without: the same frames). Every round prints a line; the last line is the median of
the rounds. The machine is shared: run two checkouts in turns (A, B, A, B) and compare
medians of the same session. With ``--legal-moves`` the streams are opened with
``legal_moves=true`` (each frame carries the seat's legal moves). Each line also gives
the CPU of the legal-moves reads the mover makes before each move (``POST
.../legal-moves`` through the app, in the playing thread): what a device's read costs.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import re
import statistics
import threading
import time
from typing import Any

import orjson

from .move_cpu import Meter, in_process_settings


class Follower(threading.Thread):
    """One seat's stream, read to its end in a thread of its own."""

    def __init__(self, app: Any, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.app, self.url, self.token = app, url, token
        self.opened = threading.Event()
        self.open_cpu = self.frames_cpu = 0.0
        self.updates = 0
        self.last: dict[str, Any] = {}
        self.sent: list[bytes] = []

    def run(self) -> None:
        began = time.thread_time()
        client = self.app.test_client()
        headers = {"Authorization": f"Bearer {self.token}"}
        resp = client.get(self.url, headers=headers, buffered=False)
        chunks = iter(resp.response)
        hello = b""
        while b"event: hello" not in hello:
            hello = next(chunks)
        self.open_cpu = time.thread_time() - began
        self.opened.set()
        began = time.thread_time()
        self.sent.append(hello)
        for chunk in chunks:
            self.sent.append(chunk)
            if chunk.startswith(b"id: ") and b"event: update" in chunk:
                self.updates += 1
                self.last = orjson.loads(chunk.split(b"data: ", 1)[1])
            if b"event: end" in chunk:
                break
        self.frames_cpu = time.thread_time() - began
        resp.close()


READERS: dict[threading.Thread, float] = {}
STREAM_ID = re.compile(rb'"stream_id":"[A-Za-z0-9_-]+"')  # a new one for every stream


def as_hashed(chunk: bytes, session: bytes) -> bytes:
    """A frame as the digest reads it: what differs between two runs of the same deals
    (the session's id, each stream's id) left out.

    >>> as_hashed(b'data: {"session_id":"ab12","stream_id":"Xy-9_"}', b"ab12")
    b'data: {"session_id":"<session>","stream_id":"<stream>"}'
    """
    return STREAM_ID.sub(b'"stream_id":"<stream>"', chunk).replace(session, b"<session>")


def read_listeners() -> None:
    """Note the CPU of the process's pub/sub reader threads so far (a reader ends when
    its process follows nothing: read while the streams are open)."""
    for thread in threading.enumerate():
        if thread.name == "chemgames-listener" and thread.ident is not None:
            with contextlib.suppress(OSError):  # it ended meanwhile
                READERS[thread] = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))


LEGAL_READS = [0.0, 0]  # the mover's legal-moves reads: CPU seconds, count


def play(
    client: Any, app: Any, slug: str, players: int, seed: int, query: str = ""
) -> list[Follower]:
    made = client.post(f"/v1/{slug}/sessions", json={"players": players, "seed": seed})
    made = made.get_json()
    base = f"/v1/{slug}/sessions/{made['session_id']}"
    tokens = {s["seat"]: s["seat_token"] for s in made["seats"]}
    auth = {seat: {"Authorization": f"Bearer {token}"} for seat, token in tokens.items()}
    followers = [Follower(app, f"{base}/events?seat={s}{query}", t) for s, t in tokens.items()]
    for follower in followers:
        follower.start()
        assert follower.opened.wait(10)
    version, to_act, turn = made["version"], made["to_act"], 0
    while to_act:
        seat = to_act[turn % len(to_act)]
        began = time.thread_time()
        legal = client.post(f"{base}/legal-moves", json={"seat": seat}, headers=auth[seat])
        LEGAL_READS[0] += time.thread_time() - began
        LEGAL_READS[1] += 1
        moves = legal.get_json()["moves"]
        body = {"seat": seat, "version": version, "move": moves[(seed + turn) % len(moves)]}
        headers = {**auth[seat], "Idempotency-Key": f"{made['session_id']}-{turn}"}
        answer = client.post(f"{base}/moves", json=body, headers=headers)
        assert answer.status_code == 200, answer.get_json()
        version, to_act = answer.get_json()["version"], answer.get_json()["to_act"]
        turn += 1
        read_listeners()
        # one frame a move (no folding): wait until every stream has sent it
        deadline = time.monotonic() + 10
        while any(f.last.get("version", -1) < version for f in followers):
            assert time.monotonic() < deadline, "a stream did not send its frame"
            time.sleep(0.0005)
    read_listeners()
    for follower in followers:
        follower.join(10)
        assert not follower.is_alive()
    return followers


def elsewhere(app: Any) -> None:
    """Make every frame of this process what it is in a worker that did not commit the
    move: nothing handed to the streams by the commit, and the token not among the
    sealer's recent plaintexts (the rules' own memos stay as warm as the move left
    them: the other worker's are colder)."""
    from service.games.play import sealer
    from service.http import streams

    streams.sealed_here = lambda *args, **kwargs: None
    with app.app_context():
        recent = sealer().recent
    recent.put = lambda token, plain: None  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="element-draft")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10, help="games per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--elsewhere",
        action="store_true",
        help="the streams as in a worker that did not commit the move: every frame opens "
        "the state (decrypted: not in the sealer's recent plaintexts) and builds its view",
    )
    parser.add_argument(
        "--legal-moves",
        action="store_true",
        help="the streams opened with legal_moves=true: every frame carries the seat's legal moves",
    )
    args = parser.parse_args()
    query = "&legal_moves=true" if args.legal_moves else ""
    in_process_settings()
    os.environ.setdefault("SSE_HEARTBEAT_SECONDS", "30")
    from service import create_app

    app = create_app()
    if args.elsewhere:
        elsewhere(app)
    meter = Meter(app)
    client = app.test_client()
    play(client, app, args.game, args.players, 10_000, query)  # warm
    per_frame, per_open, per_move, reader, per_read = [], [], [], [], []
    digest = hashlib.sha256()
    for r in range(args.rounds):
        meter.cpu, meter.moves = 0.0, 0
        opened = frames_cpu = 0.0
        frames = streams = 0
        listened = sum(READERS.values())
        LEGAL_READS[:] = [0.0, 0]
        for seed in range(args.games):
            played = play(client, app, args.game, args.players, r * args.games + seed, query)
            for follower in played:
                opened += follower.open_cpu
                frames_cpu += follower.frames_cpu
                frames += follower.updates
                streams += 1
                session = follower.url.split("/sessions/")[1].split("/")[0].encode()
                for chunk in follower.sent:
                    digest.update(as_hashed(chunk, session))
        listened = sum(READERS.values()) - listened
        per_frame.append(1e6 * frames_cpu / frames)
        per_open.append(1e6 * opened / streams)
        per_move.append(1e6 * meter.cpu / meter.moves)
        reader.append(1e6 * max(listened, 0.0) / meter.moves)
        per_read.append(1e6 * LEGAL_READS[0] / max(LEGAL_READS[1], 1))
        print(
            f"round {r + 1}: {frames} frames, {per_frame[-1]:.0f} us/frame; {streams} streams, "
            f"{per_open[-1]:.0f} us/open; {meter.moves} moves, {per_move[-1]:.0f} us/move; "
            f"reader {reader[-1]:.0f} us/move; {LEGAL_READS[1]} legal-moves reads, "
            f"{per_read[-1]:.0f} us/read",
            flush=True,
        )

    def med(xs: list[float]) -> str:
        return f"{statistics.median(xs):.0f} ({min(xs):.0f}-{max(xs):.0f})"

    print(
        f"median: {med(per_frame)} us/frame, {med(per_open)} us/open, "
        f"{med(per_move)} us/move, reader {med(reader)} us/move, {med(per_read)} us/legal-moves "
        f"read; frames sent (with the "
        f"same STATE_KEYS, equal between checkouts) {digest.hexdigest()[:16]}"
    )


if __name__ == "__main__":
    main()
