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

from cardroom.analysis.estimate import around, mean_half_width
from cardroom.analysis.parallel import Chunk, SimulationError, plan_chunks, run_chunks
from cardroom.cards import Card
from cardroom.games.pan.bots import Bot, RandomBot, SoundBot
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.driver import PanTable, RngSource
from cardroom.games.pan.engine import PanHand, SeatSpec
from cardroom.games.pan.events import ChipsMoved, ConditionMade, Drew, Took, ToppedUp
from cardroom.games.pan.melds import conditions_of
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.table import next_dealer
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


def run_chunk(job: SimJob, chunk: Chunk) -> SimReport:
    """Play one chunk's hands at one table (`PanTable`): the first pack shuffled, then each
    hand dealt from the pack the last one left, with the tops a redeal carried, the winner
    first hand. Its random streams come from the chunk's own seed sequence (simulation-only
    PRNGs); the chunk's first dealer is the seat its first hand's number in the run gives."""
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
        for i, d in enumerate(hand.chips_delta()):
            report.chips[i] += d
            report.chips_sq[i] += d * d
        report.endings[hand.end_reason or "?"] += 1
        for heading, chips in payments(hand).items():
            report.paid[heading] += chips
            report.paid_sq[heading] += chips * chips
        for ev in hand.events:  # one pass: a hand logs hundreds of events
            if isinstance(ev, Drew | Took):
                report.turns += 1
            elif isinstance(ev, ConditionMade):
                m = hand.seats[ev.seat].melds
                if ev.meld < len(m) and m[ev.meld].kind is not None:
                    kind = m[ev.meld].kind
                    assert kind is not None
                    for c in conditions_of(m[ev.meld].cards, kind):
                        report.conditions[c.kind.value] += 1
    report.seconds = time.perf_counter() - t0
    return report


def simulate(hands: int, players: int, seed: int, kinds: Sequence[str] | None = None,
             rules: PanRules | None = None, chips: int = 40, *, workers: int = 1,
             scheduler: str | None = None, chunk_hands: int = CHUNK_HANDS,
             progress: bool = False) -> SimReport:
    """Play `hands` hands (every seat starts each hand with `chips`; each chunk one table,
    `run_chunk`), in seeded chunks (`cardroom.analysis.parallel`): in this process, on `workers`
    local processes or on the Dask scheduler at `scheduler`, with the same result (a progress
    bar on a terminal with `progress`). Reports
    chips won per seat (with a 95% interval) and how often each condition was made;
    `seconds` is the wall time of the whole run."""
    kinds = list(kinds or ["sound"] * players)
    if len(kinds) != players:
        raise SimulationError("one bot kind per player")
    job = SimJob(players, tuple(kinds), rules or PanRules(), chips, chunk_hands)
    t0 = time.perf_counter()
    report = run_chunks(partial(run_chunk, job), plan_chunks(hands, seed, chunk_hands),
                        SimReport.merge, workers=workers, scheduler=scheduler,
                        progress=progress, description=f"Pan hands, {players} seats")
    report.seconds = time.perf_counter() - t0
    report.workers = (f"Dask scheduler {scheduler}" if scheduler
                      else f"{workers} local worker{'s' if workers > 1 else ''}")
    return report
