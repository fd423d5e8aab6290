// One log line per event of the polymer-chain game: the rules' own explanation where
// the event carries one (all but a draw and the deal).
import type { Schemas } from "../../lib/contract";
import type { TypesOf } from "../../lib/game";

type G = TypesOf<"polymerization">;

export function winners(outcome: Schemas["Outcome"], you: number | null): string {
  const won = outcome.winners;
  if (won.length === 0) return "";
  const who = won.map((s) => (s === you ? "you" : `seat ${s}`));
  const names = who.length === 1 ? (who[0] ?? "") : `${who.slice(0, -1).join(", ")} and ${who[who.length - 1] ?? ""}`;
  const first = names.charAt(0).toUpperCase() + names.slice(1);
  if (won.length > 1) return `${first} share first place${outcome.tie_break ? ` (${outcome.tie_break})` : ""}.`;
  return `${first} ${won[0] === you ? "win" : "wins"}${outcome.tie_break ? ` (${outcome.tie_break})` : ""}.`;
}

export function describe(event: G["event"], you: number | null): string | null {
  switch (event.type) {
    case "game_started":
      return `The cards are dealt to ${event.players} players.`;
    case "card_drawn": {
      const drawn = event.cards?.map((c) => c.name + (c.value !== undefined ? ` ${c.value}` : "")).join(", ");
      const who = event.seat === you ? "You draw" : `Seat ${event.seat} draws`;
      return `${who} ${drawn ?? "a card"}; ${event.stack_count} left in the stack.`;
    }
    case "game_over":
      return `${event.explanation} ${winners(event, you)}`;
    case "card_discarded":
    case "chain_taken":
    case "chain_transfer":
    case "copolymerization":
    case "hand_emptied":
    case "initiation":
    case "propagation":
    case "reactivation":
    case "stack_empty":
    case "tempo_capping":
    case "termination":
      return event.explanation;
  }
}
