// A table kept live: the session's view (a seat's, with its credential, or the
// observer's), its legal moves, a running log of events, and the final scores. A seat
// follows its own stream (read with fetch, its credential in the Authorization header):
// every frame is the seat's view and its legal moves (`legal_moves=true`), and a move's
// answer carries the seat's legal moves after it, so the page reads neither again after
// loading, and its moves name
// the stream (`Stream-Id`) so that the answer alone shows them. The observer follows the
// public stream (EventSource) and reads the public view after each frame. After a
// reconnection that missed moves the page reads what it missed, so nothing is lost. A move that
// arrives after the table changed (409 stale_version) is not sent again: the page shows
// the current table and the player decides again.
//
// Plain TypeScript with no UI in it: another front end can drive its own rendering
// from `LiveTable` (subscribe, then read `state`).
import type { Answer } from "./api";
import { eventsUrl } from "./api";
import type { Problem, Schemas, StreamEnd, StreamFrame } from "./contract";
import type { Adapter, Endpoints, GameTypes, Step } from "./game";
import type { Frame } from "./sse";
import { readStream } from "./sse";

export interface LogEntry<G extends GameTypes> extends Step<G> {
  /** From this seat's own move's answer (its private parts included). */
  mine: boolean;
  /** Moves made while this page was not following (a table page's reconnect). */
  missed: number;
}

export type Connection = "connecting" | "live" | "reconnecting" | "ended";

export interface Notice {
  kind: "refused" | "stale" | "error";
  code: string;
  text: string;
  rule: string | null;
}

export type MoveSpace = Schemas["MoveSpace"];

export interface TableState<G extends GameTypes> {
  session: G["session"] | null;
  legal: G["move"][];
  /** What the legal moves leave out, and how to build it (a game whose moves cannot
   * all be listed, such as Polymer's offers of any cards); null where `legal` is all. */
  space: MoveSpace | null;
  log: LogEntry<G>[];
  scores: G["scores"] | null;
  notice: Notice | null;
  connection: Connection;
  busy: boolean;
  /** The session cannot be shown at all (not found, refused credential...). */
  failure: Problem | null;
}

export interface Seat {
  seat: number;
  token: string;
}

/** Sources of randomness and streams (a test may hand in its own). */
export interface Environment {
  EventSource: typeof EventSource;
  randomKey(): string;
}

export const browser: Environment = {
  EventSource: globalThis.EventSource,
  // an Idempotency-Key: getRandomValues works on a plain-http school network, where
  // crypto.randomUUID (secure contexts only) does not
  randomKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  },
};

/** A seat stream's members that its seat's `GET` of the session does not answer. */
const STREAM_ONLY = new Set(["events", "finished", "stream_id", "legal_moves"]);

/** The seat whose move an event came from (every event a stream or an answer gives
 * carries it; null for the service's own, such as a deal). */
const actorOf = (event: unknown): number | null => (event as { actor?: number | null }).actor ?? null;

/** The session is not there (expired, ended, unknown) or can no longer be read. */
const gone = (status: number): boolean => status === 404 || status === 410;

function noticeOf(problem: Problem, kind: Notice["kind"]): Notice {
  return { kind, code: problem.code, text: problem.detail, rule: problem.rule ?? null };
}

export class LiveTable<G extends GameTypes> {
  state: TableState<G> = {
    session: null,
    legal: [],
    space: null,
    log: [],
    scores: null,
    notice: null,
    connection: "connecting",
    busy: false,
    failure: null,
  };
  private readonly listeners = new Set<() => void>();
  private source: EventSource | null = null;
  /** The seat stream being read (aborted to stop it), and its own id from its hello. */
  private reading: AbortController | null = null;
  private streamId: string | null = null;
  private hellos = 0;
  private stopped = false;
  private readonly retries = new Map<"load" | "stream", ReturnType<typeof setTimeout>>();
  private failures = 0;

