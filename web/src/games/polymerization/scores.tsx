// The final scores with their evidence: each seat's counted chains with their molar
// masses Mi (repeat units and end groups), and Mn, Mw and PDI with the arithmetic, as
// the service computed them (nothing is recomputed here).
import type { Schemas } from "../../lib/contract";
import type { TypesOf } from "../../lib/game";
import type { ScoresProps } from "../../lib/module";
import { grams } from "./cards";

type G = TypesOf<"polymerization">;
type SeatScore = Schemas["PolymerizationSeatScore"];

const RANKING: Record<Schemas["PolymerizationRanking"], string> = {
  mn_then_pdi: "higher Mn wins, lower PDI breaks a tie",
  pdi_then_mn: "lower PDI wins, higher Mn breaks a tie",
  pareto: "a seat beaten on neither Mn nor PDI shares first place",
};

const maybe = (n: number | null, f: (n: number) => string): string => (n === null ? "–" : f(n));

function ChainEvidence({ chain }: { chain: SeatScore["chains"][number] }) {
  const terms = chain.terms.map((t) => `${t.units} × ${t.molar_mass.toFixed(2)} (${t.monomer}) = ${t.mass.toFixed(2)}`);
  const ends = chain.end_groups.map((e) => `${e.group} ${e.mass.toFixed(2)}${e.counted ? "" : " (not counted)"}`);
  return (
    <li>
      Chain {chain.id} ({chain.state}
      {chain.mechanism ? `, ${chain.mechanism}` : ""}): {chain.units} monomers; Mi = {terms.join(" + ")}
      {ends.length ? `; end groups ${ends.join(", ")}` : ""} → <strong>{grams(chain.mi)}</strong>
    </li>
  );
}

export function Scores({ scores, you }: ScoresProps<G>) {
  const s = scores.scores;
  const places = new Map(scores.outcome.places.map((p) => [p.seat, p.place]));
  const order = [...s.seats].sort((a, b) => (places.get(a.seat) ?? 99) - (places.get(b.seat) ?? 99) || a.seat - b.seat);
  return (
    <section class="scores" aria-labelledby="scores-heading">
      <h2 id="scores-heading">{s.final ? "Final scores" : "Scores so far"}</h2>
      <p class="quiet">
        {s.scoring === "monomers"
          ? "Scored by the monomers in each seat's terminated chains: the most wins."
          : `Scored by Mn and PDI of each seat's terminated chains: ${RANKING[s.ranking]}.`}
      </p>
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="scores-heading">
        <table>
          <thead>
            <tr>
              <th scope="col">Place</th>
              <th scope="col">Seat</th>
              <th scope="col">Monomers</th>
              <th scope="col">Chains</th>
              <th scope="col">Mn (g/mol)</th>
              <th scope="col">Mw (g/mol)</th>
              <th scope="col">PDI</th>
            </tr>
          </thead>
          <tbody>
            {order.map((seat) => (
              <tr key={seat.seat} class={seat.seat === you ? "you" : undefined}>
                <td>{places.get(seat.seat) ?? "–"}</td>
                <th scope="row">
                  Seat {seat.seat}
                  {seat.seat === you ? " (you)" : ""}
                </th>
                <td>
                  <strong>{seat.monomers}</strong>
                </td>
                <td>{seat.sum_n}</td>
                <td>{maybe(seat.mn, (n) => n.toFixed(2))}</td>
                <td>{maybe(seat.mw, (n) => n.toFixed(2))}</td>
                <td>{maybe(seat.pdi, (n) => n.toFixed(3))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {scores.outcome.tie_break && <p>Tie-break: {scores.outcome.tie_break}</p>}
      <h3>Why: each seat's chains and the arithmetic</h3>
      {order.map((seat) => (
        <details key={seat.seat} class="evidence" open={seat.seat === you || you === null}>
          <summary>
            Seat {seat.seat}
            {seat.seat === you ? " (you)" : ""}: {seat.monomers} monomers in {seat.sum_n} chain
            {seat.sum_n === 1 ? "" : "s"}
          </summary>
          {seat.chains.length === 0 ? (
            <p class="quiet">No counted chain.</p>
          ) : (
            <>
              <ul>
                {seat.chains.map((c) => (
                  <ChainEvidence key={c.id} chain={c} />
                ))}
              </ul>
              <ul class="poly-arithmetic">
                <li>{seat.arithmetic.mn}</li>
                <li>{seat.arithmetic.mw}</li>
                <li>{seat.arithmetic.pdi}</li>
              </ul>
            </>
          )}
        </details>
      ))}
    </section>
  );
}
