"""Le Général et les rebelles, solved: retrograde tables of every position, and what they say.

``probe(state)`` is the tables' verdict on a General position (who wins, in how many plies,
or a draw), or ``None`` where the tables do not reach. The package ships the tables up to
8 rebels; ``ludotheque solve general`` builds the rest (10 to 16 rebels) into the user's data
directory. Reading the tables needs numpy only; solving needs numba (the ``solve`` extra).

>>> import ludotheque
>>> verdict = probe(ludotheque.load("general").parse_position("s3 b5,c5,d4,e4,a1,a2 r 1"))
>>> verdict.describe()
'the rebels win in 1 move'
"""

from __future__ import annotations

from .tables import Tables, Verdict, default_tables, oracle, probe

__all__ = ["Tables", "Verdict", "default_tables", "oracle", "probe"]
