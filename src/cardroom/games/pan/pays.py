"""Conditions and collections: a condition is pending until called (`collect`, in the turn),
then collected from every liable player under table stakes (owed chips asked again on later
hits); uncalled pays are lost at the discard."""

from __future__ import annotations

from .events import CollectionLost, ConditionMade, Irregularity
from .queries import QueriesMixin
from .state import BUSTED, IN


class PaysMixin(QueriesMixin):
    """The bookkeeping of pays: pending conditions, table stakes, owed chips, lost pays."""

    # ----- collections (Conditions; house pays rules 1 and 5) -------------------------------

    def _hit(self, seat: int, meld: int, units: int, why: str) -> None:
        if units > 0:
            self.seats[seat].pending.append((units, why))
            self._log(ConditionMade(seat, meld, units, why))

    def _collect(self, seat: int) -> None:
        s = self.seats[seat]
        units = sum(u for u, _ in s.pending)
        s.pending = []
        stake = s.chips
        for p in self.liable(seat):
            payer = self.seats[p]
            due = units * self.multiplier(seat, p) + s.owed.pop(p, 0)
            paid = min(due, stake, payer.chips)
            self._move(p, seat, paid, "condition")
            s.collected[p] += paid
            if due > paid:
                s.owed[p] += due - paid
            if payer.chips == 0 and payer.status is IN:
                payer.status = BUSTED
                self._log(Irregularity(p, "out of chips", "hand thrown in (pays rule 5B)"))

    def _lose_pending(self, seat: int) -> None:
        s = self.seats[seat]
        for units, why in s.pending:
            self._log(CollectionLost(seat, units, f"{why}: not called before the discard"))
        s.pending = []
