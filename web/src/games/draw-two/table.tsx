// The draw-two table that Compound Capture and Chemistry Canasta share: the face-up
// compounds, the compound pile, the draw deck and the public discard pile; a turn of
// two draws, then a capture (or, in Canasta, runs) or a discard; rounds of a match.
// Each game's module adds its own (Canasta's runs) around these parts.
import { useEffect, useState } from "preact/hooks";
import type { Schemas } from "../../lib/contract";
import { Back, FaceButton, FaceView, faceName, type Face } from "./cards";

export type View = Schemas["CompoundCaptureView"] | Schemas["ChemistryCanastaView"];
type SeatView = View["seats"][number];
type ScoresAnswer = Schemas["CompoundCaptureSessionScoresResponse"] | Schemas["ChemistryCanastaSessionScoresResponse"];
type SeatScore = ScoresAnswer["scores"]["seats"][number];
type RoundResult = NonNullable<View["round_end"]>;

/** The moves both games have, as the contract spells them. */
export type SharedMove =
  | Schemas["CompoundCaptureDrawMove"]
  | Schemas["CompoundCaptureCaptureMove"]
  | Schemas["CompoundCaptureDiscardMove"]
  | Schemas["CompoundCaptureNextRoundMove"];

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
export const list = (items: string[]): string =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
export const seatName = (seat: number, you: number | null): string => (seat === you ? "you" : `seat ${seat}`);
export const Seat = (seat: number, you: number | null): string => (seat === you ? "You" : `Seat ${seat}`);

export function winners(outcome: Schemas["Outcome"], you: number | null): string {
  const won = outcome.winners;
  if (won.length === 0) return "";
  const names = list(won.map((s) => seatName(s, you)));
  const head = names.charAt(0).toUpperCase() + names.slice(1);
  if (won.length > 1) return `${head} share first place.`;
  return `${head} ${won[0] === you ? "win" : "wins"}.`;
}

/** The status line's shared part; `play` says what the play step allows in this game. */
export function tableStatus(
  session: { view: View; to_act: number[]; outcome: Schemas["Outcome"] },
  you: number | null,
  play: string,
): string {
  const view = session.view;
  const round = `Round ${view.match.round}`;
  if (view.phase === "match_over" || session.outcome.finished) {
    return `The match is over after ${plural(view.match.rounds.length, "round")}. ${winners(session.outcome, you)}`;
  }
  if (view.phase === "round_over") {
    const dealer = session.to_act[0];
    if (you !== null && session.to_act.includes(you)) return `${round} is over: deal the next round.`;
    return `${round} is over: waiting for ${dealer === undefined ? "the next dealer" : `seat ${dealer}`} to deal the next round.`;
  }
  const turn = view.turn;
  if (!turn) return `${round}.`;
  if (turn.seat === you) {
    return turn.step === "draw"
      ? `${round}: your turn: draw card ${turn.drawn + 1} of 2, from the deck or the discard pile.`
      : `${round}: your turn: ${play}`;
  }
  return `${round}: seat ${turn.seat}'s turn (${turn.step === "draw" ? "drawing" : "playing"}).`;
}

/** The cards selected, in the order pressed (a capture's last card ends on top; a run
 * is listed lowest first); cards that left the hand drop out. */
export function useSelection(hand: Face[]): [number[], (id: number) => void, (ids: number[]) => void] {
  const [chosen, setChosen] = useState<number[]>([]);
  useEffect(() => {
    const held = new Set(hand.map((c) => c.id));
    if (chosen.some((id) => !held.has(id))) setChosen(chosen.filter((id) => held.has(id)));
  }, [hand, chosen]);
  const toggle = (id: number) => setChosen(chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id]);
  return [chosen, toggle, setChosen];
}

export function Hand({ hand, chosen, toggle }: { hand: Face[]; chosen: number[]; toggle: (id: number) => void }) {
  if (hand.length === 0) return <p class="quiet">No cards in hand.</p>;
  return (
    <ul class="cards hand" aria-label="Your hand" aria-describedby="hand-hint">
      {hand.map((c) => {
        const at = chosen.indexOf(c.id);
        return (
          <li key={c.id}>
            <FaceButton card={c} order={at < 0 ? null : at + 1} onPress={() => toggle(c.id)} />
          </li>
        );
      })}
    </ul>
  );
}

