"""Issue 25, "every page and table updates from any process": two processes of one PostgreSQL
room (`room_processes.process`: a `Room` with a holder id of its own served by uvicorn on a
port of 127.0.0.1). A change at one (a seat taken, a coup that moves the linked jackpot meter)
reaches the live pages served by the other within two seconds, over PostgreSQL's
LISTEN/NOTIFY (`cardroom.server.changes`): its change socket names what changed, its lobby
shows it, and its viewers of a jackpot table it holds get the new meter, and so do its
jackpot page and its floor; a sale at one's cage is on the other's cage page (the cashier's
drawer, the latest movements). The pit screen of either shows every table live, and a floor
action sent to the process that does not hold the table is applied by the holder
(`cardroom.server.forward`), and with the holder gone the floor reads one "try again"
sentence and nothing is done."""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

import httpx
from sqlalchemy import select, text, update

from cardroom.room.play import leases
from cardroom.room.play.baccarat_live import BaccaratLive
from cardroom.room.storage import audit
from cardroom.room.storage.schema import audit_log, table_leases
from cardroom.server import flash
from server.room_processes import (
    browser,
    coup,
    hand_over,
    heard,
    link,
    message,
    process,
    socket,
    the_room,
    token,
    two_tables,
    wait_linked,
)
from server.serve_process import free_port

WITHIN_S = 2.0
"""How soon a change at one process reaches the pages of the other."""


def test_a_change_at_one_process_reaches_the_pages_of_the_other(pg_url: str) -> None:
    t1, t2 = two_tables(pg_url)
    with process(pg_url, 1) as (a, a_port, _), process(pg_url, 2) as (b, b_port, _):
        hand_over(b, t2)  # Mini 1 held by A, Mini 2 by B (A lets go at its next beat)
        deadline = time.monotonic() + 5
        while t2 in a.tables:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert t1 in a.tables and t2 in b.tables
        wait_linked(a_port, b_port)
        alice, olivia = browser(a_port, "alice"), browser(b_port, "olivia")

        async def play() -> dict[str, float]:
            took: dict[str, float] = {}
            async with socket(b_port, "/ws/changes", olivia) as changes, \
                    socket(b_port, f"/ws/tables/{t2}", olivia) as mini_2, \
                    socket(a_port, f"/ws/tables/{t1}", alice) as mini_1:
                meter = (await message(mini_2))["jackpot"]["meter"]
                assert (await message(mini_1))["type"] == "state"
                await mini_1.send(json.dumps({"type": "sit", "buy_in": 20_000, "key": "s"}))
                took["seat"] = await asyncio.wait_for(heard(changes, f"table {t1}"), WITHIN_S)
                lobby = olivia.get("/lobby").text  # B's lobby, the seat taken at A
                seats = BaccaratLive.max_seats
                assert f"{seats - 1} of {seats} seats free" in lobby
                assert (await message(mini_1))["you"]["seated"]
                await mini_1.send(json.dumps({"type": "bet", "key": "b", "bets": {
                    "player": 500, "progressive": 100}}))
                assert (await message(mini_1))["hand"]["open"]
                await mini_1.send(json.dumps({"type": "deal"}))  # the meter moves
                took["jackpot"] = await asyncio.wait_for(heard(changes, "jackpot"), WITHIN_S)
                moved = await asyncio.wait_for(message(mini_2), WITHIN_S)
                assert moved["jackpot"]["meter"] > meter  # B's viewers see A's contribution
                assert moved["jackpot"]["meter"] == b.pools[next(iter(b.pools))].meter
                # the listener's connection ended (a database restart does so): it comes
                # back by itself, its pages told that anything may have changed
                gone = link(b_port).listener_pid
                with b.storage.unit() as conn:
                    conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": gone})
                took["back"] = await asyncio.wait_for(heard(changes, "room"), 10)
                assert link(b_port).listener_pid not in (None, gone)
                await mini_1.send(json.dumps({"type": "bet", "key": "b2", "bets": {
                    "player": 500}}))
                took["bet"] = await asyncio.wait_for(heard(changes, f"table {t1}"), WITHIN_S)
            return took

        took = asyncio.run(play())
        assert max(took["seat"], took["jackpot"], took["bet"]) < WITHIN_S, took


