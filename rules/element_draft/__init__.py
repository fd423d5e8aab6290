"""The Chemistry Card Game (`element-draft`)."""

from .game import GAME, INFO

__all__ = ["GAME", "INFO"]
