"""When a hosted move is stale: only when what the mover's decision rests on changed.

A class plays at once: in a simultaneous draft every seat selects on the version it
read, and in a real-time game other seats trade while a student decides. Refusing
every move sent on an older version (as a plain compare-and-set would) makes most of
those students resend for nothing. So a hosted game keeps, per seat, the version at
which the seat's situation (``GameRules.situation_of``: by default its whole view)
last changed (:class:`service.games.tokens.Marks`, sealed with the game). A move sent on
version ``v`` is a decision about the current state too when the mover's situation
has not changed since ``v``: the rules then judge it on the current state, with their
own codes (a card or an offer that is gone). Otherwise it is ``409 stale_version``.

The commit stays a compare-and-set on the current version, so exactly-once holds as
before; a seat's own move always counts as a change of its situation, so a move sent
twice on one version applies once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import orjson

from rules.core import GameRules

from ..games.tokens import Envelope, Marks

_DUMP = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def digest(game: GameRules, env: Envelope, seat: int, view: Mapping[str, Any] | None = None) -> str:
    """A short digest of ``seat``'s situation in ``env``'s state (``view``: the seat's
    view of that state, where the caller has it: the situation itself in a game whose
    situation is its view, not computed again)."""
    if view is not None and game.situation is None:
        value: Mapping[str, Any] = view
    else:
        value = game.situation_of(env.state, seat)
    return hashlib.blake2b(orjson.dumps(value, option=_DUMP), digest_size=8).hexdigest()


def marked(
    game: GameRules,
    before: Envelope | None,
    after: Envelope,
    mover: int | None,
    mover_view: Mapping[str, Any] | None = None,
) -> Envelope:
    """``after`` with its marks: each human seat's situation digest, and the version at
    which it last changed (``after``'s own version where it differs from ``before``'s,
    and for the ``mover``). ``before`` None: a new game, every seat seen at its version.
    ``mover_view``: the mover's view of ``after``, as its answer shows it."""
    old = before.marks if before is not None else None
    players = int(after.state["players"])
    seen: list[int] = []
    digests: list[str] = []
    for seat in range(players):
        if seat in after.bots:
            seen.append(after.version)
            digests.append("")
            continue
        now = digest(game, after, seat, mover_view if seat == mover else None)
        same = (
            old is not None
            and seat != mover
            and seat < len(old.digests)
            and old.digests[seat] == now
        )
        seen.append(old.seen[seat] if same and old is not None else after.version)
        digests.append(now)
    return after.with_marks(Marks(tuple(seen), tuple(digests)))


def unchanged_since(env: Envelope, seat: int, version: int) -> bool:
    """Whether ``seat``'s situation in ``env`` is the one it had at ``version``, so a
    move it decided then is judged on ``env``. Never for a version the game has not
    reached, nor for a game that keeps no marks (dealt before they were kept)."""
    marks = env.marks
    if marks is None or not 0 <= version <= env.version or not 0 <= seat < len(marks.seen):
        return False
    return marks.seen[seat] <= version
