"""Monte Carlo of Mini-Baccarat and the Super-9 wagers over real shuffled shoes.

The compiled kernel (`baccarat_kernel`) deals whole shoes and counts coups by class; this
module turns the exact integer counts into each wager's observed house edge with a 95%
confidence interval (means and variances are exact Fractions; only the square root of the
variance is a float), and checks the kernel against the reference coup engine, shoe by shoe.

The simulation verifies the exact analysis; it never replaces it. Its coups come from shoes
dealt to the cut card after the burn, so its long-run edges include the (tiny) cut-card effect
that the off-the-top exact figures leave out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, partial
from typing import Any

import numpy as np
import numpy.typing as npt

from cardroom.analysis import baccarat_kernel as kernel
from cardroom.analysis.estimate import Estimate, sample_moments
from cardroom.analysis.parallel import Chunk, SimulationError, check_count, run_seeded
from cardroom.cards import Card
from cardroom.games.baccarat.coup import CoupResult, Winner, card_value, play_coup
from cardroom.games.baccarat.paytables import nine_pay_table
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.tableau import Tableau, standard_tableau
from cardroom.games.baccarat.wagers import (
    ProgressiveAward,
    fixed_award_for_one,
    is_suited_nine,
    progressive_award,
)
from cardroom.shoe import BurnMode, Shoe

IntArray = npt.NDArray[np.int64]
MAX_HANDS = 10**13
WAGER_NAMES = ("player", "banker", "tie", "player_9", "banker_9", "progressive")


@dataclass(frozen=True)
class KernelTables:
    """Everything the kernel needs, as arrays derived from the reference rules code."""

    base_shoe: IntArray
    cut_index: int
    after_cut: int
    burn_first: bool
    burn_after: IntArray
    value: IntArray
    natural: npt.NDArray[np.bool_]
    player_draws: npt.NDArray[np.bool_]
    banker_draws: npt.NDArray[np.bool_]

    def args(self) -> tuple[Any, ...]:
        """The kernel arguments after the shoe(s): cut, burn, values, tableau."""
        return (self.cut_index, self.after_cut, self.burn_first, self.burn_after, self.value,
                self.natural, self.player_draws, self.banker_draws)


def kernel_tables(rules: BaccaratRules, tableau: Tableau | None = None) -> KernelTables:
    """Build the kernel's arrays from the rules (whose validation guarantees that a shoe never
    runs out: the cut card lies after the burn and leaves room for the coups after it)."""
    tab = tableau or standard_tableau()
    cards = [Card.from_code(code) for code in range(52)]
    burn = rules.burn_rule
    burn_after = np.array([burn.cards_to_burn(c) for c in cards], dtype=np.int64)
    burn_first = burn.mode is not BurnMode.NONE
    spec = rules.shoe_spec
    cut_index = spec.size - rules.cut_card_from_end
    return KernelTables(
        base_shoe=np.array([c.code for c in spec.cards()], dtype=np.int64),
        cut_index=cut_index,
        after_cut=rules.coups_after_cut_card,
        burn_first=burn_first,
        burn_after=burn_after,
        value=np.array([card_value(c) for c in cards], dtype=np.int64),
        natural=np.array([tab.is_natural(t) for t in range(10)], dtype=np.bool_),
        player_draws=tab.player_matrix(),
        banker_draws=tab.banker_matrix(),
    )


# --- the job run per chunk -----------------------------------------------------------------

ChunkResult = tuple[IntArray, int]
"""(class counts, shoes shuffled) of one chunk."""


def simulate_chunk(tables: KernelTables, chunk: Chunk) -> ChunkResult:
    """Deal `chunk.size` coups from shoes shuffled with the chunk's own random stream."""
    counts, shoes = kernel.simulate(tables.base_shoe, chunk.size, chunk.generator_state(),
                                    *tables.args())
    return counts, int(shoes)


# --- from counts to wagers -----------------------------------------------------------------

