"""Mini-Baccarat / Super-9 house rules ("internal controls")."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field, field_validator

from cardroom.games.baccarat.paytables import progressive_schedule
from cardroom.houserules import (
    MAX_SMALLEST_CHIP_CENTS,
    SMALLEST_CHIP_CENTS,
    CommissionRules,
    Departure,
    HouseRules,
    Rate,
)
from cardroom.money import Rounding, format_money, format_rate
from cardroom.profile import Regulated
from cardroom.shoe import BurnMode, BurnRule, ShoeSpec

JACKPOT_DECKS = 8
"""Super-9: "Eight standard 52 card decks of cards are used if using the progressive jackpot"."""
JACKPOT_DECKS_CLAUSE = ('Super-9 rules: "Eight standard 52 card decks of cards are used if using '
                        'the progressive jackpot"')
MAX_DECKS = 16
"""Super-9: "If the progressive jackpot is not used the house may use more or fewer than 8
standard decks"; the rules set no largest shoe, the house rules stop at 16 decks (832 cards)."""


MAX_COUP_CARDS = 6

COMMISSION = Fraction(1, 20)
COMMISSION_CLAUSE = ('the Mini-Baccarat rules ("Winning Banker hand wagers are paid 1 to 1, but '
                     'player pays 5% commission")')
TIE_PAYS = 8
TIE_CLAUSE = 'the Mini-Baccarat rules ("Winning Tie bets are paid 8 to 1")'
JACKPOT_SEED_CENTS = 250_000
"""Super-9, progressive jackpot: "The Progressive is seeded with $2500 by the house"."""
DEFAULT_POOL = "super9"
LINKS_CLAUSE = "WAC 230-15-685(5)"
"""Progressive tables are linked only within one licensed location."""
"""The room's progressive pool when a table's house rules link it to no other."""
MIN_CONTRIBUTION = Fraction(1, 5)
"""Super-9: "For every 1$ dropped the house will add a minimum of .20 cents"."""


