"""Card-counting exposure of the Super-9 side bets: effects of removal, the best linear count,
and a counter over real shoes, cross-checked against the exact depleted-shoe edge.

Effects of removal (EOR) follow Griffin's convention: the change in the PLAYER's expectation per
unit when that one card is taken from the full shoe (exact Fractions, by the depleted-shoe
enumeration). The progressive is valued for a lone bettor with the top award at the seed
(`jackpot_seed_cents`; raise it with --jackpot-seed to model a grown meter).

The linear model: with N cards in the full shoe and R not yet seen, the player's advantage is
about A0 + (N-1)/R x sum of EOR over the seen cards. A counter keeps integer tags t proportional
to the EORs (EOR ~ u t) and bets when A0 + u (N-1) (RC - seen x mean tag) / R > 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from cardroom.analysis import baccarat_count_kernel as kernel
from cardroom.analysis.baccarat import analyze
from cardroom.analysis.baccarat_depleted import (
    Composition,
    DepletedShoe,
    card_classes,
    full_composition,
)
from cardroom.analysis.baccarat_sim import KernelTables, kernel_tables
from cardroom.analysis.estimate import interval, sample_moments
from cardroom.analysis.parallel import Chunk, check_count, run_seeded, seed_or_draw
from cardroom.cards import Card
from cardroom.games.baccarat.coup import card_value
from cardroom.games.baccarat.paytables import nine_pay_table
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.wagers import ProgressiveAward, fixed_award_for_one
from cardroom.shoe import BurnMode

SIDE_BETS = ("player_9", "banker_9", "progressive")
LABELS = {"player_9": "Player-9", "banker_9": "Banker-9", "progressive": "the progressive"}
WAGERS = ("player", "banker", "tie", *SIDE_BETS)
MAX_TAG = 6
"""Tags are whole numbers from -MAX_TAG to MAX_TAG."""
HALF_DECK = 26

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def player_advantages(rules: BaccaratRules, shoe: DepletedShoe,
                      comp: Composition) -> dict[str, Fraction]:
    """The player's exact expectation per unit on every wager for this shoe (the progressive
    for a lone bettor, the top award at the seed, no contribution deducted: it is the meter's)."""
    report = analyze(rules, counts=shoe.counts(comp, rules.decks))
    out = {w.name: -w.house_edge for w in report.wagers}
    out["progressive"] -= rules.jackpot_contribution
    return out


@dataclass(frozen=True)
class RemovalEffects:
    base: dict[str, Fraction]
    """The player's expectation off the top, per wager."""
    by_card: dict[Card, dict[str, Fraction]]
    """Per card (rank and suit), per wager: the change in the player's expectation when that
    one card is removed."""

    def by_value(self, wager: str) -> list[Fraction]:
        """The mean EOR of the cards of each value class 0-9 (equal within a class off the top:
        the suits are alike and tens to kings all count 0)."""
        sums = [Fraction(0)] * 10
        counts = [0] * 10
        for card, effects in self.by_card.items():
            v = card_value(card)
            sums[v] += effects[wager]
            counts[v] += 1
        return [s / n for s, n in zip(sums, counts, strict=True)]


def removal_effects(rules: BaccaratRules, shoe: DepletedShoe | None = None) -> RemovalEffects:
    """Exact EOR of all 52 cards of the pack on every wager."""
    engine = shoe or DepletedShoe()
    full = full_composition(rules.decks)
    base = player_advantages(rules, engine, full)
    by_card: dict[Card, dict[str, Fraction]] = {}
    for card in card_classes():
        comp = full.copy()
        assert card.suit is not None
        comp[card_value(card), int(card.suit)] -= 1
        after = player_advantages(rules, engine, comp)
        by_card[card] = {w: after[w] - base[w] for w in WAGERS}
    return RemovalEffects(base, by_card)


@dataclass(frozen=True)
class LinearCount:
    """Integer tags per value class (0 for tens and pictures, then ace to nine)."""

    wager: str
    tags: tuple[int, ...]
    unit: float
    """EOR ~ unit x tag (least squares over the 52 cards of a pack)."""
    betting_correlation: float
    """Correlation of the tags with the exact EORs over the cards of a pack."""
    eor: tuple[Fraction, ...]

    @property
    def mean_tag(self) -> float:
        """Per card of the full shoe (value 0 is 16 cards of a pack, the others 4)."""
        return sum(t * _weight(v) for v, t in enumerate(self.tags)) / 52


def _weight(value: int) -> int:
    return 16 if value == 0 else 4


