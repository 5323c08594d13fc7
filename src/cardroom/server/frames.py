"""Reading one WebSocket frame of the table protocol: a JSON text of bounded size and depth.

Anything else (a binary frame, a text too long, not JSON, NaN, nesting deeper than any message
of the protocol) is a `MalformedMessage`, refused like any other bad message, so no frame a
client can send raises anything else in the server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NoReturn

from cardroom.room.play.messages import MalformedMessage

MAX_MESSAGE_BYTES = 4096
"""The longest table message accepted (UTF-8 bytes); the protocol's largest is a few hundred."""
MAX_FRAME_BYTES = 65536
"""The server's WebSocket frame limit: a longer frame closes the socket (code 1009, message too
big) before it is read; anything from `MAX_MESSAGE_BYTES` to this is answered and refused."""
MAX_DEPTH = 6
"""The deepest nesting of arrays and objects accepted (the protocol uses 2)."""


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number")


def depth(value: object) -> int:
    """How deeply arrays and objects nest in a parsed JSON value (a scalar is 0)."""
    deepest, level = 0, [(value, 0)]
    while level:
        item, d = level.pop()
        children: list[Any] = []
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        if children or isinstance(item, dict | list):
            deepest = max(deepest, d + 1)
            level.extend((c, d + 1) for c in children)
    return deepest


def read_frame(frame: Mapping[str, Any]) -> object:
    """The JSON value of an ASGI `websocket.receive` message, or `MalformedMessage`."""
    text = frame.get("text")
    if not isinstance(text, str):
        raise MalformedMessage("it is binary data, not a table request")
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode()) > MAX_MESSAGE_BYTES:
        raise MalformedMessage(f"it is longer than {MAX_MESSAGE_BYTES:,} characters")
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise MalformedMessage("it is nested too deeply") from None
    except ValueError:
        raise MalformedMessage("it is not a table request") from None
    if depth(value) > MAX_DEPTH:
        raise MalformedMessage("it is nested too deeply")
    return value
