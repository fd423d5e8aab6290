"""Chemistry Battle over the wire: its options, moves, view, scores, events and card.

Declared once (see :mod:`rules.shapes`); the service's schemas and the contract are
derived from these, and the tests check every real answer against them.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from rules.chemistry.decks import basic_deck
from rules.shapes import Count, F, Seat
from rules.wire import GameOver, Pile

_BASIC = basic_deck()
LOWEST, HIGHEST = int(_BASIC[0]["id"]), int(_BASIC[-1]["id"])
"""The Basic Deck's range of atomic numbers (its cards: :mod:`.cards`)."""

MAX_ROUND_LIMIT = 10_000
DEFAULT_ROUND_LIMIT = 1000

Z = Annotated[
    int, F("Atomic number (the Basic Deck's cards).", minimum=LOWEST, maximum=HIGHEST, example=26)
]
RoundNo = Annotated[int, F("A round number (the first round is 1).", minimum=1)]

HandPlay = Annotated[
    Literal["choice", "top"],
    F("How hands are played: a chosen card, or the top card unseen.", name="HandPlay"),
]
NextLeader = Annotated[
    Literal["winner", "rotate"],
    F("Who leads the next round: the winner, or the next seat in turn.", name="NextLeader"),
]
Collected = Annotated[Literal["face_down", "face_up"], F("How collected cards lie.", name="Facing")]
EndReason = Annotated[
    Literal["seat_out", "round_limit", "cycle"],
    F(
        "Why the game ended: a seat ran out of cards (`seat_out`), the `round_limit` was "
        "reached, or play would repeat the same rounds forever (`cycle`).",
        name="EndReason",
    ),
]


# ---------------------------------------------------------------- options -----------
class Options(TypedDict, total=False):
    dealer: Annotated[
        int | None,
        F(
            "The dealer's seat (0 to players - 1); the seat to the dealer's right plays "
            "first. Omit or null to cut for the deal (a seat drawn with the game's seed). To "
            "rotate the deal over several games, pass the previous game's `next_dealer` (the "
            "seat to the dealer's left).",
            default=None,
            minimum=0,
            maximum=5,
            example=0,
        ),
    ]
    next_leader: Annotated[
        NextLeader,
        F(
            "Who plays first in the next round: the round's `winner`, or `rotate` to the seat "
            "to the right of this round's first player. The seed does not say.",
            default="winner",
        ),
    ]
    hand_play: Annotated[
        HandPlay,
        F(
            "`choice`: a seat chooses which card of its hand to play. `top`: the hand is a "
            "face-down stack, played top card first without looking (as in the card game War).",
            default="choice",
        ),
    ]
    collected: Annotated[
        Collected,
        F(
            '`face_down` (the seed\'s "placed face down"): collected round cards lie face '
            "down, so every seat sees how many each seat has collected but no seat, the owner "
            "included, sees which cards or their order until a card is played from them or "
            "the game ends. `face_up`: every seat sees every seat's collected cards in order "
            "(each was played face up), and so the card a seat playing from its collected "
            "cards plays next.",
            default="face_down",
        ),
    ]
    round_limit: Annotated[
        int | None,
        F(
            f"After this many rounds (1-{MAX_ROUND_LIMIT}) the game ends and the cards are "
            "counted, as when a seat runs out. Two-seat games take about 450 rounds (median) "
            "and some run on for thousands; a lesson may set fewer. null plays until a seat "
            "runs out of cards or play would repeat forever.",
            default=DEFAULT_ROUND_LIMIT,
            minimum=1,
            maximum=MAX_ROUND_LIMIT,
            example=30,
        ),
    ]
    deal: Annotated[
        list[Annotated[list[Z], F(min_items=1)]] | None,
        F(
            f"Fix the hands: one list of atomic numbers ({LOWEST}-{HIGHEST}) per seat, all the "
            "same size, no card twice; cards not dealt (nor in `kitty`) are out of the game. "
            "With `hand_play` `top` each hand is played in the order listed. Omit or null to "
            "deal all 54 by the seed's table.",
            default=None,
            min_items=2,
            max_items=6,
            example=[[1, 26, 8], [25, 6, 17]],
            code="bad_deal",
            secret=True,
        ),
    ]
    kitty: Annotated[
        list[Z] | None,
        F(
            "With `deal` only: the kitty's cards (atomic numbers), in the order they are later "
            "played. Omit or null for no kitty.",
            default=None,
            max_items=HIGHEST,
            example=[11, 12],
            code="bad_deal",
            secret=True,
        ),
    ]


