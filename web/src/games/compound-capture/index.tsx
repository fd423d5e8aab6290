// Compound Capture: draw two cards, then capture a face-up compound by playing exactly
// its elements (wild cards may stand in, not all of them), or discard. 25 points a
// compound; cards left in hand cost points when the round ends.
import { useState } from "preact/hooks";
import type { Schemas } from "../../lib/contract";
import { common, endpoints, sessionOf, type Adapter, type TypesOf } from "../../lib/game";
import type { GameUi, PublicProps, ScoresProps, SeatProps } from "../../lib/module";
import { defineGame } from "../../ui/Play";
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
  describeShared,
  tableStatus,
  useSelection,
} from "../draw-two/table";

type G = TypesOf<"compound-capture">;

const adapt: Adapter<G> = {
  ...common,
  viewOf: sessionOf,
  create: (players, bots, options) => ({
    players,
    bots: bots as Schemas["CompoundCaptureBots"],
    options: options as Schemas["CompoundCaptureOptions"],
  }),
};

const status = (session: G["session"], you: number | null): string =>
  tableStatus(session, you, "capture a face-up compound with exactly its elements, or discard a card.");

function Seat({ session, legal, busy, act }: SeatProps<G>) {
  const view = session.view;
  const you = view.you;
  const hand = you?.hand ?? [];
  const [chosen, toggle, setChosen] = useSelection(hand);
  const [compound, setCompound] = useState<number | null>(null);
  if (!you || view.phase === "match_over") return null;
  const row = view.row.cards ?? [];
  const playing = view.turn?.seat === you.seat && view.turn.step === "play";
  const suggestions = playing
    ? captureSuggestions(legal, view, hand, (c, cards) => {
        setCompound(c);
        setChosen(cards);
      })
    : [];
  return (
    <section class="seat" aria-labelledby="hand-heading" data-version={session.version}>
      <h2 id="row-heading">Face-up compounds</h2>
      <p class="hint">Select the compound to capture, then the element and wild cards it needs.</p>
      <Row row={row} compound={row.some((c) => c.id === compound) ? compound : null} choose={setCompound} />
      <h2 id="hand-heading">Your hand</h2>
      <p class="hint" id="hand-hint">
        Select cards in the order they go onto the discard pile (the last ends on top). To discard, select one card.
      </p>
      <Hand hand={hand} chosen={chosen} toggle={toggle} />
      <Suggestions items={suggestions} heading="Captures you can make now" />
      <TurnActions
        view={view}
        you={you.seat}
        legal={legal}
        busy={busy}
        act={act}
        chosen={chosen}
        compound={row.some((c) => c.id === compound) ? compound : null}
        hand={hand}
      />
    </section>
  );
}

function Public({ session, you }: PublicProps<G>) {
  const view = session.view;
  return (
    <section class="table" aria-labelledby="table-heading">
      <h2 id="table-heading">The table</h2>
      <Piles view={view} showRow={you === null || view.phase === "match_over"} />
      {view.round_end && <RoundEnd result={view.round_end} round={view.match.round} you={you} />}
      <ul class="seats">
        {view.seats.map((s) => (
          <li key={s.seat} class={`seat-row${s.seat === you ? " you" : ""}`}>
            <SeatFacts seat={s} view={view} you={you} />
          </li>
        ))}
      </ul>
      {view.phase === "play" && (
        <p class="quiet">
          Turns without a capture: {view.quiet_turns} of {view.lap} (a lap of them ends the round).
        </p>
      )}
    </section>
  );
}

function Scores({ scores, you }: ScoresProps<G>) {
  return <MatchScores scores={scores} you={you} />;
}

function describe(event: G["event"], you: number | null): string | null {
  return describeShared(event, you) ?? null;
}

const ui: GameUi<G> = { status, Seat, Public, Scores, describe };

export default defineGame<G>({ api: endpoints("compound-capture"), adapt, ui });
