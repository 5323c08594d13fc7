"""High Card's conformance adapter (`conformance_games.Game`)."""

from __future__ import annotations

import random

from conformance_games import STACK, Game, Hand, Move

from cardroom.engine import history_actions, history_pack
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
        h = Hand(t, rng)
        h.before = dict(t.stacks)
        return h

    def moves(self, h: Hand) -> list[Move]:
        seat = h.rng.randint(0, 4)
        amount = h.rng.choice([0, 99, 100, 2_500, 10_000, 10_001])
        out: list[Move] = [("place_wager", (seat, amount)), ("withdraw", (seat,))]
        if h.rng.random() < 0.4:
            out.append(("deal", ()))
        return out

    def over(self, h: Hand) -> bool:
        return any(isinstance(e, Settled) for e in h.events)

    def next_hand(self, h: Hand) -> Hand:
        nxt = Hand(h.engine, h.rng, len(h.engine.events))
        assert isinstance(h.engine, HighCardTable)
        nxt.before = dict(h.engine.stacks)
        return nxt

    def money(self, h: Hand) -> int:
        """The seats' chips and the wagers down, plus what the house won so far."""
        t = h.engine
        assert isinstance(t, HighCardTable)
        house = -sum(s.net for e in h.events if isinstance(e, Settled) for s in e.seats)
        return sum(t.stacks.values()) + sum(t.wagers.values()) + house

    def history(self, h: Hand) -> HandHistory:
        t = h.engine
        assert isinstance(t, HighCardTable)
        seats = sorted({e.seat for e in h.events if isinstance(e, WagerPlaced | WagerWithdrawn)})
        return HandHistory(
            game=self.name, rules=t.rules.model_dump(mode="json"),
            seats=[{"seat": s, "name": f"p{s}", "chips": h.before[s]} for s in seats],
            pack=history_pack(h.events), actions=history_actions(h.events),
            result={"chips": self.final(h)})

    def final(self, h: Hand) -> list[int]:
        t = h.engine
        assert isinstance(t, HighCardTable)
        seats = sorted({e.seat for e in h.events if isinstance(e, WagerPlaced | WagerWithdrawn)})
        return [t.stacks[s] for s in seats]
