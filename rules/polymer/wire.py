"""Polymer over the wire: its options, moves, view, scores, events and cards, and the
shapes of its own operations (the arrangement check, the session's clock).

Declared once (see :mod:`rules.shapes`); the service's schemas and the contract are
derived from these, and the tests check every real answer against them.

Time: a client never sends it. The service stamps every move with its own clock
before the rules see it (:class:`Stamp`, the member ``at``), so the moves declared
here (the game's ``wire.moves``) are what a client sends, and ``rules.polymer.moves.parse_move``
accepts them with the stamp.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal, NotRequired, TypedDict

from rules.shapes import CardId as AnyCardId
from rules.shapes import Count, F, Seat
from rules.wire import GameOver

CARDS_PER_MOVE = 104
"""At most this many cards in one move: a hand swollen by loans may be lent or repaid
whole."""

# ---------------------------------------------------------------- shared members ----
CardId = Annotated[
    AnyCardId,
    F("A card's id, 0-103: ids f and f + 52 are the two decks' copies of one face (they "
    "look alike).", minimum=0, maximum=103, example=50),
]  # fmt: skip
FaceCode = Annotated[
    str,
    F(
        "A face code: the rank (A, 2-10, J, Q, K) then the suit (C, D, H, S).",
        pattern="^(A|[2-9]|10|J|Q|K)[CDHS]$",
        example="QS",
    ),
]
Ask = Annotated[
    str,
    F(
        "One card asked for: a face code ('QS', '10H') or 'any' (the other seat's choice).",
        pattern="^((A|[2-9]|10|J|Q|K)[CDHS]|any)$",
        example="7S",
    ),
]
Ms = Annotated[int, F("A time in ms on the game's clock (the service's: ms since the epoch).")]
ObjectId = Annotated[
    int, F("Offers, trades and loans are numbered together, from 1 up.", minimum=1)
]
Length = Annotated[int, F("Cards in a pattern (0: no pattern).", minimum=0, maximum=13)]
TopRank = Annotated[
    int, F("The top rank of a pattern, 1 (A) to 13 (K); 0 for no pattern.", minimum=0, maximum=13)
]
Phase = Annotated[
    Literal["waiting", "trading", "ended"],
    F(
        "waiting: seats declare they are ready, nobody sees a card; trading: the timer "
        "runs; ended: time is up, loans are settled and every hand is shown.",
        name="Phase",
    ),
]
Explanation = Annotated[
    str,
    F(
        "What happened, in words a learner reads. Where the event hides cards (an offer, a "
        "trade, a loan), everyone reads how many cards moved and the two seats concerned "
        "read which."
    ),
]
Suit = Literal["C", "D", "H", "S"]
"""A suit letter: clubs, diamonds, hearts, spades (in suit-index order)."""
OfferKind = Annotated[
    Literal["trade", "undo"],
    F("A trade, or a proposal to undo an executed trade.", name="OfferKind"),
]


def card_ids(description: str, least: int = 1) -> F:
    """The facts of a move's list of card ids (``least`` of them at minimum)."""
    return F(description, min_items=least, max_items=CARDS_PER_MOVE, example=[11, 63])


