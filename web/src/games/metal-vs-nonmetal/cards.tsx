// Ion cards drawn from the view's own data: the ion with its charge, the element, the
// ion's name and whether it is a metal or a non-metal, each also said in words for a
// screen reader. Metals and non-metals differ in colour and in border, and the word
// is printed on the card: colour is never the only sign.
import type { Schemas } from "../../lib/contract";

export type Card = Schemas["IonCard"];

/** "+2", "−3": a signed charge as a learner reads it. */
export const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/** "Ca2+" -> ["Ca", "2+"]: the symbol and the charge to raise. */
export function splitIon(label: string): [string, string] {
  const found = /^([A-Z][a-z]?)(\d?[+-])$/.exec(label);
  return found ? [found[1] ?? label, (found[2] ?? "").replace("-", "−")] : [label, ""];
}

/** An ion label with its charge raised (and said as the label in words). */
export function Ion({ label }: { label: string }) {
  const [symbol, charge] = splitIon(label);
  return (
    <span class="ion">
      {symbol}
      <sup>{charge}</sup>
    </span>
  );
}

export const describeCard = (card: Card): string =>
  `${card.ion}, ${card.name} (${card.element}), charge ${signed(card.charge)}, ${card.kind}`;

export const cardLabel = (card: Card): string => `${card.ion} (${card.name})`;

function Face({ card }: { card: Card }) {
  return (
    <>
      <span class="sr-only">{describeCard(card)}</span>
      <span class="ion-symbol" aria-hidden="true">
        <Ion label={card.ion} />
      </span>
      <span class="ion-name" aria-hidden="true">
        {card.name}
      </span>
      <span class="ion-charge" aria-hidden="true">
        charge {signed(card.charge)}
      </span>
      <span class="ion-kind" aria-hidden="true">
        {card.kind}
      </span>
    </>
  );
}

const kindClass = (card: Card): string => (card.kind === "metal" ? "ion-metal" : "ion-nonmetal");

/** A card on the table (not something to press). */
export function CardView({ card, small }: { card: Card; small?: boolean }) {
  return (
    <span class={`ion-card ${kindClass(card)}${small ? " ion-card-small" : ""}`}>
      <Face card={card} />
    </span>
  );
}

/** A card in hand: pressing it selects it (pressed again, it is no longer selected). */
export function CardButton({
  card,
  pressed,
  playable,
  onPress,
}: {
  card: Card;
  pressed: boolean;
  playable: boolean;
  onPress: () => void;
}) {
  return (
    <button
      type="button"
      class={`ion-card ion-card-button ${kindClass(card)}${playable ? "" : " ion-card-waiting"}`}
      aria-pressed={pressed}
      data-card={card.id}
      onClick={onPress}
    >
      <Face card={card} />
    </button>
  );
}

/** A row of cards, or words saying there are none (or that they are hidden). */
export function Cards({ cards, label, count, small }: { cards: Card[] | null; label: string; count: number; small?: boolean }) {
  if (cards === null) {
    return (
      <p class="quiet">
        {count} card{count === 1 ? "" : "s"}, face down
      </p>
    );
  }
  if (cards.length === 0) return <p class="quiet">None.</p>;
  return (
    <ul class="cards" aria-label={label}>
      {cards.map((c) => (
        <li key={c.id}>
          <CardView card={c} small={small ?? true} />
        </li>
      ))}
    </ul>
  );
}
