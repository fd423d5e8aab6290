// The teacher's lesson page: /play/lessons/<lesson>#token=<teacher token>. Every table
// live (who sits where, whose turn, the clock, the scores so far, finished tables with
// their records), the join code and its QR code for the projector, start and end. The
// teacher token moves from the fragment to this tab's sessionStorage; the page follows
// the lesson's one stream and asks for the lesson again when it says something changed.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { takeCredential } from "../lib/credentials";
import type { Problem } from "../lib/contract";
import type { Lesson, LessonLti, LessonTable } from "../lib/lessons";
import { endLesson, followLesson, getLesson, getLessonLti, startLesson } from "../lib/lessons";
import { Message } from "../ui/Message";
import { Qr } from "../ui/Qr";

const root = document.getElementById("app") as HTMLElement;
const found = /^\/play\/lessons\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname);
const lessonId = found?.[1] ?? null;

const STATUS: Record<LessonTable["status"], string> = {
  forming: "waiting for students",
  starting: "being dealt",
  playing: "playing",
  finished: "finished",
  ended: "ended early",
  empty: "nobody came",
};

/** The scalar members of a seat's score, in the game's own words ("total 27"). */
function scoreLine(scores: LessonTable["scores"], seat: number): string {
  const seats = scores?.["seats"];
  if (!Array.isArray(seats)) return "";
  const entry = seats.find((e: unknown) => (e as { seat?: unknown })?.seat === seat) as
    | Record<string, unknown>
    | undefined;
  if (entry === undefined) return "";
  return Object.entries(entry)
    .filter(([k, v]) => k !== "seat" && (typeof v === "number" || typeof v === "string"))
    .slice(0, 3)
    .map(([k, v]) => `${k.replaceAll("_", " ")} ${String(v)}`)
    .join(", ");
}

function Table({ table }: { table: LessonTable }) {
  const clock = table.deadline_at ? new Date(table.deadline_at).toLocaleTimeString() : null;
  return (
    <li class={`lesson-table lesson-table-${table.status}`}>
      <h3>
        Table {table.table + 1} <span class="subtitle">· {STATUS[table.status]}</span>
      </h3>
      {clock !== null && <p class="quiet">Time is up at {clock}</p>}
      <ul class="seats">
        {table.seats.map((s) => {
          const turn = table.to_act.includes(s.seat);
          const who = s.name ?? (s.bot !== null && s.bot !== undefined ? `Bot (${s.bot})` : "free seat");
          const score = scoreLine(table.scores, s.seat);
          return (
            <li class={`seat-row${turn ? " you" : ""}`} key={s.seat}>
              <span>
                Seat {s.seat}: <strong>{who}</strong>
              </span>
              {turn && <span class="chosen"> · to play</span>}
              {score && <span class="quiet"> · {score}</span>}
            </li>
          );
        })}
      </ul>
      <p>
        <a href={table.table_url}>Table {table.table + 1}'s public page</a>
        {table.record !== null && table.record !== undefined && (
          <>
            {" · "}
            <a href={table.record}>its record</a>
          </>
        )}
      </p>
    </li>
  );
}

/** What the LMS says of a lesson it opened (LTI): who has not joined, the grades sent.
 * Shown on a page opened from an LMS (`?lti=`); looked at again as the lesson moves. */
