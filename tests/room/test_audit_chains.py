"""The audit log as several chains (issue 25: "the audit chain as per-writer sub-chains
anchored into the room chain, with `audit verify` as strong as today"): each process of a room
served by several writes its own chain under its own lock, its opening and its heads recorded
on the room chain; every tampering case of docs/security.md is found on a writer chain as on
the room chain, and so are a writer chain deleted whole, cut back behind an anchor with its
old head row put back, or an anchor edited. On SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import delete, inspect, select, text, update
from sqlalchemy.engine import Connection

from cardroom.room.money import ledger
from cardroom.room.room import Room
from cardroom.room.storage import audit, db
from cardroom.room.storage.audit_key import load_key
from cardroom.room.storage.db import MIGRATIONS, Storage
from cardroom.room.storage.schema import audit_head, audit_log
from cardroom.room.trust import integrity, keying
from cardroom.room.trust.anchors import check_anchors, write_anchor
from cardroom.room.trust.keying import open_keyed
from cardroom.shoe import SeededRandom
from room.storage_fixture import POSTGRESQL_ONLY
from room.tampering import BUYS, attacker, cardroom, url_of

Writers = tuple[Storage, Storage, Storage, Path]
"""The room's storage (chain 0), two writers' (chains 1 and 2), the key file."""


def buy(storage: Storage, name: str, i: int) -> None:
    """One chip purchase: a ledger transaction and a cashier entry, on the storage's chain."""
    with storage.unit() as conn:
        ledger.post(conn, f"buy:{name}:{i}", "buy-chips",
                    [(ledger.wallet(i), 1_000 * (i + 1)), (ledger.HOUSE_CAGE, -1_000 * (i + 1))],
                    actor="cashier")
        audit.append(conn, "cashier", "cashier.buy", {"amount": 1_000 * (i + 1)})


def writer(room: Storage, name: str) -> Storage:
    """A process of the room: its own chain, opened on the room chain (or found there)."""
    with room.unit() as conn:
        chain = audit.writer_chain(conn, name)
    return Storage(room.engine, room.audit_key, chain=chain)


@pytest.fixture
def writers(db_url: str, tmp_path: Path) -> Iterator[Writers]:
    """A keyed room with `BUYS` purchases on the room chain and on each of two writer chains,
    each writer's head anchored on the room chain at the end."""
    key_file = tmp_path / "audit.key"
    room = open_keyed(db_url, key_file)
    a, b = writer(room, "10.0.0.1:8001"), writer(room, "10.0.0.2:8001")
    for i in range(BUYS):
        for storage, name in ((room, "room"), (a, "a"), (b, "b")):
            buy(storage, name, i)
    with room.unit() as conn:
        audit.anchor(conn, a.chain)
        audit.anchor(conn, b.chain)
    yield room, a, b, key_file
    room.engine.dispose()


def problems(storage: Storage) -> str:
    with storage.snapshot() as conn:
        return " | ".join(integrity.check(conn, storage.audit_key).problems)


def tamper(storage: Storage, change: object) -> None:
    assert callable(change)
    with attacker(storage).begin() as conn:
        change(conn)


def test_writer_chains_verify_and_hold_their_ledger_transactions(writers: Writers) -> None:
    """Three chains, 3 x `BUYS` ledger transactions: the books agree with the chains."""
    room, a, b, _ = writers
    assert (a.chain, b.chain) == (1, 2)
    assert problems(room) == ""
    with room.snapshot() as conn:
        report = integrity.check(conn, room.audit_key)
        on_a = list(audit.entries(conn, chain=a.chain))
        on_b = list(audit.entries(conn, chain=b.chain))
    assert len(on_a) == len(on_b) == 1 + 2 * BUYS  # the opening, then each purchase's two
    assert report.reached.chain.writers == ((1, len(on_a), on_a[-1].hash),
                                            (2, len(on_b), on_b[-1].hash))
    assert on_a[0].action == audit.CHAIN_OPENED and on_a[0].prev_hash == audit.chain_genesis(1)
    assert audit.chain_genesis(1) != audit.chain_genesis(2) != audit.GENESIS


def test_a_writer_started_again_goes_on_with_its_chain(writers: Writers) -> None:
    """A stable name (the advertised address) finds the chain opened for it."""
    room, a, _, _ = writers
    again = writer(room, "10.0.0.1:8001")
    assert again.chain == a.chain
    buy(again, "again", 0)
    assert problems(room) == ""


