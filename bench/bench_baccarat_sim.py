"""Benchmark: baccarat coups per second per core, dealt from real shuffled 8-deck shoes.

    .venv/bin/python bench/bench_baccarat_sim.py [--coups N] [--repeat R] [--workers W]

Times the compiled kernel alone (one core: shuffle 416 cards, burn, deal to the cut card and
one coup more, tally every coup), then optionally the whole `simulate` path on W local
processes. The target (issue 2) is at least 10 million coups per second per core.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from cardroom.analysis import baccarat_kernel as kernel
from cardroom.analysis.baccarat_sim import kernel_tables, simulate
from cardroom.analysis.parallel import Chunk
from cardroom.games.baccarat.rules import BaccaratRules

TARGET = 10_000_000


def bench_kernel(coups: int, repeat: int) -> tuple[float, float]:
    """Best coups/s of the kernel on one core, and the coups per shoe."""
    rules = BaccaratRules()
    tables = kernel_tables(rules)
    kernel.simulate(tables.base_shoe, 1000, Chunk(0, 1000, 1).generator_state(), *tables.args())
    best = 0.0
    shoes = 1
    for r in range(repeat):
        state = Chunk(r, coups, 12345).generator_state()
        start = time.perf_counter()
        _, shoes = kernel.simulate(tables.base_shoe, coups, state, *tables.args())
        best = max(best, coups / (time.perf_counter() - start))
    return best, coups / shoes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=50_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=0,
                        help="also time `simulate` on this many local processes")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    rate, per_shoe = bench_kernel(args.coups, args.repeat)
    verdict = "meets" if rate >= TARGET else "MISSES"
    print(f"kernel, one core: {rate / 1e6:.1f} million coups/s (best of {args.repeat} x "
          f"{args.coups:,} coups; {per_shoe:.1f} coups per 8-deck shoe) - {verdict} the "
          f"{TARGET / 1e6:.0f} M/s target")
    if args.workers:
        total = args.coups * args.workers
        simulate(BaccaratRules(), 200_000, seed=1, workers=args.workers)  # warm the pool path
        start = time.perf_counter()
        simulate(BaccaratRules(), total, seed=2, workers=args.workers)
        elapsed = time.perf_counter() - start
        print(f"simulate, {args.workers} processes: {total / elapsed / 1e6:.1f} million coups/s "
              f"({total:,} coups in {elapsed:.2f} s, process start-up included; "
              f"{total / elapsed / args.workers / 1e6:.1f} M/s per process)")


if __name__ == "__main__":
    main()
