"""A table WebSocket driven straight through the ASGI app on the test's own event loop (no
server, no test-client threads), for tests that send thousands of frames."""

from __future__ import annotations

import asyncio
import json
from types import TracebackType
from typing import Any

from fastapi import FastAPI


class AsgiSocket:
    def __init__(self, app: FastAPI, path: str, cookie: str) -> None:
        self.scope: dict[str, Any] = {
            "type": "websocket", "asgi": {"version": "3.0"}, "scheme": "ws", "path": path,
            "raw_path": path.encode(), "root_path": "", "query_string": b"",
            "headers": [(b"cookie", cookie.encode()), (b"host", b"test")],
            "client": ("127.0.0.1", 50000), "server": ("test", 80), "subprotocols": []}
        self.app = app
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> AsgiSocket:
        self.task = asyncio.create_task(self.app(self.scope, self.inbox.get, self.outbox.put))
        await self.inbox.put({"type": "websocket.connect"})
        accepted = await self.outbox.get()
        assert accepted["type"] == "websocket.accept", accepted
        return self

    async def send(self, frame: str | bytes) -> None:
        key = "bytes" if isinstance(frame, bytes) else "text"
        await self.inbox.put({"type": "websocket.receive", key: frame})

    async def receive_json(self) -> dict[str, Any]:
        message = await asyncio.wait_for(self.outbox.get(), 30)
        assert message["type"] == "websocket.send", message
        value: dict[str, Any] = json.loads(message["text"])
        return value

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.inbox.put({"type": "websocket.disconnect", "code": 1000})
        assert self.task is not None
        await asyncio.wait_for(self.task, 30)
