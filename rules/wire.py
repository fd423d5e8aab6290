"""What a game says over the wire, declared once: :class:`Wire`, and the shapes all share.

Each game fills one :class:`Wire` with its ``TypedDict`` declarations (see
:mod:`rules.shapes`); the service derives its request schemas and the OpenAPI
contract from them, and the generic tests check every real answer against them.
The shapes here are the ones every game has: the outcome and the event that ends a
game (each game's own ``game_over`` event extends :class:`GameOver`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Literal, TypedDict, get_type_hints

from rules.shapes import CardId, F, Seat


@dataclass(frozen=True)
class Wire:
    """A game's JSON shapes.

    - ``options``: the setup options (a ``total=False`` TypedDict whose members all
      declare a default);
    - ``moves``: one TypedDict per move type, tagged by its ``type`` member;
    - ``view``, ``scores``: what ``view`` and ``scores`` return;
    - ``events``: one TypedDict per event type, tagged by ``type``;
    - ``card``: one item of ``deck()``;
    - ``resources``: the shape of each further document (``GameRules.resources``);
    - ``example``: a small setup request that plays reproducibly (the contract's
      examples are computed from it);
    - ``move_space``: where ``legal_moves`` cannot list every move, what else is legal.
    """

    options: type
    moves: tuple[type, ...]
    view: type
    scores: type
    events: tuple[type, ...]
    card: type
    resources: Mapping[str, type] = field(default_factory=dict)
    example: Mapping[str, Any] = field(default_factory=dict)
    move_space: str | None = None


Place = Annotated[int, F("A place: 1 is first; seats that tie share a place.", minimum=1)]


class SeatPlace(TypedDict):
    """A seat and the place it finished in."""

    seat: Seat
    place: Place


class Outcome(TypedDict):
    """Whether the game has ended, who won, the ranking with places, and the tie-break."""

    finished: bool
    winners: Annotated[list[Seat], F("The seats in first place.")]
    ranking: Annotated[list[Seat], F("Seats, best first.")]
    places: Annotated[
        list[SeatPlace],
        F(
            "Each seat with its place, best first (the order of `ranking`); seats that "
            "share a place share its number and the next places are skipped (1, 1, 3). "
            "Empty until the game ends."
        ),
    ]
    tie_break: Annotated[str | None, F("The tie-break that decided the winner, if one was needed.")]


class GameOver(Outcome):
    """The game has ended: the final outcome (a game adds the facts behind it)."""

    type: Literal["game_over"]


class DealtPile(TypedDict):
    """Where some cards lay when the game was dealt: one pile (a hand, the draw pile),
    bottom card first. Card ids are the ones the game's deck lists
    (``GET /v1/games/<slug>``)."""

    zone: Annotated[str, F("The pile's name in the game: hand, draw, discard, set_aside...")]
    seat: Annotated[int | None, F("Whose pile it is (null: the table's).", minimum=0)]
    cards: Annotated[list[CardId], F("Its cards, bottom first (a hand: sorted).")]


_ACTOR = F(
    "The seat whose move produced this event (a bot seat's too); null for the service's "
    "own events (setup, time-up).",
    minimum=0,
    maximum=63,
)


@cache
def acted(event: type) -> type:
    """``event``'s declaration with the ``actor`` member the service adds to every event
    it sends (the same component as the game's event in every answer)."""
    hints = get_type_hints(event, include_extras=True)
    members = {**hints, "actor": Annotated[int | None, _ACTOR]}
    make: Any = TypedDict
    tp: type = make(event.__name__, members)
    tp.__module__ = event.__module__
    tp.__doc__ = event.__doc__
    return tp
