"""Small helpers for tests that talk to a real server process over the network."""

from __future__ import annotations

import json
import socket
import urllib.request
from typing import Any


def free_port() -> int:
    """A TCP port nobody listens on now (on the loopback address)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call_json(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """GET ``url`` (or POST ``body`` as JSON) and read the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.loads(response.read()))


def joined(before: dict[str, Any] | None, game: dict[str, Any]) -> dict[str, Any]:
    """A state message's game with its whole history, as the browser rebuilds it: after the
    first state a socket is sent only the entries it lacks, from ``history_from`` on."""
    if "history_from" not in game:
        return game
    start = game["history_from"]
    assert before is not None and before["id"] == game["id"], "a partial state came first"
    assert len(before["history"]) >= start, "a partial state skipped entries"
    whole = {**game, "history": before["history"][:start] + game["history"]}
    del whole["history_from"]
    return whole