def test_the_incremental_check_reads_each_chain_once(writers: Writers) -> None:
    """The `/audit` page's check from a checkpoint: each writer chain from where it stopped,
    so no ledger transaction is counted twice."""
    room, a, _, _ = writers
    with room.snapshot() as conn:
        first = integrity.check(conn, room.audit_key)
    buy(a, "later", 0)
    with room.snapshot() as conn:
        later = integrity.check(conn, room.audit_key, first.reached)
    assert later.ok, later.problems
    assert later.reached.transactions == first.reached.transactions + 1


def _entry_changed(conn: Connection) -> None:
    conn.execute(update(audit_log).where(audit_log.c.chain == 1, audit_log.c.seq == 3)
                 .values(actor="mallory"))


def _entry_deleted(conn: Connection) -> None:
    conn.execute(delete(audit_log).where(audit_log.c.chain == 1, audit_log.c.seq == 3))


def _entries_reordered(conn: Connection) -> None:
    """Entries 3 and 4 swap places (each keeps its content, hash and MAC)."""
    conn.execute(update(audit_log).where(audit_log.c.chain == 1, audit_log.c.seq == 3)
                 .values(seq=-4))
    conn.execute(update(audit_log).where(audit_log.c.chain == 1, audit_log.c.seq == 4)
                 .values(seq=3))
    conn.execute(update(audit_log).where(audit_log.c.chain == 1, audit_log.c.seq == -4)
                 .values(seq=4))


def _last_deleted(conn: Connection) -> None:
    last = conn.execute(select(audit_head.c.seq).where(audit_head.c.id == 2)).scalar_one()
    conn.execute(delete(audit_log).where(audit_log.c.chain == 1, audit_log.c.seq == last))


def _chain_deleted(conn: Connection) -> None:
    conn.execute(delete(audit_log).where(audit_log.c.chain == 1))
    conn.execute(delete(audit_head).where(audit_head.c.id == 2))


def _chain_moved(conn: Connection) -> None:
    """Writer chain 1's rows and head relabelled as a chain of another id (2 gone first)."""
    conn.execute(delete(audit_log).where(audit_log.c.chain == 2))
    conn.execute(delete(audit_head).where(audit_head.c.id == 3))
    conn.execute(update(audit_log).where(audit_log.c.chain == 1).values(chain=2))
    conn.execute(update(audit_head).where(audit_head.c.id == 2).values(id=3))


def _anchor_changed(conn: Connection) -> None:
    row = conn.execute(select(audit_log.c.seq, audit_log.c.detail).where(
        audit_log.c.chain == 0, audit_log.c.action == audit.CHAIN_ANCHORED)
        .order_by(audit_log.c.seq.desc()).limit(1)).one()
    conn.execute(update(audit_log).where(audit_log.c.chain == 0, audit_log.c.seq == row.seq)
                 .values(detail=row.detail.replace('"seq":', '"seq":1')))


def _head_mac_removed(conn: Connection) -> None:
    conn.execute(update(audit_head).where(audit_head.c.id == 2).values(mac=None))


def _head_copied_from_the_room_chain(conn: Connection) -> None:
    """Writer chain 1 cut back to its first entry, its head row made with the room chain's
    head MAC format (seq, hash) as an attacker who saw the room's head rows might try."""
    first = conn.execute(select(audit_log).where(audit_log.c.chain == 1,
                                                 audit_log.c.seq == 1)).one()
    conn.execute(delete(audit_log).where(audit_log.c.chain == 1, audit_log.c.seq > 1))
    conn.execute(update(audit_head).where(audit_head.c.id == 2)
                 .values(seq=1, hash=first.hash))


