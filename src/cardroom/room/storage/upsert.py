"""Rows made or replaced in one statement on either database (their own `INSERT ... ON
CONFLICT`), built once per dialect with bound parameters and marked `deferred`: written
after an action without a wait on PostgreSQL (issue 25), and never compiled anew."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.expression import Executable

from cardroom.room.storage.pipeline import deferred

INSERTS = (("postgresql", postgresql.insert), ("sqlite", sqlite.insert))


def upsert(table: Table, key: Sequence[str], values: dict[str, Any]) -> dict[str, Executable]:
    """By dialect: a row of `table` with `values` (bound parameters, `key` columns among
    them), made, or the row with the same `key` given the other values."""
    made: dict[str, Executable] = {}
    for dialect, make_insert in INSERTS:
        new = make_insert(table).values(**values)
        made[dialect] = deferred(new.on_conflict_do_update(
            index_elements=[table.c[k] for k in key],
            set_={c: new.excluded[c] for c in values if c not in key}))
    return made


def insert_new(table: Table, values: dict[str, Any]) -> dict[str, Executable]:
    """By dialect: a row of `table` with `values`, unless one with the same key stands."""
    return {dialect: deferred(make_insert(table).values(**values).on_conflict_do_nothing())
            for dialect, make_insert in INSERTS}
