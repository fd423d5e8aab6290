// Metal vs. Non-Metal: the initiating seat leads an ion card, the responding seat (the
// next counterclockwise) answers with ions of the opposite charge; balanced charges make
// a compound, and whoever collects the cards scores them.
import { useEffect, useState } from "preact/hooks";
import type { Schemas } from "../../lib/contract";
import { common, endpoints, sessionOf, type Adapter, type TypesOf } from "../../lib/game";
import type { GameUi, PublicProps, SeatProps } from "../../lib/module";
import { defineGame } from "../../ui/Play";
import { type Card, CardButton, Cards, cardLabel, Ion, signed } from "./cards";
import { describe, winners } from "./log";
import { Scores } from "./scores";

type G = TypesOf<"metal-vs-nonmetal">;
type Exchange = Schemas["MetalVsNonmetalExchangeView"];

const adapt: Adapter<G> = {
  ...common,
  viewOf: sessionOf,
  // the form's values, as the game's declared options; the service checks them
  create: (players, bots, options) => ({
    players,
    bots: bots as Schemas["MetalVsNonmetalBots"],
    options: options as Schemas["MetalVsNonmetalOptions"],
  }),
};

const STEP: Record<Exchange["step"], string> = {
  initiate: "the initiating seat plays a card",
  respond: "the responding seat answers",
  reinforce: "a power play: reinforcements or not",
};

function status(session: G["session"], you: number | null): string {
  const view = session.view;
  if (session.outcome.finished) return `The game is over. ${winners(session.outcome, you)}`;
  const ex = view.exchange;
  if (!ex) return "";
  const head = `Exchange ${ex.number}`;
  const mine = you !== null && session.to_act.includes(you);
  switch (ex.step) {
    case "initiate":
      return mine
        ? `${head}: you initiate. Play any card of your hand; seat ${ex.responder} answers.`
        : `${head}: seat ${ex.initiator} initiates; seat ${ex.responder} answers.`;
    case "respond":
      return mine
        ? `${head}: answer seat ${ex.initiator}'s ${ex.lead ?? "card"} with ions of the opposite charge.`
        : `${head}: seat ${ex.responder} answers seat ${ex.initiator}'s ${ex.lead ?? "card"}.`;
    case "reinforce":
      return mine
        ? `${head}: seat ${ex.responder} made a power play. Call for reinforcements or decline.`
        : `${head}: seat ${ex.responder} made a power play; seat ${ex.initiator} decides on reinforcements.`;
  }
}

const answerText = (a: Schemas["MetalVsNonmetalAnswer"]): string => `${a.count} × ${a.ion} (total ${signed(a.total)})`;

/** The cards of a legal move (a play names one, the others a list). */
function movedCards(move: G["move"]): number[] {
  if (move.type === "play") return [move.card];
  if (move.type === "respond" || move.type === "reinforce") return move.cards;
  return [];
}

function countOf(cards: Card[]): string {
  const first = cards[0];
  if (!first) return "";
  const same = cards.every((c) => c.ion === first.ion);
  return same ? `${cards.length} × ${first.ion}` : cards.map((c) => c.ion).join(", ");
}

