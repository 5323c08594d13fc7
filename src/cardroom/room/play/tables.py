"""The tables the room has opened, of the games the registry lists (`cardroom.registry`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from cardroom import registry
from cardroom.errors import CardroomError
from cardroom.houserules import HouseRules, build_rules, check_profile, load_rules
from cardroom.profile import profile_in_force
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.storage import audit
from cardroom.room.storage.schema import room_tables, seats


@dataclass(frozen=True)
class TableRow:
    id: int
    name: str
    game: str
    rules: dict[str, Any]
    status: str


def rules_model(game: str) -> type[HouseRules]:
    """The game's house-rules model (the registry's `rules`); an unknown game is refused."""
    model = registry.load(registry.game(game).rules)
    assert isinstance(model, type) and issubclass(model, HouseRules)
    return model


def banked_games() -> frozenset[str]:
    """The games whose tables the house banks: they keep a tray and a table inventory."""
    return frozenset(g for g in registry.names() if rules_model(g).house_banked)


def parse_rules(game: str, rules: dict[str, Any] | str | Path | None) -> HouseRules:
    model = rules_model(game)
    if rules is None:
        return build_rules(model, {})
    if isinstance(rules, dict):
        return build_rules(model, rules)
    return load_rules(model, rules)


def create_table(conn: Connection, who: Account, name: str, game: str,
                 rules: dict[str, Any] | str | Path | None = None) -> TableRow:
    who.require(Permission.OPEN_TABLES)
    name = name.strip()
    if not 1 <= len(name) <= 60:
        raise CardroomError("a table name needs 1 to 60 characters")
    parsed = check_profile(parse_rules(game, rules), f"table {name}")
    if conn.execute(select(room_tables.c.id).where(room_tables.c.name == name)).first():
        raise CardroomError(f"there is already a table named {name!r}")
    if parsed.house_banked:
        banked = banked_games()
        count = conn.execute(select(func.count()).select_from(room_tables)
                             .where(room_tables.c.game.in_(banked))).scalar_one()
        profile_in_force().check_tables(count + 1)
    data = parsed.model_dump(mode="json")
    table_id = conn.execute(insert(room_tables).values(
        name=name, game=game, rules_json=json.dumps(data), status="open",
        created_at=datetime.now(UTC)).returning(room_tables.c.id)).scalar_one()
    audit.append(conn, who.username, "table.create",
                 {"table": table_id, "name": name, "game": game, "rules": data})
    return TableRow(table_id, name, game, data, "open")


def list_tables(conn: Connection) -> list[TableRow]:
    return [_row(r) for r in conn.execute(select(room_tables).order_by(room_tables.c.id))]


def get_table(conn: Connection, table_id: int) -> TableRow | None:
    r = conn.execute(select(room_tables).where(room_tables.c.id == table_id)).first()
    return None if r is None else _row(r)


def seated_count(conn: Connection, table_id: int) -> int:
    """How many people the books seat at the table (one row each in `seats`)."""
    return int(conn.execute(select(func.count()).select_from(seats)
                            .where(seats.c.table_id == table_id)).scalar_one())


def _row(r: Any) -> TableRow:
    return TableRow(r.id, r.name, r.game, json.loads(r.rules_json), r.status)