def _weighted_fit(tags: Sequence[int], eor: Sequence[float]) -> tuple[float, float]:
    """(correlation, slope) of the EORs on the tags, each card of a pack weighted once."""
    w = np.array([_weight(v) for v in range(10)], dtype=np.float64)
    t = np.asarray(tags, dtype=np.float64)
    e = np.asarray(eor, dtype=np.float64)
    tc = t - np.average(t, weights=w)
    ec = e - np.average(e, weights=w)
    stt = float(np.sum(w * tc * tc))
    see = float(np.sum(w * ec * ec))
    ste = float(np.sum(w * tc * ec))
    if stt == 0 or see == 0:
        return 0.0, 0.0
    return ste / math.sqrt(stt * see), ste / stt


def best_count(effects: RemovalEffects, wager: str) -> LinearCount:
    """The linear count for a wager: tags are the EORs scaled to whole numbers of at most
    MAX_TAG, the scale that correlates best (the smallest on a tie)."""
    eor = effects.by_value(wager)
    floats = [float(x) for x in eor]
    top = max(abs(x) for x in floats) or 1.0
    best: tuple[float, tuple[int, ...], float] | None = None
    for level in range(1, MAX_TAG + 1):
        tags = tuple(round(x / top * level) for x in floats)
        corr, unit = _weighted_fit(tags, floats)
        if best is None or corr > best[0] + 1e-12:
            best = (corr, tags, unit)
    assert best is not None
    corr, tags, unit = best
    return LinearCount(wager, tags, unit, corr, tuple(eor))


# --- the counter over real shoes --------------------------------------------------------------

@dataclass(frozen=True)
class CounterTables:
    """The simulation kernel's tables (shoe, cut card, burn, values, tableau) and the count."""

    deal: KernelTables
    expose_first: bool
    tags: FloatArray
    """[side bet, card code] tag of each card."""
    tag_mean: FloatArray
    slope: FloatArray
    base_adv: FloatArray


def counter_tables(rules: BaccaratRules, counts: Sequence[LinearCount],
                   base: dict[str, Fraction]) -> CounterTables:
    t = kernel_tables(rules)
    n = len(t.base_shoe)
    tags = np.array([[c.tags[t.value[code]] for code in range(52)] for c in counts],
                    dtype=np.float64)
    return CounterTables(
        t, rules.burn is BurnMode.FIRST_CARD_VALUE, tags,
        np.array([c.mean_tag for c in counts]), np.array([c.unit * (n - 1) for c in counts]),
        np.array([float(base[c.wager]) for c in counts]))


ChunkResult = tuple[IntArray, IntArray, IntArray, int, int]


def count_chunk(tables: CounterTables, chunk: Chunk) -> ChunkResult:
    t, d = tables, tables.deal
    bets, coups, house, house_coups, shoes = kernel.count_shoes(
        d.base_shoe, chunk.size, chunk.generator_state(), d.cut_index, d.after_cut,
        t.expose_first, d.burn_after, d.value, d.natural, d.player_draws, d.banker_draws,
        t.tags, t.tag_mean, t.slope, t.base_adv)
    return bets, coups, house, int(house_coups), int(shoes)


def class_nets(rules: BaccaratRules) -> dict[str, tuple[Fraction, ...]]:
    """The net result per unit of each outcome class of each side bet (kernel order)."""
    pay = nine_pay_table(rules.paytable)
    seed_units = Fraction(rules.jackpot_seed_cents, 100)
    progressive = tuple(
        (seed_units if a is ProgressiveAward.JACKPOT else Fraction(fixed_award_for_one(a))) - 1
        for a in ProgressiveAward)
    return {
        "player_9": (Fraction(-1), Fraction(pay.player_unsuited), Fraction(pay.player_suited),
                     Fraction(0), Fraction(0)),
        "banker_9": (Fraction(-1), Fraction(pay.banker_unsuited), Fraction(pay.banker_suited),
                     Fraction(0), Fraction(0)),
        "progressive": progressive,
    }