/** The face-up compounds as buttons: one may be selected to capture. */
export function Row({ row, compound, choose }: { row: Face[]; compound: number | null; choose: (id: number | null) => void }) {
  if (row.length === 0) return <p class="quiet">No compound is face up.</p>;
  return (
    <ul class="cards dt-row" aria-label="Face-up compounds">
      {row.map((c) => (
        <li key={c.id}>
          <FaceButton
            card={c}
            order={c.id === compound ? 1 : null}
            numbered={false}
            onPress={() => choose(c.id === compound ? null : c.id)}
            small
          />
        </li>
      ))}
    </ul>
  );
}

export const cardsText = (ids: number[], hand: Face[]): string =>
  list(ids.map((id) => hand.find((c) => c.id === id)).map((c) => (c ? faceName(c) : "?")));

/** A legal move offered as a shortcut: pressing it selects its cards (then act). */
export interface Suggestion {
  key: string;
  text: string;
  pick: () => void;
}

export function Suggestions({ items, heading }: { items: Suggestion[]; heading: string }) {
  if (items.length === 0) return null;
  return (
    <details class="dt-suggestions">
      <summary>
        {heading} ({items.length})
      </summary>
      <ul>
        {items.map((s) => (
          <li key={s.key}>
            <button type="button" class="link-button" onClick={s.pick}>
              Select: {s.text}
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The shared actions of a turn: the two draws, capture, discard, the next round. */
export function TurnActions({
  view,
  you,
  legal,
  busy,
  act,
  chosen,
  compound,
  hand,
  children,
}: {
  view: View;
  you: number;
  legal: { type: string }[];
  busy: boolean;
  act: (move: SharedMove) => void;
  chosen: number[];
  compound: number | null;
  hand: Face[];
  children?: preact.ComponentChildren;
}) {
  const turn = view.turn;
  const mine = turn?.seat === you;
  const dealNext = legal.some((m) => m.type === "next_round");
  if (dealNext) {
    return (
      <div class="actions">
        <button type="button" class="act" disabled={busy} onClick={() => act({ type: "next_round" })}>
          Deal the next round
        </button>
      </div>
    );
  }
  if (!mine || !turn || view.phase !== "play") return null;
  const top = view.discard.top;
  // a seat whose turn it is always has a move (a discard at least): 0 means "not yet known"
  const allowed = (
    <p class="help dt-legal">
      {legal.length > 0 ? `The rules allow ${plural(legal.length, "move")} now.` : "Asking the rules for your moves…"}
    </p>
  );
  if (turn.step === "draw") {
    // once the rules have listed the moves, a pile is offered only if a draw from it is
    // one: an empty deck the discard pile refills, no second card from the discard pile
    const known = legal.length > 0;
    const may = (source: string) =>
      legal.some((m) => m.type === "draw" && (m as { source?: string }).source === source);
    const fromDeck = known ? may("deck") : view.draw.count > 0;
    const fromDiscard = known ? may("discard") : top !== null && top !== undefined;
    return (
      <div class="actions dt-actions">
        {allowed}
        <button
          type="button"
          class="act"
          disabled={busy || !fromDeck}
          onClick={() => act({ type: "draw", source: "deck" })}
        >
          {view.draw.count > 0
            ? `Draw from the deck (${plural(view.draw.count, "card")})`
            : fromDeck
              ? "Draw from the deck (it is empty: the cards under the discard top are shuffled into it first)"
              : "The draw deck is empty"}
        </button>
        <button
          type="button"
          class="act"
          disabled={busy || !fromDiscard}
          onClick={() => act({ type: "draw", source: "discard" })}
        >
          {top ? `Take the discard top: ${faceName(top)}` : "The discard pile is empty"}
        </button>
      </div>
    );
  }
  const row = view.row.cards ?? [];
  const target = row.find((c) => c.id === compound) ?? null;
  const one = chosen.length === 1 ? hand.find((c) => c.id === chosen[0]) : undefined;
  return (
    <div class="actions dt-actions">
      {allowed}
      <button
        type="button"
        class="act"
        disabled={busy || target === null || chosen.length === 0}
        onClick={() => target && act({ type: "capture", compound: target.id, cards: chosen })}
      >
        {target
          ? `Capture ${target.formula ?? ""} with ${chosen.length ? cardsText(chosen, hand) : "the selected cards"}`
          : "Capture: select a compound and your cards"}
      </button>
      {children}
      <button type="button" class="act" disabled={busy || !one} onClick={() => one && act({ type: "discard", card: one.id })}>
        {one ? `Discard ${faceName(one)}` : "Discard: select one card"}
      </button>
    </div>
  );
}

/** Captures the rules list as legal, as shortcuts that select the compound and cards. */
export function captureSuggestions(
  legal: { type: string }[],
  view: View,
  hand: Face[],
  select: (compound: number, cards: number[]) => void,
): Suggestion[] {
  const row = view.row.cards ?? [];
  return legal.flatMap((m) => {
    if (m.type !== "capture") return [];
    const move = m as Schemas["CompoundCaptureCaptureMove"];
    const target = row.find((c) => c.id === move.compound);
    return [
      {
        key: `capture-${move.compound}-${move.cards.join("-")}`,
        text: `capture ${target?.formula ?? "a compound"} with ${cardsText(move.cards, hand)}`,
        pick: () => select(move.compound, move.cards),
      },
    ];
  });
}

/** The piles everyone sees: face-up compounds, compound pile, draw deck, discard pile. */
export function Piles({ view, showRow }: { view: View; showRow: boolean }) {
  const discard = view.discard.cards ?? [];
  return (
    <>
      <p class="quiet">
        {view.players} players · decks: {view.decks.join(", ")} · {view.must_capture ? "a seat that can capture must" : "capturing is optional"}
        {view.match.target !== null ? ` · match to ${view.match.target} points` : " · one round"}
        {view.match.max_rounds ? ` (at most ${plural(view.match.max_rounds, "round")})` : ""} · round {view.match.round}, dealt by seat{" "}
        {view.match.dealer}
      </p>
      {showRow && (
        <>
          <h3>Face-up compounds</h3>
          {(view.row.cards ?? []).length > 0 ? (
            <ul class="cards dt-row">
              {(view.row.cards ?? []).map((c) => (
                <li key={c.id}>
                  <FaceView card={c} small />
                </li>
              ))}
            </ul>
          ) : (
            <p class="quiet">No compound is face up.</p>
          )}
        </>
      )}
      <h3>Piles</h3>
      <ul class="cards dt-piles">
        <li>
          <Back count={view.compound_pile.count} label="compound pile" />
        </li>
        <li>
          <Back count={view.draw.count} label="draw deck" />
        </li>
        <li>
          {view.discard.top ? (
            <FaceView card={view.discard.top} small note={`discard top (${view.discard.count})`} />
          ) : (
            <Back count={0} label="discard pile" />
          )}
        </li>
      </ul>
      {discard.length > 1 && (
        <details class="dt-discard">
          <summary>The discard pile, bottom first ({plural(discard.length, "card")})</summary>
          <ol class="dt-discard-list">
            {discard.map((c) => (
              <li key={c.id}>{faceName(c)}</li>
            ))}
          </ol>
        </details>
      )}
    </>
  );
}

/** One seat's public facts: hand size, compounds captured, points. */
export function SeatFacts({ seat, view, you }: { seat: SeatView; view: View; you: number | null }) {
  const captured = seat.captured.cards ?? [];
  const hand = seat.hand.cards;
  return (
    <>
      <h3>
        Seat {seat.seat}
        {seat.seat === you ? " (you)" : ""}
        {view.turn?.seat === seat.seat ? " · to play" : ""}
      </h3>
      <p class="seat-facts">
        <span>{plural(seat.hand_count, "card")} in hand</span>
        <span>{plural(seat.captured.count, "compound")} captured</span>
        <span>{seat.compound_points} compound points</span>
        {seat.round_points !== null && <span>round: {seat.round_points} points</span>}
        <span>
          match total <strong>{seat.total}</strong>
        </span>
      </p>
      {captured.length > 0 && (
        <ul class="cards" aria-label={`Seat ${seat.seat}'s captured compounds`}>
          {captured.map((c) => (
            <li key={c.id}>
              <FaceView card={c} small />
            </li>
          ))}
        </ul>
      )}
      {hand && view.phase !== "play" && hand.length > 0 && (
        <p class="dt-left">Left in hand: {list(hand.map(faceName))}.</p>
      )}
    </>
  );
}

const REASON: Record<string, string> = {
  all_captured: "every compound was captured",
  quiet_lap: "play went once around the table with no capture",
  deck_empty: "the draw deck ran out",
  went_out: "a seat played its last card",
};

/** A finished round's result, as the service scored it. */
export function RoundEnd({ result, round, you }: { result: RoundResult; round: number; you: number | null }) {
  const runs = result.seats.some((s) => "run_points" in s);
  return (
    <>
      <h3 id="round-end-heading">Round {round} is over</h3>
      <p>
        It ended because {REASON[result.reason] ?? result.reason}
        {"went_out" in result && result.went_out !== null ? ` (seat ${result.went_out})` : ""}. Best this round:{" "}
        {list(result.winners.map((s) => seatName(s, you)))}.
      </p>
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="round-end-heading">
        <table>
          <thead>
            <tr>
              <th scope="col">Seat</th>
              <th scope="col">Compounds</th>
              <th scope="col">Compound points</th>
              {runs && <th scope="col">Run points</th>}
              <th scope="col">Left in hand</th>
              <th scope="col">Penalty</th>
              <th scope="col">Round</th>
            </tr>
          </thead>
          <tbody>
            {result.seats.map((s) => (
              <tr key={s.seat} class={s.seat === you ? "you" : undefined}>
                <th scope="row">
                  Seat {s.seat}
                  {s.seat === you ? " (you)" : ""}
                </th>
                <td>{s.compounds.join(", ") || "none"}</td>
                <td>{s.compound_points}</td>
                {runs && <td>{"run_points" in s ? `${s.run_points} (${plural(s.run_cards, "place")})` : ""}</td>}
                <td>
                  {plural(s.elements_in_hand, "element")}, {plural(s.wilds_in_hand, "wild")}
                </td>
                <td>{s.penalty > 0 ? `−${s.penalty}` : "0"}</td>
                <td>
                  <strong>{s.points}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function evidence(s: SeatScore): string {
  const parts = [`${plural(s.compounds.length, "compound")} captured (${s.compounds.join(", ") || "none"}): ${s.compound_points} points`];
  if ("run_points" in s) parts.push(`${plural(s.run_cards, "run place")} laid: ${s.run_points} points`);
  if (s.penalty !== null) {
    parts.push(
      `left in hand ${plural(s.elements_in_hand ?? 0, "element card")} and ${plural(s.wilds_in_hand ?? 0, "wild card")}: −${s.penalty}`,
    );
  }
  if (s.round_points !== null) parts.push(`round ${s.round_points}`);
  return `${parts.join("; ")}. Match total ${s.total}.`;
}

/** The match's scores as the service gives them: the last round's rows and every round. */
export function MatchScores({ scores, you }: { scores: ScoresAnswer; you: number | null }) {
  const places = new Map(scores.outcome.places.map((p) => [p.seat, p.place]));
  const seats = [...scores.scores.seats].sort(
    (a, b) => (places.get(a.seat) ?? 99) - (places.get(b.seat) ?? 99) || a.seat - b.seat,
  );
  const rounds = scores.scores.rounds;
  const players = scores.scores.seats.length;
  return (
    <section class="scores" aria-labelledby="scores-heading">
      <h2 id="scores-heading">{scores.scores.final ? "Final scores" : "Scores so far"}</h2>
      <div class="table-scroll" tabIndex={0} role="region" aria-label="Match totals">
        <table>
          <thead>
            <tr>
              <th scope="col">Place</th>
              <th scope="col">Seat</th>
              {rounds.map((r) => (
                <th scope="col" key={r.round}>
                  Round {r.round}
                </th>
              ))}
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {seats.map((s) => (
              <tr key={s.seat} class={s.seat === you ? "you" : undefined}>
                <td>{places.get(s.seat) ?? "–"}</td>
                <th scope="row">
                  Seat {s.seat}
                  {s.seat === you ? " (you)" : ""}
                </th>
                {rounds.map((r) => (
                  <td key={r.round}>{r.points[s.seat] ?? ""}</td>
                ))}
                <td>
                  <strong>{s.total}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {scores.outcome.tie_break && <p>Tie-break: {scores.outcome.tie_break}</p>}
      <h3>Why: the last round, seat by seat</h3>
      {seats.map((s) => (
        <details key={s.seat} class="evidence" open={s.seat === you || you === null}>
          <summary>
            Seat {s.seat}
            {s.seat === you ? " (you)" : ""}: {s.total} points
          </summary>
          <p>{evidence(s)}</p>
        </details>
      ))}
      {players > 0 && rounds.length > 1 && (
        <p class="quiet">
          {plural(rounds.length, "round")} played; each round's points are in the table above.
        </p>
      )}
    </section>
  );
}

type SharedEvent = { type: string } & Record<string, unknown>;

/** Log lines of the shared table's events; undefined for an event a game words itself. */
export function describeShared(e: SharedEvent, you: number | null): string | null | undefined {
  const seat = typeof e.seat === "number" ? e.seat : null;
  const by = seat === null ? "" : Seat(seat, you);
  const verb = (one: string, you_: string) => (seat === you ? you_ : one);
  const cards = Array.isArray(e.cards) ? (e.cards as Face[]) : [];
  switch (e.type) {
    case "game_started":
      return `The cards are dealt to ${String(e.players)} players.`;
    case "round_dealt":
      return `Round ${String(e.round)}: seat ${String(e.dealer)} deals ${String(e.hand_size)} cards each; seat ${String(e.first)} plays first.`;
    case "cards_dealt":
      return seat === you && cards.length ? `You are dealt ${list(cards.map(faceName))}.` : null;
    case "compounds_turned_up":
      return `Face up: ${list(cards.map((c) => c.formula ?? faceName(c)))}.`;
    case "discard_started":
      return `${faceName(e.card as Face)} starts the discard pile.`;
    case "turn_started":
      return seat === you ? "Your turn." : null;
    case "card_drawn":
      return cards.length
        ? `${by} ${verb("draws", "draw")} ${list(cards.map(faceName))} from the ${e.source === "deck" ? "deck" : "discard pile"}.`
        : `${by} ${verb("draws", "draw")} a card from the ${e.source === "deck" ? "deck" : "discard pile"} (${String(e.deck_count)} left in the deck).`;
    case "draw_ended":
      return `${by} cannot draw a second card: both piles are spent.`;
    case "deck_reshuffled":
      return `The draw deck ran out: ${plural(Number(e.count), "card")} from under the discard top are shuffled into a new deck.`;
    case "compound_captured":
      return `${by} ${verb("captures", "capture")}: ${String(e.text)}. ${String(e.explanation)} (+${String(e.points)})`;
    case "compound_turned_up":
      return `${faceName(e.card as Face)} is turned up (${plural(Number(e.pile_count), "compound")} left face down).`;
    case "card_discarded":
      return `${by} ${verb("discards", "discard")} ${list(cards.map(faceName))}.`;
    case "round_ended":
      return `Round ${String(e.round)} is over (${REASON[String(e.reason)] ?? String(e.reason)}).`;
    case "round_scored":
      return `Round ${String(e.round)} scored: ${(e.points as number[]).map((p, s) => `${seatName(s, you)} ${p}`).join(", ")}; totals ${(
        e.totals as number[]
      ).join(", ")}.`;
    case "match_tied":
      return `${list((e.leaders as number[]).map((s) => seatName(s, you)))} are tied at the top: play goes on.`;
    case "game_over": {
      const reason = { target: "a seat reached the target", one_round: "the one round is played", max_rounds: "the round limit was reached" }[
        String(e.reason)
      ];
      return `The match is over: ${reason ?? String(e.reason)}. Totals ${(e.totals as number[]).join(", ")}.`;
    }
    default:
      return undefined;
  }
}
