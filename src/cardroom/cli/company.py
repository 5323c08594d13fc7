"""`--rooms` of `cardroom report games|cage|month|quarter` at the head office (issue 25): the
room's own report run on each room's books there (`room.head_office.each_room`), printed as
the room prints it, then the company's main figures, each room's and their sum."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.table import Table

from cardroom.cli.options import console
from cardroom.errors import CardroomError
from cardroom.money import format_money

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

R = TypeVar("R")

Rooms = Annotated[str | None, typer.Option(
    "--rooms", help="At the head office: 'all', or room ids separated by commas: each room's "
    "report and the company's figures (docs/deployment.md, \"Head office\").")]
COUNTS = frozenset({"hands"})
"""Figures that are counts, not money."""


def rooms_report(database: str | None, rooms: str, form: str,
                 build: Callable[[Connection], R], to_json: Callable[[R], dict[str, Any]],
                 show: Callable[[R], None],
                 figures: Sequence[tuple[str, Callable[[R], int]]]) -> list[R]:
    """Each room's report (`build` on its books), printed (`show`, or `to_json`), then the
    company's `figures`; the rooms' reports, for the exit status."""
    from cardroom.room.books import head_office
    from cardroom.room.storage.db import open_database

    if form == "csv":
        raise CardroomError("--rooms prints the terminal's tables or --json, not --csv")
    with open_database(database).snapshot() as conn:
        reports = head_office.each_room(conn, rooms, build)
    per_room, total = head_office.company(reports, figures)
    if form == "json":
        print(json.dumps({"rooms": {r: to_json(x) for r, x in reports.items()},
                          "figures": per_room, "company": total}, indent=1))
        return list(reports.values())
    for room, report in reports.items():
        console.rule(f"room {room}")
        show(report)
    table = Table(title="The company, room by room")
    table.add_column("")
    for name, _ in figures:
        table.add_column(name.replace("_", " "), justify="right")
    for room, row in [*per_room.items(), ("company", total)]:
        table.add_row(room, *(str(v) if k in COUNTS else format_money(v)
                              for k, v in row.items()))
    console.rule("company")
    console.print(table)
    return list(reports.values())
