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

The log holds several chains (issue 25): chain 0, the room chain, and a chain per writer
process of a room served by several (`serve --workers`, `--advertise`), so that two processes
never wait for each other's writer lock. A writer chain starts from a genesis of its own
(`chain_genesis`: its id is bound into every hash of it), its head is its own row with a MAC
that names the chain, its opening is recorded on the room chain (`open_chain`: a chain deleted
whole is missed there) and its head is anchored there from time to time (`anchor`: a writer
chain cut back behind an anchor is caught by the room chain). `verify` checks every chain, and
a room served by one process writes only chain 0, exactly as before.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import heapq
import hmac
import itertools
import json
import weakref
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import (
    ColumnElement,
    Select,
    TextClause,
    and_,
    bindparam,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from cardroom.errors import CardroomError
from cardroom.room.storage.pipeline import DEFERRED, on_driver
from cardroom.room.storage.schema import audit_head, audit_log
from cardroom.room.storage.settings import GamblingClock

GENESIS = "0" * 64
ROOM_CHAIN = 0
CHAIN_OPENED = "audit.chain"
"""On the room chain and as a writer chain's first entry: `{"chain": id, "writer": name}`."""
CHAIN_ANCHORED = "audit.anchor"
"""On the room chain: `{"chain": id, "seq": n, "hash": h}`, a writer chain's head then."""


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


def head_mac(key: bytes, seq: int, digest: str, chain: int = ROOM_CHAIN) -> str:
    """A writer chain's head MAC names the chain (a head row copied onto another chain's
    fails); the room chain's is as it always was."""
    return mac(key, _HEAD_DOMAIN, f"{seq}:{digest}" if chain == ROOM_CHAIN
               else f"{chain}:{seq}:{digest}")


def chain_genesis(chain: int) -> str:
    """The `prev_hash` of a chain's first entry: the room chain's is `GENESIS`, as before
    chains; a writer chain's is derived from its id, so that every hash of it depends on
    which chain it is (entries moved to another chain do not link there)."""
    if chain == ROOM_CHAIN:
        return GENESIS
    return hashlib.sha256(f"cardroom audit chain\x00{chain}".encode()).hexdigest()


def head_id(chain: int) -> int:
    """The chain's row in `audit_head` (the room chain's is 1, as before chains)."""
    return chain + 1


def label(chain: int, seq: int) -> str:
    """An entry as a problem names it: `entry 7`, or `entry 7 of writer chain 2`."""
    return f"entry {seq}" if chain == ROOM_CHAIN else f"entry {seq} of writer chain {chain}"


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
    chain: int = ROOM_CHAIN

    @property
    def data(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.detail)
        return value


_KEYS: weakref.WeakKeyDictionary[Engine, bytes] = weakref.WeakKeyDictionary()
"""The audit key each engine's appends are MACed with (set by `use_key`; none: no MACs)."""
_COLUMNS = ("seq", "at", "actor", "action", "detail", "prev_hash", "hash", "mac", "chain")
_SELECT_HEAD = select(audit_head.c.seq, audit_head.c.hash).where(
    audit_head.c.id == bindparam("head", head_id(ROOM_CHAIN)))
_MOVE_HEAD = (update(audit_head)
              .where(audit_head.c.id == bindparam("head"),
                     audit_head.c.seq == bindparam("old_seq"),
                     audit_head.c.hash == bindparam("old_hash"))
              .values(seq=bindparam("new_seq"), hash=bindparam("new_hash"),
                      mac=bindparam("new_mac")))
_FIRST_HEAD = insert(audit_head).values(id=bindparam("head"), seq=bindparam("new_seq"),
                                        hash=bindparam("new_hash"), mac=bindparam("new_mac"))
_INSERT_ENTRY = insert(audit_log).values({c: bindparam(c) for c in _COLUMNS})
_HEAD_LOCKED = _SELECT_HEAD.with_for_update()


def _head_tag(key: bytes | None, seq: int, digest: str, chain: int) -> str | None:
    return None if key is None else head_mac(key, seq, digest, chain)


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
    chain: int = ROOM_CHAIN
    read: bool = False
    lazy: LazyHead | None = None
    """The head's read, sent but not yet answered (PostgreSQL's writer lock)."""
    base: Head = None
    found: Head = None
    """The head as the database held it when the unit read it (`rewind` keeps it)."""
    head: Head = None
    head_tag: str | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)
    unlinked: list[tuple[str, str, str, str]] = field(default_factory=list)
    """Entries appended before the head's answer was read (at, actor, action, detail), in
    order: linked once something else needs it (`_link`), so that an action whose first
    append comes before its first read waits for no round trip of its own."""


