// The contract's shapes, named for the pages. Everything here is derived from the
// types openapi-typescript generates from openapi/openapi.json (src/generated/, never
// edited, never committed): a shape changed in the contract changes here, and `tsc
// --strict` points at every use it breaks.
import type { components, paths } from "../generated/contract";

export type Schemas = components["schemas"];
export type Problem = Schemas["Problem"];
export type Outcome = Schemas["Outcome"];
export type Catalogue = Schemas["GameCatalogue"];
export type GameSummary = Schemas["GameSummary"];

type Paths = keyof paths;
type At<P> = P extends Paths ? paths[P] : never;
type JsonOf<R> = R extends { content: { "application/json": infer T } } ? T : never;
type Answer<Op, Status extends number> = Op extends { responses: infer R }
  ? Status extends keyof R
    ? JsonOf<R[Status]>
    : never
  : never;
type BodyOf<Op> = Op extends { requestBody: { content: { "application/json": infer B } } }
  ? B
  : never;

/** Every game that can be played as a hosted session, by its slug. */
export type Slug = Exclude<
  Extract<Paths, `/v1/${string}/sessions/{session_id}`> extends `/v1/${infer S}/sessions/{session_id}`
    ? S
    : never,
  "operator"
>;

type Session<S extends Slug> = `/v1/${S}/sessions/{session_id}`;

/** `GET /v1/games/<slug>`: options, bots, player counts, the deck. */
export type GameDetail<S extends Slug> = Answer<At<`/v1/games/${S}`>["get"], 200>;
/** `POST /v1/<slug>/sessions`: the request and the new session. */
export type CreateRequest<S extends Slug> = BodyOf<At<`/v1/${S}/sessions`>["post"]>;
export type Created<S extends Slug> = Answer<At<`/v1/${S}/sessions`>["post"], 201>;
/** `GET /v1/<slug>/sessions/{id}` (with `?seat=` a seat's, else the observer's). */
export type SessionView<S extends Slug> = Answer<At<Session<S>>["get"], 200>;
export type MoveRequest<S extends Slug> = BodyOf<At<`${Session<S>}/moves`>["post"]>;
export type Move<S extends Slug> = MoveRequest<S>["move"];
export type MoveAnswer<S extends Slug> = Answer<At<`${Session<S>}/moves`>["post"], 200>;
export type LegalMoves<S extends Slug> = Answer<At<`${Session<S>}/legal-moves`>["post"], 200>;
export type ScoresAnswer<S extends Slug> = Answer<At<`${Session<S>}/scores`>["get"], 200>;
export type RecordAnswer<S extends Slug> = Answer<At<`${Session<S>}/record`>["get"], 200>;
/** An event as a move's answer gives it (each with its `actor`). */
export type SessionEvent<S extends Slug> = MoveAnswer<S>["events"][number];

/**
 * A frame of `GET /v1/<slug>/sessions/{id}/events` (server-sent events). The contract
 * describes these frames in words (an event stream has no JSON schema); the members
 * named here are the ones it promises for every game, and `events` are the game's own
 * public events, typed by the contract.
 */
export interface StreamFrame<S extends Slug> {
  session_id: string;
  version: number;
  to_act: number[];
  finished: boolean;
  events?: SessionEvent<S>[];
  /** A seat's stream opened with `legal_moves=true`: the legal-moves answer at `version`. */
  legal_moves?: LegalMoves<S>;
}
/** The `end` frame: the game is over, the stream reached its time limit, or the
 * session's operator ended it (`ended: "operator"`). */
export interface StreamEnd {
  session_id: string;
  finished: boolean;
  ended?: string;
}
