"""Patrons and identity (issue 22; 31 CFR 1010.312) and age (issue 21; WAC 230-06-010): the
patron record apart from the log-in, taxpayer ids and document numbers encrypted at rest under
a key outside the database and found by their blind index, shown only to the compliance
officer. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select, text

from cardroom.errors import CardroomError
from cardroom.room.backup import backup
from cardroom.room.people import patrons
from cardroom.room.people.accounts import (
    Account,
    Role,
    authenticate,
    create_account,
    new_credentials,
)
from cardroom.room.people.patrons import NewDocument, NewPatron, PatronError
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.storage.identity_key import IdentityKey, IdentityKeyError
from cardroom.room.storage.schema import patron_documents
from cardroom.room.storage.schema import patrons as patrons_table

from .tampering import url_of

KEY = IdentityKey(bytes(range(32)))
TODAY = date(2026, 3, 2)
TIN = "123-45-6789"
LICENCE = "WDL-AB12 3CD"


def staff(storage: Storage) -> dict[str, Account]:
    with storage.unit() as conn:
        return {name: create_account(conn, name, "correct horse battery staple", role)
                for name, role in (("olivia", Role.OWNER), ("cathy", Role.CASHIER),
                                   ("connie", Role.COMPLIANCE), ("alice", Role.PLAYER),
                                   ("audrey", Role.AUDITOR))}


def walk_in(name: str = "Grace Hopper", born: date = date(1980, 12, 9),
            number: str = LICENCE, tin: str | None = TIN,
            expires: date = date(2030, 1, 1)) -> NewPatron:
    return NewPatron(name, "1 Main St, Tacoma WA 98402", born, tin,
                     (NewDocument("driver-licence", number, "Washington", expires),))


def test_patron_record_apart_from_the_login_holds_no_secret_in_clear(storage: Storage) -> None:
    """31 CFR 1010.312 (name, address, date of birth, taxpayer id, a document examined): a
    walk-in is a patron without an account; the record staff see has no number in clear, and
    the database holds ciphertext only."""
    p = staff(storage)
    with storage.unit() as conn:
        grace = patrons.create(conn, p["cathy"], walk_in(), KEY, TODAY)
    assert grace.legal_name == "Grace Hopper" and grace.has_taxpayer_id
    assert grace.date_of_birth == date(1980, 12, 9)
    assert [(d.kind, d.issuer, d.checked_by, d.checked_on) for d in grace.documents] == [
        ("driver-licence", "Washington", "cathy", TODAY)]
    assert "6789" not in repr(grace) and "AB12" not in repr(grace)
    with storage.read() as conn:
        row = conn.execute(select(patrons_table)).one()
        doc = conn.execute(select(patron_documents)).one()
        dump = " ".join(str(v) for v in (*row, *doc))
        log = " ".join(r[0] for r in conn.execute(text("SELECT detail FROM audit_log")))
    assert row.taxpayer_ct.startswith("v1:") and doc.number_ct.startswith("v1:")
    for clear in ("123456789", "123-45-6789", "WDLAB123CD", "AB12"):
        assert clear not in dump and clear not in log


def test_blind_index_finds_a_patron_by_document_number_name_or_birth(storage: Storage) -> None:
    """Issue 22: the cashier finds a patron by name, date of birth or document number; the
    number is found through its keyed blind index (spaces, dashes and case ignored), not by
    decrypting every row, and another key finds nothing."""
    p = staff(storage)
    with storage.unit() as conn:
        grace = patrons.create(conn, p["cathy"], walk_in(), KEY, TODAY)
        ada = patrons.create(conn, p["cathy"], walk_in("Ada Lovelace", date(1990, 12, 10),
                                                       "X 999", None), KEY, TODAY)
    with storage.read() as conn:
        assert [q.id for q in patrons.find(conn, KEY, document="wdl ab12-3cd")] == [grace.id]
        assert patrons.find(conn, IdentityKey.generate(), document=LICENCE) == []
        assert [q.id for q in patrons.find(conn, KEY, name="hopper")] == [grace.id]
        assert [q.id for q in patrons.find(conn, KEY, name="ada LOVE")] == [ada.id]
        assert [q.id for q in patrons.find(conn, KEY, name="a")] == [ada.id]
        assert [q.id for q in patrons.find(conn, KEY, born=date(1990, 12, 10))] == [ada.id]
        assert patrons.find(conn, KEY, name="grace", born=date(1990, 12, 10)) == []
        assert patrons.find(conn, KEY, name="100%_") == []
        assert patrons.find(conn, KEY) == []


def test_only_the_compliance_officer_reveals_and_it_is_audited(storage: Storage) -> None:
    """Issue 22: taxpayer ids and document numbers are shown to the compliance role only (not
    the cashier, the auditor or even the owner, docs/compliance.md); a reveal is audited
    without the values."""
    p = staff(storage)
    with storage.unit() as conn:
        grace = patrons.create(conn, p["cathy"], walk_in(), KEY, TODAY)
    for who in ("olivia", "cathy", "audrey", "alice"):
        with storage.unit() as conn, pytest.raises(PermissionDenied, match="may not see"):
            patrons.reveal(conn, p[who], grace.id, KEY)
    with storage.unit() as conn:
        secrets = patrons.reveal(conn, p["connie"], grace.id, KEY)
    assert secrets.taxpayer_id == "123456789"
    assert [(d.kind, d.number) for d in secrets.documents] == [("driver-licence", "WDLAB123CD")]
    with storage.read() as conn:
        last = conn.execute(text("SELECT actor, action, detail FROM audit_log "
                                 "ORDER BY seq DESC")).first()
    assert last is not None and last[:2] == ("connie", "patron.revealed")
    assert "123456789" not in last[2] and "WDLAB" not in last[2]
    with storage.unit() as conn, pytest.raises(IdentityKeyError, match="does not open"):
        patrons.reveal(conn, p["connie"], grace.id, IdentityKey.generate())


def test_identity_on_file_needs_every_item_and_an_unexpired_document(storage: Storage) -> None:
    """31 CFR 1010.312: before a currency transaction over $10,000 the room verifies and
    records name, address, taxpayer id and an identity document; one that has expired on the
    day does not count."""
    p = staff(storage)
    with storage.unit() as conn:
        no_tin = patrons.create(conn, p["cathy"], walk_in(tin=None), KEY, TODAY)
        no_doc = patrons.create(conn, p["cathy"], NewPatron(
            "Ada Lovelace", "2 Pine St", date(1990, 1, 1), TIN), KEY, TODAY)
        assert not patrons.identity_on_file(conn, no_tin.id, TODAY)
        assert not patrons.identity_on_file(conn, no_doc.id, TODAY)
        patrons.set_taxpayer_id(conn, p["cathy"], no_tin.id, "987654321", KEY)
        assert patrons.identity_on_file(conn, no_tin.id, TODAY)
        assert patrons.identity_on_file(conn, no_tin.id, date(2030, 1, 1))
        assert not patrons.identity_on_file(conn, no_tin.id, date(2030, 1, 2))
        patrons.add_document(conn, p["connie"], no_doc.id, "passport", "P1234", "USA",
                             date(2031, 5, 1), KEY, TODAY)
        assert patrons.identity_on_file(conn, no_doc.id, TODAY)
        with pytest.raises(PatronError, match="expired on 2026-03-01"):
            patrons.add_document(conn, p["cathy"], no_doc.id, "passport", "P9", "USA",
                                 date(2026, 3, 1), KEY, TODAY)


@pytest.mark.parametrize(("new", "sentence"), [
    (walk_in(tin="12345"), "A taxpayer id has nine digits"),
    (walk_in(name="  "), "Write the patron's legal name"),
    (walk_in(born=date(2026, 3, 3)), "date of birth is in the future"),
    (NewPatron("A B", "x", date(1990, 1, 1), None, (NewDocument("library", "1", "x",
                                                                date(2030, 1, 1)),)),
     "Choose the kind of identity document"),
])
def test_bad_details_are_refused_in_a_sentence_and_nothing_is_written(
        storage: Storage, new: NewPatron, sentence: str) -> None:
    """Bad input: one plain sentence for the staff member; no patron half-written."""
    p = staff(storage)
    with pytest.raises(PatronError, match=sentence), storage.unit() as conn:
        patrons.create(conn, p["cathy"], new, KEY, TODAY)
    with storage.read() as conn:
        assert conn.execute(select(patrons_table)).first() is None


def test_link_an_account_and_open_a_walk_in_account(storage: Storage) -> None:
    """Issue 22: a registered player is linked to their patron; a walk-in's chips are held in
    a player account the cage opens for them, linked to the patron, that nobody logs in as."""
    p = staff(storage)
    with storage.unit() as conn:
        grace = patrons.create(conn, p["cathy"], walk_in(), KEY, TODAY)
        other = patrons.create(conn, p["cathy"], walk_in("Ada Lovelace"), KEY, TODAY)
        assert patrons.patron_of(conn, p["alice"].id) is None
        patrons.link_account(conn, p["cathy"], p["alice"].id, grace.id)
        patrons.link_account(conn, p["cathy"], p["alice"].id, grace.id)
        patron = patrons.patron_of(conn, p["alice"].id)
        assert patron is not None and patron.id == grace.id
        with pytest.raises(PatronError, match="already linked to another patron"):
            patrons.link_account(conn, p["cathy"], p["alice"].id, other.id)
        with pytest.raises(PatronError, match="not a player"):
            patrons.link_account(conn, p["cathy"], p["audrey"].id, other.id)
        with pytest.raises(PermissionDenied):
            patrons.link_account(conn, p["alice"], p["alice"].id, other.id)
        account = patrons.open_walk_in(conn, p["cathy"], other.id)
        assert patrons.open_walk_in(conn, p["cathy"], other.id) == account
        assert account.role is Role.PLAYER
        assert [a.id for a in patrons.accounts_of(conn, other.id)] == [account.id]
    from cardroom.room.storage.errors import AuthError
    with pytest.raises(AuthError):
        authenticate(storage, account.username, patrons.WALK_IN_PASSWORD, "1.2.3.4")


def test_the_cage_opens_an_account_to_log_in_with_linked_to_the_patron(
        storage: Storage) -> None:
    """Issue 23 ("the cashier or the host can open player accounts"): the account is opened by
    the cage with the patron's identity, linked to them at once, audited under the cashier's
    name; a player may not open one for anyone, and a name taken is refused."""
    p = staff(storage)
    made = new_credentials("grace", "correct horse battery staple")
    with storage.unit() as conn:
        grace = patrons.create(conn, p["cathy"], walk_in(), KEY, TODAY)
        with pytest.raises(PermissionDenied):
            patrons.open_account(conn, p["alice"], grace.id, made)
        account = patrons.open_account(conn, p["cathy"], grace.id, made)
        assert [a.id for a in patrons.accounts_of(conn, grace.id)] == [account.id]
        with pytest.raises(CardroomError, match="taken"):
            patrons.open_account(conn, p["cathy"], grace.id, made)
        opened = [e for e in audit.entries(conn) if e.action == "account.create"
                  and e.data["username"] == "grace"]
    assert account.role is Role.PLAYER
    assert (opened[0].actor, opened[0].data["patron"]) == ("cathy", grace.id)
    assert authenticate(storage, "grace", "correct horse battery staple", "1.2.3.4") == account


@pytest.mark.parametrize(("day", "age"), [(date(2026, 3, 1), 17), (date(2026, 3, 2), 18)])
def test_age_on_the_day_before_and_on_the_eighteenth_birthday(storage: Storage, day: date,
                                                              age: int) -> None:
    """WAC 230-06-010: nobody under 18 (the state profile's minimum age) gambles; a person is
    18 on their eighteenth birthday, not the day before."""
    p = staff(storage)
    with storage.unit() as conn:
        kid = patrons.create(conn, p["cathy"], walk_in(born=date(2008, 3, 2)), KEY, day)
    assert kid.age_on(day) == age
    if age < 18:
        with pytest.raises(patrons.UnderAge, match="nobody under 18 may be sold chips"):
            patrons.refuse_under_age(kid, day, "sell")
    else:
        patrons.refuse_under_age(kid, day, "sell")


def test_leap_day_birthday() -> None:
    """Decision (docs/compliance.md): one born on 29 February is a year older on 1 March in
    a common year."""
    assert patrons.age_on(date(2008, 2, 29), date(2026, 2, 28)) == 17
    assert patrons.age_on(date(2008, 2, 29), date(2026, 3, 1)) == 18


def test_the_migrations_build_exactly_the_schema_the_code_queries(storage: Storage) -> None:
    """Migration 0008 (patrons, patron_documents, accounts.patron_id) and every one before it
    leave no difference from `cardroom.room.storage.schema` on either database."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from cardroom.room.storage.schema import metadata

    with storage.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []


def test_the_owner_hires_a_compliance_officer_who_may_reveal(storage: Storage) -> None:
    """Issue 22: the owner makes the compliance account where staff are made; the new role
    reveals, the owner does not."""
    from cardroom.room.people import staff as hiring
    from cardroom.room.people.accounts import new_credentials

    p = staff(storage)
    with storage.unit() as conn:
        grace = patrons.create(conn, p["cathy"], walk_in(), KEY, TODAY)
        officer = hiring.hire(conn, p["olivia"], new_credentials("cora", "correct horse"),
                              "compliance")
        assert officer.role is Role.COMPLIANCE
        assert patrons.reveal(conn, officer, grace.id, KEY).taxpayer_id == "123456789"


def test_a_backup_carries_ciphertext_only(storage: Storage, tmp_path: Path) -> None:
    """Issue 22: a backup (`cardroom backup`: SQLite's copy or `pg_dump`) holds the taxpayer
    id and the document number only encrypted; the names searched for stay searchable."""
    p = staff(storage)
    with storage.unit() as conn:
        patrons.create(conn, p["cathy"], walk_in(), KEY, TODAY)
    out = tmp_path / "room.backup"
    backup(url_of(storage), out)
    raw = out.read_bytes()
    if raw.startswith(b"PGDMP"):  # pg_dump's compressed archive: its rows as SQL text
        raw = subprocess.run(["pg_restore", "--data-only", "-f", "-", str(out)],
                             capture_output=True, check=True).stdout
    assert b"Grace Hopper" in raw  # the copy is readable: what is absent was encrypted
    for clear in (b"123456789", b"123-45-6789", b"WDLAB123CD", b"AB12 3CD"):
        assert clear not in raw


def test_the_identity_key_file_is_kept_as_the_audit_key(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: the key lives outside the database, at `$CARDROOM_IDENTITY_KEY_FILE`, made
    once with mode 0600, refused when others may read it; the same file gives the same key."""
    from cardroom.room.storage.identity_key import load_identity_key, load_or_create_identity_key

    path = tmp_path / "keys" / "identity.key"
    monkeypatch.setenv("CARDROOM_IDENTITY_KEY_FILE", str(path))
    made, created = load_or_create_identity_key()
    assert created and path.stat().st_mode & 0o777 == 0o600
    assert load_or_create_identity_key() == (made, False) and load_identity_key() == made
    path.chmod(0o644)
    with pytest.raises(IdentityKeyError, match=r"identity key file .* may be read by others"):
        load_identity_key()
