"""The progressive jackpot pool: seed, meter, daily posting, shared top awards (the arithmetic
of the room's progressive, whichever game's wager feeds it).

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
    reserve_per_wager: Cents = 0
    """A house rule beside the Super-9 minimum: cents of each $1 wager put into a hidden
    reserve (not shown, not won) that seeds the next jackpot; on top of the contribution."""
    reserve_limit: Cents = 0
    """The reserve's cap; what the reserve rate would add above it goes to the meter."""
    reserve: Cents = 0
    maximum: Cents = 0
    """An optional maximum prize (WAC 230-15-685(4), posted at the game; 0: none): the meter
    stops at it, and what would lift it higher goes to the hidden reserve, which seeds the
    next jackpot (nothing set aside for the progressive is kept back)."""
    hold_top_award: bool = False
    """Set by the card room: a top award locks the pool until the hit is verified and paid
    (`release`); the engine alone (terminal play, simulations) pays it at once."""
    locked: bool = False

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
        """Add the contribution of `wagers` $1 jackpot wagers to the meter (not yet posted),
        and the reserve rate's part to the hidden reserve up to its limit (the rest of it to
        the meter: nothing set aside for the progressive is kept back). A meter at its
        `maximum` grows no further: the rest goes to the reserve."""
        if wagers < 0:
            raise CardroomError("a number of wagers cannot be negative")
        hidden = wagers * self.reserve_per_wager
        to_reserve = max(0, min(hidden, self.reserve_limit - self.reserve))
        amount = wagers * self.contribution_per_wager + hidden - to_reserve
        if self.maximum:
            over = max(0, min(amount, self.meter + amount - self.maximum))
            amount, to_reserve = amount - over, to_reserve + over
        self.meter += amount
        self.reserve += to_reserve
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
        """Pay the posted jackpot to `hands` hands; the meter is reseeded, from the hidden
        reserve first and by the house for the rest."""
        if self.locked:
            raise CardroomError("the jackpot is pending verification: the pool pays no other "
                                "award until it is paid")
        shares = self.shares(hands)
        paid = sum(shares)
        self.locked = self.hold_top_award
        from_reserve = min(self.reserve, self.seed)
        self.reserve -= from_reserve
        self.meter = self.meter - paid + self.seed
        self.seeded_total += self.seed - from_reserve
        self.posted = self.posted - paid + self.seed
        self._log("award", paid, f"{hands} hand(s) share {shares[0]} each")
        self._log("seed", self.seed, "reseed after a top award"
                  + (f" ({from_reserve} from the reserve)" if from_reserve else ""))
        return shares

    def release(self) -> None:
        """The pending top award was verified and paid: the pool takes awards again."""
        self.locked = False

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
        if self.maximum and amount > 0 and self.meter + amount > self.maximum:
            raise CardroomError("a jackpot adjustment cannot take the meter above the posted "
                                "maximum prize (WAC 230-15-685(4))")
        self.meter += amount
        return self._log("adjustment", amount, f"{first_approver}+{second_approver}: {reason}")
