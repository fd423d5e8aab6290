// The new-game page (/play): pick a game, the players, bot seats and options; create a
// hosted session; share one join link (and its QR code) per person's seat.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import * as api from "../lib/api";
import type { Catalogue, GameDetail, GameSummary, Problem, Schemas, Slug } from "../lib/contract";
import type { GameTypes } from "../lib/game";
import { joinLink, tablePath } from "../lib/links";
import { hasModule, loadGame } from "../games/index";
import { Qr } from "../ui/Qr";

type Detail = GameDetail<Slug>;
type Option = Schemas["Option"];
type Created = GameTypes["created"];
const PERSON = "";

/** Options the form can offer, by their declared kind; the rest are for the API. */
function control(option: Option): "choice" | "bool" | "int" | "words" | null {
  if (option.choices.length > 0) return "choice";
  if (option.kind === "bool") return "bool";
  if (option.kind === "int" || option.kind === "int | null") return "int";
  if (option.kind === "list[str] | null") return "words";
  return null;
}

function OptionField({ option, value, set }: { option: Option; value: unknown; set: (v: unknown) => void }) {
  const id = `option-${option.name}`;
  const kind = control(option);
  const label = option.name.replaceAll("_", " ");
  const help = <p class="help" id={`${id}-help`}>{option.description}</p>;
  if (kind === "bool") {
    return (
      <div class="field field-check">
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          aria-describedby={`${id}-help`}
          onChange={(e) => set(e.currentTarget.checked)}
        />
        <label for={id}>{label}</label>
        {help}
      </div>
    );
  }
  if (kind === "choice") {
    return (
      <div class="field">
        <label for={id}>{label}</label>
        <select
          id={id}
          aria-describedby={`${id}-help`}
          value={JSON.stringify(value)}
          onChange={(e) => set(JSON.parse(e.currentTarget.value))}
        >
          {option.choices.map((choice) => (
            <option key={String(choice)} value={JSON.stringify(choice)}>
              {choice === null ? "none (the game's default)" : String(choice)}
              {JSON.stringify(choice) === JSON.stringify(option.default) ? " (default)" : ""}
            </option>
          ))}
        </select>
        {help}
      </div>
    );
  }
  if (kind === "int") {
    return (
      <div class="field">
        <label for={id}>{label}</label>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          value={value === null || value === undefined ? "" : String(value)}
          placeholder={option.default === null ? "none" : String(option.default)}
          aria-describedby={`${id}-help`}
          onInput={(e) => {
            const text = e.currentTarget.value.trim();
            set(text === "" ? option.default : Number(text));
          }}
        />
        {help}
      </div>
    );
  }
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        rows={3}
        aria-describedby={`${id}-help`}
        value={Array.isArray(value) ? value.join(" ") : ""}
        placeholder="Leave empty for the default; separate items with spaces or new lines."
        onInput={(e) => {
          const items = e.currentTarget.value.split(/[\s,]+/).filter(Boolean);
          set(items.length ? items : null);
        }}
      />
      {help}
    </div>
  );
}

function ProblemText({ problem }: { problem: Problem }) {
  return (
    <div class="notice notice-refused" role="alert">
      <p class="notice-title">The game could not be created</p>
      <p>{problem.detail}</p>
      {problem.errors && <pre class="field-errors">{JSON.stringify(problem.errors, null, 2)}</pre>}
      <p class="notice-code">
        <code>{problem.code}</code>
      </p>
    </div>
  );
}

