"""Where the cards are, and who sees them.

- ``stack``: the face-down stack (hidden; everyone sees its count);
- ``discard``: the face-up second stack; its top is public, the cards under it are not
  (they are covered, as on a real table);
- ``hand``: one per seat, seen by its owner only until the game is over, then by
  everyone (docs/rules/polymerization.md, "The table at the end");
- ``table``: every card of every chain still on the table (growing or capped), public;
  which chain holds which card, in which order, is ``state["chains"]``;
- ``set_aside``: one per seat, the cards of the terminated chains that seat scores,
  public ("The cards forming the chains are put aside").
"""

from __future__ import annotations

from rules.core import State
from rules.zones import Layout, Seen, Zone

STACK = ("stack", None)
DISCARD = ("discard", None)
TABLE = ("table", None)

LAYOUT = Layout(
    (
        Zone("stack", Seen.HIDDEN),
        Zone("discard", Seen.TOP),
        Zone("hand", Seen.OWNER, per_seat=True, ordered=False, at_end=Seen.PUBLIC),
        Zone("table", Seen.PUBLIC, ordered=False),
        Zone("set_aside", Seen.PUBLIC, per_seat=True, ordered=False),
    )
)
"""The zones while the game is played."""
ENDED = LAYOUT.at_end()
"""The zones once the game is over: the hands are shown."""


def layout(state: State) -> Layout:
    """Who sees what in ``state``: the hands are shown once the game is over."""
    return ENDED if state["phase"] == "over" else LAYOUT


def hand(seat: int) -> tuple[str, int]:
    return ("hand", seat)


def set_aside(seat: int) -> tuple[str, int]:
    return ("set_aside", seat)
