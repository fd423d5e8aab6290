// Chemistry Battle: each round every seat plays a card face up, to the right from the
// leader; the highest atomic number wins the round's cards. A seat whose hand is empty
// plays its collected cards in order; the most cards at the end wins.
import { useEffect, useState } from "preact/hooks";
import type { Schemas } from "../../lib/contract";
import { common, endpoints, sessionOf, type Adapter, type TypesOf } from "../../lib/game";
import type { GameUi, PublicProps, ScoresProps, SeatProps } from "../../lib/module";
import { defineGame } from "../../ui/Play";
import { CardButton, CardView, Stack, cardName, type Card } from "./cards";

type G = TypesOf<"chemistry-battle">;
type View = Schemas["ChemistryBattleView"];
type SeatView = Schemas["ChemistryBattleSeatView"];

const adapt: Adapter<G> = {
  ...common,
  viewOf: sessionOf,
  create: (players, bots, options) => ({
    players,
    bots: bots as Schemas["ChemistryBattleBots"],
    options: options as Schemas["ChemistryBattleOptions"],
  }),
};

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const who = (seat: number, you: number | null): string => (seat === you ? "You" : `Seat ${seat}`);
const list = (items: string[]): string =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

function winners(outcome: Schemas["Outcome"], you: number | null): string {
  const won = outcome.winners;
  if (won.length === 0) return "";
  const names = list(won.map((s) => (s === you ? "you" : `seat ${s}`)));
  const head = names.charAt(0).toUpperCase() + names.slice(1);
  if (won.length > 1) return `${head} share first place.`;
  return `${head} ${won[0] === you ? "win" : "wins"}.`;
}

const END: Record<Schemas["ChemistryBattleEndReason"], string> = {
  seat_out: "a seat ran out of cards",
  round_limit: "the round limit was reached",
  cycle: "play would have repeated the same rounds forever",
};

function status(session: G["session"], you: number | null): string {
  const view = session.view;
  if (view.finished || session.outcome.finished) {
    const why = view.end ? ` after round ${view.end.round}: ${END[view.end.reason]}` : "";
    return `The game is over${why}. ${winners(session.outcome, you)}`;
  }
  const round = `Round ${view.round}`;
  if (you !== null && session.to_act.includes(you)) {
    const from = view.seats[you]?.playing_from === "collected" || view.hand_play === "top";
    return `${round}: your turn: ${from ? "play your next card" : "choose a card of your hand and play it"}.`;
  }
  return view.turn === null ? `${round}.` : `${round}: waiting for seat ${view.turn} to play.`;
}

function Seat({ session, legal, busy, act }: SeatProps<G>) {
  const view = session.view;
  const you = view.you;
  const [chosen, setChosen] = useState<number | null>(null);
  // a card that left the hand (it was played) is no longer chosen
  useEffect(() => {
    if (chosen !== null && !you?.hand?.some((c) => c.id === chosen)) setChosen(null);
  }, [you, chosen]);
  if (!you) return null;
  const mine = view.seats[you.seat];
  if (view.finished) return null;
  const hand = you.hand ?? [];
  const card = hand.find((c) => c.id === chosen) ?? null;
  const canPlayNext = legal.some((m) => m.type === "play_next");
  const playable = legal.filter((m) => m.type === "play").length;
  const nextFrom =
    mine?.playing_from === "collected"
      ? `from your ${plural((mine.kitty_count ?? 0) + (mine.collected.count ?? 0), "collected card")}, in the order collected`
      : "from the top of your face-down hand";
  return (
    <section class="seat" aria-labelledby="hand-heading" data-version={session.version}>
      <h2 id="hand-heading">Your cards</h2>
      <p class="seat-facts">
        <span>{plural(you.hand_count, "card")} in hand</span>
        {mine && <span>{plural(mine.kitty_count, "kitty card")} captured</span>}
        {mine && <span>{plural(mine.collected.count, "collected card")}</span>}
      </p>
      {hand.length > 0 && (
        <>
          <p class="hint" id="hand-hint">
            Select a card, then play it. The highest atomic number wins the round. Cards you may play now: {playable}.
          </p>
          <ul class="cards hand" aria-describedby="hand-hint">
            {hand.map((c) => (
              <li key={c.id}>
                <CardButton card={c} pressed={c.id === chosen} onPress={() => setChosen(c.id === chosen ? null : c.id)} />
              </li>
            ))}
          </ul>
        </>
      )}
      {you.hand === null && you.hand_count > 0 && (
        <p class="quiet">Your hand is a face-down stack: you play its top card without looking.</p>
      )}
      <div class="actions">
        {hand.length > 0 && (
          <button type="button" class="act" disabled={card === null || busy} onClick={() => card && act({ type: "play", card: card.id })}>
            {card ? `Play ${cardName(card)}` : "Play the selected card"}
          </button>
        )}
        {(hand.length === 0 || canPlayNext) && (
          <button type="button" class="act" disabled={busy || !canPlayNext} onClick={() => act({ type: "play_next" })}>
            Play your next card
            <span class="sr-only">{` (${nextFrom})`}</span>
          </button>
        )}
        {(hand.length === 0 || canPlayNext) && <p class="help">Your next card comes {nextFrom}.</p>}
      </div>
    </section>
  );
}