function Links({ slug, created, title }: { slug: Slug; created: Created; title: string }) {
  const origin = location.origin;
  const people = created.seats.filter((s) => s.seat_token !== null);
  const [copied, setCopied] = useState<number | null>(null);
  const copy = async (seat: number, link: string) => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(seat);
    } catch {
      setCopied(null); // no clipboard here (a plain-http page): the link is selectable
    }
  };
  return (
    <section aria-labelledby="links-heading">
      <h2 id="links-heading">{title}: the join links</h2>
      <p>
        Give each player only their own link (or let them scan its QR code): whoever opens a link
        plays that seat. The link works in one browser tab; opening it again returns to the seat.
      </p>
      <p>
        For a projector: <a href={tablePath(slug, created.session_id)}>the table page</a> (no
        cards in hand are shown).
      </p>
      <ul class="join-links">
        {people.map((s) => {
          const link = joinLink(origin, slug, created.session_id, s.seat, s.seat_token ?? "");
          return (
            <li key={s.seat} class="join">
              <h3>Seat {s.seat}</h3>
              <Qr text={link} label={`QR code of seat ${s.seat}'s join link`} />
              <p class="link">
                <a href={link} target="_blank" rel="noopener noreferrer">
                  Open seat {s.seat}
                </a>
              </p>
              <p class="link-text">
                <code>{link}</code>
              </p>
              <button type="button" onClick={() => void copy(s.seat, link)}>
                Copy seat {s.seat}'s link
              </button>
              <span class="copied" aria-live="polite">
                {copied === s.seat ? " Copied." : ""}
              </span>
            </li>
          );
        })}
      </ul>
      {created.seats.some((s) => s.bot !== null) && (
        <p class="quiet">
          The service plays the other seats:{" "}
          {created.seats
            .filter((s) => s.bot !== null)
            .map((s) => `seat ${s.seat} (${s.bot})`)
            .join(", ")}
          .
        </p>
      )}
    </section>
  );
}

