"""Ids in URLs: range-checked before they reach the database, so a huge or malformed id is a
404 like any id that names nothing (not an integer overflow in SQLite or PostgreSQL)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import Path

MAX_ROW_ID = 2**31 - 1
"""The largest id the books' `Integer` keys hold on both databases."""

RowId = Annotated[int, Path(ge=1, le=MAX_ROW_ID)]
"""A table's or hand's id in a URL path."""


def row_id(text: str) -> int | None:
    """The id a URL segment names, or None when it names no row (not a plain number, or out
    of range): for the table WebSocket, whose refusal must be a message, not a failed
    handshake."""
    if not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if 1 <= value <= MAX_ROW_ID else None


def path_not_found(errors: Sequence[Any]) -> str | None:
    """The 404 message for a request whose URL names no row ("there is no hand 99999999999"),
    or None when the validation errors are not in the path."""
    for error in errors:
        loc: tuple[object, ...] = tuple(error.get("loc", ())) if isinstance(error, dict) else ()
        if len(loc) == 2 and loc[0] == "path":
            what = str(loc[1]).removesuffix("_id")
            return f"there is no {what.replace('_', ' ')} {str(error.get('input', ''))[:40]}"
    return None