  constructor(
    readonly api: Endpoints<G>,
    readonly adapt: Adapter<G>,
    readonly sessionId: string,
    readonly seat: Seat | null,
    readonly env: Environment = browser,
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<TableState<G>>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** Loads the table, then follows it live. */
  async start(): Promise<void> {
    await this.resync();
    if (this.state.failure === null && !this.stopped) this.follow();
  }

  stop(): void {
    this.stopped = true;
    this.source?.close();
    this.source = null;
    this.reading?.abort();
    this.reading = null;
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
  }

  /** Runs `again` after a wait that grows with each failure in a row (1 s to 10 s);
   * one waits at a time of each kind. */
  private later(kind: "load" | "stream", again: () => void): void {
    if (this.stopped || this.retries.has(kind)) return;
    this.failures += 1;
    const wait = Math.min(10_000, 1000 * 2 ** Math.min(this.failures - 1, 4));
    this.retries.set(
      kind,
      setTimeout(() => {
        this.retries.delete(kind);
        if (!this.stopped) again();
      }, wait),
    );
  }

  get version(): number {
    return this.state.session?.version ?? -1;
  }

  /** The whole table again: the session, its log so far (a seat's record) and what
   * depends on them. */
  async resync(): Promise<void> {
    const seat = this.seat;
    const [session, record] = await Promise.all([
      this.api.session(this.sessionId, seat?.seat ?? null, seat?.token ?? null),
      seat ? this.api.record(this.sessionId, seat.seat, seat.token) : Promise.resolve(null),
    ]);
    if (!session.ok) {
      if (gone(session.status)) {
        this.set({ failure: session.problem });
      } else {
        // no connection, or the service is busy: say so and try again
        this.set({ notice: noticeOf(session.problem, "error") });
        this.later("load", () => void this.resync());
      }
      return;
    }
    this.failures = 0;
    if (record?.ok) this.rebuildLog(this.adapt.stepsOf(record.data), record.data.version);
    this.accept(session.data);
    await this.dependents();
  }

  /** The session again (a move was made elsewhere), and what depends on it. */
  async refresh(): Promise<void> {
    const seat = this.seat;
    const session = await this.api.session(this.sessionId, seat?.seat ?? null, seat?.token ?? null);
    if (!session.ok) {
      if (gone(session.status)) {
        this.stop();
        this.set({ failure: session.problem, connection: "ended" });
      } else {
        this.set({ notice: noticeOf(session.problem, "error") });
        this.later("load", () => void this.refresh());
      }
      return;
    }
    this.failures = 0;
    if (this.state.notice?.kind === "error") this.set({ notice: null });
    this.accept(session.data);
    await this.dependents();
  }

  /** Takes a session view unless a newer one is already shown. */
  private accept(session: G["session"]): boolean {
    if (session.version < this.version) return false;
    const moved = session.version !== this.version;
    this.set({ session, failure: null, ...(moved ? { legal: [], space: null } : {}) });
    return true;
  }

  /** The legal moves a seat stream's frame or a move's answer carries, taken when they
   * are the ones of the version shown: true when they were (nothing to read then). A
   * replayed answer has none. */
  private takeLegal(carrier: { legal_moves?: { version: number } }): boolean {
    const legal = carrier.legal_moves as G["legal"] | undefined;
    if (legal === undefined || legal.version !== this.version) return false;
    this.set({ legal: this.adapt.movesOf(legal), space: this.adapt.spaceOf ? this.adapt.spaceOf(legal) : null });
    return true;
  }

  /** The legal moves (a seat that may act; not when a frame brought them) and the
   * scores (a finished game). */
  private async dependents(legalKnown = false): Promise<void> {
    const session = this.state.session;
    if (session === null) return;
    const seat = this.seat;
    const jobs: Promise<void>[] = [];
    if (seat && !legalKnown && session.to_act.includes(seat.seat)) {
      jobs.push(
        this.api.legal(this.sessionId, seat.seat, seat.token).then((answer) => {
          if (answer.ok && answer.data.version === this.version) {
            this.set({
              legal: this.adapt.movesOf(answer.data),
              space: this.adapt.spaceOf ? this.adapt.spaceOf(answer.data) : null,
            });
          } else if (answer.ok && answer.data.version > this.version && this.seat === null) {
            // a move landed between the two requests (a real-time game's bots move
            // every second): the view again, then its legal moves. A seat's own stream
            // is already bringing that view, and its frame asks for them again.
            void this.refresh();
          }
        }),
      );
    }
    if (session.outcome.finished && this.state.scores === null) {
      jobs.push(
        this.api.scores(this.sessionId).then((answer) => {
          if (answer.ok) this.set({ scores: answer.data });
        }),
      );
    }
    await Promise.all(jobs);
  }

  private rebuildLog(steps: Step<G>[], upTo: number): void {
    const later = this.state.log.filter((entry) => entry.version > upTo);
    const earlier = steps.map((step) => ({ ...step, mine: false, missed: 0 }));
    this.set({ log: [...earlier, ...later] });
  }

  private log(entry: LogEntry<G>): void {
    const known = this.state.log.find((e) => e.version === entry.version && e.missed === 0);
    if (known && (known.mine || !entry.mine)) {
      // heard twice, or a frame at this seat's own move's version: the answer says more
      if (known.mine && !entry.mine) this.logOthers(entry, known);
      return;
    }
    const log = this.state.log.filter((e) => e.version !== entry.version || e.missed > 0);
    log.push(entry);
    log.sort((a, b) => a.version - b.version);
    this.set({ log });
    if (known) this.logOthers(known, entry);
  }

  /** A stream folds the moves committed faster than it sends into one frame, at the
   * latest version: a frame at this seat's own move's version may carry other seats'
   * moves committed just before it, whose events only the frame has. They are logged
   * just before the seat's own move (at half a version less). */
  private logOthers(frame: LogEntry<G>, mine: LogEntry<G>): void {
    const others = frame.events.filter((e) => actorOf(e) !== mine.actor);
    const version = frame.version - 0.5;
    const first = others[0];
    if (first === undefined || this.state.log.some((e) => e.version === version)) return;
    const log = [...this.state.log, { ...frame, version, actor: actorOf(first), events: others, mine: false }];
    log.sort((a, b) => a.version - b.version);
    this.set({ log });
  }

  private lastLogged(): number {
    const last = this.state.log[this.state.log.length - 1];
    return last ? last.version : this.version;
  }

  /** Follows the seat's own stream, or the observer the public one. */
  private follow(): void {
    if (this.seat !== null) {
      this.followSeat(this.seat);
      return;
    }
    const source = new this.env.EventSource(eventsUrl(this.api.slug, this.sessionId));
    this.source = source;
    source.addEventListener("hello", (e) => this.onHello(JSON.parse((e as MessageEvent<string>).data)));
    source.addEventListener("update", (e) => this.onUpdate(JSON.parse((e as MessageEvent<string>).data)));
    source.addEventListener("end", (e) => this.onEnd(JSON.parse((e as MessageEvent<string>).data)));
    source.addEventListener("error", (e) => {
      if (e instanceof MessageEvent && typeof e.data === "string") {
        // the service's own `event: error` frame: its session store failed
        this.set({ notice: noticeOf(JSON.parse(e.data) as Problem, "error") });
      }
      if (this.stopped || this.state.connection === "ended") return;
      this.set({ connection: "reconnecting" });
      if (source.readyState === source.CLOSED) {
        // the browser gave up on this stream (refused, or no network when it retried):
        // a new one after a wait; a session that is gone says so on the refresh
        this.source = null;
        void this.refresh();
        this.later("stream", () => {
          if (this.state.failure === null) this.follow();
        });
      }
    });
  }

  private followSeat(seat: Seat): void {
    const reading = new AbortController();
    this.reading = reading;
    this.streamId = null;
    const url = `${eventsUrl(this.api.slug, this.sessionId)}?seat=${seat.seat}&legal_moves=true`;
    const again = (): void => {
      if (this.reading !== reading || this.stopped || this.state.connection === "ended") return;
      this.reading = null;
      this.set({ connection: "reconnecting" });
      this.later("stream", () => {
        if (this.state.failure === null) this.follow();
      });
    };
    readStream(url, seat.token, reading.signal, () => undefined, (frame) => this.onSeatFrame(frame)).then(
      (end) => {
        if (end.status >= 400 && this.reading === reading) {
          // refused (a session that is gone, a credential no longer valid): the page
          // says so from the refresh; a busy service is tried again after a wait
          if (end.problem !== null && !gone(end.status)) this.set({ notice: noticeOf(end.problem, "error") });
          void this.refresh();
        }
        again(); // else the stream reached its time limit, or the network dropped it
      },
      again,
    );
  }

  private onSeatFrame(frame: Frame): void {
    if (frame.event === "error") {
      // the service's own `event: error` frame: its session store failed
      this.set({ notice: noticeOf(frame.data as unknown as Problem, "error") });
      return;
    }
    const data = frame.data as unknown as StreamFrame<G["slug"]>;
    if (frame.event === "hello") this.onHello(data);
    else if (frame.event === "update") this.onUpdate(data);
    else if (frame.event === "end") this.onEnd(frame.data as unknown as StreamEnd);
  }

  /** A seat stream's frame as the seat's `GET` of the session answers it. */
  private static asSession<G extends GameTypes>(frame: StreamFrame<G["slug"]>): G["session"] {
    const view = Object.fromEntries(Object.entries(frame).filter(([k]) => !STREAM_ONLY.has(k)));
    return view as unknown as G["session"];
  }

  private onHello(frame: StreamFrame<G["slug"]>): void {
    if (this.seat !== null) {
      this.onSeatHello(frame);
      return;
    }
    this.hellos += 1;
    this.failures = 0;
    this.set({ connection: "live" });
    if (this.hellos > 1 || frame.version !== this.version) {
      // back after a drop (or a move landed while loading): the table as it is now
      if (this.seat === null && frame.version > this.lastLogged()) {
        this.log({
          version: frame.version,
          actor: null,
          bot: null,
          events: [],
          mine: false,
          missed: frame.version - this.lastLogged(),
        });
      }
      void this.resync();
    }
  }

  /** A seat stream's hello is the seat's view: taken as it is, with the record's
   * events of any move made while the page was not following. */
  private onSeatHello(frame: StreamFrame<G["slug"]>): void {
    this.hellos += 1;
    this.failures = 0;
    const id = (frame as { stream_id?: unknown }).stream_id;
    this.streamId = typeof id === "string" ? id : null;
    if (this.state.notice?.kind === "error") this.set({ notice: null });
    this.set({ connection: "live" });
    if (frame.version <= this.version) return; // nothing was missed
    const session = LiveTable.asSession<G>(frame);
    if (frame.version > this.lastLogged()) void this.catchUp(session, frame);
    else if (this.accept(session)) void this.dependents(this.takeLegal(frame));
  }

  /** The hello's view, after the record's events of the moves made while away. */
  private async catchUp(session: G["session"], frame: StreamFrame<G["slug"]>): Promise<void> {
    const seat = this.seat;
    if (seat === null) return;
    const record = await this.api.record(this.sessionId, seat.seat, seat.token);
    if (record.ok) this.rebuildLog(this.adapt.stepsOf(record.data), record.data.version);
    if (this.accept(session)) await this.dependents(this.takeLegal(frame));
  }

  private onUpdate(frame: StreamFrame<G["slug"]>): void {
    const events = (frame.events ?? []) as G["event"][];
    const actor = frame.events?.[0] === undefined ? null : actorOf(frame.events[0]);
    this.log({ version: frame.version, actor, bot: null, events, mine: false, missed: 0 });
    if (frame.version <= this.version) return;
    if (this.seat === null) {
      void this.refresh();
    } else if (this.accept(LiveTable.asSession<G>(frame))) {
      // the frame is the seat's view and legal moves at its version: no read needed
      void this.dependents(this.takeLegal(frame));
    }
  }

  private onEnd(frame: StreamEnd): void {
    if (frame.finished || frame.ended) {
      this.source?.close();
      this.reading?.abort();
      this.reading = null;
      this.set({ connection: "ended" });
      void this.refresh();
    }
    // else the stream reached its time limit: EventSource reconnects by itself (a
    // seat's stream is opened again when it closes), and its next hello resynchronises
  }

  /** Makes a move as this seat, on the version shown. */
  async act(move: G["move"]): Promise<void> {
    const seat = this.seat;
    const session = this.state.session;
    if (seat === null || session === null || this.state.busy) return;
    this.set({ busy: true, notice: null });
    // the answer brings the seat's legal moves after the move: nothing to read then
    const body = { ...this.adapt.request(seat.seat, session.version, move), legal_moves: true };
    const key = this.env.randomKey();
    // the stream named (its id from its hello) sends no frame for this move: the
    // answer shows it
    const stream = this.streamId;
    let answer: Answer<G["moveAnswer"]> = await this.api.move(this.sessionId, body, seat.token, key, stream);
    if (!answer.ok && answer.status === 0) {
      // the answer was lost on the way: the same key never applies the move twice
      answer = await this.api.move(this.sessionId, body, seat.token, key, stream);
    }
    if (answer.ok) {
      const events = this.adapt.eventsOf(answer.data);
      this.log({ version: answer.data.version, actor: seat.seat, bot: null, events, mine: true, missed: 0 });
      this.accept(this.adapt.viewOf(answer.data));
      this.set({ busy: false });
      await this.dependents(this.takeLegal(answer.data));
      return;
    }
    const problem = answer.problem;
    if (problem.code === "stale_version") {
      this.set({ busy: false, notice: noticeOf(problem, "stale") });
      const current = problem["session"];
      if (isSessionOf(current, this.sessionId)) {
        // the lead's 409 carries the seat's current view: no second round trip
        this.accept(current as G["session"]);
        await this.dependents();
      } else {
        await this.refresh();
      }
      return;
    }
    this.set({ busy: false, notice: noticeOf(problem, problem.status === 422 || problem.status === 409 ? "refused" : "error") });
    // another conflict (Polymer's timer_expired: time is up) means the table has moved
    // on: show it as it is now
    if (problem.status === 409) await this.refresh();
  }

  dismiss(): void {
    this.set({ notice: null });
  }
}

/** Whether a 409's `session` member is this session's view (the member is newer than
 * the checked-in contract; only its identity and version are relied on). */
function isSessionOf(value: unknown, sessionId: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return v["session_id"] === sessionId && typeof v["version"] === "number" && typeof v["view"] === "object";
}
