"""High Card's conformance adapter (`conformance_games.Game`): the engine protocol gives the
rest."""

from __future__ import annotations

import random

from conformance_games import STACK, Game, Hand

from cardroom.history import HandHistory
from cardroom.shoe import SeededRandom

from .engine import HighCardRules, HighCardTable, Settled, WagerPlaced, WagerWithdrawn

SEATS = range(1, 4)


class HighCard(Game):
    name = "high-card"
    hands = 40

    def start(self, rng: random.Random) -> Hand:
        t = HighCardTable(HighCardRules(), source=SeededRandom(rng.randrange(2**32)))
        for seat in SEATS:
            t.sit(seat, STACK)
        return self.open(Hand(t, rng))

    def stacks(self, h: Hand) -> dict[int, int]:
        assert isinstance(h.engine, HighCardTable)
        return h.engine.stacks

    def staked(self, h: Hand) -> int:
        assert isinstance(h.engine, HighCardTable)
        return sum(h.engine.wagers.values())

    def may_see(self, h: Hand, seat: int | None) -> set[str]:
        """Every card is dealt face up."""
        return {str(c) for e in h.engine.events if isinstance(e, Settled) for c in e.dealt()}

    def history(self, h: Hand) -> HandHistory:
        seats = sorted({e.seat for e in h.events if isinstance(e, WagerPlaced | WagerWithdrawn)})
        return self.simple_history(h, seats)