# ---------------------------------------------------------------- options -----------
class Options(TypedDict, total=False):
    timer_seconds: Annotated[
        int,
        F(
            "Length of the trading timer in seconds (1-7200); the seed's is 10 minutes.",
            default=600,
            minimum=1,
            maximum=7200,
        ),
    ]
    bot_think_min_ms: Annotated[
        int,
        F(
            "The least time (ms) a bot seat the service plays thinks between two of its "
            "moves; each wait is drawn afresh between this and bot_think_max_ms, "
            "reproducibly from the seed.",
            default=1500,
            minimum=100,
            maximum=60_000,
        ),
    ]
    bot_think_max_ms: Annotated[
        int,
        F(
            "The most time (ms) a bot seat the service plays thinks between two of its "
            "moves (at least bot_think_min_ms). The defaults are a brisk human pace.",
            default=4000,
            minimum=100,
            maximum=60_000,
        ),
    ]
    deal: Annotated[
        list[Annotated[list[Annotated[str, F(max_length=4)]], F(min_items=1)]] | None,
        F(
            "Fix the hands: one list of card codes (e.g. 'QS', '10H') per seat, all the same "
            "size, each face at most twice (two decks). For lessons and tests; null deals "
            "by the seed's table.",
            default=None,
            min_items=5,
            max_items=15,
            example=[["AS", "2S"], ["7H", "7D"], ["10C", "JC"], ["AH", "3H"], ["2C", "3C"]],
            code="bad_deal",
            secret=True,
        ),
    ]


# ---------------------------------------------------------------- moves -------------
class ReadyMove(TypedDict):
    """Before the start: declare you are ready. The timer starts when every seat is."""

    type: Literal["ready"]


class OfferMove(TypedDict):
    """Offer a neighbour some of your cards for the same number of theirs."""

    type: Literal["offer"]
    to: Annotated[int, F("A neighbour's seat: your left (seat + 1) or your right (seat - 1).")]
    give: Annotated[list[CardId], card_ids("Ids of your cards you give (the neighbour sees them).")]
    ask: Annotated[
        list[Annotated[str, F(min_length=1, max_length=4)]],
        F(
            "What you want back, one item per card: a face code ('QS', '10H', any case) or "
            "'any' (their choice). Same length as `give`.",
            min_items=1,
            max_items=CARDS_PER_MOVE,
            example=["7S", "any"],
        ),
    ]


class AcceptMove(TypedDict):
    """Accept an offer made to you, giving cards that match its `ask` (none for an undo)."""

    type: Literal["accept"]
    offer: Annotated[int, F("The id of an open offer made to you.")]
    give: NotRequired[
        Annotated[
            list[CardId],
            card_ids("Ids of your cards that meet the offer's ask (none for an undo).", 0)
            | F(default=[]),
        ]
    ]


class DeclineMove(TypedDict):
    """Decline an offer made to you."""

    type: Literal["decline"]
    offer: Annotated[int, F("The id of an open offer made to you.")]


class WithdrawMove(TypedDict):
    """Withdraw an offer you made."""

    type: Literal["withdraw"]
    offer: Annotated[int, F("The id of an open offer you made.")]


class ProposeUndoMove(TypedDict):
    """Propose to undo a trade you took part in; it happens only if the other seat accepts."""

    type: Literal["propose_undo"]
    trade: Annotated[int, F("The id of a trade you took part in.")]


class LendMove(TypedDict):
    """Lend cards to a neighbour; you may call them in at any time."""

    type: Literal["lend"]
    to: Annotated[int, F("A neighbour's seat: your left (seat + 1) or your right (seat - 1).")]
    cards: Annotated[list[CardId], card_ids("Ids of the cards lent.")]


class CallLoanMove(TypedDict):
    """Call in a loan you made: the debtor must repay before doing anything else."""

    type: Literal["call_loan"]
    loan: Annotated[int, F("The id of an open loan you made.")]


class RepayMove(TypedDict):
    """Return cards on a loan: exactly what is owed (or all you hold) once it is called."""

    type: Literal["repay"]
    loan: Annotated[int, F("The id of an open loan made to you.")]
    cards: Annotated[
        list[CardId],
        card_ids(
            "Ids of the cards returned (any of your cards; none only when called in while "
            "holding no card).",
            0,
        ),
    ]


class TimeUpMove(TypedDict):
    """End the game once the deadline has passed (the service also does this itself)."""

    type: Literal["time_up"]


