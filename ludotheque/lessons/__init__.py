"""Lessons: for each game a short course of small positions where the player must make the move
that shows a rule, each move judged by the game's own engine (see ``course``).

>>> from ludotheque.lessons import COURSES, check
>>> check("general", COURSES["general"].steps[1], "c2-b2xa1c3").result
'solved'
"""

from __future__ import annotations

from .backgammon import BACKGAMMON
from .course import PARTS, Course, Step, Verdict, check, start_state
from .defiance import DEFIANCE
from .general import GENERAL

COURSES: dict[str, Course] = {c.game: c for c in (GENERAL, BACKGAMMON, DEFIANCE)}
"""The three courses, by game name, in the order the site lists the games."""

__all__ = ["COURSES", "PARTS", "Course", "Step", "Verdict", "check", "start_state"]
