"""`audit verify` never reports a problem that is not there while the room is in play: ten
tables betting and dealing in writer threads while the verifier runs 100 times (the CLI
command) and the `/audit` page is loaded (docs/security.md: each check reads one snapshot)."""

from __future__ import annotations

import contextlib
import io
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server.forms import FormClient
from typer.main import get_command

import cardroom.cli  # noqa: F401  (registers every command)
from cardroom.cli import app
from cardroom.room.books.cashier import buy_chips
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.audit_key import load_or_create_key
from cardroom.room.storage.db import Storage, make_engine, migrate
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server.app import create_app
from cardroom.shoe import SeededRandom

from .people import player
from .rooms import playing_table

TABLES = 10
RUNS = 100
PW = "correct horse battery"
PACE_S = 0.1
"""Each writer's pause after a hand: up to 20 hands (some 100 audit entries) a second in all,
brisker than ten real tables, while the log stays small enough to verify 100 times quickly."""


def verify_cli(command: Any, url: str) -> tuple[int, str]:
    """`cardroom audit verify --json` as the entry point runs it: its status and output (the
    command is built once; building it costs more than a check)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = command.main(["audit", "verify", "--database", url, "--json"],
                              standalone_mode=False)
    return status or 0, out.getvalue()


@pytest.fixture
def room(db_url: str, tmp_path: Path) -> Iterator[tuple[Room, list[tuple[Account, int]], Path]]:
    key_file = tmp_path / "audit.key"
    engine = make_engine(db_url)
    migrate(engine)
    storage = Storage(engine, load_or_create_key(key_file)[0])
    r = Room(storage, SeededRandom(3))
    r.start()
    with storage.unit() as conn:
        owner = create_account(conn, "olivia", PW, Role.OWNER)
        create_account(conn, "audrey", PW, Role.AUDITOR)
        players = [player(conn, f"player{i}", PW) for i in range(TABLES)]
        for p in players:
            buy_chips(conn, SELF_SERVICE, p, 10_000_000, f"first-{p.id}")
    seated = []
    for i, p in enumerate(players):
        table = playing_table(r, owner, f"Mini {i}", "baccarat")
        r.act(p, table.table_id, {"type": "sit", "buy_in": 5_000_000, "key": "sit"})
        seated.append((p, table.table_id))
    yield r, seated, key_file
    engine.dispose()


def _play(room: Room, seated: list[tuple[Account, int]], stop: threading.Event, worker: int,
          errors: list[BaseException]) -> None:
    """Bet and deal round the tables until told to stop (each writer its share of them)."""
    n = 0
    try:
        while not stop.is_set():
            for p, t in seated[worker::2]:
                room.act(p, t, {"type": "bet", "bets": {"player": 500}, "key": f"b{n}"})
                room.act(p, t, {"type": "deal"})
                time.sleep(PACE_S)
            n += 1
    except BaseException as exc:  # surfaced by the test
        errors.append(exc)


def test_no_false_alarm_in_100_runs_during_play(
        room: tuple[Room, list[tuple[Account, int]], Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    r, seated, key_file = room
    monkeypatch.setenv("CARDROOM_AUDIT_KEY_FILE", str(key_file))
    command = get_command(app)
    url = r.storage.engine.url.render_as_string(hide_password=False)
    stop, errors = threading.Event(), []
    writers = [threading.Thread(target=_play, args=(r, seated, stop, w, errors))
               for w in range(2)]
    with r.storage.read() as conn:
        before = sum(1 for _ in audit.entries(conn))
    for w in writers:
        w.start()
    reports, pages = [], []
    client = FormClient(create_app(r))  # logs in with the form's CSRF token, as a browser
    client.post("/login", data={"username": "audrey", "password": PW})
    def written() -> int:
        with r.storage.read() as conn:
            return sum(1 for _ in audit.entries(conn)) - before

    try:  # at least RUNS verifications, and on until the room has played enough beside them
        i, deadline = 0, time.monotonic() + 120
        while i < RUNS or (written() <= 2 * RUNS and time.monotonic() < deadline):
            reports.append(verify_cli(command, url))
            if i % 5 == 0:
                pages.append(client.get("/audit", params={"verify": "full"} if i % 10 == 0
                                        else {}).text)
            i += 1
    finally:
        stop.set()
        for w in writers:
            w.join()
    assert not errors
    assert written() > 2 * RUNS  # the room was in play throughout
    print(f"{written()} entries written during {len(reports)} verifications")
    alarms = [out for code, out in reports if code != 0 or not json.loads(out)["ok"]]
    assert alarms == []
    assert all("Audit chain intact" in p for p in pages), [p for p in pages
                                                            if "Problems" in p][:1]
