"""Element-symbol words: spelling rule, shipped list, index vs brute force, validation."""

from __future__ import annotations

import importlib.util
import re
import sys
from itertools import combinations
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.chemistry.elements import ELEMENTS
from rules.chemistry.words import (
    DEFAULT_WORDS,
    Spelling,
    WordIndex,
    spellings,
    validate_word_list,
)
from rules.core import RuleViolation

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "rules" / "chemistry" / "data" / "words5.txt"


def mask(numbers: tuple[int, ...] | list[int] | set[int]) -> int:
    return sum(1 << z for z in set(numbers))


# --- the spelling rule ---------------------------------------------------------------


def test_bacon() -> None:
    assert spellings("bacon") == ((5, 89, 8, 7), (56, 6, 8, 7), (56, 27, 7))
    index = WordIndex(["bacon"])
    assert [s.symbols for s in index.spellings] == [
        ("B", "Ac", "O", "N"),
        ("Ba", "C", "O", "N"),
        ("Ba", "Co", "N"),
    ]


def test_case_insensitive() -> None:
    assert spellings("BaCoN") == spellings("BACON") == spellings("bacon")


def test_no_element_twice() -> None:
    # C O C O S and Co Co S would repeat an element; the others do not
    assert spellings("cocos") == ((6, 8, 27, 16), (27, 6, 8, 16), (27, 6, 76))
    assert spellings("booth") == ()  # B O O Th: oxygen twice
    assert spellings("bliss") == ()  # B Li S S: sulfur twice
    for word in DEFAULT_WORDS:
        for numbers in spellings(word):
            assert len(set(numbers)) == len(numbers), word


def test_symbols_concatenate_to_the_word() -> None:
    index = WordIndex.default(103)
    for s in index.spellings:
        assert "".join(s.symbols).lower() == s.word
        assert tuple(ELEMENTS[z - 1].symbol for z in s.numbers) == s.symbols


def test_not_a_symbol_letter() -> None:
    assert spellings("jquxz") == ()  # j and q are in no symbol
    assert spellings("") == ()
    assert spellings("na-cl") == ()


def test_max_z() -> None:
    assert spellings("bacon", max_z=88) == ((56, 6, 8, 7), (56, 27, 7))
    assert spellings("bacon", max_z=55) == ()
    for bad in (0, 104, True, "36"):
        with pytest.raises(ValueError):
            spellings("bacon", max_z=bad)  # type: ignore[arg-type]


def test_two_player_deck() -> None:
    small = WordIndex.default(36)
    assert all(max(s.numbers) <= 36 for s in small.spellings)
    assert "bacon" not in small.spellable_words
    expected = [w for w in DEFAULT_WORDS if any(max(n) <= 36 for n in spellings(w))]
    assert list(small.spellable_words) == expected
    assert len(small) == len(DEFAULT_WORDS)
    assert 100 < len(small.spellable_words) < len(DEFAULT_WORDS)


# --- the shipped word list ------------------------------------------------------------


def test_data_file_header_and_body() -> None:
    text = DATA.read_text(encoding="utf-8")
    header = [line for line in text.splitlines() if line.startswith("#")]
    body = [line for line in text.splitlines() if not line.startswith("#")]
    joined = "\n".join(header)
    assert "wamerican" in joined and "/usr/share/dict/american-english" in joined
    assert re.search(r"sha256: [0-9a-f]{64}", joined)
    assert "make words" in joined
    assert "Kevin Atkinson" in joined  # SCOWL notice kept with the copy
    count = int(re.search(r"^# Count: (\d+)$", joined, re.M).group(1))  # type: ignore[union-attr]
    assert count == len(body) == len(DEFAULT_WORDS)
    assert tuple(body) == DEFAULT_WORDS
    assert 1000 < count < 1400  # 1,155 from wamerican 2020.12.07-2


def test_data_words_are_sorted_unique_spellable() -> None:
    assert list(DEFAULT_WORDS) == sorted(set(DEFAULT_WORDS))
    assert all(re.fullmatch("[a-z]{5}", w) for w in DEFAULT_WORDS)
    assert all(spellings(w) for w in DEFAULT_WORDS)
    full = WordIndex.default(103)
    assert full.spellable_words == DEFAULT_WORDS
    assert {"bacon", "chops", "scone"} <= set(DEFAULT_WORDS)


def _load_build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_words", ROOT / "scripts/build_words.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_build_script_filters(tmp_path: Path) -> None:
    source = tmp_path / "words"
    source.write_text(
        "bacon\nBacon\nSCONE\nscone\nchop\nchops's\nbooth\nsheep\ncafés\nchops\nbacon\n",
        encoding="utf-8",
    )
    out = tmp_path / "words5.txt"
    _load_build_script().main(["--source", str(source), "--output", str(out)])
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [w for w in lines if not w.startswith("#")] == ["bacon", "chops", "scone"]
    assert "# Count: 3" in lines


# --- the index -------------------------------------------------------------------------


def brute_completed(index: WordIndex, hand: int, z: int) -> list[Spelling]:
    return [s for s in index.spellings if z in s.numbers and all(hand >> n & 1 for n in s.numbers)]


def brute_spelled(index: WordIndex, hand: int) -> list[Spelling]:
    return [s for s in index.spellings if all(hand >> n & 1 for n in s.numbers)]


