"""Self-exclusion (issue 22; RCW 9.46.071, chapter 230-23 WAC): the state's list and the room's
own enrolments, who matches them, and what the room does about it.

- **The list.** `import_list` loads the state's list (a CSV of name, date of birth,
  identifiers, period) with the list's own date. The same content imported twice is one
  import; a new list replaces the state's entries (an entry it no longer holds is marked
  removed by it, never deleted). `list_status` says whether the list held is older than the
  profile allows (48 hours, WAC 230-23-030).
- **Enrolment in the room.** `enrol` records a patron whose identity the cage checked; the
  form is due at the commission within 72 hours (`worklist`, `mark_forwarded`).
- **Matching.** `matching_entry` / `is_excluded`: a patron matches an active entry when their
  name (accents, case, punctuation and word order ignored) and date of birth are the same, or
  when one of their identity documents has a number the entry lists (compared by the identity
  key's blind index). Staff clear a false positive with `clear_match`.
- **Refusals.** `refuse_person` (registration), `refuse_at_cage` (sale, redemption) and
  `refuse_seat` (any seat) raise `Excluded`: a plain sentence for staff, a neutral one for the
  person.
- **Breaches.** `confiscate` moves the money and chips at stake to `CONFISCATED` (held for the
  state's problem-gambling account), records the breach with the commission's notice due in 72
  hours, and closes marketing to the patron (WAC 230-23-020).

The list is confidential (WAC 230-23-025): `entries`, `worklist` and the import's details are
for the owner and the compliance officer (`may_read`); the audit log records counts and ids,
never a listed person's name.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Integer, Select, Table, bindparam, func, insert, select, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection
from sqlalchemy.sql import ColumnElement

from cardroom.errors import CardroomError
from cardroom.money import Cents
from cardroom.profile import SelfExclusion, profile_in_force
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role
from cardroom.room.people.patrons import fold_name, normalise_number
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import NotFound, PermissionDenied
from cardroom.room.storage.identity_key import IdentityKey
from cardroom.room.storage.pipeline import ahead
from cardroom.room.storage.schema import (
    accounts,
    exclusion_breaches,
    exclusion_clearances,
    exclusion_entries,
    exclusion_identifiers,
    exclusion_lists,
    marketing_closed,
    patron_documents,
    patrons,
)
from cardroom.room.storage.timezone import room_time

CONFISCATED = "house:confiscated-self-exclusion"
"""Money and chips confiscated from excluded people found playing (WAC 230-23-030), held apart
for the state's problem-gambling account."""
CONFISCATION = "confiscate-self-exclusion"
"""The ledger kind of a confiscation (`CONFISCATED`)."""
PERIODS = (1, 3, 5, 10)
"""The periods of exclusion, in years (RCW 9.46.071)."""
READERS = frozenset({Role.OWNER, Role.COMPLIANCE})
MAX_ROWS = 100_000
MAX_FILE = 20_000_000
NEUTRAL = "Refused: please speak to a manager."
"""What the person, and anyone beside them, is told: nothing about a list."""


class ExclusionError(CardroomError):
    """A list or an enrolment refused, in one sentence for the staff member."""


class Excluded(PermissionDenied):
    """A person on the self-exclusion list, refused (RCW 9.46.071): `str()` is the sentence for
    whoever asked (staff, or the neutral one for the person)."""


@dataclass(frozen=True)
class Listed:
    """One person of a list as read from its file: the name folded for matching, identifiers
    as blind indexes only."""

    legal_name: str
    name_key: str
    date_of_birth: date
    period: str
    identifiers: tuple[str, ...]

    @property
    def entry_key(self) -> str:
        text = "|".join([self.name_key, self.date_of_birth.isoformat(), self.period,
                         *sorted(self.identifiers)])
        return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Imported:
    list_id: int
    list_date: datetime
    entries: int
    added: int
    removed: int
    replayed: bool


