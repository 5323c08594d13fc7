"""The refusal of a message a table cannot read, and the first look at one (a JSON object with
a `type`); its fields are read by the game's model (`room.protocol`)."""

from __future__ import annotations

import orjson

from cardroom.errors import CardroomError

MAX_KEY = 100


class MalformedMessage(CardroomError):
    """A message that is not what the table protocol allows. `reason` is the end of a plain
    sentence for the player (what was wrong, in words, never a field name or cents)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the table could not read that request: {reason}")


def compact_json(data: object) -> bytes:
    """The compact JSON of what the room writes at every action (a client's update, a sealed
    record): by orjson, as encoding each viewer's update with the standard library's encoder
    cost a tenth of the served room's work per action (issue 25). A key that is not text is
    written as one (as `json.dumps` does)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


def message_text(data: object) -> str:
    """The text of what a client is sent (a table's update, an error): `compact_json`."""
    return compact_json(data).decode()


def message_type(msg: object) -> str:
    if not isinstance(msg, dict):
        raise MalformedMessage("it is not a table request")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise MalformedMessage("it does not say what to do")
    return kind
