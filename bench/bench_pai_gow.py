"""Pai Gow benchmarks: five-card evaluation, house-way setting, the fast optimal setter, the
exact calculator (its outcome table: counted once, then loaded; then per hand), (with --seven)
the classification of all 154,143,080 seven-card hands, (with --optimal N) the fast optimal
setter against the exact `calc` optimum on N sampled hands, and (with --calc-check N) the
calculator through the table against the direct enumeration on N sampled hands (identical
counts required).

Run: .venv/bin/python bench/bench_pai_gow.py [--seven] [--never-foul] [--optimal N]
     [--calc-check N] [--threads N]
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cardroom.analysis.pai_gow_calc import calculate, direct_counts, table_counts
from cardroom.analysis.pai_gow_counts import seven_card_counts
from cardroom.analysis.pai_gow_optimal import (
    DealerTable,
    commission_weights,
    dealer_table,
    optimal_batch,
    optimal_index,
    optimal_reference,
)
from cardroom.analysis.pai_gow_outcomes import OutcomeTable, outcome_table
from cardroom.cards import Card, parse_cards
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


@dataclass
class Stopwatch:
    """Wall and CPU seconds since start (CPU of every thread of this process), so that a
    loaded machine's slow wall figure can be told from a slow program."""

    wall0: float
    cpu0: float

    @classmethod
    def start(cls) -> Stopwatch:
        return cls(time.perf_counter(), time.process_time())

    @property
    def wall(self) -> float:
        return time.perf_counter() - self.wall0

    @property
    def cpu(self) -> float:
        return time.process_time() - self.cpu0

    def rate(self, n: int) -> str:
        """n hands as millions per second of wall and per CPU-second."""
        wall, cpu = self.wall, self.cpu
        return f"{n / wall / 1e6:.2f} M hands/s wall, {n / cpu / 1e6:.2f} M per CPU-s"

    def __str__(self) -> str:
        return f"{self.wall:.1f} s wall, {self.cpu:.1f} s CPU"


# Alspach, "7-Card Poker Hands with Joker" (2003): the published 53-card seven-card counts
SEVEN_53 = {Category.HIGH_CARD: 24_780_420, Category.PAIR: 64_221_960,
            Category.TWO_PAIR: 35_553_816, Category.THREE_OF_A_KIND: 7_470_676,
            Category.STRAIGHT: 11_236_028, Category.FLUSH: 6_172_088,
            Category.FULL_HOUSE: 4_188_528, Category.FOUR_OF_A_KIND: 307_472,
            Category.STRAIGHT_FLUSH: 210_964, Category.FIVE_ACES: 1_128}


def random_hands(n: int, k: int, seed: int) -> npt.NDArray[np.int64]:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 53)), axis=1)[:, :k].astype(np.int64)


def compare_optimal(n: int, table: DealerTable, keep: int, den: int) -> None:
    """The fast setter's choice against the exact optimum over the 53,524,680 dealer hands of
    the other 46 cards (`calc`), on n random hands (seed 7): agreement and EV lost."""
    way = house_way("trump-plaza")
    hands = random_hands(n, 7, 7)
    same = equal_ev = 0
    lost: list[Fraction] = []
    hw_lost: list[Fraction] = []
    t = time.perf_counter()
    for k, row in enumerate(hands):
        cards = [Card.from_code(int(c)) for c in row]
        fast = optimal_index(row, table.fvals, table.bvals, table.below, table.total, keep, den,
                             0, 0)
        result = calculate(cards, way)
        by_index = {r.index: r for r in result.settings}
        best = max(r.ev for r in result.settings)
        hw = next(r for r in result.settings if r.house_way)
        same += fast == min(r.index for r in result.settings if r.optimal)
        equal_ev += by_index[fast].ev == best
        lost.append(best - by_index[fast].ev)
        hw_lost.append(best - hw.ev)
        if (k + 1) % 10 == 0:
            print(f"  {k + 1}/{n} hands, {time.perf_counter() - t:.0f} s")
    mean = float(sum(lost, Fraction(0)) / n)
    hw_mean = float(sum(hw_lost, Fraction(0)) / n)
    print(f"fast optimal vs exact calc optimum on {n} random hands (trump-plaza, 5%): "
          f"same setting {same}/{n}, exact-optimal EV {equal_ev}/{n} ({equal_ev / n:.1%}); "
          f"EV lost per hand: mean {mean:.6f}, max {float(max(lost)):.6f} "
          f"(house way: mean {hw_mean:.6f}, max {float(max(hw_lost)):.6f}, "
          f"exact-optimal {sum(x == 0 for x in hw_lost)}/{n})")