@dataclass(frozen=True)
class ListStatus:
    """The state list the room holds: its date, and whether it is older than the update rule
    allows (`stale`; also when no list was ever imported)."""

    list_date: datetime | None
    imported_at: datetime | None
    entries: int
    stale: bool
    limit_hours: int
    section: str

    def sentence(self) -> str:
        if self.list_date is None:
            return (f"No self-exclusion list has been imported: import the state's list "
                    f"({self.section}).")
        if self.stale:
            return (f"The self-exclusion list is out of date: it is dated "
                    f"{room_time(self.list_date)}, more than {self.limit_hours} hours ago; "
                    f"import the state's latest list ({self.section}).")
        return (f"The self-exclusion list is dated {room_time(self.list_date)} "
                f"({self.entries} people).")


@dataclass(frozen=True)
class Entry:
    id: int
    source: str
    legal_name: str
    date_of_birth: date
    period: str
    active: bool
    patron_id: int | None
    form_due: datetime | None
    forwarded_by: str | None
    forwarded_at: datetime | None


@dataclass(frozen=True)
class Breach:
    id: int
    account_id: int
    username: str
    patron_id: int | None
    table_id: int | None
    place: str
    confiscated: Cents
    found_at: datetime
    notice_due: datetime
    notified_by: str | None
    notified_at: datetime | None


@dataclass(frozen=True)
class Worklist:
    """What is owed to the commission: enrolment forms to forward and breach notices, each
    with its due time (WAC 230-23-030)."""

    forms: tuple[Entry, ...]
    notices: tuple[Breach, ...]

    def overdue(self, now: datetime) -> int:
        return sum(1 for e in self.forms if e.form_due and _aware(e.form_due) < now) + \
            sum(1 for b in self.notices if _aware(b.notice_due) < now)


# rules and keys ------------------------------------------------------------------------------
def deadlines(day: date | None = None) -> tuple[SelfExclusion, str]:
    """The profile's self-exclusion deadlines in force on `day` (today), and their section."""
    cap = profile_in_force().self_exclusion
    return cap.on(day or datetime.now(UTC).date()), cap.section


def name_key(name: str) -> str:
    """A name as matched: folded (`patrons.fold_name`), commas dropped, words sorted, so that
    "Hopper, Grace" and "grace HOPPER" are the same name."""
    return " ".join(sorted(fold_name(name.replace(",", " ")).split()))


def may_read(staff: Account) -> bool:
    """Only the owner and the compliance officer read the list (WAC 230-23-025)."""
    return staff.role in READERS


def _require_reader(staff: Account) -> None:
    if not may_read(staff):
        raise PermissionDenied("Refused: only the owner and the compliance officer may see "
                               "or change the self-exclusion list.")


def _aware(at: datetime) -> datetime:
    """A stored time as UTC (SQLite gives it back without its zone)."""
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _now(now: datetime | None) -> datetime:
    return now or datetime.now(UTC)


# reading the state's file ----------------------------------------------------------------------
HEADERS = {"name": "name", "legal name": "name", "date of birth": "born",
           "date_of_birth": "born", "dob": "born", "born": "born", "identifiers": "ids",
           "identifier": "ids", "ids": "ids", "period": "period"}
DATE_LINE = re.compile(r"^#\s*list date\s*:?\s*(.+)$", re.IGNORECASE)


def parse_date(text: str, what: str) -> datetime:
    """A list's date, `2026-11-25` or `2026-11-25T09:00` (UTC unless it says otherwise)."""
    try:
        at = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ExclusionError(f"The {what} is not a date: write it as 2026-11-25 or "
                             "2026-11-25T09:00.") from None
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _period(text: str, line: int) -> str:
    digits = re.sub(r"[^0-9]", "", text)
    if not digits or int(digits) not in PERIODS:
        raise ExclusionError(f"Line {line} of the list has a period that is not 1, 3, 5 or 10 "
                             "years.")
    years = int(digits)
    return f"{years} year" + ("s" if years > 1 else "")


def _born(text: str, line: int) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ExclusionError(f"Line {line} of the list has no date of birth the room can read "
                             "(write it as 1980-12-09).") from None


def identifier_indexes(text: str, key: IdentityKey) -> tuple[str, ...]:
    """The blind indexes of a list's identifiers ("driver-licence:WDL123; passport:X9", or the
    numbers alone), as `patron_documents.number_index` holds a patron's."""
    out = []
    for part in re.split(r"[;|]", text):
        number = normalise_number(part.rsplit(":", 1)[-1])
        if number:
            out.append(key.blind("document", number))
    return tuple(sorted(set(out)))


