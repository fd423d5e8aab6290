// Chemistry Canasta: Compound Capture's table and turn with the Basic Deck of 54
// Elements added, and runs: 3 or more cards of consecutive atomic numbers laid on a
// seat's board (10 points a place), extended at either end, their wild cards claimed
// with the element they stand for. A seat that plays its last card goes out.
import { useState } from "preact/hooks";
import type { Schemas } from "../../lib/contract";
import { common, endpoints, sessionOf, type Adapter, type TypesOf } from "../../lib/game";
import type { GameUi, PublicProps, ScoresProps, SeatProps } from "../../lib/module";
import { defineGame } from "../../ui/Play";
import { FaceView, faceName, type Face } from "../draw-two/cards";
import {
  Hand,
  MatchScores,
  Piles,
  RoundEnd,
  Row,
  SeatFacts,
  Suggestions,
  TurnActions,
  captureSuggestions,
  cardsText,
  describeShared,
  plural,
  Seat as Who,
  tableStatus,
  useSelection,
  type Suggestion,
} from "../draw-two/table";

type G = TypesOf<"chemistry-canasta">;
type View = Schemas["ChemistryCanastaView"];
type Run = Schemas["ChemistryCanastaRun"];
type RunEnd = Schemas["ChemistryCanastaRunEnd"];

const adapt: Adapter<G> = {
  ...common,
  viewOf: sessionOf,
  create: (players, bots, options) => ({
    players,
    bots: bots as Schemas["ChemistryCanastaBots"],
    options: options as Schemas["ChemistryCanastaOptions"],
  }),
};

const status = (session: G["session"], you: number | null): string =>
  tableStatus(session, you, "capture a compound, lay or extend runs, claim a wild card, then discard (or go out).");

