"""Chaos (issue 25): two room processes share one PostgreSQL room, tables of all four games in
play with scripted players; a process holding tables is killed (`kill -9`) at random
moments K times.
After every kill each table must play on within 10 seconds (its lease expires, the other
process takes it over and resumes its hand in play from the committed actions), with no
hand voided, no cent lost, the ledger balanced and `audit verify` passing.

    .venv/bin/python bench/bench_chaos.py --kills 20 --tables 10 --json

Each process is a room process as `cardroom serve` runs it in a room of several (`Room.open`
with a lease holder; every `leases.HEARTBEAT_SECONDS` `Room.keep_leases` and `Room.balance`,
as the server's hub calls them) and its scripted players act through `Room.act` at the tables
it holds (no WebSocket: the bench measures the takeover, not the network). A killed process
is started again at once (a supervisor's restart) under a new holder id; the survivor, which
took the killed one's tables, hands tables over to it between hands until the split is fair
again (`hand_overs`, `tables_per_process` after the last kill, `balanced_after_s`). The
database is a fresh one made for the run (`cardroom_chaos` on the PostgreSQL at
127.0.0.1:5432 unless `--database` names another).
The last line printed is one JSON object: kills, hands_voided, lost_cents, max_takeover_s,
audit_ok, and the figures beside them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from opened_tables import open_tables
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

from cardroom.errors import CardroomError
from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role, create_account, get_account, hash_password
from cardroom.room.play import leases
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.schema import accounts, audit_log, hands, room_tables, table_leases
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.room.trust.keying import open_keyed

GAMES = ("baccarat", "pai-gow", "super-pan-9", "pan")
DEFAULT_DATABASE = "postgresql://postgres@127.0.0.1:5432/cardroom_chaos"
PLAY_ON_S = 10.0
"""Every table must play again within this long after a kill (issue 25)."""
BUY_IN = 200_000


def fresh_database(url: str) -> None:
    """Drop and create the run's database (PostgreSQL: through the server's `postgres`)."""
    target = make_url(url)
    admin = create_engine(target.set(drivername="postgresql+psycopg", database="postgres"),
                          isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{target.database}"'))
    admin.dispose()


def setup(database: str, keys: Path, tables: int) -> None:
    """The room: `tables` tables, the four games in turn, each with its scripted player
    (`chaos_<table>`, chips bought) and opened for play."""
    room = Room.open(database, audit_key_file=keys / "audit.key",
                     identity_key_file=keys / "identity.key", settings=SELF_SERVICE)
    owner = Account(0, "chaos-owner", Role.OWNER)
    shared = hash_password("chaos password")
    ids = [room.create_table(owner, f"Chaos {i + 1}", GAMES[i % len(GAMES)]).table_id
           for i in range(tables)]
    open_tables(room, ids, shared)
    with room.storage.unit() as conn:
        for t in ids:
            who = create_account(conn, f"chaos_{t}", "chaos password", Role.PLAYER, shared)
            buy_chips(conn, SELF_SERVICE, who, BUY_IN, f"chaos-{t}")
    room.storage.engine.dispose()


# the scripted players -----------------------------------------------------------------------
def step(room: Room, t: int, who: Account) -> None:
    """One action of the table's scripted player: sit (at Pan with a house bot), bet (Pan:
    deal) between hands, then its game's next move in the hand: the deal, and the player's
    decisions (Super Pan 9: stand; Pai Gow: the house way; Pan: play, draw or discard)."""
    live = room.table(t)
    if who.id not in live.seated:
        room.act(who, t, {"type": "sit", "buy_in": BUY_IN // 4, "key": f"s{time.time_ns()}"})
        if live.game == "pan":
            room.act(who, t, {"type": "bot", "key": f"b{time.time_ns()}"})
        return
    stake = {"baccarat": {"player": 500}, "pai-gow": {"wager": 500},
             "super-pan-9": {"wager": 500}}.get(live.game)
    if live.hand_id is None:
        room.act(who, t, {"type": "bet", "bets": stake, "key": f"b{time.time_ns()}"}
                 if stake else {"type": "deal"})
        return
    room.act(who, t, _in_hand(room, t, who))


def _in_hand(room: Room, t: int, who: Account) -> dict[str, Any]:
    live = room.table(t)
    snap = live.snapshot(who)
    if live.game == "super-pan-9" and live.awaited() is not None:
        return {"type": "stand"}
    if live.game == "pai-gow" and snap["you"]["to_set"]:
        return {"type": "house_way", "spot": snap["you"]["to_set"][0]}
    if live.game == "pan":
        legal = [c for c in snap["play"]["legal"] if not c.startswith(("force", "foul"))]
        return {"type": "pan", "command": _pan_move(legal) if legal else "pass",
                "seq": snap["seq"]}
    return {"type": "deal"}


def _pan_move(legal: list[str]) -> str:
    for first in ("play", "draw"):
        if first in legal:
            return first
    discards = [c for c in legal if c.startswith("discard")]
    return discards[0] if discards else legal[0]


def worker(database: str, keys: Path, log: Path) -> None:
    """A room process: holds what tables it can, beats in a thread of its own (as `serve`
    would beside its requests), and plays its tables, each action in the table's lock (the
    beat's hand-overs never meet one half-way); it logs `ready` once started, then every
    action that went through (table, time) and every table it handed over (`gave`)."""
    room = Room.open(database, audit_key_file=keys / "audit.key",
                     identity_key_file=keys / "identity.key", settings=SELF_SERVICE,
                     holder=leases.new_holder())
    players: dict[int, Account] = {}
    locks: dict[int, threading.Lock] = {}
    with log.open("a", buffering=1) as out:
        threading.Thread(target=_beat, args=(room, locks, out), daemon=True).start()
        out.write(f"ready {time.time()}\n")
        while True:
            for t in list(room.tables):
                who = players.get(t) or players.setdefault(t, _player(room, t))
                with locks.setdefault(t, threading.Lock()):
                    try:
                        if t in room.tables:
                            step(room, t, who)
                            out.write(f"{t} {time.time()}\n")
                            if room.leave_between_hands(t):
                                out.write(f"gave{t} {time.time()}\n")
                    except CardroomError:
                        continue
            time.sleep(0.02)


def _beat(room: Room, locks: dict[int, threading.Lock], out: TextIO) -> None:
    """The heartbeat, as a served process's (`Hub.keep_leases`): leases kept, tables taken
    (`took`, table, time) and the tables over this process's share handed over between
    hands (`Room.balance`: `gave` for each one handed over at once)."""
    while True:
        held = set(room.tables)
        gave: list[int] = []
        with contextlib.suppress(CardroomError):
            room.keep_leases()
            gave = room.balance(lambda _t: 0, lambda t: locks.setdefault(t, threading.Lock()))
        for t in set(room.tables) - held:
            out.write(f"took{t} {time.time()}\n")
        for t in gave:
            out.write(f"gave{t} {time.time()}\n")
        time.sleep(leases.HEARTBEAT_SECONDS)


def _player(room: Room, t: int) -> Account:
    with room.storage.read() as conn:
        aid = conn.execute(select(accounts.c.id).where(accounts.c.username == f"chaos_{t}")
                           ).scalar_one()
        found = get_account(conn, aid)
    assert found is not None
    return found


# the run ------------------------------------------------------------------------------------
def start_worker(database: str, keys: Path, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, __file__, "--worker", "--database", database,
                             "--keys", str(keys), "--log", str(log)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def played_on(log: Path, tables: int, since: float, limit: float) -> float | None:
    """Seconds from `since` until every table has played an action after it (the slowest
    table's first one); None when one has not within `limit`."""
    while time.time() - since < limit:
        first: dict[int, float] = {}
        for line in log.read_text().splitlines():
            t, at = line.split()
            if t.isdigit() and float(at) > since:
                first[int(t)] = min(first.get(int(t), float(at)), float(at))
        if len(first) == tables:
            return max(first.values()) - since
        time.sleep(0.1)
    return None


def held_by(database: str, procs: list[subprocess.Popen[bytes]]) -> list[int]:
    """How many tables each process of `procs` holds now (a lease naming its pid)."""
    engine = create_engine(make_url(database).set(drivername="postgresql+psycopg"))
    with engine.connect() as conn:
        pids = [int(h.split(":")[1]) for h in conn.execute(select(table_leases.c.holder))
                .scalars()]
    engine.dispose()
    return [pids.count(p.pid) for p in procs]


def holding(database: str, procs: list[subprocess.Popen[bytes]]) -> list[int]:
    """The processes (their places in `procs`) that hold a table now: a kill of one of them
    is a takeover (a process holding none would be no test)."""
    counts = held_by(database, procs)
    return [i for i, n in enumerate(counts) if n] or list(range(len(procs)))


def balanced(database: str, procs: list[subprocess.Popen[bytes]], tables: int,
             limit: float) -> tuple[list[int], float | None]:
    """The tables each process holds once they hold every table in a fair split (no two
    differing by more than one: `leases.receiver`), and how long that took; the split at
    `limit` and None when it never was."""
    since = time.time()
    while True:
        counts = held_by(database, procs)
        if sum(counts) == tables and max(counts) - min(counts) <= 1:
            return counts, round(time.time() - since, 1)
        if time.time() - since > limit:
            return counts, None
        time.sleep(0.2)


def wait_ready(log: Path, count: int, limit: float = 120) -> None:
    """Until `count` processes have started in all (a restarted one is up before the next
    kill: two processes, as the run promises)."""
    end = time.time() + limit
    while sum(line.startswith("ready") for line in log.read_text().splitlines()) < count:
        if time.time() > end:
            raise SystemExit("error: a room process did not start within 120 s")
        time.sleep(0.1)


def books_ok(database: str, keys: Path) -> tuple[bool, int, int, int]:
    """(ledger balanced and audit chain whole, hands voided, cents astray, hands resumed):
    astray, the ledger's imbalance plus chips left on the wagers of a table with no hand in
    play."""
    storage = open_keyed(database, keys / "audit.key", create=False,
                         accept_failed_audit=True)
    with storage.snapshot() as conn:
        trial, chain = ledger.trial_balance(conn), audit.verify(conn)
        voided, resumed = (conn.execute(select(func.count()).select_from(audit_log).where(
            audit_log.c.action == action)).scalar_one()
            for action in ("hand.not-resumed", "hand.resumed"))
        playing = set(conn.execute(select(hands.c.table_id)
                                   .where(hands.c.status == "open")).scalars())
        table_ids = [(r.id, r.game) for r in conn.execute(select(room_tables))]
        astray = sum(ledger.balance(conn, ledger.wagers(t)) for t, game in table_ids
                     if t not in playing and game != "pan")  # Pan carries its tops on
        total = sum(ledger.balances(conn).values())
    storage.engine.dispose()
    return trial.ok and chain.ok, int(voided), abs(total) + abs(astray), int(resumed)


def chaos(database: str, kills: int, tables: int, seed: int | None,
          keep: Path | None = None) -> dict[str, Any]:
    """Set up, start two processes, kill one K times at random moments (each restarted at
    once), and check the books after every takeover."""
    pick = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="chaos-") as folder:
        keys, log = Path(folder), Path(folder) / "actions.log"
        log.touch()
        setup(database, keys, tables)
        procs = [start_worker(database, keys, log) for _ in range(2)]
        started = time.time()
        try:
            first = played_on(log, tables, started, 120)
            if first is None:
                raise SystemExit("error: the tables did not start playing within 120 s")
            takeovers, audits = [], []
            for kill in range(kills):
                wait_ready(log, 2 + kill)
                time.sleep(pick.uniform(0.5, 3.0))
                victim = pick.choice(holding(database, procs))
                os.kill(procs[victim].pid, signal.SIGKILL)
                killed = time.time()
                procs[victim].wait()
                procs[victim] = start_worker(database, keys, log)
                took = played_on(log, tables, killed, PLAY_ON_S * 3)
                takeovers.append(took if took is not None else float("inf"))
                audits.append(books_ok(database, keys)[0])
            split, settled = balanced(database, procs, tables, PLAY_ON_S * 3)
        finally:
            for proc in procs:
                proc.kill()
                proc.wait()
        ok, voided, lost, resumed = books_ok(database, keys)
        lines = log.read_text().splitlines()
        actions = sum(line[0].isdigit() for line in lines)
        hand_overs = sum(line.startswith("gave") for line in lines)
        if keep is not None:
            keep.write_text(log.read_text())
    worst = max(takeovers, default=0.0)
    return {"kills": kills, "tables": tables, "games": sorted(set(GAMES[:tables])),
            "hands_voided": voided, "hands_resumed": resumed, "lost_cents": lost,
            "max_takeover_s": round(worst, 2) if worst != float("inf") else None,
            "takeovers_s": [round(t, 2) for t in takeovers],
            "mean_takeover_s": round(sum(takeovers) / len(takeovers), 2) if takeovers
            and worst != float("inf") else None,
            "all_within_10s": worst <= PLAY_ON_S, "audit_ok": ok and all(audits),
            "actions": actions, "hand_overs": hand_overs, "tables_per_process": split,
            "balanced_after_s": settled, "wall_s": round(time.time() - started, 1),
            "lease_s": leases.LEASE_SECONDS}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=20, help="how many kill -9 (default 20)")
    ap.add_argument("--tables", type=int, default=10,
                    help="tables in play, the four games in turn (default 10)")
    ap.add_argument("--database", default=DEFAULT_DATABASE,
                    help="a PostgreSQL URL (its database is dropped and made afresh)")
    ap.add_argument("--seed", type=int, default=None, help="the kill moments' seed")
    ap.add_argument("--json", action="store_true", help="print only the JSON line")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--keys", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--log", type=Path, help="keep the processes' log of actions and "
                    "takeovers (table and time) in this file")
    args = ap.parse_args()
    if args.worker:
        worker(args.database, args.keys, args.log)
        return
    if args.kills < 0 or args.tables < 1:
        ap.error("--kills must be 0 or more and --tables 1 or more")
    fresh_database(args.database)
    cpu0 = time.process_time()
    result = chaos(args.database, args.kills, args.tables, args.seed, args.log)
    result["bench_cpu_s"] = round(time.process_time() - cpu0, 1)
    result["load_1min"] = round(os.getloadavg()[0], 2)
    if not args.json:
        for key, value in result.items():
            print(f"{key:>16}: {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