def read_list(text: str, key: IdentityKey, list_date: datetime | None = None
              ) -> tuple[datetime, list[Listed]]:
    """The list's date (the option, else its `# list date: ...` line) and its people, from the
    state's CSV (columns name, date of birth, identifiers, period); a bad line is refused with
    its number, and nothing is imported."""
    if len(text) > MAX_FILE:
        raise ExclusionError("The list file is too large to be the state's list.")
    lines = text.splitlines()
    skipped = 0
    dated = None
    while lines and (not lines[0].strip() or lines[0].lstrip().startswith("#")):
        skipped += 1
        found = DATE_LINE.match(lines.pop(0).strip())
        if found:
            dated = parse_date(found.group(1), "list's date")
    when = list_date or dated
    if when is None:
        raise ExclusionError("Give the list's date (--list-date, or a '# list date:' line at "
                             "the top of the file).")
    if when > datetime.now(UTC) + timedelta(hours=1):
        raise ExclusionError("The list's date is in the future: check it.")
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if not rows:
        raise ExclusionError("The list file holds no header line (name, date of birth, "
                             "identifiers, period).")
    columns = [HEADERS.get(h.strip().lower()) for h in rows[0]]
    if not {"name", "born", "period"} <= set(columns):
        raise ExclusionError("The list's first line must name its columns: name, date of "
                             "birth, identifiers, period.")
    if len(rows) > MAX_ROWS:
        raise ExclusionError("The list holds more people than the room can read at once.")
    people = []
    for number, row in enumerate(rows[1:], start=2 + skipped):
        if not any(cell.strip() for cell in row):
            continue
        cells = {c: row[i] if i < len(row) else "" for i, c in enumerate(columns) if c}
        name = " ".join(cells.get("name", "").split())
        if not name_key(name):
            raise ExclusionError(f"Line {number} of the list has no name.")
        people.append(Listed(name[:200], name_key(name)[:200],
                             _born(cells.get("born", ""), number),
                             _period(cells.get("period", ""), number),
                             identifier_indexes(cells.get("ids", ""), key)))
    return when, people


# importing ---------------------------------------------------------------------------------
def import_list(conn: Connection, staff: Account, text: str, key: IdentityKey,
                list_date: datetime | None = None) -> Imported:
    """Load the state's list (`read_list`); it replaces the state's entries: those it no longer
    holds are marked removed by it, new ones added, the rest kept. The same list (its date and
    people) imported again changes nothing. Audited as `exclusion.import` with counts only."""
    _require_reader(staff)
    when, people = read_list(text, key, list_date)
    return import_people(conn, staff, when, people)


def import_people(conn: Connection, staff: Account, when: datetime, people: list[Listed]
                  ) -> Imported:
    """Load a list's people, dated `when` (`import_list`, or the head office's list:
    `head_office.pull_exclusions`): the state's entries replaced as `import_list` says."""
    _require_reader(staff)
    when = _aware(when)
    unique = {p.entry_key: p for p in people}
    digest = hashlib.sha256("\n".join([when.isoformat(), *sorted(unique)]).encode()).hexdigest()
    old = conn.execute(select(exclusion_lists).where(exclusion_lists.c.digest == digest)
                       ).first()
    if old is not None:
        return Imported(old.id, _aware(old.list_date), old.entries, 0, 0, replayed=True)
    newest = latest_list(conn)
    if newest is not None and when < _aware(newest.list_date):
        raise ExclusionError(f"This list is dated before the one the room holds "
                             f"({_aware(newest.list_date):%Y-%m-%d %H:%M} UTC): import the "
                             "latest list.")
    current = {r.entry_key: r.id for r in conn.execute(
        select(exclusion_entries.c.id, exclusion_entries.c.entry_key).where(
            exclusion_entries.c.source == "state", exclusion_entries.c.active))}
    added = [p for k, p in unique.items() if k not in current]
    gone = [i for k, i in current.items() if k not in unique]
    list_id = int(conn.execute(insert(exclusion_lists).values(
        list_date=when, digest=digest, entries=len(unique), added=len(added),
        removed=len(gone), imported_by=staff.username, imported_at=datetime.now(UTC))
        .returning(exclusion_lists.c.id)).scalar_one())
    if gone:
        conn.execute(update(exclusion_entries).where(exclusion_entries.c.id.in_(gone))
                     .values(active=False, removed_list=list_id))
    for p in added:
        entry_id = conn.execute(insert(exclusion_entries).values(
            source="state", entry_key=p.entry_key, legal_name=p.legal_name,
            name_key=p.name_key, date_of_birth=p.date_of_birth, period=p.period, active=True,
            added_list=list_id).returning(exclusion_entries.c.id)).scalar_one()
        _identifiers(conn, entry_id, p.identifiers)
    _close_marketing_of_matches(conn)
    audit.append(conn, staff.username, "exclusion.import", {
        "list": list_id, "list_date": when.isoformat(), "entries": len(unique),
        "added": len(added), "removed": len(gone)})
    return Imported(list_id, when, len(unique), len(added), len(gone), replayed=False)


