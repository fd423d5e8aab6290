"""The plain data every game is made of: JSON-ready dicts and lists.

A game's state, its moves and its events are JSON objects (``dict``/``list``/
``str``/``int``/``float``/``bool``/``None``), so they travel in tokens and answers as
they are. These names say which is which; :mod:`rules.core` re-exports them.
"""

from __future__ import annotations

from typing import Any, TypeAlias

State: TypeAlias = dict[str, Any]
Move: TypeAlias = dict[str, Any]
Event: TypeAlias = dict[str, Any]
JSON: TypeAlias = dict[str, Any]
