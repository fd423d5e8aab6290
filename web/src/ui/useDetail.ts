import { useEffect, useState } from "preact/hooks";
import type { Endpoints, GameTypes } from "../lib/game";

/** The game's catalogue entry (title, deck...): fetched once, cached by the browser. */
export function useDetail<G extends GameTypes>(api: Endpoints<G>): G["detail"] | null {
  const [detail, setDetail] = useState<G["detail"] | null>(null);
  useEffect(() => {
    let live = true;
    void api.detail().then((answer) => {
      if (live && answer.ok) setDetail(answer.data);
    });
    return () => {
      live = false;
    };
  }, [api]);
  return detail;
}