def test_a_floor_action_at_the_other_process_is_applied_by_the_holder(pg_url: str) -> None:
    """olivia (the owner) sees Mini 1's hand in play on B's pit screen (as A, its holder,
    says) and voids it from the floor page of B; A voids it (alice's socket at A says so;
    B wrote no refusal); voided again, the holder's refusal is what the floor reads. Then the
    lease names a holder that is gone: the floor reads "please try again" and nothing is
    done."""
    t1, _ = two_tables(pg_url)
    with process(pg_url, 1) as (a, a_port, _), process(pg_url, 2) as (b, b_port, _):
        assert t1 in a.tables and t1 not in b.tables
        alice, olivia = browser(a_port, "alice"), browser(b_port, "olivia")

        async def void() -> tuple[httpx.Response, dict[str, Any]]:
            async with socket(a_port, f"/ws/tables/{t1}", alice) as mini_1:
                await message(mini_1)
                await mini_1.send(json.dumps({"type": "sit", "buy_in": 20_000, "key": "s"}))
                await message(mini_1)
                await mini_1.send(json.dumps({"type": "bet", "key": "b",
                                              "bets": {"player": 500}}))
                assert (await message(mini_1))["hand"]["open"]
                pit = (await asyncio.to_thread(olivia.get, "/floor/tables.json")).json()
                card = next(c for c in pit if c["id"] == t1)  # B's pit, the table live at A
                assert card["state"] == "open" and card["hand"] is not None
                assert [s["name"] for s in card["seated"]] == ["alice"]
                sent = await asyncio.to_thread(olivia.post, "/floor/void", data={
                    "table_id": str(t1), "reason": "a card fell", "csrf":
                        token(olivia, "/floor")})
                return sent, await message(mini_1)

        sent, after = asyncio.run(void())
        assert sent.status_code == 303 and sent.headers["location"] == "/floor"
        said = flash.contents(sent.cookies[flash.COOKIE])
        assert said["message"] == "hand voided; wagers returned" and not said["error"]
        assert not after["hand"]["open"] and after["last"]["reason"] == "a card fell"
        assert t1 not in b.tables  # B applied nothing itself
        with b.storage.read() as conn:
            refused = conn.execute(select(audit_log.c.action).where(
                audit_log.c.action.like("refused%"))).scalars().all()
            assert not refused and audit.verify(conn).ok

        refused = olivia.post("/floor/void", data={"table_id": str(t1), "reason": "twice",
                                                   "csrf": token(olivia, "/floor")})
        said = flash.contents(refused.cookies[flash.COOKIE])  # the holder's reason, as said
        assert said["error"] and not said["message"] and said["error"] != leases.MOVED
        with b.storage.read() as conn:
            reasons = [json.loads(d)["reason"] for d in conn.execute(select(
                audit_log.c.detail).where(audit_log.c.action == "refused")).scalars()]
        assert reasons == [said["error"]]  # audited once, by the holder

        nobody = leases.new_holder(f"127.0.0.1:{free_port()}")  # nothing listens there
        with a.storage.unit() as conn:
            conn.execute(update(table_leases).where(table_leases.c.table_id == t1)
                         .values(holder=nobody))
        again = olivia.post("/floor/void", data={"table_id": str(t1), "reason": "again",
                                                 "csrf": token(olivia, "/floor")})
        said = flash.contents(again.cookies[flash.COOKIE])
        assert said["error"] == leases.MOVED and not said["message"]
        assert t1 not in b.tables  # not taken over from a holder whose lease still runs
        with b.storage.read() as conn:
            assert len(conn.execute(select(audit_log.c.seq).where(
                audit_log.c.action == "refused")).scalars().all()) == 1  # nothing more


def shown(page: str, element: str) -> str:
    """The text of the element with id `element` on `page` (its first line)."""
    found = re.search(rf'id="{element}"[^>]*>(.*?)<', page, re.S)
    assert found, element
    return found.group(1).strip()


def latest(page: str) -> str:
    """The cage's latest movements on a cage page."""
    return page.split('id="recent"')[1].split("</section>")[0]


