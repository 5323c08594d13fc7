"""Card-room server load: P players on T Mini-Baccarat tables over loopback WebSockets.

Starts `cardroom serve` as a separate process on free 127.0.0.1 ports with a fresh room (a
SQLite file, or --database URL), seats the players, then plays R rounds: every player bets,
one player per table deals. Action-to-update latency is the time from sending an action to
receiving the broadcast state that shows it (the load generator collects no garbage while it
plays: a pause of its own, 50-130 ms with 500 clients, is not the server's latency). Bounded
in count and time; stops by itself.
Prints the median and 99th percentile, the CPU time of every server process beside the wall
time, the load average, and whether the ledger balances afterwards.

    .venv/bin/python bench/bench_server.py --players 500 --tables 50 --rounds 5
    .venv/bin/python bench/bench_server.py --players 500 --tables 50 --rounds 4 \
        --server-cpus 0 --client-cpus 1
    .venv/bin/python bench/bench_server.py --players 500 --tables 50 --rounds 4 \
        --compare postgres postgres:2 postgres:2:holder

`--server-cpus` / `--client-cpus` pin the server and the load generator to separate cores
(Linux `sched_setaffinity`, as `taskset -c` does), so that the 500 clients' own work does not
show up as server latency.

More tables than the law allows. The Washington profile allows 15 house-banked tables in one
establishment (RCW 9.46.0282) and the room refuses the 16th. For more, the bench writes a
load-test profile into its temporary folder for the run (`load_test_profile`): the shipped
Washington profile word for word, renamed `load-test-washington`, titled and headed as a
load test that no room may run under, with that one cap raised to the bench's table count
(every other cap checked equal to Washington's), and sets `CARDROOM_PROFILE` to it for
itself and the servers it starts (which print its title). The law stays data: the shipped
profiles are untouched and no room is ever given this one. Fifty tables are one room's load
here, not several rooms', because the figure of issue 25 is one room's.

Several processes (`--workers N`, PostgreSQL only): `cardroom serve --workers N` runs them as
it would for a room, the i-th on port+i, each table held by one process under a lease. The
bench waits until every table is held and the split is fair (the room balances its tables:
each process takes free tables up to its share, and one holding two more than another hands
it tables between hands), prints how the tables are spread and how long the balancing took,
and connects each client to a process picked at random (`--connect random`, seeded by the
player's name: a socket at a process that does not hold its table is relayed to the holder)
or to its table's holder (`--connect holder`). `postgres:1:holder` is one process serving as
one of several (`serve --advertise`): every table under its lease, nothing relayed, no other
process to wait for; beside `postgres` and `postgres:2:holder` it parts the cost of the leases
from the cost of two processes sharing the room's writer lock. On PostgreSQL it also
samples, every 0.2 s of play, how many of the room's database sessions wait for the
room-wide writer lock (an advisory lock) and how many are running a statement, and reads the
CPU time of PostgreSQL's processes for the room beside the servers'.

Side by side (`--compare sqlite postgres postgres:2 postgres:2:holder`): the runs one after
another in one invocation, each on a fresh room (PostgreSQL: the database of `--postgres`
dropped and made again), then one table of every run's figures and its rate as a ratio of
the first run's; `--repeat K` plays the whole series K times, alternating, so that a change
in the machine's load falls on every kind of run alike.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from pathlib import Path

from bench_chaos import fresh_database
from opened_tables import open_tables
from sqlalchemy import Connection, select, text
from websockets.asyncio.client import connect

from cardroom.cli.room import is_sqlite
from cardroom.profile import DEFAULT_PROFILE, PROFILE_ENV, load_profile
from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role, create_account, hash_password, open_session
from cardroom.room.play import leases
from cardroom.room.play.baccarat_live import MAX_SEATS
from cardroom.room.room import Room
from cardroom.room.storage.db import database_url, make_engine, open_database
from cardroom.room.storage.schema import table_leases
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server.hub import COOKIE

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/cardroom_bench"

Person = tuple[int, str, str, bool]
"""(table, name, session token, seated)."""


def load_test_profile(folder: Path, tables: int) -> Path | None:
    """A load-test profile for `tables` house-banked tables in `folder`, or None when the
    Washington profile admits them as it is: its text with the name, the title and the table
    cap changed and a header that says what it is; checked to differ from Washington's in
    those alone."""
    law = load_profile(DEFAULT_PROFILE)
    if law.house_banked_tables.on(date.today()).admits(tables):
        return None
    shipped = resources.files("cardroom.data").joinpath(
        f"profiles/{DEFAULT_PROFILE}.toml").read_text(encoding="utf-8")
    body = shipped.replace(f'name = "{law.name}"', 'name = "load-test-washington"', 1)
    body = body.replace(f'title = "{law.title}"', f'title = "LOAD TEST ONLY ({tables} '
                        'tables in one room, over the Washington cap): no room runs under '
                        'this profile"', 1)
    body = re.sub(r"(\[\[house_banked_tables\.periods\]\]\s*\n)count = \d+",
                  rf"\g<1>count = {tables}", body)
    path = folder / f"load-test-washington-{tables}-tables.toml"
    path.write_text(f"# LOAD TEST ONLY, written by bench/bench_server.py for one run: the\n"
                    f"# Washington profile with the house-banked table cap of RCW 9.46.0282\n"
                    f"# raised to {tables}, so that one room can be loaded with {tables} "
                    f"tables. No room may\n# run under it; it is never shipped.\n\n{body}",
                    encoding="utf-8")
    made = load_profile(str(path))
    others = {"name", "title", "house_banked_tables"}
    cap, raised = law.house_banked_tables, made.house_banked_tables
    if (made.model_dump(exclude=others) != law.model_dump(exclude=others)
            or (raised.section, raised.what) != (cap.section, cap.what)
            or not raised.on(date.today()).admits(tables)):
        raise SystemExit("error: the load-test profile did not come out as Washington's "
                         "with the table cap raised")
    return path


def setup(database: str, players: int, tables: int) -> list[Person]:
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

    def __init__(self, clients: int, wait: bool, server: int,
                 sampler: LockSampler | None) -> None:
        self.left, self.wait, self.go = clients, wait, asyncio.Event()
        self.server, self.sampler = server, sampler
        self.began = time.perf_counter()
        self.cpu_began = self.cpu_connected = _tree_cpu(server)
        self.connected = 0.0

    async def ready(self) -> None:
        self.left -= 1
        if not self.left:
            self.connected = time.perf_counter() - self.began
            self.cpu_connected = _tree_cpu(self.server)
            if self.sampler is not None:
                self.sampler.go.set()
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


async def play(urls: list[str], people: list[Person], rounds: int, think: float,
               start: Start) -> tuple[list[float], list[float]]:
    """Every person at once, each through its own address (`urls`, in `people`'s order)."""
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
        for url, (t, name, token, seated) in zip(urls, people, strict=True))), timeout=600)
    return lat, deals


