import { useEffect, useRef } from "preact/hooks";
import type { GameTypes } from "../lib/game";
import type { LogEntry } from "../lib/live";

export type Describe<G extends GameTypes> = (event: G["event"]) => string | null;

/** The events' explanations as a running log, newest last. */
export function Log<G extends GameTypes>({ log, describe }: { log: LogEntry<G>[]; describe: Describe<G> }) {
  const lines: { key: string; text: string; mine: boolean }[] = [];
  for (const entry of log) {
    if (entry.missed > 0) {
      lines.push({
        key: `${entry.version}-missed`,
        text: `Reconnected: ${entry.missed} move${entry.missed === 1 ? "" : "s"} made while this page was away ${
          entry.missed === 1 ? "is" : "are"
        } not in this log; the table shows them.`,
        mine: false,
      });
      continue;
    }
    entry.events.forEach((event, i) => {
      const text = describe(event);
      if (text !== null) lines.push({ key: `${entry.version}-${i}`, text, mine: entry.mine });
    });
  }
  const scroller = useRef<HTMLDivElement>(null);
  // the newest line in sight (the log scrolls inside its box)
  useEffect(() => {
    const box = scroller.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [lines.length]);
  return (
    <section class="log" aria-labelledby="log-heading">
      <h2 id="log-heading">What happened</h2>
      {lines.length === 0 ? (
        <p class="quiet">Nothing yet since this page opened.</p>
      ) : (
        // focusable, so the keyboard can scroll it too
        <div class="log-box" ref={scroller} tabIndex={0} role="region" aria-labelledby="log-heading">
          <ol class="log-lines" aria-live="polite" aria-relevant="additions">
            {lines.map((line) => (
              <li key={line.key} class={line.mine ? "mine" : undefined}>
                {line.text}
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
