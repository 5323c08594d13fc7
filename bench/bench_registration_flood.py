"""A seated player's bet while strangers open accounts (issue 26, "The room's one writer held by
anonymous requests"): the figure to reach is a bet under twice its idle latency during a flood
of 100 registrations from 100 addresses.

Starts `cardroom serve --trusted-proxy 127.0.0.1` as a separate process on a free loopback port
with production argon2 (the test suites' fast-hashing switch is removed from its environment)
and a fresh SQLite file (or --database URL), seats one player at a Mini-Baccarat table, and
measures the time from sending a bet to receiving the state that shows it (the player deals
after each bet, so every bet is a new hand's): first `--idle` bets alone, then bets for as long
as `--registrations` registrations, each from its own browser and its own `X-Forwarded-For`
address, are in flight at once. Prints the bet latency idle and under the flood (median, p90,
max), how long the flood took and how its registrations were answered.

    .venv/bin/python bench/bench_registration_flood.py
    .venv/bin/python bench/bench_registration_flood.py --database postgresql+psycopg://...
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from multiprocessing.queues import Queue
from pathlib import Path

import httpx
from bench_server import _pct, _wait_listening, setup
from websockets.asyncio.client import ClientConnection, connect

from cardroom.room.people.accounts import FAST_HASHING_ENV
from cardroom.server.hub import COOKIE

TOKEN = re.compile(r'name="csrf" value="([0-9a-f]+)"')


async def bet_once(ws: ClientConnection, name: str, key: str) -> float:
    """One bet's latency (send to the state that shows it), then the deal that settles it."""
    t0 = time.perf_counter()
    await ws.send(json.dumps({"type": "bet", "bets": {"player": 500}, "key": key}))
    while True:
        state = json.loads(await ws.recv())
        if state["type"] == "error":
            raise RuntimeError(state["message"])
        if next(s for s in state["seats"] if s["name"] == name)["bets"]:
            took = time.perf_counter() - t0
            break
    await ws.send(json.dumps({"type": "deal"}))
    while state["type"] != "state" or state["hand"]["open"]:
        state = json.loads(await ws.recv())
    return took


async def register(url: str, i: int) -> int:
    """One stranger opens an account from address 198.18.x.y: the answer's status."""
    async with httpx.AsyncClient(base_url=url, timeout=900) as browser:
        found = TOKEN.search((await browser.get("/register")).text)
        assert found
        r = await browser.post("/register", headers={
            "X-Forwarded-For": f"198.18.{i // 250}.{i % 250 + 1}"}, data={
            "username": f"flood{i:04d}", "password": "a phrase of unrelated words",
            "csrf": found.group(1)})
        return r.status_code


def flood(url: str, registrations: int, answers: Queue[dict[int, int]]) -> None:
    """The strangers, in a process of their own (their clients' own work is not the room's)."""
    async def all_at_once() -> list[int]:
        return await asyncio.gather(*(register(url, i) for i in range(registrations)))
    answers.put(dict(Counter(asyncio.run(all_at_once()))))


async def run(url: str, table: int, name: str, token: str, idle: int, registrations: int
              ) -> tuple[list[float], list[float], float, dict[int, int]]:
    async with connect(f"{url.replace('http', 'ws')}/ws/tables/{table}",
                       additional_headers={"Cookie": f"{COOKIE}={token}"}) as ws:
        await ws.recv()
        quiet = [await bet_once(ws, name, f"idle-{i}") for i in range(idle)]
        spawn = multiprocessing.get_context("spawn")
        answers: Queue[dict[int, int]] = spawn.Queue()
        strangers = spawn.Process(target=flood, args=(url, registrations, answers))
        t0 = time.perf_counter()
        strangers.start()
        busy: list[float] = []
        while strangers.is_alive() or len(busy) < 5:
            busy.append(await bet_once(ws, name, f"busy-{len(busy)}"))
            if busy[-1] > 1:
                print(f"  slow bet: {busy[-1]:.1f} s, ending {time.perf_counter() - t0:.1f} s "
                      "into the flood")
        took = time.perf_counter() - t0
        return quiet, busy, took, answers.get(timeout=60)


def summary(lat: list[float]) -> str:
    ordered = sorted(lat)
    return (f"{len(lat)} bets: median {statistics.median(lat) * 1000:.1f} ms, "
            f"p90 {_pct(ordered, 0.9):.1f} ms, max {ordered[-1] * 1000:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--registrations", type=int, default=100)
    ap.add_argument("--idle", type=int, default=30)
    ap.add_argument("--database", default=None)
    a = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    database = a.database or str(Path(tmp.name) / "bench.sqlite3")
    (table, name, token, _), = setup(database, 1, 1)
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != FAST_HASHING_ENV}
    exe = Path(sys.executable).with_name("cardroom")
    server = subprocess.Popen([str(exe), "serve", "--port", str(port), "--database", database,
                               "--trusted-proxy", "127.0.0.1"], env=env)
    try:
        _wait_listening(port, server)
        quiet, busy, took, answers = asyncio.run(run(
            f"http://127.0.0.1:{port}", table, name, token, a.idle, a.registrations))
    finally:
        server.terminate()
        server.wait(10)
    print(f"database: {'SQLite' if a.database is None else a.database.split(':', 1)[0]}")
    print(f"idle:  {summary(quiet)}")
    print(f"flood: {summary(busy)}")
    print(f"flood of {a.registrations} registrations from {a.registrations} addresses: "
          f"{took:.1f} s; answers {dict(sorted(answers.items()))}")
    ratio = statistics.median(busy) / statistics.median(quiet)
    print(f"median under the flood / idle: {ratio:.2f} (the figure: under 2)")


if __name__ == "__main__":
    main()
