"""Make the puzzle sets: ``python tools/make_puzzles.py build --game general --count 1200``
(see ``ludotheque.puzzles.build``)."""

from __future__ import annotations

import sys

from ludotheque.puzzles.build import main

if __name__ == "__main__":
    sys.exit(main())