def class_values(rules: BaccaratRules) -> dict[str, dict[tuple[int, int, int, int], Fraction]]:
    """Per wager, the per-unit result of each coup class (winner, P nine, B nine, award).

    Player +1/-1/0, Banker +(1-commission)/-1/0, Tie +tie_pays/-1, the nines from the pay
    table; for the progressive the value is X = the fixed "for 1" award plus, on the jackpot,
    the seed in dollars, so that its house edge is 1 - contribution - E[X].
    """
    table = nine_pay_table(rules.paytable)
    nine_pays = {"player_9": (-1, table.player_unsuited, table.player_suited),
                 "banker_9": (-1, table.banker_unsuited, table.banker_suited)}
    seed_dollars = Fraction(rules.jackpot_seed_cents, 100)
    out: dict[str, dict[tuple[int, int, int, int], Fraction]] = {n: {} for n in WAGER_NAMES}
    for key in np.ndindex(*kernel.COUNT_SHAPE):
        w, p9, b9, award = (int(k) for k in key)
        winner = Winner(kernel.WINNERS[w])
        k = (w, p9, b9, award)
        out["player"][k] = Fraction({Winner.PLAYER: 1, Winner.BANKER: -1}.get(winner, 0))
        out["banker"][k] = {Winner.BANKER: 1 - rules.commission, Winner.PLAYER: Fraction(-1)
                            }.get(winner, Fraction(0))
        out["tie"][k] = Fraction(rules.tie_pays if winner is Winner.TIE else -1)
        out["player_9"][k] = Fraction(nine_pays["player_9"][p9])
        out["banker_9"][k] = Fraction(nine_pays["banker_9"][b9])
        prize = ProgressiveAward(award)
        jackpot = seed_dollars if prize is ProgressiveAward.JACKPOT else Fraction(0)
        out["progressive"][k] = fixed_award_for_one(prize) + jackpot
    if not rules.jackpot:
        del out["progressive"]
    return out


def estimates(counts: IntArray, rules: BaccaratRules,
              exact: dict[str, Fraction] | None = None) -> list[Estimate]:
    """Each wager's observed edge (exact Fraction of the counts) and standard error."""
    flat = np.asarray(counts, dtype=np.int64).reshape(kernel.COUNT_SHAPE)
    n = int(flat.sum())
    if n < 2:
        raise SimulationError("a confidence interval needs at least two coups")
    seen: list[tuple[tuple[int, int, int, int], int]] = []
    for w, p9, b9, award in zip(*np.nonzero(flat), strict=True):
        key = (int(w), int(p9), int(b9), int(award))
        seen.append((key, int(flat[key])))
    out = []
    for name, values in class_values(rules).items():
        mean, variance = sample_moments(((values[key], c) for key, c in seen), n)
        edge = 1 - rules.jackpot_contribution - mean if name == "progressive" else -mean
        out.append(Estimate(name, edge, math.sqrt(variance / n),
                            None if exact is None else exact.get(name)))
    return out


def exact_edges(rules: BaccaratRules) -> dict[str, Fraction]:
    """The exact house edges of `cardroom.analysis.baccarat.analyze`, by wager name."""
    return dict(_exact_edges(rules))


@cache
def _exact_edges(rules: BaccaratRules) -> dict[str, Fraction]:
    from cardroom.analysis.baccarat import analyze

    report = analyze(rules)
    names = [n for n in WAGER_NAMES if rules.jackpot or n != "progressive"]
    return {name: Fraction(report.wager(name).house_edge) for name in names}


@dataclass(frozen=True)
class SimulationReport:
    rules: BaccaratRules
    hands: int
    seed: int
    shoes: int
    counts: IntArray = field(repr=False)
    wagers: list[Estimate]

    def wager(self, name: str) -> Estimate:
        for est in self.wagers:
            if est.name == name:
                return est
        raise KeyError(name)

    @property
    def winners(self) -> dict[str, int]:
        by_winner = self.counts.reshape(kernel.COUNT_SHAPE).sum(axis=(1, 2, 3))
        return {w: int(c) for w, c in zip(kernel.WINNERS, by_winner, strict=True)}