_UNIT = "cardroom.audit.unit"
Mark = _Unit | None
"""A unit's batch as it was at one moment (`mark`), to go back to (`rewind`)."""


LazyHead = Callable[[], Head]
"""The head as a statement already sent reads it, answered when called."""


def begin_unit(conn: Connection, head: LazyHead | None = None, chain: int = ROOM_CHAIN
               ) -> None:
    """Batch this transaction's appends to `chain` until `flush` (`Storage.unit` calls both).
    `head`: the chain's head as the writer lock's statement reads it, asked for at the first
    append (a tuple, or None for an empty chain); none: the first append reads it."""
    conn.info[_UNIT] = _Unit(chain=chain, lazy=head)


def mark(conn: Connection) -> Mark:
    """The batch of the unit `conn` belongs to as it is now: a member of a group commit
    (`Storage.unit`) starts here, and `rewind` takes its appends back if it fails. The
    entries before it are linked first (the group's statements are answered by then: the
    head's read costs no round trip)."""
    unit = conn.info.get(_UNIT)
    if not isinstance(unit, _Unit):
        return None
    _link(conn, unit)
    return dataclasses.replace(unit, pending=list(unit.pending), unlinked=[])


def rewind(conn: Connection, marked: Mark) -> None:
    """Forget what the unit appended (and wrote, `flush`) since `marked`: its rows went with
    the rollback to the member's savepoint. A head first read since is kept as the database
    holds it (its statement is answered once), with no entry after it."""
    unit = conn.info.get(_UNIT)
    if not isinstance(unit, _Unit) or marked is None:
        return
    if marked.read or not unit.read:
        conn.info[_UNIT] = dataclasses.replace(marked, pending=list(marked.pending),
                                               unlinked=[])
        return
    conn.info[_UNIT] = _Unit(chain=marked.chain, read=True, lazy=marked.lazy,
                             base=unit.found, found=unit.found, head=unit.found)


def end_unit(conn: Connection) -> None:
    """Forget the transaction's batch (written, or rolled back with it)."""
    conn.info.pop(_UNIT, None)


def _read_head(conn: Connection, unit: _Unit) -> Head:
    if not unit.read:
        if unit.lazy is not None:
            unit.found = unit.lazy()
        else:
            row = on_driver(conn, _HEAD_LOCKED, {"head": head_id(unit.chain)}).fetchone()
            unit.found = None if row is None else (int(row[0]), str(row[1]))
        unit.base = unit.head = unit.found
        unit.read = True
    return unit.head


def append(conn: Connection, actor: str, action: str, detail: dict[str, Any],
           chain: int | None = None) -> None:
    """Append one entry. Call inside `Storage.unit()` so that appends are serialised: there
    the entry is written to the unit's chain with the unit's others just before it commits
    (`flush`), and linked to the chain once the head's answer is read (PostgreSQL: with the
    unit's first read, so an append never waits for it); on any other connection, or to
    another `chain` than the unit's, at once (`append_entry`)."""
    held = conn.info.get(_UNIT)
    if isinstance(held, _Unit) and chain in (None, held.chain) and not held.read \
            and held.lazy is not None:
        held.unlinked.append((_stamp(datetime.now(UTC)), actor[:40], action[:60],
                              canonical(detail)))
        return
    append_entry(conn, actor, action, detail, chain)