@dataclass(frozen=True)
class CounterResult:
    """The counter's results on one side bet, over the coups the house deals."""

    wager: str
    bets: int
    coups: int
    edge: Fraction | None
    """The counter's mean net per unit bet (None if he never bet)."""
    std_error: float
    penetration: float
    ahead_from: float | None
    """The shallowest cut (in half-decks, as a share of the shoe) at which the counter's edge
    on the coups before it is above zero with 95% confidence in this run; None if at none."""
    behind_until: float | None
    """The deepest cut shallower than `ahead_from` at which that edge is below zero with 95%
    confidence; None if none is. The cut where the edge turns positive lies after it and at
    or before `ahead_from`: a bracket that a longer run narrows, where either end alone moves
    with the run's size."""
    by_depth: tuple[tuple[float, int, Fraction | None, int], ...]
    """(penetration, bets, edge, coups dealt) of a counter whose shoe is cut at each
    half-deck (the coups whose first card lies before the cut)."""

    @property
    def ci(self) -> tuple[float, float]:
        if self.edge is None:
            return (math.nan, math.nan)
        return interval(self.edge, self.std_error)

    @property
    def fraction_bet(self) -> float:
        return self.bets / self.coups if self.coups else 0.0

    @property
    def units_per_100_coups(self) -> float:
        return 0.0 if self.edge is None else float(self.edge) * self.fraction_bet * 100

    @property
    def beatable(self) -> bool | None:
        """True: the counter wins with 95% confidence; False: he loses with 95% confidence or
        never gets to bet; None: not settled by this many coups."""
        if self.edge is None:
            return False
        low, high = self.ci
        return True if low > 0 else (False if high < 0 else None)

    def answer(self) -> str:
        """The operator's question in one line."""
        label = LABELS[self.wager]
        at = f"at {self.penetration:.1%} penetration"
        if self.edge is None:
            return (f"{label}: no, not by counting {at}: the count never favoured the player "
                    f"in {self.coups:,} coups.")
        low, high = self.ci
        how = (f"counter's edge {float(self.edge):+.3%} (95% CI {low:+.3%} to {high:+.3%}) on "
               f"{self.fraction_bet:.3%} of coups, {self.units_per_100_coups:+.4f} units per "
               "100 coups dealt")
        verdict = {True: "yes", False: "no", None: "not shown either way"}[self.beatable]
        return f"{label}: {verdict}, {at}: {how}{self._turning_cut()}."

    def _turning_cut(self) -> str:
        """Where the edge turns positive as the cut goes deeper, with its uncertainty."""
        if self.ahead_from is None:
            return ""
        where = ("; the cut from which his edge on the coups before it is positive lies "
                 "between ")
        if self.behind_until is None:
            return (f"{where}the top of the shoe and {self.ahead_from:.1%} (95% at each "
                    "half-deck; no shallower cut shows him behind)")
        return (f"{where}{self.behind_until:.1%} and {self.ahead_from:.1%} (95% at each "
                "half-deck; a longer run narrows it)")


def _edge(tally: IntArray, nets: tuple[Fraction, ...]) -> tuple[int, Fraction | None, float]:
    n = int(tally.sum())
    if n == 0:
        return 0, None, math.nan
    mean, var = sample_moments(((nets[c], int(tally[c])) for c in range(len(nets))), n)
    return n, mean, math.sqrt(var / n)


def counter_results(rules: BaccaratRules, merged: ChunkResult) -> list[CounterResult]:
    bets, coups, house, house_coups, _ = merged
    size = rules.shoe_spec.size
    cut = size - rules.cut_card_from_end
    nets = class_nets(rules)
    out = []
    for k, name in enumerate(SIDE_BETS):
        n, edge, se = _edge(house[k], nets[name])
        depth = []
        ahead = behind = None
        for end in range(HALF_DECK, size + 1, HALF_DECK):
            m, e, s = _edge(bets[k, :end].sum(axis=0), nets[name])
            depth.append((end / size, m, e, int(coups[:end].sum())))
            if ahead is None and e is not None:
                low, high = interval(e, s)
                if low > 0:
                    ahead = end / size
                elif high < 0:
                    behind = end / size
        out.append(CounterResult(name, n, house_coups, edge, se, cut / size, ahead,
                                 behind if ahead is not None else None, tuple(depth)))
    return out


@dataclass(frozen=True)
class CrossCheck:
    """Sampled shoe states: the counter's linear estimate against the exact edge."""

    wager: str
    states: int
    correlation: float
    mean_abs_error: float
    decisions_agree: float
    """Share of states where 'count says bet' equals 'the exact edge favours the player'."""
    exact_mean_when_bet: float | None


