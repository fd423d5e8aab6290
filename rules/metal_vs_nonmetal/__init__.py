"""Metal vs. Non-Metal (`metal-vs-nonmetal`)."""

from .game import GAME, INFO

__all__ = ["GAME", "INFO"]
