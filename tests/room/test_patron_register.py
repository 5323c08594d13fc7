"""Issue 25, "Many rooms, one head office": "the self-exclusion list and patron identities are
maintained once and reach every room within the 48 hours the rule allows" (the update rule of
WAC 230-23-030). The company's patron register (room/books/patron_register.py): the rooms'
patrons merged at the head office by identity document, pulled by every room.

Here the head office is a PostgreSQL database of the test's own (in a cluster of the module's
own), whose `room_alpha` and `room_gamma` schemas stand for what replication delivers (the
replication itself: tests/room/test_head_office.py); the room that pulls is a SQLite file."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from cli.console import cardroom
from sqlalchemy import text, update

from cardroom.room.books import patron_register
from cardroom.room.people import patrons
from cardroom.room.people.patrons import NewDocument, NewPatron, Patron
from cardroom.room.storage.db import Storage, open_database
from cardroom.room.storage.schema import patrons as patrons_table
from cardroom.room.storage.timezone import room_time

from .people import DESK, IDENTITY_KEY
from .pg_cluster import Cluster, Clusters

KEY = IDENTITY_KEY
LICENCE = "WDL-GH 1980"
PASSPORT = "P 5551212"
TIN = "123-45-6789"
BORN = date(1980, 12, 9)


@dataclass
class Company:
    url: str
    """The head office's database (its own books in `public`)."""
    opened: dict[str, Storage] = field(default_factory=dict)

    def room_schema(self, room: str) -> Storage:
        """A room's books as replication delivers them to the head office."""
        if room not in self.opened:
            with self.office().unit() as conn:
                conn.execute(text(f"CREATE SCHEMA IF NOT EXISTS room_{room}"))
            self.opened[room] = open_database(
                f"{self.url}?options=-csearch_path%3Droom_{room}")
        return self.opened[room]

    def office(self) -> Storage:
        if "" not in self.opened:
            self.opened[""] = open_database(self.url)
        return self.opened[""]

    def close(self) -> None:
        for storage in self.opened.values():
            storage.engine.dispose()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster of this module's own (`pg_cluster`): each test's head office is a
    database in it, thrown away with the cluster. Dropping a database on the shared server
    waits for a checkpoint of everything the other tests wrote (minutes, late in a suite)."""
    clusters = Clusters()
    try:
        yield clusters.primary()
    finally:
        clusters.close()


@pytest.fixture
def company(cluster: Cluster) -> Iterator[Company]:
    c = Company(cluster.create(f"cardroom_register_{secrets.token_hex(4)}"))
    try:
        yield c
    finally:
        c.close()


def grace(storage: Storage, address: str = "1 Main St, Tacoma WA 98402",
          documents: tuple[tuple[str, str], ...] = (("driver-licence", LICENCE),),
          tin: str | None = TIN, at: datetime | None = None) -> Patron:
    """Grace Hopper recorded at a cage (with her details written at `at`, if given)."""
    with storage.unit() as conn:
        made = patrons.create(conn, DESK, NewPatron(
            "Grace Hopper", address, BORN, tin,
            tuple(NewDocument(kind, number, "Washington", date(2031, 1, 1))
                  for kind, number in documents)), KEY)
        if at is not None:
            conn.execute(update(patrons_table).where(patrons_table.c.id == made.id)
                         .values(updated_at=at))
    return made


def merge(c: Company, now: datetime | None = None) -> dict[str, patron_register.Absorbed]:
    with c.office().unit() as conn:
        return patron_register.merge(conn, DESK, KEY, now=now)


def pull(c: Company, room: Storage) -> patron_register.Pulled:
    with c.office().snapshot() as held, room.unit() as conn:
        return patron_register.pull(held, conn, DESK, KEY)


def found(storage: Storage, number: str) -> list[Patron]:
    """Whom the cage finds by a document's number."""
    with storage.read() as conn:
        return patrons.find(conn, KEY, document=number)


def test_one_person_recorded_in_two_rooms_is_one_patron_of_the_company(
        company: Company, tmp_path: Path) -> None:
    """Alpha saw Grace's licence; gamma later saw her licence and her passport, and wrote her
    new address. The register holds one Grace, with both documents and the newer address; a
    third room that pulls it finds her by either document at its cage, her numbers sealed to
    its own record (the compliance officer reads them there); merging and pulling again
    takes nothing more."""
    c = company
    old, new = datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC)
    grace(c.room_schema("alpha"), at=old)
    grace(c.room_schema("gamma"), "9 Pine Rd, Everett WA 98201",
          (("driver-licence", LICENCE), ("passport", PASSPORT)), tin=None, at=new)
    done = merge(c)
    assert [(len(d.added), len(d.updated), d.documents) for d in done.values()] == [
        (1, 0, 1), (0, 1, 1)]
    [held] = found(c.office(), PASSPORT)
    assert (held.address, held.has_taxpayer_id, len(held.documents)) == (
        "9 Pine Rd, Everett WA 98201", True, 2)

    room = open_database(f"sqlite:///{tmp_path / 'beta.sqlite3'}")
    assert found(room, LICENCE) == []
    pulled = pull(c, room)
    assert (len(pulled.done.added), pulled.done.documents) == (1, 2)
    [mine] = found(room, LICENCE)
    assert found(room, "p-5551212") == [mine]
    assert (mine.legal_name, mine.date_of_birth, mine.address) == (
        "Grace Hopper", BORN, "9 Pine Rd, Everett WA 98201")
    with room.read() as conn:
        secrets_ = patrons.reveal_for_form(conn, mine.id, KEY)
    assert secrets_.taxpayer_id == "123456789"
    assert sorted(d.number for d in secrets_.documents) == ["P5551212", "WDLGH1980"]

    again = merge(c)  # alpha's older record is not taken (alpha takes Grace's at its pull)
    assert {room: d.counts() for room, d in again.items()} == {
        "alpha": {"added": 0, "updated": 0, "documents": 0, "kept": 1, "ambiguous": 0},
        "gamma": {"added": 0, "updated": 0, "documents": 0, "kept": 0, "ambiguous": 0}}
    assert pull(c, room).done.counts()["added"] == 0


