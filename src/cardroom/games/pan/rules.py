"""Pan house-rule settings: every **option** of the reference digest, with its default."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from cardroom.games.pan.fees import PanFee
from cardroom.houserules import Departure, TurnTimerRules
from cardroom.profile import Regulated

MIN_SEATS = 2
MAX_SEATS = 15
HAND_SIZE = 10
BUY_IN_CHIPS = 20
BUY_IN_CLAUSE = ('the Pan house rules ("The buy-in for each game is 20chips of equal '
                 'denominations")')


class PanRules(TurnTimerRules):
    """Defaults are Washington single condition as the reference digest states them."""

    packs: int = Field(default=8, ge=5, le=11,
                       description="40-card packs in the pack (option `packs`)")
    remove_one_spade_pack: bool = Field(
        default=False, description="take one pack's ten spades out: 310 cards with 8 packs")
    strict_set_additions: bool = Field(
        default=False, description="set additions keep the same-suit or different-suits pattern")
    spades_double: bool = Field(
        default=False, description="spade conditions pay double (off: Washington bans doubling)")
    pass_forfeit_chips: int = Field(default=0, ge=0, le=2,
                                    description="chips a passer pays to the tops")
    outs_chips: int = Field(default=2, ge=0,
                            description="chips each player still in pays the out")
    repay_conditions_on_out: bool = Field(
        default=False, description="conditions on the winner's board are paid again on going out")
    reshuffle: Literal["packet", "full"] = Field(
        default="full", description="between hands: the whole pack (the room's default, "
        "docs/pan.md Decisions), or the used cards with a packet from the stock's bottom")
    chip_cents: int = Field(default=100, ge=1,
                            description="value of one chip in cents")
    buy_in_chips: int = Field(default=BUY_IN_CHIPS, ge=1,
                              description="the buy-in: 20 chips of equal value")
    allow_double_condition: bool = Field(
        default=False, description="doubles players allowed (the room plays straight condition)")
    fee: PanFee | None = Field(default=None, exclude_if=lambda f: f is None,
                               description="the table's one fee (WAC 230-15-080); none by "
                               "default, left out of a dump when there is none")

    def regulated(self) -> tuple[Regulated, ...]:
        """WAC 230-15-135(4): the chip's value, the ante (one chip to the tops, a second to
        the double tops for a double condition player), the outs, and doubling (double
        condition, doubled spade conditions)."""
        return (Regulated("pan_chip_value", "chip_cents", self.chip_cents),
                Regulated("pan_going_out", "outs_chips", self.outs_chips),
                Regulated("pan_doubling", "allow_double_condition",
                          int(self.allow_double_condition)),
                Regulated("pan_doubling", "spades_double", int(self.spades_double)),
                Regulated("pan_ante", "the ante of a double condition player "
                          "(allow_double_condition)" if self.allow_double_condition
                          else "the ante", 2 if self.allow_double_condition else 1))

    @property
    def smallest_chip(self) -> int:
        """Pan's chips are of one value (the buy-in is "20chips of equal denominations")."""
        return self.chip_cents

    @property
    def least_buy_in(self) -> int:
        """"The buy-in for each game is 20chips" (the house rules' buy-in, in chips)."""
        return self.buy_in_chips * self.chip_cents

    def departures(self) -> list[Departure]:
        if self.buy_in_chips != BUY_IN_CHIPS:
            return [Departure("buy_in_chips", f"{self.buy_in_chips} chips", BUY_IN_CLAUSE)]
        return []
