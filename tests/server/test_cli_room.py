"""`cardroom tables create` and `cardroom audit verify` on both databases."""

from __future__ import annotations

import json

from sqlalchemy import update
from typer.testing import CliRunner

import cardroom.cli  # noqa: F401  (registers every command)
from cardroom.cli import app
from cardroom.room.storage.db import make_engine
from cardroom.room.storage.schema import audit_log

runner = CliRunner()


def test_tables_create_and_audit_verify(db_url: str) -> None:
    r = runner.invoke(app, ["tables", "create", "Mini 1", "--database", db_url, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["game"] == "baccarat"
    r = runner.invoke(app, ["audit", "verify", "--database", db_url, "--json"])
    assert r.exit_code == 0 and json.loads(r.output) == {  # audit.keyed, then the table
        "entries": 2, "anchors": 0, "ok": True, "problems": [], "notes": []}
    engine = make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(update(audit_log).values(actor="mallory"))
    engine.dispose()
    r = runner.invoke(app, ["audit", "verify", "--database", db_url])
    assert r.exit_code == 1 and "altered" in r.output


def test_unknown_game_is_a_clear_error(db_url: str) -> None:
    r = runner.invoke(app, ["tables", "create", "X", "--game", "poker", "--database", db_url])
    assert r.exit_code != 0 and "unknown game 'poker'" in str(r.exception)
