"""What the devices of a class do (bench/classroom.py): a student's, at its seat, game
after game, and the teacher's, who deals the tables.

A student's device is what a front end does: it holds its seat's credential, keeps its
session's event stream open (:class:`Stream`), reads its view and legal moves when the
stream says it may act (Polymer, real time: continually), unless its seat's own stream
brought them, thinks, and sends one legal
move with the version it read and an Idempotency-Key; it decides again on what the
service answers (a move's answer, a ``409 stale_version``'s ``session``: no extra
GET). Each answer is counted in the device's :class:`Tally`.
"""

from __future__ import annotations

import contextlib
import http.client
import queue
import random
import socket
import threading
import time
import uuid
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import orjson

KEEPALIVE_S = 5.0  # gunicorn.conf.py's keepalive: an idle connection is closed after it
CLOCK_READINGS = frozenset({"now_ms"})
"""View members left out when telling whether a seat's view changed. Polymer's
``now_ms`` is the server's time stamp of the latest move by anyone: it moves with every
commit at the table (and is the only member of any game's view that reads a clock;
``started_ms`` and ``deadline_ms`` change only when the phase does). The session's own
``server_now_ms`` and ``deadline_at`` are outside ``view`` and never compared."""


@dataclass(frozen=True)
class Seating:
    """One table of the class: a game, its seats, which of them the students hold, and
    the bot that plays the others."""

    name: str
    slug: str
    players: int
    students: tuple[int, ...]
    bot: str = "greedy"
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def bots(self) -> dict[str, str]:
        return {str(s): self.bot for s in range(self.players) if s not in self.students}


# ------------------------------------------------------------------ what is counted --
@dataclass
class Tally:
    """What one device (or the teacher) saw. Merged per table at the end."""

    sent: int = 0  # move requests (a resend of the same move after a 429 counts once)
    moves: int = 0  # accepted (200)
    changed: int = 0  # 409 stale_version, the view had changed
    spurious: int = 0  # 409 stale_version, the view had not changed
    conflicts: Counter[str] = field(default_factory=Counter)  # other 409 codes
    refused: Counter[str] = field(default_factory=Counter)  # 422: "code (move type)"
    limited: Counter[str] = field(default_factory=Counter)  # 429, by request kind
    server_errors: int = 0  # 5xx, any request
    broken: int = 0  # connection errors (the server gone, a reset), any request
    resent: int = 0  # sent again on a new connection: a kept-alive one was dropped
    reads: int = 0  # GET the session, legal moves
    streams: int = 0  # event streams opened
    latencies: list[float] = field(default_factory=list)  # accepted moves, seconds
    read_latencies: list[float] = field(default_factory=list)  # reads, seconds
    differed: Counter[str] = field(default_factory=Counter)  # view members, 409 changed
    stamps: list[tuple[float, str]] = field(default_factory=list)  # (when, kind), answered

    def add(self, other: Tally) -> None:
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            else:
                setattr(self, f.name, mine + theirs)


def differing(before: Any, after: Any, path: str = "view", depth: int = 2) -> list[str]:
    """The members of ``before`` and ``after`` (two views) that differ, to ``depth``
    levels, clock readings left out at the top.

    >>> differing({"turn": 1, "now_ms": 5, "you": {"hand": [1], "seat": 0}},
    ...           {"turn": 1, "now_ms": 9, "you": {"hand": [2], "seat": 0}})
    ['view.you.hand']
    >>> differing({"now_ms": 5}, {"now_ms": 9})
    []
    """
    if before == after:
        return []
    if not (isinstance(before, dict) and isinstance(after, dict)) or depth == 0:
        return [path]
    out: list[str] = []
    for name in sorted(set(before) | set(after)):
        if path == "view" and name in CLOCK_READINGS:
            continue
        out += differing(before.get(name), after.get(name), f"{path}.{name}", depth - 1)
    return out


# ------------------------------------------------------------ one device's requests --
@dataclass(frozen=True)
class Answer:
    status: int  # 0: no answer (the connection failed)
    body: Any
    seconds: float


