"""Compound Capture (`compound-capture`)."""

from .game import GAME, INFO

__all__ = ["GAME", "INFO"]