def append_entry(conn: Connection, actor: str, action: str, detail: dict[str, Any],
                 chain: int | None = None) -> AuditEntry:
    """`append`, the entry linked at once (the unit's head read if it was not) and given
    back, for a caller that needs its number."""
    held = conn.info.get(_UNIT)
    unit = held if isinstance(held, _Unit) and chain in (None, held.chain) else _Unit(
        chain=ROOM_CHAIN if chain is None else chain)
    _link(conn, unit)
    entry = _linked(conn, unit, _stamp(datetime.now(UTC)), actor[:40], action[:60],
                    canonical(detail))
    if unit is not held:
        _write(conn, unit)
    return entry


def _link(conn: Connection, unit: _Unit) -> None:
    """Link the unit's entries appended before its head was read, in their order."""
    waiting, unit.unlinked = unit.unlinked, []
    for at, actor, action, body in waiting:
        _linked(conn, unit, at, actor, action, body)


def _linked(conn: Connection, unit: _Unit, at: str, actor: str, action: str, body: str
            ) -> AuditEntry:
    """One entry linked after the unit's head (read if it was not), hashed and MACed, and
    added to the unit's batch."""
    key = _KEYS.get(conn.engine)
    head = _read_head(conn, unit)
    seq, prev = (1, chain_genesis(unit.chain)) if head is None else (head[0] + 1, head[1])
    digest = entry_hash(seq, at, actor, action, body, prev)
    tag = None if key is None else entry_mac(key, digest)
    unit.pending.append({"seq": seq, "at": at, "actor": actor, "action": action,
                         "detail": body, "prev_hash": prev, "hash": digest, "mac": tag,
                         "chain": unit.chain})
    unit.head, unit.head_tag = (seq, digest), _head_tag(key, seq, digest, unit.chain)
    return AuditEntry(seq, at, actor, action, body, prev, digest, tag, unit.chain)


def flush(conn: Connection) -> None:
    """Write the entries this transaction appended and move the head to the last of them.
    `Storage.unit` calls it before committing; a reader of the log inside a unit calls it
    first, so it sees the unit's own entries."""
    unit = conn.info.get(_UNIT)
    if isinstance(unit, _Unit):
        _link(conn, unit)
        if unit.pending:
            _write(conn, unit)


def _write(conn: Connection, unit: _Unit) -> None:
    assert unit.head is not None
    new = {"new_seq": unit.head[0], "new_hash": unit.head[1], "new_mac": unit.head_tag,
           "head": head_id(unit.chain)}
    if unit.base is None:
        conn.execute(_FIRST_HEAD, new)
        conn.execute(_INSERT_ENTRY, unit.pending)
    elif conn.dialect.name == "postgresql":
        params = {"old_seq": unit.base[0], "old_hash": unit.base[1], "moved": HEAD_MOVED,
                  **new}
        for i, row in enumerate(unit.pending):
            params.update({f"{name}{i}": value for name, value in row.items()})
        try:
            on_driver(conn, _move_and_insert(len(unit.pending)), params)
        except DBAPIError as exc:
            if HEAD_MOVED in str(exc.orig):
                raise ChainBroken(HEAD_MOVED) from exc
            raise
    elif on_driver(conn, _MOVE_HEAD, {"old_seq": unit.base[0], "old_hash": unit.base[1],
                                **new}).rowcount != 1:
        raise ChainBroken(HEAD_MOVED)
    else:
        on_driver(conn, _INSERT_ENTRY, unit.pending)
    unit.pending, unit.base = [], unit.head


HEAD_MOVED = "the audit head moved during this transaction: nothing was written"


