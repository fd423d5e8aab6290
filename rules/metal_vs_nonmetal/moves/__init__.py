"""The moves of Metal vs. Non-Metal, each type in one place (:mod:`rules.actions`).

An exchange is ``play`` (the initiating player, :mod:`.play`), ``respond`` (the
responding player, :mod:`.respond`) and, after a power play, ``reinforce`` or
``decline`` (the initiating player, :mod:`.reinforce`). Each module holds, per move
type, its shape, its legality, its candidates and its effect with the events it
emits; :data:`ACTIONS` puts them together after the check every move shares (whose
move it is, :func:`.turn.waiting`). One step is open at a time, so the legal moves
come out in the order of ``ACTIONS``: plays by card id, answers in deck order of
their ion, the reinforcement before ``decline``.

>>> from rules.metal_vs_nonmetal import GAME
>>> state = GAME.setup(2, {"start_player": 1}, seed=1)
>>> [m["type"] for m in ACTIONS.legal_moves(state, 1)], ACTIONS.legal_moves(state, 0)
(['play', 'play', 'play', 'play', 'play', 'play'], [])
"""

from __future__ import annotations

from rules.actions import Actions

from . import play, reinforce, respond, turn

__all__ = ["ACTIONS", "EVENTS"]

ACTIONS = Actions(
    (play.PLAY, respond.RESPOND, reinforce.REINFORCE, reinforce.DECLINE),
    waiting=turn.waiting,
)

EVENTS = (*play.EVENTS, *respond.EVENTS, *reinforce.EVENTS)
"""Every event a move emits itself (settling an exchange: :mod:`..settle`)."""
