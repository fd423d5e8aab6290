"""What ``GET /v1/games/metal-vs-nonmetal`` says of the game: its facts, options and codes."""

from __future__ import annotations

from collections.abc import Mapping

from rules.core import Code, Dynamics, GameInfo, Source, options_of

from .seed import HAND_SIZE, MAX_PLAYERS
from .wire import Options

CODES: Mapping[str, Code] = {
    "bad_ion_deck": Code.setup(
        "The custom deck (option ions) is not a sound deck of metal and non-metal ions."
    ),
    "not_your_turn": Code.turn("Another seat must act now (to_act says which)."),
    "wrong_step": Code.move("This move is not one the current step of the exchange allows."),
    "not_in_hand": Code.move("A card named is not in this seat's hand."),
    "wrong_charge_sign": Code.move(
        "Rule (i): an answer must have the opposite charge of the lead card."
    ),
    "mixed_ions": Code.move("Rule (ii): the cards of an answer must all be the same ion."),
    "wrong_count": Code.move("Rule (iii) (or advanced ruling 1): the wrong number of cards."),
    "charge_too_high": Code.move(
        "Advanced ruling 1: no card of a higher charge number than the lead unless step 4 "
        "describes the answer."
    ),
    "reinforcement_ion": Code.move(
        "Reinforcements must be of the same ion as the initiating card."
    ),
    "reinforcement_count": Code.move(
        "Reinforcements must be the fewest cards that bring the initiating total to at "
        "least the responding total."
    ),
}

INFO = GameInfo(
    slug="metal-vs-nonmetal",
    title="Metal vs. Non-Metal",
    seed_file="003_ca881281856ea1c6.txt",
    source=Source(
        title="Metal vs. Non-Metal",
        publisher=None,
        origin=(
            'A rules sheet headed "Metal vs. Non-Metal" and "Game Rules", for a deck of 40 ion '
            "cards, with card diagrams; it names no author or publisher."
        ),
    ),
    min_players=2,
    max_players=MAX_PLAYERS,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=2,
    summary="Answer a metal or non-metal ion with ions of the opposite charge; when the "
    "charges cancel you have made an ionic compound. Collect the most cards.",
    options=options_of(Options),
    player_counts={
        p: {"hand_size": HAND_SIZE, "ion_deck": 40 - HAND_SIZE * p}
        for p in range(2, MAX_PLAYERS + 1)
    },
    codes=CODES,
)
