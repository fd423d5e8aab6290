// The polymer-chain game (polymerization): each turn a seat draws, then plays one round
// (start chains with an initiator, grow them with monomers, or play a joker: TEMPO, a
// chain transfer agent, a copolymer or a termination card) or discards. Terminated
// chains score: their monomers, or Mn and PDI.
import { useEffect, useState } from "preact/hooks";
import type { Schemas } from "../../lib/contract";
import { common, endpoints, sessionOf, type Adapter, type TypesOf } from "../../lib/game";
import type { GameUi, PublicProps, SeatProps } from "../../lib/module";
import { defineGame } from "../../ui/Play";
import { type Chain, CardButton, CardView, ChainCards, grams } from "./cards";
import { describe, winners } from "./log";
import { choices, ROUND_NAMES, usedCards } from "./moves";
import { Scores } from "./scores";
import { Structure } from "./structure";

type G = TypesOf<"polymerization">;
type View = Schemas["PolymerizationView"];

const adapt: Adapter<G> = {
  ...common,
  viewOf: sessionOf,
  // the form's values, as the game's declared options; the service checks them
  create: (players, bots, options) => ({
    players,
    bots: bots as Schemas["PolymerizationBots"],
    options: options as Schemas["PolymerizationOptions"],
  }),
};

const ENDED: Record<Schemas["PolymerizationEndReason"], string> = {
  hand_emptied: "a hand was emptied",
  stack_empty: "the stack ran out",
};

function status(session: G["session"], you: number | null): string {
  const view = session.view;
  if (session.outcome.finished) {
    return `The game is over${view.end_reason ? `: ${ENDED[view.end_reason]}` : ""}. ${winners(session.outcome, you)}`;
  }
  const turn = `Turn ${view.turns_played + 1}`;
  if (view.turn === you) {
    return view.phase === "draw"
      ? `${turn}: your turn. Draw a card from the stack.`
      : `${turn}: your turn. Play a round (select cards, and chains where the round needs them) or discard a card.`;
  }
  return `${turn}: seat ${view.turn} ${view.phase === "draw" ? "draws" : "plays"}.`;
}

const monomerName = (view: View, key: string): string => view.monomers.find((m) => m.key === key)?.name ?? key;

export function chainText(chain: Chain, view: View): string {
  const composition = Object.entries(chain.composition)
    .map(([key, n]) => `${monomerName(view, key)} ${n}`)
    .join(", ");
  const parts = [
    `${chain.state}${chain.mechanism ? ` (${chain.mechanism})` : ""}`,
    `${chain.units} monomer${chain.units === 1 ? "" : "s"} (${composition || "none"})`,
    `values ${chain.values.join("-") || "none"}`,
  ];
  if (chain.state === "growing") parts.push(`next value ${chain.accepts.join(" or ") || "none"}`);
  parts.push(`Mi ${grams(chain.mi)}`, `ends ${chain.ends.join(", ")}`);
  return parts.join(" · ");
}

