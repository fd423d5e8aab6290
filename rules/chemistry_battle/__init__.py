"""Chemistry Battle (`chemistry-battle`)."""

from .game import GAME, INFO

__all__ = ["GAME", "INFO"]