def check_calc(n: int, outcomes: OutcomeTable) -> None:
    """The calculator through the table against the direct enumeration (every dealer hand set
    the house way again), on n random hands (seed 13): the counts must be identical."""
    way = house_way("trump-plaza")
    t = time.perf_counter()
    for k, row in enumerate(random_hands(n, 7, 13)):
        cards = [Card.from_code(int(c)) for c in row]
        fast = table_counts(cards, outcomes)
        direct = direct_counts(cards, way)
        if not np.array_equal(fast, direct):
            raise SystemExit(f"error: table and direct counts differ on {cards}")
        print(f"  {k + 1}/{n} hands identical, {time.perf_counter() - t:.0f} s")
    print(f"calc through the table = direct enumeration on {n} random hands (trump-plaza)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seven", action="store_true", help="classify all 154,143,080 hands")
    ap.add_argument("--never-foul", action="store_true",
                    help="set all 154,143,080 hands with each built-in house way, count fouls")
    ap.add_argument("--optimal", type=int, default=0, metavar="N",
                    help="compare the fast optimal setter with the exact calc on N hands")
    ap.add_argument("--calc-check", type=int, default=0, metavar="N",
                    help="compare calc through the table with the direct enumeration on N hands")
    cores = len(os.sched_getaffinity(0))
    ap.add_argument("--threads", type=int, default=min(2, cores),
                    help="numba threads (default: 2, or 1 on a one-core affinity)")
    args = ap.parse_args()
    most = numba.get_num_threads()  # numba's launch size: the cores this process may use
    if not 1 <= args.threads <= most:
        ap.error(f"--threads must be 1 to {most} on this machine")
    numba.set_num_threads(args.threads)

    five = random_hands(2_000_000, 5, 1).astype(np.uint8)
    five = np.tile(five, (10, 1))
    eval5_batch(five[:10], 0)
    sw = Stopwatch.start()
    eval5_batch(five, 0)
    print(f"five-card evaluation (one core, batch): {sw.rate(len(five))}")

    seven = random_hands(1_000_000, 7, 2)
    p = compile_house_way(house_way("trump-plaza"))
    _house_way_serial(seven[:10], p)
    sw = Stopwatch.start()
    _house_way_serial(seven, p)
    print(f"house-way setting, trump-plaza (one core): {sw.rate(len(seven))}")

    way = house_way("trump-plaza")
    sw = Stopwatch.start()
    table = dealer_table(way)
    print(f"dealer table (trump-plaza, full deck): {sw} "
          "(counted once, then loaded from the cache)")
    keep, den = commission_weights(Fraction(1, 20))
    args_opt = (table.fvals, table.bvals, table.below, table.total, keep, den, 0, 0)
    optimal_batch(seven[:10], *args_opt)
    sw = Stopwatch.start()
    optimal_batch(seven, *args_opt)
    print(f"fast optimal setting (one core): {sw.rate(len(seven))}")
    picks = optimal_batch(seven[:500], *args_opt)
    agree = sum(int(picks[k]) == optimal_reference([Card.from_code(int(c)) for c in seven[k]],
                                                   table, Fraction(1, 20))
                for k in range(500))
    print(f"fast optimal kernel = Python reference on the full table: {agree}/500 hands")

    sw = Stopwatch.start()
    outcomes = outcome_table(way)
    print(f"calc outcome table (trump-plaza, full deck): {sw} "
          f"(counted once, then mapped from the cache; {outcomes.cells.nbytes / 1e6:.0f} MB, "
          f"{len(outcomes.front):,} dealer cells)")
    times: list[float] = []
    cpus: list[float] = []
    for text in ("As Kd 9c 7h 5s 3d 2c", "JK Ah Kd Qc Js 9h 3d", *(
            " ".join(str(Card.from_code(int(c))) for c in row)
            for row in random_hands(8, 7, 11))):
        sw = Stopwatch.start()
        result = calculate(parse_cards(text), way, table=outcomes)
        times.append(sw.wall)
        cpus.append(sw.cpu)
        best = max(result.settings, key=lambda r: r.ev)
        hw = next(r for r in result.settings if r.house_way)
        print(f"calc {text!r} ({args.threads} threads): {times[-1]:.2f} s wall, "
              f"{cpus[-1]:.2f} s CPU; optimal "
              f"{best.setting} EV {float(best.ev):+.5f}; house way {hw.setting} "
              f"EV {float(hw.ev):+.5f}")
    print(f"calc per hand through the table: median {sorted(times)[len(times) // 2]:.2f} s "
          f"wall ({sorted(cpus)[len(cpus) // 2]:.2f} s CPU), max {max(times):.2f} s wall "
          "(the first includes compiling or loading the kernel)")

    if args.calc_check:
        check_calc(args.calc_check, outcomes)

    if args.optimal:
        compare_optimal(args.optimal, table, keep, den)

    if args.never_foul:
        for name in ("trump-plaza", "ballys"):
            for wheel in (0, 1):
                sw = Stopwatch.start()
                fouls = _house_way_fouls(compile_house_way(house_way(name)), wheel)
                print(f"house way {name}, wheel {'second' if wheel else 'lowest'}: {fouls} "
                      f"fouls in all {comb(53, 7):,} hands ({sw})")

    sw = Stopwatch.start()
    fast = seven_card_counts(0)
    published = [SEVEN_53[c] for c in Category]
    check = "= published" if [int(x) for x in fast.sum(axis=0)] == published else "MISMATCH"
    print(f"all {comb(53, 7):,} seven-card hands via the six-card table ({args.threads} "
          f"threads, compile included): {sw}, {check}")

    if args.seven:
        sw = Stopwatch.start()
        counts = _seven_card_counts(0)
        assert int(counts.sum()) == comb(53, 7)
        print(f"all {comb(53, 7):,} seven-card hands, best of 21 evaluations each, in {sw} "
              f"({args.threads} threads):")
        for cat in reversed(Category):
            mark = "ok" if int(counts[cat]) == SEVEN_53[cat] else f"published {SEVEN_53[cat]:,}"
            print(f"  {cat.label:>16}: {int(counts[cat]):>12,}  {mark}")
        assert [int(x) for x in counts] == published, "seven-card counts differ from published"

if __name__ == "__main__":
    main()