@functools.cache
def _move_and_insert(rows: int) -> TextClause:
    """PostgreSQL: the head moved (only if it is still where the unit found it) and the
    unit's `rows` entries inserted by one statement. A head found elsewhere fails the
    statement itself (its `HEAD_MOVED` text cast to a boolean), so that nothing waits for its
    row count: in a unit it is `deferred`, sent with the COMMIT, which it then fails."""
    values = ", ".join(f"(CAST(:seq{i} AS BIGINT), "
                       + ", ".join(f":{c}{i}" for c in _COLUMNS[1:-1])
                       + f", CAST(:chain{i} AS BIGINT))"
                       for i in range(rows))
    return text(
        "WITH moved AS (UPDATE audit_head SET seq = :new_seq, hash = :new_hash, "
        "mac = :new_mac WHERE id = :head AND seq = :old_seq AND hash = :old_hash "
        "RETURNING id) "
        f"INSERT INTO audit_log ({', '.join(_COLUMNS)}) "
        f"SELECT v.* FROM (VALUES {values}) AS v ({', '.join(_COLUMNS)}) "
        "WHERE CAST((SELECT CASE WHEN count(*) = 1 THEN 'true' ELSE CAST(:moved AS TEXT) END "
        "FROM moved) AS BOOLEAN)").execution_options(**{DEFERRED: True})


def last_seq(conn: Connection) -> int:
    """The newest entry's sequence number on the unit's chain (the room chain outside a
    unit), this transaction's appends included (0: an empty chain)."""
    unit = conn.info.get(_UNIT)
    if isinstance(unit, _Unit) and (unit.read or unit.lazy is not None):
        _link(conn, unit)
        head = _read_head(conn, unit)
        return 0 if head is None else head[0]
    chain = unit.chain if isinstance(unit, _Unit) else ROOM_CHAIN
    row = conn.execute(_SELECT_HEAD, {"head": head_id(chain)}).first()
    return 0 if row is None else int(row.seq)


def unit_chain(conn: Connection) -> int:
    """The chain the unit `conn` belongs to appends to (the room chain outside a unit)."""
    unit = conn.info.get(_UNIT)
    return unit.chain if isinstance(unit, _Unit) else ROOM_CHAIN


def _entry(r: Any) -> AuditEntry:
    return AuditEntry(r.seq, r.at, r.actor, r.action, r.detail, r.prev_hash, r.hash, r.mac,
                      r.chain)


def entries(conn: Connection, after: int = 0, limit: int | None = None,
            newest_first: bool = False, chain: int = ROOM_CHAIN) -> Iterator[AuditEntry]:
    """One chain's entries after `after`, in its order."""
    flush(conn)
    q = select(audit_log).where(audit_log.c.chain == chain, audit_log.c.seq > after)
    q = q.order_by(audit_log.c.seq.desc() if newest_first else audit_log.c.seq)
    if limit is not None:
        q = q.limit(limit)
    for r in conn.execute(q):
        yield _entry(r)


def merged(conn: Connection, actions: Collection[str]) -> Iterator[AuditEntry]:
    """The entries of every chain whose action is one of `actions`: each chain in its own
    order, the chains merged by the entries' times (as `verify` shows them to its observer).
    A room written by one process has one chain: its order."""
    flush(conn)
    rows = conn.execute(select(audit_log).where(audit_log.c.action.in_(actions))
                        .order_by(audit_log.c.chain, audit_log.c.seq))
    chains = [[_entry(r) for r in held] for _, held in itertools.groupby(
        rows, key=lambda r: r.chain)]
    return heapq.merge(*chains, key=lambda e: e.at)


def after(conn: Connection, chain: int, seq: int, *where: ColumnElement[bool]
          ) -> Iterator[AuditEntry]:
    """The entries matching `where` written after entry `seq` of `chain`: on that chain,
    those after it; on any other, those stamped later than it (a later writer of the same
    thing, such as the next holder of a table, starts only after the leases of the one
    before ran out, so clocks need agree only to within that)."""
    flush(conn)
    at = conn.execute(select(audit_log.c.at).where(audit_log.c.chain == chain,
                                                   audit_log.c.seq == seq)
                      ).scalar_one_or_none()
    elsewhere = audit_log.c.seq > seq if at is None else audit_log.c.at > at
    q = select(audit_log).where(or_(and_(audit_log.c.chain == chain, audit_log.c.seq > seq),
                                    and_(audit_log.c.chain != chain, elsewhere)), *where)
    return (_entry(r) for r in conn.execute(q.order_by(audit_log.c.chain, audit_log.c.seq)))


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
    chain: int | None = None
    """One chain's entries only (`ROOM_CHAIN`, or a writer's)."""


