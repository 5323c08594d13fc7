"""Pan benchmarks: full hands per second per core with 8 bots, and 10,000 hands of sound
bots against random-legal players with a 95% confidence interval.

    .venv/bin/python bench/bench_pan.py [--hands 10000] [--speed-hands 1000]

Speed is CPU time of one process (one core). The duel alternates sound and random seats at a
4-player table; its interval comes from 100-hand chunks with independent seeds.
"""

from __future__ import annotations

import argparse
import math
import platform
import time

from cardroom.analysis.pan_sim import simulate


def speed(hands: int) -> None:
    t0, w0 = time.process_time(), time.perf_counter()
    r = simulate(hands, 8, seed=1)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    print(f"speed: {hands} hands, 8 sound bots: {hands / cpu:.1f} hands/s per core (CPU time), "
          f"{hands / wall:.1f} hands/s wall, {r.turns / hands:.1f} turns a hand")


def duel(hands: int) -> None:
    chunk = 100
    diffs = []
    totals = [0, 0]
    t0 = time.perf_counter()
    for k in range(hands // chunk):
        r = simulate(chunk, 4, seed=1000 + k, kinds=["sound", "random", "sound", "random"])
        sound = (r.chips[0] + r.chips[2]) / (2 * chunk)
        rnd = (r.chips[1] + r.chips[3]) / (2 * chunk)
        totals[0] += r.chips[0] + r.chips[2]
        totals[1] += r.chips[1] + r.chips[3]
        diffs.append(sound - rnd)
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    print(f"duel: {n * chunk} hands, 4 seats (sound, random, sound, random), "
          f"{time.perf_counter() - t0:.1f} s")
    print(f"  sound bots won {totals[0]} chips, random-legal players {totals[1]}")
    print(f"  sound minus random, chips per seat per hand: {mean:.3f} "
          f"(95% CI {mean - half:.3f} to {mean + half:.3f})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=10_000,
                    help="hands of the sound-against-random duel (0: speed only)")
    ap.add_argument("--speed-hands", type=int, default=1000)
    a = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    speed(a.speed_hands)
    if a.hands:
        duel(a.hands)


if __name__ == "__main__":
    main()
