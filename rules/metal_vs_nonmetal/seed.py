"""The seed's numbers and the sentences the rules rest on (quoted in refusals as ``rule=``).

docs/rules/metal-vs-nonmetal.md interprets each of them.
"""

from __future__ import annotations

HAND_SIZE = 6
"""Each player is dealt 6 cards and draws back to 6."""
MAX_PLAYERS = 4
"""Players: Maximum 4 (and at least 2, for an initiating and a responding player)."""

SETUP = (
    "At the start of the game, each player is dealt 6 cards. The left over cards form "
    "the Ion Deck, placed aside."
)
ORDER = (
    "Randomly decide who is the start player (flip a coin, roll a dice, etc). The players "
    "counterclockwise from the first player are the second, third, and fourth player "
    "respectively."
)
STEP4 = (
    "The player counterclockwise to the first player, player 2, MUST play cards: "
    "i) that have the opposite charge of the 1st player's card "
    "ii) of the same ion (ex. you can't play a Cl- and an O2) "
    "iii) the number of cards played is/are equal to the charge number on the 1st "
    "player's card, unless the 2nd player is matching it with the same numeric charge."
)
RULING1 = (
    "Play what you have, but you can't play a card with a higher charge than the "
    "initiating player that is not described by Step 4. [...] When there are playable "
    "moves, do not use these rulings."
)
STEP5 = (
    "If the responding player (player 2) has a higher total charge than the initiating "
    "player (player 1), the initiating player has the option to add cards from his/her "
    "hand into play. This is called calling for reinforcements. The cards added must be "
    "of the same ion."
)
