"""This service's hosted element-draft side by side with boardgame.io's.

``python -m bench.bgio``; see ``__main__.py``.
"""
