// Polymer: a real-time trading game for 5 to 15 players with two French decks. Every
// seat trades and lends cards with its two neighbours until the server's timer runs
// out; then loans are settled and each hand's patterns (groups and sequences) score
// against its neighbours'. Bot seats' moves arrive on the event stream as they happen.
import type { Schemas } from "../../lib/contract";
import { common, endpoints, type Adapter, type TypesOf } from "../../lib/game";
import type { GameUi } from "../../lib/module";
import { defineGame } from "../../ui/Play";
import { Scores } from "./scores";
import { Seat } from "./seat";
import { Public } from "./table";

type G = TypesOf<"polymer">;

const adapt: Adapter<G> = {
  ...common,
  viewOf: (a) => ({
    deadline_at: a.deadline_at,
    deadline_ms: a.deadline_ms,
    loans: a.loans,
    outcome: a.outcome,
    phase: a.phase,
    seat: a.seat,
    server_now: a.server_now,
    server_now_ms: a.server_now_ms,
    session_id: a.session_id,
    to_act: a.to_act,
    version: a.version,
    view: a.view,
  }),
  spaceOf: (legal) => legal.move_space,
  // the form's values, as the game's declared options; the service checks them
  create: (players, bots, options) => ({
    players,
    bots: bots as Schemas["PolymerBots"],
    options: options as Schemas["PolymerOptions"],
  }),
};

const list = (seats: number[]): string =>
  seats.length === 1 ? `seat ${seats[0]}` : `seats ${seats.slice(0, -1).join(", ")} and ${seats[seats.length - 1]}`;

function winners(outcome: Schemas["Outcome"], you: number | null): string {
  const won = outcome.winners;
  if (won.length === 0) return "";
  if (won.length === 1) return won[0] === you ? "You win." : `Seat ${won[0]} wins.`;
  const names = won.map((s) => (s === you ? "you" : `seat ${s}`));
  const text = `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} share first place.`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function status(session: G["session"], you: number | null): string {
  const view = session.view;
  if (session.outcome.finished || view.phase === "ended") {
    return `Time is up: loans are settled and every hand is shown. ${winners(session.outcome, you)}`.trim();
  }
  if (view.phase === "waiting") {
    const waiting = view.seats.filter((s) => !s.ready).map((s) => s.seat);
    const mine = you !== null && waiting.includes(you);
    if (mine) return "Press “I am ready”: the timer starts once every seat is ready.";
    return waiting.length ? `Waiting for ${list(waiting)} to be ready.` : "The timer is starting.";
  }
  const owed = view.you?.owes[0];
  if (owed) return `Seat ${owed.lender} called in loan #${owed.loan}: repay ${owed.count} card${owed.count === 1 ? "" : "s"} before anything else.`;
  const waiting = view.offers.filter((o) => o.to === you).length;
  if (waiting > 0) {
    return `Trading: ${waiting === 1 ? "an offer made to you waits" : `${waiting} offers made to you wait`} for your answer (accept or decline).`;
  }
  return you === null
    ? "Trading: every seat trades and lends with its two neighbours until time is up."
    : "Trading: offer, accept, lend and call in loans with your two neighbours until time is up.";
}

function describe(event: G["event"], you: number | null): string | null {
  switch (event.type) {
    case "game_started":
      return `The cards are dealt to ${event.players} players, face down until the timer starts.`;
    // the stream carries the public event; the seat it concerns sees the cards on its
    // page (its offers and loans), so its log line points there
    case "offer_made":
      if (event.to === you && event.give === undefined && event.kind === "trade") {
        return `Seat ${event.from} offers you a trade of ${event.count} card${event.count === 1 ? "" : "s"} (offer #${event.offer}): see “Offers made to you”.`;
      }
      return event.explanation;
    case "loan_made":
      if (event.debtor === you && event.cards === undefined) {
        return `Seat ${event.lender} lends you ${event.count} card${event.count === 1 ? "" : "s"} (loan #${event.loan}); it may call ${event.count === 1 ? "it" : "them"} in at any time.`;
      }
      return event.explanation;
    default:
      return event.explanation;
  }
}

const ui: GameUi<G> = { status, Seat, Public, Scores, describe };

export default defineGame<G>({ api: endpoints("polymer"), adapt, ui });
