"""The third-card rules, read from data (`data/baccarat_tableau.toml`) and nothing else."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from cardroom.data import load_table
from cardroom.errors import RulesError

PLAYER_STOOD = 10
"""Column of `banker_matrix` used when the player stood (no third card)."""


@dataclass(frozen=True)
class Tableau:
    naturals: frozenset[int]
    player_draws_on: frozenset[int]
    banker_draws_when_player_stands: frozenset[int]
    banker_draws_when_player_drew: dict[int, frozenset[int]]

    def is_natural(self, total: int) -> bool:
        return total in self.naturals

    def player_draws(self, player_total: int) -> bool:
        return player_total in self.player_draws_on

    def banker_draws(self, banker_total: int, player_third: int | None) -> bool:
        """Whether the banker draws, given the player's third-card value (None if he stood)."""
        if player_third is None:
            return banker_total in self.banker_draws_when_player_stands
        return player_third in self.banker_draws_when_player_drew.get(banker_total, frozenset())

    def player_matrix(self) -> npt.NDArray[np.bool_]:
        return np.array([self.player_draws(t) for t in range(10)], dtype=np.bool_)

    def banker_matrix(self) -> npt.NDArray[np.bool_]:
        """[banker total, player third value or PLAYER_STOOD] -> draws, for kernels."""
        m = np.zeros((10, 11), dtype=np.bool_)
        for b in range(10):
            for p3 in range(10):
                m[b, p3] = self.banker_draws(b, p3)
            m[b, PLAYER_STOOD] = self.banker_draws(b, None)
        return m


def _totals(raw: Any, what: str) -> frozenset[int]:
    if not isinstance(raw, list) or not all(isinstance(x, int) and 0 <= x <= 9 for x in raw):
        raise RulesError(f"tableau: {what} must be a list of totals 0-9")
    return frozenset(raw)


def tableau_from_dict(data: dict[str, Any]) -> Tableau:
    drew = data.get("banker_draws_when_player_drew")
    if not isinstance(drew, dict):
        raise RulesError("tableau: banker_draws_when_player_drew is missing")
    rows = {int(k): _totals(v, f"banker row {k}") for k, v in drew.items()}
    return Tableau(
        naturals=_totals(data.get("naturals"), "naturals"),
        player_draws_on=_totals(data.get("player_draws_on"), "player_draws_on"),
        banker_draws_when_player_stands=_totals(
            data.get("banker_draws_when_player_stands"), "banker_draws_when_player_stands"
        ),
        banker_draws_when_player_drew=rows,
    )


@cache
def standard_tableau() -> Tableau:
    return tableau_from_dict(load_table("baccarat_tableau.toml"))
