"""The one place a standard error becomes a 95% interval (`cardroom.analysis.estimate`), checked
against the normal quantiles and against textbook figures."""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import pytest

from cardroom.analysis.estimate import (
    Z95,
    Z95_ONE_SIDED,
    Estimate,
    around,
    interval,
    mean_half_width,
    proportion_half_width,
)


def test_the_quantiles_are_the_normal_distributions() -> None:
    """Z95 is the 97.5th percentile of the standard normal, the textbook table's 1.96; the
    one-sided Z95 its 95th, the table's 1.645 (to the last place statistics computes)."""
    assert pytest.approx(NormalDist().inv_cdf(0.975), abs=1e-15) == Z95
    assert pytest.approx(NormalDist().inv_cdf(0.95), abs=1e-15) == Z95_ONE_SIDED
    assert round(Z95, 2) == 1.96 and round(Z95_ONE_SIDED, 3) == 1.645


def test_a_poll_of_a_thousand_at_fifty_percent_has_a_margin_of_3_1_points() -> None:
    """The textbook's margin of error: p = 0.5, n = 1,000 gives ± 3.1 points (and n = 100,
    ± 9.8)."""
    assert round(proportion_half_width(500, 1000), 3) == 0.031
    assert round(proportion_half_width(50, 100), 3) == 0.098


def test_mean_half_width_of_a_small_sample() -> None:
    """Values 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7, so the half-width is
    1.96 x sqrt(32/7/8) = 1.4816 (worked by hand)."""
    values = [2, 4, 4, 4, 5, 5, 7, 9]
    mean, half = mean_half_width(sum(values), sum(v * v for v in values), len(values))
    assert mean == 5
    assert half == pytest.approx(Z95 * math.sqrt(32 / 7 / 8))
    assert round(half, 4) == 1.4816
    assert mean_half_width(3, 9, 1) == (3.0, 0.0)
    assert mean_half_width(0, 0, 0) == (0.0, 0.0)


def test_interval_is_the_estimates_interval() -> None:
    est = Estimate("bet", Fraction(1, 100), 0.002, Fraction(1, 100))
    assert interval(est.house_edge, est.std_error) == (est.ci_low, est.ci_high)
    assert est.ci_high - est.ci_low == pytest.approx(2 * 1.959964 * 0.002)
    assert est.exact_within_ci


def test_around_is_the_interval_of_a_half_width() -> None:
    """The poll above: 50% ± 3.1 points is 46.9% to 53.1%; an estimate's interval is its
    value around Z95 standard errors."""
    low, high = around(0.5, proportion_half_width(500, 1000))
    assert (round(low, 3), round(high, 3)) == (0.469, 0.531)
    assert around(0.25, 0.0) == (0.25, 0.25)
    assert interval(Fraction(1, 100), 0.002) == around(0.01, Z95 * 0.002)
