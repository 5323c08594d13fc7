"""The simulation behind `cardroom simulate pan`: whole hands played by bots at the one Pan
table driver (`cardroom.games.pan.driver.PanTable`, as the room and the terminal play), in
seeded chunks.

Shuffles here use a `random.Random` seeded from the chunk's seed sequence so runs can be
reproduced: simulation only, never live play (live shuffles use `cardroom.shoe.fisher_yates`
with `SystemRandom`).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from cardroom.analysis.estimate import around, mean_half_width
from cardroom.analysis.parallel import Chunk, SimulationError, plan_chunks, run_chunks
from cardroom.cards import Card
from cardroom.games.pan.bots import Bot, RandomBot, SoundBot
from cardroom.games.pan.cards import card_key, pan_pack
from cardroom.games.pan.driver import PanTable, RngSource
from cardroom.games.pan.engine import PanHand, SeatSpec
from cardroom.games.pan.events import ChipsMoved, ConditionMade, Drew, Took, ToppedUp
from cardroom.games.pan.melds import conditions_of
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.table import next_dealer, pack_left
from cardroom.shoe import fisher_yates

PAID_FOR = {"condition": "conditions", "outs": "outs",
            "foul hand: value as it lies plus 2 (foul rule 1B)": "outs"}
"""The chips players pay each other in a hand, by what they pay for (a foul hand's value plus
2 stands in for the outs)."""
PAYMENTS = ("tops", "conditions", "outs", "wagers")


def payments(hand: PanHand) -> dict[str, int]:
    """Chips put up in one hand: the tops (antes), the condition pays collected, the outs, and
    their sum, the wagers of the hand (what a rake is a share of, WAC 230-15-080)."""
    paid = dict.fromkeys(PAYMENTS, 0)
    for ev in hand.events:
        if isinstance(ev, ToppedUp):
            paid["tops"] += ev.single + ev.double
        elif isinstance(ev, ChipsMoved) and ev.payer is not None and ev.reason in PAID_FOR:
            paid[PAID_FOR[ev.reason]] += ev.chips
    paid["wagers"] = paid["tops"] + paid["conditions"] + paid["outs"]
    return paid


CHUNK_HANDS = 100
"""Hands per chunk: a constant, so the chunking (and the result) never depends on the workers."""


@dataclass
class SimReport:
    hands: int
    players: int
    seconds: float
    turns: int
    chips: list[int]
    kinds: list[str]
    chips_sq: list[int] = field(default_factory=list)
    conditions: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    workers: str = "1 local worker"
    paid: Counter[str] = field(default_factory=Counter)
    """Chips per `payments` heading over all hands, and their squares hand by hand."""
    paid_sq: Counter[str] = field(default_factory=Counter)

    def merge(self, other: SimReport) -> SimReport:
        """Two chunks' results as one (chunk order: the caller folds them in order)."""
        return SimReport(
            self.hands + other.hands, self.players, self.seconds + other.seconds,
            self.turns + other.turns,
            [a + b for a, b in zip(self.chips, other.chips, strict=True)], self.kinds,
            [a + b for a, b in zip(self.chips_sq, other.chips_sq, strict=True)],
            self.conditions + other.conditions, self.endings + other.endings, self.workers,
            self.paid + other.paid, self.paid_sq + other.paid_sq)

    def paid_per_hand(self, heading: str) -> tuple[float, float]:
        """Chips per hand under a `payments` heading, and the half-width of its 95% interval
        (normal approximation)."""
        return mean_half_width(self.paid[heading], self.paid_sq[heading], self.hands)

    def ci95(self, seat: int) -> tuple[float, float]:
        """95% confidence interval of the seat's chips per hand (normal approximation)."""
        return around(*mean_half_width(self.chips[seat], self.chips_sq[seat], self.hands))

    def to_json(self) -> dict[str, Any]:
        per_hand = [c / self.hands for c in self.chips]
        return {
            "hands": self.hands, "players": self.players, "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "workers": self.workers,
            "average_turns": round(self.turns / self.hands, 2),
            "conditions_per_hand": {k: round(v / self.hands, 4)
                                    for k, v in sorted(self.conditions.items())},
            "endings": dict(sorted(self.endings.items())),
            "seats": [{"seat": i, "bot": k, "chips_won": c, "chips_per_hand": round(p, 4),
                       "ci95": [round(x, 4) for x in self.ci95(i)]}
                      for i, (k, c, p) in enumerate(zip(self.kinds, self.chips, per_hand,
                                                        strict=True))],
            "paid_per_hand": {k: {"chips": round(m, 4), "ci95": [round(m - h, 4),
                                                                 round(m + h, 4)]}
                              for k in PAYMENTS for m, h in [self.paid_per_hand(k)]},
        }


