"""Patrons: the people the cage has identified, apart from the web log-in (issue 22, "Patrons and
identity"; 31 CFR 1010.312), and their age (issue 21; WAC 230-06-010).

A patron has a legal name, an address, a date of birth, a taxpayer id and the identity
documents staff examined (kind, number, issuer, expiry, who checked it and on which day). A
walk-in who never registers online is a patron; a player's account is linked to one
(`link_account`). Taxpayer ids and document numbers are stored only encrypted under the identity
key (`cardroom.room.storage.identity_key`, kept outside the database), each with a keyed blind
index so
that `find` can look a number up; nothing here puts them in clear in the audit log, and only the
compliance officer may `reveal` them.

Who may do what: the cage (the cashier, the owner) and the compliance officer record patrons and
documents and link accounts; `reveal` needs `Permission.READ_IDENTITIES`, which only the
compliance role holds (not the owner: docs/compliance.md). `get`, `find` and `patron_of` check
no role: their callers do (the cage page needs `Permission.CAGE`), and what they return holds
no secret.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, Row

from cardroom.errors import CardroomError
from cardroom.profile import profile_in_force
from cardroom.room.people.accounts import (
    PERMISSIONS,
    Account,
    NewCredentials,
    Permission,
    Role,
    insert_account,
)
from cardroom.room.storage import audit
from cardroom.room.storage.errors import NotFound, PermissionDenied
from cardroom.room.storage.identity_key import IdentityKey
from cardroom.room.storage.schema import accounts, patron_documents, patrons
from cardroom.room.storage.settings import GamblingClock

DOCUMENT_KINDS: dict[str, str] = {
    "driver-licence": "driver's licence", "state-id": "state identification card",
    "passport": "passport", "military-id": "military identification card",
    "tribal-id": "tribal identification card", "alien-registration": "alien registration card"}
"""The documents the cage accepts to verify identity (31 CFR 1010.312: a document "normally
acceptable within the banking community as a means of identification when cashing checks for
nondepositors", e.g. a driver's licence or a passport), by key, in words."""
MAX_NAME = 200
MAX_ADDRESS = 400
MAX_ISSUER = 120
MAX_NUMBER = 40
OLDEST_YEARS = 130
SEARCH_LIMIT = 50


class PatronError(CardroomError):
    """A patron's details refused, in one sentence for the staff member."""


class UnderAge(PermissionDenied):
    """A person under the profile's minimum age (WAC 230-06-010), refused a sale, a seat or a
    payment."""


class IdentityNeeded(PermissionDenied):
    """A player whose identity the cage has not seen (no linked patron), refused a seat or a
    sale until it has."""


@dataclass(frozen=True)
class Document:
    """An identity document as staff may see it: never its number (`reveal` gives that)."""

    id: int
    kind: str
    issuer: str
    expires: date
    checked_by: str
    checked_on: date

    @property
    def kind_words(self) -> str:
        return DOCUMENT_KINDS.get(self.kind, self.kind)


@dataclass(frozen=True)
class Patron:
    """A patron as staff may see them: no taxpayer id or document number in clear."""

    id: int
    legal_name: str
    address: str
    date_of_birth: date
    has_taxpayer_id: bool
    documents: tuple[Document, ...]
    created_by: str

    def age_on(self, day: date) -> int:
        return age_on(self.date_of_birth, day)


@dataclass(frozen=True)
class NewDocument:
    """A document the staff member is looking at: `kind` one of `DOCUMENT_KINDS`."""

    kind: str
    number: str
    issuer: str
    expires: date


@dataclass(frozen=True)
class NewPatron:
    """What the staff member writes to record a patron (the documents checked today)."""

    legal_name: str
    address: str
    date_of_birth: date
    taxpayer_id: str | None = None
    documents: tuple[NewDocument, ...] = ()


@dataclass(frozen=True)
class RevealedDocument:
    id: int
    kind: str
    number: str
    issuer: str
    expires: date


@dataclass(frozen=True)
class PatronSecrets:
    """A patron's taxpayer id and document numbers in clear: for the compliance officer only."""

    patron_id: int
    taxpayer_id: str | None
    documents: tuple[RevealedDocument, ...]


# normalising ---------------------------------------------------------------------------------
def fold_name(name: str) -> str:
    """A name as searched: accents dropped, lower case, one space between words."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return " ".join(re.sub(r"[^a-z0-9' -]", " ", plain.lower()).split())


def normalise_number(number: str) -> str:
    """A document number as indexed: letters and digits only, upper case ("d 123-45" and
    "D12345" are the same number)."""
    return re.sub(r"[^0-9A-Z]", "", number.upper())


def normalise_taxpayer_id(taxpayer_id: str) -> str:
    """Nine digits (a social security number, an ITIN or an EIN), dashes and spaces dropped."""
    digits = re.sub(r"[\s-]", "", taxpayer_id)
    if not re.fullmatch(r"\d{9}", digits):
        raise PatronError("A taxpayer id has nine digits (a social security number or an "
                          "ITIN).")
    return digits


def age_on(born: date, day: date) -> int:
    """Whole years from `born` to `day`: a person is a year older on their birthday; one born
    on 29 February is a year older on 1 March in a common year (docs/compliance.md)."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def minimum_age(day: date) -> int:
    """The profile's minimum age on `day` (WAC 230-06-010 under the state profile)."""
    return profile_in_force().minimum_age.on(day).years


def gambling_today() -> date:
    """The room's gambling day now (`settings.GamblingClock`): the day ages are judged on."""
    return GamblingClock.from_env().day_of(datetime.now(UTC))


def _text(value: str, most: int, what: str) -> str:
    clean = " ".join(value.split())
    if not clean:
        raise PatronError(f"Write the patron's {what}.")
    if len(clean) > most:
        raise PatronError(f"The {what} is too long: at most {most} characters.")
    return clean


def _born(born: date, today: date) -> date:
    if born > today:
        raise PatronError("The date of birth is in the future: check the document.")
    if age_on(born, today) > OLDEST_YEARS:
        raise PatronError("The date of birth is more than 130 years ago: check the document.")
    return born


def _may_record(staff: Account) -> None:
    if not (staff.may(Permission.CAGE) or staff.may(Permission.READ_IDENTITIES)):
        staff.require(Permission.CAGE)


def _today(today: date | None) -> date:
    return today or datetime.now(UTC).date()


def taxpayer_context(patron_id: int) -> str:
    return f"patron:{patron_id}:taxpayer"


def document_context(patron_id: int) -> str:
    return f"patron:{patron_id}:document"


# reading -------------------------------------------------------------------------------------
def _documents(conn: Connection, patron_id: int) -> tuple[Document, ...]:
    rows = conn.execute(select(patron_documents).where(
        patron_documents.c.patron_id == patron_id).order_by(patron_documents.c.id))
    return tuple(Document(r.id, r.kind, r.issuer, r.expires, r.checked_by, r.checked_on)
                 for r in rows)


def _patron(conn: Connection, r: Row[Any]) -> Patron:
    return Patron(r.id, r.legal_name, r.address, r.date_of_birth, r.taxpayer_ct is not None,
                  _documents(conn, r.id), r.created_by)


def get(conn: Connection, patron_id: int) -> Patron:
    """The patron; NotFound if there is none."""
    r = conn.execute(select(patrons).where(patrons.c.id == patron_id)).first()
    if r is None:
        raise NotFound("There is no such patron.")
    return _patron(conn, r)


def find(conn: Connection, key: IdentityKey, *, name: str | None = None,
         born: date | None = None, document: str | None = None) -> list[Patron]:
    """The patrons matching every criterion given: a name (every word of it begins a word of
    the legal name, accents and case ignored), a date of birth, a document number (looked up
    by its blind index: the exact number, spaces and dashes ignored). At most 50, by name."""
    query = select(patrons)
    if name is not None and fold_name(name):
        for word in fold_name(name).split():
            query = query.where(patrons.c.name_key.startswith(word, autoescape=True)
                                | patrons.c.name_key.contains(" " + word, autoescape=True))
    if born is not None:
        query = query.where(patrons.c.date_of_birth == born)
    if document is not None and normalise_number(document):
        index = key.blind("document", normalise_number(document))
        query = query.where(patrons.c.id.in_(select(patron_documents.c.patron_id).where(
            patron_documents.c.number_index == index)))
    if (name is None or not fold_name(name)) and born is None and \
            (document is None or not normalise_number(document)):
        return []
    rows = conn.execute(query.order_by(patrons.c.name_key, patrons.c.id).limit(SEARCH_LIMIT))
    return [_patron(conn, r) for r in rows]


def patron_of(conn: Connection, account_id: int) -> Patron | None:
    """The patron a player's account is linked to, if any."""
    pid = conn.execute(select(accounts.c.patron_id).where(accounts.c.id == account_id)
                       ).scalar_one_or_none()
    return None if pid is None else get(conn, pid)


def accounts_of(conn: Connection, patron_id: int) -> list[Account]:
    """The player accounts linked to a patron, oldest first."""
    rows = conn.execute(select(accounts).where(accounts.c.patron_id == patron_id)
                        .order_by(accounts.c.id))
    return [Account(r.id, r.username, Role(r.role)) for r in rows if r.active]


def identity_on_file(conn: Connection, patron_id: int, today: date) -> bool:
    """Whether the identity 31 CFR 1010.312 asks for before a transaction over $10,000 is on
    file: name, address, date of birth, taxpayer id, and an identity document staff examined
    that has not expired on `today`."""
    p = get(conn, patron_id)
    return bool(p.legal_name and p.address and p.date_of_birth and p.has_taxpayer_id and any(
        d.expires >= today and d.checked_by for d in p.documents))


# writing -------------------------------------------------------------------------------------
def _document_values(staff: Account, patron_id: int, doc: NewDocument, key: IdentityKey,
                     checked_on: date) -> dict[str, object]:
    if doc.kind not in DOCUMENT_KINDS:
        raise PatronError("Choose the kind of identity document: "
                          + ", ".join(DOCUMENT_KINDS.values()) + ".")
    number = normalise_number(doc.number)
    if not number or len(number) > MAX_NUMBER:
        raise PatronError("Write the document's number as it is printed on it.")
    if doc.expires < checked_on:
        raise PatronError(f"This document expired on {doc.expires.isoformat()}: ask for one "
                          "that is still valid.")
    return {"patron_id": patron_id, "kind": doc.kind,
            "number_ct": key.encrypt(number, document_context(patron_id)),
            "number_index": key.blind("document", number),
            "issuer": _text(doc.issuer, MAX_ISSUER, "document's issuer"),
            "expires": doc.expires, "checked_by": staff.username, "checked_on": checked_on,
            "created_at": datetime.now(UTC)}


def _taxpayer_values(patron_id: int, taxpayer_id: str, key: IdentityKey) -> dict[str, str]:
    tin = normalise_taxpayer_id(taxpayer_id)
    return {"taxpayer_ct": key.encrypt(tin, taxpayer_context(patron_id)),
            "taxpayer_index": key.blind("taxpayer", tin)}


def create(conn: Connection, staff: Account, new: NewPatron, key: IdentityKey,
           today: date | None = None) -> Patron:
    """Record a patron (and the documents staff checked `today`); audited as `patron.create`
    with the patron's id and name and which things were recorded, never the numbers."""
    _may_record(staff)
    day = _today(today)
    name = _text(new.legal_name, MAX_NAME, "legal name")
    address = _text(new.address, MAX_ADDRESS, "address")
    born = _born(new.date_of_birth, day)
    now = datetime.now(UTC)
    if new.taxpayer_id is not None and new.taxpayer_id.strip():
        normalise_taxpayer_id(new.taxpayer_id)  # refused before anything is written
    pid = int(conn.execute(insert(patrons).values(
        legal_name=name, name_key=fold_name(name), address=address, date_of_birth=born,
        created_by=staff.username, created_at=now, updated_at=now).returning(patrons.c.id)
    ).scalar_one())
    if new.taxpayer_id is not None and new.taxpayer_id.strip():
        conn.execute(update(patrons).where(patrons.c.id == pid).values(
            **_taxpayer_values(pid, new.taxpayer_id, key)))
    for doc in new.documents:
        conn.execute(insert(patron_documents).values(
            **_document_values(staff, pid, doc, key, day)))
    audit.append(conn, staff.username, "patron.create", {
        "patron": pid, "name": name,
        "taxpayer_id": bool(new.taxpayer_id and new.taxpayer_id.strip()),
        "documents": [d.kind for d in new.documents]})
    return get(conn, pid)


def add_document(conn: Connection, staff: Account, patron_id: int, kind: str, number: str,
                 issuer: str, expires: date, key: IdentityKey,
                 checked_on: date | None = None) -> Patron:
    """Record an identity document `staff` examined on `checked_on` (today); audited as
    `patron.document` with its kind and issuer, never its number."""
    _may_record(staff)
    get(conn, patron_id)
    values = _document_values(staff, patron_id, NewDocument(kind, number, issuer, expires), key,
                              _today(checked_on))
    doc_id = conn.execute(insert(patron_documents).values(**values)
                          .returning(patron_documents.c.id)).scalar_one()
    audit.append(conn, staff.username, "patron.document", {
        "patron": patron_id, "document": doc_id, "kind": kind, "issuer": values["issuer"],
        "expires": expires.isoformat()})
    return get(conn, patron_id)


def set_taxpayer_id(conn: Connection, staff: Account, patron_id: int, taxpayer_id: str,
                    key: IdentityKey) -> Patron:
    """Record (or correct) a patron's taxpayer id, encrypted; audited as `patron.taxpayer-id`
    without the number."""
    _may_record(staff)
    had = get(conn, patron_id).has_taxpayer_id
    conn.execute(update(patrons).where(patrons.c.id == patron_id).values(
        **_taxpayer_values(patron_id, taxpayer_id, key), updated_at=datetime.now(UTC)))
    audit.append(conn, staff.username, "patron.taxpayer-id",
                 {"patron": patron_id, "replaced": had})
    return get(conn, patron_id)


def link_account(conn: Connection, staff: Account, account_id: int, patron_id: int) -> None:
    """Link a player's account (or the owner's, who may also play) to their patron (the cage
    saw their identity); audited as `patron.link`. An account linked to another patron is
    refused: that is a different person, or a mistake for the compliance officer."""
    _may_record(staff)
    get(conn, patron_id)
    r = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
    if r is None or not r.active:
        raise NotFound("There is no such player.")
    if Permission.PLAY not in PERMISSIONS[Role(r.role)]:
        raise PatronError(f"{r.username} is not a player: only those who may play are linked "
                          "to patrons.")
    if r.patron_id == patron_id:
        return
    if r.patron_id is not None:
        raise PatronError(f"{r.username} is already linked to another patron.")
    conn.execute(update(accounts).where(accounts.c.id == account_id).values(
        patron_id=patron_id))
    audit.append(conn, staff.username, "patron.link",
                 {"patron": patron_id, "player": r.username})


def reveal(conn: Connection, staff: Account, patron_id: int, key: IdentityKey) -> PatronSecrets:
    """A patron's taxpayer id and document numbers in clear, for the compliance officer only
    (`Permission.READ_IDENTITIES`); audited as `patron.revealed`, without the values. A refusal
    is audited too (`patron.reveal-refused`) by the caller's refusal log."""
    staff.require(Permission.READ_IDENTITIES)
    clear = reveal_for_form(conn, patron_id, key)
    audit.append(conn, staff.username, "patron.revealed",
                 {"patron": patron_id, "taxpayer_id": clear.taxpayer_id is not None,
                  "documents": [d.id for d in clear.documents]})
    return clear


def reveal_for_form(conn: Connection, patron_id: int, key: IdentityKey) -> PatronSecrets:
    """The taxpayer id and document numbers in clear, with no role checked and nothing
    audited: for the regulator's export of Form W-2G (`room.w2g.forms`), whose caller holds
    the identity key file (the command line) or checked the compliance role, and audits the
    export."""
    r = conn.execute(select(patrons).where(patrons.c.id == patron_id)).first()
    if r is None:
        raise NotFound("There is no such patron.")
    tin = None if r.taxpayer_ct is None else key.decrypt(r.taxpayer_ct,
                                                          taxpayer_context(patron_id))
    docs = tuple(
        RevealedDocument(d.id, d.kind, key.decrypt(d.number_ct, document_context(patron_id)),
                         d.issuer, d.expires)
        for d in conn.execute(select(patron_documents).where(
            patron_documents.c.patron_id == patron_id).order_by(patron_documents.c.id)))
    return PatronSecrets(patron_id, tin, docs)


# age -----------------------------------------------------------------------------------------
AGE_WORDS = {"sell": "sold chips", "seat": "seated at a table", "pay": "paid"}


def refuse_under_age(patron: Patron, day: date, what: str) -> None:
    """UnderAge, in a sentence for the staff member or the player, when `patron` is under the
    profile's minimum age on the gambling day `day` (WAC 230-06-010): `what` is "sell",
    "seat" or "pay"."""
    least = minimum_age(day)
    if patron.age_on(day) < least:
        raise UnderAge(f"Refused: nobody under {least} may be {AGE_WORDS[what]} in this "
                       "room.")


def require_patron_of_age(conn: Connection, account_id: int, day: date, what: str) -> Patron:
    """The patron of a player's account, who is of age on `day`; IdentityNeeded when the
    account has none (the cage has not seen their identity), UnderAge when they are under
    the minimum age."""
    patron = patron_of(conn, account_id)
    if patron is None:
        raise IdentityNeeded("Refused: the cage has not yet seen this player's identity: an "
                             "identity document is shown at the cage first.")
    refuse_under_age(patron, day, what)
    return patron


def open_walk_in(conn: Connection, staff: Account, patron_id: int) -> Account:
    """The player account that holds a walk-in patron's chips (docs/compliance.md): made by
    the cage, linked to the patron, with no password (nobody logs in as it); the patron's
    existing walk-in account if they have one. Audited as `patron.walk-in`."""
    _may_record(staff)
    get(conn, patron_id)
    name = f"walkin_{patron_id}"
    r = conn.execute(select(accounts).where(accounts.c.username == name)).first()
    if r is not None:
        return Account(r.id, r.username, Role(r.role))
    account = insert_account(conn, NewCredentials(name, WALK_IN_PASSWORD), Role.PLAYER,
                             actor=staff.username, detail={"walk_in": patron_id})
    conn.execute(update(accounts).where(accounts.c.id == account.id).values(
        patron_id=patron_id))
    audit.append(conn, staff.username, "patron.link",
                 {"patron": patron_id, "player": account.username})
    return account


def open_account(conn: Connection, staff: Account, patron_id: int, made: NewCredentials
                 ) -> Account:
    """A player account the person logs in with, opened for them by the cage (issue 23: a
    front desk opens accounts; the self-registration back-off does not apply to staff) from
    credentials already checked and hashed (`accounts.new_credentials`), linked to the patron
    whose identity the cashier is holding. Audited as `account.create` by `staff`, naming
    the patron, and `patron.link`."""
    _may_record(staff)
    get(conn, patron_id)
    account = insert_account(conn, made, Role.PLAYER, actor=staff.username,
                             detail={"patron": patron_id})
    link_account(conn, staff, account.id, patron_id)
    return account


WALK_IN_PASSWORD = "!walk-in: no password"
"""Stored in place of a password hash for a walk-in's account: no password matches it."""