def _identifiers(conn: Connection, entry_id: int, indexes: Iterable[str]) -> None:
    rows = [{"entry_id": entry_id, "number_index": i} for i in indexes]
    if rows:
        conn.execute(insert(exclusion_identifiers), rows)


def latest_list(conn: Connection) -> Any:
    return conn.execute(select(exclusion_lists).order_by(exclusion_lists.c.list_date.desc(),
                                                         exclusion_lists.c.id.desc())).first()


def list_status(conn: Connection, now: datetime | None = None) -> ListStatus:
    """Whether the state list the room holds is within the update rule (WAC 230-23-030:
    updates applied within 48 hours, the profile's figure): stale when older, or when none."""
    at = _now(now)
    rule, section = deadlines(at.date())
    r = latest_list(conn)
    if r is None:
        return ListStatus(None, None, 0, True, rule.update_hours, section)
    dated = _aware(r.list_date)
    return ListStatus(dated, _aware(r.imported_at), r.entries,
                      at - dated > timedelta(hours=rule.update_hours), rule.update_hours,
                      section)


# matching ----------------------------------------------------------------------------------
def _matches(conn: Connection, people: dict[int, tuple[str, date]],
             documents: dict[int, set[str]]) -> dict[int, int]:
    """Each patron of `people` (id -> name key, date of birth) who matches an active entry, by
    name and date of birth or by a document's blind index (`documents`), with the entry's id;
    matches staff cleared are left out."""
    if not people:
        return {}
    births = {born for _, born in people.values()}
    indexes = set().union(*documents.values()) if documents else set()
    e = exclusion_entries.c
    condition: ColumnElement[bool] = e.date_of_birth.in_(births)
    if indexes:
        condition = condition | e.id.in_(select(exclusion_identifiers.c.entry_id).where(
            exclusion_identifiers.c.number_index.in_(indexes)))
    entries = conn.execute(select(e.id, e.name_key, e.date_of_birth).where(
        e.active, condition).order_by(e.id)).all()
    if not entries:
        return {}
    ids = [r.id for r in entries]
    listed: dict[int, set[str]] = {}
    for r in conn.execute(select(exclusion_identifiers).where(
            exclusion_identifiers.c.entry_id.in_(ids))):
        listed.setdefault(r.entry_id, set()).add(r.number_index)
    cleared = {(r.entry_id, r.patron_id) for r in conn.execute(
        select(exclusion_clearances).where(exclusion_clearances.c.entry_id.in_(ids)))}
    found = {}
    for pid, (key, born) in people.items():
        for r in entries:
            if (r.id, pid) in cleared:
                continue
            if (r.name_key == key and r.date_of_birth == born) or \
                    listed.get(r.id, set()) & documents.get(pid, set()):
                found[pid] = r.id
                break
    return found


def _patron_matches(conn: Connection, patron_ids: Iterable[int]) -> dict[int, int]:
    ids = sorted(set(patron_ids))
    if not ids:
        return {}
    people = {r.id: (name_key(r.legal_name), r.date_of_birth) for r in conn.execute(
        select(patrons.c.id, patrons.c.legal_name, patrons.c.date_of_birth).where(
            patrons.c.id.in_(ids)))}
    documents: dict[int, set[str]] = {}
    for r in conn.execute(select(patron_documents.c.patron_id, patron_documents.c.number_index)
                          .where(patron_documents.c.patron_id.in_(ids))):
        documents.setdefault(r.patron_id, set()).add(r.number_index)
    return _matches(conn, people, documents)