Position = dict[int, int]
"""Where a page of the log starts, chain by chain: each chain named shows its entries below
that sequence number; a chain not named shows none (it was opened after the first page)."""


@dataclass(frozen=True)
class Page:
    """A page of the log (`find`): its entries, newest first, and where the next older
    page starts (None: there is none)."""
    entries: list[AuditEntry]
    older: Position | None


def find(conn: Connection, f: Filter, before: Position | None = None, limit: int = 100
         ) -> Page:
    """The newest `limit` entries matching `f` below `before` (from the newest when None),
    newest first across every chain: the chains merged by time, the later chain first at
    the same microsecond, each chain in its own order (its times rise with its sequence
    numbers: they are stamped under its writer lock), the reverse of `merged`'s. The next
    page starts where this one stopped on each chain (`Page.older`), so that paging neither
    skips nor repeats an entry however the chains interleave, and an entry written since
    the first page never lands on a later one. One query per chain, each read down its
    (chain, seq) key. The chains are those the heads name (a head deleted is `verify`'s to
    report), so a position naming others costs nothing."""
    flush(conn)
    chains = {ROOM_CHAIN} | _headed(conn)
    bounds: dict[int, int | None] = dict.fromkeys(chains) if before is None else {
        c: seq for c, seq in before.items() if c in chains}
    runs = {c: [_entry(r) for r in conn.execute(_matching(f, c, below, limit + 1))]
            for c, below in sorted(bounds.items()) if f.chain in (None, c)}
    shown = list(itertools.islice(heapq.merge(*runs.values(), key=lambda e: (e.at, e.chain),
                                              reverse=True), limit))
    older: Position = {}
    for c, run in runs.items():
        taken = [e.seq for e in shown if e.chain == c]
        if len(taken) < len(run):  # entries of `c` are left for the next page
            older[c] = min(taken) if taken else run[0].seq + 1
    return Page(shown, older or None)


def _matching(f: Filter, chain: int, below: int | None, limit: int) -> Select[Any]:
    """Chain `chain`'s newest `limit` entries matching `f` below entry `below`."""
    q = select(audit_log).where(audit_log.c.chain == chain)
    if below is not None:
        q = q.where(audit_log.c.seq < below)
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
    return q.order_by(audit_log.c.seq.desc()).limit(limit)


def writers(conn: Connection) -> dict[int, str]:
    """Each writer chain's writer (the process's stable name), as its first entry (its
    opening, `writer_chain`) names it: chain id to name."""
    flush(conn)
    chains = sorted(_headed(conn) - {ROOM_CHAIN})
    found = {c: f"writer chain {c}" for c in chains}
    for chain, detail in conn.execute(select(audit_log.c.chain, audit_log.c.detail).where(
            audit_log.c.chain.in_(chains), audit_log.c.seq == 1,
            audit_log.c.action == CHAIN_OPENED)):
        name = _object(detail).get("writer")
        if isinstance(name, str):
            found[int(chain)] = name
    return found


@dataclass(frozen=True)
class Checkpoint:
    """The last entry a verification found sound (the room chain's, and each writer chain's as
    `(chain, seq, hash)`): the next one can start after them."""
    seq: int
    hash: str
    writers: tuple[tuple[int, int, str], ...] = ()


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
    """Check every chain from `since` (an earlier sound checkpoint) to its head, and with a key
    every MAC; then that every writer chain was opened on the room chain and holds every
    entry the room chain anchored. `observe` sees each entry (the books are checked against
    the chains that way): each chain in its order, the chains merged by the entries' times.

    Run it inside one read snapshot (`Storage.snapshot()`): the entries and the heads must be
    read as of one moment, or a write in between looks like tampering."""
    flush(conn)
    problems: list[str] = []
    anchored = _anchored(conn, since.seq)
    found = {c: (s, h) for c, s, h in since.writers}
    walks = [_Walk(conn, key, c, *found.get(c, (0, chain_genesis(c))), anchored)
             for c in sorted(_chains(conn) - {ROOM_CHAIN})]
    room = _Walk(conn, key, ROOM_CHAIN, since.seq, since.hash, anchored)
    count = 0
    for e in heapq.merge(room, *walks, key=lambda e: e.at):
        count += 1
        if observe is not None:
            observe(e)
    for walk in (room, *walks):
        problems.extend(walk.problems)
    problems.extend(_anchor_problems(conn, anchored, {w.chain: w.last for w in walks}))
    if problems:
        return Verification(count, tuple(problems), key is not None, since)
    reached = Checkpoint(room.last, room.prev, tuple((w.chain, w.last, w.prev) for w in walks))
    return Verification(count, (), key is not None, reached)


