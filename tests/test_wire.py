"""The generic tests notice a declaration that no longer matches what a game sends.

For every game, one member is removed from one of its declared event types (and,
separately, from its view), or one event type from its declarations; the conformance
playout must then fail. This is the
planted bug of issue 16: with it, no game's own test needs to notice.
"""

from __future__ import annotations

import typing
from dataclasses import replace
from typing import Any, TypedDict

import pytest
from _pytest.outcomes import Failed

from rules.core import GameRules
from rules.registry import GAMES

from .test_conformance import QUICK_OPTIONS, playout


def without(tp: type, member: str) -> type:
    """The TypedDict ``tp`` with ``member`` left out (everything else as declared)."""
    hints = typing.get_type_hints(tp, include_extras=True)
    fields = {name: hint for name, hint in hints.items() if name != member}
    # made at run time from another TypedDict's hints: mypy reads only literal ones
    spoiled: type = TypedDict(tp.__name__, fields)  # type: ignore[misc]
    spoiled.__doc__ = tp.__doc__
    return spoiled


def first_event(game: GameRules) -> tuple[type, str]:
    """An event type the game sends at once, and one of its members besides ``type``."""
    state = game.setup(game.info.min_players, QUICK_OPTIONS.get(game.info.slug, {}), 1)
    for _ in range(200):
        seat = game.to_act(state)[0]
        move, state = game.bot_move(state, seat, "random")
        state, events = game.apply(state, seat, move)
        for event in events:
            for tp in game.wire.events:
                hints = typing.get_type_hints(tp)
                tag = typing.get_args(hints["type"])[0]
                members = [m for m in event if m not in ("type", "private") and m in hints]
                if tag == event["type"] and members:
                    return tp, members[0]
    raise AssertionError("no event with a member in 200 moves")


def spoiled_playout(game: GameRules) -> None:
    playout(game, game.info.min_players, seed=1, bots=["random"], deep=True)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_an_event_member_left_out_of_its_declaration_fails(slug: str) -> None:
    game = GAMES[slug]
    tp, member = first_event(game)
    events = tuple(without(tp, member) if e is tp else e for e in game.wire.events)
    spoiled = replace(game, wire=replace(game.wire, events=events))
    with pytest.raises(Failed, match="breaks its declaration"):
        spoiled_playout(spoiled)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_an_event_type_left_out_of_the_declarations_fails(slug: str) -> None:
    """The other half of the event gate (``tests/test_walked.py``): every declared event
    type is checked somewhere, and a checked event whose type is not declared fails."""
    game = GAMES[slug]
    tp, _ = first_event(game)
    events = tuple(e for e in game.wire.events if e is not tp)
    spoiled = replace(game, wire=replace(game.wire, events=events))
    with pytest.raises(Failed, match="breaks its declaration"):
        spoiled_playout(spoiled)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_view_member_left_out_of_its_declaration_fails(slug: str) -> None:
    game = GAMES[slug]
    member = next(iter(typing.get_type_hints(game.wire.view)))
    spoiled = replace(game, wire=replace(game.wire, view=without(game.wire.view, member)))
    with pytest.raises(Failed, match="breaks its declaration"):
        spoiled_playout(spoiled)


def test_the_unspoiled_declarations_pass() -> None:
    game: Any = GAMES["element-draft"]
    spoiled_playout(game)
