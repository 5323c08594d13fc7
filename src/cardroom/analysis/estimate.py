"""A Monte Carlo figure with its 95% confidence interval, beside the exact value; and the one
place the analyses turn a standard error into a 95% interval (`interval`, `mean_half_width`,
`proportion_half_width`, `around`), all with the quantiles below."""

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
        return interval(self.house_edge, self.std_error)[0]

    @property
    def ci_high(self) -> float:
        return interval(self.house_edge, self.std_error)[1]

    @property
    def exact_within_ci(self) -> bool | None:
        if self.exact is None:
            return None
        return self.ci_low <= float(self.exact) <= self.ci_high


def interval(mean: Fraction | float, std_error: float) -> tuple[float, float]:
    """The 95% interval mean ± Z95 standard errors (normal approximation)."""
    return around(float(mean), Z95 * std_error)


def around(centre: float, half: float) -> tuple[float, float]:
    """The interval centre ± half (a 95% half-width from `interval`, `mean_half_width` or
    `proportion_half_width`)."""
    return (centre - half, centre + half)


def mean_half_width(total: float, squares: float, n: int) -> tuple[float, float]:
    """The mean of `n` observed values given by their sum and sum of squares, and the 95%
    half-width of that mean (sample variance, n - 1 in the denominator; 0 for one value, and
    (0, 0) for none)."""
    if n == 0:
        return (0.0, 0.0)
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
    return (mean, Z95 * math.sqrt(var / n))


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