function Seat({ session, legal, busy, act }: SeatProps<G>) {
  const view = session.view;
  const you = view.you;
  const ex = view.exchange;
  const [chosen, setChosen] = useState<number[]>([]);
  // cards that left the hand are no longer chosen; a new step starts a new choice
  const step = `${ex?.number ?? 0}-${ex?.step ?? "over"}`;
  useEffect(() => setChosen([]), [step]);
  useEffect(() => {
    if (you && chosen.some((id) => !you.hand.some((c) => c.id === id))) {
      setChosen(chosen.filter((id) => you.hand.some((c) => c.id === id)));
    }
  }, [you, chosen]);
  if (!you || (session.outcome.finished && you.hand.length === 0)) return null;
  const mine = session.to_act.includes(you.seat) && !session.outcome.finished;
  const playable = new Set(legal.flatMap(movedCards));
  const selected = you.hand.filter((c) => chosen.includes(c.id));
  const single = ex?.step === "initiate";
  const press = (id: number) => {
    if (chosen.includes(id)) setChosen(chosen.filter((c) => c !== id));
    else setChosen(single ? [id] : [...chosen, id]);
  };
  return (
    <section class="seat" aria-labelledby="hand-heading" data-version={session.version}>
      <h2 id="hand-heading">Your hand</h2>
      <p class="quiet">
        You are seat {you.seat}
        {you.role === "waiting" ? "" : `, the ${you.role === "initiator" ? "initiating" : "responding"} seat`}. You answer
        seat {you.previous}; seat {you.next} answers you.
      </p>
      {you.hand.length === 0 ? (
        <p class="quiet">No cards in hand.</p>
      ) : !mine ? (
        <Cards cards={you.hand} count={you.hand.length} label="Your cards" small={false} />
      ) : (
        <>
          <Hint exchange={ex} playable={playable.size} />
          <ul class="cards hand" aria-describedby="hand-hint">
            {you.hand.map((c) => (
              <li key={c.id}>
                <CardButton
                  card={c}
                  pressed={chosen.includes(c.id)}
                  playable={playable.has(c.id)}
                  onPress={() => press(c.id)}
                />
              </li>
            ))}
          </ul>
          <div class="actions mvn-actions">
            {ex?.step === "initiate" && (
              <button
                type="button"
                class="act"
                disabled={selected.length !== 1 || busy}
                onClick={() => selected[0] && act({ type: "play", card: selected[0].id })}
              >
                {selected[0] ? `Play ${cardLabel(selected[0])}` : "Play the selected card"}
              </button>
            )}
            {ex?.step === "respond" && (
              <button
                type="button"
                class="act"
                disabled={selected.length === 0 || busy}
                onClick={() => act({ type: "respond", cards: selected.map((c) => c.id) })}
              >
                {selected.length ? `Answer with ${countOf(selected)}` : "Answer with the selected cards"}
              </button>
            )}
            {ex?.step === "reinforce" && (
              <>
                <button
                  type="button"
                  class="act"
                  disabled={selected.length === 0 || busy}
                  onClick={() => act({ type: "reinforce", cards: selected.map((c) => c.id) })}
                >
                  {selected.length ? `Reinforce with ${countOf(selected)}` : "Reinforce with the selected cards"}
                </button>
                <button type="button" class="act act-secondary" disabled={busy} onClick={() => act({ type: "decline" })}>
                  Decline: let the power play stand
                </button>
              </>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function Hint({ exchange, playable }: { exchange: Exchange | null; playable: number }) {
  if (!exchange) return null;
  if (exchange.step === "initiate") {
    return (
      <p class="hint" id="hand-hint">
        Select one card, then play it. Any card of your hand may lead.
      </p>
    );
  }
  if (exchange.step === "respond") {
    return (
      <div class="hint" id="hand-hint">
        <p>
          Select the cards of your answer, then answer. Against {exchange.lead ?? "the lead"} the rules allow:{" "}
          {exchange.answers.map(answerText).join("; ") || "no answer"}. With none of these, play all your cards of one
          opposite ion of lower charge (a short answer).
        </p>
        <p>Cards that may be part of an answer now: {playable}.</p>
      </div>
    );
  }
  const r = exchange.reinforcement;
  return (
    <p class="hint" id="hand-hint">
      {r
        ? `The responding total is ${r.difference} more. ${r.count} more × ${r.ion} would balance it: select them and reinforce, or decline.`
        : "Reinforce or decline."}
    </p>
  );
}

function Public({ session, you }: PublicProps<G>) {
  const view = session.view;
  const ex = view.exchange;
  return (
    <section class="table" aria-labelledby="table-heading">
      <h2 id="table-heading">The table</h2>
      <p class="quiet">
        {view.players} players · play passes counterclockwise (to seat − 1) · Ion Deck: {view.ion_deck.count} cards ·{" "}
        {view.set_aside.count} set aside · collections lie {view.collected === "face_down" ? "face down" : "face up"} · a
        standing power play collects {view.power_play_prize === "all" ? "all the cards" : "the responder's cards"}
      </p>
      {ex && (
        <div class="mvn-exchange">
          <h3>
            Exchange {ex.number}: {STEP[ex.step]}
          </h3>
          <p>
            Seat {ex.initiator} initiates{ex.lead ? <> with <Ion label={ex.lead} /></> : ""}: total{" "}
            {signed(ex.initiator_total)}. Seat {ex.responder} answers: total {signed(ex.responder_total)}.
          </p>
        </div>
      )}
      <ul class="seats">
        {view.seats.map((s) => (
          <li key={s.seat} class={`seat-row${s.seat === you ? " you" : ""}`}>
            <h3>
              Seat {s.seat}
              {s.seat === you ? " (you)" : ""}
              {ex && s.seat === ex.initiator ? " · initiating" : ""}
              {ex && s.seat === ex.responder ? " · responding" : ""}
            </h3>
            <p class="seat-facts">
              <span>{s.collected} collected</span>
              <span>{s.hand.count} in hand</span>
              {s.in_play.count > 0 && <span>in play: total {signed(s.in_play_total)}</span>}
            </p>
            {s.in_play.count > 0 && (
              <>
                <h4 class="mvn-pile">In play</h4>
                <Cards cards={s.in_play.cards} count={s.in_play.count} label={`Seat ${s.seat}'s cards in play`} />
              </>
            )}
            {s.collection.count > 0 && (
              <div class="mvn-collection">
                <h4 class="mvn-pile">Collected</h4>
                <Cards cards={s.collection.cards} count={s.collection.count} label={`Seat ${s.seat}'s collection`} />
              </div>
            )}
          </li>
        ))}
      </ul>
      {view.last_collected && (
        <div class="mvn-last">
          <h3>
            Exchange {view.last_collected.exchange}: seat {view.last_collected.seat} collected {view.last_collected.count}{" "}
            card{view.last_collected.count === 1 ? "" : "s"}
          </h3>
          <Cards cards={view.last_collected.cards} count={view.last_collected.cards.length} label="The cards collected last" />
        </div>
      )}
      {view.set_aside.count > 0 && view.set_aside.cards && (
        <details class="set-aside">
          <summary>
            {view.set_aside.count === 1 ? "The card" : `The ${view.set_aside.count} cards`} set aside (they count for
            nobody)
          </summary>
          <Cards cards={view.set_aside.cards} count={view.set_aside.count} label="Cards set aside" />
        </details>
      )}
      {view.history.length > 0 && (
        <>
          <h3 id="history-heading">Exchanges settled</h3>
          <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="history-heading">
            <table>
              <thead>
                <tr>
                  <th scope="col">Exchange</th>
                  <th scope="col">Seats</th>
                  <th scope="col">Compound</th>
                  <th scope="col">Result</th>
                  <th scope="col">Collected by</th>
                </tr>
              </thead>
              <tbody>
                {view.history.map((h) => (
                  <tr key={h.exchange}>
                    <th scope="row">{h.exchange}</th>
                    <td>
                      {h.initiator} → {h.responder}
                    </td>
                    <td>{h.formula ?? "none"}</td>
                    <td>{RESULT[h.result]}</td>
                    <td>
                      seat {h.collector} ({h.card_count} card{h.card_count === 1 ? "" : "s"})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

export const RESULT: Record<Schemas["MetalVsNonmetalExchangeResult"], string> = {
  balanced: "balanced",
  initiator_higher: "initiating total higher",
  reinforced: "reinforced",
  power_play: "power play",
  no_response: "no answer possible",
};

const ui: GameUi<G> = { status, Seat, Public, Scores, describe };

export default defineGame<G>({ api: endpoints("metal-vs-nonmetal"), adapt, ui });