const runKey = (owner: number, run: number): string => `${owner}:${run}`;
const runName = (run: Run, you: number | null): string =>
  `${run.owner === you ? "your" : `seat ${run.owner}'s`} run ${run.run + 1} (${run.positions[0]?.symbol ?? ""} ${run.low} to ${
    run.positions[run.positions.length - 1]?.symbol ?? ""
  } ${run.high})`;

function allRuns(view: View): Run[] {
  return view.seats.flatMap((s) => s.runs);
}

/** Runs, extensions and claims the rules list as legal, as shortcuts that select. */
function meldSuggestions(
  legal: G["move"][],
  view: View,
  hand: Face[],
  you: number,
  select: (cards: number[], run: string | null) => void,
): Suggestion[] {
  const runs = new Map(allRuns(view).map((r) => [runKey(r.owner, r.run), r]));
  return legal.flatMap((m): Suggestion[] => {
    if (m.type === "run") {
      return [{ key: `run-${m.cards.join("-")}`, text: `lay a run of ${cardsText(m.cards, hand)}`, pick: () => select(m.cards, null) }];
    }
    if (m.type === "extend") {
      const run = runs.get(runKey(m.owner, m.run));
      return [
        {
          key: `extend-${m.owner}-${m.run}-${m.end}-${m.cards.join("-")}`,
          text: `extend ${run ? runName(run, you) : "a run"} at its ${m.end} end with ${cardsText(m.cards, hand)}`,
          pick: () => select(m.cards, runKey(m.owner, m.run)),
        },
      ];
    }
    if (m.type === "claim") {
      const run = runs.get(runKey(m.owner, m.run));
      return [
        {
          key: `claim-${m.owner}-${m.run}-${m.card}`,
          text: `claim the wild card of ${run ? runName(run, you) : "a run"} with ${cardsText([m.card], hand)}`,
          pick: () => select([m.card], runKey(m.owner, m.run)),
        },
      ];
    }
    return [];
  });
}

function Seat({ session, legal, busy, act }: SeatProps<G>) {
  const view = session.view;
  const you = view.you;
  const hand = you?.hand ?? [];
  const [chosen, toggle, setChosen] = useSelection(hand);
  const [compound, setCompound] = useState<number | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  if (!you || view.phase === "match_over") return null;
  const row = view.row.cards ?? [];
  const runs = allRuns(view);
  const run = runs.find((r) => runKey(r.owner, r.run) === target) ?? null;
  const playing = view.turn?.seat === you.seat && view.turn.step === "play";
  const suggestions = playing
    ? [
        ...captureSuggestions(legal, view, hand, (c, cards) => {
          setCompound(c);
          setChosen(cards);
          setTarget(null);
        }),
        ...meldSuggestions(legal, view, hand, you.seat, (cards, r) => {
          setChosen(cards);
          setTarget(r);
          setCompound(null);
        }),
      ]
    : [];
  const one = chosen.length === 1 ? hand.find((c) => c.id === chosen[0]) : undefined;
  const extend = (end: RunEnd) => run && act({ type: "extend", owner: run.owner, run: run.run, end, cards: chosen });
  return (
    <section class="seat" aria-labelledby="hand-heading" data-version={session.version}>
      <h2 id="row-heading">Face-up compounds</h2>
      <p class="hint">To capture, select the compound, then the element and wild cards it needs.</p>
      <Row row={row} compound={row.some((c) => c.id === compound) ? compound : null} choose={setCompound} />
      <h2 id="hand-heading">Your hand</h2>
      <p class="hint" id="hand-hint">
        Select cards in order: for a run or an extension, lowest atomic number first (a wild card stands for the number of its
        place); for a capture, the last ends on top of the discard pile. To discard, or to claim a wild card, select one card.
      </p>
      <Hand hand={hand} chosen={chosen} toggle={toggle} />
      {runs.length > 0 && (
        <fieldset class="dt-run-pick">
          <legend>Run to extend, or to claim a wild card from</legend>
          {runs.map((r) => {
            const key = runKey(r.owner, r.run);
            return (
              <label key={key} class="field-check">
                <input type="radio" name="run-target" checked={key === target} onChange={() => setTarget(key)} />
                <span>
                  {runName(r, you.seat)}
                  {r.wilds > 0 ? `, ${plural(r.wilds, "wild card")}` : ""}
                </span>
              </label>
            );
          })}
        </fieldset>
      )}
      <Suggestions items={suggestions} heading="Moves you can make now" />
      <TurnActions
        view={view}
        you={you.seat}
        legal={legal}
        busy={busy}
        act={act}
        chosen={chosen}
        compound={row.some((c) => c.id === compound) ? compound : null}
        hand={hand}
      >
        <button type="button" class="act" disabled={busy || chosen.length < 3} onClick={() => act({ type: "run", cards: chosen })}>
          {chosen.length >= 3 ? `Lay a run of ${cardsText(chosen, hand)}` : "Lay a run: select 3 or more cards"}
        </button>
        {runs.length > 0 && (
          <>
            <button type="button" class="act" disabled={busy || !run || chosen.length === 0} onClick={() => extend("low")}>
              {run ? `Extend ${runName(run, you.seat)} below ${run.low}` : "Extend a run below: select the run"}
            </button>
            <button type="button" class="act" disabled={busy || !run || chosen.length === 0} onClick={() => extend("high")}>
              {run ? `Extend ${runName(run, you.seat)} above ${run.high}` : "Extend a run above: select the run"}
            </button>
          </>
        )}
        {runs.some((r) => r.wilds > 0) && (
          <button
            type="button"
            class="act"
            disabled={busy || !run || !one}
            onClick={() => run && one && act({ type: "claim", owner: run.owner, run: run.run, card: one.id })}
          >
            {run && one
              ? `Claim the wild card of ${runName(run, you.seat)} with ${faceName(one)}`
              : "Claim a wild card: select a run and one element"}
          </button>
        )}
      </TurnActions>
    </section>
  );
}

/** What a place adds to its card: the number a wild card stands for, who laid it. */
function placeNote(p: Run["positions"][number], owner: number, you: number | null): string | undefined {
  const parts = [p.wild ? `as ${p.symbol} ${p.number}` : "", p.by !== owner ? `by ${p.by === you ? "you" : `seat ${p.by}`}` : ""];
  return parts.filter(Boolean).join(" · ") || undefined;
}

function RunView({ run, you }: { run: Run; you: number | null }) {
  return (
    <li>
      <p class="dt-run-name">
        Run {run.run + 1}: {run.positions[0]?.symbol} {run.low} to {run.positions[run.positions.length - 1]?.symbol} {run.high},{" "}
        {plural(run.length, "card")}
        {run.wilds > 0 ? `, ${plural(run.wilds, "wild card")}` : ""}
      </p>
      <ol class="cards dt-run" aria-label={`Run ${run.run + 1} of seat ${run.owner}`}>
        {run.positions.map((p) => (
          <li key={p.number}>
            <FaceView
              card={p.card}
              small
              note={placeNote(p, run.owner, you)}
            />
          </li>
        ))}
      </ol>
    </li>
  );
}

function Public({ session, you }: PublicProps<G>) {
  const view = session.view;
  return (
    <section class="table" aria-labelledby="table-heading">
      <h2 id="table-heading">The table</h2>
      <Piles view={view} showRow={you === null || view.phase === "match_over"} />
      <p class="quiet">
        Runs: {view.runs_rule === "own" ? "3 or more cards; a seat extends its own" : view.runs_rule === "anyone" ? "3 or more; anyone may extend any run" : "exactly 3 cards"} ·
        deck refills {view.reshuffles.used} of {view.reshuffles.allowed}
      </p>
      {view.round_end && <RoundEnd result={view.round_end} round={view.match.round} you={you} />}
      <ul class="seats">
        {view.seats.map((s) => (
          <li key={s.seat} class={`seat-row${s.seat === you ? " you" : ""}`}>
            <SeatFacts seat={s} view={view} you={you} />
            <p class="seat-facts">
              <span>{plural(s.run_cards, "run place")} laid</span>
              <span>{s.run_points} run points</span>
            </p>
            {s.runs.length > 0 ? (
              <ul class="dt-board" aria-label={`Seat ${s.seat}'s runs`}>
                {s.runs.map((r) => (
                  <RunView key={r.run} run={r} you={you} />
                ))}
              </ul>
            ) : (
              <p class="quiet">No run on this board.</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Scores({ scores, you }: ScoresProps<G>) {
  return <MatchScores scores={scores} you={you} />;
}

function describe(event: G["event"], you: number | null): string | null {
  switch (event.type) {
    case "run_laid":
    case "run_extended":
      return `${Who(event.seat, you)}: ${event.text}. ${event.explanation} (+${event.points})`;
    case "wild_claimed":
      return event.text;
    case "went_out":
      return event.text;
    default:
      return describeShared(event, you) ?? null;
  }
}

const ui: GameUi<G> = { status, Seat, Public, Scores, describe };

export default defineGame<G>({ api: endpoints("chemistry-canasta"), adapt, ui });
