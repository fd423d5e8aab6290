// The games the pages can draw, by slug: each is one module of its own, loaded only
// when a page needs it (a chunk of its own in the build). To add a game, write
// src/games/<slug>/index.tsx (web/README.md says how) and add its line here.
import type { Slug } from "../lib/contract";
import type { GameModule } from "../lib/module";

export const GAMES: Readonly<Partial<Record<Slug, () => Promise<GameModule>>>> = {
  "element-draft": () => import("./element-draft/index").then((m) => m.default),
  "chemistry-battle": () => import("./chemistry-battle/index").then((m) => m.default),
  "compound-capture": () => import("./compound-capture/index").then((m) => m.default),
  "chemistry-canasta": () => import("./chemistry-canasta/index").then((m) => m.default),
  "metal-vs-nonmetal": () => import("./metal-vs-nonmetal/index").then((m) => m.default),
  polymerization: () => import("./polymerization/index").then((m) => m.default),
  polymer: () => import("./polymer/index").then((m) => m.default),
};

/** Whether the pages can draw this game (its slug is then one of the contract's). */
export const hasModule = (slug: string): slug is Slug => Object.hasOwn(GAMES, slug);

export async function loadGame(slug: string): Promise<GameModule | null> {
  const load = hasModule(slug) ? GAMES[slug] : undefined;
  return load ? load() : null;
}
