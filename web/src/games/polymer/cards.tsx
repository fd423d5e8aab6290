// Polymer's French cards, drawn from the view's own data (rank, suit, label). Each says
// its name in words ("7 of spades") for a screen reader; the suit's symbol and name are
// printed, so its colour (red or black, as on paper) is never the only signal. The two
// decks' copies of one face look alike, as they do at a real table.
import type { Schemas } from "../../lib/contract";

export type Card = Schemas["PolymerCard"];

const RANKS: Record<number, [short: string, name: string]> = {
  1: ["A", "ace"],
  11: ["J", "jack"],
  12: ["Q", "queen"],
  13: ["K", "king"],
};
const SUITS: Record<string, { symbol: string; name: string; red: boolean }> = {
  C: { symbol: "♣", name: "clubs", red: false },
  D: { symbol: "♦", name: "diamonds", red: true },
  H: { symbol: "♥", name: "hearts", red: true },
  S: { symbol: "♠", name: "spades", red: false },
};

const rankShort = (rank: number): string => RANKS[rank]?.[0] ?? String(rank);
const rankName = (rank: number): string => RANKS[rank]?.[1] ?? String(rank);
const suitOf = (suit: string) => SUITS[suit] ?? { symbol: suit, name: suit, red: false };

/** "7 of spades", "queen of hearts": the card's name in words. */
export const cardWords = (card: { rank: number; suit: string }): string =>
  `${rankName(card.rank)} of ${suitOf(card.suit).name}`;

/** A face code ('QS', '10H') or 'any' as a player reads it ('Q♠', 'any card'). */
export function faceLabel(code: string): string {
  const face = /^(A|[2-9]|10|J|Q|K)([CDHS])$/.exec(code.toUpperCase());
  if (face === null) return code.toLowerCase() === "any" ? "any card" : code;
  return `${face[1] ?? ""}${suitOf(face[2] ?? "").symbol}`;
}

/** A face code in words ('queen of spades'), or 'any card'. */
export function faceWords(code: string): string {
  const face = /^(A|[2-9]|10|J|Q|K)([CDHS])$/.exec(code.toUpperCase());
  if (face === null) return code.toLowerCase() === "any" ? "any card" : code;
  const short = face[1] ?? "";
  const rank = ({ A: 1, J: 11, Q: 12, K: 13 } as Record<string, number>)[short] ?? Number(short);
  return `${rankName(rank)} of ${suitOf(face[2] ?? "").name}`;
}

export const labels = (cards: Card[]): string => cards.map((c) => c.label).join(" ");
/** What the two seats of a trade gave ("7♠ 8♠ for Q♥ any"). */
export const swapped = (gave: Card[][]): string => `${labels(gave[0] ?? [])} for ${labels(gave[1] ?? [])}`;
export const codesLabel = (codes: string[]): string => codes.map(faceLabel).join(" ");

/** Cards in the order a player sorts a hand: by suit, then by rank. */
export function sorted(cards: Card[]): Card[] {
  const order = "CDHS";
  return [...cards].sort(
    (a, b) => order.indexOf(a.suit) - order.indexOf(b.suit) || a.rank - b.rank || a.id - b.id,
  );
}

function Face({ card }: { card: Card }) {
  const suit = suitOf(card.suit);
  return (
    <>
      <span class="sr-only">{cardWords(card)}</span>
      <span class="pm-rank" aria-hidden="true">
        {rankShort(card.rank)}
      </span>
      <span class="pm-suit" aria-hidden="true">
        {suit.symbol}
      </span>
      <span class="pm-suit-name" aria-hidden="true">
        {suit.name}
      </span>
    </>
  );
}

const tone = (card: Card): string => (suitOf(card.suit).red ? "pm-red" : "pm-black");

/** A card shown (not something to press). */
export function CardView({ card, small }: { card: Card; small?: boolean }) {
  return (
    <span class={`pm-card ${tone(card)}${small ? " pm-small" : ""}`}>
      <Face card={card} />
    </span>
  );
}

/** A card in hand: pressing it selects it; pressed again, it is no longer selected. */
export function CardButton({ card, pressed, onPress }: { card: Card; pressed: boolean; onPress: () => void }) {
  return (
    <button type="button" class={`pm-card pm-card-button ${tone(card)}`} aria-pressed={pressed} onClick={onPress}>
      <Face card={card} />
    </button>
  );
}

/** A row of cards, with one name for the whole row. */
export function CardRow({ cards, label, small }: { cards: Card[]; label: string; small?: boolean }) {
  return (
    <ul class="cards pm-row" aria-label={label}>
      {cards.map((c) => (
        <li key={c.id}>
          <CardView card={c} {...(small ? { small } : {})} />
        </li>
      ))}
    </ul>
  );
}

/** A pattern named by face codes (the scores' and `best`'s evidence), as small cards. */
export function FaceRow({ codes, label }: { codes: string[]; label: string }) {
  return (
    <ul class="cards pm-row" aria-label={label}>
      {codes.map((code, i) => {
        const face = /^(A|[2-9]|10|J|Q|K)([CDHS])$/.exec(code);
        const suit = face?.[2] ?? "S";
        return (
          <li key={`${code}-${i}`}>
            <span class={`pm-card pm-small ${suitOf(suit).red ? "pm-red" : "pm-black"}`}>
              <span class="sr-only">{faceWords(code)}</span>
              <span class="pm-rank" aria-hidden="true">
                {face?.[1] ?? code}
              </span>
              <span class="pm-suit" aria-hidden="true">
                {suitOf(suit).symbol}
              </span>
              <span class="pm-suit-name" aria-hidden="true">
                {suitOf(suit).name}
              </span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
