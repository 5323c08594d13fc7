"""Settlement of one hand in integer cents (rules 4, 8, 9): pure functions, no state."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardroom.money import Cents, require_cents

from .rules import SuperPan9Rules


class Outcome(StrEnum):
    WIN = "win"
    PUSH = "push"
    LOSS = "loss"
    VOID = "void"


def compare(player_total: int, dealer_total: int) -> Outcome:
    """Rule 4: closer to 9 wins; equal totals are a Tie (a push for the main wager, rule 9)."""
    if player_total > dealer_total:
        return Outcome.WIN
    if player_total < dealer_total:
        return Outcome.LOSS
    return Outcome.PUSH


@dataclass(frozen=True, slots=True)
class Settlement:
    """What one seat's wagers did. `net` is what the player gains (negative: loses)."""

    outcome: Outcome
    wager: Cents
    commission: Cents
    main_net: Cents
    tie_wager: Cents
    tie_commission: Cents
    tie_net: Cents

    @property
    def net(self) -> Cents:
        return self.main_net + self.tie_net

    @property
    def returned(self) -> Cents:
        """Cents handed back to the player: stakes of winning/pushed/void bets plus winnings."""
        return self.wager + self.main_net + self.tie_wager + self.tie_net


def settle(player_total: int, dealer_total: int, wager: Cents, tie_wager: Cents,
           rules: SuperPan9Rules) -> Settlement:
    """Rule 8: winners are paid even money less commission; rule 9: the Tie Bet pays
    `tie_pays` to 1 on equal totals and the main wager pushes."""
    require_cents(wager, "wager")
    require_cents(tie_wager, "tie wager")
    outcome = compare(player_total, dealer_total)
    commission = 0
    if outcome is Outcome.WIN:
        commission = rules.commission_policy.charge(wager)
        main_net = wager - commission
    elif outcome is Outcome.LOSS:
        main_net = -wager
    else:
        main_net = 0
    tie_commission = 0
    if tie_wager and outcome is Outcome.PUSH:
        winnings = tie_wager * rules.tie_pays
        tie_commission = rules.tie_commission_policy.charge(winnings)
        tie_net = winnings - tie_commission
    else:
        tie_net = -tie_wager
    return Settlement(outcome, wager, commission, main_net, tie_wager, tie_commission, tie_net)


def void_settlement(wager: Cents, tie_wager: Cents) -> Settlement:
    """A voided hand: every wager goes back, nothing won or lost."""
    return Settlement(Outcome.VOID, wager, 0, 0, tie_wager, 0, 0)