def matching_entry(conn: Connection, patron_id: int) -> int | None:
    """The id of the active entry this patron matches (the matching rule: module docstring),
    or None."""
    return _patron_matches(conn, [patron_id]).get(patron_id)


def is_excluded(conn: Connection, patron_id: int) -> bool:
    """Whether the patron is on the self-exclusion list (RCW 9.46.071)."""
    return matching_entry(conn, patron_id) is not None


def _excluded_accounts(postgres: bool) -> Select[Any]:
    """The statement of `excluded_accounts_ahead`, built once per dialect: the accounts
    `:ids` (PostgreSQL: an array, so that the statement does not change with their number)."""
    a, p, e, i, d = (accounts.c, patrons.c, exclusion_entries.c, exclusion_identifiers.c,
                     patron_documents.c)
    document = (select(i.entry_id).join(patron_documents, d.number_index == i.number_index)
                .where(i.entry_id == e.id, d.patron_id == p.id).exists())
    cleared = select(exclusion_clearances.c.id).where(
        exclusion_clearances.c.entry_id == e.id,
        exclusion_clearances.c.patron_id == p.id).exists()
    chosen = a.id == func.any(bindparam("ids", type_=postgresql.ARRAY(Integer))) \
        if postgres else a.id.in_(bindparam("ids", expanding=True))
    return (select(a.id, p.legal_name, e.id, e.name_key, e.date_of_birth == p.date_of_birth,
                   document)
            .select_from(accounts.join(patrons, p.id == a.patron_id).join(
                exclusion_entries, e.active & ((e.date_of_birth == p.date_of_birth) | document)))
            .where(chosen, ~cleared).order_by(a.id, e.id))


_EXCLUDED_ACCOUNTS = {postgres: _excluded_accounts(postgres) for postgres in (False, True)}


def excluded_accounts(conn: Connection, account_ids: Iterable[int]) -> dict[int, int]:
    """The accounts among `account_ids` whose patron is excluded, with the entry matched. An
    account with no patron matches nothing (the cage has not seen who it is)."""
    return excluded_accounts_ahead(conn, account_ids)()


def excluded_accounts_ahead(conn: Connection, account_ids: Iterable[int]
                            ) -> Callable[[], dict[int, int]]:
    """`excluded_accounts` in one statement read ahead (`pipeline.ahead`): it goes with the
    unit's next statement that is waited for and is read when the returned function is
    called (a deal's check of the players still seated, issue 25). The statement yields each
    account's patron and every active entry it may match, by date of birth or a document's
    blind index, leaving out those staff cleared, in the order of the entries; the matching
    rule itself (`_matches`) is applied here as there."""
    ids = sorted({a for a in account_ids if a > 0})
    if not ids:
        return dict
    postgres = conn.dialect.name == "postgresql"
    rows = ahead(conn, _EXCLUDED_ACCOUNTS[postgres], {"ids": ids}, planned_once=True)

    def found() -> dict[int, int]:
        matched: dict[int, int] = {}
        for account_id, legal_name, entry_id, key, born, by_document in rows():
            if account_id not in matched and (
                    by_document or (born and key == name_key(legal_name))):
                matched[account_id] = entry_id
        return matched
    return found


def person_matches(conn: Connection, legal_name: str, born: date) -> int | None:
    """The active entry a person who gives this name and date of birth matches, or None (for
    registration, before the room knows them as a patron)."""
    return _matches(conn, {0: (name_key(legal_name), born)}, {}).get(0)


# refusals ----------------------------------------------------------------------------------
STAFF_SENTENCE = {
    "sell": "Refused: this person is on the self-exclusion list (RCW 9.46.071): sell them no "
            "chips, tell them only that the room cannot serve them, and call the compliance "
            "officer.",
    "redeem": "Refused: this person is on the self-exclusion list (RCW 9.46.071): pay them "
              "nothing, keep the chips they present for the compliance officer (a breach, "
              "WAC 230-23-030), and tell them only that a manager will help.",
}


def refuse_at_cage(conn: Connection, player_id: int, what: str) -> None:
    """`Excluded`, with the sentence for the cashier, when the player's patron is excluded:
    `what` is "sell" or "redeem"."""
    if excluded_accounts(conn, [player_id]):
        raise Excluded(STAFF_SENTENCE[what])


