// A stranger's TypeScript client: types generated from openapi/openapi.json alone by
// openapi-typescript (default settings), calls made with openapi-fetch. It plays every
// game against the server at BASE_URL (tests/test_typescript_client.py type-checks it
// with `tsc --strict`, then runs it with node against a local server).
//
// The request bodies marked README are the README's, as written there (the test checks
// they still are).
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Problem = Schemas["Problem"];
type Outcome = Schemas["Outcome"];

const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:8000";
const api = createClient<paths>({ baseUrl: BASE_URL });
const played: string[] = [];

/** Bearer credentials go in the header, never in a body or a URL. */
function as(token: string | null): { Authorization: string } {
  if (token === null) throw new Error("no credential for this seat");
  return { Authorization: `Bearer ${token}` };
}

/** One handler for every error answer: each operation's problem is a Problem. */
function problem(where: string, error: Problem): Error {
  const facts = error.details ? ` ${JSON.stringify(error.details)}` : "";
  return new Error(`${where}: ${error.status} ${error.code}: ${error.detail}${facts}`);
}

/** The answer of a call that must succeed (its problem otherwise, as an Error). */
function ok<T>(where: string, answer: { data?: T; error?: Problem }): T {
  if (answer.error !== undefined) throw problem(where, answer.error);
  if (answer.data === undefined) throw new Error(`${where}: no answer`);
  return answer.data;
}

interface Turn {
  to_act: number[];
  outcome: Outcome;
}

/** Plays the seats in `ours` with their first legal move until the game ends. */
async function playOut<M>(
  game: string,
  players: number,
  first: Turn,
  ours: number[],
  legal: (seat: number) => Promise<M[]>,
  move: (seat: number, chosen: M) => Promise<Turn>,
): Promise<Outcome> {
  let turn = first;
  for (let step = 0; !turn.outcome.finished; step++) {
    if (step >= 3000) throw new Error(`${game}: no end after ${step} moves`);
    const seat = turn.to_act.find((s) => ours.includes(s));
    if (seat === undefined) throw new Error(`${game}: nobody of ${ours} may act`);
    const moves = await legal(seat);
    if (moves.length === 0) throw new Error(`${game}: seat ${seat} may act but has no move`);
    turn = await move(seat, moves[step % moves.length]);
  }
  return checked(game, players, turn.outcome);
}

