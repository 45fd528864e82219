"""Playing in a terminal: a text board per game and one generic game loop."""