# ---------------------------------------------------------------- moves -------------
class PlayMove(TypedDict):
    """Play a card of your hand, face up (while you hold a hand and `hand_play` is `choice`)."""

    type: Literal["play"]
    card: Annotated[Z, F("Atomic number of the card.")]


class PlayNextMove(TypedDict):
    """Play your next card without choosing: your collected cards in the order you collected
    them once your hand is empty (the kitty cards you captured first), or the top card of your
    face-down hand with `hand_play` `top`."""

    type: Literal["play_next"]


# ---------------------------------------------------------------- the view ----------
class Card(TypedDict):
    """An element card of the Basic Deck of 54 Elements."""

    id: Annotated[Z, F("Card id (= atomic number: each element is in the deck once).")]
    z: Annotated[Z, F("Atomic number.")]
    symbol: Annotated[str, F("Element symbol.", example="Fe")]
    name: Annotated[str, F("Element name.", example="Iron")]


class Play(TypedDict):
    """A card played in a round, and by whom."""

    seat: Annotated[Seat, F("The seat that played the card.", example=1)]
    card: Card


class Kitty(TypedDict):
    """The kitty: the cards left over by the deal (4 and 5 seats), won with round 1."""

    count: Annotated[Count, F("Cards still in the kitty.")]
    captured_by: Annotated[
        Seat | None, F("The seat that won round 1 and the kitty; null until then.", example=1)
    ]


class CollectedPile(TypedDict):
    """A seat's collected round cards."""

    count: Annotated[Count, F("Collected round cards.")]
    cards: Annotated[
        list[Card] | None,
        F(
            "The seat's collected round cards, in the order collected: the first is played "
            "next once its captured kitty cards are played. null while they lie face down "
            "(option `collected`, the default) and the game is not over: every seat then sees "
            "only `count`. Once the game is over every seat and an observer see them."
        ),
    ]


class SeatView(TypedDict):
    """One seat, as everyone sees it: how many cards it has and where; once the game is
    over, every card it holds (the cards are counted)."""

    seat: Seat
    hand_count: Annotated[Count, F("Cards in its hand.")]
    hand: Annotated[
        Pile[Card],
        F(
            "Its hand. `cards` (by atomic number, or in playing order with `hand_play` "
            "`top`) is given to its owner while it holds the hand and chooses from it "
            "(`hand_play` `choice`), and to every seat and an observer once the game is over "
            "(the cards are counted); null otherwise."
        ),
    ]
    kitty_count: Annotated[Count, F("Captured kitty cards (faces unseen), played first.")]
    kitty: Annotated[
        Pile[Card],
        F(
            "The kitty cards it captured, in the order they are played. `cards` is null "
            "while the game goes on (they lie face down: nobody has seen them); once it is "
            "over every seat and an observer see them (the cards are counted)."
        ),
    ]
    collected: CollectedPile
    total: Annotated[Count, F("Cards counted at the end: hand + kitty + collected.")]
    playing_from: Annotated[
        Literal["hand", "collected"],
        F("Where its next card comes from: `hand`, or `collected` once the hand is empty."),
    ]


class Round(TypedDict):
    """A round's result: every card played, the card that won and why."""

    round: Annotated[RoundNo, F("The round.")]
    seat: Annotated[Seat, F("The seat that won the round.", example=1)]
    card: Annotated[Card, F("The card that won.")]
    plays: Annotated[
        list[Play], F("Every card of the round, in the order played (and so collected).")
    ]
    explanation: Annotated[
        str,
        F(
            "Why the winning card wins, in a sentence.",
            example="26 Fe beats 25 Mn: higher atomic number",
        ),
    ]


class End(TypedDict):
    """How the game ended."""

    reason: EndReason
    round: Annotated[RoundNo, F("The last round played.")]
    out: Annotated[list[Seat], F("Seats that ran out of cards (reason `seat_out`).")]


class You(TypedDict):
    """Your own seat: your hand (when you may look at it) and your neighbours."""

    seat: Seat
    hand: Annotated[
        list[Card] | None,
        F(
            "Your hand, by atomic number (in playing order with `hand_play` `top`); null "
            "when it is a face-down stack (`hand_play` `top`) and the game is not over."
        ),
    ]
    hand_count: Annotated[Count, F("Cards in your hand.")]
    left: Annotated[Seat, F("The seat to your left.")]
    right: Annotated[Seat, F("The seat to your right: it plays after you.")]