function Form({ games }: { games: GameSummary[] }) {
  const playable = games.filter((g) => hasModule(g.slug) && g.modes.includes("session"));
  const [slug, setSlug] = useState<Slug | null>(() => {
    const first = playable[0]?.slug;
    return first !== undefined && hasModule(first) ? first : null;
  });
  // The detail is kept with the game it describes, and its answer only fills in what the
  // teacher has not chosen (players: the game's minimum; options: its defaults). Choosing
  // a game clears the choices at once, in its own event: an answer that came after the
  // teacher typed would otherwise reset what they typed.
  const [loaded, setLoaded] = useState<{ slug: Slug; detail: Detail } | null>(null);
  const detail = loaded !== null && loaded.slug === slug ? loaded.detail : null;
  const [chosenPlayers, setPlayers] = useState<number | null>(null);
  const [bots, setBots] = useState<string[]>([]);
  const [chosenOptions, setOptions] = useState<Record<string, unknown>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);

  useEffect(() => {
    if (slug === null) return;
    let current = true;
    void api.gameDetail(slug).then((answer) => {
      if (!current) return; // another game was chosen meanwhile
      if (!answer.ok) return setProblem(answer.problem);
      setLoaded({ slug, detail: answer.data });
    });
    return () => {
      current = false;
    };
  }, [slug]);

  if (slug === null) return <p>No game can be played in the browser yet.</p>;
  const game = games.find((g) => g.slug === slug);
  if (created && game) {
    return (
      <>
        <Links slug={slug} created={created} title={game.title} />
        <p>
          <button type="button" onClick={() => setCreated(null)}>
            Set up another game
          </button>
        </p>
      </>
    );
  }
  const players = chosenPlayers ?? detail?.min_players ?? 0;
  const options: Record<string, unknown> = {
    ...Object.fromEntries((detail?.options ?? []).map((o) => [o.name, o.default])),
    ...chosenOptions,
  };
  const seatBots = Array.from({ length: players }, (_, i) => bots[i] ?? PERSON);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (detail === null) return;
    setBusy(true);
    setProblem(null);
    const chosen: Record<string, unknown> = {};
    for (const option of detail.options) {
      const value = options[option.name];
      if (control(option) && JSON.stringify(value) !== JSON.stringify(option.default)) chosen[option.name] = value;
    }
    const botSeats = Object.fromEntries(
      seatBots.flatMap((bot, seat) => (bot === PERSON ? [] : [[String(seat), bot]])),
    );
    const module = await loadGame(slug);
    const answer = module
      ? await module.create(players, botSeats, chosen)
      : null;
    setBusy(false);
    if (answer === null) return;
    if (answer.ok) setCreated(answer.data);
    else setProblem(answer.problem);
  };
  const shown = detail?.options.filter((o) => control(o) !== null) ?? [];
  const apiOnly = detail?.options.filter((o) => control(o) === null) ?? [];
  return (
    <form onSubmit={(e) => void submit(e)} aria-busy={busy}>
      <div class="field">
        <label for="game">Game</label>
        <select
          id="game"
          value={slug}
          onChange={(e) => {
            const next = e.currentTarget.value;
            if (!hasModule(next)) return;
            setSlug(next);
            setPlayers(null);
            setBots([]);
            setOptions({});
          }}
        >
          {playable.map((g) => (
            <option key={g.slug} value={g.slug}>
              {g.title}
            </option>
          ))}
        </select>
        {game && <p class="help">{game.summary}</p>}
      </div>
      {detail && (
        <>
          <div class="field">
            <label for="players">Players</label>
            <input
              id="players"
              type="number"
              min={detail.min_players}
              max={detail.max_players}
              value={players}
              aria-describedby="players-help"
              onInput={(e) => {
                const n = Number(e.currentTarget.value);
                if (Number.isInteger(n) && n >= detail.min_players && n <= detail.max_players) setPlayers(n);
              }}
            />
            <p class="help" id="players-help">
              From {detail.min_players} to {detail.max_players}, bot seats included.
            </p>
          </div>
          <fieldset>
            <legend>Who plays each seat</legend>
            {seatBots.map((bot, seat) => (
              <div class="field field-inline" key={seat}>
                <label for={`seat-${seat}`}>Seat {seat}</label>
                <select
                  id={`seat-${seat}`}
                  value={bot}
                  onChange={(e) => {
                    const next = [...seatBots];
                    next[seat] = e.currentTarget.value;
                    setBots(next);
                  }}
                >
                  <option value={PERSON}>A person (gets a join link)</option>
                  {detail.bots.map((name) => (
                    <option key={name} value={name}>
                      Bot: {name}
                    </option>
                  ))}
                </select>
              </div>
            ))}
          </fieldset>
          {shown.length > 0 && (
            <fieldset>
              <legend>Options</legend>
              {shown.map((option) => (
                <OptionField
                  key={option.name}
                  option={option}
                  value={options[option.name]}
                  set={(v) => setOptions({ ...chosenOptions, [option.name]: v })}
                />
              ))}
              {apiOnly.length > 0 && (
                <p class="help">
                  Set through the API only: {apiOnly.map((o) => o.name).join(", ")} (see the{" "}
                  <a href={`/v1/games/${slug}`}>game's description</a>).
                </p>
              )}
            </fieldset>
          )}
          {problem && <ProblemText problem={problem} />}
          <button type="submit" class="act" disabled={busy}>
            Create the game
          </button>
        </>
      )}
    </form>
  );
}

function NewGame() {
  const [catalogue, setCatalogue] = useState<Catalogue | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  useEffect(() => {
    void api.catalogue().then((answer) => (answer.ok ? setCatalogue(answer.data) : setProblem(answer.problem)));
  }, []);
  const later = catalogue?.games.filter((g) => !hasModule(g.slug)) ?? [];
  return (
    <main id="main">
      <h1>Play a chemistry card game</h1>
      {problem && <ProblemText problem={problem} />}
      {catalogue === null ? (
        <p class="quiet">Loading the games…</p>
      ) : catalogue.operator_required ? (
        <section class="operators">
          <p>
            On this service, games are started by your school's system (its LMS or the teachers'
            app), not from this page. It gives each student a join link or a QR code: opening it
            shows that student's seat at the table.
          </p>
        </section>
      ) : (
        <Form games={catalogue.games} />
      )}
      {catalogue && later.length > 0 && (
        <p class="quiet">
          Not yet drawn in the browser (playable through the API): {later.map((g) => g.title).join(", ")}.
        </p>
      )}
      <p>
        <a href="/docs">API documentation</a>
      </p>
    </main>
  );
}

render(<NewGame />, document.getElementById("app") as HTMLElement);
