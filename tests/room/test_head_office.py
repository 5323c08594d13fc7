"""Issue 25, "Many rooms, one head office": two rooms replicating to a head office by
PostgreSQL's logical replication (throwaway clusters with `wal_level=logical`, pg_cluster.py).

The figure: after a scripted day in each room (one played before the head office subscribed,
the other while the head office was down), the head office's games, cage, month and quarter
reports of each room equal that room's own, to the cent, and the company's figures are the
sums of the rooms' own reports. The sealed shoe orders never leave a room. A person on the list
kept at the head office is refused at a room; a progressive linked across rooms is refused
(WAC 230-15-685(5))."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli.console import cardroom
from sqlalchemy import create_engine, func, insert, select, text

from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.room.books import head_office
from cardroom.room.books.operations_report import cage_report, games_report
from cardroom.room.books.regulator import month, period_report, quarter
from cardroom.room.compliance import exclusions
from cardroom.room.compliance.exclusions import Excluded
from cardroom.room.people import patrons
from cardroom.room.storage.db import open_database
from cardroom.room.storage.schema import sealed_tables

from .exclusion_lists import ALAN, GRACE, KEY, LICENCE, OPERATOR, grace_patron, state_list
from .pg_cluster import Cluster, Clusters, wait_until_caught_up
from .scripted_days import Day, play_day

ROOMS = ("everett", "tacoma")


@dataclass
class Company:
    rooms: Cluster
    office: Cluster
    urls: dict[str, str]
    head_office: str


@pytest.fixture(scope="module")
def company() -> Iterator[Company]:
    clusters = Clusters()
    try:
        rooms, office = clusters.primary(), clusters.primary()
        urls = {r: rooms.create(r, head_office.schema_of(r)) for r in ROOMS}
        yield Company(rooms, office, urls, office.create("head_office"))
    finally:
        clusters.close()


def subscribe(c: Company, room: str) -> None:
    done = cardroom("headoffice", "publish", "--room", room, "--database", c.urls[room])
    assert done.returncode == 0, done.stderr
    done = cardroom("headoffice", "subscribe", "--room", room, "--from",
                    c.rooms.conninfo(room), "--database", c.head_office)
    assert done.returncode == 0, done.stderr


def caught_up(c: Company, room: str) -> None:
    wait_until_caught_up(c.urls[room], c.head_office, f"cardroom_room_{room}")


def reports(conn: Any, d: Day) -> dict[str, Any]:
    """A room's own reports of the day, its month and its quarter, as JSON."""
    q = (d.day.month - 1) // 3 + 1
    return {"games": games_report(conn, d.clock, d.day).as_json(),
            "cage": cage_report(conn, d.clock, d.day).as_json(),
            "month": period_report(conn, d.clock, month(d.day.year, d.day.month)).as_json(),
            "quarter": period_report(conn, d.clock, quarter(d.day.year, q)).as_json()}


def test_two_rooms_and_the_head_office_agree_to_the_cent(company: Company) -> None:
    c = company
    everett, tacoma = (open_database(c.urls[r]) for r in ROOMS)
    day_e, _ = play_day(everett, 48, seed=3)  # before the head office subscribes: copied
    subscribe(c, "everett")
    subscribe(c, "tacoma")
    caught_up(c, "everett")
    caught_up(c, "tacoma")
    c.office.stop()  # the link is down: the room plays its whole day alone
    try:
        day_t, _ = play_day(tacoma, 48, seed=4)
    finally:
        c.office.start()
    caught_up(c, "tacoma")  # and catches up once the link is back

    own = {}
    for room, storage, d in (("everett", everett, day_e), ("tacoma", tacoma, day_t)):
        with storage.snapshot() as conn:
            own[room] = reports(conn, d)
        assert own[room]["games"]["total"]["hands"] > 0
        assert own[room]["games"]["reconciled"] and own[room]["cage"]["reconciled"]
    office = open_database(c.head_office)
    # the head office reads each room's schema with the room's own report, one snapshot
    with office.snapshot() as conn:
        seen = head_office.each_room(conn, "all", lambda conn: {
            "everett": reports(conn, day_e), "tacoma": reports(conn, day_t)})
    assert list(seen) == ["everett", "tacoma"]
    for room in ROOMS:
        assert seen[room][room] == own[room]
    # the sealed shoe orders stay in the rooms: one written now never reaches the head office
    with everett.unit() as conn:
        conn.execute(insert(sealed_tables).values(table_id=min(day_e.tables), shoe="sealed",
                                                  hand="sealed"))
    caught_up(c, "everett")
    with everett.read() as conn:
        assert conn.execute(select(func.count()).select_from(sealed_tables)).scalar() == 1
    with office.read() as conn:
        for room in ROOMS:
            assert conn.execute(text(
                f"SELECT count(*) FROM room_{room}.sealed_tables")).scalar_one() == 0
    with everett.read() as conn:
        published = {t for (t,) in conn.execute(text(
            "SELECT tablename FROM pg_publication_tables WHERE pubname = :p"),
            {"p": head_office.PUBLICATION})}
    assert "sealed_tables" not in published and {"hands", "ledger_entries", "audit_log",
                                                 "patrons"} <= published


