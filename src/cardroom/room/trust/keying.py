"""The audit key bound to the books: which key may write them, and how that ever changes.

Books that hold entries are never given a key implicitly: a command that finds no key file
makes one only for empty books (`open_keyed`), and a room written before it had a key is
adopted only by the operator's `cardroom audit seal --new-key` (`adopt`). Once keyed, the books
stay keyed: the key's fingerprint (`audit.key_id`) is recorded in the head row and in the
chain (`audit.KEY_ACTIONS`), a command holding another key is refused, and entries without a
MAC are tampering, never history to seal. A command that writes first checks the whole books
(`integrity.check`) and refuses to start on books that fail it unless the operator accepts
that explicitly, which is itself recorded in the chain. The key changes only by `rekey`: with
the old key the books are verified first; without it the chain records that the past cannot
be vouched for (issue 26, "The audit key can be replaced by anyone who can write the
database").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.room.storage import audit
from cardroom.room.storage.audit_key import AuditKeyError, key_path, load_key, load_or_create_key
from cardroom.room.storage.db import Storage, open_database
from cardroom.room.storage.schema import audit_log
from cardroom.room.trust import integrity

KEYED_ACTION = "audit.keyed"
"""Books first keyed (new books, or keyed ones whose key was not yet recorded): names the key."""
REKEYED_ACTION = "audit.rekeyed"
ACCEPTED_ACTION = "audit.failed_accepted"
"""The operator started the room on books that failed the check (`--accept-failed-audit`)."""
PROBLEMS_KEPT = 20
"""How many of the problems an accepted failure records in the chain (with their count)."""


class AuditFailed(CardroomError):
    """The books fail the audit check: a command that writes refuses to start on them."""

    exit_status = 1


def _entry_count(conn: Connection) -> int:
    audit.flush(conn)
    return int(conn.execute(select(func.count()).select_from(audit_log)).scalar_one())


def _no_key(conn: Connection, path: Path) -> AuditKeyError:
    return AuditKeyError(
        f"no audit key file at {path}, and these books already hold {_entry_count(conn)} "
        "audit entries: a key is made only for new, empty books. Give the room's key file "
        "(--audit-key-file or $CARDROOM_AUDIT_KEY_FILE); a room written before it had a key "
        "is adopted with cardroom audit seal --new-key, and a lost key is replaced with "
        "cardroom audit rekey --without-old-key")


def _bind(conn: Connection, key: bytes, path: Path) -> None:
    """Refuse a key that is not the books' own (by the recorded fingerprint, or by the head's
    MAC in books keyed before fingerprints were recorded): it would start a chain nobody can
    verify. With the fingerprint recorded and matching, a head whose MAC fails is tampering,
    for the check (`_guard`) to find. Empty books are keyed here, by their first entry."""
    recorded, given = audit.recorded_key(conn), audit.key_id(key)
    if recorded != given if recorded is not None else audit.head_keyed_otherwise(conn, key):
        raise AuditKeyError(
            f"the audit key in {path} (fingerprint {audit.short(given)}) is not the key this "
            f"room's audit chain is signed with (fingerprint {audit.short(recorded)}): a wrong "
            "key file, or tampered books (run cardroom audit verify); the room's key changes "
            "only by cardroom audit rekey")
    if audit.is_empty(conn):
        _record(conn, key)


def _record(conn: Connection, key: bytes) -> None:
    audit.append(conn, "house", KEYED_ACTION, {"key": audit.key_id(key)})
    audit.record_key(conn, key)


def _check(storage: Storage, key: bytes | None) -> integrity.Report:
    with storage.snapshot() as conn:
        return integrity.check(conn, key)


def _guard(storage: Storage, key: bytes, accept_failed_audit: bool, actor: str) -> None:
    """The whole check before anything is written: books that fail it are refused, unless the
    operator accepts them, which the chain records with the problems found. Books keyed
    before fingerprints were recorded get theirs once they verify under the key."""
    report = _check(storage, key)
    if not report.ok and not accept_failed_audit:
        more = len(report.problems) - 1
        raise AuditFailed(
            f"the books fail the audit check: {report.problems[0]}"
            + (f" (and {more} more problems; cardroom audit verify lists them)" if more else "")
            + ". The room does not start or write on books that fail it; find out what "
            "happened, or add --accept-failed-audit to go on anyway (recorded in the audit "
            "log)")
    with storage.unit() as conn:
        if not report.ok:
            audit.append(conn, actor[:40], ACCEPTED_ACTION, {
                "count": len(report.problems),
                "problems": [p[:300] for p in report.problems[:PROBLEMS_KEPT]]})
        elif audit.recorded_key(conn) is None:
            _record(conn, key)


@contextmanager
def _undone(path: Path, created: bool) -> Iterator[None]:
    """A key file made for books that are then refused is removed again: a mistake leaves no
    stray key behind."""
    try:
        yield
    except BaseException:
        if created:
            path.unlink(missing_ok=True)
        raise


def open_keyed(database: str | None, key_file: Path | None = None, *, create: bool = True,
               accept_failed_audit: bool = False, actor: str = "operator") -> Storage:
    """The room's storage for writing, with its audit key (`audit_key.key_path`; made if
    absent only for empty books, and only if `create`), bound to the books and checked before
    anything is written (`_bind`, `_guard`)."""
    path = key_path(key_file)
    key, created = load_or_create_key(path) if create else (load_key(path), False)
    storage = open_database(database, key)
    try:
        with _undone(path, created):
            with storage.unit() as conn:
                if created and not audit.is_empty(conn):
                    raise _no_key(conn, path)
                _bind(conn, key, path)
            _guard(storage, key, accept_failed_audit, actor)
    except BaseException:
        storage.engine.dispose()
        raise
    return storage


def adopt(database: str | None, key_file: Path | None, new_key: bool) -> dict[str, Any] | None:
    """`cardroom audit seal`: key empty books, or seal books written before the room had a key
    (`integrity.seal`) with the key file, or with a key made now when `new_key` says so. Books
    that were ever keyed are refused: entries without a MAC there are tampering. Returns the
    seal's detail, or None when there was nothing to seal."""
    path = key_path(key_file)
    if new_key and path.exists():
        raise AuditKeyError(f"--new-key: there is already an audit key file at {path}; seal "
                            "with it (without --new-key) or name another file")
    key, created = load_or_create_key(path)
    storage = open_database(database, key)
    try:
        with _undone(path, created), storage.unit() as conn:
            if created and not new_key and not audit.is_empty(conn):
                raise _no_key(conn, path)
            _bind(conn, key, path)
            if not integrity.needs_seal(conn):
                return None
            if audit.keyed_trace(conn):
                raise audit.ChainBroken(
                    "these books have been keyed, so entries without a MAC were written "
                    "without the key or had their MACs removed: that is tampering, not history "
                    "to seal (run cardroom audit verify)")
            return integrity.seal(conn, key)
    finally:
        storage.engine.dispose()


