"""Strict parsing of what a client sends to a table: anything unexpected is refused clearly."""

from __future__ import annotations

from typing import Any

from cardroom.errors import CardroomError
from cardroom.money import Cents

MAX_KEY = 100


class MalformedMessage(CardroomError):
    """A message that is not what the table protocol allows. `reason` is the end of a plain
    sentence for the player (what was wrong, in words, never a field name or cents)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the table could not read that request: {reason}")


def field_str(msg: dict[str, Any], name: str, what: str, *, required: bool = True,
              limit: int = 400) -> str:
    """The text `msg[name]`; `what` names it for a person ("the reason")."""
    value = msg.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise MalformedMessage(f"{what} must be a text of 1 to {limit} characters")
    return value.strip()


def field_cents(msg: dict[str, Any], name: str, what: str) -> Cents:
    """The amount `msg[name]` (in cents on the wire); `what` names it for a person."""
    value = msg.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMessage(f"{what} is not an amount of money")
    return value


def field_key(msg: dict[str, Any]) -> str:
    return field_str(msg, "key", "the request's reference", limit=MAX_KEY)


def message_type(msg: object) -> str:
    if not isinstance(msg, dict):
        raise MalformedMessage("it is not a table request")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise MalformedMessage("it does not say what to do")
    return kind
