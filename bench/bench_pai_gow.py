"""Pai Gow benchmarks: five-card evaluation, house-way setting, the exact calculator, and
(with --seven) the classification of all 154,143,080 seven-card hands.

Run: .venv/bin/python bench/bench_pai_gow.py [--seven] [--threads N]
"""

from __future__ import annotations

import argparse
import time
from math import comb

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cardroom.analysis.pai_gow_calc import calculate
from cardroom.cards import parse_cards
from cardroom.games.pai_gow.evaluate import Category
from cardroom.games.pai_gow.houseway import house_way
from cardroom.games.pai_gow.houseway_kernel import (
    BACK,
    FRONT_I,
    FRONT_J,
    compile_house_way,
    house_way_index,
)
from cardroom.games.pai_gow.kernels import eval2_codes, eval5_batch, eval5_codes


@njit(cache=True)
def _house_way_serial(hands: npt.NDArray[np.int64], p: npt.NDArray[np.int64]) -> int:
    acc = 0
    for i in range(hands.shape[0]):
        acc += house_way_index(hands[i], p, 0)
    return acc


@njit(cache=True, parallel=True)
def _seven_card_counts(wheel: int) -> npt.NDArray[np.int64]:
    """Best five-card category of every seven-card hand of the 53-card deck."""
    per = np.zeros((53, 10), dtype=np.int64)
    for a in prange(53):
        h = np.empty(7, dtype=np.int64)
        h[0] = a
        for b in range(a + 1, 53):
            h[1] = b
            for c in range(b + 1, 53):
                h[2] = c
                for d in range(c + 1, 53):
                    h[3] = d
                    for e in range(d + 1, 53):
                        h[4] = e
                        for f in range(e + 1, 53):
                            h[5] = f
                            for g in range(f + 1, 53):
                                h[6] = g
                                best = 0
                                for i in range(21):
                                    s = eval5_codes(h[BACK[i, 0]], h[BACK[i, 1]], h[BACK[i, 2]],
                                                    h[BACK[i, 3]], h[BACK[i, 4]], wheel)
                                    if s > best:
                                        best = s
                                per[a, best >> 20] += 1
    return per.sum(axis=0)


@njit(cache=True, parallel=True)
def _house_way_fouls(p: npt.NDArray[np.int64], wheel: int) -> int:
    """Fouls the house way makes over every seven-card hand (must be zero)."""
    per = np.zeros(53, dtype=np.int64)
    for a in prange(53):
        h = np.empty(7, dtype=np.int64)
        h[0] = a
        for b in range(a + 1, 53):
            h[1] = b
            for c in range(b + 1, 53):
                h[2] = c
                for d in range(c + 1, 53):
                    h[3] = d
                    for e in range(d + 1, 53):
                        h[4] = e
                        for f in range(e + 1, 53):
                            h[5] = f
                            for g in range(f + 1, 53):
                                h[6] = g
                                i = house_way_index(h, p, wheel)
                                front = eval2_codes(h[FRONT_I[i]], h[FRONT_J[i]])
                                back = eval5_codes(h[BACK[i, 0]], h[BACK[i, 1]], h[BACK[i, 2]],
                                                   h[BACK[i, 3]], h[BACK[i, 4]], wheel)
                                if i < 0 or back <= front:
                                    per[a] += 1
    return int(per.sum())


def random_hands(n: int, k: int, seed: int) -> npt.NDArray[np.int64]:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 53)), axis=1)[:, :k].astype(np.int64)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seven", action="store_true", help="classify all 154,143,080 hands")
    ap.add_argument("--never-foul", action="store_true",
                    help="set all 154,143,080 hands with each built-in house way, count fouls")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    numba.set_num_threads(args.threads)

    five = random_hands(2_000_000, 5, 1).astype(np.uint8)
    five = np.tile(five, (10, 1))
    eval5_batch(five[:10], 0)
    t = time.perf_counter()
    eval5_batch(five, 0)
    dt = time.perf_counter() - t
    print(f"five-card evaluation (one core, batch): {len(five) / dt / 1e6:.1f} M hands/s")

    seven = random_hands(1_000_000, 7, 2)
    p = compile_house_way(house_way("trump-plaza"))
    _house_way_serial(seven[:10], p)
    t = time.perf_counter()
    _house_way_serial(seven, p)
    dt = time.perf_counter() - t
    print(f"house-way setting, trump-plaza (one core): {len(seven) / dt / 1e6:.2f} M hands/s")

    way = house_way("trump-plaza")
    for text in ("As Kd 9c 7h 5s 3d 2c", "JK Ah Kd Qc Js 9h 3d"):
        t = time.perf_counter()
        result = calculate(parse_cards(text), way)
        dt = time.perf_counter() - t
        best = max(result.settings, key=lambda r: r.ev)
        hw = next(r for r in result.settings if r.house_way)
        print(f"calc {text!r} ({args.threads} threads): {dt:.1f} s; optimal "
              f"{best.setting} EV {float(best.ev):+.5f}; house way {hw.setting} "
              f"EV {float(hw.ev):+.5f}")

    if args.never_foul:
        for name in ("trump-plaza", "ballys"):
            for wheel in (0, 1):
                t = time.perf_counter()
                fouls = _house_way_fouls(compile_house_way(house_way(name)), wheel)
                dt = time.perf_counter() - t
                print(f"house way {name}, wheel {'second' if wheel else 'lowest'}: {fouls} "
                      f"fouls in all {comb(53, 7):,} hands ({dt:.0f} s)")

    if args.seven:
        t = time.perf_counter()
        counts = _seven_card_counts(0)
        dt = time.perf_counter() - t
        assert int(counts.sum()) == comb(53, 7)
        print(f"all {comb(53, 7):,} seven-card hands in {dt:.0f} s ({args.threads} threads):")
        for cat in reversed(Category):
            print(f"  {cat.label:>16}: {int(counts[cat]):>12,}")


if __name__ == "__main__":
    main()
