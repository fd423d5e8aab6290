"""Views built as their declared ``TypedDict`` (issue 28 item 5, begun with element-draft).

A game whose ``view`` returns its declared ``View`` has every member of what it builds
checked by ``mypy --strict`` (``make typecheck``): a wrong member type fails the type
check, not a test at run time. Element-draft's view (its cards, seats, own seat and word
race places) is built so, with its events, and so is every other game's: Compound Capture's
and Chemistry Canasta's (their piles, seats, boards of runs, round results, match and
scores), Metal vs. Non-Metal's and Chemistry Battle's (their cards, piles, seats, own
seat, exchange or round, history and scores), Polymer's and the polymer-chain game's
(their cards, offers, trades, loans, chains, seats, own seat and compound tables), with
their events.
"""

from __future__ import annotations

import typing
from pathlib import Path

import pytest
from mypy import api

from rules import draw_discard as dd
from rules import draw_discard_wire as dw
from rules import match
from rules.chemistry.decks import compound as compound_deck
from rules.chemistry.decks import ion as ion_deck
from rules.chemistry_battle import cards as battle_cards
from rules.chemistry_battle import game as battle
from rules.chemistry_battle import rounds as battle_rounds
from rules.chemistry_battle import wire as battle_wire
from rules.chemistry_canasta import game as canasta
from rules.chemistry_canasta import scoring as canasta_scoring
from rules.chemistry_canasta import table as canasta_table
from rules.chemistry_canasta import wire as canasta_wire
from rules.compound_capture import game as capture
from rules.compound_capture import scoring as capture_scoring
from rules.compound_capture import wire as capture_wire
from rules.element_draft import game, wire
from rules.element_draft import scoring as draft_scoring
from rules.metal_vs_nonmetal import exchange as mvn_exchange
from rules.metal_vs_nonmetal import scoring as mvn_scoring
from rules.metal_vs_nonmetal import settle as mvn_settle
from rules.metal_vs_nonmetal import views as mvn_views
from rules.metal_vs_nonmetal import wire as mvn_wire
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


def returns(function: typing.Callable[..., object], **names: object) -> object:
    return typing.get_type_hints(function, localns=names)["return"]


def test_element_draft_builds_the_categories_its_events_carry_as_declared() -> None:
    # ions_paired carries the pair and the pairs of the seat's ionization category
    assert returns(draft_scoring.ionization) is wire.Ionization
    assert returns(draft_scoring.own_categories) is draft_scoring.Own


def test_metal_vs_nonmetal_builds_its_view_scores_and_events_as_declared() -> None:
    assert returns(mvn_views.view) is mvn_wire.View
    assert returns(mvn_views._exchange_view) == mvn_wire.ExchangeView | None
    assert returns(mvn_views._last_collected) == mvn_wire.LastCollected | None
    assert returns(mvn_views.history_entry) is mvn_wire.History
    assert returns(mvn_scoring.scores) is mvn_wire.Scores
    assert returns(ion_deck.IonDeck.face) is ion_deck.IonCard
    assert returns(mvn_exchange.Answer.to_json) is mvn_wire.Answer
    # the events built by functions of their own (the others are built where they happen)
    assert returns(mvn_settle.settled_event) is mvn_settle.ExchangeSettledEvent
    assert returns(mvn_settle.side_of) is mvn_settle.Side
    assert returns(mvn_exchange.chemistry) is mvn_exchange.Chemistry


def test_chemistry_battle_builds_its_view_scores_and_events_as_declared() -> None:
    assert returns(battle.view) is battle_wire.View
    assert returns(battle.scores) is battle_wire.Scores
    # the cards' module imports its shape for the type check only (the shapes import it)
    assert returns(battle_cards.card, **vars(battle_wire)) is battle_wire.Card
    assert returns(battle_rounds.round_won_event) is battle_wire.RoundWonEvent


def test_the_draw_two_games_build_their_views_scores_and_results_as_declared() -> None:
    # the cards as both tables number them; each game types them as its own Card
    assert returns(compound_deck._compound_face, TableFace=dw.TableFace) is dw.TableFace
    assert returns(compound_deck._element_face, TableFace=dw.TableFace) is dw.TableFace
    assert returns(capture.view) is capture_wire.View
    assert returns(capture_scoring.round_result) is capture_wire.RoundResult
    assert returns(capture_scoring.seat_breakdown) is dw.SeatResult
    assert returns(capture.scores) == dw.Scores[dw.SeatScore]
    assert returns(canasta.view) is canasta_wire.View
    assert returns(canasta.scores) is canasta_wire.Scores
    assert returns(canasta_scoring.round_result) is canasta_wire.RoundResult
    assert returns(canasta_scoring.seat_breakdown) is canasta_wire.SeatResult
    # the table's shapes are imported for the type check only (the shapes import it)
    shapes = vars(canasta_wire)
    assert returns(canasta_table.run_view, **shapes) is canasta_wire.Run
    assert returns(canasta_table.position_view, **shapes) is canasta_wire.Position
    assert returns(match.view) is match.Match
    # the events built by functions of their own (most are built where they happen)
    assert returns(match._over) is match.MatchOverEvent
    assert returns(dd._part, dw=dw) is dw.CapturePart


def test_the_polymer_games_build_their_views_and_scores_as_declared() -> None:
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
        ("compound_capture", "quiet_turns", '"none"'),
        ("chemistry_canasta", "runs_rule", '"everyone"'),
        ("polymer", "phase", '"over"'),
        ("polymerization", "finished", '"yes"'),
        ("metal_vs_nonmetal", "start_player", '"north"'),
        ("chemistry_battle", "turn", '"left"'),
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
