// One log line per event of Metal vs. Non-Metal; the rules' own explanation where the
// event carries one.
import type { Schemas } from "../../lib/contract";
import type { TypesOf } from "../../lib/game";
import { signed } from "./cards";

type G = TypesOf<"metal-vs-nonmetal">;
type Card = Schemas["IonCard"];

const cardsWord = (n: number): string => `${n} card${n === 1 ? "" : "s"}`;
const named = (cards: Card[] | undefined): string => (cards && cards.length ? `: ${cards.map((c) => c.ion).join(", ")}` : "");

export function winners(outcome: Schemas["Outcome"], you: number | null): string {
  const won = outcome.winners;
  if (won.length === 0) return "";
  const who = won.map((s) => (s === you ? "you" : `seat ${s}`));
  const names = who.length === 1 ? (who[0] ?? "") : `${who.slice(0, -1).join(", ")} and ${who[who.length - 1] ?? ""}`;
  const first = names.charAt(0).toUpperCase() + names.slice(1);
  if (won.length > 1) return `${first} share first place${outcome.tie_break ? ` (${outcome.tie_break})` : ""}.`;
  return `${first} ${won[0] === you ? "win" : "wins"}.`;
}

const STOPPED: Record<Schemas["MetalVsNonmetalDrawingStopped"], string> = {
  different_ion: "it drew another ion",
  neutralised: "the charge is balanced",
  ion_deck_empty: "the Ion Deck is empty",
};

export function describe(event: G["event"], you: number | null): string | null {
  const who = (seat: number): string => (seat === you ? "You" : `Seat ${seat}`);
  switch (event.type) {
    case "game_started":
      return `Six cards are dealt to each of ${event.players} players.`;
    case "exchange_started": {
      const passed = event.passed_over.length ? ` Passed over (no cards): ${event.passed_over.join(", ")}.` : "";
      return `Exchange ${event.exchange}: seat ${event.initiator} initiates, seat ${event.responder} answers.${passed}`;
    }
    case "card_played":
      return `${who(event.seat)} lead${event.seat === you ? "" : "s"} ${event.ion} (${event.name}, charge ${signed(
        event.charge,
      )}); seat ${event.responder} must answer.`;
    case "cards_drawn":
      return `${who(event.seat)} draw${event.seat === you ? "" : "s"} ${cardsWord(event.count)}${named(event.cards)}${
        event.reason === "forced_draw" ? " (after a short answer)" : ""
      }; ${event.ion_deck_left} left in the Ion Deck.`;
    case "card_taken":
      return `Seat ${event.from_seat} has no possible answer: a random card of its hand${named(event.cards)} goes to seat ${
        event.seat
      }'s collection.`;
    case "responded":
      return `${who(event.seat)} answer${event.seat === you ? "" : "s"} with ${event.count} × ${event.ion} (total ${signed(
        event.total,
      )})${event.kind === "partial" ? ": a short answer, all it has of that ion" : ""}.`;
    case "forced_play":
      return `${who(event.seat)} drew ${event.ion} and must play it: total ${signed(event.total)}.`;
    case "forced_draws_ended":
      return `Seat ${event.seat} stops drawing: ${STOPPED[event.reason]} (${cardsWord(event.forced)} forced).`;
    case "power_play":
    case "declined":
    case "exchange_settled":
      return event.explanation;
    case "reinforced":
      return `${who(event.seat)} reinforce${event.seat === you ? "" : "s"} with ${event.count} × ${event.ion}: total ${signed(
        event.total,
      )}.`;
    case "cards_set_aside":
      return `${cardsWord(event.count)} never played by seat ${event.seat} ${event.count === 1 ? "is" : "are"} set aside${named(event.cards)}.`.replace(/^./, (c) => c.toUpperCase());
    case "game_over":
      return `The game is over: cards collected ${event.collected
        .map((n, seat) => `seat ${seat} ${n}`)
        .join(", ")}; ${event.unused} set aside. ${winners(event, you)}`;
  }
}
