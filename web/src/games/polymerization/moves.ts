// The moves a selection of cards and chains makes, each with the words of its button.
// Pure: the seat page offers every one it builds and sends the one pressed; the rules
// answer (a refusal is shown in words), never this code.
import type { Schemas } from "../../lib/contract";
import { type Card, type Chain, cardLabel } from "./cards";

type Move = Schemas["PolymerizationSessionMoveRequest"]["move"];
type Rules = Schemas["PolymerizationRules"];

export interface Choice {
  move: Move;
  label: string;
}

const names = (cards: Card[]): string => cards.map(cardLabel).join(", ");
const ids = (cards: Card[]): number[] => cards.map((c) => c.id);
const withCards = (cards: Card[]): string => (cards.length ? ` with ${names(cards)}` : "");

/**
 * Every move the selection can mean: `cards` in the order selected, `chains` likewise.
 * One special card (an initiator or a joker) names the round; the monomers selected
 * go with it in their order.
 */
export function choices(cards: Card[], chains: Chain[], rules: Rules): Choice[] {
  const specials = cards.filter((c) => c.kind !== "monomer");
  const monomers = cards.filter((c) => c.kind === "monomer");
  const out: Choice[] = [];
  if (cards.length === 1 && chains.length === 0 && cards[0]) {
    out.push({ move: { type: "discard", card: cards[0].id }, label: `Discard ${cardLabel(cards[0])}` });
  }
  const special = specials.length === 1 ? specials[0] : undefined;
  if (specials.length > 1) return out;
  if (!special) {
    const chain = chains.length === 1 ? chains[0] : undefined;
    if (chain?.state === "growing" && monomers.length > 0) {
      out.push({
        move: { type: "propagate", chain: chain.id, cards: ids(monomers) },
        label: `Propagate chain ${chain.id}${withCards(monomers)}`,
      });
    }
    if (chain?.state === "capped") {
      out.push({
        move: { type: "reactivate", chain: chain.id, cards: ids(monomers) },
        label: `Reactivate chain ${chain.id} (TEMPO off)${withCards(monomers)}`,
      });
    }
    return out;
  }
  const chain = chains[0];
  switch (special.kind) {
    case "initiator": {
      if (chains.length > 0 || monomers.length === 0) break;
      const first = monomers[0];
      if (special.radicals === 2 && first && monomers.length >= 2) {
        out.push({
          move: { type: "initiate", card: special.id, monomers: [[first.id], ids(monomers.slice(1))] },
          label: `Initiate two chains with ${special.name}: ${cardLabel(first)} and ${names(monomers.slice(1))}`,
        });
      }
      if (special.radicals === 1 || rules.aibn_single_start || monomers.length < 2) {
        out.push({
          move: { type: "initiate", card: special.id, monomers: [ids(monomers)] },
          label: `Initiate one chain with ${special.name}: ${names(monomers)}`,
        });
      }
      break;
    }
    case "tempo":
      if (chains.length === 1 && chain && monomers.length === 0) {
        out.push({ move: { type: "cap", card: special.id, chain: chain.id }, label: `Cap chain ${chain.id} with TEMPO` });
      }
      break;
    case "cta":
      if (chains.length === 1 && chain) {
        out.push({
          move: { type: "transfer", card: special.id, chain: chain.id, monomers: ids(monomers) },
          label: `Transfer: the CTA terminates chain ${chain.id}, a new chain starts${withCards(monomers)}`,
        });
      }
      break;
    case "copolymer":
      if (chains.length === 1 && chain && monomers.length > 0) {
        out.push({
          move: { type: "copolymerize", card: special.id, chain: chain.id, monomers: ids(monomers) },
          label: `Copolymerize chain ${chain.id}${withCards(monomers)}`,
        });
      }
      break;
    case "termination": {
      const [a, b] = chains;
      if (chains.length !== 2 || !a || !b || monomers.length > 0) break;
      const mechanisms: Schemas["PolymerizationTerminationKind"][] =
        rules.termination_mechanism === "either" || !special.mechanism
          ? ["combination", "disproportionation"]
          : [special.mechanism];
      for (const mechanism of mechanisms) {
        out.push({
          move: { type: "terminate", card: special.id, chains: [a.id, b.id], mechanism },
          label: `Terminate chains ${a.id} and ${b.id} by ${mechanism}`,
        });
      }
      break;
    }
    case "monomer":
      break;
  }
  return out;
}

/** The cards and chains a legal move uses (to mark what can be played now). */
export function usedCards(move: Move): number[] {
  switch (move.type) {
    case "draw":
      return [];
    case "discard":
    case "cap":
      return [move.card];
    case "initiate":
      return [move.card, ...move.monomers.flat()];
    case "propagate":
      return move.cards;
    case "reactivate":
      return move.cards ?? [];
    case "transfer":
    case "copolymerize":
      return [move.card, ...move.monomers];
    case "terminate":
      return [move.card];
  }
}

export const ROUND_NAMES: Record<Move["type"], string> = {
  draw: "draw",
  discard: "discard",
  initiate: "initiate",
  propagate: "propagate",
  reactivate: "reactivate",
  cap: "cap with TEMPO",
  transfer: "chain transfer",
  copolymerize: "copolymerize",
  terminate: "terminate",
};
