"""Polymer's cards: two 52-card French decks without jokers, ids 0..103.

``face = id % 52`` (so ids ``f`` and ``f + 52`` are identical cards from the two
decks), ``suit = face // 13`` indexes :data:`SUITS` (clubs, diamonds, hearts,
spades) and ``rank = face % 13 + 1`` runs from 1 (A) to 13 (K).

>>> card_code(0), card_code(12), card_code(51), card_code(51 + 52)
('AC', 'KC', 'KS', 'KS')
>>> parse_face("10d"), card_code(parse_face("10d"))
(22, '10D')
>>> card_json(50)
{'id': 50, 'code': 'QS', 'rank': 12, 'suit': 'S', 'label': 'Q♠'}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.core import RuleViolation
from rules.shapes import quote

from .wire import Card, Suit

SUITS: tuple[Suit, ...] = ("C", "D", "H", "S")
"""Suit letters in suit-index order: clubs, diamonds, hearts, spades."""

SUIT_SYMBOLS: dict[str, str] = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
"""Display symbol for each suit letter."""

RANK_LABELS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank labels; ``RANK_LABELS[rank - 1]`` is the label of ``rank`` (1 = A, 13 = K)."""

FACES = 52
"""Distinct faces (one French deck)."""

DECK_SIZE = 104
"""Cards in play: two decks, ids ``0 .. 103``."""

_RANK_BY_LABEL = {label: index + 1 for index, label in enumerate(RANK_LABELS)}
_SUIT_BY_LETTER: dict[str, int] = {letter: index for index, letter in enumerate(SUITS)}


def check_card(card: Any) -> int:
    """Return ``card`` if it is a card id (an ``int`` in ``0..103``), else refuse it.

    >>> check_card(103)
    103
    >>> try:
    ...     check_card(104)
    ... except RuleViolation as err:
    ...     print(err.code, "|", err.message)
    ...     err.details
    bad_card | Card 104 is not a card id: ids are whole numbers 0-103 (two 52-card decks).
    {'card': 104}
    """
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < DECK_SIZE:
        raise RuleViolation(
            "bad_card",
            f"Card {quote(card)} is not a card id: ids are whole numbers 0-{DECK_SIZE - 1} "
            "(two 52-card decks).",
            **given(card),
        )
    return card


