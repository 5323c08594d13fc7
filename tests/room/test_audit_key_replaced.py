"""Issue 26, "The audit key can be replaced by anyone who can write the database", on SQLite
and PostgreSQL, through the installed console script: no command makes a key for books that
hold entries or seals them implicitly, a command that writes refuses books that fail the audit
check, the key's fingerprint is recorded and checked, and the key changes only by `cardroom
audit rekey` (docs/security.md, "The audit key stays the room's key")."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from cardroom.room.books.cashier import sell_chips
from cardroom.room.money import ledger
from cardroom.room.people import staff
from cardroom.room.people.accounts import Account, Role, new_credentials
from cardroom.room.storage import audit
from cardroom.room.storage.audit_key import load_key, load_or_create_key
from cardroom.room.storage.db import make_engine, open_database
from cardroom.room.storage.schema import audit_head, audit_log, ledger_entries, ledger_transactions
from cardroom.room.trust import integrity
from cardroom.room.trust.keying import REKEYED_ACTION, open_keyed
from room.tampering import account_id, cardroom, move_balance, rechain

from .people import identify

PW = "correct horse battery staple 9"
MOVED = 100_000
"""The $1,000 the attacker moves into the player's wallet."""


@dataclass(frozen=True)
class Sold:
    url: str
    key: Path
    player: int
    keyless: dict[str, str]
    """The environment of a shell or cron job without the key variable: the default key path
    (under its own data folder) holds no file."""
    default_key: Path


@pytest.fixture
def sold(db_url: str, tmp_path: Path) -> Iterator[Sold]:
    """A room keyed by `cardroom tables create`, where the cage sold a player $50 of chips."""
    key = tmp_path / "etc" / "audit.key"
    made = cardroom("tables", "create", "Mini 1", "--database", db_url, "--audit-key-file",
                    str(key))
    assert made.returncode == 0, made.stderr
    storage = open_keyed(db_url, key)
    operator = Account(0, "cli-operator", Role.OWNER)
    with storage.unit() as conn:
        cashier = staff.hire(conn, operator, new_credentials("carl", PW), "cashier")
        player = staff.hire(conn, operator, new_credentials("pia", PW), "player")
        identify(conn, player)
        sell_chips(conn, cashier, player, 5_000, "sale-1")
    storage.engine.dispose()
    data = tmp_path / "xdg"
    yield Sold(db_url, key, player.id, {"XDG_DATA_HOME": str(data), "HOME": str(tmp_path),
                                        "CARDROOM_AUDIT_KEY_FILE": ""},
               data / "cardroom" / "audit.key")


def attack(conn: Connection, player: int) -> None:
    """The issue's attack, exactly: $1,000 moved into the wallet inside the existing cage sale
    (its ledger rows and balances), the chain's `ledger.tx` entry edited to match, every later
    hash recomputed, and every MAC, the head's, and the key's record set to NULL."""
    tx = conn.execute(select(ledger_transactions.c.id)
                      .where(ledger_transactions.c.kind == "cage-sale")).scalar_one()
    wallet, cage = ledger.wallet(player), ledger.HOUSE_CAGE
    for name, cents in ((wallet, MOVED), (cage, -MOVED)):
        conn.execute(update(ledger_entries).where(ledger_entries.c.tx_id == tx,
                                                  ledger_entries.c.account_id ==
                                                  account_id(conn, name))
                     .values(amount=ledger_entries.c.amount + cents))
        move_balance(conn, name, cents)
    for e in conn.execute(select(audit_log).where(audit_log.c.action == ledger.TX_ACTION)):
        detail = json.loads(e.detail)
        if detail["tx"] == tx:
            shift = {wallet: MOVED, cage: -MOVED}
            detail["entries"] = [[n, a + shift.get(n, 0)] for n, a in detail["entries"]]
            conn.execute(update(audit_log).where(audit_log.c.seq == e.seq)
                         .values(detail=audit.canonical(detail)))
            rechain(conn, e.seq)
    conn.execute(update(audit_log).values(mac=None))
    conn.execute(update(audit_head).values(mac=None, key_id=None))