class Stamp(TypedDict):
    """What the service adds to every move before the rules see it: the time it happens.

    A client never sends it (the contract's moves have no ``at``). A move without it, or
    stamped earlier than the latest time the state has seen (``now_ms``), happens at
    ``now_ms``: time never runs backwards.
    """

    at: NotRequired[
        Annotated[
            int,
            F(
                "When the move happens, in ms since an epoch the caller chooses: the "
                "service's Redis clock, stamped on every move."
            ),
        ]
    ]


MOVE_SPACE = (
    "`moves` lists each offer and each loan of one card, each accept with the first cards "
    "that meet the ask and each repayment with the first cards of your hand. You may also "
    "offer any number of your cards to a neighbour and ask for as many (face codes or "
    "'any'), lend any number, accept with any cards that meet the ask and repay with any "
    "cards: `forms` says how to build each of these moves now."
)


# ---------------------------------------------------------------- cards and views ---
class Card(TypedDict):
    """A card: its id, its face (rank and suit) and a label to show."""

    id: CardId
    code: FaceCode
    rank: Annotated[int, F("1 (A) to 13 (K).", minimum=1, maximum=13)]
    suit: Annotated[Suit, F("Clubs, diamonds, hearts or spades.", example="S")]
    label: Annotated[str, F("Rank then suit symbol, for display.", example="Q♠")]


_FromTo = TypedDict(
    "_FromTo",
    {
        "from": Annotated[Seat, F("The seat that made the offer.")],
        "to": Annotated[Seat, F("The neighbour it is made to.")],
    },
)


class OfferView(_FromTo):
    """An open offer; what it gives and asks is shown only to its two seats (to
    everyone once time is up)."""

    id: ObjectId
    kind: OfferKind
    count: Annotated[Count, F("Cards on each side.")]
    trade: Annotated[int | None, F("For an undo: the trade it would undo; null otherwise.")]
    give: NotRequired[Annotated[list[Card], F("The cards offered. Only for the two seats.")]]
    ask: NotRequired[
        Annotated[list[Ask], F("What the maker wants back, one item per card. Only for the "
                               "two seats.")]
    ]  # fmt: skip


class TradeView(TypedDict):
    """An executed trade (or undo); the cards each side gave are shown only to its two
    seats (to everyone once time is up)."""

    id: ObjectId
    seats: Annotated[
        list[Seat], F("The offer's maker, then the seat that accepted.", min_items=2, max_items=2)
    ]
    count: Annotated[Count, F("Cards each side gave.")]
    undone: Annotated[bool, F("Whether a later undo has reversed it.")]
    at_ms: Annotated[Ms, F("When it was executed.")]
    gave: NotRequired[
        Annotated[
            list[list[Card]],
            F("What each seat gave, in the order of `seats`; only for the two seats.",
              min_items=2, max_items=2),
        ]
    ]  # fmt: skip


class LoanView(TypedDict):
    """An open loan; its cards are shown only to the lender and the debtor (to everyone
    once time is up)."""

    id: ObjectId
    lender: Annotated[Seat, F("The seat that lent.")]
    debtor: Annotated[Seat, F("The seat that borrowed.")]
    lent: Annotated[int, F("Cards lent.", minimum=1)]
    outstanding: Annotated[int, F("Cards still owed.", minimum=1)]
    called: Annotated[bool, F("Called in: the debtor must repay before anything else.")]
    cards: NotRequired[
        Annotated[list[Card], F("The cards lent. Only for the lender and the debtor.")]
    ]


class SeatView(TypedDict):
    """One seat, as everyone sees it."""

    seat: Seat
    ready: Annotated[bool, F("Whether it has declared it is ready.")]
    hand_count: Annotated[Count, F("Cards it holds.")]
    blocked_by_loan: Annotated[bool, F("It owes a called loan: it must repay first.")]
    hand: Annotated[list[Card] | None, F("Shown to everyone only once time is up.")]


