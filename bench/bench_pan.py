"""Pan benchmarks: full hands per second per core with 8 bots, and 10,000 hands of sound
bots against random-legal players with a 95% confidence interval.

    .venv/bin/python bench/bench_pan.py [--hands 10000] [--speed-hands 1000]
        [--floor 300] [--kernel 20000]

Speed is CPU time of one process (one core), on the engine (the reference: `simulate(...,
compiled=False)`). `--kernel N` times N hands of 8 sound bots on the compiled kernel
(`games.pan.kernel`, the simulation's default for sound bots), after a warm-up run that loads
(or compiles) it, and N / 4 hands at each of the dossier's seat counts. The duel alternates
sound and random seats at a 4-player table; its interval comes from 100-hand chunks with
independent seeds.

`--floor N` plays N hands of 8 sound bots recording their actions, then times the engine
alone on the same hands: each hand dealt again and its actions applied `unchecked`, with no
bot choosing and no driver (no reactions asked, no pack between hands): what a hand costs
the Python engine however fast the bots choose, the ceiling on hands per second of bots that
play through it.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import time

from cardroom.analysis.pan_sim import simulate
from cardroom.cards import Card
from cardroom.engine import unchecked
from cardroom.games.pan.bots import Bot, SoundBot
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.driver import PanTable, RngSource
from cardroom.games.pan.engine import PanHand, SeatSpec
from cardroom.games.pan.replay import FIELDS
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.table import next_dealer
from cardroom.history import arguments
from cardroom.shoe import fisher_yates


def speed(hands: int, compiled: bool = False, seats: int = 8) -> None:
    t0, w0 = time.process_time(), time.perf_counter()
    r = simulate(hands, seats, seed=1, compiled=compiled)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    print(f"speed{' (kernel)' if compiled else ''}: {hands} hands, {seats} sound bots: "
          f"{hands / cpu:.1f} hands/s per core (CPU time), {hands / wall:.1f} hands/s wall, "
          f"{cpu / hands * 1e3:.3f} ms CPU a hand, {r.turns / hands:.1f} turns a hand")


def kernel(hands: int) -> None:
    """The compiled kernel: loaded (or compiled) first, then timed at 8 seats and at each of
    the dossier's seat counts."""
    t0 = time.perf_counter()
    simulate(20, 8, seed=2)
    print(f"kernel: loaded or compiled in {time.perf_counter() - t0:.1f} s wall")
    speed(hands, compiled=True)
    for seats in range(2, 9):
        speed(max(hands // 4, 1), compiled=True, seats=seats)


def floor(hands: int) -> None:
    rules, source = PanRules(), RngSource(random.Random(1))
    bots: list[Bot] = [SoundBot() for _ in range(8)]
    specs = [SeatSpec(f"sound{i}", 40) for i in range(8)]
    table, dealer, played = PanTable(source), 0, []
    pack: list[Card] | None = fisher_yates(pan_pack(rules), source)
    for _ in range(hands):
        hand = table.deal(rules, specs, dealer, pack)
        pack = None
        table.play(bots)
        played.append(hand)
        dealer = next_dealer(8, hand.winner, hand.dealer)
    steps = [(h, [(a["type"], arguments(a, FIELDS))
                  for a in h.actions]) for h in played]
    t0, w0 = time.process_time(), time.perf_counter()
    again = []
    for h, acts in steps:
        again.append(PanHand(rules, h.specs, h.dealer, h.pack, carried_tops=h.carried_tops,
                             record=False))
        for kind, kwargs in acts:
            unchecked(getattr(again[-1], kind), **kwargs)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    assert [x.events for x in again] == [h.events for h in played], "not the same hands"
    print(f"floor: the engine alone on the same {hands} hands (actions applied unchecked, no "
          f"bots, no driver): {hands / cpu:.1f} hands/s per core (CPU time), "
          f"{hands / wall:.1f} wall, {cpu / hands * 1e3:.2f} ms CPU a hand")


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
    ap.add_argument("--floor", type=int, default=0,
                    help="hands to time the engine alone on (0: not measured)")
    ap.add_argument("--kernel", type=int, default=0,
                    help="hands to time the compiled kernel on (0: not measured)")
    a = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    if a.speed_hands:
        speed(a.speed_hands)
    if a.kernel:
        kernel(a.kernel)
    if a.floor:
        floor(a.floor)
    if a.hands:
        duel(a.hands)


if __name__ == "__main__":
    main()
