"""`cardroom tables create` opens Super Pan 9 and Pai Gow tables with house-rules files; the
room then plays them (both databases)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import cardroom.cli  # noqa: F401  (registers every command)
from cardroom.cli import app
from cardroom.room.room import Room

runner = CliRunner()


def test_tables_create_super_pan_9_and_pai_gow(db_url: str, tmp_path: Path) -> None:
    rules = tmp_path / "pan9.toml"
    rules.write_text("decks = 6\nmin_wager_cents = 1000\n", encoding="utf-8")
    r = runner.invoke(app, ["tables", "create", "Pan 9", "--game", "super-pan-9", "--rules",
                            str(rules), "--database", db_url, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["game"] == "super-pan-9"
    dragon = tmp_path / "pg.toml"
    dragon.write_text('dragon_hand = "player-sets"\nmax_wager_cents = 25000\n',
                      encoding="utf-8")
    r = runner.invoke(app, ["tables", "create", "PG", "--game", "pai-gow", "--rules",
                            str(dragon), "--database", db_url, "--json"])
    assert r.exit_code == 0, r.output
    room = Room.open(db_url)
    games = {t.name: t.snapshot(None) for t in room.tables.values()}
    assert games["Pan 9"]["limits"]["min"] == 1000
    # the table's smallest chip, 25 cents unless its house rules say otherwise (issue 23)
    assert games["PG"]["limits"] == {"smallest_chip": 25, "min": 500, "max": 25000,
                                     "commission": "1/20", "dragon": "player-sets",
                                     "foul_policy": "hand-loses"}
    room.storage.engine.dispose()


def test_bad_house_rules_for_a_card_table_are_a_clear_error(db_url: str,
                                                            tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("commission = \"6%\"\n", encoding="utf-8")
    r = runner.invoke(app, ["tables", "create", "X", "--game", "super-pan-9", "--rules",
                            str(bad), "--database", db_url])
    assert r.exit_code != 0 and "commission" in (r.output + str(r.exception))


def test_tables_create_and_the_table_page_post_the_house_modifications(
        db_url: str, tmp_path: Path) -> None:
    """Issue 10: an immaterial modification is "shown on the posted rules, never as silently
    accepted numbers": `cardroom tables create` names each one (text and JSON), and the
    table's page carries a "House modifications" line; a table without any has none."""
    from cardroom.room.people.accounts import Role, create_account
    from cardroom.server.app import create_app

    from .forms import FormClient

    rules = tmp_path / "pan.toml"
    rules.write_text('buy_in_chips = 40\n[[modifications]]\nid = "buy-in-40"\n'
                     'clause = "house rules: the buy-in is 20 chips"\n'
                     'description = "a 40-chip buy-in"\nsettings = ["buy_in_chips"]\n',
                     encoding="utf-8")
    r = runner.invoke(app, ["tables", "create", "Pan 40", "--game", "pan", "--rules",
                            str(rules), "--database", db_url])
    assert r.exit_code == 0, r.output
    assert "modification buy-in-40: a 40-chip buy-in" in " ".join(r.output.split())
    r = runner.invoke(app, ["tables", "create", "Pan 40b", "--game", "pan", "--rules",
                            str(rules), "--database", db_url, "--json"])
    assert json.loads(r.output)["modifications"][0]["id"] == "buy-in-40"
    r = runner.invoke(app, ["tables", "create", "Pan 20", "--game", "pan", "--database",
                            db_url, "--json"])
    assert json.loads(r.output)["modifications"] == []
    room = Room.open(db_url)
    with room.storage.unit() as conn:
        create_account(conn, "alice", "correct horse", Role.PLAYER)
    client = FormClient(create_app(room))
    r = client.post("/login", data={"username": "alice", "password": "correct horse"},
                    follow_redirects=False)
    assert r.status_code == 303
    ids = {t.name: t.table_id for t in room.tables.values()}
    page = client.get(f"/tables/{ids['Pan 40']}").text
    assert "House modifications:" in page and "a 40-chip buy-in" in page
    assert "House modifications" not in client.get(f"/tables/{ids['Pan 20']}").text
    room.storage.engine.dispose()
