// What the shared pages need to know about one game: its shapes (from the contract,
// per slug), its calls, and a few one-line adapters each game module writes with its
// own concrete types (TypeScript cannot see through a slug that is a type parameter,
// so the shared code never builds or takes apart a game's shape itself).
import * as api from "./api";
import type {
  Created,
  CreateRequest,
  GameDetail,
  LegalMoves,
  Move,
  MoveAnswer,
  MoveRequest,
  Outcome,
  RecordAnswer,
  Schemas,
  ScoresAnswer,
  SessionEvent,
  SessionView,
  Slug,
} from "./contract";

/** One game's shapes, all from the contract. */
export interface TypesOf<S extends Slug> {
  slug: S;
  session: SessionView<S>;
  move: Move<S>;
  moveRequest: MoveRequest<S>;
  moveAnswer: MoveAnswer<S>;
  event: SessionEvent<S>;
  legal: LegalMoves<S>;
  scores: ScoresAnswer<S>;
  record: RecordAnswer<S>;
  detail: GameDetail<S>;
  create: CreateRequest<S>;
  created: Created<S>;
}

type Keys = Record<keyof TypesOf<Slug>, unknown>;

/** What the shared pages read of every game's shapes (every game's satisfy it). */
export interface GameTypes extends Keys {
  slug: Slug;
  session: {
    session_id: string;
    version: number;
    to_act: number[];
    outcome: Outcome;
    seat: number | null;
  };
  move: { type: string };
  moveRequest: { seat: number; version: number; legal_moves?: boolean };
  event: { type: string };
  moveAnswer: { version: number; legal_moves?: { version: number } };
  legal: { version: number };
  scores: { version: number; outcome: Outcome };
  record: { version: number };
  detail: { slug: string; title: string; min_players: number; max_players: number };
  created: {
    session_id: string;
    seats: { seat: number; seat_token: string | null; bot: string | null }[];
  };
}

/** A step of the record as the log shows it: the version it led to, who moved. */
export interface Step<G extends GameTypes> {
  version: number;
  actor: number | null;
  bot: string | null;
  events: G["event"][];
}

/** The one-liners a game module writes with its concrete types. */
export interface Adapter<G extends GameTypes> {
  request(seat: number, version: number, move: G["move"]): G["moveRequest"];
  viewOf(answer: G["moveAnswer"]): G["session"];
  eventsOf(answer: G["moveAnswer"]): G["event"][];
  movesOf(legal: G["legal"]): G["move"][];
  /** The legal-moves answer's `move_space`, for a game whose moves cannot all be listed. */
  spaceOf?(legal: G["legal"]): Schemas["MoveSpace"] | null;
  stepsOf(record: G["record"]): Step<G>[];
  /** A new-game request from the new-game page's form (the service checks the options
   * and answers 422 with each bad field). */
  create(players: number, bots: Record<string, string>, options: Record<string, unknown>): G["create"];
}

/** The adapters every game writes the same way. Each is generic in the shapes it reads,
 * so it takes a game's concrete types where a game module assigns it to its `Adapter`
 * (spread `...common`, then the game's own `viewOf` and `create`). */
export const common = {
  request: <M>(seat: number, version: number, move: M) => ({ seat, version, move }),
  eventsOf: <E>(answer: { events: E[] }): E[] => answer.events,
  movesOf: <M>(legal: { moves: M[] }): M[] => legal.moves,
  stepsOf: <E>(answer: {
    record: { steps: { seat: number | null; bot: string | null; events: E[] }[] };
  }) =>
    answer.record.steps.map((step, i) => ({
      version: i + 1,
      actor: step.seat,
      bot: step.bot,
      events: step.events,
    })),
};

/** A move's answer as the session view it carries, for a game whose view has no members
 * beyond the shared ones. */
export function sessionOf<O, V>(answer: {
  outcome: O;
  seat: number | null;
  session_id: string;
  to_act: number[];
  version: number;
  view: V;
}) {
  const { outcome, seat, session_id, to_act, version, view } = answer;
  return { outcome, seat, session_id, to_act, version, view };
}

export interface Endpoints<G extends Keys> {
  slug: G["slug"];
  detail(): Promise<api.Answer<G["detail"]>>;
  session(id: string, seat: number | null, token: string | null): Promise<api.Answer<G["session"]>>;
  legal(id: string, seat: number, token: string): Promise<api.Answer<G["legal"]>>;
  /** `stream`: the seat stream (its hello's `stream_id`) that shows the move by its answer alone. */
  move(
    id: string,
    body: G["moveRequest"],
    token: string,
    key: string,
    stream?: string | null,
  ): Promise<api.Answer<G["moveAnswer"]>>;
  scores(id: string): Promise<api.Answer<G["scores"]>>;
  record(id: string, seat: number, token: string): Promise<api.Answer<G["record"]>>;
  create(body: G["create"]): Promise<api.Answer<G["created"]>>;
}

/** A game's calls, typed by its slug. */
export function endpoints<S extends Slug>(slug: S): Endpoints<TypesOf<S>> {
  return {
    slug,
    detail: () => api.gameDetail(slug),
    session: (id, seat, token) => api.getSession(slug, id, seat, token),
    legal: (id, seat, token) => api.legalMoves(slug, id, seat, token),
    move: (id, body, token, key, stream) => api.makeMove(slug, id, body, token, key, stream),
    scores: (id) => api.sessionScores(slug, id),
    record: (id, seat, token) => api.sessionRecord(slug, id, seat, token),
    create: (body) => api.createSession(slug, body),
  };
}