def tamper(url: str, change: object) -> None:
    engine = make_engine(url)
    with engine.begin() as conn:
        change(conn)  # type: ignore[operator]
    engine.dispose()


def entry_count(url: str) -> int:
    engine = make_engine(url)
    with engine.connect() as conn:
        count = len(conn.execute(select(audit_log.c.seq)).all())
    engine.dispose()
    return count


def verify(url: str, key: Path) -> tuple[int, dict[str, object]]:
    r = cardroom("audit", "verify", "--database", url, "--audit-key-file", str(key), "--json")
    return r.returncode, json.loads(r.stdout)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_rekeying_attack_creates_no_key_and_is_never_sealed(sold: Sold) -> None:
    """The issue's reproduction: after the attack, `serve`, `tables create` and `audit seal`
    run without the key variable must not make a key and must exit non-zero; `audit verify`
    with the room's key keeps failing."""
    tamper(sold.url, lambda conn: attack(conn, sold.player))
    code, report = verify(sold.url, sold.key)
    assert code == 1 and any("without a MAC" in p for p in report["problems"])  # type: ignore
    before = entry_count(sold.url)
    for words in (["tables", "create", "Mini 2"], ["tables", "create", "Mini 2",
                                                   "--accept-failed-audit"],
                  ["audit", "seal"], ["serve", "--port", str(free_port())]):
        r = cardroom(*words, "--database", sold.url, env=sold.keyless, timeout=60)
        assert r.returncode != 0, (words, r.stdout, r.stderr)
        assert not sold.default_key.exists(), words
    assert entry_count(sold.url) == before
    code, report = verify(sold.url, sold.key)
    assert code == 1 and any("without a MAC" in p for p in report["problems"])  # type: ignore


def test_the_attacked_books_refuse_the_room_key_and_a_fresh_one(sold: Sold,
                                                               tmp_path: Path) -> None:
    """With the room's key `tables create` and `serve` refuse the books (exit 1); with a key
    the attacker made, the books' own key record in the chain refuses sealing, and writing
    fails the check."""
    tamper(sold.url, lambda conn: attack(conn, sold.player))
    for words in (["tables", "create", "Mini 2"], ["serve", "--port", str(free_port())]):
        r = cardroom(*words, "--database", sold.url, "--audit-key-file", str(sold.key),
                     timeout=60)
        assert r.returncode == 1 and "fail the audit check" in r.stderr, (words, r.stderr)
    fresh = tmp_path / "fresh.key"
    r = cardroom("audit", "seal", "--new-key", "--database", sold.url, "--audit-key-file",
                 str(fresh))
    assert r.returncode == 1 and "that is tampering, not history to seal" in r.stdout, r.stdout
    assert not fresh.exists()
    load_or_create_key(fresh)
    r = cardroom("tables", "create", "Mini 2", "--database", sold.url, "--audit-key-file",
                 str(fresh))
    assert r.returncode == 1 and "without a MAC" in r.stderr
    assert verify(sold.url, sold.key)[0] == 1


def test_a_cut_tail_under_a_head_without_mac_is_not_laundered_by_a_write(sold: Sold) -> None:
    """A head without a MAC in a keyed room is tampering: before issue 26 the next command
    that wrote MACed the head again and the cut-back log verified."""
    def cut(conn: Connection) -> None:
        keep = conn.execute(select(audit_log).order_by(audit_log.c.seq.desc()).offset(2)
                            .limit(1)).one()
        conn.execute(delete(audit_log).where(audit_log.c.seq > keep.seq))
        conn.execute(update(audit_head).values(seq=keep.seq, hash=keep.hash, mac=None))
    tamper(sold.url, cut)
    r = cardroom("tables", "create", "Mini 2", "--database", sold.url, "--audit-key-file",
                 str(sold.key))
    assert r.returncode == 1 and "does not carry the audit key's MAC" in r.stderr, r.stderr
    assert verify(sold.url, sold.key)[0] == 1


@pytest.mark.parametrize(("key_id", "named"), [
    ("f" * 64, "the books record audit key ffffffffffff but the key given is"),
    (None, "the head records audit key none but the chain's last key record")])
