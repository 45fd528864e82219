"""The archive: finished games, filtered, with a backgammon match's games together."""