@dataclass(frozen=True)
class Kind:
    """One kind of run: the database (`sqlite` or `postgres`), how many server processes,
    and which of them each client connects to (`random` or its table's `holder`)."""

    database: str
    workers: int = 1
    connect: str = "random"

    @property
    def leased(self) -> bool:
        """Whether the tables are held under leases: several processes, or one serving as a
        room of several (`postgres:1:holder`: `serve --advertise`, a lease checked at every
        action, no relaying)."""
        return self.workers > 1 or self.connect == "holder"

    @property
    def label(self) -> str:
        if not self.leased:
            return self.database
        return f"{self.database}:{self.workers}:{self.connect}"


def kind(spec: str) -> Kind:
    """`sqlite`, `postgres`, `postgres:2`, `postgres:2:holder` (argparse's type)."""
    parts = spec.split(":")
    if parts[0] not in ("sqlite", "postgres") or len(parts) > 3:
        raise argparse.ArgumentTypeError(f"{spec!r}: sqlite or postgres[:N[:random|holder]]")
    workers = int(parts[1]) if len(parts) > 1 else 1
    connect_to = parts[2] if len(parts) > 2 else "random"
    if connect_to not in ("random", "holder") or workers < 1:
        raise argparse.ArgumentTypeError(f"{spec!r}: sqlite or postgres[:N[:random|holder]]")
    if parts[0] == "sqlite" and (workers > 1 or connect_to == "holder"):
        raise argparse.ArgumentTypeError("several processes serve one room only on PostgreSQL")
    return Kind(parts[0], workers, connect_to)