def test_a_rooms_own_newer_record_is_kept_and_named(company: Company, tmp_path: Path) -> None:
    """The register never overwrites a room's newer record: the pull keeps it and names it
    (`kept`); once the register's is the newer, the room takes it."""
    c = company
    grace(c.room_schema("alpha"), "1 Old Rd, Tacoma WA", at=datetime(2026, 3, 1, tzinfo=UTC))
    merge(c)
    room = open_database(f"sqlite:///{tmp_path / 'beta.sqlite3'}")
    mine = grace(room, "2 Newer Ave, Olympia WA", at=datetime(2026, 5, 1, tzinfo=UTC))
    done = pull(c, room).done
    assert (done.kept, done.updated, done.added) == ([mine.id], [], [])
    assert found(room, LICENCE)[0].address == "2 Newer Ave, Olympia WA"

    with c.room_schema("alpha").unit() as conn:  # alpha writes her newest address
        conn.execute(update(patrons_table).values(address="3 Newest St, Tacoma WA",
                                                  updated_at=datetime(2026, 7, 1, tzinfo=UTC)))
    merge(c)
    done = pull(c, room).done
    assert (done.kept, done.updated) == ([], [mine.id])
    assert [p.address for p in found(room, LICENCE)] == ["3 Newest St, Tacoma WA"]


def test_a_record_matching_two_patrons_changes_nothing(company: Company,
                                                       tmp_path: Path) -> None:
    """The room recorded Grace twice (her licence once, her passport once); the register's
    Grace holds both: the pull changes neither and names the record for the compliance
    officer."""
    c = company
    grace(c.room_schema("alpha"), documents=(("driver-licence", LICENCE),
                                             ("passport", PASSPORT)))
    merge(c)
    room = open_database(f"sqlite:///{tmp_path / 'beta.sqlite3'}")
    grace(room, documents=(("driver-licence", LICENCE),))
    grace(room, documents=(("passport", PASSPORT),))
    done = pull(c, room).done
    assert len(done.ambiguous) == 1 and done.counts()["added"] == done.documents == 0
    assert [len(p.documents) for p in found(room, LICENCE) + found(room, PASSPORT)] == [1, 1]


def key_file(tmp_path: Path) -> str:
    path = tmp_path / "company-identity.key"
    path.write_text(KEY.secret.hex() + "\n")
    path.chmod(0o600)
    return str(path)


def test_the_check_fails_when_the_register_is_older_than_48_hours(
        company: Company, tmp_path: Path) -> None:
    """Through the console script: a room that never pulled the register fails its check
    (exit 1); so does one whose register was merged more than 48 hours ago (the update rule of
    WAC 230-23-030, the profile's figure). A pull before any merge, or a
    merge on SQLite, is refused in one line (exit 2)."""
    c = company
    room = f"sqlite:///{tmp_path / 'beta.sqlite3'}"
    ids = ("--identity-key-file", key_file(tmp_path))
    never = cardroom("patrons", "check", "--database", room)
    assert never.returncode == 1 and "No patron register" in never.stdout
    refused = cardroom("patrons", "pull", "--head-office", c.url, "--database", room, *ids)
    assert refused.returncode == 2 and "no patron register yet" in refused.stderr

    grace(c.room_schema("alpha"))
    three_days = datetime.now(UTC) - timedelta(hours=72)
    merge(c, now=three_days)
    done = cardroom("patrons", "pull", "--head-office", c.url, "--database", room, *ids)
    assert done.returncode == 0 and "1 patrons added" in done.stdout, done.stderr
    stale = cardroom("patrons", "check", "--database", room)
    assert stale.returncode == 1
    assert "out of date" in stale.stdout and room_time(three_days) in stale.stdout
    # a fresh register passes: tests/room/test_head_office.py
    on_sqlite = cardroom("patrons", "merge", "--database", room, *ids)
    assert on_sqlite.returncode == 2 and "must be on PostgreSQL" in on_sqlite.stderr
