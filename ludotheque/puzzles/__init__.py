"""Puzzles: positions from games where one answer is clearly best, each proven by its source.

``model`` holds the shape every puzzle shares and reads the shipped sets in ``data/``.
"""
