// Polymer-chain cards drawn from the view's own data: the name, what sort of card it is
// (monomer with its value, initiator with its radicals, or a joker), the formula and
// molar mass, and the structure drawn from its SMILES. Each card is also said in words;
// monomers, initiators and jokers differ in colour and border and their sort is printed.
import type { Schemas } from "../../lib/contract";
import { Structure } from "./structure";

export type Card = Schemas["PolymerizationCard"];
export type Chain = Schemas["PolymerizationChain"];

const KIND: Record<Card["kind"], string> = {
  monomer: "monomer",
  initiator: "initiator",
  termination: "joker: termination",
  tempo: "joker: TEMPO (SFRP)",
  cta: "joker: chain transfer agent",
  copolymer: "joker: copolymer",
};

export const grams = (m: number): string => `${m.toFixed(2)} g/mol`;

/** What the card's sort says about it: the value, the radicals, the mechanism. */
export function sortOf(card: Card): string {
  if (card.kind === "monomer") return `monomer, value ${card.value ?? "?"}`;
  if (card.kind === "initiator") return `initiator, ${card.radicals ?? "?"} radical${card.radicals === 1 ? "" : "s"}`;
  if (card.kind === "termination") return `${KIND.termination} by ${card.mechanism ?? "either mechanism"}`;
  return KIND[card.kind];
}

export const cardLabel = (card: Card): string =>
  card.kind === "monomer" ? `${card.name} ${card.value ?? ""}`.trim() : card.name;

export function describeCard(card: Card): string {
  const parts = [card.name, sortOf(card)];
  if (card.formula) parts.push(`formula ${card.formula}`);
  if (card.molar_mass !== undefined) parts.push(grams(card.molar_mass));
  if (card.fragment) parts.push(`fragment ${card.fragment}`);
  return parts.join(", ");
}

const kindClass = (card: Card): string =>
  card.kind === "monomer" ? "poly-monomer" : card.kind === "initiator" ? "poly-initiator" : "poly-joker";

function Face({ card, structure }: { card: Card; structure: boolean }) {
  return (
    <>
      <span class="sr-only">{describeCard(card)}</span>
      <span class="poly-head" aria-hidden="true">
        <span class="poly-name">{card.name}</span>
        {card.value !== undefined && <span class="poly-value">{card.value}</span>}
      </span>
      {structure && card.smiles && <Structure smiles={card.smiles} name={card.compound ?? card.name} formula={card.formula} />}
      <span class="poly-sort" aria-hidden="true">
        {sortOf(card)}
      </span>
      {card.formula && (
        <span class="poly-formula" aria-hidden="true">
          {card.formula}
          {card.molar_mass !== undefined ? ` · ${card.molar_mass.toFixed(1)} g/mol` : ""}
        </span>
      )}
    </>
  );
}

/** A card on the table (not something to press); with its structure unless `small`. */
export function CardView({ card, small }: { card: Card; small?: boolean }) {
  return (
    <span class={`poly-card ${kindClass(card)}${small ? " poly-card-small" : ""}`}>
      <Face card={card} structure={!small} />
    </span>
  );
}

/** A card in hand: pressing it selects it; its place in the selection is shown. */
export function CardButton({
  card,
  order,
  playable,
  onPress,
}: {
  card: Card;
  order: number | null;
  playable: boolean;
  onPress: () => void;
}) {
  return (
    <button
      type="button"
      class={`poly-card poly-card-button ${kindClass(card)}${playable ? "" : " poly-card-waiting"}`}
      aria-pressed={order !== null}
      data-card={card.id}
      onClick={onPress}
    >
      <Face card={card} structure />
      {order !== null && (
        <span class="poly-order">
          selected {order}
          {order === 1 ? "st" : order === 2 ? "nd" : order === 3 ? "rd" : "th"}
        </span>
      )}
    </button>
  );
}

/** A chain's cards as a row of small cards (no structures: the legend has them). */
export function ChainCards({ chain }: { chain: Chain }) {
  return (
    <ul class="cards poly-chain-cards" aria-label={`Chain ${chain.id}'s cards, in the order laid`}>
      {chain.cards.map((c) => (
        <li key={c.id}>
          <CardView card={c} small />
        </li>
      ))}
    </ul>
  );
}
