"""Polymer's cards: ids 0..103 over two French decks, codes, faces, JSON."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules.polymer.cards as cards_module
from rules.core import RuleViolation
from rules.polymer.cards import (
    DECK_SIZE,
    SUITS,
    card_code,
    card_json,
    card_label,
    check_card,
    check_hand,
    face_of,
    ids_for_codes,
    parse_face,
    rank_of,
    suit_of,
    twin,
)
from rules.shapes import quote


def test_doctests() -> None:
    result = doctest.testmod(cards_module)
    assert result.attempted > 10
    assert result.failed == 0


def test_layout_of_the_double_deck() -> None:
    assert SUITS == ("C", "D", "H", "S")
    assert DECK_SIZE == 104
    assert [card_code(c) for c in (0, 12, 13, 25, 26, 38, 39, 51)] == [
        "AC",
        "KC",
        "AD",
        "KD",
        "AH",
        "KH",
        "AS",
        "KS",
    ]
    assert [card_code(c) for c in (9, 10, 11)] == ["10C", "JC", "QC"]
    assert all(card_code(c) == card_code(c + 52) for c in range(52))
    assert len({card_code(c) for c in range(DECK_SIZE)}) == 52


def test_card_json() -> None:
    assert card_json(50) == {"id": 50, "code": "QS", "rank": 12, "suit": "S", "label": "Q♠"}
    assert card_json(102) == {"id": 102, "code": "QS", "rank": 12, "suit": "S", "label": "Q♠"}
    assert card_json(61) == {"id": 61, "code": "10C", "rank": 10, "suit": "C", "label": "10♣"}
    assert [card_label(c) for c in (0, 13, 26, 39)] == ["A♣", "A♦", "A♥", "A♠"]


@given(st.integers(0, DECK_SIZE - 1))
def test_code_round_trip(card: int) -> None:
    code = card_code(card)
    assert parse_face(code) == face_of(card) == card % 52
    assert parse_face(code.lower()) == face_of(card)
    assert rank_of(card) == face_of(card) % 13 + 1
    assert suit_of(card) == SUITS[face_of(card) // 13]
    assert twin(twin(card)) == card and face_of(twin(card)) == face_of(card)
    assert card_json(card)["code"] == code


@pytest.mark.parametrize(
    "code", ["", "S", "1S", "11S", "QX", "Q", "10", "QS ", 5, None, "AS!", "0S", "T S"]
)
def test_parse_face_refuses_bad_codes(code: object) -> None:
    with pytest.raises(RuleViolation) as info:
        parse_face(code)
    assert info.value.code == "bad_card"
    assert quote(code) in info.value.message  # as it was sent, in JSON's spelling
    # the details the contract declares (wire.BadCard): a string as given, a number as
    # card, nothing for another JSON value
    assert info.value.details == expected_details(code)


def expected_details(value: object) -> dict[str, object]:
    if isinstance(value, str):
        return {"given": value}
    return {"card": value} if isinstance(value, int) and not isinstance(value, bool) else {}


@pytest.mark.parametrize("card", [-1, 104, 3.0, "7", True, None, [None, None]])
def test_check_card_refuses_non_ids(card: object) -> None:
    with pytest.raises(RuleViolation) as info:
        check_card(card)
    assert info.value.code == "bad_card"
    assert info.value.details == expected_details(card)
    assert quote(card) in info.value.message
    with pytest.raises(RuleViolation):
        card_json(card)  # type: ignore[arg-type]


def test_check_hand() -> None:
    assert check_hand((3, 55)) == [3, 55]
    with pytest.raises(RuleViolation) as info:
        check_hand([3, 4, 3])
    assert info.value.code == "duplicate_card"
    assert "Card 3 (4C)" in info.value.message


def test_ids_for_codes() -> None:
    assert ids_for_codes("AS as KH") == [39, 91, 38]
    assert ids_for_codes(["10d", "10D"]) == [22, 74]
    with pytest.raises(RuleViolation) as info:
        ids_for_codes("2C 2C 2C")
    assert info.value.code == "bad_card"