function Played({ plays, view, winner }: { plays: View["table"]; view: View; winner?: number }) {
  return (
    <ol class="cards battle-plays">
      {plays.map((p) => (
        <li key={p.card.id}>
          <CardView
            card={p.card}
            small
            note={`seat ${p.seat}${p.seat === view.you?.seat ? " (you)" : ""}${p.seat === winner ? " · wins" : ""}`}
          />
        </li>
      ))}
    </ol>
  );
}

function SeatCards({ seat }: { seat: SeatView }) {
  const piles: [string, Card[] | null][] = [
    ["hand", seat.hand.cards],
    ["captured kitty", seat.kitty.cards],
    ["collected", seat.collected.cards],
  ];
  const shown = piles.filter(([, cards]) => cards && cards.length > 0);
  if (shown.length === 0) return null;
  return (
    <details class="battle-piles">
      <summary>Seat {seat.seat}'s cards</summary>
      {shown.map(([name, cards]) => (
        <div key={name}>
          <h4>
            {name[0]?.toUpperCase()}
            {name.slice(1)} ({cards?.length})
          </h4>
          <ul class="cards" aria-label={`Seat ${seat.seat}'s ${name} cards`}>
            {cards?.map((c) => (
              <li key={c.id}>
                <CardView card={c} small />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </details>
  );
}

function Public({ session, you }: PublicProps<G>) {
  const view = session.view;
  const last = view.last_round;
  return (
    <section class="table" aria-labelledby="table-heading">
      <h2 id="table-heading">The table</h2>
      <p class="quiet">
        {view.players} players · dealer seat {view.dealer} · hands played by {view.hand_play === "choice" ? "choice" : "top card"} ·
        collected cards lie {view.collected === "face_up" ? "face up" : "face down"}
        {view.round_limit !== null ? ` · counted after round ${view.round_limit}` : ""}
        {view.kitty.count > 0 || view.kitty.captured_by !== null
          ? ` · kitty: ${view.kitty.captured_by === null ? `${plural(view.kitty.count, "card")}, won with round 1` : `won by seat ${view.kitty.captured_by}`}`
          : ""}
      </p>
      {!view.finished && (
        <>
          <h3>Round {view.round}</h3>
          <p>
            Playing order: {view.order.map((s) => (s === you ? `seat ${s} (you)` : `seat ${s}`)).join(" → ")}
            {view.turn !== null ? `; to play: seat ${view.turn}${view.turn === you ? " (you)" : ""}.` : "."}
          </p>
          {view.table.length > 0 ? <Played plays={view.table} view={view} /> : <p class="quiet">No card played yet this round.</p>}
        </>
      )}
      {last && (
        <>
          <h3>Round {last.round}, won by seat {last.seat}{last.seat === you ? " (you)" : ""}</h3>
          <p class="word">{last.explanation}</p>
          <Played plays={last.plays} view={view} winner={last.seat} />
        </>
      )}
      <ul class="seats">
        {view.seats.map((s) => (
          <li key={s.seat} class={`seat-row${s.seat === you ? " you" : ""}`}>
            <h3>
              Seat {s.seat}
              {s.seat === you ? " (you)" : ""}
              {view.turn === s.seat ? " · to play" : ""}
            </h3>
            <p class="seat-facts">
              <span>{plural(s.hand_count, "card")} in hand</span>
              <span>{plural(s.kitty_count, "kitty card")}</span>
              <span>{plural(s.collected.count, "collected card")}</span>
              <span>
                <strong>{s.total}</strong> in all
              </span>
              {!view.finished && <span>plays from its {s.playing_from === "hand" ? "hand" : "collected cards"}</span>}
            </p>
            <SeatCards seat={s} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Scores({ scores, session, you }: ScoresProps<G>) {
  const places = new Map(scores.outcome.places.map((p) => [p.seat, p.place]));
  const order = [...scores.scores.seats].sort(
    (a, b) => (places.get(a.seat) ?? 99) - (places.get(b.seat) ?? 99) || a.seat - b.seat,
  );
  const end = session.view.end;
  return (
    <section class="scores" aria-labelledby="scores-heading">
      <h2 id="scores-heading">{scores.scores.final ? "Final scores" : "Cards so far"}</h2>
      {end && (
        <p>
          The game ended after round {end.round}: {END[end.reason]}
          {end.out.length > 0 ? ` (${list(end.out.map((s) => `seat ${s}`))} out of cards)` : ""}. The most cards wins.
        </p>
      )}
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="scores-heading">
        <table>
          <thead>
            <tr>
              <th scope="col">Place</th>
              <th scope="col">Seat</th>
              <th scope="col">Hand</th>
              <th scope="col">Kitty</th>
              <th scope="col">Collected</th>
              <th scope="col">Cards</th>
            </tr>
          </thead>
          <tbody>
            {order.map((s) => (
              <tr key={s.seat} class={s.seat === you ? "you" : undefined}>
                <td>{places.get(s.seat) ?? "–"}</td>
                <th scope="row">
                  Seat {s.seat}
                  {s.seat === you ? " (you)" : ""}
                </th>
                <td>{s.hand}</td>
                <td>{s.kitty}</td>
                <td>{s.collected}</td>
                <td>
                  <strong>{s.total}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {scores.outcome.tie_break && <p>Tie-break: {scores.outcome.tie_break}</p>}
      <p class="quiet">Each seat's cards are listed under the table below.</p>
    </section>
  );
}

const SOURCE: Record<string, string> = {
  hand: "from the hand",
  captured_kitty: "from the captured kitty",
  collected: "from the collected cards",
};

function describe(event: G["event"], you: number | null): string | null {
  switch (event.type) {
    case "game_started":
      return `The cards are dealt to ${event.players} players.`;
    case "round_started":
      return `Round ${event.round}: seat ${event.leader} leads; order ${event.order.join(", ")}.`;
    case "card_played":
      return `${who(event.seat, you)} ${event.seat === you ? "play" : "plays"} ${cardName(event.card)} ${
        SOURCE[event.source] ?? ""
      }${event.leading ? ", the highest so far" : ""}.`;
    case "round_won":
      return `Round ${event.round}: ${who(event.seat, you).toLowerCase() === "you" ? "you win" : `seat ${event.seat} wins`} ${plural(
        event.plays.length,
        "card",
      )}: ${event.explanation}.`;
    case "kitty_captured":
      return `${who(event.seat, you)} won round 1 and ${event.seat === you ? "take" : "takes"} the kitty: ${plural(event.count, "card")}, face down.`;
    case "pile_picked_up":
      return `${who(event.seat, you)} ${event.seat === you ? "have" : "has"} an empty hand and now ${
        event.seat === you ? "play" : "plays"
      } the ${plural(event.count, "collected card")} in order.`;
    case "seat_out":
      return event.message;
    case "game_over":
      return event.message;
  }
}

const ui: GameUi<G> = { status, Seat, Public, Scores, describe };

export default defineGame<G>({ api: endpoints("chemistry-battle"), adapt, ui });
