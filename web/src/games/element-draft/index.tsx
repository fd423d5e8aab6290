// The Chemistry Card Game (element-draft): every seat secretly selects a card of its
// hand, all are revealed together, hands pass left; six categories score at the end.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Schemas } from "../../lib/contract";
import { common, endpoints, sessionOf, type Adapter, type TypesOf } from "../../lib/game";
import type { GameUi, PublicProps, SeatProps } from "../../lib/module";
import { defineGame } from "../../ui/Play";
import { CardButton, CardView, cardName, familyNames, type Detail } from "./cards";
import { Scores } from "./scores";

type G = TypesOf<"element-draft">;

const adapt: Adapter<G> = {
  ...common,
  viewOf: sessionOf,
  // the form's values, as the game's declared options; the service checks them
  create: (players, bots, options) => ({
    players,
    bots: bots as Schemas["ElementDraftBots"],
    options: options as Schemas["ElementDraftOptions"],
  }),
};

export const seats = (list: number[]): string =>
  list.length === 1 ? `seat ${list[0]}` : `seats ${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;

function winners(outcome: Schemas["Outcome"], you: number | null): string {
  const won = outcome.winners;
  if (won.length === 0) return "";
  const who = won.map((s) => (s === you ? "you" : `seat ${s}`));
  const names = who.length === 1 ? who[0] : `${who.slice(0, -1).join(", ")} and ${who[who.length - 1]}`;
  const verb = won.length === 1 && won[0] !== you ? "wins" : "win";
  return `${names?.replace(/^you/, "You").replace(/^seat/, "Seat")} ${won.length > 1 ? "share first place" : verb}${
    outcome.tie_break ? ` (tie-break: ${outcome.tie_break})` : ""
  }.`;
}

function status(session: G["session"], you: number | null): string {
  const view = session.view;
  if (session.outcome.finished) return `The draft is over. ${winners(session.outcome, you)}`;
  const round = `Round ${view.turn} of ${view.rounds}`;
  const waiting = session.to_act.filter((s) => s !== you);
  if (you !== null && session.to_act.includes(you)) return `${round}: choose a card of your hand to draft.`;
  if (waiting.length === 0) return `${round}.`;
  return you === null
    ? `${round}: waiting for ${seats(waiting)} to choose.`
    : `${round}: you have chosen; waiting for ${seats(waiting)}.`;
}

function Seat({ session, legal, busy, act, detail }: SeatProps<G>) {
  const families = useMemo(() => familyNames(detail), [detail]);
  const you = session.view.you;
  const [chosen, setChosen] = useState<number | null>(null);
  // a card that left the hand (hands passed) is no longer chosen
  useEffect(() => {
    if (chosen !== null && !you?.hand.some((c) => c.z === chosen)) setChosen(null);
  }, [you, chosen]);
  if (!you || (session.outcome.finished && you.hand.length === 0)) return null;
  const draftable = new Set(legal.map((m) => m.card));
  const card = you.hand.find((c) => c.z === chosen) ?? null;
  const finished = session.outcome.finished;
  return (
    <section class="seat" aria-labelledby="hand-heading" data-version={session.version}>
      <h2 id="hand-heading">Your hand</h2>
      {you.selection && (
        <p class="selection">
          You selected <strong>{cardName(you.selection)}</strong>: secret until every seat has chosen.
        </p>
      )}
      {you.hand.length === 0 ? (
        <p class="quiet">{finished ? "Every card has been drafted." : "No cards in hand."}</p>
      ) : (
        <>
          <p class="hint" id="hand-hint">
            Select a card, then draft it. Cards you may draft now: {draftable.size}.
          </p>
          <ul class="cards hand" aria-describedby="hand-hint">
            {you.hand.map((c) => (
              <li key={c.z}>
                <CardButton
                  card={c}
                  families={families}
                  pressed={c.z === chosen}
                  legal={draftable.has(c.z)}
                  onPress={() => setChosen(c.z === chosen ? null : c.z)}
                />
              </li>
            ))}
          </ul>
          <div class="actions">
            <button
              type="button"
              class="act"
              disabled={card === null || busy}
              onClick={() => card && act({ type: "draft", card: card.z })}
            >
              {card ? `Draft ${cardName(card)}` : "Draft the selected card"}
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function Public({ session, detail, you }: PublicProps<G>) {
  const families = useMemo(() => familyNames(detail), [detail]);
  const view = session.view;
  return (
    <section class="table" aria-labelledby="table-heading">
      <h2 id="table-heading">The table</h2>
      <p class="quiet">
        {view.players} players · {view.hand_size} cards each · deck of {view.deck_size} elements ·{" "}
        {view.set_aside_count} set aside
        {view.radioactivity_scored ? " · radioactivity scores" : ""}
      </p>
      <ul class="seats">
        {view.seats.map((s) => (
          <li key={s.seat} class={`seat-row${s.seat === you ? " you" : ""}`}>
            <h3>
              Seat {s.seat}
              {s.seat === you ? " (you)" : ""}
            </h3>
            <p class="seat-facts">
              <span>{s.score} points so far</span>
              <span>{s.hand_count} in hand</span>
              {!session.outcome.finished && (
                <span class={s.has_selected ? "chosen" : "choosing"}>
                  {s.has_selected ? "✓ has chosen" : "… choosing"}
                </span>
              )}
            </p>
            {s.word && <p class="word">{s.word.explanation}</p>}
            {s.drafted.length > 0 ? (
              <ul class="cards drafted" aria-label={`Seat ${s.seat}'s drafted cards`}>
                {s.drafted.map((c) => (
                  <li key={c.z}>
                    <CardView card={c} families={families} small />
                  </li>
                ))}
              </ul>
            ) : (
              <p class="quiet">No card drafted yet.</p>
            )}
          </li>
        ))}
      </ul>
      {view.set_aside && view.set_aside.length > 0 && (
        <details class="set-aside">
          <summary>The {view.set_aside.length} cards set aside at the deal</summary>
          <ul class="cards">
            {view.set_aside.map((c) => (
              <li key={c.z}>
                <CardView card={c} families={families} small />
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function describe(event: G["event"], you: number | null, detail: Detail): string | null {
  switch (event.type) {
    case "game_started":
      return `The cards are dealt to ${event.players} players.`;
    case "card_selected":
      if (event.seat === you) {
        return "card" in event && event.card !== undefined
          ? `You select ${named(detail, event.card)} (secret until the reveal).`
          : "You have chosen a card.";
      }
      return `Seat ${event.seat} has chosen a card.`;
    case "cards_revealed":
    case "word_spelled":
    case "ions_paired":
      return event.explanation;
    case "hands_passed":
      return `Round ${event.turn} is drafted: the hands pass to the left.`;
    case "game_over":
      return `The draft is over. ${winners(event, you)}`;
  }
}

function named(detail: Detail, z: number): string {
  const card = detail.deck.find((c) => c.z === z);
  return card ? cardName(card) : `atomic number ${z}`;
}

const ui: GameUi<G> = { status, Seat, Public, Scores, describe };

export default defineGame<G>({ api: endpoints("element-draft"), adapt, ui });
