"""Where Chemistry Battle's cards lie and who sees them: the zone layout of a state.

The hand's visibility depends on the option ``hand_play`` (held and chosen from, or a
face-down stack); collected round cards lie face down (option ``collected``). Once the
game is over every seat's cards are turned up, as they are counted: its hand, its
captured kitty cards and its collected cards (docs/rules/chemistry-battle.md, "The
table at the end"). From the layout come the views' piles, the events' card movements,
the conservation check and the resampling of what a seat cannot see
(:class:`rules.zones.Layout`).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.core import State
from rules.zones import Layout, Seen, Zone

SHOWN = Seen.PUBLIC
"""Who sees a seat's cards once the game is over: "The cards are counted"."""

HANDS: Mapping[str, Zone] = {
    # a hand held in the hand: its owner sees it and chooses; the order is not part of play
    "choice": Zone("hand", Seen.OWNER, per_seat=True, ordered=False, at_end=SHOWN),
    # a face-down stack played top card first: nobody sees it, its order is the play order
    "top": Zone("hand", Seen.HIDDEN, per_seat=True, at_end=SHOWN),
}


def _zones(hand: Zone, collected: Seen) -> Layout:
    return Layout(
        (
            hand,
            Zone("table", Seen.PUBLIC),
            Zone("kitty", Seen.HIDDEN),
            Zone("collected_kitty", Seen.HIDDEN, per_seat=True, at_end=SHOWN),
            Zone("collected", collected, per_seat=True, at_end=SHOWN),
            # cards a custom deal left out of the game: never played, never counted
            Zone("set_aside", Seen.HIDDEN, ordered=False),
        )
    )


LAYOUTS: Mapping[tuple[str, Seen], Layout] = {
    (play, seen): _zones(hand, seen)
    for play, hand in HANDS.items()
    for seen in (Seen.HIDDEN, Seen.PUBLIC)
}
"""The layouts of a game being played, by ``hand_play`` and how collected cards lie."""


def layout(state: State) -> Layout:
    """The zones of this game and who sees them: the hand's visibility depends on
    ``hand_play``; collected round cards are face down (``collected``); once the game
    is over every seat's cards are turned up."""
    options = state["options"]
    collected = Seen.PUBLIC if options["collected"] == "face_up" else Seen.HIDDEN
    playing = LAYOUTS[options["hand_play"], collected]
    return playing.at_end() if state["end"] is not None else playing
