"""The Super-9 progressive jackpot pool: seed, meter, daily posting, shared top awards.

Rules (Super-9 "PROGRESSIVE JACKPOT"): seeded with $2,500 by the house and the seed is not
recovered; at least 20 cents of every $1 wagered goes to the meter; the amount is posted on
the table and updated daily; the top award is limited to what is posted; when it hits, every
hand with a jackpot wager shares it equally.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from cardroom.errors import CardroomError
from cardroom.money import Cents, require_cents


@dataclass(frozen=True)
class PoolEvent:
    kind: str
    amount: Cents
    meter_after: Cents
    posted_after: Cents
    note: str = ""


@dataclass
class JackpotPool:
    """Meter (all contributions so far) and posted amount (what a top award pays)."""

    seed: Cents
    contribution_per_wager: Cents
    meter: Cents = -1
    posted: Cents = -1
    posted_on: date | None = None
    seeded_total: Cents = 0
    events: list[PoolEvent] = field(default_factory=list)

    def __post_init__(self) -> None:
        require_cents(self.seed, "jackpot seed")
        require_cents(self.contribution_per_wager, "jackpot contribution")
        if self.meter < 0:
            self.meter = self.seed
            self.seeded_total = self.seed
            self._log("seed", self.seed, "house seed (not recovered)")
        if self.posted < 0:
            self.posted = self.meter

    def _log(self, kind: str, amount: Cents, note: str = "") -> PoolEvent:
        event = PoolEvent(kind, amount, self.meter, self.posted, note)
        self.events.append(event)
        return event

    def contribute(self, wagers: int) -> PoolEvent:
        """Add the contribution of `wagers` $1 jackpot wagers to the meter (not yet posted)."""
        if wagers < 0:
            raise CardroomError("a number of wagers cannot be negative")
        amount = wagers * self.contribution_per_wager
        self.meter += amount
        return self._log("contribution", amount, f"{wagers} wager(s)")

    def post(self, day: date) -> PoolEvent:
        """The daily update before the table opens: the posted amount becomes the meter."""
        self.posted = self.meter
        self.posted_on = day
        return self._log("posted", self.posted, day.isoformat())

    def shares(self, hands: int) -> list[Cents]:
        """Equal shares of the posted jackpot for `hands` winning hands. Cents that do not
        divide evenly stay in the meter (the rules are silent; nothing is rounded up)."""
        if hands < 1:
            raise CardroomError("a jackpot needs at least one winning hand")
        return [self.posted // hands] * hands

    def award(self, hands: int) -> list[Cents]:
        """Pay the posted jackpot to `hands` hands; the meter is reseeded by the house."""
        shares = self.shares(hands)
        paid = sum(shares)
        self.meter = self.meter - paid + self.seed
        self.seeded_total += self.seed
        self.posted = self.posted - paid + self.seed
        self._log("award", paid, f"{hands} hand(s) share {shares[0]} each")
        self._log("seed", self.seed, "house reseed after a top award")
        return shares

    def adjust(self, amount: Cents, first_approver: str, second_approver: str,
               reason: str) -> PoolEvent:
        """A correction to the meter, only with two different people's approval and a reason."""
        require_cents(amount, "adjustment")
        if not first_approver or not second_approver or first_approver == second_approver:
            raise CardroomError("a jackpot adjustment needs two different approvers")
        if not reason.strip():
            raise CardroomError("a jackpot adjustment needs a reason")
        if self.meter + amount < 0:
            raise CardroomError("a jackpot adjustment cannot take the meter below zero")
        self.meter += amount
        return self._log("adjustment", amount, f"{first_approver}+{second_approver}: {reason}")