def refuse_seat(conn: Connection, account_id: int) -> None:
    """`Excluded`, with the neutral sentence (the person asked, at a table in front of
    others), when the account's patron is excluded: no seat, whoever's guest they are."""
    if excluded_accounts(conn, [account_id]):
        raise Excluded(NEUTRAL)


def refuse_registration(storage: Storage, legal_name: str, born: str) -> None:
    """Registration (docs/compliance.md): the name and date of birth a person gives are checked
    against the list; a match is refused with the neutral sentence, and audited for the
    compliance officer (`exclusion.match`, with the entry's id, not the name). Nothing given is
    nothing checked: the cage checks identity before any chips or seat."""
    name, day = " ".join(legal_name.split()), born.strip()
    if not name and not day:
        return
    if not (name and day):
        raise ExclusionError("Write both your legal name and your date of birth.")
    try:
        when = date.fromisoformat(day)
    except ValueError:
        raise ExclusionError("Write your date of birth as a date, e.g. 1980-12-09.") from None
    with storage.read() as conn:
        entry_id = person_matches(conn, name, when)
    if entry_id is not None:
        with storage.unit() as conn:
            audit.append(conn, "room", "exclusion.match",
                         {"entry": entry_id, "place": "registration"})
        raise Excluded(NEUTRAL)


# enrolment in the room ---------------------------------------------------------------------
def enrol(conn: Connection, staff: Account, patron_id: int, years: int,
          now: datetime | None = None) -> Entry:
    """Record a patron's self-exclusion in the room (WAC 230-23-030): the owner or the
    compliance officer, for a patron whose identity document the cage checked; the form is due
    at the commission within the profile's hours. Audited as `exclusion.enrol`."""
    _require_reader(staff)
    at = _now(now)
    if years not in PERIODS:
        raise ExclusionError("A self-exclusion lasts 1, 3, 5 or 10 years.")
    p = conn.execute(select(patrons).where(patrons.c.id == patron_id)).first()
    if p is None:
        raise NotFound("There is no such patron.")
    docs = [r.number_index for r in conn.execute(
        select(patron_documents.c.number_index, patron_documents.c.expires).where(
            patron_documents.c.patron_id == patron_id)) if r.expires >= at.date()]
    if not docs:
        raise ExclusionError("Check the person's identity first: the cage records an identity "
                             "document that has not expired.")
    rule, _ = deadlines(at.date())
    period = f"{years} year" + ("s" if years > 1 else "")
    listed = Listed(p.legal_name, name_key(p.legal_name), p.date_of_birth, period,
                    tuple(sorted(set(docs))))
    entry_id = int(conn.execute(insert(exclusion_entries).values(
        source="room", entry_key=listed.entry_key, legal_name=p.legal_name,
        name_key=listed.name_key, date_of_birth=p.date_of_birth, period=period, active=True,
        patron_id=patron_id, enrolled_by=staff.username, enrolled_at=at,
        form_due=at + timedelta(hours=rule.forward_hours)).returning(exclusion_entries.c.id)
    ).scalar_one())
    _identifiers(conn, entry_id, listed.identifiers)
    close_marketing(conn, patron_id, "self-exclusion", at)
    audit.append(conn, staff.username, "exclusion.enrol", {
        "entry": entry_id, "patron": patron_id, "period": period,
        "form_due": (at + timedelta(hours=rule.forward_hours)).isoformat()})
    return entry(conn, entry_id)


def _entry(r: Any) -> Entry:
    return Entry(r.id, r.source, r.legal_name, r.date_of_birth, r.period, bool(r.active),
                 r.patron_id, None if r.form_due is None else _aware(r.form_due),
                 r.forwarded_by, None if r.forwarded_at is None else _aware(r.forwarded_at))


def entry(conn: Connection, entry_id: int) -> Entry:
    r = conn.execute(select(exclusion_entries).where(exclusion_entries.c.id == entry_id)).first()
    if r is None:
        raise NotFound("There is no such self-exclusion entry.")
    return _entry(r)