class BaccaratRules(CommissionRules, HouseRules):
    decks: int = Field(JACKPOT_DECKS, ge=1, le=MAX_DECKS)
    commission: Rate = COMMISSION
    commission_rounding: Rounding = Rounding.DOWN
    smallest_chip_cents: int = Field(SMALLEST_CHIP_CENTS, ge=1, le=MAX_SMALLEST_CHIP_CENTS)
    tie_pays: int = Field(TIE_PAYS, ge=1, le=50)
    paytable: Literal[1, 2, 3] = 1
    cut_card_from_end: int = Field(14, ge=6, le=200)
    coups_after_cut_card: int = Field(1, ge=0, le=1)
    burn: BurnMode = BurnMode.FIRST_CARD_VALUE
    burn_count: int = Field(0, ge=0, le=20)
    table_min_cents: int = Field(500, ge=100)
    table_max_cents: int = Field(30_000, ge=100)
    """Defaults fit the state profile: no wager over $300 (WAC 230-15-140)."""
    tie_min_cents: int = Field(100, ge=100)
    tie_max_cents: int = Field(10_000, ge=100)
    bonus_min_cents: int = Field(100, ge=100)
    bonus_max_cents: int = Field(10_000, ge=100)
    bonus_without_main: bool = False
    bonus_only_requires_table_min: bool = True
    bonus_over_main: bool = True
    jackpot: bool = True
    jackpot_alone: bool = False
    jackpot_seed_cents: int = Field(JACKPOT_SEED_CENTS, ge=0)
    jackpot_contribution: Rate = MIN_CONTRIBUTION
    jackpot_pool: str | None = Field(
        default=None, exclude_if=lambda p: p is None, pattern=r"^[a-z0-9][a-z0-9-]{0,39}$",
        description="a house rule: the progressive pool this table feeds; tables naming the "
                    "same pool share one jackpot (none: the room's pool, `super9`)")

    @field_validator("jackpot_pool", mode="before")
    @classmethod
    def _one_location(cls, value: object) -> object:
        """A pool of another room ("room:pool", "pool@room", "room/pool") is refused: linked
        tables are only those of one licensed location (WAC 230-15-685(5); issue 25: many
        rooms, one head office, and still one pool per room)."""
        if isinstance(value, str) and any(mark in value for mark in ":@/"):
            raise ValueError(f"the progressive pool {value[:40]!r} names another room: a "
                             f"progressive links tables only within one licensed location "
                             f"({LINKS_CLAUSE})")
        return value

    @property
    def least_buy_in(self) -> int:
        """The table's least wager (`HouseRules.least_buy_in`)."""
        return self.table_min_cents

    def check_settings(self) -> None:
        if not 0 <= self.commission <= COMMISSION:
            raise ValueError(f"commission must be between 0% and 5%: {COMMISSION_CLAUSE}; a "
                             "higher commission is no immaterial modification")
        self.check_commission_policy()
        self.check_limits(("table_min_cents", "table_max_cents"),
                          ("tie_min_cents", "tie_max_cents"),
                          ("bonus_min_cents", "bonus_max_cents"))
        self.check_chips("table_min_cents", "table_max_cents", "tie_min_cents", "tie_max_cents",
                         "bonus_min_cents", "bonus_max_cents")
        wager = progressive_schedule().wager_cents
        if self.jackpot and wager % self.smallest_chip_cents:
            raise ValueError(
                f"the progressive jackpot wager of {format_money(wager)} (Super-9 rules) is not "
                f"a whole number of {format_money(self.smallest_chip_cents)} chips: choose a "
                "smallest chip that makes it, or play without the jackpot")
        if self.jackpot and self.decks != JACKPOT_DECKS:
            raise ValueError(
                f"the progressive jackpot needs an 8-deck shoe, not {self.decks} decks "
                f"({JACKPOT_DECKS_CLAUSE}); without it (jackpot = false) the house may use more "
                "or fewer decks")
        if self.jackpot and self.jackpot_seed_cents < JACKPOT_SEED_CENTS:
            raise ValueError(
                f"jackpot_seed_cents must be at least {format_money(JACKPOT_SEED_CENTS)} "
                '(Super-9 rules, progressive jackpot: "The Progressive is seeded with $2500 by '
                'the house")')
        if not MIN_CONTRIBUTION <= self.jackpot_contribution <= 1:
            raise ValueError(
                "jackpot_contribution must be at least 20 cents per $1 (Super-9 rules, "
                'progressive jackpot: "For every 1$ dropped the house will add a minimum of .20 '
                'cents") and at most $1'
            )
        if (self.jackpot_contribution * 100).denominator != 1:
            raise ValueError("jackpot_contribution must be a whole number of cents per $1")
        needed = MAX_COUP_CARDS - 1 + MAX_COUP_CARDS * self.coups_after_cut_card
        if self.cut_card_from_end < needed:
            raise ValueError(
                f"cut_card_from_end must be at least {needed} so that the coup in progress and "
                f"{self.coups_after_cut_card} more can always be dealt before the shoe runs out")
        if self.burn is BurnMode.FIXED and self.burn_count < 1:
            raise ValueError("a fixed burn needs burn_count of at least 1")
        most_burned = {BurnMode.NONE: 0, BurnMode.FIXED: self.burn_count,
                       BurnMode.FIRST_CARD_VALUE: 11}[self.burn]
        if self.shoe_spec.size - self.cut_card_from_end <= most_burned:
            raise ValueError(f"cut_card_from_end={self.cut_card_from_end}: the cut card must lie "
                             f"after the burn ({most_burned} cards) in a "
                             f"{self.shoe_spec.size}-card shoe")

    def departures(self) -> list[Departure]:
        out = []
        if self.commission != COMMISSION:
            out.append(Departure("commission", format_rate(self.commission), COMMISSION_CLAUSE))
        if self.tie_pays != TIE_PAYS:
            out.append(Departure("tie_pays", f"{self.tie_pays} to 1", TIE_CLAUSE))
        return out

    house_banked = True

    def regulated(self) -> tuple[Regulated, ...]:
        """Every maximum is one house-banked wager's (WAC 230-15-140)."""
        return tuple(Regulated("house_banked_wager", s, getattr(self, s))
                     for s in ("table_max_cents", "tie_max_cents", "bonus_max_cents"))

    @property
    def shoe_spec(self) -> ShoeSpec:
        return ShoeSpec(packs=self.decks)

    @property
    def burn_rule(self) -> BurnRule:
        return BurnRule(self.burn, self.burn_count)

    @property
    def pool_name(self) -> str:
        """The progressive pool this table feeds (linked tables name the same one)."""
        return self.jackpot_pool or DEFAULT_POOL

    @property
    def contribution_cents_per_dollar(self) -> int:
        return int(self.jackpot_contribution * 100)
