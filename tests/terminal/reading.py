"""What a ``pexpect`` child printed, typed for the tests: the stubs allow ``before`` to be
``None`` (before any ``expect``) and ``match`` to be EOF or TIMEOUT; after a successful
``expect`` of a pattern they are text and a match."""

from __future__ import annotations

import re

import pexpect


def before(child: pexpect.spawn[str]) -> str:
    """What ``child`` printed before the text its last ``expect`` found."""
    assert child.before is not None
    return child.before


def group(child: pexpect.spawn[str], n: int) -> str:
    """Group ``n`` of the pattern its last ``expect`` found."""
    assert isinstance(child.match, re.Match)
    return child.match.group(n)
