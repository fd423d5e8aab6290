"""Chemistry Canasta (`chemistry-canasta`)."""

from .game import GAME, INFO

__all__ = ["GAME", "INFO"]
