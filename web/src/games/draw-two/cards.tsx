// The cards of the draw-two table (Compound Capture and Chemistry Canasta), drawn from
// the view's own data: a compound card with its formula, name, bonding, the element
// cards a capture needs, its ions with their charges and its molar mass; an element
// card with its symbol, atomic number and name; a wild card with the law it states.
// Each is said in words for a screen reader; the border's colour (red covalent, purple
// ionic, green wild) always comes with its word printed on the card.
import type { Schemas } from "../../lib/contract";

/** A card of either game (both are the contract's draw-two face plus their `deck`). */
export type Face = Schemas["CompoundCaptureCard"] | Schemas["ChemistryCanastaCard"];

/** "2 × Na+, 1 × O2-": each ion as the service writes it, and how many. */
export const ionsText = (card: Face): string => (card.ions ?? []).map((ion) => `${ion.count} × ${ion.ion}`).join(", ");

/** The ions in words: "2 Na+ ions (charge +1 each), 1 O2- ion (charge -2)". */
const ionsWords = (card: Face): string =>
  (card.ions ?? [])
    .map((ion) => {
      const sign = ion.charge > 0 ? `+${ion.charge}` : `${ion.charge}`;
      return `${ion.count} ${ion.ion} ion${ion.count === 1 ? "" : "s"} (charge ${sign}${ion.count === 1 ? "" : " each"})`;
    })
    .join(", ");

/** What a capture of this compound needs: "C + O + O". */
export const recipe = (card: Face): string =>
  (card.elements ?? []).flatMap((e) => Array.from({ length: e.count }, () => e.symbol)).join(" + ");

/** A short name: "CO2 (Carbon dioxide)", "O (Oxygen, 8)", "wild card (Charles's Law)". */
export function faceName(card: Face): string {
  if (card.kind === "compound") return `${card.formula ?? "?"} (${card.name ?? card.formula ?? ""})`;
  if (card.kind === "element") return `${card.symbol ?? "?"} (${card.name ?? ""}${card.z ? `, ${card.z}` : ""})`;
  return `wild card (${card.law ?? "a law"})`;
}

/** The whole card in words, for a screen reader. */
export function describeFace(card: Face): string {
  if (card.kind === "compound") {
    const parts = [
      `Compound ${card.formula ?? ""}, ${card.name ?? ""}`,
      card.bonding ? `${card.bonding} bonding` : "",
      `a capture needs ${recipe(card)}`,
      card.ions ? `ions: ${ionsWords(card)}` : "",
      card.molar_mass !== undefined ? `molar mass ${card.molar_mass} grams per mole` : "",
    ];
    return parts.filter(Boolean).join(", ");
  }
  if (card.kind === "element") return `Element ${card.name ?? ""}, symbol ${card.symbol ?? ""}, atomic number ${card.z ?? ""}`;
  return `Wild card: ${card.law ?? ""}`;
}

function FaceParts({ card }: { card: Face }) {
  if (card.kind === "compound") {
    return (
      <>
        <span class="card-z" aria-hidden="true">
          {card.bonding ?? ""}
        </span>
        <span class="card-symbol dt-formula" aria-hidden="true">
          {card.formula}
        </span>
        <span class="card-name" aria-hidden="true">
          {card.name}
        </span>
        <span class="card-mass" aria-hidden="true">
          {card.ions ? ionsText(card) : recipe(card)}
        </span>
        <span class="card-family" aria-hidden="true">
          {card.molar_mass !== undefined ? `${card.molar_mass} g/mol` : ""}
        </span>
      </>
    );
  }
  if (card.kind === "element") {
    return (
      <>
        <span class="card-z" aria-hidden="true">
          {card.z}
        </span>
        <span class="card-symbol" aria-hidden="true">
          {card.symbol}
        </span>
        <span class="card-name" aria-hidden="true">
          {card.name}
        </span>
        <span class="card-family" aria-hidden="true">
          element
        </span>
      </>
    );
  }
  return (
    <>
      <span class="card-z" aria-hidden="true">
        wild
      </span>
      <span class="card-symbol" aria-hidden="true">
        ★
      </span>
      <span class="card-name" aria-hidden="true">
        {card.law}
      </span>
      <span class="card-family" aria-hidden="true">
        stands for any element
      </span>
    </>
  );
}

const kindClass = (card: Face): string =>
  card.kind === "compound" ? `dt-compound dt-${card.bonding ?? "covalent"}` : `dt-${card.kind}`;

/** A card on the table (not something to press). */
export function FaceView({ card, small, note }: { card: Face; small?: boolean; note?: string | undefined }) {
  return (
    <span class={`card dt-card ${kindClass(card)}${small ? " card-small" : ""}`}>
      <span class="sr-only">{describeFace(card)}</span>
      <FaceParts card={card} />
      {note && <span class="card-note">{note}</span>}
    </span>
  );
}

/** A card to select: `order` is its place in the selection (1 = first), or null. */
export function FaceButton({
  card,
  order,
  onPress,
  small,
  numbered = true,
}: {
  card: Face;
  order: number | null;
  onPress: () => void;
  small?: boolean;
  /** Whether its place in the selection is shown (the hand's order matters). */
  numbered?: boolean;
}) {
  return (
    <button
      type="button"
      class={`card card-button dt-card ${kindClass(card)}${small ? " card-small" : ""}`}
      aria-pressed={order !== null}
      onClick={onPress}
    >
      <span class="sr-only">{describeFace(card)}</span>
      <FaceParts card={card} />
      {order !== null && numbered && (
        <span class="card-note" aria-hidden="true">
          #{order}
        </span>
      )}
    </button>
  );
}

/** A face-down pile: its count, in words and drawn as a back. */
export function Back({ count, label }: { count: number; label: string }) {
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
