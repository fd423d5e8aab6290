"""The polymer-chain game (`polymerization`): initiators, monomers, jokers, Mn / Mw / PDI."""

from .game import GAME, INFO

__all__ = ["GAME", "INFO"]
