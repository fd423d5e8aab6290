// Chemistry Battle's element cards, drawn from the view's own data: the atomic number
// (the card's strength, in its top right corner as on the printed card), the symbol
// and the name. The Basic Deck's cards carry nothing else (no mass, no family): the
// page shows what the service sends and invents nothing.
import type { Schemas } from "../../lib/contract";

export type Card = Schemas["ChemistryBattleCard"];

export const cardName = (card: Card): string => `${card.name} (${card.symbol}, ${card.z})`;

function Face({ card }: { card: Card }) {
  return (
    <>
      <span class="sr-only">{`${card.name}, symbol ${card.symbol}, atomic number ${card.z}`}</span>
      <span class="card-z battle-z" aria-hidden="true">
        {card.z}
      </span>
      <span class="card-symbol" aria-hidden="true">
        {card.symbol}
      </span>
      <span class="card-name" aria-hidden="true">
        {card.name}
      </span>
    </>
  );
}

/** A card on the table; `note` is said and printed under it (who played it, "wins"). */
export function CardView({ card, small, note }: { card: Card; small?: boolean; note?: string }) {
  return (
    <span class={`card battle-card${small ? " card-small" : ""}`}>
      <Face card={card} />
      {note && <span class="card-note">{note}</span>}
    </span>
  );
}

/** A card in hand: pressing it selects it (pressed again, it is no longer selected). */
export function CardButton({
  card,
  pressed,
  onPress,
}: {
  card: Card;
  pressed: boolean;
  onPress: () => void;
}) {
  return (
    <button type="button" class="card card-button battle-card" aria-pressed={pressed} onClick={onPress}>
      <Face card={card} />
    </button>
  );
}

/** A face-down stack: how many cards, said in words and drawn as a back. */
export function Stack({ count, label }: { count: number; label: string }) {
  return (
    <span class="card card-small card-back" role="img" aria-label={`${label}: ${count} card${count === 1 ? "" : "s"}, face down`}>
      <span class="card-symbol" aria-hidden="true">
        {count}
      </span>
      <span class="card-name" aria-hidden="true">
        {label}
      </span>
    </span>
  );
}