@dataclass(frozen=True)
class SimJob:
    """What every chunk plays: picklable, so chunks can run in other processes or on Dask."""

    players: int
    kinds: tuple[str, ...]
    rules: PanRules
    chips: int
    chunk_hands: int
    compiled: bool = True
    """Sound bots at every seat play on the compiled kernel (`games.pan.kernel`), the same
    hands to the chip; False: on the engine (the reference)."""


def record(report: SimReport, delta: Sequence[int], ending: str, paid: dict[str, int],
           turns: int, conditions: dict[str, int]) -> None:
    """One hand into the chunk's report: the seats' chips won, how it ended, the chips put
    up by heading, its turns and the conditions on its melds."""
    for i, d in enumerate(delta):
        report.chips[i] += d
        report.chips_sq[i] += d * d
    report.endings[ending] += 1
    for heading, chips in paid.items():
        report.paid[heading] += chips
        report.paid_sq[heading] += chips * chips
    report.turns += turns
    for kind, count in conditions.items():
        report.conditions[kind] += count


def counted(hand: PanHand) -> tuple[int, dict[str, int]]:
    """A hand's turns (draws and takes) and the conditions its melds carry as they lie at
    the end, for each condition made (`ConditionMade`), in one pass over its events."""
    turns = 0
    conditions: Counter[str] = Counter()
    for ev in hand.events:  # one pass: a hand logs hundreds of events
        if isinstance(ev, Drew | Took):
            turns += 1
        elif isinstance(ev, ConditionMade):
            m = hand.seats[ev.seat].melds
            if ev.meld < len(m) and m[ev.meld].kind is not None:
                kind = m[ev.meld].kind
                assert kind is not None
                for c in conditions_of(m[ev.meld].cards, kind):
                    conditions[c.kind.value] += 1
    return turns, dict(conditions)


def record_hand(report: SimReport, hand: PanHand) -> None:
    """`record` a hand the engine played."""
    record(report, hand.chips_delta(), hand.end_reason or "?", payments(hand), *counted(hand))


def run_chunk(job: SimJob, chunk: Chunk) -> SimReport:
    """Play one chunk's hands at one table (`PanTable`): the first pack shuffled, then each
    hand dealt from the pack the last one left, with the tops a redeal carried, the winner
    first hand. Its random streams come from the chunk's own seed sequence (simulation-only
    PRNGs); the chunk's first dealer is the seat its first hand's number in the run gives.
    Sound bots at every seat play on the kernel (`run_chunk_compiled`) unless told not to."""
    if job.compiled and set(job.kinds) == {"sound"}:
        from cardroom.games.pan import kernel  # numba loads only where it is used
        if kernel.supports(job.rules):
            return run_chunk_compiled(job, chunk)
    words = [int(w) for w in chunk.generator_state(job.players + 1)]
    source = RngSource(random.Random(words[0]))
    bots: list[Bot] = [SoundBot() if k == "sound" else RandomBot(random.Random(words[i + 1]))
                       for i, k in enumerate(job.kinds)]
    n = job.players
    report = SimReport(chunk.size, n, 0.0, 0, [0] * n, list(job.kinds), [0] * n)
    specs = [SeatSpec(f"{k}{i}", job.chips) for i, k in enumerate(job.kinds)]
    t0 = time.perf_counter()
    table = PanTable(source)
    dealer = chunk.index * job.chunk_hands % n
    first: list[Card] | None = fisher_yates(pan_pack(job.rules), source)
    for _ in range(chunk.size):
        hand = table.deal(job.rules, specs, dealer, first, record=False)
        first = None
        table.play(bots)
        dealer = next_dealer(n, hand.winner, hand.dealer)
        record_hand(report, hand)
    report.seconds = time.perf_counter() - t0
    return report


