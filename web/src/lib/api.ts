// The calls the pages make, typed by the contract (lib/contract.ts). Credentials go in
// the Authorization header, never in a URL; every error answer is a Problem.
import type {
  Catalogue,
  CreateRequest,
  Created,
  GameDetail,
  LegalMoves,
  MoveAnswer,
  MoveRequest,
  Problem,
  RecordAnswer,
  ScoresAnswer,
  SessionView,
  Slug,
} from "./contract";

export type Answer<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; problem: Problem };

/** What the page shows when the service could not be reached at all (status 0): not
 * one of the service's problems, but in the same shape so one handler shows both. */
function unreachable(detail: string): Problem {
  return {
    type: "about:blank",
    title: "No connection",
    status: 0,
    code: "network_error",
    detail: `The service could not be reached (${detail}); check the connection and try again.`,
  };
}

export interface Call {
  token?: string | null;
  body?: unknown;
  idempotencyKey?: string;
  /** A seat stream's own id (its hello's `stream_id`): the stream skips this move's frame. */
  streamId?: string | null;
}

export async function call<T>(method: "GET" | "POST", url: string, call: Call = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (call.token) headers["Authorization"] = `Bearer ${call.token}`;
  if (call.idempotencyKey) headers["Idempotency-Key"] = call.idempotencyKey;
  if (call.streamId) headers["Stream-Id"] = call.streamId;
  const init: RequestInit = { method, headers, credentials: "omit", cache: "no-store" };
  if (call.body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(call.body);
  }
  let resp: Response;
  try {
    resp = await fetch(url, init);
  } catch (error) {
    return { ok: false, status: 0, problem: unreachable(String(error)) };
  }
  let data: unknown;
  try {
    data = await resp.json();
  } catch {
    return { ok: false, status: resp.status, problem: unreachable(`HTTP ${resp.status}`) };
  }
  if (resp.ok) return { ok: true, status: resp.status, data: data as T };
  return { ok: false, status: resp.status, problem: data as Problem };
}

const sessionUrl = (slug: Slug, id: string): string =>
  `/v1/${slug}/sessions/${encodeURIComponent(id)}`;

export const catalogue = (): Promise<Answer<Catalogue>> => call("GET", "/v1/games");

export const gameDetail = <S extends Slug>(slug: S): Promise<Answer<GameDetail<S>>> =>
  call("GET", `/v1/games/${slug}`);

export const createSession = <S extends Slug>(
  slug: S,
  body: CreateRequest<S>,
): Promise<Answer<Created<S>>> => call("POST", `/v1/${slug}/sessions`, { body });

/** A seat's view with its credential, or the observer's (seat null). */
export const getSession = <S extends Slug>(
  slug: S,
  id: string,
  seat: number | null,
  token: string | null,
): Promise<Answer<SessionView<S>>> =>
  call("GET", seat === null ? sessionUrl(slug, id) : `${sessionUrl(slug, id)}?seat=${seat}`, {
    token,
  });

export const legalMoves = <S extends Slug>(
  slug: S,
  id: string,
  seat: number,
  token: string,
): Promise<Answer<LegalMoves<S>>> =>
  call("POST", `${sessionUrl(slug, id)}/legal-moves`, { token, body: { seat } });

/** A move; the same `idempotencyKey` on a retry never applies it twice, and the seat
 * stream named by `streamId` sends no frame for it (its answer shows it). */
export const makeMove = <S extends Slug>(
  slug: S,
  id: string,
  body: MoveRequest<S>,
  token: string,
  idempotencyKey: string,
  streamId: string | null = null,
): Promise<Answer<MoveAnswer<S>>> =>
  call("POST", `${sessionUrl(slug, id)}/moves`, { token, body, idempotencyKey, streamId });

export const sessionScores = <S extends Slug>(
  slug: S,
  id: string,
): Promise<Answer<ScoresAnswer<S>>> => call("GET", `${sessionUrl(slug, id)}/scores`);

/** The record so far: every step's public events (a seat's credential). */
export const sessionRecord = <S extends Slug>(
  slug: S,
  id: string,
  seat: number,
  token: string,
): Promise<Answer<RecordAnswer<S>>> =>
  call("GET", `${sessionUrl(slug, id)}/record?seat=${seat}`, { token });

export const eventsUrl = (slug: Slug, id: string): string => `${sessionUrl(slug, id)}/events`;
