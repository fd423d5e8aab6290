"""Metal vs. Non-Metal over the wire: its options, cards, view and scores.

Declared once (see :mod:`rules.shapes`); the service's schemas and the contract are
derived from these, and the tests check every real answer against them. Each move
type and the events it emits are declared beside its rules (:mod:`.moves`, with the
events of settling an exchange in :mod:`.settle` and of drawing in :mod:`.table`);
:mod:`.game` puts them together in the game's ``Wire``.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from rules.chemistry.decks.ion import (
    LABEL_PATTERN,
    MAX_CARDS,
    MAX_COPIES,
    MAX_IONS,
    IonCard,
    IonCardId,
    IonLabel,
)
from rules.shapes import Count, F, Seat
from rules.wire import Pile

from .seed import HAND_SIZE, MAX_PLAYERS

SeatNo = Annotated[Seat, F(maximum=MAX_PLAYERS - 1, example=0)]
CardNo = IonCardId
Charge = Annotated[int, F("A signed charge.", example=-6)]
Explanation = Annotated[str, F("For the learner.")]
ExchangeNo = Annotated[int, F("Exchange number.", minimum=1)]

Prize = Annotated[
    Literal["all", "responder_cards"],
    F("What a standing power play collects: all the cards, or the responder's.", name="Prize"),
]
"""Option ``power_play_prize``: what a responding player's standing power play collects."""
Facing = Annotated[Literal["face_down", "face_up"], F("How collections lie.", name="Facing")]
"""Option ``collected``: how collections lie."""
Step = Annotated[
    Literal["initiate", "respond", "reinforce"], F("An exchange's step.", name="ExchangeStep")
]
"""The step of an exchange: the initiating player plays, the responding player answers,
the initiating player decides on reinforcements."""
Result = Annotated[
    Literal["balanced", "initiator_higher", "reinforced", "power_play", "no_response"],
    F("How an exchange ended.", name="ExchangeResult"),
]
ExchangeSide = Annotated[
    Literal["initiator", "responder"],
    F("A side of an exchange: the initiating or the responding player.", name="ExchangeSide"),
]
"""How an exchange ends: charges equal; the initiating player's higher; a power play
balanced by reinforcements; a power play that stands; no possible answer."""


IonDeck = Annotated[
    dict[str, Annotated[int, F("Copies of the ion.", minimum=1, maximum=MAX_COPIES)]],
    F(
        "An ion deck: ion label -> copies.",
        key_pattern=LABEL_PATTERN,
        min_properties=2,
        max_properties=MAX_IONS,
        name="IonDeck",
    ),
]
IonCounts = Annotated[
    dict[str, Count], F("Cards per ion label.", key_pattern=LABEL_PATTERN, name="IonCounts")
]


