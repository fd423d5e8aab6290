"""Views built as their declared ``TypedDict`` (issue 28 item 5, begun with element-draft).

A game whose ``view`` returns its declared ``View`` has every member of what it builds
checked by ``mypy --strict`` (``make typecheck``): a wrong member type fails the type
check, not a test at run time. Element-draft's view (its cards, seats, own seat and word
race places) is built so, and so are Polymer's and the polymer-chain game's (their cards,
offers, trades, loans, chains, seats, own seat and compound tables), with their events.
"""

from __future__ import annotations

import typing
from pathlib import Path

import pytest
from mypy import api

from rules.element_draft import game, wire
from rules.polymer import game as polymer
from rules.polymer import patterns as polymer_patterns
from rules.polymer import scoring as polymer_scoring
from rules.polymer import wire as polymer_wire
from rules.polymerization import game as polymerization
from rules.polymerization import scoring as polymerization_scoring
from rules.polymerization import shown as polymerization_shown
from rules.polymerization import wire as polymerization_wire


def test_element_draft_builds_its_view_as_declared() -> None:
    hints = typing.get_type_hints(game.view)
    assert hints["return"] is wire.View
    assert typing.get_type_hints(game.described)["return"] is wire.Placing


def test_the_polymer_games_build_their_views_and_scores_as_declared() -> None:
    def returns(function: typing.Callable[..., object], **names: object) -> object:
        return typing.get_type_hints(function, localns=names)["return"]

    assert returns(polymer.view) is polymer_wire.View
    assert returns(polymer._offer_view) is polymer_wire.OfferView
    assert returns(polymer._trade_view) is polymer_wire.TradeView
    assert returns(polymer._loan_view) is polymer_wire.LoanView
    assert returns(polymer._seat_view) is polymer_wire.SeatView
    assert returns(polymer._you) is polymer_wire.You
    assert returns(polymer._best) is polymer_wire.Best
    assert returns(polymer_patterns.Arrangement.codes) is polymer_wire.ArrangementCodes
    assert returns(polymer_scoring.scores) is polymer_wire.Scores
    assert returns(polymer.declared) is polymer_wire.ArrangementCheck
    assert returns(polymer._figures) is polymer_wire.ScoredArrangement
    assert returns(polymerization.view) is polymerization_wire.View
    assert returns(polymerization._seat_view) is polymerization_wire.SeatView
    assert returns(polymerization._rules) is polymerization_wire.Rules
    assert returns(polymerization_shown.card_json) is polymerization_wire.Card
    assert returns(polymerization_shown.chain_view) is polymerization_wire.Chain
    assert returns(polymerization_shown.monomer_table) == list[polymerization_wire.Monomer]
    assert returns(polymerization_shown.initiator_table) == list[polymerization_wire.Initiator]
    # the polymer-chain game's scoring imports its shapes for the type check only (they
    # import it)
    shapes = vars(polymerization_wire)
    assert returns(polymerization_scoring.scores, **shapes) is polymerization_wire.Scores
    assert returns(polymerization_scoring.seat_breakdown, **shapes) is polymerization_wire.SeatScore


@pytest.mark.parametrize(
    ("package", "member", "wrong"),
    [
        ("element_draft", "players", '"two"'),
        ("polymer", "phase", '"over"'),
        ("polymerization", "finished", '"yes"'),
    ],
)
def test_a_view_member_of_the_wrong_type_fails_the_type_check(
    tmp_path: Path, package: str, member: str, wrong: str
) -> None:
    wrong_view = tmp_path / "wrong_view.py"
    wrong_view.write_text(
        f"from rules.{package} import game, wire\n\n\n"
        "def view(state: dict[str, object]) -> wire.View:\n"
        "    built = game.view(state, None)\n"
        f'    return {{**built, "{member}": {wrong}}}\n',
        encoding="utf-8",
    )
    out, _, status = api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(wrong_view)]
    )
    assert status == 1, out
    assert f'"{member}"' in out and "typeddict-item" in out, out
