// The seat's own part of a Polymer table: its hand (select cards, then act), its
// patterns as they stand, and every move it may make now: be ready, offer a trade to a
// neighbour (any of its cards, asking for faces or any card), accept or decline an
// offer made to it, withdraw its own, lend, call a loan in, repay, propose to undo a
// trade. Offers and loans of any cards are not listed among the legal moves (there are
// too many): the legal-moves answer's `move_space` has a form for each, whose choices
// (the neighbours, the faces one may ask for) and words this page uses. What the player
// chose is sent as chosen; a refusal comes back in words.
import { useEffect, useRef, useState } from "preact/hooks";
import type { Schemas } from "../../lib/contract";
import type { TypesOf } from "../../lib/game";
import type { MoveSpace } from "../../lib/live";
import type { SeatProps } from "../../lib/module";
import { Clock } from "./clock";
import { CardButton, CardRow, CardView, codesLabel, FaceRow, labels, sorted, swapped, type Card } from "./cards";

type G = TypesOf<"polymer">;
type Move = G["move"];
type MoveForm = Schemas["MoveForm"];
type Choice = Schemas["MoveChoice"];

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

function formsOf(space: MoveSpace | null, type: string): MoveForm[] {
  return space ? space.forms.filter((f) => f.type === type) : [];
}

function choices(form: MoveForm | undefined, member: string): Choice[] {
  return form?.members.find((m) => m.name === member)?.choices ?? [];
}

/** The cards of `ids` found in `hand`, in that order. */
const pick = (hand: Card[], ids: number[]): Card[] =>
  ids.flatMap((id) => hand.filter((c) => c.id === id).slice(0, 1));