def test_completed_by_examples() -> None:
    index = WordIndex(["bacon", "scone", "chops", "sheep"])
    assert len(index) == 4 and index.spellable_words == ("bacon", "chops", "scone")
    hand = mask([56, 27])
    assert index.completed_by(hand, 27) == ()
    hand |= 1 << 7
    assert [s.symbols for s in index.completed_by(hand, 7)] == [("Ba", "Co", "N")]
    assert index.first_completed_by(hand, 7) == Spelling("bacon", (56, 27, 7), ("Ba", "Co", "N"))
    assert index.first_completed_by(hand, 56) == index.first_completed_by(hand, 7)
    assert index.first_spelled(hand) == index.first_completed_by(hand, 7)
    assert index.first_spelled(mask([6, 1, 8, 15, 16])).word == "chops"  # type: ignore[union-attr]


def test_first_is_alphabetical_then_by_numbers() -> None:
    index = WordIndex(["scone", "bacon"])
    # scone is S C O Ne (16 6 8 10) or S Co Ne (16 27 10); both words use carbon here
    hand = mask([56, 6, 8, 7, 16, 10, 27])
    assert [s.word for s in index.completed_by(hand, 6)] == ["bacon", "scone"]
    first = index.first_completed_by(hand, 6)
    assert first is not None and (first.word, first.numbers) == ("bacon", (56, 6, 8, 7))


def test_draft_must_be_in_mask() -> None:
    index = WordIndex(["bacon"])
    with pytest.raises(ValueError):
        index.first_completed_by(mask([56, 27]), 7)
    with pytest.raises(ValueError):
        index.completed_by(mask([56, 27]), 7)
    with pytest.raises(ValueError):
        index.first_completed_by(1 << 104 | 1, 104)


def test_default_is_cached_per_max_z() -> None:
    assert WordIndex.default(54) is WordIndex.default(54)
    assert WordIndex.default(54) is not WordIndex.default(86)
    assert WordIndex.default().max_z == 103
    with pytest.raises(ValueError):
        WordIndex.default(0)


deck_sizes = st.sampled_from([36, 54, 86, 103])


@settings(max_examples=200, deadline=None)
@given(deck_sizes.flatmap(lambda d: st.tuples(st.just(d), st.permutations(range(1, d + 1)))))
def test_index_matches_brute_force(deck_and_order: tuple[int, list[int]]) -> None:
    deck, order = deck_and_order
    index = WordIndex.default(deck)
    hand = 0
    for z in order[:15]:  # draft a 15-card hand one card at a time
        hand |= 1 << z
        expected = brute_completed(index, hand, z)
        assert list(index.completed_by(hand, z)) == expected
        assert index.first_completed_by(hand, z) == (expected[0] if expected else None)
    spelled = brute_spelled(index, hand)
    assert index.first_spelled(hand) == (spelled[0] if spelled else None)


def test_completed_spellings_are_new() -> None:
    # every spelling a draft completes uses that card, so it was not spelled before it
    index = WordIndex.default(36)
    symbols_36 = list(range(1, 37))
    for cards in combinations(symbols_36[:12], 5):
        hand = mask(cards)
        for z in cards:
            for s in index.completed_by(hand, z):
                before = hand & ~(1 << z)
                assert s.mask & ~before != 0


# --- teachers' lists ---------------------------------------------------------------------


def test_from_words_normalises() -> None:
    index = WordIndex.from_words(["Bacon", "JUMPY", "bacon", " chops "], 103)
    assert index.words == ("bacon", "chops", "jumpy")
    assert index.spellable_words == ("bacon", "chops")


def test_validate_keeps_order_and_drops_duplicates() -> None:
    assert validate_word_list(["Scone", "bacon", "SCONE"]) == ("scone", "bacon")
    assert validate_word_list(("bacon",)) == ("bacon",)


@pytest.mark.parametrize("words", ["bacon", {"bacon": 1}, None, 5, {"bacon"}])
def test_validate_not_a_list(words: object) -> None:
    with pytest.raises(RuleViolation) as err:
        validate_word_list(words)
    assert err.value.code == "bad_word_list"
    assert "list" in err.value.message


def test_validate_names_the_bad_words() -> None:
    with pytest.raises(RuleViolation) as err:
        validate_word_list(["bacon", "neon", "chop's", "naïve", "abcdef", "scone"])
    assert err.value.code == "bad_word_list"
    for bad in ("'neon'", '"chop\'s"', "'naïve'", "'abcdef'"):
        assert bad in err.value.message
    assert "bacon" not in err.value.message and "scone" not in err.value.message
    assert err.value.rule and "5-letter word" in err.value.rule


def test_validate_non_strings() -> None:
    with pytest.raises(RuleViolation) as err:
        validate_word_list(["bacon", 12345, None])
    assert "12345" in err.value.message and "None" in err.value.message


def test_validate_length_limits() -> None:
    with pytest.raises(RuleViolation) as err:
        validate_word_list(["bacon"] * 501)
    assert "501" in err.value.message and "500" in err.value.message
    assert len(validate_word_list(["bacon"] * 500)) == 1
    with pytest.raises(RuleViolation):
        validate_word_list(["bacon", "chops"], max_words=1)
    with pytest.raises(RuleViolation) as err:
        validate_word_list([])
    assert "empty" in err.value.message


def test_from_words_rejects_bad_lists() -> None:
    with pytest.raises(RuleViolation):
        WordIndex.from_words(["bacon", "no"], 103)
