"""An outside engine for ``ludotheque bot --engine``: it speaks the bridge's line protocol (see
``ludotheque/bridge.py``) on its standard input and output, and plays the legal move whose
text sorts first, or a random one with ``--random``. Any language will do; this one is
Python, without ludotheque.

    ludotheque bot --engine 'python3 examples/line_engine.py --random' --game general
"""

from __future__ import annotations

import random
import sys


def main() -> int:
    chance = "--random" in sys.argv
    legal: list[str] = []
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        word, _, rest = line.partition(" ")
        if word == "ludotheque":  # the protocol's version
            print("ok", flush=True)
        elif word == "legal":
            legal = rest.split("\t")
        elif word == "go":
            move = random.choice(legal) if chance else min(legal)
            print(f"move {move}", flush=True)
        elif word == "quit":
            return 0
        # game, position, dice, time and end: this engine needs none of them
    return 0


if __name__ == "__main__":
    sys.exit(main())
