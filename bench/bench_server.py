"""Card-room server load: P players on T Mini-Baccarat tables over loopback WebSockets.

Starts `cardroom serve` as a separate process on a free 127.0.0.1 port with a fresh SQLite file
(or --database URL), seats the players, then plays R rounds: every player bets, one player per
table deals. Action-to-update latency is the time from sending an action to receiving the
broadcast state that shows it. Bounded in count and time; stops by itself. Prints the median
and 99th percentile and whether the ledger balances afterwards.

    .venv/bin/python bench/bench_server.py --players 500 --tables 50 --rounds 5
    .venv/bin/python bench/bench_server.py --players 500 --tables 50 --rounds 4 \
        --server-cpus 0 --client-cpus 1

`--server-cpus` / `--client-cpus` pin the server and the load generator to separate cores
(Linux `sched_setaffinity`, as `taskset -c` does), so that the 500 clients' own work does not
show up as server latency.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from opened_tables import open_tables
from websockets.asyncio.client import connect

from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role, create_account, hash_password, open_session
from cardroom.room.play.baccarat_live import MAX_SEATS
from cardroom.room.room import Room
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server.hub import COOKIE


def setup(database: str, players: int, tables: int) -> list[tuple[int, str, str, bool]]:
    """Accounts (one argon2 hash shared, to save setup time), chips, seats: (table, name,
    token, seated). A table seats 7; the other players at it watch (and get every update)."""
    room = Room.open(database, settings=SELF_SERVICE)
    owner = Account(0, "bench-owner", Role.OWNER)
    shared = hash_password("bench password")
    table_ids = [room.create_table(owner, f"Bench {i + 1}", "baccarat").table_id
                 for i in range(tables)]
    open_tables(room, table_ids, shared)
    out = []
    for i in range(players):
        with room.storage.unit() as conn:
            who = create_account(conn, f"p{i:04d}", "bench password", Role.PLAYER, shared)
            buy_chips(conn, SELF_SERVICE, who, 1_000_000, "bench")
            token = open_session(conn, who)
        t = table_ids[i % tables]
        seated = i // tables < MAX_SEATS
        if seated:
            room.act(who, t, {"type": "sit", "buy_in": 500_000, "key": "bench"})
        out.append((t, who.username, token, seated))
    room.storage.engine.dispose()
    return out


class Start:
    """Play starts once every client is connected (unless `wait` is off: then each player
    starts thinking as soon as it is in, while the others are still connecting)."""

    def __init__(self, clients: int, wait: bool) -> None:
        self.left, self.wait, self.go = clients, wait, asyncio.Event()
        self.began = time.perf_counter()
        self.connected = 0.0

    async def ready(self) -> None:
        self.left -= 1
        if not self.left:
            self.connected = time.perf_counter() - self.began
            self.go.set()
        if self.wait:
            await self.go.wait()


async def player(url: str, table: int, name: str, token: str, rounds: int, dealer: bool,
                 seats_at_table: int, lat: list[float], think: float,
                 deals: list[float], start: Start) -> None:
    async with connect(f"{url}/ws/tables/{table}", max_size=2**20,
                       additional_headers={"Cookie": f"{COOKIE}={token}"}) as ws:
        state = json.loads(await ws.recv())
        await start.ready()
        pace = random.Random(name)
        for r in range(rounds):
            if think:  # a player thinks before betting (uniform 0..2x the mean), reading updates
                deadline = time.perf_counter() + pace.uniform(0, 2 * think)
                while (left := deadline - time.perf_counter()) > 0:
                    try:
                        await asyncio.wait_for(ws.recv(), left)
                    except TimeoutError:
                        break
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "bet", "bets": {"player": 500},
                                      "key": f"{name}-{r}"}))
            while True:
                state = json.loads(await ws.recv())
                if state["type"] == "error":
                    raise RuntimeError(state["message"])
                me = next(s for s in state["seats"] if s["name"] == name)
                if me["bets"]:
                    lat.append(time.perf_counter() - t0)
                    break
            while dealer and sum(bool(s["bets"]) for s in state["seats"]) < seats_at_table:
                state = json.loads(await ws.recv())
            if dealer:
                t0 = time.perf_counter()
                await ws.send(json.dumps({"type": "deal"}))
            while state["type"] != "state" or state["hand"]["open"]:
                state = json.loads(await ws.recv())
            if dealer:
                lat.append(time.perf_counter() - t0)
                deals.append(lat[-1])


async def watcher(url: str, table: int, token: str, rounds: int, start: Start) -> None:
    async with connect(f"{url}/ws/tables/{table}", max_size=2**20,
                       additional_headers={"Cookie": f"{COOKIE}={token}"}) as ws:
        await start.ready()
        seen: set[int] = set()
        while len(seen) < rounds:
            state = json.loads(await ws.recv())
            if state.get("last"):
                seen.add(state["last"]["hand"])


async def play(url: str, people: list[tuple[int, str, str, bool]], rounds: int,
               think: float, start: Start) -> tuple[list[float], list[float]]:
    lat: list[float] = []
    deals: list[float] = []
    first: dict[int, str] = {}
    count: dict[int, int] = {}
    for t, name, _, seated in people:
        if seated:
            first.setdefault(t, name)
            count[t] = count.get(t, 0) + 1
    await asyncio.wait_for(asyncio.gather(*(
        player(url, t, name, token, rounds, first[t] == name, count[t], lat, think, deals,
               start)
        if seated else
        watcher(url, t, token, rounds, start)
        for t, name, token, seated in people)), timeout=600)
    return lat, deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--database", default=None)
    ap.add_argument("--port", type=int, default=8765, help="0: a free port")
    ap.add_argument("--think", type=float, default=3.0,
                    help="mean seconds a player waits before betting (0: all at once)")
    ap.add_argument("--server-cpus", default=None,
                    help="pin the server to these cores, e.g. 0 or 0,1 (Linux)")
    ap.add_argument("--client-cpus", default=None,
                    help="pin the load generator (this process) to these cores, e.g. 1")
    ap.add_argument("--no-wait", action="store_true",
                    help="players start as soon as each is connected, not once all are "
                         "(the connection storm then overlaps the first bets)")
    a = ap.parse_args()
    if a.port == 0:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            a.port = probe.getsockname()[1]
    server_cpus = _cpus(a.server_cpus)
    client_cpus = _cpus(a.client_cpus)
    if client_cpus:
        os.sched_setaffinity(0, client_cpus)
    tmp = tempfile.TemporaryDirectory()
    database = a.database or str(Path(tmp.name) / "bench.sqlite3")
    t0 = time.perf_counter()
    seated = setup(database, a.players, a.tables)
    print(f"setup: {a.players} players ({sum(x[3] for x in seated)} seated) on {a.tables} "
          f"tables in {time.perf_counter() - t0:.1f} s")
    exe = Path(sys.executable).with_name("cardroom")
    server = subprocess.Popen([str(exe), "serve", "--port", str(a.port), "--database",
                               database, "--self-service-chips"], env=os.environ.copy(),
                              preexec_fn=(lambda: os.sched_setaffinity(0, server_cpus))
                              if server_cpus else None)
    try:
        _wait_listening(a.port, server)
        start = Start(len(seated), wait=not a.no_wait)
        server_cpu0, client_cpu0 = _process_cpu(server.pid), time.process_time()
        lat, deals = asyncio.run(play(f"ws://127.0.0.1:{a.port}", seated, a.rounds, a.think,
                                      start))
        wall = time.perf_counter() - start.began - (0 if a.no_wait else start.connected)
        server_cpu = _process_cpu(server.pid) - server_cpu0
        client_cpu = time.process_time() - client_cpu0
    finally:
        server.terminate()
        server.wait(10)
    lat.sort()
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    room = Room.open(database)
    with room.storage.read() as conn:
        books = ledger.trial_balance(conn)
    print(f"{len(seated)} clients connected in {start.connected:.2f} s; play "
          + ("began as each connected (--no-wait)" if a.no_wait else "began after that"))
    print(f"actions: {len(lat)} in {wall:.1f} s ({len(lat) / wall:.0f}/s)")
    print(f"action-to-update latency: median {statistics.median(lat) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")
    print(f"  p90 {_pct(lat, 0.9):.1f} ms, p95 {_pct(lat, 0.95):.1f} ms; deals only "
          f"({len(deals)}): median {_pct(sorted(deals), 0.5):.1f} ms, "
          f"p99 {_pct(sorted(deals), 0.99):.1f} ms")
    print(f"CPU while connecting and playing: server {server_cpu:.1f} s "
          f"({server_cpu / len(lat) * 1000:.2f} ms an action, {server_cpu / wall:.0%} of a core), "
          f"load generator {client_cpu:.1f} s; load average {os.getloadavg()[0]:.2f}")
    print(f"ledger balanced after the run: {books.ok}")
    if server_cpus or client_cpus:
        print(f"pinned: server on cores {sorted(server_cpus or [])}, "
              f"load generator on cores {sorted(client_cpus or [])}")


def _wait_listening(port: int, server: subprocess.Popen[bytes], limit: float = 120) -> None:
    """Until the server accepts connections (its start-up takes seconds on a loaded machine)."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline and server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not start listening on port {port}")


def _process_cpu(pid: int) -> float:
    """User plus system CPU seconds of a running process (Linux /proc), so that the wall
    figures of a loaded machine can be read beside the work the server did."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pct(ordered: list[float], q: float) -> float:
    """The q-quantile of sorted seconds, in milliseconds (nearest rank)."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def _cpus(text: str | None) -> set[int]:
    return {int(c) for c in text.split(",")} if text else set()


if __name__ == "__main__":
    main()
