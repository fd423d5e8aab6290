"""Winning a round, capturing the kitty, and the three ways a game of Battle ends.

Everything here works on the game's zones (see :mod:`rules.chemistry_battle.game`):

- a seat's cards are its ``hand``, the kitty cards it captured (``collected_kitty``,
  played first among its collected cards) and the round cards it collected
  (``collected``, in the order collected);
- a round ends when every seat has played one card; the highest atomic number wins
  and collects the round's cards in the order they were played (plus the kitty, in
  round 1);
- the game ends when a seat has no cards left (it cannot play the next round), when
  the ``round_limit`` is reached, or when play would repeat forever (``cycle``).

>>> explain([25, 26])
'26 Fe beats 25 Mn: higher atomic number'
>>> explain([8, 26, 1, 25])
'26 Fe beats 25 Mn, 8 O and 1 H: highest atomic number'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import JSON, Outcome, State, rank_seats, right_of
from rules.text import plural

from . import wire
from .cards import card, label

SEED_WIN = (
    "When all players have played a card, the card with the highest number in the top right "
    "corner (the atomic number) wins the round.  The player who played the highest atomic "
    "number card collects the pile and the kitty."
)
SEED_END = (
    "Play continues until a player runs out of cards. The cards are counted and the player "
    "with the most cards wins."
)


def explain(table: Sequence[int]) -> str:
    """Why the highest card wins, in the words a learner reads out."""
    best = max(table)
    others = sorted((z for z in table if z != best), reverse=True)
    beaten = [label(z) for z in others]
    listed = beaten[0] if len(beaten) == 1 else ", ".join(beaten[:-1]) + " and " + beaten[-1]
    degree = "higher" if len(table) == 2 else "highest"
    return f"{label(best)} beats {listed}: {degree} atomic number"


def turn_order(leader: int, players: int) -> list[int]:
    """The seats in playing order: the leader, then each next seat to the right."""
    order = [leader]
    while len(order) < players:
        order.append(right_of(order[-1], players))
    return order


def cards_held(zones: JSON, seat: int) -> int:
    """What is counted for ``seat``: its hand, its captured kitty cards, its collected cards."""
    return (
        len(zones["hand"][seat])
        + len(zones["collected_kitty"][seat])
        + len(zones["collected"][seat])
    )


def deterministic(state: State) -> bool:
    """Whether no seat has a choice left: from here the game runs by itself.

    Hands are dealt equal and every seat plays from its hand while it has one, so
    all hands empty in the same round; after that (or from the start when hands are
    played top card first) every card played is forced.
    """
    if state["options"]["hand_play"] == "top":
        return True
    return not any(state["zones"]["hand"])


def position(state: State) -> list[Any]:
    """What decides the rest of a forced game: the next leader and every seat's cards in order."""
    zones = state["zones"]
    return [state["leader"], zones["hand"], zones["collected_kitty"], zones["collected"]]


def track_cycle(state: State) -> tuple[JSON | None, bool]:
    """The new cycle record and whether play has come back to a remembered position.

    Once every play is forced, the game is a function of its position, and there are
    finitely many positions: it either ends or repeats forever. Brent's method keeps
    one remembered position and renews it after 1, 2, 4, 8... rounds; a repeating game
    meets its remembered position within a few times the length of its loop, so the
    check always fires, with a state of constant size.
    """
    loop = state.get("loop")
    if not deterministic(state):
        return loop, False
    here = position(state)
    if loop is None:
        return {"saved": here, "power": 1, "steps": 0, "since_round": state["round"]}, False
    steps = int(loop["steps"]) + 1
    if here == loop["saved"]:
        return {**loop, "steps": steps}, True
    if steps == int(loop["power"]):
        return {**loop, "saved": here, "power": 2 * steps, "steps": 0}, False
    return {**loop, "steps": steps}, False


def round_won_event(state: State, table: Sequence[int], order: Sequence[int]) -> wire.RoundWonEvent:
    """The event of a round's end: who played what, who won, and why."""
    best = max(table)
    winner = order[table.index(best)]
    return {
        "type": "round_won",
        "round": state["round"],
        "seat": winner,
        "card": card(best),
        "plays": [{"seat": s, "card": card(z)} for s, z in zip(order, table, strict=False)],
        "explanation": explain(table),
    }


def game_over_message(reason: str, out: Sequence[int], counts: Sequence[int], rnd: int) -> str:
    """What ended the game and who won, in a sentence."""
    if reason == "seat_out":
        who = " and ".join(f"seat {s}" for s in out)
        why = f"{who} {'has' if len(out) == 1 else 'have'} run out of cards"
    elif reason == "round_limit":
        why = f"the round limit ({rnd} rounds) is reached"
    else:
        why = "play would repeat the same rounds forever"
    best = max(counts)
    winners = [s for s, c in enumerate(counts) if c == best]
    if len(winners) == 1:
        result = f"seat {winners[0]} wins with {plural(best, 'card')}"
    else:
        shared = " and ".join(f"seat {s}" for s in winners)
        result = f"{shared} share the win with {plural(best, 'card')}"
    tally = ", ".join(f"seat {s}: {c}" for s, c in enumerate(counts))
    return f"The game ends after round {rnd}: {why}. Cards counted ({tally}); {result}."


def outcome(state: State) -> Outcome:
    """The most cards wins; equal counts share a place."""
    if state["end"] is None:
        return Outcome(finished=False)
    zones = state["zones"]
    ranking, places = rank_seats(range(int(state["players"])), lambda s: cards_held(zones, s))
    winners = tuple(s for s, p in zip(ranking, places, strict=True) if p == 1)
    return Outcome(
        finished=True,
        winners=winners,
        ranking=ranking,
        places=places,
        tie_break="shared" if len(winners) > 1 else None,
    )