/** An ended game's outcome: every seat has exactly one place, best first. */
function checked(game: string, players: number, outcome: Outcome): Outcome {
  const seats = outcome.places.map((p) => p.seat);
  const places = outcome.places.map((p) => p.place);
  if (!outcome.finished) throw new Error(`${game}: not finished`);
  if ([...seats].sort((a, b) => a - b).join() !== [...Array(players).keys()].join()) {
    throw new Error(`${game}: places ${JSON.stringify(outcome.places)} miss a seat`);
  }
  if (seats.join() !== outcome.ranking.join() || places[0] !== 1) {
    throw new Error(`${game}: places ${JSON.stringify(outcome.places)} disagree with ranking`);
  }
  const winners = outcome.places.filter((p) => p.place === 1).map((p) => p.seat);
  if (winners.join() !== outcome.winners.join()) throw new Error(`${game}: winners`);
  played.push(`${game}: ${outcome.places.map((p) => `seat ${p.seat} #${p.place}`).join(", ")}`);
  return outcome;
}

// ------------------------------------------------------------- the Chemistry Card Game --
async function elementDraft(): Promise<void> {
  // README: the fixed deal, both seats played by the client
  const setup = ok(
    "setup",
    await api.POST("/v1/element-draft/setup", {
      body: {"players": 2, "options": {"deal": [[1, 8], [11, 17]]}},
    }),
  );
  const seats = setup.seats.map((s) => as(s.seat_token));
  let token = setup.token;
  const view = ok(
    "view",
    await api.POST("/v1/element-draft/view", {
      body: { token, seat: 0 },
      headers: seats[0],
    }),
  );
  if (view.view.you?.hand.map((c) => c.symbol).join() !== "H,O") throw new Error("hand");
  const first = ok(
    "move",
    await api.POST("/v1/element-draft/moves", {
      body: { token, seat: 0, move: { type: "draft", card: 8 } },
      headers: seats[0],
    }),
  );
  token = first.token;
  const bot = ok(
    "bot-move",
    await api.POST("/v1/element-draft/bot-move", {
      body: { token, seat: 1, bot: "greedy" },
      headers: seats[1],
    }),
  );
  token = bot.token;
  await playOut(
    "element-draft",
    2,
    bot,
    [0, 1],
    async (seat) => {
      const r = await api.POST("/v1/element-draft/legal-moves", {
        body: { token, seat },
        headers: seats[seat],
      });
      return ok("legal-moves", r).moves;
    },
    async (seat, move) => {
      const r = await api.POST("/v1/element-draft/moves", {
        body: { token, seat, move },
        headers: seats[seat],
      });
      const done = ok("moves", r);
      token = done.token;
      return done;
    },
  );
  // any further move is a problem with a stable code, typed by the operation's enum
  const late = await api.POST("/v1/element-draft/moves", {
    body: { token, seat: 1, move: { type: "draft", card: 1 } },
    headers: seats[1],
  });
  if (late.error?.code !== "game_over") throw new Error("a move after the end");
  const scores = ok("scores", await api.POST("/v1/element-draft/scores", { body: { token } }));
  if (scores.scores.seats.length !== 2 || !scores.outcome.finished) throw new Error("scores");
}

// ------------------------------------------------------ Metal vs. Non-Metal, hosted --------
async function metalVsNonmetal(): Promise<void> {
  // README: one student against a bot, in a hosted session
  const made = ok(
    "sessions",
    await api.POST("/v1/metal-vs-nonmetal/sessions", {
      body: {"players": 2, "seed": 4, "bots": {"1": "greedy"}},
    }),
  );
  const session_id = made.session_id;
  const me = as(made.seats[0].seat_token);
  const path = { session_id };
  const mine = ok(
    "session",
    await api.GET("/v1/metal-vs-nonmetal/sessions/{session_id}", {
      params: { path, query: { seat: 0 } },
      headers: me,
    }),
  );
  let version = mine.version;
  // the same move on an old version is 409 stale_version, with the version to resync to
  const legal = ok(
    "legal-moves",
    await api.POST("/v1/metal-vs-nonmetal/sessions/{session_id}/legal-moves", {
      params: { path },
      body: {"seat": 0},
      headers: me,
    }),
  );
  const moved = ok(
    "moves",
    await api.POST("/v1/metal-vs-nonmetal/sessions/{session_id}/moves", {
      params: { path, header: { "Idempotency-Key": "move-1" } },
      body: { seat: 0, version, move: legal.moves[0] },
      headers: me,
    }),
  );
  const stale = await api.POST("/v1/metal-vs-nonmetal/sessions/{session_id}/moves", {
    params: { path },
    body: { seat: 0, version, move: legal.moves[0] },
    headers: me,
  });
  if (stale.error?.code !== "stale_version" || stale.error.current_version !== moved.version) {
    throw new Error("stale version");
  }
  version = moved.version;
  await playOut(
    "metal-vs-nonmetal",
    2,
    moved,
    [0],
    async (seat) => {
      const r = await api.POST("/v1/metal-vs-nonmetal/sessions/{session_id}/legal-moves", {
        params: { path },
        body: { seat },
        headers: me,
      });
      return ok("legal-moves", r).moves;
    },
    async (seat, move) => {
      const r = await api.POST("/v1/metal-vs-nonmetal/sessions/{session_id}/moves", {
        params: { path },
        body: { seat, version, move },
        headers: me,
      });
      const done = ok("moves", r);
      version = done.version;
      return done;
    },
  );
}

// ------------------------------------------------------------------ Polymer, real time --
async function polymer(): Promise<void> {
  // README: five seats and a five-second timer
  const made = ok(
    "sessions",
    await api.POST("/v1/polymer/sessions", {
      body: {"players": 5, "seed": 7, "options": {"timer_seconds": 5}},
    }),
  );
  const session_id = made.session_id;
  const path = { session_id };
  const seats = made.seats.map((s) => as(s.seat_token));
  const started = ok(
    "start",
    await api.POST("/v1/polymer/sessions/{session_id}/start", {
      params: { path },
      headers: as(made.host_token),
    }),
  );
  if (started.phase !== "trading") throw new Error("the timer did not start");
  const mine = ok(
    "session",
    await api.GET("/v1/polymer/sessions/{session_id}", {
      params: { path, query: { seat: 0 } },
      headers: seats[0],
    }),
  );
  const card = mine.view.you?.hand?.[0]?.id;
  if (card === undefined) throw new Error("seat 0 sees no hand");
  // lend a card to the left neighbour, then call the loan in (as the README does)
  const lent = ok(
    "lend",
    await api.POST("/v1/polymer/sessions/{session_id}/moves", {
      params: { path, header: { "Idempotency-Key": "lend-1" } },
      body: { seat: 0, version: mine.version, move: { type: "lend", to: 1, cards: [card] } },
      headers: seats[0],
    }),
  );
  const called = ok(
    "call_loan",
    await api.POST("/v1/polymer/sessions/{session_id}/moves", {
      params: { path },
      body: { seat: 0, version: lent.version, move: { type: "call_loan", loan: 1 } },
      headers: seats[0],
    }),
  );
  let version = called.version;
  // the debtor can now do nothing but repay
  const refused = await api.POST("/v1/polymer/sessions/{session_id}/moves", {
    params: { path },
    body: { seat: 1, version, move: { type: "offer", to: 2, give: [card], ask: ["any"] } },
    headers: seats[1],
  });
  if (refused.error?.code !== "loan_called") throw new Error("a called loan did not bind");
  for (let seat = 2; seat < 5; seat++) {
    const r = await api.POST("/v1/polymer/sessions/{session_id}/bot-move", {
      params: { path },
      body: { seat, version, bot: "trading" },
      headers: seats[seat],
    });
    if (r.error?.code === "timer_expired") break; // a slow machine
    version = ok("bot-move", r).version;
  }
  if (started.deadline_ms === null) throw new Error("polymer: the timer has no deadline");
  const wait = started.deadline_ms - started.server_now_ms + 300;
  await new Promise((done) => setTimeout(done, wait));
  const scores = ok(
    "scores",
    await api.GET("/v1/polymer/sessions/{session_id}/scores", { params: { path } }),
  );
  if (!scores.scores.final) throw new Error("polymer: scores are not final");
  checked("polymer", 5, scores.outcome);
}

/** One student against four bots the service plays on its own clock (README). */
async function polymerAgainstBots(): Promise<void> {
  const made = ok(
    "sessions",
    await api.POST("/v1/polymer/sessions", {
      body: {"players": 5, "options": {"timer_seconds": 60}, "bots": {"1": "trading", "2": "trading", "3": "trading", "4": "trading"}},
    }),
  );
  const path = { session_id: made.session_id };
  if (made.host_token !== null || made.seats.slice(1).some((s) => s.seat_token !== null)) {
    throw new Error("polymer with bots: a credential for a bot seat");
  }
  const me = as(made.seats[0].seat_token);
  let view = ok("session", await api.GET("/v1/polymer/sessions/{session_id}", { params: { path } }));
  for (let wait = 0; view.to_act.some((s) => s !== 0); wait++) {
    if (wait > 100) throw new Error("polymer with bots: the bots never got ready");
    await new Promise((done) => setTimeout(done, 50));
    view = ok("session", await api.GET("/v1/polymer/sessions/{session_id}", { params: { path } }));
  }
  const ready = ok(
    "ready",
    await api.POST("/v1/polymer/sessions/{session_id}/moves", {
      params: { path },
      body: { seat: 0, version: view.version, move: { type: "ready" } },
      headers: me,
    }),
  );
  if (ready.phase !== "trading") throw new Error("polymer with bots: the timer did not start");
}

// ------------------------- every other game of the catalogue: one human, bot seats --
// The games the functions above play in their own ways; every other game the catalogue
// lists (a new one too, without an edit here) is played statelessly by one human
// against the service's bot seats.
const OWN_WAY = new Set(["element-draft", "metal-vs-nonmetal", "polymer", "polymerization"]);
/** A stateless operation's path of every game (not a session's: `/sessions/{session_id}`). */
type Stateless<Op extends string> = Exclude<
  Extract<keyof paths, `/v1/${string}/${Op}`>,
  `${string}/sessions/${string}`
>;

async function againstBots(game: string, players: number): Promise<void> {
  const bots: Record<string, "greedy"> = {};
  for (let seat = 1; seat < players; seat++) bots[String(seat)] = "greedy";
  const setup = ok(
    "setup",
    await api.POST(`/v1/${game}/setup` as Stateless<"setup">, { body: { players, seed: 5, bots } }),
  );
  let token = setup.token;
  const me = as(setup.seats[0].seat_token);
  await playOut<unknown>(
    game,
    players,
    setup,
    [0],
    async (seat) => {
      const r = await api.POST(`/v1/${game}/legal-moves` as Stateless<"legal-moves">, {
        body: { token, seat },
        headers: me,
      });
      return ok("legal-moves", r).moves;
    },
    async (seat, move) => {
      // `move` is one of this game's legal moves; the types only know it is some game's
      const body = { token, seat, move } as never;
      const done = ok(
        "moves",
        await api.POST(`/v1/${game}/moves` as Stateless<"moves">, { body, headers: me }),
      );
      token = done.token;
      return done;
    },
  );
}

async function everyOtherGame(): Promise<void> {
  const catalogue = ok("games", await api.GET("/v1/games"));
  await Promise.all(
    catalogue.games
      .filter((g) => !OWN_WAY.has(g.slug) && g.modes.includes("stateless"))
      .map((g) => againstBots(g.slug, Math.max(g.min_players, 2))),
  );
}

async function polymerization(): Promise<void> {
  const made = ok(
    "sessions",
    await api.POST("/v1/polymerization/sessions", {
      body: { players: 2, seed: 2, bots: { "1": "greedy" }, options: { decks: 1 } },
    }),
  );
  const path = { session_id: made.session_id };
  const me = as(made.seats[0].seat_token);
  let version = made.version;
  await playOut(
    "polymerization",
    2,
    made,
    [0],
    async (seat) => {
      const r = await api.POST("/v1/polymerization/sessions/{session_id}/legal-moves", {
        params: { path },
        body: { seat },
        headers: me,
      });
      return ok("legal-moves", r).moves;
    },
    async (seat, move) => {
      const r = await api.POST("/v1/polymerization/sessions/{session_id}/moves", {
        params: { path },
        body: { seat, version, move },
        headers: me,
      });
      const done = ok("moves", r);
      version = done.version;
      return done;
    },
  );
}

/** A lesson (README): created, one student joins with its code, started (the table
 * dealt with three bots), watched, then ended; its results name the student. */
async function lesson(): Promise<void> {
  // README: the lesson
  const made = ok(
    "lesson",
    await api.POST("/v1/lessons", {
      body: { "game": "metal-vs-nonmetal", "table_size": 4, "time_limit_minutes": 20 },
    }),
  );
  if (made.code === null) throw new Error("a new lesson has a join code");
  const seat = ok("join", await api.POST("/v1/join", { body: { code: made.code, name: "Ada" } }));
  const again = ok(
    "rejoin",
    await api.POST("/v1/join", { body: { code: made.code, name: "Ada", rejoin: seat.rejoin } }),
  );
  if (!again.rejoined || again.seat !== seat.seat) throw new Error("rejoin gave another seat");
  const teacher = as(made.teacher_token);
  const path = { lesson_id: made.lesson_id };
  const started = ok("start", await api.POST("/v1/lessons/{lesson_id}/start", { params: { path }, headers: teacher }));
  const names = started.tables.flatMap((t) => t.seats.map((s) => s.name ?? s.bot ?? "free"));
  ok("end", await api.POST("/v1/lessons/{lesson_id}/end", { params: { path }, headers: teacher }));
  const results = ok("results", await api.GET("/v1/lessons/{lesson_id}/results", { params: { path }, headers: teacher }));
  console.log(`lesson: ${names.join(", ")}; results for ${results.students.map((s) => s.name).join(", ")}`);
}

const started = Date.now();
await Promise.all([
  lesson(),
  polymer(),
  polymerAgainstBots(),
  elementDraft(),
  metalVsNonmetal(),
  everyOtherGame(),
  polymerization(),
]);
for (const line of played) console.log(line);
console.log(`played ${played.length} games in ${Date.now() - started} ms`);