class Options(TypedDict, total=False):
    start_player: Annotated[
        int | None,
        F(
            "The seat that initiates the first exchange; omitted or null, it is drawn at "
            "random with the game's own seeded generator (the seed: flip a coin, roll a "
            "die).",
            default=None,
            minimum=0,
            maximum=MAX_PLAYERS - 1,
            example=0,
        ),
    ]
    power_play_prize: Annotated[
        Prize,
        F(
            "What the responding player collects when its power play stands: 'all' the "
            "cards in play (step 5), or only 'responder_cards', the cards it played (step "
            "5, example 3: 'player 2 collects the 3 cards'), the initiating cards being set "
            "aside.",
            default="all",
        ),
    ]
    collected: Annotated[
        Facing,
        F(
            "'face_down' (the seed: \"Collected cards are placed beside the player face "
            'down"): every seat sees how many cards each seat has collected, but no seat, '
            "the owner included, sees which until the game ends; a card taken at random "
            "(advanced ruling 1) is shown only to the seat it was taken from. 'face_up': "
            "every collection is shown to everyone.",
            default="face_down",
        ),
    ]
    deal: Annotated[
        list[
            Annotated[
                list[Annotated[IonLabel, F("An ion label.", example="Na+")]],
                F(min_items=HAND_SIZE, max_items=HAND_SIZE),
            ]
        ]
        | None,
        F(
            "Fix the hands for a lesson or a test: one hand of 6 ion labels per seat "
            "(e.g. 'Ca2+'), within the deck's copies; null deals at random.",
            default=None,
            min_items=2,
            max_items=MAX_PLAYERS,
            example=[["Ca2+", "Na+", "Na+", "Al3+", "O2-", "N3-"], ["Cl-"] * 6],
            code="bad_deal",
            secret=True,
        ),
    ]
    ion_deck_top: Annotated[
        list[Annotated[IonLabel, F("An ion label.", example="Cl-")]] | None,
        F(
            "Fix the first cards drawn from the Ion Deck, in drawing order (ion labels); "
            "the rest of the Ion Deck is shuffled under them.",
            default=None,
            max_items=MAX_CARDS,
            example=["Cl-", "O2-"],
            code="bad_deal",
            secret=True,
        ),
    ]
    ions: Annotated[
        IonDeck | None,
        F(
            f"A teacher's own deck: ion label -> copies (1-{MAX_COPIES} each). Cations "
            f"must be metals and anions non-metals, with charges from the chemistry data; "
            f"2-{MAX_IONS} ions, 12-{MAX_CARDS} cards, enough to deal 6 to every seat; the "
            "charges must balance. Null is the seed's 40-card deck.",
            default=None,
            example={"K+": 6, "Mg2+": 3, "Br-": 6, "S2-": 3},
            code="bad_ion_deck",
        ),
    ]


# ---------------------------------------------------------------- cards -------------
Card = IonCard
"""The game's card: an ion card (the shape is the Ion Deck's, :mod:`rules.chemistry.decks.ion`)."""


class Answer(TypedDict):
    """An answer step 4 describes: so many cards of one ion."""

    ion: Annotated[IonLabel, F("The answering ion.")]
    count: Annotated[Count, F("How many cards of it.")]
    total: Annotated[Charge, F("Their total charge.")]


# ---------------------------------------------------------------- the view ----------
class Reinforcement(TypedDict):
    """What reinforcements would balance the power play."""

    ion: Annotated[IonLabel, F("The lead's ion, the only one reinforcements may be.")]
    count: Annotated[Count, F("The cards needed to reach at least the responding total.")]
    difference: Annotated[Count, F("How much more charge the responding player has.")]


class ExchangeView(TypedDict):
    """The exchange being played (null once the game is over)."""

    number: Annotated[int, F("Exchange number, from 1.", minimum=1)]
    step: Annotated[
        Step, F("The step: the initiator plays, the responder answers, reinforcements.")
    ]
    initiator: Annotated[SeatNo, F("The initiating seat.")]
    responder: Annotated[SeatNo, F("The responding seat (next counterclockwise with cards).")]
    lead: Annotated[IonLabel | None, F("The ion of the initiating card, once played.")]
    answers: Annotated[
        list[Answer],
        F("Every answer step 4 describes against the lead (whatever the hand)."),
    ]
    initiator_total: Annotated[Charge, F("Total charge of the initiating player's cards in play.")]
    responder_total: Annotated[Charge, F("Total charge of the responding player's cards in play.")]
    reinforcement: Annotated[
        Reinforcement | None, F("After a power play: what reinforcements would balance it.")
    ]


class SeatView(TypedDict):
    """One seat, as this seat (or an observer) sees it."""

    seat: Annotated[SeatNo, F("Seat number (clockwise).")]
    hand: Annotated[
        Pile[Card],
        F(
            "Its hand: `cards` only for its owner while the game goes on; once it is over, "
            "for every seat and an observer: empty then, because the cards left in hands are "
            "set aside face up (`set_aside`)."
        ),
    ]
    in_play: Annotated[Pile[Card], F("Face up this exchange.")]
    in_play_total: Annotated[Charge, F("Total charge of its cards in play.")]
    collection: Annotated[
        Pile[Card],
        F(
            "Collected cards: `cards` is null while they lie face down (option "
            "`collected`, the default) and the game is not over; `count` is always given."
        ),
    ]
    collected: Annotated[Count, F("Cards collected: the score.")]


