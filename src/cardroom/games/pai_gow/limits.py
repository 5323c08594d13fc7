"""The house rules of a Pai Gow table: the game's own (`PaiGowRules`) plus the table's
wager limits. A pure rules model, so the room's tables and replay read the same one."""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from cardroom.engine import WagerRefused
from cardroom.money import Cents, format_money
from cardroom.profile import Regulated

from .rules import WAGERS, PaiGowRules


class PaiGowTableRules(PaiGowRules):
    """Limits apply to every wager, a dragon hand's too."""

    min_wager_cents: int = Field(default=500, ge=1)
    max_wager_cents: int = Field(default=30_000, ge=1)
    """The default fits the state profile: no wager over $300 (WAC 230-15-140)."""

    @property
    def least_buy_in(self) -> int:
        """The table's least wager (`HouseRules.least_buy_in`)."""
        return self.min_wager_cents

    @model_validator(mode="after")
    def _limits(self) -> Self:
        self.check_limits(("min_wager_cents", "max_wager_cents"))
        self.check_chips("min_wager_cents", "max_wager_cents")
        return self

    house_banked = True

    def regulated(self) -> tuple[Regulated, ...]:
        """The maximum wager, a dragon hand's too, is a house-banked wager (WAC 230-15-140)."""
        return (Regulated("house_banked_wager", "max_wager_cents", self.max_wager_cents),)

    def check_wager(self, amount: Cents, what: str) -> None:
        """The table limits, which the engine (`PaiGowTable`) applies at the table and in
        replay alike, then the game's own check (the table's chips)."""
        if not self.min_wager_cents <= amount <= self.max_wager_cents:
            raise WagerRefused(WAGERS, f"{what} of {format_money(amount)} is outside the table "
                               f"limits, {format_money(self.min_wager_cents)} to "
                               f"{format_money(self.max_wager_cents)}")
        super().check_wager(amount, what)
