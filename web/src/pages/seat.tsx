// A seat's page: /play/<slug>/<session>/seat/<n>, opened from a join link whose
// fragment carries the seat's credential.
import { render } from "preact";
import { takeCredential } from "../lib/credentials";
import { placeOf } from "../lib/links";
import { loadGame } from "../games/index";
import { Message } from "../ui/Message";

const root = document.getElementById("app") as HTMLElement;
const place = placeOf(location.pathname);

async function main(): Promise<void> {
  if (place === null || place.seat === null) {
    render(<Message title="No such seat">This address names no seat of a game.</Message>, root);
    return;
  }
  // first of all: the credential leaves the address bar (and this history entry)
  const token = takeCredential(place.slug, place.sessionId, place.seat, location, history, sessionStorage);
  if (token === null) {
    render(
      <Message title={`Seat ${place.seat}`}>
        <p>
          This page needs the seat's join link (the one your teacher or the game's creator shared,
          or its QR code): open it again. A link is kept only in this browser tab.
        </p>
      </Message>,
      root,
    );
    return;
  }
  const game = await loadGame(place.slug);
  if (game === null) {
    render(
      <Message title="Not drawn in the browser yet">
        <p>
          This game ({place.slug}) has no browser table yet; it can be played through the API.
        </p>
      </Message>,
      root,
    );
    return;
  }
  render(game.page(place.sessionId, { seat: place.seat, token }), root);
}

void main();
