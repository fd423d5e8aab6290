// The final scores with their evidence: each seat's shown arrangement (its longest
// pattern, its other patterns, its unused cards), its neighbours' longest patterns and
// the formula, as the service computed them (nothing is recomputed here: the sum
// printed is the service's `score`, the terms are its members).
import type { Schemas } from "../../lib/contract";
import type { TypesOf } from "../../lib/game";
import type { ScoresProps } from "../../lib/module";
import { FaceRow } from "./cards";

type G = TypesOf<"polymer">;
type SeatScore = Schemas["PolymerSeatScore"];

const RULES: Record<SeatScore["arrangement_rule"], string> = {
  longest_first:
    "A neighbour holds a pattern, so this hand shows its longest pattern first (the split that scores most).",
  most_other_patterns:
    "Neither neighbour holds a pattern, so only the other patterns count: this hand shows the split with the most (length - 1).",
};

const who = (seat: number, you: number | null): string => (seat === you ? `Seat ${seat} (you)` : `Seat ${seat}`);

function Evidence({ s, you }: { s: SeatScore; you: number | null }) {
  const n = s.neighbour_longest.left + s.neighbour_longest.right;
  const a = s.arrangement;
  return (
    <details class="evidence" open={s.seat === you || you === null}>
      <summary>
        {who(s.seat, you)}: {s.score} points
      </summary>
      <p class="pm-formula">
        Longest pattern {s.longest_length} × neighbours' longest ({s.neighbour_longest.left} + {s.neighbour_longest.right}{" "}
        = {n}) + other patterns {s.rest_value} = <strong>{s.score}</strong>
      </p>
      <p class="quiet">{RULES[s.arrangement_rule]}</p>
      <p class="quiet">
        Neighbours: seat {s.neighbours.left} on the left, seat {s.neighbours.right} on the right. Tie-break ranks (own
        longest pattern's top, then the neighbours'): {s.tie_break.join(", ")}.
      </p>
      <h4>Longest pattern ({a.longest.length} cards)</h4>
      {a.longest.length ? (
        <FaceRow codes={a.longest} label={`${who(s.seat, you)}'s longest pattern`} />
      ) : (
        <p class="quiet">No pattern.</p>
      )}
      {a.others.length > 0 && (
        <>
          <h4>Other patterns (each scores its length - 1)</h4>
          <div class="pm-patterns">
            {a.others.map((p, i) => (
              <FaceRow key={i} codes={p} label={`${who(s.seat, you)}'s other pattern ${i + 1} of ${a.others.length}`} />
            ))}
          </div>
        </>
      )}
      {a.unused.length > 0 && (
        <>
          <h4>Unused cards (score nothing)</h4>
          <FaceRow codes={a.unused} label={`${who(s.seat, you)}'s unused cards`} />
        </>
      )}
    </details>
  );
}

export function Scores({ scores, you }: ScoresProps<G>) {
  const places = new Map(scores.outcome.places.map((p) => [p.seat, p.place]));
  const order = [...scores.scores.seats].sort(
    (a, b) => (places.get(a.seat) ?? 99) - (places.get(b.seat) ?? 99) || a.seat - b.seat,
  );
  return (
    <section class="scores" aria-labelledby="scores-heading">
      <h2 id="scores-heading">{scores.scores.final ? "Final scores" : "Scores so far"}</h2>
      <p class="quiet">
        Score = (cards in your longest pattern) × (sum of your two neighbours' longest patterns) + (length - 1 of each
        other pattern).
      </p>
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="scores-heading">
        <table>
          <thead>
            <tr>
              <th scope="col">Place</th>
              <th scope="col">Seat</th>
              <th scope="col">Longest</th>
              <th scope="col">Neighbours' longest</th>
              <th scope="col">Other patterns</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {order.map((s) => (
              <tr key={s.seat} class={s.seat === you ? "you" : undefined}>
                <td>{places.get(s.seat) ?? "–"}</td>
                <th scope="row">{who(s.seat, you)}</th>
                <td>{s.longest_length}</td>
                <td>
                  {s.neighbour_longest.left} + {s.neighbour_longest.right}
                </td>
                <td>{s.rest_value}</td>
                <td>
                  <strong>{s.score}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {scores.outcome.tie_break && <p>Tie-break: {scores.outcome.tie_break}</p>}
      <h3>Why: each seat's patterns</h3>
      {order.map((s) => (
        <Evidence key={s.seat} s={s} you={you} />
      ))}
    </section>
  );
}
