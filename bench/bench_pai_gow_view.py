"""What a Pai Gow table's snapshot costs to build for one viewer (`PaiGowLive.state`), six
players seated, before the deal and while the hands are set: CPU time per viewer, best of
`--repeat` runs; and a digest of the snapshots, to compare two trees (the same seed deals the
same hands). No database: the seats and wagers go to the table and its engine directly.

Run: .venv/bin/python bench/bench_pai_gow_view.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

from cardroom.room.people.accounts import Account
from cardroom.room.play.pai_gow_live import PaiGowLive
from cardroom.shoe import SeededRandom


def per_viewer(live: PaiGowLive, who: list[Account], repeat: int, rounds: int = 10) -> float:
    """The least CPU time in ms of one viewer's `state`, over `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(rounds):
            for a in who:
                live.state(a)
        best = min(best, (time.process_time() - start) / rounds / len(who))
    return 1000 * best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=7)
    repeat = ap.parse_args().repeat
    live = PaiGowLive(1, "pg", source=SeededRandom(7))
    who = [Account(i, f"p{i}", "player") for i in range(1, 7)]
    for a in who:
        live.restore_seat(a.id, f"{a.id}:{a.username}", 100_000)
    live.hand_id = 1
    for a in who:
        live.engine.place_wager(a.id, 1_000)
    betting = [live.snapshot(a) for a in who]
    before_deal = per_viewer(live, who, repeat)
    live.engine.deal(live.source)
    setting = [live.snapshot(a) for a in who]
    while_set = per_viewer(live, who, repeat)
    digest = hashlib.sha256(json.dumps([betting, setting], sort_keys=True).encode())
    print(f"state per viewer (CPU): betting {before_deal:.2f} ms, setting {while_set:.2f} ms; "
          f"snapshots sha256 {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
