"""Check real values against a game's declared wire shapes (``GameRules.wire``).

The schemas are the ones the contract is derived from (``service.games.schemas.derive``),
with every object closed: a member the declaration does not have is an error, so a
declaration that lost a member fails here.
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from rules.core import GameRules
from rules.shapes import shape
from rules.wire import Outcome
from service.games.schemas.derive import ACTOR, Components, pascal


class WireCheck:
    """Validators for one game's view, scores, events, moves, options and deck card."""

    def __init__(self, game: GameRules) -> None:
        wire = game.wire
        prefix = pascal(game.info.slug)
        book = Components()
        roots = {
            "view": book.schema(shape(wire.view), prefix),
            "scores": book.schema(shape(wire.scores), prefix),
            "card": book.schema(shape(wire.card), prefix),
            "options": book.schema(shape(wire.options), prefix),
            "move": book.one_of([shape(m) for m in wire.moves], prefix),
            "event": book.one_of([shape(e) for e in wire.events], prefix, extra={"actor": ACTOR}),
            "outcome": book.schema(shape(Outcome), prefix),
        }
        for name, tp in wire.resources.items():
            roots[f"resource:{name}"] = book.schema(shape(tp), prefix)
        components = {"schemas": book.schemas}
        self.validators = {
            name: Draft202012Validator({**schema, "components": components})
            for name, schema in roots.items()
        }

    def errors(self, what: str, value: Any) -> list[str]:
        found = sorted(self.validators[what].iter_errors(value), key=str)
        return [f"{e.message} at {list(e.absolute_path)}" for e in found[:3]]

    def check(self, what: str, value: Any, where: str = "") -> None:
        errors = self.errors(what, value)
        assert not errors, f"{what} {where} breaks its declaration: {errors}"


_CHECKS: dict[str, WireCheck] = {}


def wire_check(game: GameRules) -> WireCheck:
    """The checks of ``game``, built once."""
    if game.info.slug not in _CHECKS:
        _CHECKS[game.info.slug] = WireCheck(game)
    return _CHECKS[game.info.slug]
