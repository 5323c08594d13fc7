"""An append-only audit log, hash-chained and keyed.

Each entry's hash covers its content and the hash before it, and a head row records the last
entry, so a changed, inserted, reordered or deleted entry (even the last one) breaks `verify`.
A plain hash chain can be recomputed by anyone who can write the database, so when the room
holds the audit key (`cardroom.room.storage.audit_key`, kept outside the database) every entry and
the
head also carry an HMAC-SHA256 under that key: a rewritten entry, a recomputed chain or a head
moved back to an earlier entry then fails the MAC check. The head's MAC is distinct from the
entries' MACs and lives only in the head row, so the head cannot be rolled back to an earlier
entry without a copy of the database taken then; anchors written outside the database
(`cardroom.room.trust.anchors`) close that gap.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import TextClause, bindparam, insert, or_, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from cardroom.errors import CardroomError
from cardroom.room.storage.pipeline import DEFERRED
from cardroom.room.storage.schema import audit_head, audit_log
from cardroom.room.storage.settings import GamblingClock

GENESIS = "0" * 64


class ChainBroken(CardroomError):
    """Refused: a broken chain (or books that disagree with it) cannot be sealed."""


_ENTRY_DOMAIN = b"cardroom audit entry\x00"
_HEAD_DOMAIN = b"cardroom audit head\x00"
_KEY_ID_DOMAIN = b"cardroom audit key id\x00"
KEY_ACTIONS = ("audit.keyed", "audit.sealed", "audit.rekeyed")
"""The chain's key records: each names (`"key"`) the fingerprint of the key from then on."""