def entries(conn: Connection, staff: Account, active: bool = True) -> list[Entry]:
    """The people on the list (confidential: the owner and the compliance officer only)."""
    _require_reader(staff)
    q = select(exclusion_entries)
    if active:
        q = q.where(exclusion_entries.c.active)
    return [_entry(r) for r in conn.execute(q.order_by(exclusion_entries.c.name_key,
                                                       exclusion_entries.c.id))]


def mark_forwarded(conn: Connection, staff: Account, entry_id: int,
                   now: datetime | None = None) -> Entry:
    """A person sent an in-room enrolment's form to the commission; audited as
    `exclusion.forwarded`."""
    _require_reader(staff)
    e = entry(conn, entry_id)
    if e.source != "room":
        raise ExclusionError("Only an enrolment taken in the room has a form to forward.")
    if e.forwarded_at is not None:
        raise ExclusionError(f"This form was already marked forwarded by {e.forwarded_by}.")
    _mark_sent(conn, staff, exclusion_entries, entry_id, "forwarded", e.form_due, now)
    return entry(conn, entry_id)


def _mark_sent(conn: Connection, staff: Account, table: Table, row_id: int, done: str,
               due: datetime | None, now: datetime | None) -> None:
    """Record that `staff` sent the commission what row `row_id` of `table` owes (`done`:
    "forwarded" or "notified"), audited as `exclusion.<done>` with whether it was late."""
    at = _now(now)
    conn.execute(update(table).where(table.c.id == row_id).values(
        {f"{done}_by": staff.username, f"{done}_at": at}))
    audit.append(conn, staff.username, f"exclusion.{done}",
                 {"row": row_id, "late": due is not None and at > due})


def clear_match(conn: Connection, staff: Account, entry_id: int, patron_id: int,
                reason: str) -> None:
    """Staff found that a patron who matched an entry is another person (a false positive):
    the match no longer refuses them. Audited as `exclusion.cleared`, with the reason."""
    _require_reader(staff)
    entry(conn, entry_id)
    why = " ".join(reason.split())[:400]
    if not why:
        raise ExclusionError("Write why this patron is not the person on the list (e.g. the "
                             "document that shows it).")
    conn.execute(insert(exclusion_clearances).values(
        entry_id=entry_id, patron_id=patron_id, reason=why, cleared_by=staff.username,
        cleared_at=datetime.now(UTC)))
    audit.append(conn, staff.username, "exclusion.cleared",
                 {"entry": entry_id, "patron": patron_id, "reason": why})


# marketing ---------------------------------------------------------------------------------
def close_marketing(conn: Connection, patron_id: int, reason: str,
                    now: datetime | None = None) -> None:
    """No player club, marketing or comp for this patron any more (WAC 230-23-020)."""
    if conn.execute(select(marketing_closed.c.patron_id).where(
            marketing_closed.c.patron_id == patron_id)).first() is None:
        conn.execute(insert(marketing_closed).values(patron_id=patron_id, reason=reason,
                                                     since=_now(now)))


def marketing_allowed(conn: Connection, patron_id: int) -> bool:
    """Whether anything of a player club, marketing or comps may go to this patron: never to
    one who is or was excluded (WAC 230-23-020). Any future marketing reads this."""
    return conn.execute(select(marketing_closed.c.patron_id).where(
        marketing_closed.c.patron_id == patron_id)).first() is None and \
        not is_excluded(conn, patron_id)


def _close_marketing_of_matches(conn: Connection) -> None:
    closed = set(conn.execute(select(marketing_closed.c.patron_id)).scalars())
    others = [p for p in conn.execute(select(patrons.c.id)).scalars() if p not in closed]
    for pid in _patron_matches(conn, others):
        close_marketing(conn, pid, "self-exclusion")


