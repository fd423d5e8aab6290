// The seat page and the table page, for any game module: loading, live status,
// notices, the game's own drawing, the log and the final scores.
import { useMemo } from "preact/hooks";
import type { GameTypes } from "../lib/game";
import { LiveTable } from "../lib/live";
import type { Connection } from "../lib/live";
import type { Game, GameModule } from "../lib/module";
import { useTable } from "./hooks";
import { Log } from "./Log";
import { Notice } from "./Notice";
import { useDetail } from "./useDetail";

const CONNECTION: Record<Connection, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  ended: "Not live",
};

function Play<G extends GameTypes>({
  game,
  sessionId,
  seat,
}: {
  game: Game<G>;
  sessionId: string;
  seat: { seat: number; token: string } | null;
}) {
  const table = useMemo(() => new LiveTable(game.api, game.adapt, sessionId, seat), [game, sessionId, seat]);
  const state = useTable(table);
  const detail = useDetail(game.api);
  const you = seat?.seat ?? null;
  const title = detail ? detail.title : "Loading…";
  if (state.failure) {
    return (
      <main id="main">
        <h1>{title}</h1>
        <div class="notice notice-error" role="alert">
          <p class="notice-title">This table cannot be shown</p>
          <p>{state.failure.detail}</p>
          <p class="notice-code">
            <code>{state.failure.code}</code>
          </p>
        </div>
        <p>
          <a href="/play">Start a new game</a>
        </p>
      </main>
    );
  }
  const session = state.session;
  const ui = game.ui;
  return (
    <main id="main" aria-busy={session === null || detail === null}>
      <header class="page-head">
        <h1>
          {title}
          <span class="subtitle">{you === null ? " · the table" : ` · seat ${you}`}</span>
        </h1>
        <p class={`connection connection-${state.connection}`} aria-live="polite">
          <span class="dot" aria-hidden="true" />
          {state.connection === "ended" && session?.outcome.finished ? "Game over" : CONNECTION[state.connection]}
        </p>
      </header>
      <Notice notice={state.notice} onDismiss={() => table.dismiss()} />
      {session && detail ? (
        <>
          <p class="status" aria-live="polite">
            {ui.status(session, you)}
          </p>
          {state.scores && <ui.Scores scores={state.scores} session={session} detail={detail} you={you} />}
          {seat && (
            <ui.Seat
              session={session}
              legal={state.legal}
              space={state.space}
              busy={state.busy}
              act={(move) => void table.act(move)}
              detail={detail}
            />
          )}
          <ui.Public session={session} detail={detail} you={you} />
          <Log log={state.log} describe={(event) => ui.describe(event, you, detail)} />
        </>
      ) : (
        <p class="quiet">Loading the table…</p>
      )}
    </main>
  );
}

/** Turns a game's shapes, calls and drawing into a module the pages can pick by slug. */
export function defineGame<G extends GameTypes>(game: Game<G>): GameModule {
  return {
    slug: game.api.slug,
    page: (sessionId, seat) => <Play game={game} sessionId={sessionId} seat={seat} />,
    create: (players, bots, options) => game.api.create(game.adapt.create(players, bots, options)),
  };
}