@dataclass
class Result:
    """One run's figures."""

    label: str
    actions: int
    wall: float
    lat: list[float]
    deals: list[float]
    connected: float
    server_cpu: dict[str, float]
    client_cpu: float
    load: tuple[float, float, float]
    books_ok: bool
    spread: dict[int, int] = field(default_factory=dict)
    waiting: dict[str, float] = field(default_factory=dict)
    balanced: float = 0.0
    """Seconds from every process listening to a fair split (every table held)."""

    @property
    def rate(self) -> float:
        return self.actions / self.wall

    @property
    def cpu(self) -> float:
        return sum(self.server_cpu.values())


def run(k: Kind, a: argparse.Namespace, folder: Path, n: int) -> Result:
    """Set up a fresh room of kind `k`, serve it, play, stop the servers, check the books."""
    database = a.database or (str(folder / f"bench-{n}.sqlite3") if k.database == "sqlite"
                              else a.postgres)
    if a.database is None and k.database == "postgres":
        fresh_database(database)
    t0 = time.perf_counter()
    people = setup(database, a.players, a.tables)
    print(f"\n== {k.label}: setup of {a.players} players ({sum(x[3] for x in people)} "
          f"seated) on {a.tables} tables in {time.perf_counter() - t0:.1f} s", flush=True)
    ports = _free_ports(a.port, k.workers)
    command = [str(Path(sys.executable).with_name("cardroom")), "serve", "--port",
               str(ports[0]), "--database", database, "--self-service-chips"]
    server_cpus = _cpus(a.server_cpus)
    several = (["--workers", str(k.workers)] if k.workers > 1
               else ["--advertise", "127.0.0.1"] if k.leased else [])
    server = subprocess.Popen(command + several, env=os.environ.copy(),
                              preexec_fn=(lambda: os.sched_setaffinity(0, server_cpus))
                              if server_cpus else None)
    try:
        for port in ports:
            _wait_listening(port, server)
        holders, balanced = _held(database, a.tables, k.workers) if k.leased else ({}, 0.0)
        urls = _routes(people, ports, holders, k.connect)
        sampler = LockSampler(database, a.no_wait) if k.database == "postgres" else None
        start = Start(len(people), not a.no_wait, server.pid, sampler)
        client0 = time.process_time()
        gc.disable()  # the load generator's own pauses are not the server's latency
        try:
            lat, deals = asyncio.run(play(urls, people, a.rounds, a.think, start))
        finally:
            gc.enable()
        wall = time.perf_counter() - start.began - (0 if a.no_wait else start.connected)
        cpu1, client_cpu = _tree_cpu(server.pid), time.process_time() - client0
        cpu0 = start.cpu_began if a.no_wait else start.cpu_connected
        waiting = sampler.stop() if sampler else {}
    finally:
        server.terminate()
        server.wait(60)
    storage = open_database(database)
    with storage.read() as conn:
        books = ledger.trial_balance(conn)
    storage.engine.dispose()
    spread = {port: sum(_port(h) == port for h in holders.values()) for port in ports}
    return Result(k.label, len(lat), wall, sorted(lat), sorted(deals), start.connected,
                  _cpu_by_process(server.pid, cpu0, cpu1, holders), client_cpu,
                  os.getloadavg(), books.ok, spread if holders else {}, waiting, balanced)