class ArrangementCodes(TypedDict):
    """A hand split into its longest pattern, the other patterns and the unused cards,
    as face codes (a sequence along its run, a group by suit)."""

    longest: Annotated[list[FaceCode], F("The longest pattern (empty: none).")]
    others: Annotated[list[list[FaceCode]], F("The other patterns.")]
    unused: Annotated[list[FaceCode], F("Cards in no pattern.")]


class ArrangementIds(TypedDict):
    """The shown arrangement as card ids."""

    longest: Annotated[list[CardId], F("The longest pattern (empty: none).")]
    others: Annotated[list[list[CardId]], F("The other patterns.")]
    unused: Annotated[list[CardId], F("Cards in no pattern.")]


class Best(ArrangementCodes):
    """Your best arrangement (longest first) and its figures."""

    longest_length: Length
    rest_value: Annotated[Count, F("Sum of (length - 1) of the other patterns.")]
    top_rank: TopRank


class Owed(TypedDict):
    """A called loan you owe."""

    loan: Annotated[ObjectId, F("The loan.")]
    lender: Annotated[Seat, F("The seat you repay.")]
    count: Annotated[Count, F("Cards to return now (what is owed, or all you hold).")]


class You(TypedDict):
    """Your own seat: your hand once the timer runs, what you owe, your best arrangement."""

    seat: Seat
    left: Annotated[Seat, F("Your left neighbour (seat + 1).")]
    right: Annotated[Seat, F("Your right neighbour (seat - 1).")]
    hand: Annotated[list[Card] | None, F("null until the timer starts (nobody looks before).")]
    hand_count: Annotated[Count, F("Cards you hold.")]
    owes: Annotated[list[Owed], F("Called loans you must repay before anything else.")]
    best: Annotated[
        Best | None,
        F(
            "null before the timer starts. While it runs, your longest-first arrangement "
            "(what scores whenever a neighbour holds a pattern); once time is up, the "
            "arrangement that is scored."
        ),
    ]


class Settlement(TypedDict):
    """Cards returned on an open loan when time ran out."""

    loan: Annotated[ObjectId, F("The loan settled.")]
    lender: Annotated[Seat, F("The seat that lent (and gets the cards).")]
    debtor: Annotated[Seat, F("The seat that returned them.")]
    cards: Annotated[list[Card], F("The cards returned.")]


class View(TypedDict):
    """What a seat (or an observer) may see: own hand once the timer runs; others' hands
    only when time is up; offer and loan cards only to the two seats concerned."""

    game: Annotated[Literal["polymer"], F("The game.")]
    players: Annotated[int, F("Number of seats.", minimum=5, maximum=15)]
    phase: Phase
    hand_size: Annotated[int, F("Cards dealt to each seat.", minimum=1)]
    timer_seconds: Annotated[int, F("Length of the timer.", minimum=1, maximum=7200)]
    started_ms: Annotated[Ms | None, F("When the timer started; null before.")]
    deadline_ms: Annotated[Ms | None, F("When time is up; null before the start.")]
    now_ms: Annotated[Ms, F("Time of the last move.", minimum=0)]
    seats: Annotated[list[SeatView], F("Every seat, in seat order.")]
    offers: Annotated[list[OfferView], F("Open offers, oldest first.")]
    trades: Annotated[list[TradeView], F("Executed trades and undos, oldest first.")]
    loans: Annotated[list[LoanView], F("Open loans, oldest first.")]
    settlement: Annotated[
        list[Settlement], F("Loans settled when time ran out, in the order they were settled.")
    ]
    set_aside: Annotated[
        list[Card] | None,
        F(
            "The cards no seat was dealt (the deal table leaves some over): null while the "
            "game runs, listed once time is up so anyone can check the deal."
        ),
    ]
    you: Annotated[You | None, F("Your own seat; null for an observer.")]


# ---------------------------------------------------------------- scores ------------
class Neighbours(TypedDict):
    """Your two neighbours' seats."""

    left: Annotated[Seat, F("Seat + 1.")]
    right: Annotated[Seat, F("Seat - 1.")]


