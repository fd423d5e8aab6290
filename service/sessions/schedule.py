"""When a real-time game's work falls due: its bot seats' next moves and its deadline.

A hosted game with a clock has work nobody asks for: the service's bot seats act at
a human pace, and the timer reaching zero ends the game. Both are items of due work
(``service/sessions/due.py``), scheduled here and run by ``service/sessions/realtime.py``:

* ``bot:<slug>/<session>/<seat>``: a bot seat's next move. Due at once when the
  session is created (before the clock starts, a bot declares its seat ready), then
  each time after the think time the game's ``Clock.pace`` draws; and when a commit
  gives it something new to answer first (an offer made to it, a loan called in:
  ``Clock.answers``), a think time after that moment, sooner or later than it was
  due (a person starts to think about an offer when it comes, not at their last move).
* ``deadline:<slug>/<session>``: the game's deadline transition (time-up), due when
  the clock says.
* ``callback:<slug>/<session>``: what its operator's callback has to be told
  (``service/sessions/deliveries.py``), due when a commit put an event in its outbox
  or a retry's time has come.

Both are scheduled before the commit that makes them due (the move that starts the
clock), so an instance that dies between the two leaves an item that finds nothing to
do, never a game whose bots stand still.
"""

from __future__ import annotations

from ..games.registry import GameApi
from ..games.tokens import Envelope
from ..http.context import find_extension
from .due import DueWork

BOT = "bot"
DEADLINE = "deadline"
CALLBACK = "callback"
SWEEP_MS = 60_000
"""While a game with a callback is played, its outbox is looked at this often at least:
an ending whose due work was lost (an instance dying between its commit and scheduling
the delivery) is delivered a minute late, not never."""


def due_work() -> DueWork | None:
    found: DueWork | None = find_extension("chemgames.due")
    return found


def bot_member(slug: str, session_id: str, seat: int) -> str:
    return DueWork.member(BOT, f"{slug}/{session_id}/{seat}")


def deadline_member(slug: str, session_id: str) -> str:
    return DueWork.member(DEADLINE, f"{slug}/{session_id}")


def callback_member(slug: str, session_id: str) -> str:
    return DueWork.member(CALLBACK, f"{slug}/{session_id}")


def callback(slug: str, session_id: str, at_ms: int) -> None:
    """A session's callback has something to deliver (or to look for) at ``at_ms``."""
    due = due_work()
    if due is not None:
        due.schedule({callback_member(slug, session_id): at_ms})


def paced(api: GameApi, env: Envelope) -> bool:
    """Whether the service plays seats of this game on the server's clock."""
    return bool(env.bots) and api.clock is not None and api.clock.pace is not None


def created(api: GameApi, env: Envelope, now_ms: int) -> None:
    """A new session's bot seats act at once (they declare their seats ready)."""
    due = due_work()
    if due is not None and paced(api, env):
        due.schedule({bot_member(api.slug, env.game_id, seat): now_ms for seat in env.bots})


def next_move(api: GameApi, env: Envelope, seat: int, now_ms: int) -> int:
    """When a bot seat acts next: after the think time its game draws."""
    assert api.clock is not None and api.clock.pace is not None
    return now_ms + api.clock.pace(env.state, seat, env.version)


def answer_at(api: GameApi, env: Envelope, seat: int) -> int | None:
    """When bot seat ``seat`` may answer what it must answer first (``Clock.answers``:
    a think time after it came); None when nothing waits for it."""
    clock = api.clock
    waiting = clock.answers(env.state, seat) if clock and clock.answers else []
    return waiting[0][1] if waiting else None


def answering(api: GameApi, before: Envelope, after: Envelope) -> dict[str, int]:
    """The bot seats this commit gives something new to answer first, each due when it
    may answer it."""
    clock = api.clock
    if clock is None or clock.answers is None or not paced(api, after):
        return {}
    items = {}
    for seat in after.bots:
        waiting = clock.answers(after.state, seat)
        if waiting and waiting[0][0] not in {key for key, _ in clock.answers(before.state, seat)}:
            items[bot_member(api.slug, after.game_id, seat)] = waiting[0][1]
    return items


def committing(api: GameApi, before: Envelope, after: Envelope, now_ms: int) -> None:
    """Before a commit: if it starts the game's clock, its deadline and the bot seats'
    first moves fall due; a bot seat it gives something new to answer first answers a
    think time after it (a commit that then fails only makes that bot look again)."""
    clock, due = api.clock, due_work()
    if clock is None or due is None:
        return
    due.reschedule(answering(api, before, after))
    if clock.deadline(before.state) is not None:
        return
    deadline = clock.deadline(after.state)
    if deadline is None:
        return
    items = {deadline_member(api.slug, after.game_id): deadline}
    if paced(api, after):
        for seat in after.bots:
            items[bot_member(api.slug, after.game_id, seat)] = next_move(api, after, seat, now_ms)
    due.schedule(items)