def simulate(rules: BaccaratRules, hands: int, seed: int | None = None, *, workers: int = 1,
             scheduler: str | None = None, progress: bool = False,
             chunk_size: int | None = None, exact: bool = False) -> SimulationReport:
    """Deal `hands` coups from real shuffled shoes and estimate every wager's house edge.

    The same seed gives the same counts whatever `workers` or `scheduler`; with no seed one
    is drawn from the OS and reported, so that any run can be replayed.
    """
    check_count(hands, "hands", 2, MAX_HANDS)
    tables = kernel_tables(rules)
    (counts, shoes), seed = run_seeded(partial(simulate_chunk, tables), hands, seed,
                                       chunk_size=chunk_size, workers=workers,
                                       scheduler=scheduler, progress=progress,
                                       description="baccarat coups")
    edges = exact_edges(rules) if exact else None
    return SimulationReport(rules, hands, seed, shoes, counts, estimates(counts, rules, edges))


# --- identical results: the kernel against the reference coup engine -----------------------

CoupRecord = tuple[int, tuple[int, ...], tuple[int, ...], int, int]
"""(shoe index, player card codes, banker card codes, player total, banker total)."""


def _orders_array(orders: Sequence[Sequence[int]], rules: BaccaratRules) -> IntArray:
    size = rules.shoe_spec.size
    arr = np.array([list(o) for o in orders], dtype=np.int64).reshape(len(orders), -1)
    expected = sorted(c.code for c in rules.shoe_spec.cards())
    for row in arr:
        if row.shape[0] != size or sorted(row.tolist()) != expected:
            raise SimulationError(f"a shoe order must hold exactly the {size} cards of the shoe")
    return arr


def kernel_deal(orders: Sequence[Sequence[int]], rules: BaccaratRules,
                tableau: Tableau | None = None) -> tuple[list[CoupRecord], IntArray]:
    """Deal the given shoe orders (card codes) with the compiled kernel: records and counts."""
    tables = kernel_tables(rules, tableau)
    records, owner, counts = kernel.deal_orders(_orders_array(orders, rules), *tables.args())
    out = []
    for shoe, row in zip(owner.tolist(), records.tolist(), strict=True):
        player = tuple(c for c in row[0:3] if c >= 0)
        banker = tuple(c for c in row[3:6] if c >= 0)
        out.append((shoe, player, banker, row[6], row[7]))
    return out, counts


def reference_deal(orders: Sequence[Sequence[int]], rules: BaccaratRules,
                   tableau: Tableau | None = None) -> tuple[list[CoupRecord], IntArray]:
    """The same shoes through the foundation's `Shoe` (burn, cut card) and `play_coup`, with
    the coup classes tallied by the reference wager code."""
    kernel_tables(rules, tableau)  # the same refusal of rules under which a shoe runs out
    tab = tableau or standard_tableau()
    size = rules.shoe_spec.size
    records: list[CoupRecord] = []
    counts = np.zeros(kernel.COUNT_SHAPE, dtype=np.int64)
    for index, order in enumerate(_orders_array(orders, rules).tolist()):
        shoe = Shoe([Card.from_code(c) for c in order], size - rules.cut_card_from_end, b"")
        shoe.burn(rules.burn_rule)
        left = rules.coups_after_cut_card if shoe.cut_card_reached else None
        while left != 0:
            result = play_coup(shoe.draw, tab)
            records.append((index, tuple(c.code for c in result.player),
                            tuple(c.code for c in result.banker), result.player_total,
                            result.banker_total))
            counts[coup_class(result)] += 1
            if left is not None:
                left -= 1
            elif shoe.cut_card_reached:
                left = rules.coups_after_cut_card
    return records, counts.reshape(-1)


def coup_class(result: CoupResult) -> tuple[int, int, int, int]:
    """The kernel's class of a finished coup, computed with the reference wager code."""
    def nine(cards: tuple[Card, ...], total: int) -> int:
        return 0 if total != 9 else (2 if is_suited_nine(cards, total) else 1)

    return (kernel.WINNERS.index(result.winner.value), nine(result.player, result.player_total),
            nine(result.banker, result.banker_total), int(progressive_award(result)))
