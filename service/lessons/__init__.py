"""Lessons: a teacher's class seated at tables of any game, with bots in the gaps,
watched live from one stream, and its results kept for a while (docs/LESSONS.md)."""
