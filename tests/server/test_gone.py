"""A socket whose peer vanished while a move was broadcast to it ends quietly: no traceback,
no 'a message failed' in the log (each cost a logged stack per player leaving under load)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import new_game, token_of


def test_a_peer_gone_during_a_broadcast_ends_its_socket_quietly(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    app: Any = client.app
    portal = client.portal
    assert portal is not None

    async def drive() -> list[str]:
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        sent: list[str] = []
        scope = {
            "type": "websocket", "path": f"/ws/{general}", "raw_path": b"", "root_path": "",
            "scheme": "ws", "query_string": b"", "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 5000), "server": ("testserver", 80), "subprotocols": [],
            "state": {}, "app": app,
        }  # fmt: skip
        await inbox.put({"type": "websocket.connect"})

        async def receive() -> dict[str, Any]:
            return await inbox.get()

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "websocket.send" and "websocket.send" in sent:
                raise OSError("connection reset by peer")  # gone after its first state
            sent.append(message["type"])

        task = asyncio.create_task(app(scope, receive, send))
        async with asyncio.timeout(5):
            while "websocket.send" not in sent:
                if task.done():
                    task.result()
                await asyncio.sleep(0.01)
        service = app.state.service
        session, seat = await service.seat(rebels)
        await service.play(session, seat, "a2-b2", 0)  # broadcast: the general's send fails
        await inbox.put({"type": "websocket.receive", "text": '{"type": "sync"}'})
        await asyncio.wait_for(task, 5)  # ends, and raises nothing
        return sent

    with caplog.at_level(logging.ERROR):
        sent = portal.call(drive)
    assert sent == ["websocket.accept", "websocket.send"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
