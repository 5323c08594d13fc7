"""Issue 9, "Durability, backup and restore": a restore drill through the installed `cardroom`
command, on SQLite and PostgreSQL. A backup taken while tables play is a consistent moment of
the books: restored, its audit log is the original's up to that moment, `audit verify` passes,
the ledger balances, and the hands open at that moment are voided with their wagers returned
(as a restart voids them)."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from cardroom.cli import main
from cardroom.room import audit, ledger
from cardroom.room.accounts import Account, Role, create_account
from cardroom.room.cashier import buy_chips
from cardroom.room.db import Storage, open_database
from cardroom.room.room import Room
from cardroom.room.schema import hands
from cardroom.shoe import SeededRandom

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
def empty_target(db_url: str, tmp_path: Path) -> Iterator[str]:
    """Where a new server would be: a new SQLite file, or a new PostgreSQL database reached
    with the same schema search path."""
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        yield str(tmp_path / "restored" / "room.sqlite3")
        return
    name = f"r_{secrets.token_hex(6)}"
    admin = create_engine(url.set(query={}), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
        admin.dispose()


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
        players = [create_account(conn, f"player_{i}", PASSWORD, Role.PLAYER)
                   for i in range(7)]
        for who in players:
            buy_chips(conn, who, 100_000, f"chips-{who.username}")
    tables = [room.create_table(owner, f"Mini {i + 1}", "baccarat").table_id for i in range(4)]
    for i, who in enumerate(players):
        room.act(who, tables[i // 2], {"type": "sit", "buy_in": 50_000, "key": "sit"})
    held = players[6]
    room.act(held, tables[3], {"type": "bet", "bets": BET, "key": "held"})
    seats = {t: players[2 * i:2 * i + 2] for i, t in enumerate(tables[:3])}
    return room, seats, held, tables[3]


def chain(url: str) -> list[tuple[int, str, str]]:
    storage = open_database(url)
    with storage.read() as conn:
        entries = [(e.seq, e.actor, e.hash) for e in audit.entries(conn)]
    storage.engine.dispose()
    return entries


def test_restore_drill_from_a_backup_taken_during_play(
        db_url: str, empty_target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    storage = open_database(db_url)
    room, seats, held, held_table = open_room(storage)
    before_play = len(chain(db_url))
    play = Play(room, seats)
    play.start()
    try:
        play.wait_for(2)
        file = tmp_path / "room.backup"
        done = cardroom("backup", "--database", db_url, "--out", str(file))
        assert done.returncode == 0 and file.is_file(), done
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

    done = cardroom("restore", str(file), "--database", empty_target)
    assert done.returncode == 0 and "hand(s) open at the backup" in done.stdout, done
    check = cardroom("audit", "verify", "--database", empty_target, "--json")
    assert check.returncode == 0 and json.loads(check.stdout)["ok"] is True, check

    restored = chain(empty_target)
    same = next(i for i, (a, b) in enumerate(zip(restored, source, strict=False)) if a != b)
    assert before_play < same < len(source)  # a moment in the middle of play
    assert {actor for _, actor, _ in restored[same:]} == {"recovery"}
    target = open_database(empty_target)
    with target.read() as conn:
        statuses = conn.execute(select(hands.c.table_id, hands.c.status)).all()
        assert ledger.trial_balance(conn).ok
        assert ledger.balance(conn, ledger.wagers(held_table)) == 0
        assert ledger.balance(conn, ledger.stack(held_table, held.id)) == 50_000
    target.engine.dispose()
    assert {status for _, status in statuses} <= {"settled", "voided"}
    assert [status for table, status in statuses if table == held_table] == ["voided"]

    done = in_process(monkeypatch, capsys, "restore", str(file), "--database", db_url,
                      "--force")
    assert done.returncode == 0, done
    assert [e[:2] for e in chain(db_url)] == [e[:2] for e in restored]
    assert chain(db_url)[:same] == restored[:same]
