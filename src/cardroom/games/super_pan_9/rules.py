"""Super Pan 9 house rules ("internal controls"): the settings the WSGC rules leave to the room."""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from cardroom.houserules import (
    MAX_SMALLEST_CHIP_CENTS,
    SMALLEST_CHIP_CENTS,
    CommissionRules,
    Departure,
    Rate,
    TurnTimerRules,
)
from cardroom.money import CommissionPolicy, Rounding
from cardroom.profile import Regulated
from cardroom.shoe import ShoeSpec

from .cards import REMOVED_RANKS

MAX_SEATS = 9
"""Rule 1: "Up to nine players can play on one table"."""
MAX_DECKS = 8
"""Rule 1: "played using up to eight decks of cards"."""
MAX_COMMISSION = Fraction(1, 20)
"""Rule 8: "may charge up to a 5% commission on all winning bets"."""
TIE_PAYS = 8
TIE_CLAUSE = 'Super Pan 9 rule 9 (the Tie Bet: "This bet pays 8 to 1")'
CARDS_PER_DECK = 36
"""Rule 1: 7s, 8s, 9s, 10s and jokers removed leaves 36 cards a deck."""
DEALER_DRAWS: tuple[bool, ...] = (True,) * 6 + (False,) * 4
"""Rule 7, by the dealer's three-card total 0-9: i. "Three card totals of 0 through 5 always
draw"; ii. "Three card totals of 6 through 9 always stand". The one place the dealer's rule is
written: the engine, the exact analysis and the kernel read this table."""
MAX_CUT_FROM_END = 40
"""A full table uses at most 9 x 4 + 4 = 40 cards a round; a deeper cut card gains nothing."""


class IrregularityPolicy(StrEnum):
    """What the room's internal controls say to do on a misdeal, exposed card or wrong count."""

    VOID_AND_RETURN = "void-and-return"
    """Void only the affected hand (every hand if the dealer's hand or the whole deal is
    affected) and return its wagers."""
    VOID_ROUND = "void-round"
    """Void every hand of the round and return every wager."""


class SuperPan9Rules(CommissionRules, TurnTimerRules):
    decks: int = Field(default=8, ge=1, le=MAX_DECKS)
    commission: Rate = MAX_COMMISSION
    commission_rounding: Rounding = Rounding.DOWN
    smallest_chip_cents: int = Field(default=SMALLEST_CHIP_CENTS, ge=1,
                                     le=MAX_SMALLEST_CHIP_CENTS)
    commission_on_tie_bet: bool = False
    tie_bet_offered: bool = True
    tie_pays: int = Field(default=TIE_PAYS, ge=1, le=100)
    min_wager_cents: int = Field(default=500, ge=1)
    max_wager_cents: int = Field(default=30_000, ge=1)
    """Defaults fit the state profile: no wager over $300 (WAC 230-15-140)."""
    tie_min_cents: int = Field(default=100, ge=1)
    tie_max_cents: int = Field(default=10_000, ge=1)
    irregularity_policy: IrregularityPolicy = IrregularityPolicy.VOID_AND_RETURN
    cut_card_from_end: int | None = Field(default=None, ge=1, le=280)
    """Cards behind the cut card; None means a quarter of the shoe, at most 40."""

    @property
    def least_buy_in(self) -> int:
        """The table's least wager (`HouseRules.least_buy_in`)."""
        return self.min_wager_cents

    def check_settings(self) -> None:
        if not 0 <= self.commission <= MAX_COMMISSION:
            raise ValueError('commission must be between 0% and 5% (Super Pan 9 rule 8: "Card '
                             'room operators may charge up to a 5% commission on all winning '
                             'bets")')
        self.check_commission_policy()
        self.check_limits(("min_wager_cents", "max_wager_cents"),
                          ("tie_min_cents", "tie_max_cents"))
        self.check_chips("min_wager_cents", "max_wager_cents", "tie_min_cents", "tie_max_cents")
        if self.cut_card_from_end is not None and self.cut_card_from_end >= self.shoe_size:
            raise ValueError(
                f"cut_card_from_end {self.cut_card_from_end} does not fit a "
                f"{self.shoe_size}-card shoe of {self.decks} deck(s)"
            )

    def departures(self) -> list[Departure]:
        if self.tie_bet_offered and self.tie_pays != TIE_PAYS:
            return [Departure("tie_pays", f"{self.tie_pays} to 1", TIE_CLAUSE)]
        return []

    house_banked = True

    def regulated(self) -> tuple[Regulated, ...]:
        """The wager and Tie maxima are house-banked wagers (WAC 230-15-140)."""
        return (Regulated("house_banked_wager", "max_wager_cents", self.max_wager_cents),
                Regulated("house_banked_wager", "tie_max_cents", self.tie_max_cents))

    @property
    def shoe_size(self) -> int:
        return self.decks * CARDS_PER_DECK

    @property
    def cut_from_end(self) -> int:
        if self.cut_card_from_end is not None:
            return self.cut_card_from_end
        return min(MAX_CUT_FROM_END, self.shoe_size // 4)

    @property
    def shoe_spec(self) -> ShoeSpec:
        return ShoeSpec(packs=self.decks, removed_ranks=REMOVED_RANKS)

    @property
    def tie_commission_policy(self) -> CommissionPolicy:
        rate = self.commission if self.commission_on_tie_bet else Fraction(0)
        return CommissionPolicy(rate, self.commission_rounding, self.smallest_chip_cents)
