"""A wager's dossier figures from its exact distribution of net results per unit staked.

House edge = -E[net]; element of risk = house edge / P(the wager is decided), pushes excluded;
standard deviation per unit. Volatility uses the normal approximation to the house's total over
n independent hands (n x edge +/- 1.96 sd sqrt(n), in units); the house is ahead with 95%
confidence once n x edge >= 1.645 sd sqrt(n), a one-sided bound: n >= (1.645 sd / edge)^2.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

Z95_TWO_SIDED = 1.959963984540054
Z95_ONE_SIDED = 1.6448536269514722
HORIZONS = (1_000, 10_000, 100_000)


@dataclass(frozen=True)
class Award:
    label: str
    net: Fraction
    """Net result per unit staked (the stake not included): -1 a loss, 0 a push."""
    probability: Fraction


@dataclass(frozen=True)
class WagerFigures:
    name: str
    awards: tuple[Award, ...]
    house_edge: Fraction

    @property
    def push(self) -> Fraction:
        return sum((a.probability for a in self.awards if a.net == 0), Fraction(0))

    @property
    def element_of_risk(self) -> Fraction | None:
        """The edge per decided wager; None where no push exists (it equals the edge)."""
        if self.push == 0:
            return None
        return self.house_edge / (1 - self.push)

    @property
    def variance(self) -> Fraction:
        mean = sum((a.net * a.probability for a in self.awards), Fraction(0))
        return sum((a.net * a.net * a.probability for a in self.awards), Fraction(0)) - mean**2

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    def band(self, hands: int) -> tuple[float, float]:
        """The 95% band of the house's total result, in units, after `hands` one-unit wagers."""
        centre = hands * float(self.house_edge)
        half = Z95_TWO_SIDED * self.std_dev * math.sqrt(hands)
        return centre - half, centre + half

    @property
    def hands_to_be_ahead(self) -> int | None:
        """Hands after which the house is ahead with 95% confidence; None if it never is."""
        if self.house_edge <= 0:
            return None
        return math.ceil((Z95_ONE_SIDED * self.std_dev / float(self.house_edge)) ** 2)


def figures(name: str, awards: Sequence[Award], house_edge: Fraction | None = None
            ) -> WagerFigures:
    """The figures of a wager; the edge is -E[net] unless given (the progressive's edge also
    charges the contribution to the meter)."""
    total = sum((a.probability for a in awards), Fraction(0))
    if total != 1:
        raise ValueError(f"{name}: the award probabilities sum to {total}, not 1")
    edge = -sum((a.net * a.probability for a in awards), Fraction(0))
    return WagerFigures(name, tuple(awards), edge if house_edge is None else house_edge)