@dataclass(frozen=True)
class Rekeyed:
    entry: int
    """The `audit.rekeyed` entry."""
    through: int
    """The last entry written under the old key."""
    vouched: bool
    """Whether the old key verified the books first."""
    key: str
    """The new key's fingerprint."""


def rekey(database: str | None, key_file: Path | None, old_key_file: Path | None) -> Rekeyed:
    """`cardroom audit rekey`: move the books to the key at `key_file` (made if absent). With
    `old_key_file` the whole books must verify under the old key first (else `ChainBroken`);
    without it only what needs no key is checked (the hashes, the ledger against the chain,
    the books), and the `audit.rekeyed` entry says the past is not vouched for. Every entry
    and the head are then MACed under the new key, and its fingerprint recorded."""
    path = key_path(key_file)
    if old_key_file is not None and old_key_file.resolve() == path.resolve():
        raise AuditKeyError(f"the old and the new audit key are the same file ({path})")
    old = None if old_key_file is None else load_key(old_key_file)
    key, created = load_or_create_key(path)
    storage = open_database(database, key)
    try:
        with _undone(path, created), storage.unit() as conn:
            recorded, new = audit.recorded_key(conn), audit.key_id(key)
            if audit.is_empty(conn):
                raise AuditKeyError("these books hold no audit entry yet: there is nothing to "
                                    "re-key (the first command that writes keys them)")
            if new == recorded or (old is not None and audit.key_id(old) == new):
                raise AuditKeyError(f"the audit key in {path} is already this room's key: "
                                    "give the new key's file with --audit-key-file")
            if old is not None and recorded not in (None, audit.key_id(old)):
                raise AuditKeyError(f"the old key in {old_key_file} is not the key these books "
                                    f"record (fingerprint {audit.short(recorded)})")
            report = integrity.check(conn, old)
            if not report.ok:
                raise audit.ChainBroken("the books do not verify" + (
                    " under the old key" if old is not None else "")
                    + "; they are not re-keyed: " + "; ".join(report.problems))
            through = report.reached.chain.seq
            entry = audit.append_entry(conn, "operator", REKEYED_ACTION, {
                "key": new, "replaced": recorded if old is None else audit.key_id(old),
                "vouched": old is not None, "through": through})
            audit.mac_entries(conn, key, every=True)
            audit.record_key(conn, key)
    finally:
        storage.engine.dispose()
    return Rekeyed(entry.seq, through, old is not None, new)


def unvouched(conn: Connection) -> list[audit.AuditEntry]:
    """The re-keyings made without the old key: what `audit verify` reminds of every time."""
    return [e for e in _rekeyings(conn) if e.data.get("vouched") is False]


def former_keys(conn: Connection) -> set[str]:
    """The fingerprints of keys the chain records as replaced (anchors signed with them can
    no longer be authenticated, but still pin the log)."""
    return {str(e.data["replaced"]) for e in _rekeyings(conn)
            if isinstance(e.data.get("replaced"), str)}


def _rekeyings(conn: Connection) -> list[audit.AuditEntry]:
    """The chain's re-keying records, newest first."""
    return audit.find(conn, audit.Filter(kind=REKEYED_ACTION), limit=1_000).entries