export function Seat({ session, legal, space, busy, act }: SeatProps<G>) {
  const view = session.view;
  const you = view.you;
  const hand = you?.hand ?? [];
  const [picked, setPicked] = useState<number[]>([]);
  const [asks, setAsks] = useState<string[]>([]);
  const [to, setTo] = useState<number | null>(null);
  // The move space of the last legal-moves answer: the bots move every second or so,
  // and between a view and its legal moves the forms are briefly unknown; the choices
  // they carry (the neighbours, the faces) do not change during a game.
  const known = useRef<MoveSpace | null>(null);
  if (space) known.current = space;
  // likewise the listed moves (an accept with the first cards that meet its ask): each
  // is used only for an offer or loan still in the view, with cards still in the hand
  const listed = useRef<Move[]>([]);
  if (legal.length) listed.current = legal;
  const trading = view.phase === "trading" && !session.outcome.finished;
  const forms = trading ? known.current : null;
  const moves = trading ? listed.current : [];

  // a card that left the hand (traded, lent, repaid) is no longer selected
  useEffect(() => {
    const ids = new Set(hand.map((c) => c.id));
    if (picked.some((id) => !ids.has(id))) setPicked(picked.filter((id) => ids.has(id)));
  }, [hand, picked]);

  if (!you) return null;
  const offerForm = formsOf(forms, "offer")[0];
  const lendForm = formsOf(forms, "lend")[0];
  const neighbours: Choice[] = choices(offerForm ?? lendForm, "to");
  const targets: Choice[] = neighbours.length
    ? neighbours
    : [
        { value: you.left, label: `seat ${you.left}, your left` },
        { value: you.right, label: `seat ${you.right}, your right` },
      ];
  const target = to ?? you.left;
  const targetName = `seat ${target}`;
  const askChoices: Choice[] = choices(offerForm, "ask");
  const selection = pick(hand, picked);
  const askFor = (i: number): string => asks[i] ?? "any";
  const clear = () => {
    setPicked([]);
    setAsks([]);
  };
  const send = (move: Move, reset = true) => {
    act(move);
    if (reset) clear();
  };
  const toggle = (id: number) => {
    const i = picked.indexOf(id);
    if (i >= 0) {
      setPicked(picked.filter((p) => p !== id));
      setAsks(asks.filter((_, j) => j !== i));
    } else {
      setPicked([...picked, id]);
    }
  };

  const toYou = view.offers.filter((o) => o.to === you.seat);
  const mine = view.offers.filter((o) => o.from === you.seat);
  const lent = view.loans.filter((l) => l.lender === you.seat);
  const borrowed = view.loans.filter((l) => l.debtor === you.seat);
  const trades = view.trades.filter((t) => !t.undone && t.seats.includes(you.seat));
  const owes = you.owes;
  const nothing = selection.length === 0;

  return (
    <section class="seat pm-seat" aria-labelledby="hand-heading" data-version={session.version}>
      <h2 id="hand-heading">Your hand</h2>
      {view.phase !== "ended" && (
        <Clock
          phase={view.phase}
          deadlineMs={session.deadline_ms}
          serverNowMs={session.server_now_ms}
          timerSeconds={view.timer_seconds}
        />
      )}
      {view.phase === "waiting" && (
        <>
          <p>
            {plural(you.hand_count, "card")} dealt face down: nobody sees a card until the timer starts, and it starts
            once every seat is ready.
          </p>
          <div class="actions">
            {view.seats[you.seat]?.ready ? (
              <p class="quiet">You are ready; waiting for the others.</p>
            ) : (
              <button type="button" class="act" disabled={busy} onClick={() => send({ type: "ready" })}>
                I am ready
              </button>
            )}
          </div>
        </>
      )}
      {hand.length > 0 && (
        <>
          <p class="hint" id="hand-hint">
            {trading
              ? `${plural(hand.length, "card")}. Select cards, then offer, lend, accept or repay with them.`
              : `${plural(hand.length, "card")}.`}
          </p>
          <ul class="cards pm-hand" aria-describedby="hand-hint">
            {sorted(hand).map((c) => (
              <li key={c.id}>
                {trading ? (
                  <CardButton card={c} pressed={picked.includes(c.id)} onPress={() => toggle(c.id)} />
                ) : (
                  <CardView card={c} />
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {view.phase !== "waiting" && hand.length === 0 && <p class="quiet">You hold no card.</p>}
      {you.best && (
        <details class="pm-best">
          <summary>
            Your patterns {trading ? "now" : "as scored"}: longest {you.best.longest_length}, others worth{" "}
            {you.best.rest_value}
          </summary>
          {you.best.longest.length > 0 && <FaceRow codes={you.best.longest} label="Your longest pattern" />}
          <div class="pm-patterns">
            {you.best.others.map((p, i) => (
              <FaceRow key={i} codes={p} label={`Your other pattern ${i + 1}`} />
            ))}
          </div>
          {you.best.unused.length > 0 && <p class="quiet">Unused: {codesLabel(you.best.unused)}</p>}
        </details>
      )}

      {trading && owes.length > 0 && (
        <div class="pm-owed" role="group" aria-labelledby="owed-heading">
          <h3 id="owed-heading">⚠ Repay first</h3>
          {owes.map((o) => {
            const suggested = moves.find((m) => m.type === "repay" && m.loan === o.loan);
            const first = suggested?.type === "repay" ? pick(hand, suggested.cards) : [];
            return (
              <div key={o.loan}>
                <p>
                  Seat {o.lender} called in loan #{o.loan}: return {plural(o.count, "card")} (any of yours) before
                  anything else.
                </p>
                <button
                  type="button"
                  class="act"
                  disabled={busy || selection.length !== o.count}
                  onClick={() => send({ type: "repay", loan: o.loan, cards: picked })}
                >
                  Repay loan #{o.loan} with the {plural(selection.length, "selected card")}
                </button>{" "}
                {first.length === o.count && o.count > 0 && (
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => send({ type: "repay", loan: o.loan, cards: first.map((c) => c.id) })}
                  >
                    Repay with {labels(first)}
                  </button>
                )}
              </div>
            );
          })}
        </div>
      )}

      {trading && (
        <>
          <h3>Offers made to you</h3>
          {toYou.length === 0 ? (
            <p class="quiet">None open.</p>
          ) : (
            <ul class="pm-offers">
              {toYou.map((o) => {
                const met = moves.find((m) => m.type === "accept" && m.offer === o.id);
                const ask = o.ask ?? [];
                const suggested = met?.type === "accept" ? pick(hand, met.give ?? []) : [];
                const give = o.kind === "undo" ? [] : selection.length === ask.length ? selection : suggested;
                // a trade is accepted with as many cards as it asks: the selection, or
                // the first cards of the hand that meet the ask
                const ready = o.kind === "undo" || give.length === ask.length;
                return (
                  <li key={o.id} class="pm-offer">
                    {o.kind === "undo" ? (
                      <p>
                        #{o.id}: seat {o.from} proposes to undo trade #{o.trade}: each of you takes back the cards it
                        gave.
                      </p>
                    ) : (
                      <>
                        <p>
                          #{o.id}: seat {o.from} gives you
                        </p>
                        <CardRow cards={o.give ?? []} label={`Offer #${o.id}: seat ${o.from} gives`} small />
                        <p>
                          and asks for <strong>{codesLabel(ask)}</strong>
                          {selection.length === ask.length
                            ? " (you give your selected cards)"
                            : ready
                              ? ""
                              : `: select ${plural(ask.length, "card")} of yours to give`}
                        </p>
                      </>
                    )}
                    <button
                      type="button"
                      class="act"
                      disabled={busy || !ready}
                      onClick={() => send({ type: "accept", offer: o.id, give: give.map((c) => c.id) })}
                    >
                      {o.kind === "undo"
                        ? `Accept undo #${o.id}`
                        : `Accept #${o.id}${give.length ? `, giving ${labels(give)}` : ""}`}
                    </button>{" "}
                    <button type="button" disabled={busy} onClick={() => send({ type: "decline", offer: o.id }, false)}>
                      Decline #{o.id}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}

          <fieldset class="pm-deal">
            <legend>Offer or lend your selected cards</legend>
            <div class="field">
              <label for="pm-to">To</label>
              <select
                id="pm-to"
                value={String(target)}
                onChange={(e) => setTo(Number((e.target as HTMLSelectElement).value))}
              >
                {targets.map((c) => (
                  <option key={String(c.value)} value={String(c.value)}>
                    {c.label}
                  </option>
                ))}
              </select>
            </div>
            {nothing ? (
              <p class="quiet">No card selected: select cards of your hand above.</p>
            ) : (
              <ol class="pm-asks">
                {selection.map((c, i) => (
                  <li key={c.id} class="field field-inline">
                    <label for={`pm-ask-${i}`}>For {c.label}, ask</label>
                    <select
                      id={`pm-ask-${i}`}
                      value={askFor(i)}
                      onChange={(e) => {
                        const next = selection.map((_, j) => askFor(j));
                        next[i] = (e.target as HTMLSelectElement).value;
                        setAsks(next);
                      }}
                    >
                      {(askChoices.length ? askChoices : [{ value: "any", label: "any card" }]).map((a) => (
                        <option key={String(a.value)} value={String(a.value)}>
                          {a.value === "any" ? "any card (their choice)" : a.label}
                        </option>
                      ))}
                    </select>
                  </li>
                ))}
              </ol>
            )}
            {offerForm && <p class="help">{offerForm.description}</p>}
            <div class="pm-buttons">
              <button
                type="button"
                class="act"
                disabled={busy || nothing}
                onClick={() =>
                  send({ type: "offer", to: target, give: picked, ask: selection.map((_, i) => askFor(i)) })
                }
              >
                {nothing ? "Offer a trade" : `Offer ${labels(selection)} to ${targetName}`}
              </button>
              <button
                type="button"
                disabled={busy || nothing}
                onClick={() => send({ type: "lend", to: target, cards: picked })}
              >
                {nothing ? "Lend" : `Lend ${labels(selection)} to ${targetName}`}
              </button>
            </div>
            {lendForm && <p class="help">{lendForm.description}</p>}
          </fieldset>

          {mine.length > 0 && (
            <>
              <h3>Your open offers</h3>
              <ul class="pm-list">
                {mine.map((o) => (
                  <li key={o.id}>
                    #{o.id} to seat {o.to}:{" "}
                    {o.kind === "undo"
                      ? `undo trade #${o.trade}`
                      : `${labels(o.give ?? [])} for ${codesLabel(o.ask ?? [])}`}{" "}
                    <button type="button" disabled={busy} onClick={() => send({ type: "withdraw", offer: o.id }, false)}>
                      Withdraw #{o.id}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}

          {(lent.length > 0 || borrowed.length > 0) && (
            <>
              <h3>Your loans</h3>
              <ul class="pm-list">
                {lent.map((l) => (
                  <li key={l.id}>
                    #{l.id}: you lent seat {l.debtor} {labels(l.cards ?? [])}; {l.outstanding} still owed
                    {l.called ? (
                      <strong> · called in</strong>
                    ) : (
                      <>
                        {" "}
                        <button
                          type="button"
                          disabled={busy}
                          onClick={() => send({ type: "call_loan", loan: l.id }, false)}
                        >
                          Call in loan #{l.id}
                        </button>
                      </>
                    )}
                  </li>
                ))}
                {borrowed
                  .filter((l) => !l.called)
                  .map((l) => (
                    <li key={l.id}>
                      #{l.id}: seat {l.lender} lent you {labels(l.cards ?? [])}; you owe {l.outstanding}{" "}
                      <button
                        type="button"
                        disabled={busy || nothing || selection.length > l.outstanding}
                        onClick={() => send({ type: "repay", loan: l.id, cards: picked })}
                      >
                        {nothing ? `Repay loan #${l.id}` : `Repay loan #${l.id} with ${labels(selection)}`}
                      </button>
                    </li>
                  ))}
              </ul>
            </>
          )}

          {trades.length > 0 && (
            <details class="pm-trades">
              <summary>Your trades ({trades.length}): propose to undo one</summary>
              <ul class="pm-list">
                {trades.map((t) => {
                  const other = t.seats[0] === you.seat ? t.seats[1] : t.seats[0];
                  return (
                    <li key={t.id}>
                      #{t.id} with seat {other}
                      {t.gave ? `: ${swapped(t.gave)}` : ""}{" "}
                      <button
                        type="button"
                        disabled={busy}
                        onClick={() => send({ type: "propose_undo", trade: t.id }, false)}
                      >
                        Propose to undo #{t.id}
                      </button>
                    </li>
                  );
                })}
              </ul>
            </details>
          )}
          <p class="help">
            Cards you selected: {nothing ? "none" : labels(selection)}.{" "}
            {!nothing && (
              <button type="button" class="link-button" onClick={clear}>
                Clear the selection
              </button>
            )}
          </p>
        </>
      )}
    </section>
  );
}