class NeighbourLongest(TypedDict):
    """The length of each neighbour's shown longest pattern."""

    left: Length
    right: Length


class NeighbourTopRanks(TypedDict):
    """The top rank of each neighbour's shown longest pattern."""

    left: TopRank
    right: TopRank


class SeatScore(TypedDict):
    """One seat's score: own longest * neighbours' longest summed + the rest, with the
    arrangement it shows and the tiebreakers."""

    seat: Seat
    score: Annotated[Count, F("longest_length * (neighbours' longest summed) + rest_value.")]
    longest_length: Length
    top_rank: TopRank
    rest_value: Annotated[Count, F("Sum of (length - 1) of the other patterns.")]
    arrangement: Annotated[ArrangementCodes, F("The arrangement shown, as face codes.")]
    arrangement_rule: Annotated[
        Literal["longest_first", "most_other_patterns"],
        F(
            "Why this arrangement is shown (each seat shows the one that maximises its own "
            "score): longest_first, the longest possible pattern and then the most from the "
            "others, whenever a neighbour holds a pattern; most_other_patterns when neither "
            "neighbour holds any, so only the other patterns score and a long pattern may "
            "be split."
        ),
    ]
    arrangement_ids: ArrangementIds
    neighbours: Neighbours
    neighbour_longest: NeighbourLongest
    neighbour_top_ranks: NeighbourTopRanks
    tie_break: Annotated[
        list[Annotated[int, F(minimum=0, maximum=13)]],
        F("own top rank, neighbours' higher, neighbours' lower", min_items=3, max_items=3),
    ]


class Scores(TypedDict):
    """Final scores once time is up; before that hands are secret, so nothing."""

    final: Annotated[bool, F("Whether time is up (empty lists before).")]
    seats: Annotated[list[SeatScore], F("In seat order.")]
    places: Annotated[
        list[list[Seat]],
        F(
            "Seats by place, best first: seats equal on score and on all three "
            "tiebreakers share a place."
        ),
    ]


# ---------------------------------------------------------------- events ------------
class ReadyEvent(TypedDict):
    """A seat declared it is ready."""

    type: Literal["ready"]
    seat: Seat
    explanation: Explanation


class TimerStartedEvent(TypedDict):
    """Every seat is ready (or the host started it): the timer runs."""

    type: Literal["timer_started"]
    started_ms: Annotated[Ms, F("When it started.")]
    deadline_ms: Annotated[Ms, F("When time is up.")]
    explanation: Explanation


class OfferMadeEvent(_FromTo):
    """An offer (or a proposal to undo a trade) was made; what it gives and asks only
    the two seats see."""

    type: Literal["offer_made"]
    offer: Annotated[ObjectId, F("The new offer's id.")]
    kind: OfferKind
    trade: NotRequired[Annotated[ObjectId, F("For an undo: the trade it would undo.")]]
    count: Annotated[int, F("Cards on each side.", minimum=1)]
    give: NotRequired[Annotated[list[Card], F("The cards offered. Two seats only.")]]
    ask: NotRequired[Annotated[list[Ask], F("What is asked back. Two seats only.")]]
    explanation: Explanation


class OfferDeclinedEvent(TypedDict):
    """The seat an offer was made to declined it."""

    type: Literal["offer_declined"]
    offer: Annotated[ObjectId, F("The offer.")]
    by: Annotated[Seat, F("The seat that declined.")]
    explanation: Explanation


class OfferWithdrawnEvent(TypedDict):
    """The maker withdrew its offer."""

    type: Literal["offer_withdrawn"]
    offer: Annotated[ObjectId, F("The offer.")]
    by: Annotated[Seat, F("The seat that withdrew it.")]
    explanation: Explanation


