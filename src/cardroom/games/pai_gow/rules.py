"""Pai Gow house rules (internal controls): wheel rank, commission, fouls, dragon hand, and
how irregularities are handled (the rules' Irregularities clause leaves that to the house)."""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from pydantic import Field, field_validator

from cardroom.engine import WagerRefused
from cardroom.houserules import (
    MAX_SMALLEST_CHIP_CENTS,
    SMALLEST_CHIP_CENTS,
    CommissionRules,
    HouseRules,
    Rate,
)
from cardroom.money import Cents, Rounding

WAGERS = "clause 10 (wagers)"


class WheelRank(StrEnum):
    LOWEST = "lowest"
    SECOND_HIGHEST = "second-highest"


class FoulPolicy(StrEnum):
    """What happens to a player's foul setting (rules, Irregularities: the house documents it)."""

    HAND_LOSES = "hand-loses"
    RESET_HOUSE_WAY = "reset-house-way"
    REFUSE = "refuse"


class ExposedCardPolicy(StrEnum):
    """A card the dealer exposes before the reveal (Irregularities: cards exposed)."""

    MISDEAL = "misdeal"  # the deal is void: every hand is collected and the deck reshuffled
    HAND_PLAYS = "hand-plays"  # the card is shown to the whole table and the hand plays


class WrongCountPolicy(StrEnum):
    """A player's hand found with other than seven cards (Irregularities: incorrect number
    of cards). A wrong banker's hand is always a misdeal: every wager plays against it."""

    MISDEAL = "misdeal"  # the deal is void, wagers stand, reshuffle and deal again
    VOID_HAND = "void-hand"  # that hand has no action: its wager is returned
    HAND_LOSES = "hand-loses"  # that hand is dead and loses its wager


class DragonHand(StrEnum):
    NOT_ALLOWED = "not-allowed"
    HOUSE_WAY = "house-way"
    PLAYER_SETS = "player-sets"


class PaiGowRules(CommissionRules, HouseRules):
    wheel: WheelRank = WheelRank.LOWEST
    commission: Rate = Fraction(1, 20)
    commission_rounding: Rounding = Rounding.DOWN
    smallest_chip_cents: int = Field(default=SMALLEST_CHIP_CENTS, ge=1,
                                     le=MAX_SMALLEST_CHIP_CENTS)
    foul_policy: FoulPolicy = FoulPolicy.HAND_LOSES
    dragon_hand: DragonHand = DragonHand.NOT_ALLOWED
    house_way: str = "trump-plaza"
    shuffle_machine: bool = False
    use_dice: bool = True
    exposed_card: ExposedCardPolicy = ExposedCardPolicy.MISDEAL
    wrong_card_count: WrongCountPolicy = WrongCountPolicy.MISDEAL

    @field_validator("commission")
    @classmethod
    def _at_most_five_percent(cls, v: Fraction) -> Fraction:
        if not 0 <= v <= Fraction(1, 20):
            raise ValueError(f"commission {v} must be between 0 and 5% (Pai Gow rules, rule 10 "
                             'note: "A card room may charge up to a 5% commission")')
        return v

    def check_settings(self) -> None:
        self.check_commission_policy()

    def check_wager(self, amount: Cents, what: str) -> None:
        """A wager (`what`: "a wager", "a dragon-hand wager") is placed in the table's chips;
        the game's own rules set no limits, a room table's rules add them
        (`limits.PaiGowTableRules`). The engine asks before it takes any wager."""
        why = self.refuse_off_chip(amount, what)
        if why is not None:
            raise WagerRefused(WAGERS, why)

    @property
    def wheel_second(self) -> bool:
        return self.wheel is WheelRank.SECOND_HIGHEST
