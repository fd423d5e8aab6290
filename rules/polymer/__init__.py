"""Polymer: the real-time trading game (`polymer`)."""

from .game import GAME, INFO

__all__ = ["GAME", "INFO"]
