"""The house rules of a Pai Gow table in the room: the game's own (`PaiGowRules`) plus the
table's limits, which the game's rules leave to the room."""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from cardroom.games.pai_gow.rules import PaiGowRules


class PaiGowTableRules(PaiGowRules):
    """Limits apply to every wager, a dragon hand's too."""

    min_wager_cents: int = Field(default=500, ge=1)
    max_wager_cents: int = Field(default=100_000, ge=1)

    @model_validator(mode="after")
    def _limits(self) -> Self:
        if self.min_wager_cents > self.max_wager_cents:
            raise ValueError("min_wager_cents is above max_wager_cents")
        return self
