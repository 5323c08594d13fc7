"""Super Pan 9 and Pai Gow tables in one process on SQLite: the latency of `Room.act` (engine
checkpoint, ledger, hand record, audit) with 9 and 6 seated players, 20 rounds each.

Run: .venv/bin/python bench/bench_card_tables.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from argon2 import PasswordHasher
from opened_tables import open_tables, room_with_players

from cardroom.room.people import accounts
from cardroom.room.people.accounts import Account


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=20)
    rounds = ap.parse_args().rounds
    accounts._hasher = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    room, owner, players = room_with_players(
        f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3", 9)
    sp = room.create_table(owner, "sp", "super-pan-9").table_id
    pg = room.create_table(owner, "pg", "pai-gow").table_id
    open_tables(room, [sp, pg])
    for i, p in enumerate(players):
        room.act(p, sp, {"type": "sit", "buy_in": 10**6, "key": "s"})
        if i < 6:
            room.act(p, pg, {"type": "sit", "buy_in": 10**6, "key": "s"})
    lat: dict[str, list[float]] = {"super-pan-9": [], "pai-gow": []}

    def timed(game: str, who: Account, table: int, msg: dict[str, object]) -> None:
        t = time.perf_counter()
        room.act(who, table, msg)
        lat[game].append(time.perf_counter() - t)

    for r in range(rounds):
        for p in players:
            timed("super-pan-9", p, sp, {"type": "bet", "bets": {"wager": 1000}, "key": f"{r}"})
        timed("super-pan-9", players[0], sp, {"type": "deal"})
        for p in players:
            timed("super-pan-9", p, sp, {"type": "stand" if r % 2 else "draw"})
        for p in players[:6]:
            timed("pai-gow", p, pg, {"type": "bet", "bets": {"wager": 1000}, "key": f"{r}"})
        timed("pai-gow", players[0], pg, {"type": "deal"})
        for p in players[:6]:
            timed("pai-gow", p, pg, {"type": "house_way"})
    for game, xs in lat.items():
        xs.sort()
        print(f"{game}: {len(xs)} actions; median {1000 * statistics.median(xs):.1f} ms, "
              f"p99 {1000 * xs[int(0.99 * len(xs)) - 1]:.1f} ms, max {1000 * xs[-1]:.1f} ms")
    room.storage.engine.dispose()


if __name__ == "__main__":
    main()
