// A table's page for a projector: /play/<slug>/<session>/table. The public view and
// the live log; no credential.
import { render } from "preact";
import { placeOf } from "../lib/links";
import { loadGame } from "../games/index";
import { Message } from "../ui/Message";

const root = document.getElementById("app") as HTMLElement;
const place = placeOf(location.pathname);

async function main(): Promise<void> {
  if (place === null) {
    render(<Message title="No such table">This address names no game.</Message>, root);
    return;
  }
  const game = await loadGame(place.slug);
  if (game === null) {
    render(
      <Message title="Not drawn in the browser yet">
        <p>This game ({place.slug}) has no browser table yet.</p>
      </Message>,
      root,
    );
    return;
  }
  render(game.page(place.sessionId, null), root);
}

void main();
