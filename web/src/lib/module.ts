// A game module: what the seat and table pages need to draw one game. Each game is one
// module of its own under src/games/<slug>/, registered in src/games/index.ts; the
// pages pick it by the slug in their address.
import type { ComponentType } from "preact";
import type { Adapter, Endpoints, GameTypes } from "./game";
import type { MoveSpace } from "./live";

export interface SeatProps<G extends GameTypes> {
  session: G["session"];
  legal: G["move"][];
  /** The legal-moves answer's move space (forms to build the unlisted moves), if any. */
  space?: MoveSpace | null;
  busy: boolean;
  act: (move: G["move"]) => void;
  detail: G["detail"];
}

export interface PublicProps<G extends GameTypes> {
  session: G["session"];
  detail: G["detail"];
  /** The seat whose page this is; null on the table page. */
  you: number | null;
}

export interface ScoresProps<G extends GameTypes> {
  scores: G["scores"];
  session: G["session"];
  detail: G["detail"];
  you: number | null;
}

export interface GameUi<G extends GameTypes> {
  /** One line saying where the game stands for this seat (or the table). */
  status(session: G["session"], you: number | null): string;
  /** The seat's own part: its cards and its legal moves as actions. */
  Seat: ComponentType<SeatProps<G>>;
  /** What everyone sees: the table page, and the rest of the table on a seat page. */
  Public: ComponentType<PublicProps<G>>;
  /** The final scores with their evidence. */
  Scores: ComponentType<ScoresProps<G>>;
  /** A log line for an event, or null for one not worth a line. */
  describe(event: G["event"], you: number | null, detail: G["detail"]): string | null;
}

export interface Game<G extends GameTypes> {
  api: Endpoints<G>;
  adapt: Adapter<G>;
  ui: GameUi<G>;
}

/** A game for the pages, whatever its shapes. */
export interface GameModule {
  slug: string;
  /** Draws the game for this seat (credential) or for the table (null). */
  page(sessionId: string, seat: { seat: number; token: string } | null): preact.VNode;
  /** Creates a hosted session from the new-game page's form. */
  create(
    players: number,
    bots: Record<string, string>,
    options: Record<string, unknown>,
  ): Promise<import("./api").Answer<GameTypes["created"]>>;
}
