"""Where Chemistry Battle's cards lie and who sees them: the zone layout of a state.

The hand's visibility depends on the option ``hand_play`` (held and chosen from, or a
face-down stack); collected round cards lie face down (option ``collected``) until
the game ends. From the layout come the views' piles, the events' card movements, the
conservation check and the resampling of what a seat cannot see (:class:`rules.zones.Layout`).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.core import State
from rules.zones import Layout, Seen, Zone

HANDS: Mapping[str, Zone] = {
    # a hand held in the hand: its owner sees it and chooses; the order is not part of play
    "choice": Zone("hand", Seen.OWNER, per_seat=True, ordered=False),
    # a face-down stack played top card first: nobody sees it, its order is the play order
    "top": Zone("hand", Seen.HIDDEN, per_seat=True),
}


def _zones(hand: Zone, collected: Seen) -> Layout:
    return Layout(
        (
            hand,
            Zone("table", Seen.PUBLIC),
            Zone("kitty", Seen.HIDDEN),
            Zone("collected_kitty", Seen.HIDDEN, per_seat=True),
            Zone("collected", collected, per_seat=True),
            Zone("set_aside", Seen.HIDDEN, ordered=False),
        )
    )


LAYOUTS: Mapping[tuple[str, Seen], Layout] = {
    (play, seen): _zones(hand, seen)
    for play, hand in HANDS.items()
    for seen in (Seen.HIDDEN, Seen.PUBLIC)
}


def layout(state: State) -> Layout:
    """The zones of this game and who sees them: the hand's visibility depends on
    ``hand_play``; collected round cards are face down (``collected``) until the end."""
    options = state["options"]
    shown = options["collected"] == "face_up" or state["end"] is not None
    return LAYOUTS[options["hand_play"], Seen.PUBLIC if shown else Seen.HIDDEN]
