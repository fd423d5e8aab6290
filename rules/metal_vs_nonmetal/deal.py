"""Setting up: the deck (the seed's or a teacher's), the deal of 6 cards each, the Ion
Deck, and the start player drawn with the game's own generator.

>>> state = setup(2, {"start_player": 0, "ion_deck_top": ["Na+", "Cl-"]}, seed=1)
>>> [len(h) for h in state["zones"]["hand"]], len(state["zones"]["ion_deck"])
([6, 6], 28)
>>> state["zones"]["ion_deck"][-2:]  # the first card drawn is on top (the last)
[9, 1]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.chemistry.decks.ion import custom_spec, deck_from_spec, default_spec, take_labels
from rules.core import (
    RuleViolation,
    State,
    check_deal_shape,
    check_players,
    resolve_options,
    right_of,
)
from rules.rng import new_rng, randbelow, shuffled

from .info import INFO
from .seed import HAND_SIZE
from .seed import ORDER as SEED_ORDER
from .seed import SETUP as SEED_SETUP
from .table import LAYOUT


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    players = check_players(INFO, players)
    opts = resolve_options(INFO, options)
    start = opts["start_player"]
    if start is not None and start >= players:
        raise RuleViolation(
            "bad_option",
            f"start_player must be a seat 0-{players - 1} or null, not {start!r}.",
            rule=SEED_ORDER,
        )
    spec = default_spec() if opts["ions"] is None else custom_spec(opts["ions"])
    deck = deck_from_spec(spec)
    if len(deck) < HAND_SIZE * players:
        raise RuleViolation(
            "bad_ion_deck",
            f"{players} players need at least {HAND_SIZE * players} cards to be dealt "
            f"{HAND_SIZE} each; this deck has {len(deck)}.",
            rule=SEED_SETUP,
        )
    free = list(deck.ids)
    hands: list[list[int]] | None = None
    if opts["deal"] is not None:
        hands = []
        for s, labels in enumerate(check_deal_shape(opts["deal"], players, rule=SEED_SETUP)):
            taken, free = take_labels(deck, labels, free, f"deal[{s}]")
            hands.append(taken)
    top: list[int] = []
    if opts["ion_deck_top"] is not None:
        top, free = take_labels(deck, opts["ion_deck_top"], free, "ion_deck_top")
        if hands is None and len(free) < HAND_SIZE * players:
            raise RuleViolation(
                "bad_deal", "ion_deck_top leaves too few cards to deal 6 to every player."
            )
    rng, free = shuffled(new_rng(seed), free)
    if hands is None:
        hands = [free[s * HAND_SIZE : (s + 1) * HAND_SIZE] for s in range(players)]
        free = free[HAND_SIZE * players :]
    if start is None:
        rng, start = randbelow(rng, players)
    # a pile lists its bottom card first: the first card of ion_deck_top goes on top
    zones = LAYOUT.deal(players, ion_deck=free + top[::-1], hand=hands)
    return {
        "players": players,
        "options": opts,
        "deck": deck.spec,
        "rng": rng,
        "zones": zones,
        "phase": "initiate",
        "exchange": 1,
        "start_player": start,
        "initiator": start,
        "responder": right_of(start, players),
        "answer": None,
        "history": [],
        "last_collected": None,
    }
