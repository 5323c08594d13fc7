"""Issue 9, "Durability, backup and restore": a restore drill through the installed `cardroom`
command, on SQLite and PostgreSQL. A backup taken while tables play is a consistent moment of
the books: restored, its audit log is the original's up to that moment, `audit verify` passes,
the ledger balances, and the hands open at that moment are voided with their wagers returned
(as a restart voids them)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from server.serve_process import served
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from cardroom.cli import main
from cardroom.room.backup import backup
from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.audit_key import load_or_create_key
from cardroom.room.storage.db import Storage, open_database
from cardroom.room.storage.schema import hands
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.room.trust.keying import open_keyed
from cardroom.shoe import SeededRandom
from room.storage_fixture import backend_url

from .people import player
from .rooms import playing_table

CARDROOM = Path(sys.executable).with_name("cardroom")
BET = {"player": 500}
PASSWORD = "restore drill passphrase 9"


def cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CARDROOM), *args], capture_output=True, text=True,
                          timeout=120, check=False)


def in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
               *args: str) -> subprocess.CompletedProcess[str]:
    """The command's entry point run in this process (no second start-up)."""
    monkeypatch.setattr(sys, "argv", ["cardroom", *args])
    capsys.readouterr()
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, out.out, out.err)


def refused(done: subprocess.CompletedProcess[str], reason: str) -> None:
    """A refusal is one `error:` line naming the reason, exit status 2."""
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and reason in lines[0], done


@pytest.fixture
def lose_the_room(db_url: str) -> Iterator[Callable[[], None]]:
    """Makes the room at `db_url` disappear, as when its disk is lost: the SQLite file or the
    PostgreSQL schema is moved aside (and dropped at the end), leaving the address empty."""
    url = make_url(db_url)
    lost: list[str] = []

    def lose() -> None:
        if url.get_backend_name() == "sqlite":
            Path(url.database or "").rename(f"{url.database}.lost")
            return
        engine = create_engine(url)
        with engine.begin() as conn:
            schema = conn.execute(text("SELECT current_schema()")).scalar_one()
            conn.execute(text(f'ALTER SCHEMA "{schema}" RENAME TO "{schema}_lost"'))
        engine.dispose()
        lost.append(f"{schema}_lost")

    yield lose
    if lost:
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{lost[0]}" CASCADE'))
        engine.dispose()


class Play(threading.Thread):
    """Three Mini-Baccarat tables playing coup after coup until told to stop."""

    def __init__(self, room: Room, seats: dict[int, list[Account]]) -> None:
        super().__init__(daemon=True)
        self.room, self.seats = room, seats
        self.rounds, self.stop = 0, threading.Event()
        self.error: BaseException | None = None
        self.progress = threading.Condition()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                for table, players in self.seats.items():
                    for who in players:
                        self.room.act(who, table, {"type": "bet", "bets": BET,
                                                   "key": f"{who.username}-{self.rounds}"})
                    self.room.act(players[0], table, {"type": "deal"})
                with self.progress:
                    self.rounds += 1
                    self.progress.notify_all()
        except BaseException as exc:
            self.error = exc

    def wait_for(self, rounds: int) -> None:
        with self.progress:
            assert self.progress.wait_for(lambda: self.rounds >= rounds or bool(self.error),
                                          timeout=60)
        assert self.error is None, self.error


