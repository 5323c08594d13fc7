"""A Monte Carlo figure with its 95% confidence interval, beside the exact value."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval (97.5th percentile): every 95% interval
and band of the analyses is ± Z95 standard errors."""
Z95_ONE_SIDED = 1.6448536269514722
"""The normal quantile of a one-sided 95% bound (95th percentile)."""


@dataclass(frozen=True)
class Estimate:
    """An observed house edge (exact where the simulation's counts allow, else a float), its
    standard error, and the exact value it should agree with."""

    name: str
    house_edge: Fraction | float
    std_error: float
    exact: Fraction | None = None

    @property
    def half_width(self) -> float:
        return Z95 * self.std_error

    @property
    def ci_low(self) -> float:
        return float(self.house_edge) - self.half_width

    @property
    def ci_high(self) -> float:
        return float(self.house_edge) + self.half_width

    @property
    def exact_within_ci(self) -> bool | None:
        if self.exact is None:
            return None
        return self.ci_low <= float(self.exact) <= self.ci_high


def proportion_half_width(k: int, n: int) -> float:
    """The 95% half-width of a rate observed as k in n (normal approximation)."""
    p = k / n
    return Z95 * math.sqrt(p * (1 - p) / n)


def sample_moments(tally: Iterable[tuple[Fraction, int]], n: int) -> tuple[Fraction, Fraction]:
    """Exact mean and sample variance (n - 1 in the denominator, at least 1) of `n` observed
    values given as (value, times seen) pairs."""
    total = square = Fraction(0)
    for value, times in tally:
        total += value * times
        square += value * value * times
    return total / n, (square - total * total / n) / max(n - 1, 1)
