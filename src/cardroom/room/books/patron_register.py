"""The company's patron register (issue 25, "Many rooms, one head office": patron identities
kept once, at the head office, and reaching every room within the 48 hours the rule allows).

- **How a patron reaches the head office.** A room records its patrons at its cage, as ever;
  they reach the head office with the rest of its books, by replication, in the schema
  `room_<id>` (`books.head_office`). `merge`, at the head office, takes every room's patrons
  into the head office's own books (its `public` schema): that is the register.
- **Who is who.** Two records are the same person when they share an identity document: the
  blind index of its number under the company's one identity key (the key the exclusion pull
  already requires every room to share). A patron with no document on file has nothing to be
  known by from one room to another and stays in their room.
- **The rooms pull.** `pull`, at a room, does the same from the head office's register into
  the room's patrons: a person the room does not know is added (the cage then finds them by
  their document, `people.patrons.find`), one it knows gets the documents it lacks and the
  register's details when the register's are newer.
- **Newer wins, and says so.** Documents are only ever added. Details (name, address, date of
  birth, taxpayer id) are taken only from a record written later (`patrons.updated_at`, kept
  as it was where the record was written, so that a record going round the company changes
  nothing); a newer record is never overwritten: it is kept and counted (`kept`). A record
  that matches two patrons (two records of one person, each with another document) changes
  nothing and is counted (`ambiguous`) for the compliance officer.
- **Dates.** A merge records its time as the register's date; a pull records the date of the
  register it took (`patron_registers`). `status` is stale when the register a room holds is
  older than the profile's 48 hours (the self-exclusion list's update rule, WAC 230-23-030) or
  when it never pulled one.

Taxpayer ids and document numbers are sealed to their record (the identity key's associated
data is the patron's id), so each one is opened with the source record's id and sealed again
with the new record's; none is ever written anywhere in clear.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select, text, update
from sqlalchemy.engine import Connection

from cardroom.room.books import head_office
from cardroom.room.compliance import exclusions
from cardroom.room.people.accounts import Account
from cardroom.room.people.patrons import document_context, fold_name, taxpayer_context
from cardroom.room.storage import audit
from cardroom.room.storage.identity_key import IdentityKey
from cardroom.room.storage.schema import patron_documents, patron_registers, patrons
from cardroom.room.storage.timezone import room_time

MERGE = "merge"
PULL = "pull"


@dataclass(frozen=True)
class Carried:
    """One patron as read where the register comes from (a room's schema, the head office's
    books), their secrets still sealed to that record (`source_id`)."""

    source_id: int
    legal_name: str
    address: str
    date_of_birth: date
    taxpayer_ct: str | None
    taxpayer_index: str | None
    updated_at: datetime
    documents: tuple[Any, ...]
    """Rows of `patron_documents`."""

    def details(self) -> tuple[str, str, date]:
        return self.legal_name, self.address, self.date_of_birth


@dataclass
class Absorbed:
    """What one merge or pull did: the patrons added and updated, the documents added, the
    target's records kept because they were newer (ids), and the source's records that matched
    two patrons (the source's ids)."""

    added: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    documents: int = 0
    kept: list[int] = field(default_factory=list)
    ambiguous: list[int] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {"added": len(self.added), "updated": len(self.updated),
                "documents": self.documents, "kept": len(self.kept),
                "ambiguous": len(self.ambiguous)}


def _aware(at: datetime) -> datetime:
    """A stored time as UTC (SQLite gives it back without its zone)."""
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def read_patrons(conn: Connection) -> list[Carried]:
    """Every patron with an identity document on file in `conn`'s schema, oldest first. A
    record without `updated_at` (written by a room not yet upgraded) counts from its
    `created_at`."""
    docs: defaultdict[int, list[Any]] = defaultdict(list)
    for d in conn.execute(select(patron_documents).order_by(patron_documents.c.id)):
        docs[d.patron_id].append(d)
    return [Carried(r.id, r.legal_name, r.address, r.date_of_birth, r.taxpayer_ct,
                    r.taxpayer_index, _aware(r.updated_at or r.created_at), tuple(docs[r.id]))
            for r in conn.execute(select(patrons).order_by(patrons.c.id)) if docs[r.id]]


@dataclass
class _Known:
    """The target's patrons as the absorb goes: each document's patron, each patron's
    details."""

    by_document: dict[str, int]
    rows: dict[int, Carried]

    @classmethod
    def read(cls, conn: Connection) -> _Known:
        rows = {c.source_id: c for c in read_patrons(conn)}
        return cls({d.number_index: pid for pid, c in rows.items() for d in c.documents}, rows)


def _sealed_taxpayer(p: Carried, patron_id: int, key: IdentityKey) -> dict[str, str]:
    if p.taxpayer_ct is None or p.taxpayer_index is None:
        return {}
    clear = key.decrypt(p.taxpayer_ct, taxpayer_context(p.source_id))
    return {"taxpayer_ct": key.encrypt(clear, taxpayer_context(patron_id)),
            "taxpayer_index": p.taxpayer_index}


def _details_values(p: Carried, patron_id: int, key: IdentityKey) -> dict[str, object]:
    return {"legal_name": p.legal_name, "name_key": fold_name(p.legal_name),
            "address": p.address, "date_of_birth": p.date_of_birth,
            "updated_at": p.updated_at, **_sealed_taxpayer(p, patron_id, key)}


def _add(conn: Connection, staff: Account, p: Carried, key: IdentityKey) -> int:
    pid = int(conn.execute(insert(patrons).values(
        legal_name=p.legal_name, name_key=fold_name(p.legal_name), address=p.address,
        date_of_birth=p.date_of_birth, created_by=staff.username,
        created_at=datetime.now(UTC), updated_at=p.updated_at).returning(patrons.c.id)
    ).scalar_one())
    if p.taxpayer_ct is not None:
        conn.execute(update(patrons).where(patrons.c.id == pid).values(
            **_sealed_taxpayer(p, pid, key)))
    return pid


def _add_documents(conn: Connection, p: Carried, pid: int, known: _Known, key: IdentityKey
                   ) -> list[str]:
    """The source's documents the target's patron `pid` lacks, sealed to `pid`; their kinds."""
    kinds = []
    for d in p.documents:
        if d.number_index in known.by_document:
            continue
        clear = key.decrypt(d.number_ct, document_context(p.source_id))
        conn.execute(insert(patron_documents).values(
            patron_id=pid, kind=d.kind, number_ct=key.encrypt(clear, document_context(pid)),
            number_index=d.number_index, issuer=d.issuer, expires=d.expires,
            checked_by=d.checked_by, checked_on=d.checked_on, created_at=datetime.now(UTC)))
        known.by_document[d.number_index] = pid
        kinds.append(d.kind)
    return kinds


def _differs(p: Carried, mine: Carried) -> bool:
    """Whether the source's details differ from the target's (a taxpayer id the source does
    not hold is no difference)."""
    return p.details() != mine.details() or \
        (p.taxpayer_index is not None and p.taxpayer_index != mine.taxpayer_index)


def _take(conn: Connection, staff: Account, p: Carried, known: _Known, key: IdentityKey,
          done: Absorbed) -> tuple[int, str] | None:
    """The target's patron `p` is (added, or updated when `p` is newer) and what was done;
    None when `p` matches two patrons."""
    matches = {known.by_document[d.number_index] for d in p.documents
               if d.number_index in known.by_document}
    if len(matches) > 1:
        done.ambiguous.append(p.source_id)
        return None
    if not matches:
        pid = _add(conn, staff, p, key)
        done.added.append(pid)
        known.rows[pid] = p
        return pid, "added"
    pid = matches.pop()
    mine = known.rows[pid]
    if not _differs(p, mine):
        return pid, "documents"
    if p.updated_at <= mine.updated_at:
        done.kept.append(pid)
        return pid, "documents"
    conn.execute(update(patrons).where(patrons.c.id == pid).values(
        **_details_values(p, pid, key)))
    done.updated.append(pid)
    known.rows[pid] = replace(p, taxpayer_index=p.taxpayer_index or mine.taxpayer_index)
    return pid, "updated"


def absorb(conn: Connection, staff: Account, carried: list[Carried], key: IdentityKey,
           source: str) -> Absorbed:
    """Take `carried` (read from `source`: "head office", "room tacoma") into `conn`'s
    patrons, newer details winning and documents added; each patron added or changed is
    audited as `patron.register` (the kinds of documents added, never a number)."""
    known = _Known.read(conn)
    done = Absorbed()
    for p in carried:
        taken = _take(conn, staff, p, known, key, done)
        if taken is None:
            continue
        pid, what = taken
        kinds = _add_documents(conn, p, pid, known, key)
        done.documents += len(kinds)
        if what != "documents" or kinds:
            audit.append(conn, staff.username, "patron.register",
                         {"patron": pid, "from": source, "change": what, "documents": kinds})
    return done


def _record(conn: Connection, kind: str, register_date: datetime, done: Absorbed,
            now: datetime) -> None:
    conn.execute(insert(patron_registers).values(
        kind=kind, register_date=register_date, recorded_at=now, added=len(done.added),
        updated=len(done.updated), kept=len(done.kept)))


def latest(conn: Connection, kind: str) -> Any:
    """The latest merge (at the head office) or pull (at a room), or None."""
    return conn.execute(select(patron_registers).where(patron_registers.c.kind == kind)
                        .order_by(patron_registers.c.register_date.desc(),
                                  patron_registers.c.id.desc())).first()


def merge(conn: Connection, staff: Account, key: IdentityKey, wanted: str = "all",
          now: datetime | None = None) -> dict[str, Absorbed]:
    """At the head office (`conn`: its own books, in one write unit): every chosen room's
    patrons taken into the register, room by room; the merge's time recorded as the
    register's date. What each room's patrons did."""
    if conn.dialect.name != "postgresql":
        raise head_office.HeadOfficeError("the head office's books must be on PostgreSQL "
                                          "(logical replication)")
    at = now or datetime.now(UTC)
    own = conn.execute(text("SHOW search_path")).scalar_one()
    out: dict[str, Absorbed] = {}
    for room in head_office.chosen_rooms(conn, wanted):
        conn.execute(text("SELECT set_config('search_path', :p, true)"),
                     {"p": head_office.schema_of(room)})
        carried = read_patrons(conn)
        conn.execute(text("SELECT set_config('search_path', :p, true)"), {"p": own})
        out[room] = absorb(conn, staff, carried, key, f"room {room}")
    total = Absorbed([i for d in out.values() for i in d.added],
                     [i for d in out.values() for i in d.updated],
                     sum(d.documents for d in out.values()),
                     [i for d in out.values() for i in d.kept])
    _record(conn, MERGE, at, total, at)
    audit.append(conn, staff.username, "patrons.merged",
                 {"rooms": {room: d.counts() for room, d in out.items()}})
    return out


@dataclass(frozen=True)
class Pulled:
    register_date: datetime
    done: Absorbed


def pull(source: Connection, conn: Connection, staff: Account, key: IdentityKey,
         now: datetime | None = None) -> Pulled:
    """At a room (`conn`: its books, in one write unit): the head office's register
    (`source`, read in one snapshot) taken into the room's patrons, with its date."""
    merged = latest(source, MERGE)
    if merged is None:
        raise head_office.HeadOfficeError(
            "the head office holds no patron register yet: merge the rooms' patrons there "
            "first (cardroom patrons merge)")
    dated = _aware(merged.register_date)
    done = absorb(conn, staff, read_patrons(source), key, "head office")
    _record(conn, PULL, dated, done, now or datetime.now(UTC))
    audit.append(conn, staff.username, "patrons.pulled",
                 {"register_date": dated.isoformat(), **done.counts()})
    return Pulled(dated, done)


@dataclass(frozen=True)
class RegisterStatus:
    """The register a room holds: its date, and whether it is older than the rule allows
    (`stale`; also when the room never pulled one)."""

    register_date: datetime | None
    pulled_at: datetime | None
    stale: bool
    limit_hours: int
    section: str

    def sentence(self) -> str:
        if self.register_date is None:
            return ("No patron register has been pulled from the head office: pull it "
                    "(cardroom patrons pull).")
        if self.stale:
            return (f"The patron register is out of date: it is dated "
                    f"{room_time(self.register_date)}, more than {self.limit_hours} hours ago; "
                    f"pull the head office's latest ({self.section}).")
        return f"The patron register is dated {room_time(self.register_date)}."


def status(conn: Connection, now: datetime | None = None) -> RegisterStatus:
    """Whether the register the room holds is within the profile's update rule (the
    self-exclusion list's 48 hours, WAC 230-23-030): stale when older, or when none."""
    at = now or datetime.now(UTC)
    rule, section = exclusions.deadlines(at.date())
    r = latest(conn, PULL)
    if r is None:
        return RegisterStatus(None, None, True, rule.update_hours, section)
    dated = _aware(r.register_date)
    return RegisterStatus(dated, _aware(r.recorded_at),
                          at - dated > timedelta(hours=rule.update_hours), rule.update_hours,
                          section)
