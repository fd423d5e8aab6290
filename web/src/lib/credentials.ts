// A seat's credential in the browser: it arrives in the join link's fragment
// (`#token=...`), is kept in this tab's sessionStorage (gone when the tab closes; never
// in localStorage, a cookie or a URL the server sees) and removed from the address bar
// and the tab's history entry at once.

const key = (slug: string, sessionId: string, seat: number): string =>
  `chemgames:seat:${slug}:${sessionId}:${seat}`;

/** The seat's credential: moved from the fragment if the link carried one, else the
 * one this tab kept; null when neither (the student must open their link again). */
export function takeCredential(
  slug: string,
  sessionId: string,
  seat: number,
  location: Location,
  history: History,
  storage: Storage,
): string | null {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  const given = fragment.get("token");
  if (location.hash) {
    // the credential leaves the address bar and this history entry before anything else
    history.replaceState(history.state, "", location.pathname + location.search);
  }
  if (given) {
    try {
      storage.setItem(key(slug, sessionId, seat), given);
    } catch {
      // storage refused (a private mode's quota): the page still plays until reloaded
    }
    return given;
  }
  try {
    return storage.getItem(key(slug, sessionId, seat));
  } catch {
    return null;
  }
}

export function forgetCredential(slug: string, sessionId: string, seat: number, storage: Storage): void {
  try {
    storage.removeItem(key(slug, sessionId, seat));
  } catch {
    // nothing kept
  }
}
