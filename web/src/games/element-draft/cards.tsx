// Element cards drawn from the view's own data: number, symbol, name, mass and family,
// each also said in words for a screen reader; the family's colour is never alone (its
// name is printed on the card).
import type { Schemas } from "../../lib/contract";

export type Card = Schemas["ElementDraftCard"];
export type Detail = Schemas["ElementDraftGameDetail"];
export type FamilyKey = Schemas["ElementDraftFamilyKey"];

/** Family key -> the family's name as the catalogue's deck gives it. */
export function familyNames(detail: Detail): Map<string, string> {
  const names = new Map<string, string>();
  for (const card of detail.deck) names.set(card.family, card.family_name);
  return names;
}

/** Element facts by atomic number, from the catalogue's deck. */
export function elements(detail: Detail): Map<number, Schemas["ElementDraftDeckCard"]> {
  return new Map(detail.deck.map((card) => [card.z, card]));
}

export const cardName = (card: { name: string; symbol: string; z: number }): string =>
  `${card.name} (${card.symbol}, ${card.z})`;

export function describeCard(card: Card, families: Map<string, string>): string {
  const family = families.get(card.family) ?? card.family;
  const parts = [
    card.name,
    `symbol ${card.symbol}`,
    `atomic number ${card.z}`,
    `mass ${card.mass} u`,
    family,
  ];
  if (card.radioactive) parts.push("radioactive");
  return parts.join(", ");
}

function Face({ card, families }: { card: Card; families: Map<string, string> }) {
  return (
    <>
      <span class="sr-only">{describeCard(card, families)}</span>
      <span class="card-z" aria-hidden="true">
        {card.z}
      </span>
      <span class="card-symbol" aria-hidden="true">
        {card.symbol}
      </span>
      <span class="card-name" aria-hidden="true">
        {card.name}
      </span>
      <span class="card-mass" aria-hidden="true">
        {card.mass}
      </span>
      <span class="card-family" aria-hidden="true">
        {families.get(card.family) ?? card.family}
        {card.radioactive ? " · radioactive" : ""}
      </span>
    </>
  );
}

/** A card on the table (not something to press). */
export function CardView({ card, families, small }: { card: Card; families: Map<string, string>; small?: boolean }) {
  return (
    <span class={`card fam-${card.family}${small ? " card-small" : ""}`}>
      <Face card={card} families={families} />
    </span>
  );
}

/** A card in hand: pressing it selects it (pressed again, it is no longer selected). */
export function CardButton({
  card,
  families,
  pressed,
  legal,
  onPress,
}: {
  card: Card;
  families: Map<string, string>;
  pressed: boolean;
  legal: boolean;
  onPress: () => void;
}) {
  return (
    <button
      type="button"
      class={`card card-button fam-${card.family}${legal ? "" : " card-waiting"}`}
      aria-pressed={pressed}
      onClick={onPress}
    >
      <Face card={card} families={families} />
    </button>
  );
}
