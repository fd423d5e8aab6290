// The final scores with their evidence: each seat's cards collected, by ion, and the
// exchanges it won, as the service counted them (nothing is recomputed here).
import type { TypesOf } from "../../lib/game";
import type { ScoresProps } from "../../lib/module";

type G = TypesOf<"metal-vs-nonmetal">;

const listed = (by: Record<string, number> | null): string =>
  by === null
    ? "face down until the game ends"
    : Object.entries(by)
        .map(([ion, n]) => `${n} × ${ion}`)
        .join(", ") || "none";

export function Scores({ scores, you }: ScoresProps<G>) {
  const places = new Map(scores.outcome.places.map((p) => [p.seat, p.place]));
  const order = [...scores.scores.seats].sort(
    (a, b) => (places.get(a.seat) ?? 99) - (places.get(b.seat) ?? 99) || a.seat - b.seat,
  );
  return (
    <section class="scores" aria-labelledby="scores-heading">
      <h2 id="scores-heading">{scores.scores.final ? "Final scores" : "Scores so far"}</h2>
      <p class="quiet">The most cards collected wins; cards set aside ({scores.scores.set_aside}) count for nobody.</p>
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="scores-heading">
        <table>
          <thead>
            <tr>
              <th scope="col">Place</th>
              <th scope="col">Seat</th>
              <th scope="col">Cards collected</th>
              <th scope="col">By ion</th>
              <th scope="col">Exchanges won</th>
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
                <td>
                  <strong>{s.collected}</strong>
                </td>
                <td>{listed(s.by_ion)}</td>
                <td>{s.exchanges_won.length ? s.exchanges_won.join(", ") : "none"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {scores.outcome.tie_break && <p>Tie-break: {scores.outcome.tie_break}</p>}
    </section>
  );
}
