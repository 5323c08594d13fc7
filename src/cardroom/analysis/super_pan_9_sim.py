"""Super Pan 9 Monte Carlo: full tables from real shuffled shoes, 95% intervals beside the
exact values, on one core, local processes or a Dask cluster (same seed, same answer)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from itertools import permutations
from typing import Any

import numpy as np
import numpy.typing as npt

from cardroom.analysis import super_pan_9_kernel as kernel
from cardroom.analysis.estimate import Estimate, sample_moments
from cardroom.analysis.parallel import Chunk, SimulationError, check_count, run_seeded
from cardroom.analysis.super_pan_9 import Holding, analyse, dealer_rule_strategy, strategy_move
from cardroom.analysis.wager import frac
from cardroom.cards import Card
from cardroom.games.super_pan_9.cards import card_value
from cardroom.games.super_pan_9.engine import SuperPan9Table
from cardroom.games.super_pan_9.rules import SuperPan9Rules
from cardroom.shoe import Shoe

MAX_HANDS = 10**13
STRATEGIES = ("optimal", "dealer-rule")
IntArray = npt.NDArray[np.int64]


def strategy_for(name: str, rules: SuperPan9Rules) -> dict[Holding, bool]:
    """The exact optimal strategy for these rules, or "draw on 0 to 5"."""
    report = analyse(rules.decks, rules.commission, rules.tie_pays, rules.commission_on_tie_bet)
    if name == "optimal":
        return report.strategy
    if name == "dealer-rule":
        return dealer_rule_strategy(report.results)
    raise SimulationError(f"--strategy must be one of {', '.join(STRATEGIES)}, not {name!r}")


def draw_table(strategy: Mapping[Holding, bool]) -> npt.NDArray[np.bool_]:
    """The strategy as a flat 7x7x7 table over the three cards in any order."""
    table = np.zeros(343, dtype=np.bool_)
    for holding, draw in strategy.items():
        for a, b, c in set(permutations(holding)):
            table[a * 49 + b * 7 + c] = draw
    return table


@dataclass(frozen=True)
class KernelArgs:
    base_shoe: IntArray
    cut_index: int
    seats: int
    draw: npt.NDArray[np.bool_]


def kernel_args(rules: SuperPan9Rules, seats: int, strategy: Mapping[Holding, bool]) -> KernelArgs:
    check_count(seats, "seats", 1, kernel.MAX_SEATS)
    if 4 * (seats + 1) > rules.shoe_size:
        raise SimulationError(f"a {rules.shoe_size}-card shoe cannot serve {seats} seats")
    values = np.array([card_value(c) for c in rules.shoe_spec.cards()], dtype=np.int64)
    return KernelArgs(values, rules.shoe_size - rules.cut_from_end, seats, draw_table(strategy))


ChunkResult = tuple[IntArray, int]


def simulate_chunk(args: KernelArgs, chunk: Chunk) -> ChunkResult:
    """`chunk.size` rounds from shoes shuffled with the chunk's own random stream."""
    hist, shoes = kernel.simulate(args.base_shoe, chunk.size, chunk.generator_state(),
                                  args.cut_index, args.seats, args.draw)
    return hist, int(shoes)


def _estimate(name: str, hist: IntArray, seats: int, per_round: dict[tuple[int, int], Fraction],
              exact: Fraction) -> Estimate:
    """Rounds are the sampling unit (seats share a dealer hand): mean and variance of the round
    return, divided by the seats."""
    n = int(hist.sum())
    mean, var = sample_moments(((x, int(hist[w * kernel.HIST_SIDE + lo]))
                                for (w, lo), x in per_round.items()), n)
    return Estimate(name, -float(mean) / seats, math.sqrt(float(var) / n) / seats, exact)