function FromTheLms({ id, token, moved }: { id: string; token: string; moved: string }) {
  const [lti, setLti] = useState<LessonLti | null>(null);
  useEffect(() => {
    void getLessonLti(id, token).then((answer) => setLti(answer.ok ? answer.data : null));
  }, [id, token, moved]);
  if (lti === null) return null;
  const { roster, grades } = lti;
  return (
    <section class="from-lms" aria-labelledby="lms-title">
      <h2 id="lms-title">From {lti.platform ?? "the LMS"}</h2>
      {roster.error !== null && <p class="quiet">{roster.error}</p>}
      {roster.available &&
        (roster.not_joined.length === 0 ? (
          <p>Every learner of the course has joined.</p>
        ) : (
          <>
            <p>Not joined yet ({roster.not_joined.length}):</p>
            <ul class="not-joined">
              {roster.not_joined.map((m, i) => (
                <li key={i}>{m.name}</li>
              ))}
            </ul>
          </>
        ))}
      {grades.length === 0 ? (
        <p class="quiet">No grade sent yet: a student's grade goes to the LMS when their table ends.</p>
      ) : (
        <table class="grades-sent">
          <caption>Grades sent to the LMS (out of 100)</caption>
          <thead>
            <tr>
              <th scope="col">Student</th>
              <th scope="col">Score</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
            </tr>
          </thead>
          <tbody>
            {grades.map((g, i) => (
              <tr key={i}>
                <td>{g.name ?? "—"}</td>
                <td>{g.score}</td>
                <td>{g.status}{g.last_error !== null && g.status !== "sent" ? ` (${g.last_error})` : ""}</td>
                <td>{g.attempts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function LessonPage({ id, token }: { id: string; token: string }) {
  const [lesson, setLesson] = useState<Lesson | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [live, setLive] = useState(false);
  const [busy, setBusy] = useState(false);

  async function reload(): Promise<void> {
    const answer = await getLesson(id, token);
    if (answer.ok) {
      setLesson(answer.data);
      setProblem(null);
    } else {
      setProblem(answer.problem);
    }
  }

  useEffect(() => {
    let waiting: ReturnType<typeof setTimeout> | null = null;
    const soon = (): void => {
      // many moves in a second are one look at the lesson
      if (waiting === null) {
        waiting = setTimeout(() => {
          waiting = null;
          void reload();
        }, 250);
      }
    };
    const stream = followLesson(
      id,
      token,
      () => soon(),
      setLive,
    );
    void reload();
    return () => stream.stop();
  }, [id, token]);

  async function act(what: typeof startLesson): Promise<void> {
    setBusy(true);
    const answer = await what(id, token);
    setBusy(false);
    if (answer.ok) setLesson(answer.data);
    else setProblem(answer.problem);
  }

  if (lesson === null) {
    return problem !== null ? (
      <Message title="This lesson cannot be shown">
        <p>{problem.detail}</p>
      </Message>
    ) : (
      <main id="main">
        <h1>The lesson</h1>
        <p class="quiet">Loading…</p>
      </main>
    );
  }
  const joinUrl = lesson.join_url !== null ? `${location.origin}${lesson.join_url}` : null;
  const playing = lesson.tables.filter((t) => t.status === "playing").length;
  return (
    <main id="main">
      <div class="page-head">
        <h1>{lesson.title || "The lesson"}</h1>
        <p class={`connection connection-${live ? "live" : "reconnecting"}`}>
          <span class="dot" aria-hidden="true" />
          {live ? "Live" : "Reconnecting…"}
        </p>
      </div>
      <p class="status">
        {lesson.game} · tables of {lesson.table_size} · {lesson.students} students · {playing}{" "}
        tables playing · {lesson.state}
        {lesson.ends_at !== null ? ` · ends at ${new Date(lesson.ends_at).toLocaleTimeString()}` : ""}
      </p>
      {lesson.code !== null && joinUrl !== null && (
        <section class="join-code" aria-labelledby="join-title">
          <h2 id="join-title">Join at {location.host}/play/join</h2>
          <p class="code">{lesson.code}</p>
          <Qr text={joinUrl} label={`QR code of the join link for code ${lesson.code}`} />
        </section>
      )}
      {lesson.state !== "ended" && (
        <p class="lesson-actions">
          {lesson.state === "open" && (
            <button type="button" disabled={busy} onClick={() => void act(startLesson)}>
              Start now
            </button>
          )}{" "}
          <button type="button" disabled={busy} onClick={() => void act(endLesson)}>
            End the lesson
          </button>
        </p>
      )}
      {problem !== null && (
        <div class="notice notice-error" role="alert">
          <p>{problem.detail}</p>
        </div>
      )}
      <h2>Tables</h2>
      {lesson.tables.length === 0 ? (
        <p class="quiet">No student has joined yet.</p>
      ) : (
        <ul class="lesson-tables">
          {lesson.tables.map((t) => (
            <Table table={t} key={t.table} />
          ))}
        </ul>
      )}
      {new URLSearchParams(location.search).has("lti") && (
        <FromTheLms
          id={id}
          token={token}
          moved={`${lesson.students}/${lesson.tables.map((t) => t.status).join(",")}`}
        />
      )}
      <p>
        <button type="button" class="link-button" onClick={() => void download(lesson.results, id, token)}>
          Download the results (CSV, one row per student)
        </button>
      </p>
    </main>
  );
}

/** The results' CSV, fetched with the teacher token and saved as a file. */
async function download(results: string, id: string, token: string): Promise<void> {
  const resp = await fetch(`${results}.csv`, {
    headers: { Authorization: `Bearer ${token}` },
    credentials: "omit",
    cache: "no-store",
  });
  if (!resp.ok) return;
  const url = URL.createObjectURL(await resp.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = `lesson-${id}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function main(): void {
  if (lessonId === null) {
    render(<Message title="No such lesson">This address names no lesson.</Message>, root);
    return;
  }
  const token = takeCredential("lesson", lessonId, 0, location, history, sessionStorage);
  if (token === null) {
    render(
      <Message title="Open the lesson's link again">
        <p>This tab does not hold the lesson's teacher link; open it again from where you created the lesson.</p>
      </Message>,
      root,
    );
    return;
  }
  render(<LessonPage id={lessonId} token={token} />, root);
}

main();