def test_a_cage_movement_at_one_process_reaches_the_cage_page_of_the_other(
        pg_url: str) -> None:
    """Issue 25, "every page ... updates from any process (... cage)": olivia sells alice
    $250 of chips at A's cage; the change socket of her cage page open at B names `cage`
    (and nothing else that was not changed), and B's cage, drawn from the books, shows it in
    her drawer and in the cage's latest movements. alice, a player, hears the same word on
    her own lobby's socket (her chips at the cage are on her lobby and her table pages, drawn
    again at B with the new sum) and never a figure, and B's cage is refused her."""
    t = the_room(pg_url)
    with process(pg_url, 1) as (_, a_port, _stop_a), process(pg_url, 2) as (_, b_port, _):
        wait_linked(a_port, b_port)
        at_a, at_b, alice = (browser(a_port, "olivia"), browser(b_port, "olivia"),
                             browser(b_port, "alice"))
        before = at_b.get("/cage").text
        assert shown(before, "drawer-cash") == "$0.00" and "chips sold" not in latest(before)

        async def sell() -> tuple[float, dict[str, Any]]:
            async with socket(b_port, "/ws/changes", at_b) as cage, \
                    socket(b_port, "/ws/changes", alice) as lobby:
                sold = await asyncio.to_thread(at_a.post, "/cage/sell", data={
                    "player": "alice", "amount": "250", "key": "live-1",
                    "csrf": token(at_a, "/cage")})
                assert sold.status_code == 303, sold.text
                took = await asyncio.wait_for(heard(cage, "cage"), WITHIN_S)
                return took, await asyncio.wait_for(message(lobby), WITHIN_S)

        took, told = asyncio.run(sell())
        assert took < WITHIN_S
        assert told == {"type": "changed", "what": ["cage"]}  # the word, never a figure
        after = at_b.get("/cage").text
        assert shown(after, "drawer-cash") == "$250.00"
        assert shown(after, "drawer-cash-in") == "$250.00"
        recent = latest(after)
        assert "chips sold for cash" in recent and "alice" in recent and "$250.00" in recent
        assert alice.get("/cage").status_code == 403
        assert shown(alice.get("/lobby").text, "wallet") == "$1,250.00"
        assert shown(alice.get(f"/tables/{t}").text, "wallet") == "$1,250.00"


def test_a_meter_moved_at_one_process_reaches_the_jackpot_pages_of_the_other(
        pg_url: str) -> None:
    """Issue 25, "... jackpot meters": alice's coup with a progressive wager on Mini 1 (held
    by A) adds to the pool Mini 2 (held by B) shares; B's jackpot page and its floor, drawn
    from B's pool read again from the books, show A's new meter once B's change socket names
    `jackpot`."""
    t1, t2 = two_tables(pg_url)
    with process(pg_url, 1) as (a, a_port, _), process(pg_url, 2) as (b, b_port, _):
        hand_over(b, t2)
        deadline = time.monotonic() + 5
        while t2 in a.tables:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        wait_linked(a_port, b_port)
        alice, olivia = browser(a_port, "alice"), browser(b_port, "olivia")
        meter = shown(olivia.get("/floor/jackpot").text, "meter")

        async def jackpot_coup() -> float:
            async with socket(b_port, "/ws/changes", olivia) as changes, \
                    socket(a_port, f"/ws/tables/{t1}", alice) as mini_1:
                await message(mini_1)
                await mini_1.send(json.dumps({"type": "sit", "buy_in": 20_000, "key": "s"}))
                await message(mini_1)
                await coup(mini_1, "b", progressive=100)
                return await asyncio.wait_for(heard(changes, "jackpot"), WITHIN_S)

        assert asyncio.run(jackpot_coup()) < WITHIN_S
        moved = a.pools[next(iter(a.pools))].meter  # the meter as A, the table's holder, has it
        page = olivia.get("/floor/jackpot").text
        assert shown(page, "meter") != meter
        assert shown(page, "meter") == f"${moved // 100:,}.{moved % 100:02d}"
        floor = olivia.get("/floor", timeout=60).text  # its first drawing takes seconds
        assert f"Jackpot meter ${moved // 100:,}.{moved % 100:02d}" in floor