def test_the_head_office_reports_are_the_rooms_own(company: Company) -> None:
    """Through the console script: `report games|quarter --rooms all` at the head office holds
    each room's own report, and the company's figures are the sums of the rooms' own."""
    c = company
    for room in ROOMS:
        caught_up(c, room)
    when = ("--date", games_day(c))
    q = ("--year", when[1][:4], "--quarter", str((int(when[1][5:7]) - 1) // 3 + 1))
    for args, figure, own_total in ((("games", *when), "win", lambda r: r["total"]["win"]),
                                    (("cage", *when), "cash_in", lambda r: r["cash_in"]),
                                    (("quarter", *q), "receipts",
                                     lambda r: r["total"]["ggr_cents"])):
        done = cardroom("report", *args, "--rooms", "all", "--json", "--database",
                        c.head_office)
        by_room = json.loads(done.stdout)
        alone = {r: cardroom("report", *args, "--json", "--database", c.urls[r])
                 for r in ROOMS}
        assert by_room["rooms"] == {r: json.loads(x.stdout) for r, x in alone.items()}
        assert by_room["company"][figure] == sum(
            own_total(json.loads(x.stdout)) for x in alone.values()) != 0
        # exit 1 at the head office when a room's own report exits 1 (the cage: no cash count
        # at opening in the script's day), else 0
        assert done.returncode == max(x.returncode for x in alone.values()), done.stderr
    text_view = cardroom("report", "games", *when, "--rooms", "all", "--database",
                         c.head_office)
    assert "room tacoma" in text_view.stdout and "company" in text_view.stdout
    refused = cardroom("report", "games", "--rooms", "boise", "--database", c.head_office)
    assert refused.returncode == 2 and "boise" in refused.stderr


def games_day(c: Company) -> str:
    """The gambling day (the command line's clock) of the rooms' last hand."""
    with create_engine(c.urls["tacoma"]).connect() as conn:
        last = conn.execute(text("SELECT max(created_at) FROM ledger_transactions")).scalar()
    from cardroom.room.storage.settings import GamblingClock

    return GamblingClock.from_env().day_of(last).isoformat()


def test_a_person_excluded_at_the_head_office_is_refused_at_a_room(company: Company) -> None:
    """The list is kept once, at the head office (its own books, schema public); the room
    pulls it with its date (the 48 hours of WAC 230-23-030 run from the list's date) and
    refuses the person at registration."""
    c = company
    office = open_database(c.head_office)
    with office.unit() as conn:
        exclusions.import_list(conn, OPERATOR, state_list(GRACE, ALAN), KEY)
    olympia = c.rooms.create("olympia", head_office.schema_of("olympia"))  # a new room
    done = cardroom("exclusions", "pull", "--head-office", c.head_office, "--database", olympia)
    assert done.returncode == 0, done.stderr
    room = open_database(olympia)
    with room.read() as conn:
        status = exclusions.list_status(conn)
    assert (status.entries, status.stale) == (2, False)
    with pytest.raises(Excluded):
        exclusions.refuse_registration(room, "Grace Hopper", "1980-12-09")
    exclusions.refuse_registration(room, "Ada Lovelace", "1815-12-10")  # not listed
    assert cardroom("exclusions", "check", "--database", olympia).returncode == 0


def test_a_patron_registered_at_one_room_is_known_at_another(company: Company,
                                                            tmp_path: Path) -> None:
    """Patron identities kept once (issue 25): a patron the cage of room renton recorded
    reaches the head office by replication, the head office's merge takes them into the
    company's register (its own books), and room yakima, which never saw them, pulls the
    register and finds them by their licence at its cage; yakima's check of the register's
    date passes (within 48 hours). Through the console script, with the company's identity
    key file."""
    c = company
    office = c.office.create("patron_register")
    renton, yakima = (c.rooms.create(r, head_office.schema_of(r)) for r in ("renton", "yakima"))
    assert cardroom("headoffice", "publish", "--room", "renton", "--database",
                    renton).returncode == 0
    done = cardroom("headoffice", "subscribe", "--room", "renton", "--from",
                    c.rooms.conninfo("renton"), "--database", office)
    assert done.returncode == 0, done.stderr
    with open_database(renton).unit() as conn:
        grace_patron(conn, OPERATOR)
    wait_until_caught_up(renton, office, "cardroom_room_renton")

    key_file = tmp_path / "company-identity.key"
    key_file.write_text(KEY.secret.hex())
    key_file.chmod(0o600)
    ids = ("--identity-key-file", str(key_file))
    done = cardroom("patrons", "merge", "--database", office, *ids)
    assert done.returncode == 0 and "room renton: 1 patrons added" in done.stdout, done.stderr
    room = open_database(yakima)
    with room.read() as conn:
        assert patrons.find(conn, KEY, document=LICENCE) == []
    done = cardroom("patrons", "pull", "--head-office", office, "--database", yakima, *ids)
    assert done.returncode == 0 and "1 patrons added" in done.stdout, done.stderr
    with room.read() as conn:
        [known] = patrons.find(conn, KEY, document="wdl gh 1980")
    assert (known.legal_name, known.date_of_birth.isoformat()) == ("Grace Hopper",
                                                                    "1980-12-09")
    assert cardroom("patrons", "check", "--database", yakima).returncode == 0


def test_a_progressive_is_never_linked_to_another_room() -> None:
    """WAC 230-15-685(5): tables are linked only within one licensed location; a house rule
    naming another room's pool ("room:pool") is refused with the section named."""
    with pytest.raises(ValueError, match=r"WAC 230-15-685\(5\)"):
        BaccaratRules(jackpot_pool="tacoma:super9")
    assert BaccaratRules(jackpot_pool="high-limit").pool_name == "high-limit"


def test_publishing_needs_postgresql_and_a_room_id(tmp_path: Path) -> None:
    books = str(tmp_path / "room.sqlite3")
    done = cardroom("headoffice", "publish", "--room", "tacoma", "--database", books)
    assert done.returncode == 2 and "must be on PostgreSQL" in done.stderr
    done = cardroom("headoffice", "publish", "--room", "Tacoma!", "--database", books)
    assert done.returncode == 2 and "is not a room id" in done.stderr