class _Walk:
    """One chain checked from an entry found sound before (`last`, `prev`) to its head: each
    entry yielded once checked; its problems kept in `problems` (the head's too, once it is
    walked to the end)."""

    def __init__(self, conn: Connection, key: bytes | None, chain: int, last: int, prev: str,
                 anchored: dict[tuple[int, int], str]) -> None:
        self.conn, self.key, self.chain, self.anchored = conn, key, chain, anchored
        self.last, self.prev = last, prev
        self.problems: list[str] = []

    def __iter__(self) -> Iterator[AuditEntry]:
        conn, key, chain = self.conn, self.key, self.chain
        where = "" if chain == ROOM_CHAIN else f"writer chain {chain}: "
        if self.last:
            held = conn.execute(select(audit_log.c.hash).where(
                audit_log.c.chain == chain, audit_log.c.seq == self.last)).scalar_one_or_none()
            if held != self.prev:
                self.problems.append(f"{label(chain, self.last)}, found sound earlier, has "
                                     "been changed or deleted")
        expected = self.last + 1
        unkeyed: list[int] = []
        forged: list[int] = []
        for e in entries(conn, after=self.last, chain=chain):
            if e.seq != expected:
                self.problems.append(f"{where}entry {expected} is missing (next is {e.seq})")
            if e.prev_hash != self.prev:
                self.problems.append(f"{label(chain, e.seq)} does not link to the entry "
                                     "before it")
            if entry_hash(e.seq, e.at, e.actor, e.action, e.detail, e.prev_hash) != e.hash:
                self.problems.append(f"{label(chain, e.seq)} was altered: its hash does not "
                                     "match its content")
            elif key is not None:
                if e.mac is None:
                    unkeyed.append(e.seq)
                elif not hmac.compare_digest(e.mac, entry_mac(key, e.hash)):
                    forged.append(e.seq)
            if e.seq == 1 and chain != ROOM_CHAIN and (
                    e.action != CHAIN_OPENED or e.detail.find(f'"chain":{chain},') < 0):
                self.problems.append(f"writer chain {chain} does not start with its opening")
            if self.anchored.pop((chain, e.seq), e.hash) != e.hash:
                self.problems.append(f"{label(chain, e.seq)} is not the entry the room chain "
                                     "anchored: the writer chain was rewritten")
            yield e
            self.prev, expected = e.hash, e.seq + 1
        self.last = expected - 1
        if forged:
            self.problems.append(f"{where}{_span(forged)} forged or rewritten: the MAC does not "
                                 "match the audit key")
        if unkeyed:
            self.problems.append(f"{where}{_span(unkeyed)} without a MAC: written without the "
                                 "audit key, or the MACs removed")
        self.problems.extend(_head_problems(conn, key, chain, self.last, self.prev))


def _chains(conn: Connection) -> set[int]:
    """Every chain the log or the heads hold."""
    logged = conn.execute(select(audit_log.c.chain).distinct()).scalars()
    return {int(c) for c in logged} | _headed(conn)


def _headed(conn: Connection) -> set[int]:
    """Every chain a head names (`head_id`'s inverse)."""
    return {int(h) - 1 for h in conn.execute(select(audit_head.c.id)).scalars()}


