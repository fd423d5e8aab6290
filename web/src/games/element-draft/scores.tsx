// The final scores with their evidence: each of the six categories, as the service
// computed them (nothing is recomputed here).
import { useMemo } from "preact/hooks";
import type { Schemas } from "../../lib/contract";
import type { TypesOf } from "../../lib/game";
import type { ScoresProps } from "../../lib/module";
import { elements } from "./cards";

type G = TypesOf<"element-draft">;
type SeatScore = Schemas["ElementDraftSeatScore"];
type Element = Schemas["ElementDraftDeckCard"];

const CATEGORIES = [
  ["atomic_number", "Atomic number"],
  ["atomic_mass", "Atomic mass"],
  ["atomic_symbol", "Atomic symbol"],
  ["ionization", "Ionization"],
  ["family", "Family"],
  ["radioactivity", "Radioactivity"],
] as const;

const signed = (n: number): string => (n > 0 ? `+${n}` : `${n}`);
const points = (n: number): string => `${signed(n)} point${Math.abs(n) === 1 ? "" : "s"}`;

function symbols(zs: number[], table: Map<number, Element>): string {
  return zs.map((z) => `${table.get(z)?.symbol ?? "?"} ${z}`).join(", ");
}

function evidence(score: SeatScore, table: Map<number, Element>, familyName: (k: string) => string): string[] {
  const c = score.categories;
  const lines: string[] = [];
  const run = c.atomic_number;
  lines.push(
    run.run.length > 1
      ? `Atomic number: run of ${run.run.length} (${symbols(run.run, table)}), ${run.counted} counted: ${points(run.points)}.`
      : `Atomic number: no run of consecutive atomic numbers: ${points(run.points)}.`,
  );
  const mass = c.atomic_mass;
  const sides = mass.neighbours
    .map((n) => `${n.side} neighbour seat ${n.seat} has ${n.their_mass_exact} u (${points(n.points)})`)
    .join("; ");
  lines.push(`Atomic mass: ${mass.mass_exact} u; ${sides}: ${points(mass.points)} in all.`);
  const word = c.atomic_symbol.word;
  lines.push(word ? `Atomic symbol: ${word.explanation}` : `Atomic symbol: no word spelled: ${points(0)}.`);
  const ions = c.ionization;
  lines.push(
    ions.pairs.length > 0
      ? `Ionization: ${ions.pairs.map((p) => `${p.formula} (${p.cation_ion} with ${p.anion_ion})`).join(", ")}: ${points(ions.points)}.`
      : `Ionization: no ion pair of equal and opposite charge: ${points(ions.points)}.`,
  );
  const fam = c.family;
  const counts = Object.entries(fam.families)
    .map(([key, n]) => `${familyName(key)} ${n}`)
    .join(", ");
  lines.push(
    `Family: ${fam.distinct} famil${fam.distinct === 1 ? "y" : "ies"} (${counts || "none"}), largest ${fam.largest}, counted ${fam.counted}: ${points(fam.points)}.`,
  );
  const rad = c.radioactivity;
  lines.push(
    rad.applies
      ? `Radioactivity: ${rad.radioactive.length ? symbols(rad.radioactive, table) : "no radioactive card"}: ${points(rad.points)}.`
      : "Radioactivity: scored only with 7 players or more.",
  );
  return lines;
}

export function Scores({ scores, detail, you }: ScoresProps<G>) {
  const table = useMemo(() => elements(detail), [detail]);
  const familyName = (key: string): string => detail.deck.find((d) => d.family === key)?.family_name ?? key;
  const places = new Map(scores.outcome.places.map((p) => [p.seat, p.place]));
  const order = [...scores.scores.seats].sort(
    (a, b) => (places.get(a.seat) ?? 99) - (places.get(b.seat) ?? 99) || a.seat - b.seat,
  );
  return (
    <section class="scores" aria-labelledby="scores-heading">
      <h2 id="scores-heading">{scores.scores.final ? "Final scores" : "Scores so far"}</h2>
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="scores-heading">
        <table>
          <thead>
            <tr>
              <th scope="col">Place</th>
              <th scope="col">Seat</th>
              {CATEGORIES.map(([key, label]) => (
                <th scope="col" key={key}>
                  {label}
                </th>
              ))}
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {order.map((s) => (
              <tr key={s.seat} class={s.seat === you ? "you" : undefined}>
                <td>{places.get(s.seat) ?? "–"}</td>
                <th scope="row">
                  Seat {s.seat}
                  {s.seat === you ? " (you)" : ""}
                </th>
                {CATEGORIES.map(([key]) => (
                  <td key={key}>{s.categories[key].points}</td>
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
      <h3>Why: each seat's evidence</h3>
      {order.map((s) => (
        <details key={s.seat} class="evidence" open={s.seat === you || you === null}>
          <summary>
            Seat {s.seat}
            {s.seat === you ? " (you)" : ""}: {s.total} points
          </summary>
          <ul>
            {evidence(s, table, familyName).map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </details>
      ))}
    </section>
  );
}