def test_the_key_record_altered_is_found(sold: Sold, key_id: str | None, named: str) -> None:
    tamper(sold.url, lambda conn: conn.execute(update(audit_head).values(key_id=key_id)))
    code, report = verify(sold.url, sold.key)
    assert code == 1 and any(named in p for p in report["problems"]), report  # type: ignore
    r = cardroom("tables", "create", "Mini 2", "--database", sold.url, "--audit-key-file",
                 str(sold.key))
    assert r.returncode != 0


def test_every_anchor_names_the_key(sold: Sold, tmp_path: Path) -> None:
    anchors = tmp_path / "anchors"
    r = cardroom("audit", "anchor", str(anchors), "--database", sold.url, "--audit-key-file",
                 str(sold.key))
    assert r.returncode == 0, r.stderr
    [path] = anchors.glob("anchor-*.json")
    assert json.loads(path.read_text())["key"] == audit.key_id(load_key(sold.key))


def rekeyed(url: str) -> list[dict[str, object]]:
    with open_database(url).read() as conn:
        return [e.data for e in audit.entries(conn) if e.action == REKEYED_ACTION]


def test_rekey_with_the_old_key_verifies_first_and_records_it(sold: Sold,
                                                              tmp_path: Path) -> None:
    old, new, anchors = tmp_path / "old.key", tmp_path / "new.key", tmp_path / "anchors"
    assert cardroom("audit", "anchor", str(anchors), "--database", sold.url,
                    "--audit-key-file", str(sold.key)).returncode == 0
    sold.key.rename(old)
    r = cardroom("audit", "rekey", "--old-key-file", str(old), "--database", sold.url,
                 "--audit-key-file", str(new))
    assert r.returncode == 0 and "verified under the old key" in r.stdout, r.stderr
    [record] = rekeyed(sold.url)
    assert record["vouched"] is True and record["key"] == audit.key_id(load_key(new))
    assert record["replaced"] == audit.key_id(load_key(old))
    code, report = verify(sold.url, new)
    assert (code, report["notes"]) == (0, []), report
    r = cardroom("audit", "verify", "--database", sold.url, "--audit-key-file", str(new),
                 "--anchors", str(anchors))
    assert r.returncode == 0, r.stdout  # an anchor of the old key still pins the log
    assert verify(sold.url, old)[0] == 1
    assert cardroom("tables", "create", "Mini 2", "--database", sold.url, "--audit-key-file",
                    str(old)).returncode == 2  # the replaced key writes no more
    assert cardroom("tables", "create", "Mini 2", "--database", sold.url, "--audit-key-file",
                    str(new)).returncode == 0


def test_rekey_refuses_books_that_fail_under_the_old_key(sold: Sold, tmp_path: Path) -> None:
    tamper(sold.url, lambda conn: attack(conn, sold.player))
    new = tmp_path / "new.key"
    r = cardroom("audit", "rekey", "--old-key-file", str(sold.key), "--database", sold.url,
                 "--audit-key-file", str(new))
    assert r.returncode == 1 and "not re-keyed" in r.stdout, r.stdout + r.stderr
    assert not new.exists() and rekeyed(sold.url) == []
    assert verify(sold.url, sold.key)[0] == 1


def test_rekey_without_the_old_key_says_it_cannot_vouch(sold: Sold, tmp_path: Path) -> None:
    sold.key.unlink()
    new = tmp_path / "new.key"
    r = cardroom("audit", "rekey", "--database", sold.url, "--audit-key-file", str(new))
    assert r.returncode == 2  # neither the old key nor --without-old-key
    r = cardroom("audit", "rekey", "--without-old-key", "--database", sold.url,
                 "--audit-key-file", str(new))
    assert r.returncode == 0 and "WARNING: re-keyed WITHOUT the old key" in r.stdout
    [record] = rekeyed(sold.url)
    assert record["vouched"] is False
    code, report = verify(sold.url, new)
    assert code == 0 and "without the old key" in str(report["notes"]), report
    with open_database(sold.url).snapshot() as conn:
        assert integrity.check(conn, load_key(new)).ok