def _room_records(conn: Connection, action: str, after: int = 0
                  ) -> Iterator[tuple[int, dict[str, Any]]]:
    """The room chain's entries of `action` after entry `after`, as (seq, detail); a detail
    that is not a JSON object reads as empty (its chain's check reports what is wrong)."""
    for seq, detail in conn.execute(select(audit_log.c.seq, audit_log.c.detail).where(
            audit_log.c.chain == ROOM_CHAIN, audit_log.c.action == action,
            audit_log.c.seq > after).order_by(audit_log.c.seq)):
        yield int(seq), _object(detail)


def _object(detail: str) -> dict[str, Any]:
    """A detail as a JSON object; empty when it is not one (edited: the chain's check reports
    it)."""
    try:
        data = json.loads(detail)
    except ValueError:
        data = None
    return data if isinstance(data, dict) else {}


def _anchored(conn: Connection, after: int) -> dict[tuple[int, int], str]:
    """The writer chains' entries the room chain anchored after its entry `after` (a check
    from a checkpoint holds the writer chains' new entries to the new anchors): (chain, seq)
    to hash."""
    return {(_number(d.get("chain")), _number(d.get("seq"))): str(d.get("hash"))
            for _, d in _room_records(conn, CHAIN_ANCHORED, after)}


def _number(value: object) -> int:
    """A record's chain or sequence number; -1 for anything else (an edited record, which
    its chain's check reports)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _anchor_problems(conn: Connection, anchored: dict[tuple[int, int], str],
                     heads: dict[int, int]) -> list[str]:
    """Every writer chain (`heads`: its last entry) opened on the room chain, every opened
    chain still there, no anchored entry past its chain's end (`_Walk` compared those it
    met)."""
    opened = {_number(d.get("chain")): seq for seq, d in _room_records(conn, CHAIN_OPENED)}
    problems = [f"writer chain {c} was not opened on the room chain: its opening was deleted, "
                "or the chain was made in the database" for c in sorted(heads.keys() - opened)]
    problems += [f"writer chain {c}, opened at entry {seq}, is not in the log: it was deleted"
                 for c, seq in sorted(opened.items()) if c not in heads]
    problems += [f"{label(c, s)}, anchored on the room chain, is not in the log: the writer "
                 "chain was cut back" for (c, s) in sorted(anchored)
                 if c in heads and s > heads[c]]
    return problems


def writer_chain(conn: Connection, writer: str) -> int:
    """The chain `writer` (a process's stable name: its advertised address) writes on: the
    one the room chain records as opened for it, so that a writer started again goes on with
    its chain, else a new one opened now. Call in a room chain unit (its lock serialises two
    writers opening at once)."""
    flush(conn)
    opened = {str(d.get("writer")): _number(d.get("chain"))
              for _, d in _room_records(conn, CHAIN_OPENED)}
    if writer in opened:
        if conn.execute(_SELECT_HEAD, {"head": head_id(opened[writer])}).first() is None:
            raise ChainBroken(f"writer chain {opened[writer]} of {writer} is opened on the room "
                              "chain but is not in the log: it was deleted")
        return opened[writer]
    chain = max(opened.values(), default=ROOM_CHAIN) + 1
    record = {"chain": chain, "writer": writer}
    append(conn, "house", CHAIN_OPENED, record)
    append(conn, "house", CHAIN_OPENED, record, chain=chain)
    return chain


def anchor(conn: Connection, chain: int) -> AuditEntry | None:
    """Record writer chain `chain`'s committed head on the room chain (in a room chain unit):
    from then on `verify` requires that chain to hold that entry, so cutting the chain back
    behind it is caught without an anchor outside the database. None: an empty chain."""
    head = conn.execute(_SELECT_HEAD, {"head": head_id(chain)}).first()
    if head is None:
        return None
    return append_entry(conn, "house", CHAIN_ANCHORED,
                        {"chain": chain, "seq": int(head.seq), "hash": str(head.hash)})


def appended(conn: Connection) -> bool:
    """Whether the unit `conn` belongs to has appended entries not yet written."""
    unit = conn.info.get(_UNIT)
    return isinstance(unit, _Unit) and bool(unit.pending or unit.unlinked)


def _span(seqs: list[int]) -> str:
    if len(seqs) == 1:
        return f"entry {seqs[0]} is"
    return f"{len(seqs)} entries (first {seqs[0]}, last {seqs[-1]}) are"


def _head_problems(conn: Connection, key: bytes | None, chain: int, last: int, last_hash: str
                   ) -> list[str]:
    where = "" if chain == ROOM_CHAIN else f"writer chain {chain}: "
    head = conn.execute(select(audit_head.c.seq, audit_head.c.hash, audit_head.c.mac)
                        .where(audit_head.c.id == head_id(chain))).first()
    if head is None:
        return [f"{where}the head record is missing"] if last else []
    if head.seq != last or head.hash != last_hash:
        return [f"{where}the log ends at entry {last} but the head records entry {head.seq}: "
                "entries were deleted or the head was altered"]
    if key is None:
        return []
    if head.mac is None or not hmac.compare_digest(
            head.mac, head_mac(key, int(head.seq), str(head.hash), chain)):
        return [f"{where}the head record (entry {head.seq}) does not carry the audit key's "
                "MAC: the log was cut back or rewritten and the head moved, or its MAC removed"]
    return _key_record_problems(conn, key) if chain == ROOM_CHAIN else []


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
    """The last key record in the room chain (entry seq, fingerprint), if any names one (the
    key is recorded only there)."""
    flush(conn)
    row = conn.execute(select(audit_log.c.seq, audit_log.c.detail)
                       .where(audit_log.c.chain == ROOM_CHAIN,
                              audit_log.c.action.in_(KEY_ACTIONS))
                       .order_by(audit_log.c.seq.desc()).limit(1)).first()
    if row is None:
        return None
    try:
        named = json.loads(row.detail).get("key")
    except (ValueError, AttributeError):
        named = None
    return (int(row.seq), named) if isinstance(named, str) else None


def keyed_trace(conn: Connection) -> bool:
    """Whether anything says these books were ever keyed: a recorded fingerprint, a MAC on a
    head or any entry, or a key record in the chain. Entries without a MAC in such books are
    tampering, never history to seal."""
    flush(conn)
    if conn.execute(select(audit_head.c.id).where(or_(
            audit_head.c.mac.is_not(None), audit_head.c.key_id.is_not(None))).limit(1)
            ).first() is not None:
        return True
    return conn.execute(select(audit_log.c.seq).where(or_(
        audit_log.c.mac.is_not(None), audit_log.c.action.in_(KEY_ACTIONS))).limit(1)
        ).first() is not None


def mac_entries(conn: Connection, key: bytes, every: bool = False) -> int:
    """MAC every entry that has no MAC (or, with `every`, every entry), and every chain's head:
    how a chain written before the room had its key is adopted
    (`cardroom.room.trust.keying.seal`), or every chain moved to a new key (`keying.rekey`),
    after checking them. Returns how many entries it MACed."""
    flush(conn)
    q = select(audit_log.c.chain, audit_log.c.seq, audit_log.c.hash)
    rows = conn.execute(q if every else q.where(audit_log.c.mac.is_(None))).all()
    if rows:
        conn.execute(update(audit_log).where(audit_log.c.chain == bindparam("c"),
                                             audit_log.c.seq == bindparam("s"))
                     .values(mac=bindparam("m")),
                     [{"c": r.chain, "s": r.seq, "m": entry_mac(key, r.hash)} for r in rows])
    heads = conn.execute(select(audit_head.c.id, audit_head.c.seq, audit_head.c.hash)).all()
    if heads:
        conn.execute(update(audit_head).where(audit_head.c.id == bindparam("i"))
                     .values(mac=bindparam("m")),
                     [{"i": h.id, "m": head_mac(key, int(h.seq), str(h.hash), int(h.id) - 1)}
                      for h in heads])
    return len(rows)
