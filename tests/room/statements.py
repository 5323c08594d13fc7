"""Counting the statements a block sends (a test helper): each statement the room runs,
through SQLAlchemy or on the driver's cursor (`pipeline.on_driver`, `pipeline.ahead`), as
`before_cursor_execute` listeners hear it; the unit's BEGIN and COMMIT left out."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from cardroom.room.storage.db import Storage


@contextmanager
def counted(storage: Storage) -> Iterator[list[str]]:
    seen: list[str] = []

    def note(_c: Any, _cur: Any, statement: str, *_: Any) -> None:
        if statement not in ("BEGIN", "COMMIT"):  # the pipeline's own (the driver's before)
            seen.append(statement)

    event.listen(storage.engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(storage.engine, "before_cursor_execute", note)
