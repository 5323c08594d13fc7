"""The audit key file and adopting a room written before it (schema revision 0001): a key made
now seals the history as it stands, an existing key finds entries without MACs, and a broken
chain is never sealed. Migrations 0002-0003 run on a database holding revision-0001 data."""

from __future__ import annotations

import json
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import column, insert, select, table, update
from typer.testing import CliRunner

import cardroom.cli  # noqa: F401  (registers every command)
from cardroom.cli import app
from cardroom.room.storage import audit
from cardroom.room.storage.audit_key import AuditKeyError, load_key, load_or_create_key
from cardroom.room.storage.db import MIGRATIONS, make_engine
from cardroom.room.storage.schema import (
    audit_head,
    audit_log,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
)

runner = CliRunner()


def test_the_key_file_is_made_private_and_a_shared_one_refused(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "audit.key"
    key, created = load_or_create_key(path)
    assert created and len(key) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_key(path) == (key, False)
    path.chmod(0o644)
    with pytest.raises(AuditKeyError, match="may be read by others"):
        load_key(path)


LOG_0001 = table("audit_log", *(column(c) for c in ("seq", "at", "actor", "action", "detail",
                                                      "prev_hash", "hash")))
"""The log's columns at revision 0001 (the schema's `audit_log` has columns added since)."""


def legacy_room(db_url: str) -> None:
    """A room at revision 0001: two audit entries and one chip purchase, no MACs, no ledger
    records in the chain (rows written as that version's code wrote them)."""
    engine = make_engine(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        prev = audit.GENESIS
        for seq, action in ((1, "setup.owner"), (2, "cashier.buy")):
            at = datetime.now(UTC).isoformat()
            digest = audit.entry_hash(seq, at, "olga", action, "{}", prev)
            conn.execute(insert(LOG_0001).values(seq=seq, at=at, actor="olga", action=action,
                                                 detail="{}", prev_hash=prev, hash=digest))
            prev = digest
        conn.execute(insert(audit_head).values(id=1, seq=2, hash=prev))
        conn.execute(insert(ledger_accounts), [
            {"name": "wallet:1", "allow_negative": False, "balance": 500},
            {"name": "house:cage", "allow_negative": True, "balance": -500}])
        conn.execute(insert(ledger_transactions).values(
            key="buy:1", fingerprint="0" * 64, kind="buy-chips", memo="", actor="olga",
            created_at=datetime.now(UTC)))
        conn.execute(insert(ledger_entries), [{"tx_id": 1, "account_id": 1, "amount": 500},
                                              {"tx_id": 1, "account_id": 2, "amount": -500}])
    engine.dispose()


def verify(db_url: str, key: Path) -> tuple[int, dict[str, object]]:
    r = runner.invoke(app, ["audit", "verify", "--database", db_url, "--audit-key-file",
                            str(key), "--json"])
    return r.exit_code, json.loads(r.output)


def test_a_new_key_seals_the_history_it_finds_only_when_told(db_url: str,
                                                             tmp_path: Path) -> None:
    """Issue 26: a command that writes never makes a key for books that hold entries (nor
    seals them); `audit seal --new-key` is the operator's explicit adoption."""
    legacy_room(db_url)
    key = tmp_path / "audit.key"
    r = runner.invoke(app, ["tables", "create", "Mini 1", "--database", db_url,
                            "--audit-key-file", str(key)])
    assert r.exit_code != 0 and "a key is made only for new, empty books" in str(r.exception)
    assert not key.exists()
    r = runner.invoke(app, ["audit", "seal", "--new-key", "--database", db_url,
                            "--audit-key-file", str(key)])
    assert r.exit_code == 0 and "sealed 2 entries" in r.output, r.output
    r = runner.invoke(app, ["tables", "create", "Mini 1", "--database", db_url,
                            "--audit-key-file", str(key)])
    assert r.exit_code == 0, r.output
    assert verify(db_url, key) == (0, {"entries": 5, "anchors": 0, "ok": True,
                                       "problems": [], "notes": []})
    engine = make_engine(db_url)
    with engine.connect() as conn:
        actions = [a for (a,) in conn.execute(select(audit_log.c.action)
                                              .order_by(audit_log.c.seq))]
        sealed = json.loads(conn.execute(select(audit_log.c.detail).where(
            audit_log.c.action == "audit.sealed")).scalar_one())
    engine.dispose()
    assert actions == ["setup.owner", "cashier.buy", "ledger.tx", "audit.sealed",
                       "table.create"]
    assert sealed == {"ledger_recorded": [1], "unkeyed_entries": 2,
                      "key": audit.key_id(load_key(key))}


def test_an_existing_key_reports_unkeyed_history_until_sealed(db_url: str,
                                                              tmp_path: Path) -> None:
    legacy_room(db_url)
    key = tmp_path / "audit.key"
    load_or_create_key(key)
    code, report = verify(db_url, key)
    found = " | ".join(report["problems"])  # type: ignore[arg-type]
    assert code == 1 and "are without a MAC" in found
    assert "ledger transaction 1 is not in the audit chain" in found
    r = runner.invoke(app, ["audit", "seal", "--database", db_url, "--audit-key-file", str(key)])
    assert r.exit_code == 0 and "sealed 2 entries" in r.output
    assert verify(db_url, key)[0] == 0
    r = runner.invoke(app, ["audit", "seal", "--database", db_url, "--audit-key-file", str(key)])
    assert r.exit_code == 0 and "nothing to seal" in r.output


def test_a_broken_chain_is_not_sealed(db_url: str, tmp_path: Path) -> None:
    legacy_room(db_url)
    engine = make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(update(audit_log).where(audit_log.c.seq == 1).values(actor="mallory"))
    engine.dispose()
    key = tmp_path / "audit.key"
    load_or_create_key(key)
    r = runner.invoke(app, ["audit", "seal", "--database", db_url, "--audit-key-file", str(key)])
    assert r.exit_code == 1 and "cannot be sealed" in r.output
    assert verify(db_url, key)[0] == 1


def test_anchor_command_writes_a_signed_head_of_a_sound_log_only(db_url: str,
                                                                 tmp_path: Path) -> None:
    key, anchors = tmp_path / "audit.key", tmp_path / "anchors"
    runner.invoke(app, ["tables", "create", "Mini 1", "--database", db_url,
                        "--audit-key-file", str(key)])
    r = runner.invoke(app, ["audit", "anchor", str(anchors), "--database", db_url,
                            "--audit-key-file", str(key)])
    assert r.exit_code == 0, r.output
    [path] = anchors.glob("anchor-*.json")
    data = json.loads(path.read_text())
    # entry 1 is `audit.keyed` (the key bound to the new books), entry 2 the table
    assert data["seq"] == 2 and len(data["mac"]) == 64
    r = runner.invoke(app, ["audit", "verify", "--database", db_url, "--audit-key-file",
                            str(key), "--anchors", str(anchors), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["anchors"] == 1
    engine = make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(update(audit_log).values(actor="mallory"))
    engine.dispose()
    r = runner.invoke(app, ["audit", "anchor", str(anchors), "--database", db_url,
                            "--audit-key-file", str(key)])
    assert r.exit_code == 1 and "entry 1 was altered" in r.output
    assert list(anchors.glob("anchor-*.json")) == [path]  # a tampered log is never anchored


def test_a_command_refuses_to_write_under_another_key(db_url: str, tmp_path: Path) -> None:
    """A lost or mixed-up key file must not extend the chain under a new key."""
    key, other = tmp_path / "audit.key", tmp_path / "other.key"
    r = runner.invoke(app, ["tables", "create", "Mini 1", "--database", db_url,
                            "--audit-key-file", str(key)])
    assert r.exit_code == 0, r.output
    load_or_create_key(other)
    r = runner.invoke(app, ["tables", "create", "Mini 2", "--database", db_url,
                            "--audit-key-file", str(other)])
    assert r.exit_code != 0 and "is not the key this room's audit chain is signed with" in str(
        r.exception)
    assert verify(db_url, key)[0] == 0
