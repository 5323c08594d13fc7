"""Strict parsing of what a client sends to a table: anything unexpected is refused clearly."""

from __future__ import annotations

from typing import Any

from cardroom.errors import CardroomError
from cardroom.money import Cents

MAX_KEY = 100


class MalformedMessage(CardroomError):
    """A message that is not what the table protocol allows."""


def field_str(msg: dict[str, Any], name: str, *, required: bool = True, limit: int = 400
              ) -> str:
    value = msg.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise MalformedMessage(f"malformed message: {name!r} must be a text of 1-{limit} "
                               "characters")
    return value.strip()


def field_cents(msg: dict[str, Any], name: str) -> Cents:
    value = msg.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMessage(f"malformed message: {name!r} must be a whole number of cents")
    return value


def field_key(msg: dict[str, Any]) -> str:
    return field_str(msg, "key", limit=MAX_KEY)


def message_type(msg: object) -> str:
    if not isinstance(msg, dict):
        raise MalformedMessage("malformed message: expected a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise MalformedMessage("malformed message: it needs a \"type\"")
    return kind
