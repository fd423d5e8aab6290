"""How a game with a clock adapts the hosted session (Polymer is the one today).

A turn-based game needs none of this: its hosted session is its stateless game with
the latest state kept in Redis. A real-time game supplies :class:`SessionHooks`: the
extra, public members of its session responses and stream messages, the server time
stamped on each move, a deadline that the store enforces by Redis's clock, and the
transition the service applies once that deadline has passed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from marshmallow import fields

from rules.core import JSON, Event, Move, State


class SessionHooks(Protocol):
    def fields(self) -> Mapping[str, fields.Field[Any]]:
        """The extra members of every session response, documented."""
        ...

    def block(self, state: State, now_ms: int) -> JSON:
        """Their values (also sent in every stream message)."""
        ...

    def prepare(self, state: State, now_ms: int) -> State:
        """The state as of ``now_ms`` (by Redis's clock), before a move is checked."""
        ...

    def stamp(self, move: Move, now_ms: int) -> Move:
        """The move as the rules receive it (with the server's time)."""
        ...

    def deadline(self, state: State) -> int | None:
        """When the store must stop accepting moves (ms, Redis's clock), if ever."""
        ...

    def expire(self, state: State) -> tuple[State, list[Event]]:
        """The service's own transition once the deadline has passed."""
        ...

    def public(self, state: State) -> dict[str, Any]:
        """Public facts kept readable in the session's Redis hash (operators, tools)."""
        ...