def cross_check(rules: BaccaratRules, counts: Sequence[LinearCount], base: dict[str, Fraction],
                states: int, seed: int, shoe: DepletedShoe | None = None) -> list[CrossCheck]:
    """Shuffle `states` shoes (seeded), cut each at a random depth before the cut card, and
    compare the count's estimate with the exact advantage of the unseen cards."""
    engine = shoe or DepletedShoe()
    tables = counter_tables(rules, counts, base)
    rng = np.random.default_rng(seed)
    size = len(tables.deal.base_shoe)
    estimates = np.zeros((len(counts), states))
    exact = np.zeros((len(counts), states))
    for i in range(states):
        order = rng.permutation(tables.deal.base_shoe)
        seen = int(rng.integers(6, tables.deal.cut_index))
        comp = full_composition(rules.decks)
        for code in order[:seen]:
            comp[tables.deal.value[code], code & 3] -= 1
        adv = player_advantages(rules, engine, comp)
        for k, c in enumerate(counts):
            running = float(tables.tags[k, order[:seen]].sum())
            estimates[k, i] = (tables.base_adv[k] + tables.slope[k]
                               * (running - seen * tables.tag_mean[k]) / (size - seen))
            exact[k, i] = float(adv[c.wager])
    out = []
    for k, c in enumerate(counts):
        est, ex = estimates[k], exact[k]
        corr = float(np.corrcoef(est, ex)[0, 1]) if est.std() > 0 and ex.std() > 0 else 0.0
        bet = est > 0
        out.append(CrossCheck(c.wager, states, corr, float(np.abs(est - ex).mean()),
                              float(np.mean(bet == (ex > 0))),
                              float(ex[bet].mean()) if bet.any() else None))
    return out


@dataclass(frozen=True)
class CountingReport:
    rules: BaccaratRules
    effects: RemovalEffects
    counts: tuple[LinearCount, ...]
    counters: tuple[CounterResult, ...]
    checks: tuple[CrossCheck, ...]
    coups: int
    shoes: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "baccarat", "decks": self.rules.decks, "paytable": self.rules.paytable,
            "jackpot_seed_cents": self.rules.jackpot_seed_cents,
            "coups": self.coups, "shoes": self.shoes, "seed": self.seed,
            "off_the_top": {w: float(a) for w, a in self.effects.base.items()},
            "effects_of_removal": {
                str(card): {w: float(e) for w, e in eff.items()}
                for card, eff in self.effects.by_card.items()},
            "counts": [{
                "wager": c.wager, "tags_by_value": list(c.tags), "unit": c.unit,
                "betting_correlation": c.betting_correlation,
                "eor_by_value": [float(x) for x in c.eor]} for c in self.counts],
            "counters": [{
                "wager": r.wager, "edge": None if r.edge is None else float(r.edge),
                "ci95": list(r.ci) if r.edge is not None else None,
                "bets": r.bets, "coups": r.coups, "fraction_bet": r.fraction_bet,
                "units_per_100_coups": r.units_per_100_coups, "penetration": r.penetration,
                "beatable": r.beatable, "ahead_from_cut": r.ahead_from,
                "behind_until_cut": r.behind_until,
                "answer": r.answer(),
                "by_depth": [{"penetration": p, "bets": b, "coups": n,
                              "edge": None if e is None else float(e)}
                             for p, b, e, n in r.by_depth]} for r in self.counters],
            "cross_check": [{
                "wager": c.wager, "states": c.states, "correlation": c.correlation,
                "mean_abs_error": c.mean_abs_error, "decisions_agree": c.decisions_agree,
                "exact_mean_when_bet": c.exact_mean_when_bet} for c in self.checks],
        }


def counting_report(rules: BaccaratRules, coups: int, seed: int | None = None, *,
                    states: int = 200, workers: int = 1, scheduler: str | None = None,
                    progress: bool = False) -> CountingReport:
    """EORs, the best count per side bet, `coups` coups of a counter over real shoes (chunked,
    local cores or a Dask cluster) and `states` sampled shoe states checked exactly."""
    check_count(coups, "coups", 2)
    check_count(states, "states", 2)
    seed = seed_or_draw(seed)  # a bad seed is refused before any work
    shoe = DepletedShoe()
    effects = removal_effects(rules, shoe)
    counts = tuple(best_count(effects, w) for w in SIDE_BETS)
    tables = counter_tables(rules, counts, effects.base)
    merged, seed = run_seeded(partial(count_chunk, tables), coups, seed, workers=workers,
                              scheduler=scheduler, progress=progress,
                              description="counting coups")
    checks = cross_check(rules, counts, effects.base, states, seed, shoe)
    return CountingReport(rules, effects, counts, tuple(counter_results(rules, merged)),
                          tuple(checks), int(merged[1].sum()), merged[4], seed)