def _held(database: str, tables: int, processes: int, limit: float = 120
          ) -> tuple[dict[int, str], float]:
    """Once every table is held and the `processes` hold them fairly (at most one apart: the
    room's balancing, `leases.receiver`): each table's holder id (`leases.new_holder`: host,
    pid, a random part, @ its address), and the seconds it took. The tables all held but
    the split not fair within `limit`: the split as it is (printed as it is)."""
    engine = make_engine(database_url(database))
    began = time.perf_counter()
    held: dict[int, str] = {}
    try:
        while time.perf_counter() < began + limit:
            with engine.connect() as conn:
                rows = conn.execute(select(table_leases.c.table_id, table_leases.c.holder))
                held = {int(t): str(h) for t, h in rows}
            counts = Counter(held.values())
            if len(held) == tables and all(map(leases.address_of, held.values())) and \
                    len(counts) == min(processes, tables) and \
                    max(counts.values()) - min(counts.values()) <= 1:
                return held, time.perf_counter() - began
            time.sleep(0.5)
    finally:
        engine.dispose()
    if len(held) == tables:
        return held, time.perf_counter() - began
    raise SystemExit(f"error: the server processes did not hold all {tables} tables within "
                     f"{limit:.0f} s")


def _port(holder: str) -> int:
    return int(str(leases.address_of(holder)).rsplit(":", 1)[1])


def _pid(holder: str) -> int:
    return int(holder.split("@")[0].split(":")[1])


def _routes(people: list[Person], ports: list[int], holders: dict[int, str],
            connect_to: str) -> list[str]:
    """Each person's server address: the one process; with several, one picked at random
    (seeded by the person's name) or the table's holder."""
    def port(t: int, name: str) -> int:
        if len(ports) == 1:
            return ports[0]
        if connect_to == "holder":
            return _port(holders[t])
        return random.Random(name).choice(ports)
    return [f"ws://127.0.0.1:{port(t, name)}" for t, name, _, _ in people]


class LockSampler:
    """Every 0.2 s once play begins (`go`), the room's database sessions (PostgreSQL's
    `pg_stat_activity`): how many wait for the room-wide writer lock (an advisory lock), how
    many wait for another lock (a row: a table's lease), and how many are running a
    statement; and the CPU time of their server processes (the database on this machine)."""

    QUERY = text("SELECT count(*) FILTER (WHERE wait_event = 'advisory'), "
                 "count(*) FILTER (WHERE wait_event_type = 'Lock' "
                 "AND wait_event <> 'advisory'), "
                 "count(*) FILTER (WHERE state = 'active' AND wait_event_type IS NULL) "
                 "FROM pg_stat_activity WHERE datname = current_database() "
                 "AND pid <> pg_backend_pid()")

    SESSIONS = text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid()")

    def __init__(self, database: str, began: bool) -> None:
        self.engine = make_engine(database_url(database))
        self.samples: list[tuple[int, int, int]] = []
        self.cpu: list[dict[int, float]] = []
        self.done, self.go = threading.Event(), threading.Event()
        if began:
            self.go.set()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        with self.engine.connect() as conn:
            while not self.done.wait(0.2):
                if not self.go.is_set():
                    continue
                if not self.cpu:
                    self.cpu.append(self._backends(conn))
                row = conn.execute(self.QUERY).one()
                self.samples.append((int(row[0]), int(row[1]), int(row[2])))
                conn.rollback()
            self.cpu.append(self._backends(conn))

    def _backends(self, conn: Connection) -> dict[int, float]:
        pids = list(conn.execute(self.SESSIONS).scalars())
        conn.rollback()
        return {pid: cpu for pid in pids if (cpu := _cpu_of(pid)) is not None}

    def stop(self) -> dict[str, float]:
        """Means over the samples, and the share of samples with a session waiting for the
        writer lock."""
        self.done.set()
        self.thread.join(10)
        self.engine.dispose()
        n = max(1, len(self.samples))
        before, after = (self.cpu[0], self.cpu[-1]) if len(self.cpu) > 1 else ({}, {})
        return {"database_cpu": sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items()),
                "writer_lock_waiting": sum(s[0] for s in self.samples) / n,
                "other_lock_waiting": sum(s[1] for s in self.samples) / n,
                "running": sum(s[2] for s in self.samples) / n,
                "share_with_waiter": sum(s[0] > 0 for s in self.samples) / n,
                "samples": float(len(self.samples))}


