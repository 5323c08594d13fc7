"""Tampering by someone who can write the database but does not hold the audit key, on SQLite
and PostgreSQL: each case is found by `cardroom audit verify` (the installed console script,
exit status 1) and named by the in-process check. docs/security.md, "The audit chain and the
books", lists what is and is not detected."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import delete, select, update

from cardroom.room.money import ledger
from cardroom.room.storage import audit
from cardroom.room.storage.audit_key import load_or_create_key
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import audit_head, audit_log
from cardroom.room.trust import integrity
from cardroom.room.trust.anchors import write_anchor
from cardroom.room.trust.keying import ACCEPTED_ACTION, open_keyed
from room.tampering import BUYS, CASES, attacker, cardroom, url_of


@pytest.fixture
def room(db_url: str, tmp_path: Path) -> Iterator[tuple[Storage, Path]]:
    """A keyed room with six chip purchases (a ledger transaction and a cashier entry each)."""
    key_file = tmp_path / "audit.key"
    storage = open_keyed(db_url, key_file)
    for i in range(BUYS):
        with storage.unit() as conn:
            ledger.post(conn, f"buy:{i}", "buy-chips",
                        [(ledger.wallet(i), 1_000 * (i + 1)), (ledger.HOUSE_CAGE,
                                                               -1_000 * (i + 1))],
                        actor="cashier")
            audit.append(conn, "cashier", "cashier.buy", {"amount": 1_000 * (i + 1)})
    yield storage, key_file
    storage.engine.dispose()


def verify_cli(storage: Storage, key_file: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return cardroom("audit", "verify", "--database", url_of(storage), "--audit-key-file",
                    str(key_file), *extra)


def problems(storage: Storage) -> str:
    with storage.snapshot() as conn:
        return " | ".join(integrity.check(conn, storage.audit_key).problems)


@pytest.mark.parametrize("case", sorted(CASES))
def test_tampering_is_detected_with_exit_status_1(room: tuple[Storage, Path], case: str
                                                   ) -> None:
    storage, key_file = room
    tamper, named = CASES[case]
    assert problems(storage) == ""
    engine = attacker(storage)
    with engine.begin() as conn:
        tamper(conn)
    engine.dispose()
    with storage.snapshot() as conn:
        assert ledger.trial_balance(conn).ok  # the books alone still look right
    assert named in problems(storage)
    r = verify_cli(storage, key_file)
    assert r.returncode == 1, r.stdout + r.stderr
    assert named in " ".join(r.stdout.split())


def test_cut_back_to_an_old_copy_of_the_head_is_found_by_an_anchor(
        room: tuple[Storage, Path], tmp_path: Path) -> None:
    """With a copy of the head row taken earlier (an old backup) the MACs all hold after the
    tail is cut; the anchor written outside the database since then does not."""
    storage, key_file = room
    with storage.snapshot() as conn:
        saved = conn.execute(select(audit_head)).one()
    with storage.unit() as conn:
        audit.append(conn, "cashier", "cashier.note", {"after": "the copy"})
    anchors = tmp_path / "anchors"
    with storage.snapshot() as conn:
        write_anchor(anchors, load_or_create_key(key_file)[0],
                     integrity.check(conn, storage.audit_key).reached.chain)
    engine = attacker(storage)
    with engine.begin() as conn:
        conn.execute(delete(audit_log).where(audit_log.c.seq > saved.seq))
        conn.execute(update(audit_head).values(seq=saved.seq, hash=saved.hash, mac=saved.mac))
    engine.dispose()
    assert problems(storage) == ""  # the limit of the key alone (docs/security.md)
    r = verify_cli(storage, key_file, "--anchors", str(anchors))
    assert r.returncode == 1 and "the log was cut back" in r.stdout, r.stdout + r.stderr


def test_a_forged_anchor_is_refused(room: tuple[Storage, Path], tmp_path: Path) -> None:
    storage, key_file = room
    anchors = tmp_path / "anchors"
    with storage.snapshot() as conn:
        write_anchor(anchors, b"k" * 32, integrity.check(conn, storage.audit_key).reached.chain)
    r = verify_cli(storage, key_file, "--anchors", str(anchors))
    assert r.returncode == 1 and "not signed with this room's audit key" in r.stdout


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_command_that_writes_refuses_tampered_books_unless_told(
        room: tuple[Storage, Path], case: str) -> None:
    """Issue 26: the room does not start or write on books that fail `audit verify` (exit 1,
    nothing written); `--accept-failed-audit` goes on, and the chain records it."""
    storage, key_file = room
    engine = attacker(storage)
    with engine.begin() as conn:
        CASES[case][0](conn)
    engine.dispose()
    with storage.read() as conn:
        before = [e.seq for e in audit.entries(conn)]
    create = ("tables", "create", "Mini 1", "--database", url_of(storage), "--audit-key-file",
              str(key_file))
    r = cardroom(*create)
    assert r.returncode == 1 and "the books fail the audit check" in r.stderr, r.stderr
    with storage.read() as conn:
        assert [e.seq for e in audit.entries(conn)] == before
    r = cardroom(*create, "--accept-failed-audit")
    assert r.returncode == 0, r.stderr
    with storage.read() as conn:
        accepted = [e for e in audit.entries(conn) if e.action == ACCEPTED_ACTION]
    assert [e.actor for e in accepted] == ["cli-operator"]
    assert any(CASES[case][1] in p for p in accepted[0].data["problems"])
    assert verify_cli(storage, key_file).returncode == 1
