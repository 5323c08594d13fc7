"""Playing whole hands with bots, and the simulation behind `cardroom simulate pan`.

Shuffles here use numpy's seeded generator so runs can be reproduced: simulation only, never
live play (live shuffles use `cardroom.shoe.fisher_yates` with `SystemRandom`).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .bots import Bot, RandomBot, SoundBot, play_turn
from .cards import pan_pack
from .engine import PanHand, Phase, SeatSpec
from .events import ConditionMade
from .melds import conditions_of
from .rules import PanRules

MAX_STEPS = 5000


def play_hand(hand: PanHand, bots: Sequence[Bot], rng: random.Random) -> PanHand:
    """Drive a hand to its end with one bot per seat."""
    steps = 0
    last_top = None
    while hand.phase is not Phase.COMPLETE:
        steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError("hand did not finish")
        if hand.phase is Phase.DECLARING:
            seat = hand.order[hand.next_declarer]
            bots[seat].declare(hand, seat)
            continue
        if hand.phase is Phase.LAST_PLAYER:
            assert hand.current is not None
            hand.play_face_up(hand.current)
            continue
        cur = hand.current
        assert cur is not None
        seat = cur
        if not hand.stock and not hand.turn_started:
            pile = [d.card for d in hand.discards[:-1]]
            rng.shuffle(pile)
            hand.reshuffle_stock(pile)
            continue
        play_turn(bots[seat], hand, seat)
        top = hand.discards[-1] if hand.discards else None
        if top is None or top is last_top:
            continue
        last_top = top
        if hand.phase is Phase.PLAYING and hand.fitting_melds(top.seat, top.card):
            for other in hand.in_players():
                if other != seat:
                    bots[other].react(hand, other)
                    if hand.forced_discard is not None:
                        bots[hand.forced_discard].forced_discard(hand, hand.forced_discard)
                    if hand.phase is not Phase.PLAYING:
                        break
    return hand


@dataclass
class SimReport:
    hands: int
    players: int
    seconds: float
    turns: int
    chips: list[int]
    kinds: list[str]
    conditions: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        per_hand = [c / self.hands for c in self.chips]
        return {
            "hands": self.hands, "players": self.players, "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "average_turns": round(self.turns / self.hands, 2),
            "conditions_per_hand": {k: round(v / self.hands, 4)
                                    for k, v in sorted(self.conditions.items())},
            "endings": dict(self.endings),
            "seats": [{"seat": i, "bot": k, "chips_won": c, "chips_per_hand": round(p, 4)}
                      for i, (k, c, p) in enumerate(zip(self.kinds, self.chips, per_hand,
                                                        strict=True))],
        }


def simulate(hands: int, players: int, seed: int, kinds: Sequence[str] | None = None,
             rules: PanRules | None = None, chips: int = 40) -> SimReport:
    """Play `hands` independent hands (every seat starts each hand with `chips`), rotating
    the deal; report chips won per seat and how often each condition was made."""
    rules = rules or PanRules()
    kinds = list(kinds or ["sound"] * players)
    rng = random.Random(seed)
    bots: list[Bot] = [SoundBot() if k == "sound" else RandomBot(random.Random(seed + i))
                       for i, k in enumerate(kinds)]
    base = pan_pack(rules)
    report = SimReport(hands, players, 0.0, 0, [0] * players, kinds)
    specs = [SeatSpec(f"{k}{i}", chips) for i, k in enumerate(kinds)]
    t0 = time.perf_counter()
    perm = np.random.default_rng(seed)  # simulation-only PRNG, never for live play
    for h in range(hands):
        pack = [base[i] for i in perm.permutation(len(base))]
        hand = PanHand(rules, specs, dealer=h % players, pack=pack, record=False)
        play_hand(hand, bots, rng)
        for i, d in enumerate(hand.chips_delta()):
            report.chips[i] += d
        report.endings[hand.end_reason or "?"] += 1
        for ev in hand.events:
            if isinstance(ev, ConditionMade):
                m = hand.seats[ev.seat].melds
                if ev.meld < len(m) and m[ev.meld].kind is not None:
                    kind = m[ev.meld].kind
                    assert kind is not None
                    for c in conditions_of(m[ev.meld].cards, kind):
                        report.conditions[c.kind.value] += 1
        report.turns += sum(1 for ev in hand.events if type(ev).__name__ in ("Drew", "Took"))
    report.seconds = time.perf_counter() - t0
    return report