def _tree_cpu(pid: int) -> dict[int, float]:
    """User plus system CPU seconds of the server process and every process under it (the
    workers of `serve --workers`), from Linux's /proc."""
    out, todo = {}, [pid]
    while todo:
        at = todo.pop()
        cpu = _cpu_of(at)
        try:
            todo += [int(c) for task in Path(f"/proc/{at}/task").iterdir()
                     for c in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue  # it ended meanwhile
        if cpu is not None:
            out[at] = cpu
    return out


def _cpu_of(pid: int) -> float | None:
    """User plus system CPU seconds of a process (Linux /proc); None: it has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_by_process(root: int, before: dict[int, float], after: dict[int, float],
                    holders: dict[int, str]) -> dict[str, float]:
    """CPU seconds of each server process over the play, named by its pid and the tables it
    held (with several: the supervisor, the workers, multiprocessing's resource tracker)."""
    held = {_pid(h): (_port(h), sum(x == h for x in holders.values()))
            for h in set(holders.values())}

    def name(pid: int) -> str:
        if pid in held:
            return f"worker {pid} (port {held[pid][0]}, {held[pid][1]} tables)"
        if not holders:
            return f"server {pid}"
        return f"supervisor {pid}" if pid == root else f"{pid} (no table: a helper)"
    return {name(pid): after[pid] - before.get(pid, 0.0) for pid in after}


def report(r: Result, a: argparse.Namespace) -> None:
    lat = r.lat
    print(f"actions: {r.actions} in {r.wall:.1f} s ({r.rate:.0f}/s); {a.players} clients "
          f"connected in {r.connected:.2f} s; play "
          + ("began as each connected (--no-wait)" if a.no_wait else "began after that"))
    print(f"action-to-update latency: median {statistics.median(lat) * 1000:.1f} ms, "
          f"p99 {_pct(lat, 0.99):.1f} ms, max {lat[-1] * 1000:.1f} ms")
    print(f"  p90 {_pct(lat, 0.9):.1f} ms, p95 {_pct(lat, 0.95):.1f} ms; deals only "
          f"({len(r.deals)}): median {_pct(r.deals, 0.5):.1f} ms, "
          f"p99 {_pct(r.deals, 0.99):.1f} ms")
    print(f"CPU while {'connecting and ' if a.no_wait else ''}playing: server {r.cpu:.1f} s "
          f"({r.cpu / r.actions * 1000:.2f} ms an action, {r.cpu / r.wall:.0%} of a core) "
          f"beside {r.wall:.1f} s wall; load generator {r.client_cpu:.1f} s (connecting "
          f"included); load average " + " ".join(f"{x:.2f}" for x in r.load))
    if len(r.server_cpu) > 1:
        print("  per server process: " + ", ".join(
            f"{name} {cpu:.1f} s ({cpu / r.wall:.0%})" for name, cpu in r.server_cpu.items()))
    if r.spread:
        fair = max(r.spread.values()) - min(r.spread.values()) <= 1
        print("tables held: " + ", ".join(f"port {port}: {n}" for port, n in r.spread.items())
              + f" ({'a fair split' if fair else 'NOT a fair split'}, "
              f"{r.balanced:.1f} s after every process listened)")
    if r.waiting:
        w = r.waiting
        print(f"PostgreSQL's processes for the room: {w['database_cpu']:.1f} s CPU "
              f"({w['database_cpu'] / r.actions * 1000:.2f} ms an action, "
              f"{w['database_cpu'] / r.wall:.0%} of a core)")
        print(f"database sessions (mean of {w['samples']:.0f} samples): "
              f"{w['writer_lock_waiting']:.2f} waiting for the writer lock (in "
              f"{w['share_with_waiter']:.0%} of samples), {w['other_lock_waiting']:.2f} for "
              f"another lock, {w['running']:.2f} running a statement")
    print(f"ledger balanced after the run: {r.books_ok}", flush=True)


def compare(results: list[Result]) -> None:
    """The side-by-side table: every run, then each kind's median rate as a ratio of the
    first kind's."""
    print("\nside by side (rate = actions a wall second; CPU = all server processes):")
    print(f"{'run':<22}{'actions/s':>10}{'median ms':>10}{'p99 ms':>9}{'CPU ms/act':>11}"
          f"{'CPU/wall':>9}{'PG CPU ms/act':>14}{'writer-lock waiters':>20}{'load 1m':>8}")
    for r in results:
        waiters = f"{r.waiting['writer_lock_waiting']:.2f}" if r.waiting else "-"
        database = f"{r.waiting['database_cpu'] / r.actions * 1000:.2f}" if r.waiting else "-"
        print(f"{r.label:<22}{r.rate:>10.1f}{statistics.median(r.lat) * 1000:>10.1f}"
              f"{_pct(r.lat, 0.99):>9.1f}{r.cpu / r.actions * 1000:>11.2f}"
              f"{r.cpu / r.wall:>9.0%}{database:>14}{waiters:>20}{r.load[0]:>8.2f}")
    labels = list(dict.fromkeys(r.label for r in results))
    rates = {label: statistics.median(r.rate for r in results if r.label == label)
             for label in labels}
    first = rates[labels[0]]
    print("ratios of the median rate to " + labels[0] + ": " + ", ".join(
        f"{label} {rate / first:.2f}x" for label, rate in rates.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--database", default=None,
                    help="the room's database, used as it is (default: a fresh SQLite file; "
                         "with --compare, fresh rooms of each kind)")
    ap.add_argument("--postgres", default=DEFAULT_POSTGRES,
                    help="the PostgreSQL database of --compare's postgres runs (dropped and "
                         "made again for each run)")
    ap.add_argument("--workers", type=int, default=1,
                    help="server processes on the room (`cardroom serve --workers N`; "
                         "PostgreSQL only)")
    ap.add_argument("--connect", choices=("random", "holder"), default="random",
                    help="with several processes: each client connects to a process picked "
                         "at random (relayed to its table's holder) or to the holder")
    ap.add_argument("--compare", nargs="+", type=kind, default=None,
                    metavar="KIND", help="runs side by side: sqlite, postgres, postgres:N, "
                                         "postgres:N:holder (postgres:1:holder: one "
                                         "process holding its tables under leases)")
    ap.add_argument("--repeat", type=int, default=1, help="play the --compare series K times")
    ap.add_argument("--port", type=int, default=8765, help="0: free ports")
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
    if a.compare and a.database:
        ap.error("--compare makes fresh rooms: leave out --database")
    kinds = a.compare or [Kind("sqlite" if a.database is None or is_sqlite(a.database)
                               else "postgres", a.workers, a.connect)]
    if kinds[0].database == "sqlite" and kinds[0].leased:
        ap.error("several processes serve one room only on PostgreSQL: give --database a "
                 "PostgreSQL URL, or use --compare postgres:N")
    client_cpus = _cpus(a.client_cpus)
    if client_cpus:
        os.sched_setaffinity(0, client_cpus)
    with tempfile.TemporaryDirectory(prefix="bench-server-") as tmp:
        profile = load_test_profile(Path(tmp), a.tables)
        if profile is not None:
            os.environ[PROFILE_ENV] = str(profile)
            print(f"{a.tables} tables: under the load-test profile {profile.name} (the "
                  "Washington profile with its cap of 15 house-banked tables raised; "
                  "never a room's profile)")
        results = []
        for n in range(a.repeat):
            for i, k in enumerate(kinds):
                results.append(run(k, a, Path(tmp), n * len(kinds) + i))
                report(results[-1], a)
    if len(results) > 1:
        compare(results)
    if a.server_cpus or client_cpus:
        print(f"pinned: server on cores {sorted(_cpus(a.server_cpus))}, "
              f"load generator on cores {sorted(client_cpus)}")


def _free_ports(first: int, count: int) -> list[int]:
    """`count` consecutive ports from `first`; `first` 0: free ones."""
    if first:
        return list(range(first, first + count))
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = probe.getsockname()[1]
        if base + count <= 65535 and all(_port_free(p) for p in range(base, base + count)):
            return list(range(base, base + count))


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


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


def _pct(ordered: list[float], q: float) -> float:
    """The q-quantile of sorted seconds, in milliseconds (nearest rank)."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def _cpus(text: str | None) -> set[int]:
    return {int(c) for c in text.split(",")} if text else set()


if __name__ == "__main__":
    main()
