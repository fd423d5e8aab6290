// A student's join page: /play/join#code=<join code>. The code (from the projector or
// the link) and a display name; the answer's seat page opens next. The rejoin secret
// is kept in this browser (localStorage, by code), so joining again from here, after a
// reload or a closed tab, gives the same seat back, never a second one.
import { render } from "preact";
import { useState } from "preact/hooks";
import type { LessonSeat } from "../lib/lessons";
import { joinLesson } from "../lib/lessons";
import type { Problem } from "../lib/contract";

const root = document.getElementById("app") as HTMLElement;
const given = new URLSearchParams(location.hash.replace(/^#/, "")).get("code") ?? "";

const rejoinKey = (code: string): string =>
  `chemgames:rejoin:${code.toUpperCase().replace(/[^0-9A-Z]/g, "")}`;

function kept(code: string): string | null {
  try {
    return localStorage.getItem(rejoinKey(code));
  } catch {
    return null;
  }
}

function keep(code: string, secret: string): void {
  try {
    localStorage.setItem(rejoinKey(code), secret);
  } catch {
    // storage refused: joining again from here asks for a new name
  }
}

/** Waits until the seat's table is dealt (its session answers), looking every 2 s. */
async function dealt(seat: LessonSeat): Promise<void> {
  for (;;) {
    try {
      const resp = await fetch(`/v1/${seat.game}/sessions/${encodeURIComponent(seat.session_id)}`, {
        credentials: "omit",
        cache: "no-store",
      });
      if (resp.ok) return;
    } catch {
      // no network for a moment: look again
    }
    await new Promise((done) => setTimeout(done, 2000));
  }
}

function JoinPage() {
  const [code, setCode] = useState(given);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [waiting, setWaiting] = useState<LessonSeat | null>(null);

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const answer = await joinLesson(code, name, kept(code));
    setBusy(false);
    if (!answer.ok) {
      setProblem(answer.problem);
      return;
    }
    keep(code, answer.data.rejoin);
    setWaiting(answer.data);
    await dealt(answer.data);
    location.assign(answer.data.seat_url);
  }

  if (waiting !== null) {
    return (
      <main id="main">
        <h1>Joined, {waiting.name}</h1>
        <p class="status" role="status">
          You sit at table {waiting.table + 1}, seat {waiting.seat}. Your game starts when the
          table is full or your teacher starts the lesson; this page opens it then.
        </p>
        <p>
          <a href={waiting.seat_url}>Open your seat now</a>
        </p>
      </main>
    );
  }

  return (
    <main id="main">
      <h1>Join a lesson</h1>
      <form class="join-form" onSubmit={(e) => void submit(e)}>
        <div class="field">
          <label for="code">Join code</label>
          <input
            id="code"
            name="code"
            autocomplete="off"
            autocapitalize="characters"
            required
            maxLength={32}
            value={code}
            onInput={(e) => setCode((e.target as HTMLInputElement).value)}
          />
          <p class="help">On your teacher's screen: 8 letters and digits, like 7K3M-Q9XD.</p>
        </div>
        <div class="field">
          <label for="name">Your name</label>
          <input
            id="name"
            name="name"
            autocomplete="nickname"
            required
            maxLength={40}
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </div>
        <button type="submit" class="act" disabled={busy}>
          {busy ? "Joining…" : "Join"}
        </button>
      </form>
      {problem !== null && (
        <div class="notice notice-refused" role="alert">
          <p class="notice-title">Not joined</p>
          <p>{problem.detail}</p>
          <p class="notice-code">{problem.code}</p>
        </div>
      )}
    </main>
  );
}

render(<JoinPage />, root);