@dataclass(frozen=True)
class SimulationReport:
    rules: SuperPan9Rules
    seats: int
    strategy: str
    rounds: int
    seed: int
    shoes: int
    hist: IntArray
    main: Estimate
    tie: Estimate

    @property
    def hands(self) -> int:
        return self.rounds * self.seats

    def to_json(self) -> dict[str, Any]:
        def entry(e: Estimate) -> dict[str, Any]:
            assert e.exact is not None
            return {"name": e.name, "house_edge": e.house_edge, "ci95": [e.ci_low, e.ci_high],
                    "exact": float(e.exact),
                    "exact_fraction": frac(e.exact),
                    "exact_within_ci": e.exact_within_ci}

        return {"game": "super-pan-9", "decks": self.rules.decks, "seats": self.seats,
                "strategy": self.strategy, "hands": self.hands, "rounds": self.rounds,
                "shoes": self.shoes, "seed": self.seed,
                "commission": frac(self.rules.commission),
                "tie_pays": self.rules.tie_pays,
                "wagers": [entry(self.main), entry(self.tie)]}


def simulate(rules: SuperPan9Rules, hands: int, seats: int = 7, strategy: str = "optimal",
             seed: int | None = None, *, workers: int = 1, scheduler: str | None = None,
             progress: bool = False) -> SimulationReport:
    """Deal at least `hands` player-hands (whole rounds of `seats`) from real shoes."""
    check_count(hands, "hands", 1, MAX_HANDS)
    check_count(seats, "seats", 1, kernel.MAX_SEATS)
    plan = strategy_for(strategy, rules)
    args = kernel_args(rules, seats, plan)
    rounds = -(-hands // seats)
    (hist, shoes), seed = run_seeded(partial(simulate_chunk, args), rounds, seed,
                                     workers=workers, scheduler=scheduler, progress=progress,
                                     description="Super Pan 9 rounds")
    exact = analyse(rules.decks, rules.commission, rules.tie_pays, rules.commission_on_tie_bet)
    main_exact = exact.optimal if strategy == "optimal" else exact.dealer_rule
    tie_exact = exact.tie if strategy == "optimal" else exact.tie_dealer_rule
    c = rules.commission
    tie_win = rules.tie_pays * (1 - (c if rules.commission_on_tie_bet else 0))
    main_x: dict[tuple[int, int], Fraction] = {}
    tie_x: dict[tuple[int, int], Fraction] = {}
    for w in range(seats + 1):
        for lo in range(seats + 1 - w):
            ties = seats - w - lo
            main_x[(w, lo)] = Fraction(w * (1 - c) - lo)
            tie_x[(w, lo)] = Fraction(ties * tie_win - (seats - ties))
    main = _estimate("main", hist, seats, main_x, main_exact.house_edge)
    tie = _estimate("tie", hist, seats, tie_x, tie_exact.house_edge)
    return SimulationReport(rules, seats, strategy, rounds, seed, shoes, hist, main, tie)


# --- identical results: the kernel against the Python engine ---------------------------------

def kernel_deal(orders: Sequence[Sequence[Card]], rules: SuperPan9Rules, seats: int,
                strategy: Mapping[Holding, bool]) -> list[tuple[int, ...]]:
    """Deal the given shoe orders with the compiled kernel; one record per round."""
    args = kernel_args(rules, seats, strategy)
    arr = np.array([[card_value(c) for c in o] for o in orders], dtype=np.int64)
    records, _ = kernel.deal_orders(arr, args.cut_index, seats, args.draw)
    return [tuple(row[:seats + 1]) for row in records.tolist()]


def reference_deal(orders: Sequence[Sequence[Card]], rules: SuperPan9Rules, seats: int,
                   strategy: Mapping[Holding, bool], wager: int | None = None
                   ) -> list[tuple[int, ...]]:
    """The same shoes through `SuperPan9Table` (cut card, reshuffle rule, seat order)."""
    args = kernel_args(rules, seats, strategy)
    out: list[tuple[int, ...]] = []
    stake = wager or rules.min_wager_cents
    for order in orders:
        table = SuperPan9Table(rules, shoe=Shoe(list(order), args.cut_index, bytes(16)))
        while True:
            for seat in range(1, seats + 1):
                table.place_wager(seat, stake)
            if table.needs_shuffle() is not None:
                break
            table.deal()
            while (turn := table.to_act) is not None:
                table.apply(strategy_move(table, turn, strategy))
            settled = table.finish_dealer()
            row = [table.seats[s].total + (10 if table.seats[s].drew else 0)
                   for s in range(1, seats + 1)]
            out.append((*row, settled.dealer_total))
            table.new_round()
    return out
