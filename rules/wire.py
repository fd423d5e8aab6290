"""What a game says over the wire, declared once: :class:`Wire`, and the shapes all share.

Each game fills one :class:`Wire` with its ``TypedDict`` declarations (see
:mod:`rules.shapes`); the service derives its request schemas and the OpenAPI
contract from them, and the generic tests check every real answer against them.
The shapes here are the ones every game has: the outcome and the event that ends a
game (each game's own ``game_over`` event extends :class:`GameOver`), a pile of the
game's cards (:class:`Pile`, generic in the card: the contract names each game's
``<Game>Pile``, as its cards differ), and the
description of a move space too large to list (:class:`MoveSpace`), with the
helpers that build its forms.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Generic, Literal, TypedDict, TypeVar, get_type_hints

from rules.shapes import CardId, Count, F, Seat

C = TypeVar("C")
"""A game's card, in the shapes that carry cards (``Pile[Card]``)."""


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
    - ``move_space``: where ``legal_moves`` cannot list every move, what else is legal,
      in words (a game may also say, state by state, how to build those moves:
      ``GameRules.move_forms``, :class:`MoveForm`).
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


class Pile(TypedDict, Generic[C]):
    """A pile of cards (a hand, a stack): always how many; which ones, in the pile's
    order, where this seat may see them."""

    count: Annotated[Count, F("Cards in the pile (always public).")]
    cards: Annotated[
        list[C] | None,
        F("The cards, bottom first, where this seat may see them; else null."),
    ]


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


# ---------------------------------------------------------------- move spaces -------
ChoiceValue = Annotated[
    int | str,
    F(
        "The value as the move takes it: a number (a seat, a card id, an offer's id) or a "
        "string (a face code, 'any')."
    ),
]


class MoveChoice(TypedDict):
    """One value a member of a move may take, with its label."""

    value: ChoiceValue
    label: Annotated[str, F("The value as a player reads it ('Q♠', 'seat 1, your left').")]


class MoveMember(TypedDict):
    """How to fill one member of a move: one value of `choices`, or (`many`) a list of
    them."""

    name: Annotated[str, F("The member of the move it fills ('to', 'give', 'ask'...).")]
    many: Annotated[
        bool,
        F(
            "true: a list of `min_items` to `max_items` values; false: one value (a member "
            "with a single choice is fixed)."
        ),
    ]
    choices: Annotated[
        list[MoveChoice], F("The values it may take; each item of a list takes one of them.")
    ]
    min_items: Annotated[int, F("The fewest items of the list (1 for one value).", minimum=0)]
    max_items: Annotated[int, F("The most items of the list (1 for one value).", minimum=0)]
    distinct: Annotated[bool, F("No value twice in the list (a card is named once).")]
    same_length_as: Annotated[
        str | None,
        F(
            "The member whose list this one's is as long as (an offer asks for as many "
            "cards as it gives); null: none."
        ),
    ]
    slots: Annotated[
        list[list[ChoiceValue]] | None,
        F(
            "When each item of the list has its own choices (a face asked for is met by a "
            "card of that face): the values each item may take, in order, one list per "
            "item; null: every item takes any of `choices`."
        ),
    ]


class MoveForm(TypedDict):
    """How to build one move the seat may make now: its type and, member by member, the
    values each member may take. Every move built within it is legal now."""

    type: Annotated[str, F("The move's type (its `type` member).")]
    description: Annotated[str, F("What the move does, for this seat now, in words.")]
    members: Annotated[list[MoveMember], F("Every member of the move but `type`.")]


class MoveSpace(TypedDict):
    """The moves the seat may make beyond the listed ones: in words, and as forms a
    front end builds each move from."""

    description: Annotated[str, F("What the listed moves leave out, in words.")]
    forms: Annotated[
        list[MoveForm],
        F(
            "How to build each move whose cards (or other lists) the player chooses, for "
            "this seat now; empty while it must wait, or where the words are all there is."
        ),
    ]


def choice(value: int | str, label: str) -> dict[str, Any]:
    """One :class:`MoveChoice`."""
    return {"value": value, "label": label}


def one(name: str, choices: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A :class:`MoveMember` that takes one value (fixed when there is one choice).

    >>> one("offer", [choice(7, "offer #7")])["min_items"]
    1
    """
    return {
        "name": name,
        "many": False,
        "choices": [dict(c) for c in choices],
        "min_items": 1,
        "max_items": 1,
        "distinct": False,
        "same_length_as": None,
        "slots": None,
    }


def listed(
    name: str,
    choices: Sequence[Mapping[str, Any]],
    least: int,
    most: int,
    *,
    distinct: bool = True,
    same_length_as: str | None = None,
    slots: Iterable[Sequence[int | str]] | None = None,
) -> dict[str, Any]:
    """A :class:`MoveMember` that takes a list of ``least`` to ``most`` values.

    >>> listed("give", [choice(3, "4♣")], 1, 1)["many"]
    True
    """
    return {
        "name": name,
        "many": True,
        "choices": [dict(c) for c in choices],
        "min_items": least,
        "max_items": most,
        "distinct": distinct,
        "same_length_as": same_length_as,
        "slots": None if slots is None else [list(s) for s in slots],
    }


def form(kind: str, description: str, *members: Mapping[str, Any]) -> dict[str, Any]:
    """One :class:`MoveForm`."""
    return {"type": kind, "description": description, "members": [dict(m) for m in members]}
