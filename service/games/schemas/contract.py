"""Each game's part of the contract, derived from its declarations (``GameRules.wire``).

:func:`game_docs` turns a game's declared shapes into named components (its options,
moves, view, scores, events, deck card, resources, and a real-time game's clock
members); :func:`answer` composes an operation's answer from them. Nothing here
knows any game: everything comes from the declarations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import records
from rules.core import GameRules
from rules.shapes import SAFE_INTEGER, F, Node, shape
from rules.shapes import Enum as EnumNode
from rules.shapes import Map as MapNode
from rules.wire import MoveSpace, Outcome

from .derive import ACTOR, Components, pascal, ref

BOOK = Components()
"""Every component of the contract built from declarations, shared by all apps."""

GAME_STARTED = BOOK.add(
    "GameStartedEvent",
    {
        "type": "object",
        "description": "The service dealt the game.",
        "properties": {
            "type": {"type": "string", "const": "game_started"},
            "players": {
                "type": "integer",
                "minimum": 1,
                "maximum": 64,
                "description": "Number of seats.",
            },
            "actor": ACTOR,
        },
        "required": ["actor", "players", "type"],
        "additionalProperties": False,
    },
)
OUTCOME = BOOK.schema(shape(Outcome), "")
MOVE_SPACE = {
    "anyOf": [BOOK.schema(shape(MoveSpace), ""), {"type": "null"}],
    "description": "Where `moves` cannot list every move: what else is legal, and how to "
    "build it; null where `moves` is the whole move space.",
}


def integer(description: str, **more: Any) -> dict[str, Any]:
    """A whole number of at least 0 and at most what every JSON reader keeps exactly,
    unless ``more`` bounds it otherwise."""
    return {
        "type": "integer",
        "description": description,
        "minimum": 0,
        "maximum": SAFE_INTEGER,
        **more,
    }


def string(description: str, **more: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **more}


MAX_SEATS = 64
"""Seats are numbered 0-63 (``rules.shapes.Seat``)."""
VERSION = integer("Moves applied so far (a hosted move names the version it was decided on).")
TO_ACT = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1},
    "description": "Seats that may act now (empty once the game is over).",
}


@dataclass(frozen=True)
class GameDocs:
    """The references of one game's declared shapes in the contract."""

    prefix: str
    options: dict[str, Any]
    move: dict[str, Any]
    event: dict[str, Any]
    view: dict[str, Any]
    scores: dict[str, Any]
    card: dict[str, Any]
    resources: Mapping[str, dict[str, Any]]
    clock: Mapping[str, Any]
    """The clock's members (a real-time game), each as a property schema."""
    extras: Mapping[str, tuple[None, dict[str, Any] | None]]
    """Per extra operation: its answer (a reference), if any."""
    record: dict[str, Any]
    """The game's record (``rules.records.record_type``)."""
    check: dict[str, Any]
    """A replay's answer (``rules.records.check_type``)."""
    bot: dict[str, Any]
    """The game's bot names (``<Game>Bot``), one enum for every member naming a bot."""
    bot_node: Node
    bots: dict[str, Any]
    """Seats the service plays (``<Game>Bots``: seat number -> bot name)."""
    bots_node: Node

    def events(self, description: str) -> dict[str, Any]:
        return {"type": "array", "items": self.event, "description": description}


_DOCS: dict[str, GameDocs] = {}


def game_docs(game: GameRules) -> GameDocs:
    """The components of ``game`` (built once per process)."""
    slug = game.info.slug
    if slug not in _DOCS:
        _DOCS[slug] = _build(game)
    return _DOCS[slug]


def _build(game: GameRules) -> GameDocs:
    wire = game.wire
    prefix = pascal(game.info.slug)
    clock: dict[str, Any] = {}
    if game.clock is not None:
        node = shape(game.clock.public)
        clock = {
            m.name: BOOK.schema(m.node, prefix)
            for m in node.members  # type: ignore[attr-defined]
        }
    # an extra's request is documented member by member (the operation adds the seat)
    extras = {
        extra.name: (None, BOOK.schema(shape(extra.answers), prefix) if extra.answers else None)
        for extra in game.extras
    }
    bot_node = EnumNode(
        values=tuple(game.info.bots),
        name="Bot",
        doc="A bot that chooses a seat's moves: `random` picks any legal move; the others "
        "are described in the game's rules document.",
    )
    bots_node = MapNode(
        value=bot_node,
        facts=F(
            "Seats the service plays: seat number -> bot name.",
            max_properties=MAX_SEATS,
            key_pattern=r"^[0-9]{1,2}$",
            example={"1": "greedy"},
        ),
    )
    return GameDocs(
        prefix=prefix,
        bot=BOOK.named(f"{prefix}Bot", bot_node, prefix),
        bot_node=bot_node,
        bots=BOOK.named(f"{prefix}Bots", bots_node, prefix),
        bots_node=bots_node,
        options=BOOK.schema(shape(wire.options), prefix),
        move=BOOK.one_of([shape(m) for m in wire.moves], prefix),
        event=BOOK.one_of(
            [shape(e) for e in wire.events],
            prefix,
            extra={"actor": ACTOR},
            also={"game_started": GAME_STARTED},
        ),
        view=BOOK.schema(shape(wire.view), prefix),
        scores=BOOK.schema(shape(wire.scores), prefix),
        card=BOOK.schema(shape(wire.card), prefix),
        resources={name: BOOK.schema(shape(tp), prefix) for name, tp in wire.resources.items()},
        clock=clock,
        extras=extras,
        record=BOOK.schema(shape(records.record_type(game)), prefix),
        check=BOOK.schema(shape(records.check_type(game)), prefix),
    )


def answer(
    name: str,
    description: str,
    members: Mapping[str, dict[str, Any]],
    optional: Mapping[str, dict[str, Any]] | None = None,
) -> dict[str, str]:
    """Register an operation's answer (every member of ``members`` required, those of
    ``optional`` not) and refer to it."""
    body: dict[str, Any] = {
        "type": "object",
        "description": description,
        "properties": {**members, **(optional or {})},
        "required": sorted(members),
        "additionalProperties": False,
    }
    return BOOK.add(name, body)


__all__ = ["BOOK", "GameDocs", "answer", "game_docs", "integer", "ref", "string"]
