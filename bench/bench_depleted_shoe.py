"""Benchmark: exact analysis of depleted baccarat shoes (target: under 10 ms per composition
in-process, after compilation, one core).

Run: .venv/bin/python bench/bench_depleted_shoe.py [--shoes N]
Deals N random 8-deck shoes (seeded), removes a random number of cards from the top of each,
and times the compiled enumeration (`DepletedShoe.raw`: every coup's integer counts, suits
included) and the whole exact report (`analyze` with its Fractions) per composition. Both wall
and CPU time are shown: on a machine shared with other work, CPU time is the kernel's own cost.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cardroom.analysis.baccarat import analyze
from cardroom.analysis.baccarat_depleted import DepletedShoe, full_composition
from cardroom.games.baccarat.rules import BaccaratRules


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shoes", type=int, default=200)
    args = parser.parse_args()
    shoe = DepletedShoe()
    rules = BaccaratRules()
    rng = np.random.default_rng(14)
    full = full_composition(8)
    cards = [(v, s) for v in range(10) for s in range(4) for _ in range(int(full[v, s]))]
    comps = []
    for _ in range(args.shoes):
        comp = full.copy()
        for i in rng.permutation(len(cards))[: int(rng.integers(0, 400))]:
            comp[cards[i]] -= 1
        comps.append(comp)
    start = time.perf_counter()
    shoe.raw(comps[0])
    print(f"first call (compilation or cache load): {time.perf_counter() - start:.2f} s")
    for label, fn in (("kernel counts", shoe.raw),
                      ("whole exact report", lambda c: analyze(rules, counts=shoe.counts(c, 8)))):
        wall = time.perf_counter()
        cpu = time.process_time()
        for comp in comps:
            fn(comp)
        n = len(comps)
        print(f"{label}: {(time.perf_counter() - wall) / n * 1000:.2f} ms wall, "
              f"{(time.process_time() - cpu) / n * 1000:.2f} ms CPU per composition "
              f"({n} compositions of 16-416 cards)")


if __name__ == "__main__":
    main()
