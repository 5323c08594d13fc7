"""A wager's exact distribution, and the figures that follow from it.

Every way the wager can end is an `Outcome`: its net result per unit staked and how many of the
wager's `total` equally likely cases end so (an exact analysis counts card sequences; integer
counts keep every figure an exact Fraction). House edge = -E[net] unless the analysis charges
more (the progressive's contribution); element of risk = house edge / P(the wager is decided),
pushes excluded; standard deviation per unit. Volatility uses the normal approximation to the
house's total over n independent hands (n x edge +/- Z95 sd sqrt(n), in units); the house is
ahead with 95% confidence once n x edge >= Z95_ONE_SIDED sd sqrt(n), a one-sided bound:
n >= (Z95_ONE_SIDED sd / edge)^2 (the quantiles in `estimate`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Self

from cardroom.analysis.estimate import Z95, Z95_ONE_SIDED, around

HORIZONS = (1_000, 10_000, 100_000)


@dataclass(frozen=True)
class Outcome:
    """One way a wager can end, and in how many of the wager's equally likely cases."""

    label: str
    net: Fraction
    """Net result per unit staked (the stake not included): -1 a loss, 0 a push."""
    count: int


@dataclass(frozen=True)
class Wager:
    name: str
    outcomes: tuple[Outcome, ...]
    total: int
    house_edge: Fraction

    @classmethod
    def exact(cls, name: str, outcomes: Iterable[Outcome], total: int,
              house_edge: Fraction | None = None) -> Self:
        """The wager whose outcomes count all `total` cases; the edge is -E[net] unless given
        (the progressive's also charges the contribution to the meter)."""
        kept = tuple(outcomes)
        counted = sum(o.count for o in kept)
        if counted != total:
            raise ValueError(f"{name}: the outcomes count {counted} cases, not {total}")
        return cls(name, kept, total, -_mean(kept, total) if house_edge is None else house_edge)

    @classmethod
    def from_probabilities(cls, name: str, outcomes: Sequence[tuple[str, Fraction, Fraction]]
                           ) -> Self:
        """The wager from (label, net, probability) triples, counted over the least common
        denominator of the probabilities."""
        total = math.lcm(*(p.denominator for _, _, p in outcomes))
        return cls.exact(name, [Outcome(label, net, int(p * total)) for label, net, p in outcomes],
                         total)

    def chance(self, outcome: Outcome) -> Fraction:
        return Fraction(outcome.count, self.total)

    def probability(self, label: str) -> Fraction:
        return sum((self.chance(o) for o in self.outcomes if o.label == label), Fraction(0))

    @property
    def push(self) -> Fraction:
        return sum((self.chance(o) for o in self.outcomes if o.net == 0), Fraction(0))

    @property
    def element_of_risk(self) -> Fraction | None:
        """The edge per decided wager; None where no push exists (it equals the edge)."""
        if self.push == 0:
            return None
        return self.house_edge / (1 - self.push)

    @property
    def variance(self) -> Fraction:
        mean = _mean(self.outcomes, self.total)
        square = sum((o.net * o.net * o.count for o in self.outcomes), Fraction(0)) / self.total
        return square - mean * mean

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    def band(self, hands: int) -> tuple[float, float]:
        """The 95% band of the house's total result, in units, after `hands` one-unit wagers."""
        centre = hands * float(self.house_edge)
        return around(centre, Z95 * self.std_dev * math.sqrt(hands))

    @property
    def hands_to_be_ahead(self) -> int | None:
        """Hands after which the house is ahead with 95% confidence; None if it never is."""
        if self.house_edge <= 0:
            return None
        return math.ceil((Z95_ONE_SIDED * self.std_dev / float(self.house_edge)) ** 2)


@dataclass(frozen=True, slots=True)
class Tally:
    """Cases (or hands) in which an even-money wager won, pushed and lost."""

    win: int
    push: int
    loss: int

    @property
    def total(self) -> int:
        return self.win + self.push + self.loss

    def ev(self, denom: int, commission: Fraction) -> Fraction:
        """Expected return per unit wagered over `denom` cases: winners paid even money less
        `commission`."""
        return Fraction(self.win * (1 - commission) - self.loss) / denom


def frac(x: Fraction) -> str:
    """An exact figure as the JSON reports write it, "n/d" (a float would lose digits)."""
    return f"{x.numerator}/{x.denominator}"


def _mean(outcomes: Iterable[Outcome], total: int) -> Fraction:
    """E[net] per unit staked."""
    return sum((o.net * o.count for o in outcomes), Fraction(0)) / total