def open_room(storage: Storage) -> tuple[Room, dict[int, list[Account]], Account, int]:
    """Three tables with two players each, and a fourth whose one wager stays down."""
    room = Room(storage, SeededRandom(9))
    room.start()
    with storage.unit() as conn:
        owner = create_account(conn, "drill_owner", PASSWORD, Role.OWNER)
        players = [player(conn, f"player_{i}", PASSWORD)
                   for i in range(7)]
        for who in players:
            buy_chips(conn, SELF_SERVICE, who, 100_000, f"chips-{who.username}")
    tables = [playing_table(room, owner, f"Mini {i + 1}", "baccarat").table_id for i in range(4)]
    for i, who in enumerate(players):
        room.act(who, tables[i // 2], {"type": "sit", "buy_in": 50_000, "key": "sit"})
    held = players[6]
    room.act(held, tables[3], {"type": "bet", "bets": BET, "key": "held"})
    seats = {t: players[2 * i:2 * i + 2] for i, t in enumerate(tables[:3])}
    return room, seats, held, tables[3]


def chain(url: str) -> list[audit.AuditEntry]:
    storage = open_database(url)
    with storage.read() as conn:
        entries = list(audit.entries(conn))
    storage.engine.dispose()
    return entries


def test_restore_drill_from_a_backup_taken_during_play(
        db_url: str, lose_the_room: Callable[[], None], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The room plays keyed, as `cardroom serve` runs it; the key file (the session's
    `$CARDROOM_AUDIT_KEY_FILE`) is not in the backup and is given to restore and verify."""
    storage = open_keyed(db_url)
    room, seats, held, held_table = open_room(storage)
    before_play = len(chain(db_url))
    play = Play(room, seats)
    play.start()
    try:
        play.wait_for(2)
        file = tmp_path / "room.backup"
        done = cardroom("backup", "--database", db_url, "--out", str(file))
        assert done.returncode == 0 and file.is_file(), done
        sha256 = hashlib.sha256(file.read_bytes()).hexdigest()
        assert f"sha256 {sha256}" in done.stdout
        play.wait_for(play.rounds + 2)  # the tables play on after the backup
    finally:
        play.stop.set()
        play.join(60)
    assert play.error is None, play.error
    room.act(held, held_table, {"type": "deal"})  # settled here, after the backup
    source = chain(db_url)
    storage.engine.dispose()

    refused(in_process(monkeypatch, capsys, "restore", str(file), "--database", db_url),
            "already holds a card room")
    assert chain(db_url) == source  # refused: nothing changed

    done = in_process(monkeypatch, capsys, "restore", str(file), "--database", db_url,
                      "--force")
    assert done.returncode == 0 and "hand(s) open at the backup" in done.stdout, done
    check = in_process(monkeypatch, capsys, "audit", "verify", "--database", db_url, "--json")
    assert check.returncode == 0 and json.loads(check.stdout)["ok"] is True, check
    restored = chain(db_url)
    same = next(i for i, (a, b) in enumerate(zip(restored, source, strict=False)) if a != b)
    assert before_play < same < len(source)  # a moment in the middle of play
    assert {e.actor for e in restored[same:]} == {"recovery"}
    assert restored[same].action == "room.restored"
    assert restored[same].data == {"backup": file.name, "sha256": sha256}
    target = open_database(db_url)
    with target.read() as conn:
        statuses = conn.execute(select(hands.c.table_id, hands.c.status)).all()
        assert ledger.trial_balance(conn).ok
        assert ledger.balance(conn, ledger.wagers(held_table)) == 0
        assert ledger.balance(conn, ledger.stack(held_table, held.id)) == 50_000
    target.engine.dispose()
    assert {status for _, status in statuses} <= {"settled", "voided"}
    assert [status for table, status in statuses if table == held_table] == ["voided"]

    lose_the_room()  # and restore on a new disk, through the installed command
    done = cardroom("restore", str(file), "--database", db_url)
    assert done.returncode == 0, done
    check = cardroom("audit", "verify", "--database", db_url, "--json")
    assert check.returncode == 0 and json.loads(check.stdout)["ok"] is True, check
    again = chain(db_url)
    assert [(e.seq, e.action) for e in again] == [(e.seq, e.action) for e in restored]
    assert again[:same] == restored[:same]


@pytest.fixture
def small_backup(tmp_path: Path) -> Path:
    """A backup of a room with one table."""
    source = str(tmp_path / "small.sqlite3")
    storage = open_keyed(source)
    Room(storage).create_table(Account(0, "cli-operator", Role.OWNER), "Mini 1", "baccarat")
    storage.engine.dispose()
    backup(source, tmp_path / "small.backup")
    return tmp_path / "small.backup"


UNREACHABLE = "postgresql://nobody@127.0.0.1:1/x"


@pytest.mark.parametrize("args, reason", [
    (["backup", "--database", "{tmp}/none/room.sqlite3", "--out", "{tmp}/b"],
     "there is no card room at"),
    (["backup", "--database", "{tmp}/not-a-room.sqlite3", "--out", "{tmp}/b"],
     "there is no card room at"),
    (["backup", "--database", "{tmp}/small.sqlite3", "--out", "{tmp}/small.backup"],
     "already exists"),
    (["backup", "--database", "{tmp}/small.sqlite3", "--out", "{tmp}/none/b"],
     "there is no directory"),
    (["backup", "--database", "{tmp}/small.sqlite3"], "Missing option '--out'"),
    (["backup", "--database", UNREACHABLE, "--out", "{tmp}/b"], "cannot open the database"),
    (["backup", "--database", "mysql://h/db", "--out", "{tmp}/b"], "SQLite or PostgreSQL"),
    (["backup", "--database", "postgresql://::bad", "--out", "{tmp}/b"],
     "is not a database path or URL"),
    (["restore", "{tmp}/none.backup", "--database", "{tmp}/new.sqlite3"],
     "there is no backup file"),
    (["restore", "{tmp}/notes.txt", "--database", "{tmp}/new.sqlite3"],
     "is not a card-room backup"),
    (["restore", "{tmp}/not-a-room.sqlite3", "--database", "{tmp}/new.sqlite3"],
     "is not a card-room backup"),
    (["restore", "{tmp}/fake.dump", "--database", UNREACHABLE], "pg_restore failed"),
    (["restore", "{tmp}/small.backup", "--database", UNREACHABLE], "is a SQLite backup"),
    (["restore", "{tmp}/small.backup", "--database", "{tmp}/notes.txt", "--force"],
     "could not restore"),
    (["restore", "{tmp}/small.backup", "--database", "{tmp}/small.sqlite3"],
     "already holds a card room"),
    (["restore", "{tmp}/small.backup", "--database", "{tmp}/new.sqlite3", "--audit-key-file",
      "{tmp}/none.key"], "no audit key file at"),
    (["restore", "{tmp}/small.backup", "--database", "{tmp}/new.sqlite3", "--audit-key-file",
      "{tmp}/other.key"], "signed with another key"),
])
def test_bad_input_is_one_error_line_and_changes_nothing(
        args: list[str], reason: str, small_backup: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("not a database\n")
    (tmp_path / "fake.dump").write_bytes(b"PGDMP but nothing else")
    load_or_create_key(tmp_path / "other.key")  # a good key, but not the room's
    with closing(sqlite3.connect(tmp_path / "not-a-room.sqlite3")) as other:
        other.execute("CREATE TABLE notes (line TEXT)")
    before = everything(tmp_path)
    refused(in_process(monkeypatch, capsys, *(a.format(tmp=tmp_path) for a in args)), reason)
    assert everything(tmp_path) == before


def everything(folder: Path) -> dict[Path, bytes | None]:
    return {p: p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


def test_the_console_script_exits_2_on_bad_input(tmp_path: Path) -> None:
    refused(cardroom("backup", "--database", str(tmp_path / "none.sqlite3"), "--out",
                     str(tmp_path / "b")), "there is no card room at")
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    """A PostgreSQL room whose audit key (the session's key file) exists before it is opened,
    whatever ran before in this worker: `restore` asks for the room's key first."""
    load_or_create_key(Path(os.environ["CARDROOM_AUDIT_KEY_FILE"]))
    yield from backend_url("postgresql", tmp_path)


def test_a_postgres_backup_is_restored_only_where_the_room_finds_it(
        pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The archive holds the room's schema by name; a target whose search path selects
    another schema is refused before anything is written."""
    db_url = pg_url
    storage = open_database(db_url)
    Room(storage).create_table(Account(0, "cli-operator", Role.OWNER), "Mini 1", "baccarat")
    storage.engine.dispose()
    backup(db_url, tmp_path / "room.backup")
    other = f"{make_url(db_url).set(query={})}?options=-csearch_path%3Dpublic"
    refused(in_process(monkeypatch, capsys, "restore", str(tmp_path / "room.backup"),
                       "--database", other, "--force"), "uses 'public'")


def test_a_failed_postgres_restore_changes_nothing(
        pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`pg_restore` runs in one transaction: when it cannot replace the schema (something
    else lives in it), the room is left as it was."""
    storage = open_database(pg_url)
    Room(storage).create_table(Account(0, "cli-operator", Role.OWNER), "Mini 1", "baccarat")
    backup(pg_url, tmp_path / "room.backup")
    Room(storage).create_table(Account(0, "cli-operator", Role.OWNER), "Mini 2", "baccarat")
    with storage.unit() as conn:
        conn.execute(text("CREATE TABLE notes (line TEXT)"))
    storage.engine.dispose()
    before = chain(pg_url)
    refused(in_process(monkeypatch, capsys, "restore", str(tmp_path / "room.backup"),
                       "--database", pg_url, "--force"), "pg_restore failed: ")
    assert chain(pg_url) == before


def test_a_restore_is_refused_while_a_server_holds_the_books(db_url: str, tmp_path: Path
                                                              ) -> None:
    """Issue 26: `cardroom restore --force` under a running server replaced the books the
    server had in memory (a player's next sit failed with an internal error, her chips stuck).
    While `cardroom serve` runs, the restore is one `error:` line, exit 2, and changes nothing;
    once the server has stopped, the same restore goes through."""
    file = tmp_path / "room.backup"
    with served(db_url):
        done = cardroom("backup", "--database", db_url, "--out", str(file))
        assert done.returncode == 0, done  # a backup reads while the room plays
        source = chain(db_url)
        refused(cardroom("restore", str(file), "--database", db_url, "--force"),
                "a card-room server is running on these books: stop it before restoring")
        assert chain(db_url) == source
    done = cardroom("restore", str(file), "--database", db_url, "--force")
    assert done.returncode == 0, done
    assert chain(db_url)[len(source)].action == "room.restored"


def test_a_backup_is_readable_by_its_owner_only(db_url: str, tmp_path: Path) -> None:
    """Issue 26: the backup (password hashes, every hand, the audit log) was written 0644
    under the usual umask; it is created 0600 before anything is written to it."""
    open_database(db_url).engine.dispose()  # an empty room
    file = tmp_path / "room.backup"
    old = os.umask(0o022)
    try:
        done = cardroom("backup", "--database", db_url, "--out", str(file))
    finally:
        os.umask(old)
    assert done.returncode == 0, done
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