class TradeFacts(TypedDict):
    trade: Annotated[ObjectId, F("The new trade's id.")]
    offer: Annotated[ObjectId, F("The offer accepted.")]
    undoes: Annotated[ObjectId | None, F("The trade this one undoes; null for a trade.")]
    seats: Annotated[
        list[Seat], F("The offer's maker, then the seat that accepted.", min_items=2, max_items=2)
    ]
    count: Annotated[Count, F("Cards each side gave.")]
    gave: NotRequired[
        Annotated[
            list[list[Card]],
            F("What each seat gave, in the order of `seats`. Two seats only.",
              min_items=2, max_items=2),
        ]
    ]  # fmt: skip
    explanation: Explanation


class TradeExecutedEvent(TradeFacts):
    """An offer was accepted: the cards changed hands."""

    type: Literal["trade_executed"]


class TradeUndoneEvent(TradeFacts):
    """A proposal to undo a trade was accepted: the cards went back."""

    type: Literal["trade_undone"]


class LoanMadeEvent(TypedDict):
    """A seat lent cards to a neighbour; which cards only the two seats see."""

    type: Literal["loan_made"]
    loan: Annotated[ObjectId, F("The new loan's id.")]
    lender: Annotated[Seat, F("The seat that lent.")]
    debtor: Annotated[Seat, F("The seat that borrowed.")]
    count: Annotated[int, F("Cards lent.", minimum=1)]
    cards: NotRequired[Annotated[list[Card], F("The cards lent. Two seats only.")]]
    explanation: Explanation


class LoanCalledEvent(TypedDict):
    """A lender called its loan in: the debtor must repay before anything else."""

    type: Literal["loan_called"]
    loan: Annotated[ObjectId, F("The loan.")]
    lender: Annotated[Seat, F("The seat that called it.")]
    debtor: Annotated[Seat, F("The seat that must repay.")]
    owed: Annotated[Count, F("Cards to return now (what is owed, or all it holds).")]
    explanation: Explanation


class LoanRepaidEvent(TypedDict):
    """A debtor returned cards on a loan; which cards only the two seats see."""

    type: Literal["loan_repaid"]
    loan: Annotated[ObjectId, F("The loan.")]
    lender: Annotated[Seat, F("The seat that lent.")]
    debtor: Annotated[Seat, F("The seat that repaid.")]
    count: Annotated[Count, F("Cards returned (none from a called debtor holding none).")]
    remaining: Annotated[Count, F("Cards still owed (0: the loan is closed).")]
    cards: NotRequired[Annotated[list[Card], F("The cards returned. Two seats only.")]]
    explanation: Explanation


class TimeUpEvent(TypedDict):
    """The timer reached zero: trading has stopped."""

    type: Literal["time_up"]
    at_ms: Annotated[Ms, F("When time ran out (the deadline, or the first move after it).")]
    explanation: Explanation


class LoanSettledEvent(Settlement):
    """An open loan was settled when time ran out (every seat ends with its start count)."""

    type: Literal["loan_settled"]
    explanation: Explanation


class GameOverEvent(GameOver):
    """Time is up and loans are settled: the final outcome."""

    explanation: Annotated[
        str,
        F(
            "The end in words: how a seat scores, each seat's final arrangement with the "
            "patterns it scored and its score, and who won."
        ),
    ]


# ---------------------------------------------------------------- own operations ----
# Polymer's two operations besides moves (served as session endpoints): a seat checks
# the arrangement it would show (``game.declared``), and the host starts the timer
# (``game.start_timer``: no body; it answers with the session and its events).
CardRef = Annotated[
    Annotated[AnyCardId, F("A card's id (0-103).")]
    | Annotated[str, F("A face code ('QS', '10h'): a copy of it you hold.")],
    F("A card of your hand, by id or by face code."),
]


class ArrangementRequest(TypedDict):
    """The patterns you would show, to check them and score them against your best."""

    seat: Annotated[
        Seat,
        F(
            "Your seat: the credential in the Authorization header must be this seat's "
            "token or the host token.",
            example=0,
        ),
    ]
    patterns: Annotated[
        list[list[CardRef]],
        F(
            "Your patterns, each a list of card ids or codes.",
            example=[["7S", "8S", "9S"], ["QH", "QD"]],
            code="bad_patterns",
        ),
    ]