def canonical(detail: dict[str, Any]) -> str:
    return json.dumps(detail, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def entry_hash(seq: int, at: str, actor: str, action: str, detail: str, prev: str) -> str:
    body = json.dumps([seq, at, actor, action, detail, prev], separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def mac(key: bytes, domain: bytes, message: str) -> str:
    return hmac.new(key, domain + message.encode(), hashlib.sha256).hexdigest()


def key_id(key: bytes) -> str:
    """The key's fingerprint, kept in the books and in anchors: names the key, reveals
    nothing of it."""
    return mac(key, _KEY_ID_DOMAIN, "")


def short(fingerprint: str | None) -> str:
    """A fingerprint as a person compares it: its first 12 hex digits."""
    return "none" if fingerprint is None else fingerprint[:12]


def entry_mac(key: bytes, digest: str) -> str:
    """The entry's hash covers the whole chain before it, so its MAC vouches for all of it."""
    return mac(key, _ENTRY_DOMAIN, digest)


def head_mac(key: bytes, seq: int, digest: str) -> str:
    return mac(key, _HEAD_DOMAIN, f"{seq}:{digest}")


@dataclass(frozen=True)
class AuditEntry:
    seq: int
    at: str
    actor: str
    action: str
    detail: str
    prev_hash: str
    hash: str
    mac: str | None = None

    @property
    def data(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.detail)
        return value


_KEYS: weakref.WeakKeyDictionary[Engine, bytes] = weakref.WeakKeyDictionary()
"""The audit key each engine's appends are MACed with (set by `use_key`; none: no MACs)."""
_SELECT_HEAD = select(audit_head.c.seq, audit_head.c.hash).where(audit_head.c.id == 1)
_MOVE_HEAD = (update(audit_head)
              .where(audit_head.c.id == 1, audit_head.c.seq == bindparam("old_seq"),
                     audit_head.c.hash == bindparam("old_hash"))
              .values(seq=bindparam("new_seq"), hash=bindparam("new_hash"),
                      mac=bindparam("new_mac")))
_FIRST_HEAD = insert(audit_head).values(id=1, seq=bindparam("new_seq"),
                                        hash=bindparam("new_hash"), mac=bindparam("new_mac"))
_INSERT_ENTRY = insert(audit_log)

def _head_tag(key: bytes | None, seq: int, digest: str) -> str | None:
    return None if key is None else head_mac(key, seq, digest)


def use_key(engine: Engine, key: bytes) -> None:
    """MAC every entry this engine appends with `key` (an engine without one appends a plain
    hash chain)."""
    _KEYS[engine] = key


def _stamp(at: datetime) -> str:
    """A moment as the log stores it: UTC ISO text to the microsecond (sorts as text)."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")


Head = tuple[int, str] | None
"""The chain's head as (seq, hash); None: the log is empty (no head row yet)."""


@dataclass
class _Unit:
    """One write transaction's appends, kept until it is about to commit (`flush`): the head
    it found (`base`, read once under the writer lock), the head its appends moved it to, and
    the entries to write. Entries are hashed and MACed as they are appended, so each is its
    own link of the chain; only the writing is batched (one multi-row insert and one move of
    the head per transaction, instead of two statements per entry)."""
    read: bool = False
    lazy: LazyHead | None = None
    """The head's read, sent but not yet answered (PostgreSQL's writer lock)."""
    base: Head = None
    head: Head = None
    head_tag: str | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)


_UNIT = "cardroom.audit.unit"


LazyHead = Callable[[], Head]
"""The head as a statement already sent reads it, answered when called."""


def begin_unit(conn: Connection, head: LazyHead | None = None) -> None:
    """Batch this transaction's appends until `flush` (`Storage.unit` calls both). `head`: the
    head as the writer lock's statement reads it, asked for at the first append (a tuple, or
    None for an empty log); none: the first append reads it."""
    conn.info[_UNIT] = _Unit(lazy=head)


def end_unit(conn: Connection) -> None:
    """Forget the transaction's batch (written, or rolled back with it)."""
    conn.info.pop(_UNIT, None)


def _read_head(conn: Connection, unit: _Unit) -> Head:
    if not unit.read:
        if unit.lazy is not None:
            unit.base = unit.head = unit.lazy()
        else:
            row = conn.execute(_SELECT_HEAD.with_for_update()).first()
            unit.base = unit.head = None if row is None else (int(row.seq), str(row.hash))
        unit.read = True
    return unit.head


def append(conn: Connection, actor: str, action: str, detail: dict[str, Any]) -> AuditEntry:
    """Append one entry. Call inside `Storage.unit()` so that appends are serialised: there
    the entry is written with the unit's others just before it commits (`flush`); on any other
    connection at once."""
    at = _stamp(datetime.now(UTC))
    body = canonical(detail)
    actor, action = actor[:40], action[:60]
    key = _KEYS.get(conn.engine)
    held = conn.info.get(_UNIT)
    unit = held if isinstance(held, _Unit) else _Unit()
    head = _read_head(conn, unit)
    seq, prev = (1, GENESIS) if head is None else (head[0] + 1, head[1])
    digest = entry_hash(seq, at, actor, action, body, prev)
    tag = None if key is None else entry_mac(key, digest)
    unit.pending.append({"seq": seq, "at": at, "actor": actor, "action": action,
                         "detail": body, "prev_hash": prev, "hash": digest, "mac": tag})
    unit.head, unit.head_tag = (seq, digest), _head_tag(key, seq, digest)
    if unit is not held:
        _write(conn, unit)
    return AuditEntry(seq, at, actor, action, body, prev, digest, tag)


def flush(conn: Connection) -> None:
    """Write the entries this transaction appended and move the head to the last of them.
    `Storage.unit` calls it before committing; a reader of the log inside a unit calls it
    first, so it sees the unit's own entries."""
    unit = conn.info.get(_UNIT)
    if isinstance(unit, _Unit) and unit.pending:
        _write(conn, unit)


def _write(conn: Connection, unit: _Unit) -> None:
    assert unit.head is not None
    new = {"new_seq": unit.head[0], "new_hash": unit.head[1], "new_mac": unit.head_tag}
    if unit.base is None:
        conn.execute(_FIRST_HEAD, new)
        conn.execute(_INSERT_ENTRY, unit.pending)
    elif conn.dialect.name == "postgresql":
        params = {"old_seq": unit.base[0], "old_hash": unit.base[1], "moved": HEAD_MOVED,
                  **new}
        for i, row in enumerate(unit.pending):
            params.update({f"{name}{i}": value for name, value in row.items()})
        try:
            conn.execute(_move_and_insert(len(unit.pending)), params)
        except DBAPIError as exc:
            if HEAD_MOVED in str(exc.orig):
                raise ChainBroken(HEAD_MOVED) from exc
            raise
    elif conn.execute(_MOVE_HEAD, {"old_seq": unit.base[0], "old_hash": unit.base[1],
                                   **new}).rowcount != 1:
        raise ChainBroken(HEAD_MOVED)
    else:
        conn.execute(_INSERT_ENTRY, unit.pending)
    unit.pending, unit.base = [], unit.head


HEAD_MOVED = "the audit head moved during this transaction: nothing was written"
_COLUMNS = ("seq", "at", "actor", "action", "detail", "prev_hash", "hash", "mac")


@functools.cache
def _move_and_insert(rows: int) -> TextClause:
    """PostgreSQL: the head moved (only if it is still where the unit found it) and the
    unit's `rows` entries inserted by one statement. A head found elsewhere fails the
    statement itself (its `HEAD_MOVED` text cast to a boolean), so that nothing waits for its
    row count: in a unit it is `deferred`, sent with the COMMIT, which it then fails."""
    values = ", ".join(f"(CAST(:seq{i} AS BIGINT), "
                       + ", ".join(f":{c}{i}" for c in _COLUMNS[1:]) + ")"
                       for i in range(rows))
    return text(
        "WITH moved AS (UPDATE audit_head SET seq = :new_seq, hash = :new_hash, "
        "mac = :new_mac WHERE id = 1 AND seq = :old_seq AND hash = :old_hash RETURNING id) "
        f"INSERT INTO audit_log ({', '.join(_COLUMNS)}) "
        f"SELECT v.* FROM (VALUES {values}) AS v ({', '.join(_COLUMNS)}) "
        "WHERE CAST((SELECT CASE WHEN count(*) = 1 THEN 'true' ELSE CAST(:moved AS TEXT) END "
        "FROM moved) AS BOOLEAN)").execution_options(**{DEFERRED: True})


def last_seq(conn: Connection) -> int:
    """The newest entry's sequence number, this transaction's appends included (0: an empty
    log)."""
    unit = conn.info.get(_UNIT)
    if isinstance(unit, _Unit) and (unit.read or unit.lazy is not None):
        head = _read_head(conn, unit)
        return 0 if head is None else head[0]
    row = conn.execute(_SELECT_HEAD).first()
    return 0 if row is None else int(row.seq)


def _entry(r: Any) -> AuditEntry:
    return AuditEntry(r.seq, r.at, r.actor, r.action, r.detail, r.prev_hash, r.hash, r.mac)


def entries(conn: Connection, after: int = 0, limit: int | None = None,
            newest_first: bool = False) -> Iterator[AuditEntry]:
    flush(conn)
    q = select(audit_log).where(audit_log.c.seq > after)
    q = q.order_by(audit_log.c.seq.desc() if newest_first else audit_log.c.seq)
    if limit is not None:
        q = q.limit(limit)
    for r in conn.execute(q):
        yield _entry(r)


@dataclass(frozen=True)
class Filter:
    """What an auditor looks for: each given field narrows the entries (all must match)."""
    actor: str | None = None
    kind: str | None = None
    """An action (`hand.settled`) or a family of them ending in a dot (`hand.`)."""
    table: int | None = None
    since: date | None = None
    until: date | None = None
    """Dates are gambling days of the room's clock (`settings.GamblingClock`); inclusive."""


def find(conn: Connection, f: Filter, before: int | None = None, limit: int = 100
         ) -> list[AuditEntry]:
    """The newest `limit` entries matching `f` with seq below `before` (a page of the log)."""
    flush(conn)
    q = select(audit_log).order_by(audit_log.c.seq.desc()).limit(limit)
    if before is not None:
        q = q.where(audit_log.c.seq < before)
    if f.actor:
        q = q.where(audit_log.c.actor == f.actor)
    if f.kind:
        q = q.where(audit_log.c.action.startswith(f.kind, autoescape=True)
                    if f.kind.endswith(".") else audit_log.c.action == f.kind)
    if f.table is not None:  # details are canonical JSON: sorted keys, no spaces
        q = q.where(or_(audit_log.c.detail.contains(f'"table":{f.table},', autoescape=True),
                        audit_log.c.detail.contains(f'"table":{f.table}}}', autoescape=True)))
    clock = GamblingClock.from_env()  # entries' times are UTC ISO text, compared as text
    if f.since is not None:
        q = q.where(audit_log.c.at >= _stamp(clock.bounds(f.since)[0]))
    if f.until is not None:
        q = q.where(audit_log.c.at < _stamp(clock.bounds(f.until)[1]))
    return [_entry(r) for r in conn.execute(q)]


@dataclass(frozen=True)
class Checkpoint:
    """The last entry a verification found sound: the next one can start after it."""
    seq: int
    hash: str


START = Checkpoint(0, GENESIS)


Reached = TypeVar("Reached")


@dataclass(frozen=True)
class Verification(Generic[Reached]):
    """What a verification found: the chain's (`verify`, reaching a `Checkpoint`), or the
    whole books' (`cardroom.room.trust.integrity.Report`, reaching its own checkpoint)."""

    entries: int
    """How many entries this verification read (all of them, unless it started later)."""
    problems: tuple[str, ...]
    keyed: bool
    """Whether the MACs were checked (a key was given)."""
    reached: Reached
    """Where a later, incremental verification may start (the head, when all is sound)."""

    @property
    def ok(self) -> bool:
        return not self.problems


Observer = Callable[[AuditEntry], None]


def verify(conn: Connection, key: bytes | None = None, since: Checkpoint = START,
           observe: Observer | None = None) -> Verification[Checkpoint]:
    """Check the chain from `since` (an earlier sound checkpoint) to the head, and with a key
    every MAC; `observe` sees each entry (the books are checked against the chain that way).

    Run it inside one read snapshot (`Storage.snapshot()`): the entries and the head must be
    read as of one moment, or a write in between looks like tampering."""
    flush(conn)
    problems: list[str] = []
    if since.seq:
        held = conn.execute(select(audit_log.c.hash)
                            .where(audit_log.c.seq == since.seq)).scalar_one_or_none()
        if held != since.hash:
            problems.append(f"entry {since.seq}, found sound earlier, has been changed or "
                            "deleted")
    prev, expected, count = since.hash, since.seq + 1, 0
    unkeyed: list[int] = []
    forged: list[int] = []
    for e in entries(conn, after=since.seq):
        count += 1
        if e.seq != expected:
            problems.append(f"entry {expected} is missing (next is {e.seq})")
        if e.prev_hash != prev:
            problems.append(f"entry {e.seq} does not link to the entry before it")
        if entry_hash(e.seq, e.at, e.actor, e.action, e.detail, e.prev_hash) != e.hash:
            problems.append(f"entry {e.seq} was altered: its hash does not match its content")
        elif key is not None:
            if e.mac is None:
                unkeyed.append(e.seq)
            elif not hmac.compare_digest(e.mac, entry_mac(key, e.hash)):
                forged.append(e.seq)
        if observe is not None:
            observe(e)
        prev, expected = e.hash, e.seq + 1
    if forged:
        problems.append(f"{_span(forged)} forged or rewritten: the MAC does not match the "
                        "audit key")
    if unkeyed:
        problems.append(f"{_span(unkeyed)} without a MAC: written without the audit key, or the "
                        "MACs removed")
    problems.extend(_head_problems(conn, key, expected - 1, prev))
    reached = Checkpoint(expected - 1, prev) if not problems else since
    return Verification(count, tuple(problems), key is not None, reached)


def _span(seqs: list[int]) -> str:
    if len(seqs) == 1:
        return f"entry {seqs[0]} is"
    return f"{len(seqs)} entries (first {seqs[0]}, last {seqs[-1]}) are"


def _head_problems(conn: Connection, key: bytes | None, last: int, last_hash: str
                   ) -> list[str]:
    head = conn.execute(select(audit_head.c.seq, audit_head.c.hash, audit_head.c.mac)
                        .where(audit_head.c.id == 1)).first()
    if head is None:
        return ["the head record is missing"] if last else []
    if head.seq != last or head.hash != last_hash:
        return [f"the log ends at entry {last} but the head records entry {head.seq}: "
                "entries were deleted or the head was altered"]
    if key is None:
        return []
    if head.mac is None or not hmac.compare_digest(
            head.mac, head_mac(key, int(head.seq), str(head.hash))):
        return [f"the head record (entry {head.seq}) does not carry the audit key's MAC: "
                "the log was cut back or rewritten and the head moved, or its MAC removed"]
    return _key_record_problems(conn, key)


def _key_record_problems(conn: Connection, key: bytes) -> list[str]:
    """The fingerprint the head records must be the key's, and the chain's last key record."""
    recorded, given = recorded_key(conn), key_id(key)
    if recorded is not None and recorded != given:
        return [f"the books record audit key {short(recorded)} but the key given is "
                f"{short(given)}: a wrong key file, or the record was altered"]
    chained = chained_key(conn)
    if chained is not None and chained[1] != recorded:
        return [f"the head records audit key {short(recorded)} but the chain's last key "
                f"record (entry {chained[0]}) names {short(chained[1])}: the record was "
                "altered in the database"]
    return []


def is_empty(conn: Connection) -> bool:
    """Whether the log holds nothing at all: no head and no entry (new books)."""
    flush(conn)
    return conn.execute(_SELECT_HEAD).first() is None and conn.execute(
        select(audit_log.c.seq).limit(1)).first() is None


def head_keyed_otherwise(conn: Connection, key: bytes) -> bool:
    """Whether the head carries a MAC made with another key: appending under `key` would then
    extend a chain nobody can verify (a wrong key file, or a head tampered with)."""
    flush(conn)
    row = conn.execute(select(audit_head.c.seq, audit_head.c.hash, audit_head.c.mac)
                       .where(audit_head.c.id == 1)).first()
    return row is not None and row.mac is not None and not hmac.compare_digest(
        row.mac, head_mac(key, int(row.seq), str(row.hash)))


def recorded_key(conn: Connection) -> str | None:
    """The fingerprint of the key the head row says the chain is MACed with (None: none
    recorded, as in books keyed before fingerprints were kept)."""
    flush(conn)
    found = conn.execute(select(audit_head.c.key_id).where(audit_head.c.id == 1)
                         ).scalar_one_or_none()
    return None if found is None else str(found)


def record_key(conn: Connection, key: bytes) -> None:
    """Record `key`'s fingerprint in the head row (the chain records it too: `KEY_ACTIONS`)."""
    flush(conn)
    conn.execute(update(audit_head).where(audit_head.c.id == 1).values(key_id=key_id(key)))


def chained_key(conn: Connection) -> tuple[int, str] | None:
    """The last key record in the chain (entry seq, fingerprint), if any names one."""
    flush(conn)
    row = conn.execute(select(audit_log.c.seq, audit_log.c.detail)
                       .where(audit_log.c.action.in_(KEY_ACTIONS))
                       .order_by(audit_log.c.seq.desc()).limit(1)).first()
    if row is None:
        return None
    try:
        named = json.loads(row.detail).get("key")
    except (ValueError, AttributeError):
        named = None
    return (int(row.seq), named) if isinstance(named, str) else None


def keyed_trace(conn: Connection) -> bool:
    """Whether anything says these books were ever keyed: a recorded fingerprint, a MAC on the
    head or any entry, or a key record in the chain. Entries without a MAC in such books are
    tampering, never history to seal."""
    flush(conn)
    head = conn.execute(select(audit_head.c.mac, audit_head.c.key_id)
                        .where(audit_head.c.id == 1)).first()
    if head is not None and (head.mac is not None or head.key_id is not None):
        return True
    return conn.execute(select(audit_log.c.seq).where(or_(
        audit_log.c.mac.is_not(None), audit_log.c.action.in_(KEY_ACTIONS))).limit(1)
        ).first() is not None


def mac_entries(conn: Connection, key: bytes, every: bool = False) -> int:
    """MAC every entry that has no MAC (or, with `every`, every entry), and the head: how a
    chain written before the room had its key is adopted (`cardroom.room.trust.keying.seal`), or
    moved to a new key (`keying.rekey`), after checking it. Returns how many entries it
    MACed."""
    flush(conn)
    q = select(audit_log.c.seq, audit_log.c.hash)
    rows = conn.execute(q if every else q.where(audit_log.c.mac.is_(None))).all()
    if rows:
        conn.execute(update(audit_log).where(audit_log.c.seq == bindparam("s"))
                     .values(mac=bindparam("m")),
                     [{"s": r.seq, "m": entry_mac(key, r.hash)} for r in rows])
    row = conn.execute(_SELECT_HEAD).first()
    if row is not None:
        conn.execute(update(audit_head).where(audit_head.c.id == 1)
                     .values(mac=head_mac(key, int(row.seq), str(row.hash))))
    return len(rows)
