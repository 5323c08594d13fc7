"""Round trips per action (issue 25): one Mini-Baccarat table in this process, 7 players
betting and one dealing for R rounds, on SQLite and on PostgreSQL side by side in one run, and
on PostgreSQL again with the table held under a lease (the process one of several,
`Room.holder`: the lease checked and the linked pool compared at every action).

Every round trip to PostgreSQL is made inside the room's writer lock, so this prints, per
database: statements per bet and per deal (counted with SQLAlchemy's `before_cursor_execute`;
the BEGIN and COMMIT not counted, nor what goes on the driver's cursor: the writer lock, the
audit head and the reads sent ahead, `pipeline.ahead`), round trips per bet and per deal on
PostgreSQL (libpq's trace, `cardroom.room.storage.round_trips`, over one more round after the
timed ones; BEGIN and COMMIT included; 0 on SQLite, which has none), each action's wall time
(median, p99), this process's CPU time per action (the database server's own CPU is not in
it) and the load average, so that a loaded machine's wall figures can be read beside the work
done. The room has an identity key, as a served room has, so every action also seals its
table's hand and shoe (`room.play.resume`).

`--pause S` waits S seconds before each timed action, as a room at low load meets its actions
(500 players on 50 tables at 3 s of thought leave the 2 cores idle about three quarters of
the time): on an idle virtual machine every action costs more on both databases, its CPU too,
and a round trip to PostgreSQL most (docs/server.md, "What the rest of the gap is").

    PYTHONPATH=src .venv/bin/python bench/bench_round_trips.py --rounds 30 \\
        --postgres postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from argon2 import PasswordHasher
from opened_tables import open_tables, room_with_players
from sqlalchemy import create_engine, event, text

from cardroom.room.people import accounts
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage, database_url, make_engine
from cardroom.room.storage.round_trips import traced
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SystemRandom

PLAYERS = 7


@contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """A fresh schema on the PostgreSQL at `url`, dropped afterwards."""
    admin = create_engine(database_url(url))
    schema = f"bench_{secrets.token_hex(4)}"
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{database_url(url)}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def run(url: str, rounds: int, holder: str | None = None, pause: float = 0.0
        ) -> dict[str, Any]:
    """The figures of `rounds` rounds at one table of a fresh room at `url`; with a `holder`,
    played by a second process of the room that holds the table under its lease; with a
    `pause`, that many seconds slept before each timed action (outside its figures)."""
    room, owner, players = room_with_players(url, PLAYERS)
    table = room.create_table(owner, "Bench", "baccarat").table_id
    open_tables(room, [table])
    if holder is not None:
        room.storage.engine.dispose()
        room = Room(Storage(make_engine(url)), SystemRandom(), settings=SELF_SERVICE,
                    identity=room.identity, holder=holder)
        room.start()
    engine = room.storage.engine
    for p in players:
        room.act(p, table, {"type": "sit", "buy_in": 1_000_000, "key": f"sit{p.id}"})
    statements = 0

    def count(_c: Any, _cur: Any, statement: str, *_: Any) -> None:
        nonlocal statements
        statements += statement not in ("BEGIN", "COMMIT")  # the unit's pipeline sends them

    event.listen(engine, "before_cursor_execute", count)
    seen: dict[str, list[tuple[int, float, float]]] = {"bet": [], "deal": []}
    for r in range(rounds):
        for kind, who, msg in [("bet", p, {"type": "bet", "bets": {"player": 500},
                                           "key": f"b{r}-{p.id}"}) for p in players] + \
                [("deal", players[0], {"type": "deal"})]:
            if pause:
                time.sleep(pause)
            statements, wall, cpu = 0, time.perf_counter(), time.process_time()
            room.act(who, table, msg)
            seen[kind].append((statements, time.perf_counter() - wall,
                               time.process_time() - cpu))
    event.remove(engine, "before_cursor_execute", count)
    trips: dict[str, list[tuple[int, float, float]]] = {"bet": [], "deal": []}
    for kind, who, msg in [("bet", p, {"type": "bet", "bets": {"player": 500},
                                       "key": f"traced-{p.id}"}) for p in players] + \
            [("deal", players[0], {"type": "deal"})]:
        with traced(room.storage) as counted:  # a round apart: tracing slows the driver
            room.act(who, table, msg)
        trips[kind].append((counted[0] if counted else 0, 0.0, 0.0))
    engine.dispose()
    return seen | {f"{k} trips": v for k, v in trips.items()}


def report(name: str, seen: dict[str, list[tuple[int, float, float]]]) -> None:
    every = seen["bet"] + seen["deal"]
    walls = sorted(w for _, w, _ in every)
    print(f"{name}: statements per bet {statistics.median(s for s, _, _ in seen['bet']):.0f}, "
          f"per deal {statistics.median(s for s, _, _ in seen['deal']):.0f}; "
          f"round trips per bet {statistics.median(s for s, _, _ in seen['bet trips']):.0f}, "
          f"per deal {statistics.median(s for s, _, _ in seen['deal trips']):.0f}; "
          f"{len(every)} actions, wall median {statistics.median(walls) * 1000:.1f} ms, "
          f"p99 {walls[int(0.99 * (len(walls) - 1))] * 1000:.1f} ms, "
          f"{len(every) / sum(walls):.0f} actions/s one after another; "
          f"CPU {sum(c for _, _, c in every) / len(every) * 1000:.2f} ms an action; "
          f"load average {os.getloadavg()[0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--pause", type=float, default=0.0,
                    help="seconds to wait before each timed action (a room at low load)")
    ap.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test",
                    help="a PostgreSQL to run on beside SQLite (a fresh schema, dropped after); "
                         "empty: SQLite only")
    a = ap.parse_args()
    accounts._hasher = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    report("SQLite", run(f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3", a.rounds,
                         pause=a.pause))
    if a.postgres:
        with postgres_schema(a.postgres) as url:
            report("PostgreSQL", run(url, a.rounds, pause=a.pause))
        with postgres_schema(a.postgres) as url:
            report("PostgreSQL under a lease",
                   run(url, a.rounds, holder="bench", pause=a.pause))


if __name__ == "__main__":
    main()
