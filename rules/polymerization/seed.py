"""The seed's sentences that the rules rest on (quoted in refusals as ``rule=``)."""

from __future__ import annotations

DEAL = (
    "Each player starts with 11 cards (4 players), 13 cards (3 players) or 15 cards "
    "(2 players). The remaining stack of cards is positioned on the table face down."
)
TURN = (
    "Each turn players take a card from the stack. Then either the player play a round or "
    "discard a card face up to form a second stack of cards."
)
THREE_CARDS = "A player can use a maximum of three cards per round."
ROUND = "Each round a player can either play with the regular cards or use a joker card."
INITIATION = (
    "To start a polymer chain the player must put on the table an initiator, a monomer and "
    "can add another monomer to grow the chain. Giving a maximum of three cards."
)
VALUE_ONE = (
    "In one round a player start its chain with the maximum on 3 cards: initiator, monomer "
    "with value 1 (radical transfer to a monomer) and another monomer to further extend "
    "the chain."
)
AIBN = (
    "If using a initiator like AIBN, one can start two polymer chains by playing three "
    "cards: one initiator and two monomers with the value of one following the rule of "
    "three cards per round."
)
PROPAGATION = (
    "The polymer chain is then grown by adding repeat unit of the same length (1, 2, or 3 "
    "as a pair or triplet) or a series (1, 2, 3)."
)
GROW_OWN = (
    "The chain is grown by simply adding the monomer cards to the chain already started "
    "on the desk."
)
JOKERS = (
    "The joker cards played on the opponent's polymer chain permits a player to take the "
    "polymer chain of the opponent."
)
TERMINATED = "Terminated polymer chains cannot be modified and not taken by opponents."
TWO_CHAINS = "Note that two polymer chains are needed to have termination."
TERMINATION_KINDS = (
    "Two types of termination: disproportionation giving two polymer chains and "
    "combination joining the two growing polymer chains into a single polymer chain."
)
CTA = (
    "On the same round the new polymer chain must by started by providing a monomer with "
    "the number one. A maximum of three cards can be used to make this move."
)
TEMPO = (
    "Using TEMPO permits to terminating the growing chain but to reactivated it later on. "
    "Using TEMPO secures the polymer chains from being stolen by the opponent. TEMPO must "
    "be added as the chain is growing. Only to be used on your own chains."
)
COPOLYMER = (
    "The use of a copolymer card permits to change the monomer used to grow the chain. "
    "When using the copolymer card, one must add another monomer to indicate the new "
    "monomer to be used to continue to grow the chain."
)
END = "The game ends when one player has emptied his hand."
SCORING = "Only terminated polymer chains are counted."
WINNER = "The player having the higher Mn and lower PDI has won"
