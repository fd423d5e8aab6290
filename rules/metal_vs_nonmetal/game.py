"""Metal vs. Non-Metal: answer an ion with ions of the opposite charge; collect cards.

A game is a sequence of *exchanges*. The initiating player plays one card face up
and draws back to 6; the responding player (the next seat counterclockwise, seat
``s - 1``) answers with ions of the opposite charge (step 4, or advanced ruling 1 when
it holds no step-4 answer; a responder with no possible play has a random card taken);
the totals are compared and the cards in play collected (step 5, with reinforcements
after a power play). Then the responder initiates. The game ends when fewer than two
seats hold cards (advanced ruling 2); the most cards collected wins.

Where each part lives: :mod:`.deal` (set-up), :mod:`.moves` (each move type: its
shape, legality, candidates, effect and events), :mod:`.exchange` (which answers and
reinforcements the rules allow), :mod:`.settle` (collecting, the next exchange, the
end), :mod:`.views`, :mod:`.scoring`, :mod:`.bots`, :mod:`.table` (zones and who sees
them), :mod:`.wire` (the shapes); the ions and the Ion Deck are chemistry
(:mod:`rules.chemistry.ions`, :mod:`rules.chemistry.decks.ion`).

>>> state = GAME.setup(2, {"start_player": 0, "deal": [
...     ["Ca2+", "Na+", "Na+", "Al3+", "O2-", "N3-"],
...     ["Cl-", "Cl-", "O2-", "N3-", "Ca2+", "Al3+"]], "ion_deck_top": ["Na+"]}, seed=1)
>>> GAME.to_act(state), [m["cards"] for m in GAME.legal_moves(
...     GAME.apply(state, 0, {"type": "play", "card": 17})[0], 1)]
([0], [[9, 10], [25]])
>>> state, events = GAME.apply(state, 0, {"type": "play", "card": 17})
>>> state, events = GAME.apply(state, 1, {"type": "respond", "cards": [9, 10]})
>>> settled = next(e for e in events if e["type"] == "exchange_settled")
>>> settled["equation"], settled["compound"]["name"], settled["collector"]
('Ca2+ + 2 Cl- -> CaCl2', 'calcium chloride', 0)
"""

from __future__ import annotations

from typing import Any

from rules.chemistry.decks.ion import default_deck
from rules.core import GameRules, State
from rules.wire import Wire

from . import settle, wire
from .bots import greedy_bot
from .deal import setup
from .info import INFO
from .moves import ACTIONS, EVENTS
from .moves.turn import STEPS, to_act
from .scoring import outcome, scores
from .seed import HAND_SIZE
from .table import CardsDrawnEvent, card_ids, hand, layout, side
from .views import view

__all__ = ["GAME", "INFO", "WIRE", "view"]

WIRE = Wire(
    options=wire.Options,
    moves=ACTIONS.shapes,
    view=wire.View,
    scores=wire.Scores,
    events=(*EVENTS, CardsDrawnEvent, *settle.EVENTS),
    card=wire.Card,
    example={
        "players": 2,
        "options": {
            "start_player": 0,
            "deal": [
                ["Ca2+", "Na+", "Na+", "Al3+", "O2-", "N3-"],
                ["Cl-", "Cl-", "O2-", "N3-", "Ca2+", "Al3+"],
            ],
        },
        "seed": 1,
    },
)


def invariants(state: State) -> list[str]:
    """The step agrees with the cards in play; hands of 6 while the Ion Deck lasts; the
    history runs with the exchanges (that every card is in one place comes from the
    layout)."""
    problems: list[str] = []
    zones = state["zones"]
    players = int(state["players"])
    phase = state.get("phase")
    playing = [s for s in range(players) if zones["in_play"][s]]
    if any(len(h) > HAND_SIZE for h in zones["hand"]):
        problems.append("a hand holds more than 6 cards")
    if phase == "over":
        if playing or any(zones["hand"]) or zones["ion_deck"]:
            problems.append("the game is over but cards are still in hands, in play or the deck")
    elif phase in STEPS:
        initiator, responder = state["initiator"], state["responder"]
        if initiator == responder or (phase == "respond" and not hand(state, responder)):
            problems.append("the responding seat is the initiating seat or holds no cards")
        expected = {"initiate": [], "respond": [initiator], "reinforce": [initiator, responder]}
        if sorted(playing) != sorted(expected[str(phase)]):
            problems.append(f"cards in play {playing} do not fit the step {phase}")
        if phase == "respond" and len(zones["in_play"][initiator]) != 1:
            problems.append("the initiating player has more than one card in play")
        if phase == "reinforce" and abs(side(state, responder).total) <= abs(
            side(state, initiator).total
        ):
            problems.append("reinforcements are asked for without a power play")
        if phase == "initiate" and zones["ion_deck"]:
            short = [s for s in range(players) if len(zones["hand"][s]) != HAND_SIZE]
            if short:
                problems.append(f"seats {short} hold fewer than 6 cards while the deck lasts")
    else:
        problems.append(f"unknown step {phase!r}")
    if len(state.get("history", [])) != int(state.get("exchange", 0)) - (phase != "over"):
        problems.append("the history does not match the exchange number")
    return problems


def deck() -> list[dict[str, Any]]:
    """Every card of the seed's 40-card Ion Deck."""
    return [dict(face) for face in default_deck().faces]


# The random bot, the card-conservation check and redeal_hidden come from the layout
# (a function of the state: option `collected`) and the actions.
GAME = GameRules(
    info=INFO,
    wire=WIRE,
    setup=setup,
    to_act=to_act,
    view=view,
    scores=scores,
    outcome=outcome,
    **ACTIONS.functions(),
    bots={"greedy": greedy_bot},
    cards=card_ids,
    invariants=invariants,
    deck=deck,
    layout=layout,
)
