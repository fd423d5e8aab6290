"""Hosted sessions: Redis keeps the latest sealed state of a game for every device."""