def run_chunk_compiled(job: SimJob, chunk: Chunk) -> SimReport:
    """`run_chunk` with every seat a sound bot, each hand played by the compiled kernel
    (`games.pan.kernel.play`) from the same pack, and the next pack made from the stock it
    left with the same draws of the chunk's source (`kernel_pack.pack_left`, the generator's
    state carried into numba and back; `table.pack_left` for the packet reshuffle): the same
    hands. A hand the kernel leaves to the engine (`kernel.FALLBACK`: a rare rule, or the
    stock reshuffled, which draws from the source) is played again from its start by
    `PanTable`, and so is one dealt with tops carried from a redeal."""
    from cardroom.games.pan import kernel, kernel_pack
    from cardroom.games.pan.kernel_melds import tables

    words = [int(w) for w in chunk.generator_state(job.players + 1)]
    rng = random.Random(words[0])
    source = RngSource(rng)
    bots: list[Bot] = [SoundBot() for _ in job.kinds]
    n, rules = job.players, job.rules
    report = SimReport(chunk.size, n, 0.0, 0, [0] * n, list(job.kinds), [0] * n)
    specs = [SeatSpec(f"{k}{i}", job.chips) for i, k in enumerate(job.kinds)]
    tabs = tables(rules)
    by_key = {card_key(c): c for c in pan_pack(rules)}

    def keys(cards: Sequence[Card]) -> npt.NDArray[np.int64]:
        return np.fromiter([card_key(c) for c in cards], np.int64, len(cards))

    t0 = time.perf_counter()
    table = PanTable(source)
    dealer = chunk.index * job.chunk_hands % n
    pack = keys(fisher_yates(pan_pack(rules), source))
    mt, pos = kernel_pack.twister(rng)
    for _ in range(chunk.size):
        done = None if any(table.carried) else kernel.play(pack, n, dealer, job.chips, rules,
                                                           tabs)
        if done is None:
            kernel_pack.give_back(rng, mt, pos)
            hand = table.deal(rules, specs, dealer, [by_key[k] for k in pack], record=False)
            table.play(bots)
            assert table.next_pack is not None
            pack, winner = keys(table.next_pack), hand.winner
            mt, pos = kernel_pack.twister(rng)
            record_hand(report, hand)
            dealer = next_dealer(n, winner, dealer)
            continue
        if rules.reshuffle == "full":
            pack = kernel_pack.pack_left(pack, done.stock, len(done.stock), mt, pos)
        else:
            kernel_pack.give_back(rng, mt, pos)
            pack = keys(pack_left([by_key[k] for k in pack], [by_key[k] for k in done.stock],
                                  rules, source))
            mt, pos = kernel_pack.twister(rng)
        record(report, [c - job.chips for c in done.chips], done.end_reason, done.paid,
               done.turns, done.conditions)
        dealer = next_dealer(n, done.winner, dealer)
    report.seconds = time.perf_counter() - t0
    return report


def simulate(hands: int, players: int, seed: int, kinds: Sequence[str] | None = None,
             rules: PanRules | None = None, chips: int = 40, *, workers: int = 1,
             scheduler: str | None = None, chunk_hands: int = CHUNK_HANDS,
             progress: bool = False, compiled: bool = True) -> SimReport:
    """Play `hands` hands (every seat starts each hand with `chips`; each chunk one table,
    `run_chunk`), in seeded chunks (`cardroom.analysis.parallel`): in this process, on `workers`
    local processes or on the Dask scheduler at `scheduler`, with the same result (a progress
    bar on a terminal with `progress`). Reports
    chips won per seat (with a 95% interval) and how often each condition was made;
    `seconds` is the wall time of the whole run. Sound bots at every seat play on the
    compiled kernel unless `compiled` is False (the engine: the same result, slower)."""
    kinds = list(kinds or ["sound"] * players)
    if len(kinds) != players:
        raise SimulationError("one bot kind per player")
    job = SimJob(players, tuple(kinds), rules or PanRules(), chips, chunk_hands, compiled)
    t0 = time.perf_counter()
    report = run_chunks(partial(run_chunk, job), plan_chunks(hands, seed, chunk_hands),
                        SimReport.merge, workers=workers, scheduler=scheduler,
                        progress=progress, description=f"Pan hands, {players} seats")
    report.seconds = time.perf_counter() - t0
    report.workers = (f"Dask scheduler {scheduler}" if scheduler
                      else f"{workers} local worker{'s' if workers > 1 else ''}")
    return report