class You(TypedDict):
    """Your own seat: your part in the exchange and your hand."""

    seat: Annotated[SeatNo, F("Your seat.")]
    role: Annotated[
        Literal["initiator", "responder", "waiting"], F("Your part in the current exchange.")
    ]
    hand: Annotated[list[Card], F("Your hand.")]
    next: Annotated[SeatNo, F("The seat counterclockwise of yours (seat - 1): it answers you.")]
    previous: Annotated[SeatNo, F("The seat clockwise of yours (seat + 1): you answer it.")]


class History(TypedDict):
    """A settled exchange."""

    exchange: ExchangeNo
    initiator: Annotated[SeatNo, F("The initiating seat.")]
    responder: Annotated[SeatNo, F("The responding seat.")]
    result: Annotated[Result, F("How it was settled.")]
    collector: Annotated[SeatNo, F("The seat that collected.")]
    card_count: Annotated[Count, F("Cards it collected.")]
    formula: Annotated[
        str | None,
        F("The compound of the two ions in play (null: no answer).", example="CaO"),
    ]


class LastCollected(TypedDict):
    """The cards of the last settled exchange, as they were on the table."""

    exchange: ExchangeNo
    seat: Annotated[SeatNo, F("The seat that collected.")]
    count: Annotated[Count, F("How many cards it collected.")]
    cards: Annotated[
        list[Card],
        F(
            "The cards it collected that every seat saw played face up (all of them, "
            "except a card taken at random into a face-down collection)."
        ),
    ]


class View(TypedDict):
    """What one seat (or an observer) may see: never another hand, the Ion Deck, or a
    face-down collection before the game ends."""

    game: Annotated[Literal["metal-vs-nonmetal"], F("The slug.", example="metal-vs-nonmetal")]
    players: Annotated[int, F("Number of seats.", minimum=2, maximum=MAX_PLAYERS)]
    finished: Annotated[bool, F("Whether the game is over.")]
    start_player: Annotated[SeatNo, F("The seat that initiated the first exchange.")]
    direction: Annotated[
        Literal["counterclockwise"], F("Play passes counterclockwise, to seat - 1.")
    ]
    power_play_prize: Annotated[Prize, F("The option in force.")]
    collected: Annotated[Facing, F("How collections lie (option `collected`).")]
    ion_deck: Annotated[Pile[Card], F("Face down: count.")]
    set_aside: Annotated[Pile[Card], F("Cards that count for nobody.")]
    exchange: Annotated[ExchangeView | None, F("This exchange.")]
    seats: Annotated[list[SeatView], F("Every seat, in seat order.")]
    history: Annotated[list[History], F("Settled exchanges.")]
    last_collected: Annotated[
        LastCollected | None,
        F(
            "The cards of the last settled exchange, as they were on the table before "
            "they were collected; null before the first."
        ),
    ]
    you: Annotated[You | None, F("Null for an observer.")]


# ---------------------------------------------------------------- scores ------------
class SeatScore(TypedDict):
    """One seat's cards collected, with the ions once they may be seen."""

    seat: Annotated[SeatNo, F("Seat number.")]
    collected: Annotated[Count, F("Cards collected: the score.")]
    by_ion: Annotated[
        IonCounts | None,
        F(
            "Collected cards per ion; null while collections lie face down and the game "
            "is not over.",
            example={"Ca2+": 3, "N3-": 2},
        ),
    ]
    exchanges_won: Annotated[
        list[ExchangeNo], F("Numbers of the exchanges it collected.", example=[1, 3])
    ]


class Scores(TypedDict):
    """Cards collected per seat (the score); the most cards collected wins."""

    final: Annotated[bool, F("Whether the game is over.")]
    seats: Annotated[list[SeatScore], F("Every seat, in seat order.")]
    set_aside: Annotated[Count, F("Cards set aside: they count for nobody.")]