class Link:
    """A device's keep-alive connection. A connection the server may have closed while
    it sat idle (past gunicorn's keepalive) is replaced before use; one dropped under a
    request is opened again and the request resent once, which is safe: reads change
    nothing, and every move carries its Idempotency-Key. A 429 is counted and the same
    request sent again after ``Retry-After``."""

    def __init__(self, port: int, tally: Tally, stop: threading.Event) -> None:
        self.port, self.tally, self.stop = port, tally, stop
        self.conn: http.client.HTTPConnection | None = None
        self.used = 0.0

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def call(
        self,
        kind: str,
        method: str,
        path: str,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> Answer:
        data = orjson.dumps(body) if body is not None else None
        sent = {**(headers or {}), **({"Content-Type": "application/json"} if data else {})}
        resent = False
        while True:
            if self.conn is not None and time.monotonic() - self.used > KEEPALIVE_S - 1:
                self.close()
            reused = self.conn is not None
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            started = time.perf_counter()
            try:
                self.conn.request(method, path, data, sent)
                resp = self.conn.getresponse()
                raw = resp.read()
            except (OSError, http.client.HTTPException):
                self.close()
                if reused and not resent:
                    resent = True
                    self.tally.resent += 1
                    continue
                self.tally.broken += 1
                return Answer(0, None, time.perf_counter() - started)
            took = time.perf_counter() - started
            self.tally.stamps.append((time.monotonic(), kind))
            self.used = time.monotonic()
            if resp.will_close:
                self.close()
            if resp.status == 429:
                self.tally.limited[kind] += 1
                wait = float(resp.getheader("Retry-After") or 1)
                if self.stop.wait(wait):
                    return Answer(429, orjson.loads(raw), took)
                continue
            if resp.status >= 500:
                self.tally.server_errors += 1
            return Answer(resp.status, orjson.loads(raw) if raw else None, took)


@dataclass(frozen=True)
class Snapshot:
    """What a session's event stream said last; from a seat's own stream, the seat's
    view too (the frame as ``GET .../sessions/{id}?seat=N`` answers it)."""

    version: int
    to_act: tuple[int, ...]
    finished: bool
    session: dict[str, Any] | None = None


# a seat stream frame's members that the seat's GET does not answer (its `legal_moves`
# stay: what the legal-moves read answers at the frame's version, read no more then)
STREAM_ONLY = ("events", "finished", "stream_id")


class Stream(threading.Thread):
    """A session's event stream, kept open in a thread: the latest version, seats to
    act and whether the game is over. Reopened if the server ends it before the game
    ends (its time limit) or the connection fails. With ``headers`` (a seat's
    credential, for ``events?seat=N``) it is the seat's own stream: each frame carries
    the seat's view, and the hello the stream's ``stream_id``."""

    def __init__(
        self, port: int, path: str, tally: Tally, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.tally = port, path, tally
        self.headers = dict(headers or {})
        self.cond = threading.Condition()
        self.latest = Snapshot(-1, (), False)
        self.stream_id: str | None = None
        self.closed = False
        self.sock: socket.socket | None = None

    def run(self) -> None:
        while not self.closed:
            if self._listen() == "finished":
                return
            if not self.closed:
                time.sleep(1.0)

    def _listen(self) -> str:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.connect()
            self.sock = conn.sock
            if self.closed:
                return "closed"
            conn.request("GET", self.path, headers=self.headers)
            resp = conn.getresponse()
            self.tally.stamps.append((time.monotonic(), "stream"))
            if resp.status != 200:
                if resp.status == 429:
                    self.tally.limited["stream"] += 1
                elif resp.status >= 500:
                    self.tally.server_errors += 1
                resp.read()
                return "refused"
            self.tally.streams += 1
            kind = ""
            while True:
                line = resp.readline()
                if not line:
                    break
                text = line.decode().rstrip("\r\n")
                if text.startswith("event: "):
                    kind = text[7:]
                elif text.startswith("data: "):
                    data = orjson.loads(text[6:])
                    if kind == "hello" and "stream_id" in data:
                        self.stream_id = data["stream_id"]
                    if kind in ("hello", "update"):
                        seen = None
                        if "view" in data:
                            seen = {k: v for k, v in data.items() if k not in STREAM_ONLY}
                        self._note(data["version"], data["to_act"], data["finished"], seen)
                    elif kind == "end":
                        if data.get("finished") or data.get("ended"):
                            self._note(self.latest.version, (), True)
                            return "finished"
                        return "ended"  # its time limit: open it again
                    elif kind == "error":
                        return "error"
        except (OSError, http.client.HTTPException, ValueError):
            if not self.closed:
                self.tally.broken += 1
        finally:
            conn.close()
        return "closed"

    def _note(
        self,
        version: int,
        to_act: list[int] | tuple[int, ...],
        finished: bool,
        session: dict[str, Any] | None = None,
    ) -> None:
        with self.cond:
            if version >= self.latest.version or finished:
                self.latest = Snapshot(version, tuple(to_act), finished, session)
            self.cond.notify_all()

    def wait(self, newer_than: int, timeout: float) -> Snapshot:
        """The latest snapshot once it is newer than ``newer_than`` (or the game is
        over), or after ``timeout`` seconds whatever it is."""
        with self.cond:
            self.cond.wait_for(
                lambda: self.latest.version > newer_than or self.latest.finished or self.closed,
                timeout,
            )
            return self.latest

    def close(self) -> None:
        self.closed = True
        with self.cond:
            self.cond.notify_all()
        sock = self.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


# ------------------------------------------------------------- tables and the teacher --
@dataclass(frozen=True)
class Game:
    """One game dealt at a table: its session and every seat's credential."""

    generation: int
    session_id: str
    tokens: Mapping[int, str]


class Table:
    """A table's current game; students wait here for the next one."""

    def __init__(self, seating: Seating, dynamics: str) -> None:
        self.seating = seating
        self.dynamics = dynamics  # as the catalogue says: turn-based, simultaneous, real-time
        self.realtime = dynamics == "real-time"
        self.cond = threading.Condition()
        self.game: Game | None = None
        self.over: set[int] = set()
        self.commits: dict[int, int] = {}  # generation -> the latest version seen
        self.sessions: list[str] = []
        self.tallies: list[Tally] = []

    def deal(self, game: Game) -> None:
        with self.cond:
            self.game = game
            self.sessions.append(game.session_id)
            self.cond.notify_all()

    def next_game(self, after: int, stop: threading.Event) -> Game | None:
        with self.cond:
            while not stop.is_set():
                if self.game is not None and self.game.generation > after:
                    return self.game
                self.cond.wait(0.5)
        return None

    def seen(self, game: Game, version: int) -> None:
        with self.cond:
            self.commits[game.generation] = max(self.commits.get(game.generation, 0), version)

    def finished(self, game: Game, ended: queue.Queue[Table]) -> None:
        """A student saw the game end: the teacher deals again (once per game)."""
        with self.cond:
            if game.generation in self.over:
                return
            self.over.add(game.generation)
        ended.put(self)

    def stop(self) -> None:
        with self.cond:
            self.cond.notify_all()


class Teacher(threading.Thread):
    """Deals every table with the operator key, then deals again each table whose game
    ended, until time is up."""

    def __init__(
        self,
        port: int,
        operator_key: str,
        stop: threading.Event,
        clock_options: Mapping[str, Any],
    ) -> None:
        super().__init__(daemon=True)
        self.stop = stop
        self.operator_key = operator_key
        self.clock_options = clock_options  # a real-time game's (Polymer's timer)
        self.tally = Tally()
        self.link = Link(port, self.tally, stop)
        self.ended: queue.Queue[Table] = queue.Queue()
        self.generations: Counter[str] = Counter()
        self.failed: list[str] = []

    def deal(self, table: Table) -> None:
        seating = table.seating
        options = dict(seating.options)
        if table.realtime:
            options = {**self.clock_options, **options}
        body = {"players": seating.players, "bots": seating.bots, "options": options}
        made = self.link.call(
            "setup",
            "POST",
            f"/v1/{seating.slug}/sessions",
            body,
            {"Authorization": f"Bearer {self.operator_key}"},
        )
        if made.status != 201:
            self.failed.append(f"{seating.name}: {made.status} {made.body}")
            return
        self.generations[seating.name] += 1
        tokens = {s["seat"]: s["seat_token"] for s in made.body["seats"]}
        generation = self.generations[seating.name]
        table.deal(Game(generation, made.body["session_id"], tokens))

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                table = self.ended.get(timeout=0.5)
            except queue.Empty:
                continue
            if not self.stop.is_set():
                self.deal(table)
        self.link.close()


# ---------------------------------------------------------------------- one student --
POLYMER_WEIGHTS = {"offer": 6, "lend": 1, "call_loan": 1, "decline": 1, "withdraw": 1}
"""How often a Polymer student picks each kind of move when it has no offer to accept
and no loan to repay (moves of other kinds, ``propose_undo`` and ``time_up``, never)."""


def choose(moves: list[dict[str, Any]], rng: random.Random, realtime: bool) -> Any:
    """The move a student sends: any legal one in a turn-based or simultaneous game; in
    Polymer what a student at a table would do (get ready, repay a called loan, take an
    offer made to it, keep at most two offers of its own open, else offer a card, lend,
    call a loan in, turn an offer down). None: nothing it wants to do now."""
    if not realtime:
        return rng.choice(moves) if moves else None
    kinds: dict[str, list[dict[str, Any]]] = {}
    for move in moves:
        kinds.setdefault(move["type"], []).append(move)
    for forced in ("ready", "repay"):
        if forced in kinds:
            return kinds[forced][0]
    if "accept" in kinds:
        return rng.choice(kinds["accept"])
    if len(kinds.get("withdraw", ())) >= 2:
        return kinds["withdraw"][0]
    present = [k for k in POLYMER_WEIGHTS if k in kinds]
    if not present:
        return None
    kind = rng.choices(present, [POLYMER_WEIGHTS[k] for k in present])[0]
    return rng.choice(kinds[kind])


class Student(threading.Thread):
    """One student's device at one table's seat, game after game. ``push``: it follows
    its seat's own stream (``legal_moves=true``), whose frames are its view and its legal
    moves, and sends its moves with the stream's ``Stream-Id`` and ``"legal_moves": true``
    (the answer carries them; as the pages under /play do); else the public stream, and
    it reads its view and legal moves when the stream says it may act."""

    def __init__(
        self,
        port: int,
        table: Table,
        seat: int,
        think: tuple[float, float],
        seed: int,
        stop: threading.Event,
        ended: queue.Queue[Table],
        push: bool = False,
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.table, self.seat, self.think = port, table, seat, think
        self.push = push
        self.rng = random.Random(seed)
        self.stop, self.ended = stop, ended
        self.tally = Tally()
        self.link = Link(port, self.tally, stop)
        self.stream: Stream | None = None
        table.tallies.append(self.tally)

    def run(self) -> None:
        played = 0
        try:
            while not self.stop.is_set():
                game = self.table.next_game(played, self.stop)
                if game is None:
                    return
                played = game.generation
                self.play(game)
        finally:
            self.link.close()

    def play(self, game: Game) -> None:
        slug, seat = self.table.seating.slug, self.seat
        base = f"/v1/{slug}/sessions/{game.session_id}"
        auth = {"Authorization": f"Bearer {game.tokens[seat]}"}
        if self.push:
            stream = Stream(
                self.port, f"{base}/events?seat={seat}&legal_moves=true", self.tally, auth
            )
        else:
            stream = Stream(self.port, f"{base}/events", self.tally)
        self.stream = stream
        stream.start()
        decided: dict[str, Any] | None = None  # the game as the next decision sees it
        known, read_now = -1, False
        try:
            while not self.stop.is_set():
                if decided is None and not read_now:
                    snap = stream.wait(known, timeout=5.0)  # then resync all the same
                    if snap.finished:
                        break
                    if snap.version > known and seat not in snap.to_act:
                        known = snap.version
                        continue
                    if snap.session is not None and snap.version > known:
                        decided = snap.session  # its own stream's frame: its view
                if decided is None:
                    got = self.read("GET", f"{base}?seat={seat}", None, auth)
                    if got.status != 200:
                        read_now = True
                        self.stop.wait(1.0)
                        continue
                    decided = got.body
                assert decided is not None
                known = max(known, int(decided["version"]))
                self.table.seen(game, known)
                if decided["outcome"]["finished"]:
                    break
                if seat not in decided["to_act"]:
                    decided, read_now = None, False
                    continue
                decided, read_now = self.decide(base, auth, decided)
        finally:
            stream.close()
            self.table.seen(game, stream.latest.version)
            if stream.latest.finished or (decided is not None and decided["outcome"]["finished"]):
                self.table.finished(game, self.ended)

    def read(self, method: str, path: str, body: Any, auth: Mapping[str, str]) -> Answer:
        got = self.link.call("read", method, path, body, auth)
        self.tally.reads += 1
        if got.status == 200:
            self.tally.read_latencies.append(got.seconds)
        return got

    def decide(
        self, base: str, auth: Mapping[str, str], seen: dict[str, Any]
    ) -> tuple[dict[str, Any] | None, bool]:
        """Legal moves, think, one move on ``seen``'s version. Then the game the next
        decision rests on (a move's answer, a 409's ``session``; None: look again), and
        whether to look again at once rather than when the stream says the game moved."""
        seat, realtime = self.seat, self.table.realtime
        carried = seen.get("legal_moves")  # a seat stream frame's, at its version
        if carried is not None and carried["version"] == seen["version"]:
            moves = carried["moves"]
        else:
            legal = self.read("POST", f"{base}/legal-moves", {"seat": seat}, auth)
            if legal.status != 200:
                self.stop.wait(0.5)
                return None, True
            moves = legal.body["moves"]
        move = choose(moves, self.rng, realtime)
        if move is None:  # nothing it wants to do: wait for the table to change
            if self.stream is not None:
                self.stream.wait(int(seen["version"]), timeout=2.0)
            return None, realtime
        if self.stop.wait(self.rng.uniform(*self.think)):
            return None, False
        body = {"seat": seat, "version": seen["version"], "move": move}
        if self.push:
            body["legal_moves"] = True  # the answer brings them: no read before the next
        key = {**auth, "Idempotency-Key": uuid.uuid4().hex}
        if self.push and self.stream is not None and self.stream.stream_id is not None:
            key["Stream-Id"] = self.stream.stream_id  # the answer shows it: no frame
        self.tally.sent += 1
        answer = self.link.call("move", "POST", f"{base}/moves", body, key)
        problem = answer.body if isinstance(answer.body, dict) else {}
        if answer.status == 200:
            self.tally.moves += 1
            self.tally.latencies.append(answer.seconds)
            return {**answer.body, "seat": seat}, False
        if answer.status == 409 and problem.get("code") == "stale_version":
            now = problem["session"]
            found = differing(seen["view"], now["view"])
            if found:
                self.tally.changed += 1
                self.tally.differed.update(found)
            else:
                self.tally.spurious += 1
            return dict(now), False
        if answer.status == 409:  # timer_expired: the stream tells the end
            self.tally.conflicts[str(problem.get("code"))] += 1
            return None, False
        if answer.status == 422:  # the rules refuse it now: look again
            self.tally.refused[f"{problem.get('code')} ({move['type']})"] += 1
        elif answer.status >= 500 or answer.status == 0:
            self.stop.wait(1.0)
        return None, True
