// The pages' addresses. A join link carries the seat's credential in the fragment
// (after `#`), which the browser never sends to the server; the seat page moves it to
// the tab's sessionStorage and takes it out of the address bar
// (service/games/pages.py:join_link builds the same links on the server's side).
import type { Slug } from "./contract";

export const seatPath = (slug: Slug, id: string, seat: number): string =>
  `/play/${slug}/${encodeURIComponent(id)}/seat/${seat}`;

export const joinLink = (origin: string, slug: Slug, id: string, seat: number, token: string): string =>
  `${origin}${seatPath(slug, id, seat)}#token=${encodeURIComponent(token)}`;

export const tablePath = (slug: Slug, id: string): string =>
  `/play/${slug}/${encodeURIComponent(id)}/table`;

export interface PagePlace {
  slug: string;
  sessionId: string;
  seat: number | null;
}

/** Reads `/play/<slug>/<session>/seat/<n>` or `/play/<slug>/<session>/table`. */
export function placeOf(pathname: string): PagePlace | null {
  const found = /^\/play\/([a-z][a-z-]*)\/([A-Za-z0-9_-]{1,64})\/(?:seat\/(\d{1,2})|table)\/?$/.exec(
    pathname,
  );
  if (!found || found[1] === undefined || found[2] === undefined) return null;
  return {
    slug: found[1],
    sessionId: found[2],
    seat: found[3] === undefined ? null : Number(found[3]),
  };
}
