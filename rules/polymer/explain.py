"""What Polymer's events say to a learner: who traded what with whom, a loan, its call
and its repayment, time up, and each seat's final arrangement with the patterns it
scored.

A sentence names cards only where the event may: the public sentence of an offer, a
trade or a loan says how many cards moved, and the two seats concerned get the same
sentence with the cards named (the event's ``private`` part), as they see the cards
themselves. Once time is up every hand is shown, so the settlement and the final
arrangements name their cards to everyone. Cards are named by their labels (``Q♠``,
``10♥``); an ask is a face or "any card".

>>> offered(3, 0, 1, [50, 35], ["7S", "any"])
'Seat 0 offers seat 1 Q♠ and 10♥ for 7♠ and any card (offer #3).'
>>> print(offered(3, 0, 1, None, ["7S", "any"]))  # doctest: +NORMALIZE_WHITESPACE
Seat 0 offers seat 1 a trade of 2 cards for 2 of theirs (offer #3); only the two of
them see which.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.text import plural

from .cards import card_label, parse_face
from .patterns import is_group

Cards = Sequence[int] | None
"""Card ids to name, or None for the public sentence (how many, never which)."""


# ---------------------------------------------------------------- words -------------
def listing(items: Sequence[str]) -> str:
    """Items joined as a sentence says them.

    >>> listing(["A♠"]), listing(["A♠", "2♠"]), listing(["A♠", "2♠", "3♠"])
    ('A♠', 'A♠ and 2♠', 'A♠, 2♠ and 3♠')
    >>> listing([])
    'none'
    """
    if not items:
        return "none"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} and {items[-1]}"


def labels(cards: Sequence[int]) -> str:
    """Cards by their labels, in the order given.

    >>> labels([50, 22])
    'Q♠ and 10♦'
    """
    return listing([card_label(c) for c in cards])


def asked(asks: Sequence[str]) -> str:
    """What an offer asks for: faces by their labels, ``any`` as "any card".

    >>> asked(["QS", "any", "any"])
    'Q♠, any card and any card'
    """
    return listing(["any card" if a == "any" else card_label(parse_face(a)) for a in asks])


def span(seconds: int) -> str:
    """A timer's length in words.

    >>> span(600), span(90), span(60), span(45), span(3601)
    ('10 minutes', '1 minute 30 seconds', '1 minute', '45 seconds', '60 minutes 1 second')
    """
    minutes, rest = divmod(seconds, 60)
    parts = [plural(minutes, "minute")] if minutes else []
    if rest or not minutes:
        parts.append(plural(rest, "second"))
    return " ".join(parts)


# ---------------------------------------------------------------- the start ---------
def ready(seat: int, count: int, players: int) -> str:
    """A seat declared it is ready (``count`` of ``players`` now are).

    >>> ready(2, 3, 5)
    'Seat 2 is ready (3 of 5 seats).'
    """
    return f"Seat {seat} is ready ({count} of {players} seats)."


def timer_started(seconds: int) -> str:
    """The timer starts.

    >>> print(timer_started(600))  # doctest: +NORMALIZE_WHITESPACE
    The timer starts: 10 minutes to trade with your two neighbours. Every seat may now
    look at its own hand.
    """
    return (
        f"The timer starts: {span(seconds)} to trade with your two neighbours. Every seat "
        "may now look at its own hand."
    )


# ---------------------------------------------------------------- offers ------------
def offered(offer: int, maker: int, to: int, give: Cards, asks: Sequence[str]) -> str:
    """An offer of a trade; ``give`` None: the public sentence."""
    if give is None:
        n = len(asks)
        return (
            f"Seat {maker} offers seat {to} a trade of {plural(n, 'card')} for {n} of theirs "
            f"(offer #{offer}); only the two of them see which."
        )
    return f"Seat {maker} offers seat {to} {labels(give)} for {asked(asks)} (offer #{offer})."


def undo_offered(
    offer: int, trade: int, maker: int, to: int, back: Cards, asks: Sequence[str]
) -> str:
    """A proposal to undo a trade; ``back`` (what the maker gives back) None: public.

    >>> print(undo_offered(6, 5, 0, 1, None, ["7S"]))  # doctest: +NORMALIZE_WHITESPACE
    Seat 0 proposes to undo trade #5 with seat 1 (offer #6): each would take back its 1
    card.
    >>> print(undo_offered(6, 5, 0, 1, [50], ["7S"]))  # doctest: +NORMALIZE_WHITESPACE
    Seat 0 proposes to undo trade #5 with seat 1 (offer #6): seat 0 would give back Q♠
    and take back 7♠.
    """
    head = f"Seat {maker} proposes to undo trade #{trade} with seat {to} (offer #{offer})"
    if back is None:
        return f"{head}: each would take back its {plural(len(asks), 'card')}."
    return f"{head}: seat {maker} would give back {labels(back)} and take back {asked(asks)}."


def declined(offer: int, maker: int, by: int) -> str:
    """The seat an offer was made to declined it.

    >>> declined(3, 0, 1)
    "Seat 1 declines seat 0's offer #3."
    """
    return f"Seat {by} declines seat {maker}'s offer #{offer}."


def withdrawn(offer: int, by: int, to: int) -> str:
    """The maker withdrew its offer.

    >>> withdrawn(3, 0, 1)
    'Seat 0 withdraws its offer #3 to seat 1.'
    """
    return f"Seat {by} withdraws its offer #{offer} to seat {to}."


def traded(
    trade: int,
    offer: int,
    undoes: int | None,
    seats: Sequence[int],
    count: int,
    gave: Sequence[Sequence[int]] | None,
) -> str:
    """An accepted offer (or undo); ``gave`` (each seat's cards, maker first) None: the
    public sentence.

    >>> traded(7, 3, None, [0, 1], 1, None)
    "Seat 1 accepts seat 0's offer #3: they swap 1 card each (trade #7)."
    >>> traded(7, 3, None, [0, 1], 1, [[50], [45]])
    "Seat 1 accepts seat 0's offer #3 (trade #7): seat 0 gives Q♠, seat 1 gives 7♠."
    >>> traded(8, 6, 7, [1, 0], 1, None)
    'Seat 0 agrees to undo trade #7 with seat 1: each takes back its 1 card (trade #8).'
    """
    maker, taker = seats
    if undoes is not None:
        head = f"Seat {taker} agrees to undo trade #{undoes} with seat {maker}"
        if gave is None:
            return f"{head}: each takes back its {plural(count, 'card')} (trade #{trade})."
        return (
            f"{head} (trade #{trade}): seat {maker} gives back {labels(gave[0])}, seat "
            f"{taker} gives back {labels(gave[1])}."
        )
    head = f"Seat {taker} accepts seat {maker}'s offer #{offer}"
    if gave is None:
        return f"{head}: they swap {plural(count, 'card')} each (trade #{trade})."
    return (
        f"{head} (trade #{trade}): seat {maker} gives {labels(gave[0])}, seat {taker} gives "
        f"{labels(gave[1])}."
    )


# ---------------------------------------------------------------- loans -------------
def lent(loan: int, lender: int, debtor: int, count: int, cards: Cards) -> str:
    """A loan; ``cards`` None: the public sentence.

    >>> lent(4, 0, 1, 2, None)
    'Seat 0 lends 2 cards to seat 1 (loan #4); it may call them in at any time.'
    >>> lent(4, 0, 1, 1, [35])
    'Seat 0 lends 10♥ to seat 1 (loan #4); it may call it in at any time.'
    """
    what = plural(count, "card") if cards is None else labels(cards)
    them = "it" if count == 1 else "them"
    return (
        f"Seat {lender} lends {what} to seat {debtor} (loan #{loan}); it may call {them} in "
        "at any time."
    )


def called(loan: int, lender: int, debtor: int, owed: int) -> str:
    """A loan called in.

    >>> print(called(4, 0, 1, 2))  # doctest: +NORMALIZE_WHITESPACE
    Seat 0 calls in loan #4: seat 1 must return 2 cards to seat 0 before it may do
    anything else.
    >>> print(called(4, 0, 1, 0))  # doctest: +NORMALIZE_WHITESPACE
    Seat 0 calls in loan #4: seat 1 holds no card, so it answers the call by returning
    none.
    """
    if owed == 0:
        return (
            f"Seat {lender} calls in loan #{loan}: seat {debtor} holds no card, so it answers "
            "the call by returning none."
        )
    return (
        f"Seat {lender} calls in loan #{loan}: seat {debtor} must return {plural(owed, 'card')} "
        f"to seat {lender} before it may do anything else."
    )


def repaid(loan: int, lender: int, debtor: int, count: int, remaining: int, cards: Cards) -> str:
    """Cards returned on a loan; ``cards`` None: the public sentence.

    >>> repaid(4, 0, 1, 2, 0, None)
    'Seat 1 returns 2 cards to seat 0 on loan #4; the loan is closed.'
    >>> repaid(4, 0, 1, 1, 1, [35])
    'Seat 1 returns 10♥ to seat 0 on loan #4; 1 card is still owed.'
    >>> print(repaid(4, 0, 1, 0, 2, []))  # doctest: +NORMALIZE_WHITESPACE
    Seat 1, holding no card, answers the call on loan #4 with none; 2 cards are still
    owed.
    """
    left = (
        "the loan is closed"
        if remaining == 0
        else f"{plural(remaining, 'card')} {'is' if remaining == 1 else 'are'} still owed"
    )
    if count == 0:
        return (
            f"Seat {debtor}, holding no card, answers the call on loan #{loan} with none; {left}."
        )
    what = plural(count, "card") if cards is None else labels(cards)
    return f"Seat {debtor} returns {what} to seat {lender} on loan #{loan}; {left}."


# ---------------------------------------------------------------- the end -----------
def time_up(seconds: int, open_loans: int) -> str:
    """Time is up (``open_loans`` are then settled).

    >>> print(time_up(600, 2))  # doctest: +NORMALIZE_WHITESPACE
    Time is up after 10 minutes: trading stops. The 2 open loans are settled, then every
    hand is shown and scored.
    >>> time_up(60, 0)
    'Time is up after 1 minute: trading stops. Every hand is shown and scored.'
    """
    head = f"Time is up after {span(seconds)}: trading stops."
    if open_loans == 0:
        return f"{head} Every hand is shown and scored."
    loans = "The open loan is" if open_loans == 1 else f"The {open_loans} open loans are"
    return f"{head} {loans} settled, then every hand is shown and scored."


def settled(loan: int, lender: int, debtor: int, cards: Sequence[int]) -> str:
    """An open loan settled when time ran out (every hand is shown then).

    >>> settled(4, 0, 1, [35, 50])
    'Time ran out with loan #4 open: seat 1 returns 10♥ and Q♠ to seat 0.'
    """
    return (
        f"Time ran out with loan #{loan} open: seat {debtor} returns {labels(cards)} to seat "
        f"{lender}."
    )


def pattern(ids: Sequence[int]) -> str:
    """One pattern in words: a group or a sequence, its length and its cards.

    >>> pattern([45, 46, 47]), pattern([11, 24])
    ('a sequence of 3 (7♠ 8♠ 9♠)', 'a group of 2 (Q♣ Q♦)')
    """
    kind = "group" if is_group(ids) else "sequence"
    return f"a {kind} of {len(ids)} ({' '.join(card_label(c) for c in ids)})"


def seat_scored(row: Mapping[str, Any]) -> str:
    """One seat's final arrangement, the patterns it scored and its score (a row of
    ``patterns.table_scores``).

    >>> row = {"seat": 0, "score": 9, "longest_length": 3, "rest_value": 1,
    ...        "arrangement_rule": "longest_first",
    ...        "arrangement_ids": {"longest": [45, 46, 47], "others": [[11, 24]], "unused": [0]},
    ...        "neighbour_longest": {"left": 2, "right": 0}}
    >>> print(seat_scored(row))  # doctest: +NORMALIZE_WHITESPACE
    Seat 0 shows its longest pattern, a sequence of 3 (7♠ 8♠ 9♠), and 1 other pattern:
    a group of 2 (Q♣ Q♦); 3 x (2 + 0) + 1 = 9 points.
    """
    seat, ids = row["seat"], row["arrangement_ids"]
    others = [pattern(p) for p in ids["others"]]
    if not ids["longest"] and not others:
        return f"Seat {seat} holds no pattern: 0 points."
    parts = [f"its longest pattern, {pattern(ids['longest'])}"] if ids["longest"] else []
    if others:
        parts.append(f"{plural(len(others), 'other pattern')}: {listing(others)}")
    why = ""
    if row["arrangement_rule"] == "most_other_patterns":
        why = (
            " (neither neighbour holds a pattern, so it shows the split whose other patterns "
            "count most)"
        )
    near = row["neighbour_longest"]
    return (
        f"Seat {seat} shows {', and '.join(parts)}{why}; {row['longest_length']} x "
        f"({near['left']} + {near['right']}) + {row['rest_value']} = "
        f"{plural(int(row['score']), 'point')}."
    )


def final(table: Sequence[Mapping[str, Any]], winners: Sequence[int], tie_break: str | None) -> str:
    """The game's end: the rule, every seat's arrangement and score, the winner.

    >>> rows = [{"seat": s, "score": 0, "longest_length": 0, "rest_value": 0,
    ...          "arrangement_rule": "longest_first",
    ...          "arrangement_ids": {"longest": [], "others": [], "unused": []},
    ...          "neighbour_longest": {"left": 0, "right": 0}} for s in range(2)]
    >>> print(final(rows, [0, 1], "shared"))  # doctest: +NORMALIZE_WHITESPACE
    Time is up and loans are settled; every seat shows its patterns. A seat scores the
    length of its longest pattern times its two neighbours' longest lengths added, plus
    each other pattern's length minus one. Seat 0 holds no pattern: 0 points. Seat 1
    holds no pattern: 0 points. Seats 0 and 1 share first place with 0 points.
    """
    by_seat = {int(row["seat"]): row for row in table}
    top = int(by_seat[winners[0]]["score"])
    if len(winners) > 1:
        who = listing([str(s) for s in winners])
        result = f"Seats {who} share first place with {plural(top, 'point')}."
    else:
        result = f"Seat {winners[0]} wins with {plural(top, 'point')}"
        result += (
            f", ahead on the tiebreaker ({tie_break.replace('_', ' ')})." if tie_break else "."
        )
    return " ".join(
        [
            "Time is up and loans are settled; every seat shows its patterns. A seat scores "
            "the length of its longest pattern times its two neighbours' longest lengths "
            "added, plus each other pattern's length minus one.",
            *(seat_scored(row) for row in table),
            result,
        ]
    )
