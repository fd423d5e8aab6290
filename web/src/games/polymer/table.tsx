// What everyone sees of a Polymer table (the projector's page, and the rest of the
// table on a seat page): the clock, each seat's count of cards, who is ready, who must
// repay a called loan, the open offers and loans, the trades; once time is up, every
// hand, the loans settled and the cards set aside. The cards of an offer, a loan or a
// trade are shown only where the view carries them (its two seats, or after the end).
import type { TypesOf } from "../../lib/game";
import type { PublicProps } from "../../lib/module";
import { CardRow, codesLabel, labels, sorted, swapped } from "./cards";
import { Clock } from "./clock";

type G = TypesOf<"polymer">;

export const seatName = (seat: number, you: number | null): string => (seat === you ? "you" : `seat ${seat}`);
const Seat = (seat: number, you: number | null): string => (seat === you ? "You" : `Seat ${seat}`);

function relation(seat: number, you: number | null, left: number | null, right: number | null): string {
  if (seat === you) return " (you)";
  if (seat === left && seat === right) return " (your neighbour)";
  if (seat === left) return " (your left neighbour)";
  if (seat === right) return " (your right neighbour)";
  return "";
}

export function Public({ session, you }: PublicProps<G>) {
  const view = session.view;
  const left = view.you?.left ?? null;
  const right = view.you?.right ?? null;
  const ended = view.phase === "ended";
  return (
    <section class="table pm-table" aria-labelledby="table-heading">
      <h2 id="table-heading">The table</h2>
      {/* a seat page shows the clock above its hand */}
      {(you === null || ended) && (
        <Clock
          phase={view.phase}
          deadlineMs={session.deadline_ms}
          serverNowMs={session.server_now_ms}
          timerSeconds={view.timer_seconds}
        />
      )}
      <p class="quiet">
        {view.players} players · {view.hand_size} cards each · trade only with your two neighbours
      </p>
      <ul class="seats pm-seats">
        {view.seats.map((s) => (
          <li key={s.seat} class={`seat-row${s.seat === you ? " you" : ""}`}>
            <h3>
              Seat {s.seat}
              {relation(s.seat, you, left, right)}
            </h3>
            <p class="seat-facts">
              <span>{s.hand_count} cards</span>
              {view.phase === "waiting" && (
                <span class={s.ready ? "chosen" : "choosing"}>{s.ready ? "✓ ready" : "… not ready yet"}</span>
              )}
              {s.blocked_by_loan && <span class="pm-blocked">⚠ must repay a called loan first</span>}
            </p>
            {s.hand && s.hand.length > 0 && (
              <CardRow cards={sorted(s.hand)} label={`Seat ${s.seat}'s hand at the end`} small />
            )}
          </li>
        ))}
      </ul>
      <h3>Open offers</h3>
      {view.offers.length === 0 ? (
        <p class="quiet">None.</p>
      ) : (
        <ul class="pm-list">
          {view.offers.map((o) => (
            <li key={o.id}>
              {o.kind === "undo"
                ? `#${o.id}: ${Seat(o.from, you)} proposes to ${seatName(o.to, you)} to undo trade #${o.trade ?? "?"}`
                : `#${o.id}: ${Seat(o.from, you)} offers ${seatName(o.to, you)} ${o.count} card${o.count === 1 ? "" : "s"}`}
              {o.give && o.give.length > 0 ? ` (${labels(o.give)})` : ""}
              {o.ask && o.ask.length > 0 ? ` for ${codesLabel(o.ask)}` : ""}
            </li>
          ))}
        </ul>
      )}
      <h3>Loans</h3>
      {view.loans.length === 0 ? (
        <p class="quiet">None open.</p>
      ) : (
        <ul class="pm-list">
          {view.loans.map((l) => (
            <li key={l.id}>
              #{l.id}: {Seat(l.lender, you)} lent {seatName(l.debtor, you)} {l.lent} card{l.lent === 1 ? "" : "s"}
              {l.cards && l.cards.length > 0 ? ` (${labels(l.cards)})` : ""}; {l.outstanding} still owed
              {l.called ? <strong> · called in: repay now</strong> : ""}
            </li>
          ))}
        </ul>
      )}
      {view.trades.length > 0 && (
        <details class="pm-trades">
          <summary>Trades made ({view.trades.length})</summary>
          <ul class="pm-list">
            {view.trades.map((t) => (
              <li key={t.id}>
                #{t.id}: {Seat(t.seats[0] ?? -1, you)} and {seatName(t.seats[1] ?? -1, you)} swapped {t.count} card
                {t.count === 1 ? "" : "s"}
                {t.gave ? ` (${swapped(t.gave)})` : ""}
                {t.undone ? " · undone" : ""}
              </li>
            ))}
          </ul>
        </details>
      )}
      {ended && view.settlement.length > 0 && (
        <>
          <h3>Loans settled when time ran out</h3>
          <ul class="pm-list">
            {view.settlement.map((s) => (
              <li key={s.loan}>
                Loan #{s.loan}: {Seat(s.debtor, you)} returned {labels(s.cards) || "nothing"} to {seatName(s.lender, you)}
              </li>
            ))}
          </ul>
        </>
      )}
      {view.set_aside && view.set_aside.length > 0 && (
        <details class="set-aside">
          <summary>The {view.set_aside.length} cards no seat was dealt</summary>
          <CardRow cards={sorted(view.set_aside)} label="Cards set aside at the deal" small />
        </details>
      )}
    </section>
  );
}