class ScoredArrangement(ArrangementCodes):
    """An arrangement's patterns and figures; its score once the neighbours are known."""

    longest_length: Annotated[Length, F("Longest pattern.")]
    rest_value: Annotated[Count, F("Sum of (length - 1) of the other patterns.")]
    score: Annotated[
        Count | None,
        F(
            "The score it would earn; null while the timer runs (it needs the neighbours' "
            "longest patterns, and their hands are secret until time is up)."
        ),
    ]


class ArrangementCheck(TypedDict):
    """A valid declared arrangement, scored against your best (a refused one is a
    problem: not_a_pattern, card_not_in_hand, card_used_twice, bad_card...)."""

    valid: Annotated[Literal[True], F("Always true: a refused arrangement is a problem.")]
    declared: Annotated[ScoredArrangement, F("The arrangement you declared.")]
    best: Annotated[
        ScoredArrangement,
        F("Your best arrangement (the one your score uses at the end)."),
    ]
    neighbour_longest_sum: Annotated[
        Count | None,
        F("Neighbours' longest patterns, summed; null until time is up."),
    ]


class CardFault(TypedDict):
    """The details of card_not_in_hand and card_used_twice: the card at fault."""

    card: Annotated[CardId, F("The card's id.")]


class BadCard(TypedDict):
    """The details of bad_card: what was given where a card was expected, as sent."""

    given: NotRequired[Annotated[str, F("A code that names no face.", example="00")]]
    card: NotRequired[Annotated[int, F("A number that is not a card id (0-103).", example=104)]]


class PatternFault(TypedDict):
    """The details of not_a_pattern: why, and the cards of the pattern at fault."""

    reason: Annotated[
        Literal["fewer_than_two", "mixed_suits", "repeated_rank", "not_consecutive"],
        F(
            "fewer_than_two: a pattern has at least two cards; otherwise its ranks differ "
            "(so it is no group) and, for a sequence, its suits differ (mixed_suits), it "
            "repeats a rank (repeated_rank) or its ranks are not consecutive "
            "(not_consecutive)."
        ),
    ]
    cards: Annotated[list[CardId], F("The pattern's card ids (empty for an empty pattern).")]


ARRANGEMENT_DETAILS: Mapping[str, type] = {
    "card_not_in_hand": CardFault,
    "card_used_twice": CardFault,
    "bad_card": BadCard,
    "not_a_pattern": PatternFault,
}
"""The ``details`` of the arrangement check's refusals, one declared object per code
(``not_started`` and ``bad_patterns`` have none). A list in them has one item type, so
an empty list (``patterns: [[]]``) matches exactly one shape."""


class PublicLoan(TypedDict):
    """An open loan, as every session answer and stream message shows it."""

    id: ObjectId
    lender: Annotated[Seat, F("The seat that lent.")]
    debtor: Annotated[Seat, F("The seat that borrowed.")]
    outstanding: Annotated[int, F("Cards still owed.", minimum=1)]
    called: Annotated[bool, F("Called in: the debtor must repay before anything else.")]


class SessionClock(TypedDict):
    """Polymer's public members of every session answer and stream message: the phase,
    the deadline and the server's clock, and the open loans."""

    phase: Phase
    deadline_ms: Annotated[
        Ms | None, F("When time is up (ms since the epoch, server clock); null before the start.")
    ]
    deadline_at: Annotated[
        str | None, F("The deadline as a date-time; null before the start.", format="date-time")
    ]
    server_now_ms: Annotated[Ms, F("The server clock (Redis's).")]
    server_now: Annotated[str, F("The server clock as a date-time.", format="date-time")]
    loans: Annotated[list[PublicLoan], F("Open loans and loan calls (public).")]
