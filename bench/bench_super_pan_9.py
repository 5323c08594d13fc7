"""Super Pan 9 benchmarks: exact analysis time and simulation speed on one core.

Run: .venv/bin/python bench/bench_super_pan_9.py
Targets (issue 3): exact analysis of 8 decks under 2 s; at least 5M player-hands/s/core.
"""

from __future__ import annotations

import platform
import statistics
import time

from cardroom.analysis.super_pan_9 import analyse, analyse_holdings
from cardroom.analysis.super_pan_9_sim import simulate
from cardroom.games.super_pan_9 import SuperPan9Rules


def bench_exact(decks: int = 8, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        analyse_holdings.cache_clear()
        start = time.perf_counter()
        analyse(decks)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_simulation(seats: int, hands: int = 50_000_000) -> tuple[float, float]:
    """(hands per wall-clock second, hands per CPU second) in this one process."""
    rules = SuperPan9Rules()
    simulate(rules, 10_000, seats, seed=1)  # compile / load the numba cache
    start, cpu = time.perf_counter(), time.process_time()
    report = simulate(rules, hands, seats, seed=2)
    return (report.hands / (time.perf_counter() - start),
            report.hands / (time.process_time() - cpu))


def main() -> None:
    print(f"machine: {platform.processor() or platform.machine()}, python "
          f"{platform.python_version()}, one process")
    for decks in (1, 8):
        print(f"exact analysis, {decks} deck(s): {bench_exact(decks):.3f} s (median of 5, cold)")
    for seats in (1, 7, 9):
        wall, cpu = bench_simulation(seats)
        print(f"simulation, {seats} seat(s): {wall / 1e6:.1f} M player-hands/s wall, "
              f"{cpu / 1e6:.1f} M per CPU-second (one core)")


if __name__ == "__main__":
    main()