CASES = {
    "entry changed": (_entry_changed, "entry 3 of writer chain 1 was altered"),
    "entry deleted": (_entry_deleted, "writer chain 1: entry 3 is missing"),
    "entries reordered": (_entries_reordered, "entry 3 of writer chain 1 does not link"),
    "last entry deleted": (_last_deleted, "writer chain 1: the log ends at entry"),
    "chain deleted whole": (_chain_deleted, "writer chain 1, opened at entry"),
    "chain moved to another id": (_chain_moved, "writer chain 2 does not start with its "
                                                "opening"),
    "anchor changed": (_anchor_changed, "was altered: its hash does not match"),
    "head MAC removed": (_head_mac_removed, "writer chain 1: the head record (entry"),
    "cut back, head moved": (_head_copied_from_the_room_chain,
                             "writer chain 1: the head record (entry 1) does not carry"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_tampering_with_a_writer_chain_is_detected(writers: Writers, case: str) -> None:
    """docs/security.md, "What is detected": each case on a writer chain."""
    room, *_ = writers
    change, named = CASES[case]
    tamper(room, change)
    assert named in problems(room)


def test_a_writer_chain_cut_back_with_its_old_head_put_back_is_caught_by_the_anchor(
        writers: Writers) -> None:
    """The head row copied while the chain was shorter passes every MAC check once the
    tail is deleted and the copy put back; the room chain's anchor of the later head does
    not (the room chain plays for a writer chain the part of anchors outside the
    database)."""
    room, a, _, _ = writers
    with room.read() as conn:
        saved = conn.execute(select(audit_head).where(audit_head.c.id == 2)).one()
    for i in range(2):
        buy(a, "more", i)
    with room.unit() as conn:
        audit.anchor(conn, a.chain)
    assert problems(room) == ""

    def cut(conn: Connection) -> None:
        conn.execute(delete(audit_log).where(audit_log.c.chain == 1,
                                             audit_log.c.seq > saved.seq))
        conn.execute(update(audit_head).where(audit_head.c.id == 2)
                     .values(seq=saved.seq, hash=saved.hash, mac=saved.mac))
    tamper(room, cut)
    found = problems(room)
    assert f"entry {saved.seq + 4} of writer chain 1, anchored on the room chain, is not in " \
           "the log" in found
    assert "head record" not in found  # the old head's MAC is sound: only the anchor tells


class Clock:
    """`time` as `db` reads it, moved by hand: when the last anchor was, for `anchor_due`."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def monotonic(self) -> float:
        return self.now


def anchored(storage: Storage, chain: int) -> list[int]:
    """The entries of `chain` the room chain anchored, in order."""
    with storage.read() as conn:
        return [e.data["seq"] for e in audit.entries(conn)
                if e.action == audit.CHAIN_ANCHORED and e.data["chain"] == chain]


def test_an_idle_process_s_tail_is_anchored_by_its_heartbeat(
        writers: Writers, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: a unit anchors its chain at most once per `ANCHOR_EVERY`, so the entries of
    a unit within that time of the last anchor wait for the next; with no next unit (the
    process idle) its heartbeat (`Room.keep_leases`) anchors them once `ANCHOR_EVERY` has
    passed, and nothing more while the chain stays still. From then on the tail cut back with
    its old head row put back (the one case the MACs cannot tell) is caught."""
    room = writers[0]
    clock = Clock()
    monkeypatch.setattr(db, "time", clock)
    process = Room(Storage(room.engine, room.audit_key), SeededRandom(3), holder="p3")
    chain = process.storage.write_as("10.0.0.3:8001")
    buy(process.storage, "p3", 0)  # the first unit anchors at once
    with room.read() as conn:
        saved = conn.execute(select(audit_head).where(audit_head.c.id == audit.head_id(chain))
                             ).one()
    assert anchored(room, chain) == [saved.seq]
    clock.now += db.ANCHOR_EVERY / 2
    buy(process.storage, "p3", 1)  # too soon: its two entries are the unanchored tail
    process.keep_leases()
    assert anchored(room, chain) == [saved.seq]
    clock.now += db.ANCHOR_EVERY
    process.keep_leases()
    assert anchored(room, chain) == [saved.seq, saved.seq + 2]
    process.keep_leases()  # the chain did not move: no anchor written
    clock.now += db.ANCHOR_EVERY
    process.keep_leases()
    assert anchored(room, chain) == [saved.seq, saved.seq + 2]
    assert problems(room) == ""

    def cut(conn: Connection) -> None:
        conn.execute(delete(audit_log).where(audit_log.c.chain == chain,
                                             audit_log.c.seq > saved.seq))
        conn.execute(update(audit_head).where(audit_head.c.id == audit.head_id(chain))
                     .values(seq=saved.seq, hash=saved.hash, mac=saved.mac))
    tamper(room, cut)
    assert f"entry {saved.seq + 2} of writer chain {chain}, anchored on the room chain, is " \
           "not in the log" in problems(room)


def test_a_process_stopping_in_good_order_anchors_its_tail_at_once(
        writers: Writers, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: the tail of a unit too soon after the last anchor is anchored when the
    process stops in good order (`Room.release_leases`), without waiting for a beat."""
    room = writers[0]
    clock = Clock()
    monkeypatch.setattr(db, "time", clock)
    process = Room(Storage(room.engine, room.audit_key), SeededRandom(3), holder="p4")
    chain = process.storage.write_as("10.0.0.4:8001")
    buy(process.storage, "p4", 0)
    buy(process.storage, "p4", 1)  # no time passed: not anchored
    with room.read() as conn:
        head = conn.execute(select(audit_head.c.seq).where(
            audit_head.c.id == audit.head_id(chain))).scalar_one()
    assert anchored(room, chain) == [head - 2]
    process.release_leases()
    assert anchored(room, chain) == [head - 2, head]
    assert problems(room) == ""


def test_the_audit_verify_command_exits_1_on_a_tampered_writer_chain(writers: Writers
                                                                     ) -> None:
    room, _, _, key_file = writers
    args = ("audit", "verify", "--database", url_of(room), "--audit-key-file", str(key_file))
    assert cardroom(*args).returncode == 0
    tamper(room, _entry_changed)
    done = cardroom(*args)
    assert done.returncode == 1
    assert "writer chain 1" in done.stdout


def test_rekey_moves_every_chain_to_the_new_key(writers: Writers, tmp_path: Path) -> None:
    """`audit rekey` MACs every chain's entries and head under the new key."""
    room, _, _, key_file = writers
    new = tmp_path / "new.key"
    keying.rekey(url_of(room), new, key_file)
    moved = Storage(room.engine, load_key(new))
    assert problems(moved) == ""
    assert "does not carry the audit key's MAC" in problems(room)  # the old key's are gone


@POSTGRESQL_ONLY
def test_two_writer_chains_do_not_wait_for_each_other(writers: Writers) -> None:
    """The point of the chains: a unit of one writer held open does not hold up another
    writer's unit, nor one on the room chain."""
    room, a, b, _ = writers
    inside, release = threading.Event(), threading.Event()

    def held() -> None:
        with a.unit() as conn:
            audit.append(conn, "cashier", "cashier.note", {"n": 1})
            audit.last_seq(conn)  # the lock and the head read answered: held now
            inside.set()
            release.wait(30)
    thread = threading.Thread(target=held)
    other = Storage(b.engine, b.audit_key, chain=b.chain)  # another process's lock
    room_side = Storage(room.engine, room.audit_key)
    thread.start()
    try:
        assert inside.wait(30)
        done = threading.Event()

        def others() -> None:
            buy(other, "while-held", 0)
            buy(room_side, "while-held", 1)
            done.set()
        threading.Thread(target=others, daemon=True).start()
        assert done.wait(20), "a unit of another chain waited for writer chain 1's lock"
    finally:
        release.set()
        thread.join(30)
    assert problems(room) == ""


def _migrate(storage: Storage, to: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with storage.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        if to == "head":
            command.upgrade(cfg, to)
        else:
            command.downgrade(cfg, to)


def _room_chain(storage: Storage) -> list[tuple[object, ...]]:
    columns = ("seq", "at", "actor", "action", "detail", "prev_hash", "hash", "mac")
    with storage.read() as conn:
        return [tuple(r) for r in conn.execute(text(
            f"SELECT {', '.join(columns)} FROM audit_log ORDER BY seq"))]


def test_migration_0029_keeps_the_room_chain_as_it_was_both_ways(db_url: str,
                                                                tmp_path: Path) -> None:
    """Books of one chain go down to 0028 and up again with every entry, hash and MAC as it
    was, and verify; the chain column and its key come and go with the revision."""
    room = open_keyed(db_url, tmp_path / "audit.key")
    for i in range(BUYS):
        buy(room, "room", i)
    before = _room_chain(room)
    _migrate(room, "0028")
    with room.read() as conn:
        assert "chain" not in {c["name"] for c in inspect(conn).get_columns("audit_log")}
        assert inspect(conn).get_pk_constraint("audit_log")["constrained_columns"] == ["seq"]
    assert _room_chain(room) == before
    _migrate(room, "head")
    with room.read() as conn:
        assert inspect(conn).get_pk_constraint("audit_log")["constrained_columns"] == [
            "chain", "seq"]
    assert _room_chain(room) == before
    assert problems(room) == ""
    room.engine.dispose()


def test_books_with_writer_chains_are_not_taken_back_before_0029(writers: Writers) -> None:
    """Their sequence numbers repeat the room chain's: going back would lose them."""
    room, *_ = writers
    with pytest.raises(RuntimeError, match="writer chains"):
        _migrate(room, "0028")
    assert problems(room) == ""


def test_anchor_files_pin_the_room_chain_beside_writer_chains(writers: Writers,
                                                             tmp_path: Path) -> None:
    """An anchor file names an entry of the room chain, whose number the writer chains
    repeat; the check holds it to the room chain's entry, and a writer chain through it."""
    room, *_ = writers
    assert room.audit_key is not None
    with room.read() as conn:  # an entry whose number every chain holds
        fifth = next(e for e in audit.entries(conn) if e.seq == 5)
    write_anchor(tmp_path / "anchors", room.audit_key, audit.Checkpoint(5, fifth.hash))
    with room.snapshot() as conn:
        assert check_anchors(conn, tmp_path / "anchors", room.audit_key) == (1, [])
    tamper(room, _entry_changed)
    with room.snapshot() as conn:
        assert check_anchors(conn, tmp_path / "anchors", room.audit_key) == (1, [])
    assert "entry 3 of writer chain 1 was altered" in problems(room)
