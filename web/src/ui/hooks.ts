import { useEffect, useState } from "preact/hooks";
import type { GameTypes } from "../lib/game";
import type { LiveTable, TableState } from "../lib/live";

/** The table's state, re-rendered on every change; started on mount, stopped after. */
export function useTable<G extends GameTypes>(table: LiveTable<G>): TableState<G> {
  const [state, setState] = useState(table.state);
  useEffect(() => {
    const unsubscribe = table.subscribe(() => setState(table.state));
    void table.start();
    return () => {
      unsubscribe();
      table.stop();
    };
  }, [table]);
  return state;
}