function Seat({ session, legal, busy, act }: SeatProps<G>) {
  const view = session.view;
  const you = view.you;
  const [cards, setCards] = useState<number[]>([]);
  const [chains, setChains] = useState<number[]>([]);
  // a new turn or step starts a new choice
  const step = `${view.turns_played}-${view.phase}`;
  useEffect(() => {
    setCards([]);
    setChains([]);
  }, [step]);
  if (!you || session.outcome.finished) return null;
  const mine = view.turn === you.seat;
  const hand = you.hand.cards;
  const toggle = (list: number[], set: (l: number[]) => void, id: number) =>
    set(list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const playable = new Set(legal.filter((m) => m.type !== "discard").flatMap(usedCards));
  const selectedCards = cards.flatMap((id) => hand.filter((c) => c.id === id));
  const open = view.chains.filter((c) => c.state !== "terminated");
  const selectedChains = chains.flatMap((id) => open.filter((c) => c.id === id));
  const offered = mine && view.phase === "play" ? choices(selectedCards, selectedChains, view.rules) : [];
  const kinds = new Map<string, number>();
  for (const m of legal) kinds.set(m.type, (kinds.get(m.type) ?? 0) + 1);
  return (
    <section class="seat" aria-labelledby="hand-heading" data-version={session.version}>
      <h2 id="hand-heading">Your hand ({you.hand.count})</h2>
      {mine && (
        <p class="hint" id="hand-hint">
          The rules allow now:{" "}
          {[...kinds].map(([type, n]) => `${ROUND_NAMES[type as keyof typeof ROUND_NAMES]} (${n})`).join(", ") ||
            "nothing"}
          .
          {view.phase === "play" &&
            " Select a card to start or grow a chain (the monomers in the order they are laid), then the chains it acts on; the actions appear below. Cards with a solid border can be part of a round now."}
        </p>
      )}
      <ul class="cards hand poly-hand" aria-describedby={mine ? "hand-hint" : undefined}>
        {hand.map((c) => {
          const at = cards.indexOf(c.id);
          return (
            <li key={c.id}>
              <CardButton
                card={c}
                order={at < 0 ? null : at + 1}
                playable={playable.has(c.id)}
                onPress={() => toggle(cards, setCards, c.id)}
              />
            </li>
          );
        })}
      </ul>
      {mine && view.phase === "play" && open.length > 0 && (
        <fieldset class="poly-targets">
          <legend>Chains a round may act on</legend>
          <ul class="poly-target-list">
            {open.map((c) => {
              const at = chains.indexOf(c.id);
              return (
                <li key={c.id}>
                  <button
                    type="button"
                    class="poly-target"
                    aria-pressed={at >= 0}
                    data-chain={c.id}
                    onClick={() => toggle(chains, setChains, c.id)}
                  >
                    <strong>
                      Chain {c.id}, {c.owner === you.seat ? "yours" : `seat ${c.owner}'s`}
                    </strong>
                    {at >= 0 ? ` (selected ${at + 1})` : ""}: {monomerName(view, c.monomer)}, {chainText(c, view)}
                  </button>
                </li>
              );
            })}
          </ul>
        </fieldset>
      )}
      {mine && (
        <div class="actions poly-actions">
          {view.phase === "draw" ? (
            <button type="button" class="act" disabled={busy} onClick={() => act({ type: "draw" })}>
              Draw a card
            </button>
          ) : offered.length === 0 ? (
            <p class="quiet">
              {cards.length === 0
                ? "Select cards to see what they can do."
                : "No round is made of this selection: change the cards or chains selected."}
            </p>
          ) : (
            offered.map((c) => (
              <button key={c.label} type="button" class="act" disabled={busy} onClick={() => act(c.move)}>
                {c.label}
              </button>
            ))
          )}
        </div>
      )}
    </section>
  );
}

function Public({ session, you }: PublicProps<G>) {
  const view = session.view;
  const rules = view.rules;
  return (
    <section class="table" aria-labelledby="table-heading">
      <h2 id="table-heading">The table</h2>
      <p class="quiet">
        {view.players} players · stack: {view.stack.count} cards · discard: {view.discard.count} · {rules.decks} deck
        {rules.decks === 1 ? "" : "s"} · scoring by {rules.scoring === "monomers" ? "monomers" : `Mn and PDI (${rules.ranking})`}{" "}
        · propagation: {rules.propagation}
      </p>
      {view.discard.top && (
        <div class="poly-discard">
          <h3>Top of the discard stack</h3>
          <CardView card={view.discard.top} />
        </div>
      )}
      <ul class="seats">
        {view.seats.map((s) => {
          const owned = view.chains.filter((c) => c.owner === s.seat);
          return (
            <li key={s.seat} class={`seat-row${s.seat === you ? " you" : ""}`}>
              <h3>
                Seat {s.seat}
                {s.seat === you ? " (you)" : ""}
                {!session.outcome.finished && s.seat === view.turn ? ` · to ${view.phase}` : ""}
              </h3>
              <p class="seat-facts">
                <span>{s.hand_count} in hand</span>
                <span>{s.monomers} monomers in terminated chains</span>
                {s.mn !== null && <span>Mn {grams(s.mn)}</span>}
                {s.mw !== null && <span>Mw {grams(s.mw)}</span>}
                {s.pdi !== null && <span>PDI {s.pdi.toFixed(3)}</span>}
              </p>
              {owned.length === 0 ? (
                <p class="quiet">No chains.</p>
              ) : (
                <ul class="poly-chains" aria-label={`Seat ${s.seat}'s chains`}>
                  {owned.map((c) => (
                    <li key={c.id} class={`poly-chain poly-chain-${c.state}`}>
                      <p class="poly-chain-head">
                        <strong>
                          Chain {c.id}: {monomerName(view, c.monomer)}
                        </strong>{" "}
                        · {chainText(c, view)}
                      </p>
                      <ChainCards chain={c} />
                    </li>
                  ))}
                </ul>
              )}
              {s.hand.cards && (s.seat !== you || session.outcome.finished) && s.hand.cards.length > 0 && (
                <>
                  <h4 class="poly-pile">Left in hand (counts for nothing)</h4>
                  <ul class="cards" aria-label={`Seat ${s.seat}'s hand`}>
                    {s.hand.cards.map((c) => (
                      <li key={c.id}>
                        <CardView card={c} small />
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </li>
          );
        })}
      </ul>
      <details class="poly-legend" open={you === null}>
        <summary>The monomers and initiators: structures, formulas, molar masses</summary>
        <ul class="poly-structures">
          {view.monomers.map((m) => (
            <li key={m.key}>
              <Structure smiles={m.smiles} name={m.compound} formula={m.formula} />
              <span>
                <strong>{m.name}</strong>: {m.formula}, {grams(m.molar_mass)}; makes {m.polymer}
              </span>
            </li>
          ))}
          {view.initiators.map((i) => (
            <li key={i.key}>
              <Structure smiles={i.smiles} name={i.compound} formula={i.formula} />
              <span>
                <strong>{i.name}</strong>: {i.formula}, {grams(i.molar_mass)}; {i.radicals} radical
                {i.radicals === 1 ? "" : "s"} ({i.fragment}•): {i.reaction}
              </span>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

const ui: GameUi<G> = { status, Seat, Public, Scores, describe };

export default defineGame<G>({ api: endpoints("polymerization"), adapt, ui });
