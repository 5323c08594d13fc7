"""The `/audit` page: checks only what was written since its last sound check (the whole chain
on request), keeps showing a problem once found, and pages and filters the log by who, what,
table and date, with a plain sentence for a bad filter; across the chains of a room served by
several processes (issue 25), in one order, each entry on exactly one page, with the process
that wrote it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import audit_log
from cardroom.room.storage.settings import GamblingClock
from cardroom.server.app import create_app
from cardroom.shoe import SeededRandom
from server.forms import FormClient, log_in, setup_table

KEY = bytes(range(32))


@pytest.fixture
def client(storage: Storage) -> tuple[TestClient, Room]:
    room = Room(Storage(storage.engine, KEY), SeededRandom(4))
    room.start()
    setup_table(room)
    c = FormClient(create_app(room))  # logs in with the form's CSRF token
    log_in(c, "audrey")
    return c, room


def note(room: Room, n: int, actor: str = "floor", action: str = "floor.note",
         table: int | None = None) -> None:
    for i in range(n):
        with room.storage.unit() as conn:
            detail = {"i": i} if table is None else {"i": i, "table": table}
            audit.append(conn, actor, action, detail)


def seqs(page: str) -> list[int]:
    return [int(s) for s in re.findall(r"<tr><td>(\d+)</td>", page)]


def test_a_load_checks_only_new_entries_and_a_full_check_finds_old_tampering(
        client: tuple[TestClient, Room]) -> None:
    c, room = client
    first = c.get("/audit").text
    assert "Audit chain intact" in first and "onwards checked now" not in first
    with room.storage.read() as conn:
        head = sum(1 for _ in audit.entries(conn))
    note(room, 3)
    again = c.get("/audit").text
    assert f"entries {head + 1} onwards checked now" in again
    assert f"Audit chain intact: {head + 3} entries" in again
    with room.storage.unit() as conn:  # an old entry altered behind the checkpoint
        conn.execute(update(audit_log).where(audit_log.c.seq == 2).values(actor="mallory"))
    assert "Audit chain intact" in c.get("/audit").text  # the incremental check's limit
    full = c.get("/audit", params={"verify": "full"}).text
    assert "Problems found" in full and "entry 2 was altered" in full
    assert "entry 2 was altered" in c.get("/audit").text  # and it stays until resolved


def test_tampering_after_the_checkpoint_is_found_without_asking(
        client: tuple[TestClient, Room]) -> None:
    c, room = client
    c.get("/audit")
    note(room, 2)
    with room.storage.unit() as conn:
        last = max(e.seq for e in audit.entries(conn))
        conn.execute(update(audit_log).where(audit_log.c.seq == last).values(actor="x"))
    assert f"entry {last} was altered" in c.get("/audit").text


def test_pages_of_a_hundred_newest_first(client: tuple[TestClient, Room]) -> None:
    c, room = client
    note(room, 150)
    with room.storage.read() as conn:
        total = sum(1 for _ in audit.entries(conn))
    page = c.get("/audit").text
    assert seqs(page) == list(range(total, total - 100, -1))
    older = re.search(r'href="(/audit\?[^"]*before=\d+[^"]*)" id="older"', page)
    assert older is not None
    rest = c.get(older.group(1).replace("&amp;", "&")).text
    assert seqs(rest) == list(range(total - 100, 0, -1)) and 'id="older"' not in rest


def test_filters_by_actor_kind_table_and_date(client: tuple[TestClient, Room]) -> None:
    c, room = client
    note(room, 3, actor="floor", action="floor.note", table=7)
    note(room, 2, actor="olivia", action="floor.count", table=17)
    note(room, 4, actor="olivia", action="cashier.fill")
    assert len(seqs(c.get("/audit", params={"actor": "olivia", "kind": "floor."}).text)) == 2
    assert len(seqs(c.get("/audit", params={"kind": "cashier.fill"}).text)) == 4
    assert len(seqs(c.get("/audit", params={"table": "7"}).text)) == 3  # not table 17
    today = GamblingClock.from_env().day_of(datetime.now(UTC))  # the room's gambling day
    assert len(seqs(c.get("/audit", params={"actor": "olivia", "since": today.isoformat(),
                                            "until": today.isoformat()}).text)) == 2 + 2 + 4
    # (the owner's account was also made today, recorded by `create_account`, and she opened
    # the table)
    tomorrow = (today + timedelta(days=1)).isoformat()
    assert "No entries match" in c.get("/audit", params={"since": tomorrow}).text


@pytest.mark.parametrize(("query", "sentence"), [
    ({"since": "yesterday"}, "The from date must be written as year-month-day"),
    ({"table": "-1"}, "The table number must be a whole number."),
    ({"before": "99999999999999999999999"}, "The page position must be a whole number."),
])
def test_a_bad_filter_is_one_plain_sentence(client: tuple[TestClient, Room],
                                            query: dict[str, str], sentence: str) -> None:
    c, _ = client
    r = c.get("/audit", params=query)
    assert r.status_code == 400 and sentence in r.text and "Traceback" not in r.text


def walk(c: TestClient, path: str) -> list[tuple[int, int]]:
    """Every page from `path` on, following "Older entries": each row's (chain, entry)."""
    rows: list[tuple[int, int]] = []
    while True:
        page = c.get(path).text
        rows += [(int(chain), int(seq)) for seq, chain in re.findall(
            r'<tr><td>(\d+)</td><td class="chain" data-chain="(\d+)">', page)]
        older = re.search(r'href="(/audit\?[^"]*)" id="older"', page)
        if older is None:
            return rows
        path = older.group(1).replace("&amp;", "&")


def test_two_writer_chains_interleaved_are_paged_in_one_order_each_entry_once(
        client: tuple[TestClient, Room]) -> None:
    """Issue 25: entries of two writer chains (and the room chain's anchors of them) share
    sequence numbers; the pages list them newest first by time, then chain, then entry,
    every entry exactly once, each with the process that wrote it; entries written while
    someone pages land on none of the later pages; the chain filter shows one chain."""
    c, room = client
    a, b = Storage(room.storage.engine, KEY), Storage(room.storage.engine, KEY)
    a.write_as("10.0.0.1:8001")
    b.write_as("10.0.0.2:8001")
    for i in range(110):
        for storage in (a, b) if i % 3 else (b, a):
            with storage.unit() as conn:
                audit.append(conn, "floor", "floor.note", {"i": i})
    with room.storage.read() as conn:
        logged = sorted(conn.execute(select(audit_log.c.at, audit_log.c.chain,
                                            audit_log.c.seq)), reverse=True)
    every = [(int(chain), int(seq)) for _, chain, seq in logged]
    assert len(every) > 2 * 100 and {chain for chain, _ in every} == {0, 1, 2}
    first = c.get("/audit").text
    assert "10.0.0.1:8001 (chain 1)" in first and "room chain" in first
    note(room, 5)  # written after the first page was read: on no later page
    older = re.search(r'href="(/audit\?[^"]*)" id="older"', first)
    assert older is not None
    rest = walk(c, older.group(1).replace("&amp;", "&"))
    shown = [(int(chain), int(seq)) for seq, chain in re.findall(
        r'<tr><td>(\d+)</td><td class="chain" data-chain="(\d+)">', first)] + rest
    assert shown == every
    only_b = walk(c, f"/audit?chain={b.chain}")
    assert only_b == [(chain, seq) for chain, seq in every if chain == b.chain]