# breaches ----------------------------------------------------------------------------------
def confiscate(conn: Connection, account_id: int, at_stake: list[tuple[str, Cents]], *,
               place: str, table_id: int | None, entry_id: int | None, key: str,
               now: datetime | None = None) -> Breach:
    """An excluded person found playing (WAC 230-23-030): the money and chips `at_stake`
    (ledger accounts and amounts) go to `CONFISCATED`, the breach is recorded with its notice
    to the commission due within the profile's hours, and marketing to them is closed.
    Audited as `exclusion.breach` (account, place, amount; no name)."""
    at = _now(now)
    rule, _ = deadlines(at.date())
    total = sum(amount for _, amount in at_stake if amount > 0)
    tx_id = None
    if total:
        tx_id = ledger.post(conn, f"excluded:{key}", CONFISCATION,
                            [*((name, -amount) for name, amount in at_stake if amount > 0),
                             (CONFISCATED, total)], actor="room",
                            memo=f"self-exclusion breach at {place}").tx_id
    patron_id = conn.execute(select(accounts.c.patron_id).where(accounts.c.id == account_id)
                             ).scalar_one_or_none()
    breach_id = int(conn.execute(insert(exclusion_breaches).values(
        account_id=account_id, patron_id=patron_id, entry_id=entry_id, table_id=table_id,
        place=place[:120], confiscated=total, tx_id=tx_id, found_at=at,
        notice_due=at + timedelta(hours=rule.notice_hours)).returning(exclusion_breaches.c.id)
    ).scalar_one())
    if patron_id is not None:
        close_marketing(conn, patron_id, "self-exclusion", at)
    audit.append(conn, "room", "exclusion.breach", {
        "breach": breach_id, "account": account_id, "place": place[:120], "table": table_id,
        "confiscated": total, "tx": tx_id})
    return breach(conn, breach_id)


def breach_at_cage(conn: Connection, staff: Account, username: str,
                   now: datetime | None = None) -> Breach:
    """A listed person presented chips at the cage (the redemption was refused): the owner or
    the compliance officer confiscates the chips the person holds at the cage (their wallet)
    as a breach, with its 72-hour notice (WAC 230-23-030). Refused for anyone not listed."""
    _require_reader(staff)
    r = conn.execute(select(accounts.c.id).where(
        accounts.c.username == username.strip().lower()[:40])).first()
    if r is None:
        raise NotFound("There is no such player.")
    found = excluded_accounts(conn, [r.id])
    if not found:
        raise ExclusionError(f"{username.strip()[:40]} is not on the self-exclusion list: "
                             "nothing is confiscated.")
    wallet = ledger.wallet(r.id)
    at = _now(now)
    return confiscate(conn, r.id, [(wallet, ledger.balance(conn, wallet))], place="the cage",
                      table_id=None, entry_id=found[r.id], key=f"cage:{r.id}:{at.isoformat()}",
                      now=at)


def _breach(r: Any) -> Breach:
    return Breach(r.id, r.account_id, r.username, r.patron_id, r.table_id, r.place,
                  int(r.confiscated), _aware(r.found_at), _aware(r.notice_due), r.notified_by,
                  None if r.notified_at is None else _aware(r.notified_at))


def _breaches() -> Any:
    return select(exclusion_breaches, accounts.c.username).join(
        accounts, accounts.c.id == exclusion_breaches.c.account_id)


def breach(conn: Connection, breach_id: int) -> Breach:
    r = conn.execute(_breaches().where(exclusion_breaches.c.id == breach_id)).first()
    if r is None:
        raise NotFound("There is no such breach.")
    return _breach(r)


def mark_notified(conn: Connection, staff: Account, breach_id: int,
                  now: datetime | None = None) -> Breach:
    """A person sent the commission the breach's notice; audited as `exclusion.notified`."""
    _require_reader(staff)
    b = breach(conn, breach_id)
    if b.notified_at is not None:
        raise ExclusionError(f"This notice was already marked sent by {b.notified_by}.")
    _mark_sent(conn, staff, exclusion_breaches, breach_id, "notified", b.notice_due, now)
    return breach(conn, breach_id)


def worklist(conn: Connection, staff: Account) -> Worklist:
    """The enrolment forms not yet forwarded and the breach notices not yet sent, soonest due
    first (owner and compliance officer only)."""
    _require_reader(staff)
    forms = conn.execute(select(exclusion_entries).where(
        exclusion_entries.c.source == "room", exclusion_entries.c.forwarded_at.is_(None))
        .order_by(exclusion_entries.c.form_due, exclusion_entries.c.id))
    notices = conn.execute(_breaches().where(exclusion_breaches.c.notified_at.is_(None))
                           .order_by(exclusion_breaches.c.notice_due,
                                     exclusion_breaches.c.id))
    return Worklist(tuple(_entry(r) for r in forms), tuple(_breach(r) for r in notices))