def given(value: Any) -> dict[str, Any]:
    """``bad_card``'s details, as the contract declares them (``wire.BadCard``): a number
    as ``card``, a string as ``given``, nothing for a value of another JSON type.

    >>> given(104), given("1S"), given([None])
    ({'card': 104}, {'given': '1S'}, {})
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return {"card": value}
    return {"given": value} if isinstance(value, str) else {}


def check_hand(hand: Iterable[Any]) -> list[int]:
    """Return the hand's card ids as a list, refusing bad ids and an id held twice.

    The same face may appear twice (once from each deck, ids ``f`` and ``f + 52``);
    the same id may not.

    >>> check_hand([7, 59])
    [7, 59]
    >>> try:
    ...     check_hand([7, 7])
    ... except RuleViolation as err:
    ...     print(err.code, "|", err.message)
    duplicate_card | Card 7 (8C) appears twice in the hand; each card id is one physical card.
    """
    ids: list[int] = []
    seen: set[int] = set()
    for card in hand:
        check_card(card)
        if card in seen:
            raise RuleViolation(
                "duplicate_card",
                f"Card {card} ({card_code(card)}) appears twice in the hand; "
                "each card id is one physical card.",
                card=card,
            )
        seen.add(card)
        ids.append(card)
    return ids


def face_of(card: int) -> int:
    """The face ``0..51`` of a card id; the two decks' copies share a face.

    >>> face_of(5), face_of(57)
    (5, 5)
    """
    return card % FACES


def rank_of(card: int) -> int:
    """Rank 1 (A) .. 13 (K) of a card id.

    >>> rank_of(0), rank_of(10), rank_of(64)
    (1, 11, 13)
    """
    return card % FACES % 13 + 1


def suit_of(card: int) -> Suit:
    """Suit letter of a card id.

    >>> suit_of(0), suit_of(13), suit_of(26), suit_of(39 + 52)
    ('C', 'D', 'H', 'S')
    """
    return SUITS[card % FACES // 13]


def twin(card: int) -> int:
    """The identical card from the other deck.

    >>> twin(3), twin(55)
    (55, 3)
    """
    return (card + FACES) % DECK_SIZE


def card_code(card: int) -> str:
    """Rank label followed by suit letter: ``"AS"``, ``"10D"``, ``"QH"``.

    >>> [card_code(c) for c in (39, 9, 24, 62)]
    ['AS', '10C', 'QD', 'JC']
    """
    return RANK_LABELS[rank_of(card) - 1] + suit_of(card)


def card_label(card: int) -> str:
    """Rank label followed by suit symbol, for display: ``"Q♠"``.

    >>> card_label(50), card_label(22)
    ('Q♠', '10♦')
    """
    return RANK_LABELS[rank_of(card) - 1] + SUIT_SYMBOLS[suit_of(card)]


def parse_face(code: Any) -> int:
    """The face ``0..51`` named by a code such as ``"QS"`` or ``"10d"`` (any case).

    Both decks' copies of a face have the same code, so a code names a face, not an
    id: the id is ``face`` or ``face + 52``.

    >>> parse_face("AS"), parse_face("ks"), parse_face("10H")
    (39, 51, 35)
    >>> try:
    ...     parse_face("1S")
    ... except RuleViolation as err:
    ...     print(err.code, "|", err.message[:30], "|", err.details)
    bad_card | "1S" is not a card code: write | {'given': '1S'}
    """
    if isinstance(code, str) and len(code) >= 2:
        rank = _RANK_BY_LABEL.get(code[:-1].upper())
        suit = _SUIT_BY_LETTER.get(code[-1].upper())
        if rank is not None and suit is not None:
            return suit * 13 + rank - 1
    raise RuleViolation(
        "bad_card",
        f"{quote(code)} is not a card code: write the rank (A, 2-10, J, Q, K) then the "
        'suit (C, D, H, S), e.g. "QS" or "10D".',
        **given(code),
    )


def ids_for_codes(codes: Iterable[str] | str) -> list[int]:
    """Card ids for codes, first deck first: a code's second use takes the other deck's id.

    Handy for examples and tests; a string is split on whitespace.

    >>> ids_for_codes("7S 7S 8S")
    [45, 97, 46]
    >>> try:
    ...     ids_for_codes(["7S", "7S", "7s"])
    ... except RuleViolation as err:
    ...     print(err.code)
    bad_card
    """
    items = codes.split() if isinstance(codes, str) else list(codes)
    seen: dict[int, int] = {}
    ids: list[int] = []
    for code in items:
        face = parse_face(code)
        copies = seen.get(face, 0)
        if copies >= 2:
            raise RuleViolation(
                "bad_card",
                f"{quote(code)} is used a third time; there are only two decks.",
                **given(code),
            )
        seen[face] = copies + 1
        ids.append(face + FACES * copies)
    return ids


def card_json(card: int) -> Card:
    """A card as JSON: id, code, rank number, suit letter and display label.

    >>> card_json(0)
    {'id': 0, 'code': 'AC', 'rank': 1, 'suit': 'C', 'label': 'A♣'}
    """
    return _CARD_JSON[check_card(card)].copy()


def _card_json(card: int) -> Card:
    return {
        "id": card,
        "code": card_code(card),
        "rank": rank_of(card),
        "suit": suit_of(card),
        "label": card_label(card),
    }


_CARD_JSON: tuple[Card, ...] = tuple(_card_json(c) for c in range(DECK_SIZE))