class View(TypedDict):
    """What one seat (or an observer) may see: never another seat's hand, a kitty card's
    face, or the deck order; collected round cards only when they lie face up (option
    `collected`). Once the game is over, every seat's cards: hand, captured kitty cards
    and collected cards."""

    game: Annotated[Literal["chemistry-battle"], F("The game.", example="chemistry-battle")]
    players: Annotated[int, F("Number of seats.", minimum=2, maximum=6)]
    hand_play: Annotated[HandPlay, F("How hands are played (option `hand_play`).")]
    next_leader: Annotated[NextLeader, F("Who leads the next round (option `next_leader`).")]
    collected: Annotated[Collected, F("How collected cards lie (option `collected`).")]
    round_limit: Annotated[
        int | None,
        F(
            "The round after which the cards are counted (option `round_limit`); null: none.",
            minimum=1,
            maximum=MAX_ROUND_LIMIT,
        ),
    ]
    dealer: Annotated[Seat, F("The dealer's seat.")]
    next_dealer: Annotated[Seat, F("Left of the dealer: deals the next game.")]
    round: Annotated[RoundNo, F("The round being played (the last one once the game is over).")]
    leader: Annotated[Seat, F("The seat that plays first this round.", example=1)]
    order: Annotated[
        list[Seat], F("This round's seats in playing order (to the right from the leader).")
    ]
    turn: Annotated[Seat | None, F("The seat to play now; null once the game is over.", example=1)]
    table: Annotated[list[Play], F("Cards played this round, in order.")]
    kitty: Kitty
    seats: Annotated[list[SeatView], F("Every seat, in seat order.")]
    last_round: Annotated[Round | None, F("The last round won; null before the first.")]
    finished: Annotated[bool, F("Whether the game is over.")]
    end: Annotated[End | None, F("How the game ended; null while it goes on.")]
    you: Annotated[You | None, F("Your own seat; null for an observer.")]


# ---------------------------------------------------------------- scores ------------
class SeatScore(TypedDict):
    """One seat's cards, counted."""

    seat: Seat
    hand: Annotated[Count, F("Cards in hand.")]
    kitty: Annotated[Count, F("Captured kitty cards.")]
    collected: Annotated[Count, F("Collected round cards.")]
    total: Annotated[Count, F("hand + kitty + collected: the most cards wins.")]


class Scores(TypedDict):
    """Every seat's cards, counted: hand + captured kitty + collected (the seed's count)."""

    final: Annotated[bool, F("Whether the game is over (the counts are final).")]
    seats: Annotated[list[SeatScore], F("Every seat, in seat order.")]


# ---------------------------------------------------------------- events ------------
class CardPlayedEvent(TypedDict):
    """A seat played a card face up."""

    type: Literal["card_played"]
    seat: Annotated[Seat, F("The seat that played.")]
    round: Annotated[RoundNo, F("The round.")]
    card: Card
    source: Annotated[
        Literal["hand", "captured_kitty", "collected"], F("Where the card came from.")
    ]
    position: Annotated[
        int, F("Its place in the round's order: 1 = led the round.", minimum=1, maximum=6)
    ]
    leading: Annotated[bool, F("It is the highest card on the table so far.")]


class PilePickedUpEvent(TypedDict):
    """The seat's hand is empty: from now on it plays its collected cards in order."""

    type: Literal["pile_picked_up"]
    seat: Annotated[Seat, F("The seat whose hand is empty.")]
    round: Annotated[RoundNo, F("The round.")]
    count: Annotated[Count, F("Its collected cards (captured kitty cards included).")]


class RoundWonEvent(Round):
    """Every seat has played: the highest atomic number wins the round's cards."""

    type: Literal["round_won"]


class KittyCapturedEvent(TypedDict):
    """The winner of round 1 takes the kitty, face down: nobody sees its cards."""

    type: Literal["kitty_captured"]
    seat: Annotated[Seat, F("The seat that won round 1.")]
    round: Annotated[RoundNo, F("The round (1).")]
    count: Annotated[Count, F("Kitty cards captured.")]


class SeatOutEvent(TypedDict):
    """A seat has run out of cards: the game ends after this round."""

    type: Literal["seat_out"]
    seat: Annotated[Seat, F("The seat with no cards left.")]
    round: Annotated[RoundNo, F("The round just played.")]
    message: Annotated[str, F("What happened, in a sentence.")]


class RoundStartedEvent(TypedDict):
    """A new round begins."""

    type: Literal["round_started"]
    round: Annotated[RoundNo, F("The new round.")]
    leader: Annotated[Seat, F("The seat that plays first.")]
    order: Annotated[list[Seat], F("Seats in playing order.")]


class GameOverEvent(GameOver):
    """The game has ended: the cards are counted and the most cards wins."""

    reason: EndReason
    round: Annotated[RoundNo, F("The last round played.")]
    counts: Annotated[list[Count], F("Cards counted, per seat.")]
    message: Annotated[str, F("What ended the game and who won, in a sentence.")]
