"""Property test over random legal Pan play (issue 10, figures to reach): chips are conserved
at every step (seats, tops and carried tops), every refused action changes nothing, every
hand's history replays to the same result, and no hand breaks a clause (the pack of the
reference digest, ten cards dealt each, table stakes: no seat ever below zero chips)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import Rank
from cardroom.games.pan.bots import Bot, RandomBot, SoundBot
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.driver import play_hand
from cardroom.games.pan.engine import PanHand, Phase, SeatSpec
from cardroom.games.pan.errors import PanRuleError
from cardroom.games.pan.history import history_of
from cardroom.games.pan.rules import PanRules
from cardroom.history import HandHistory, replay
from cardroom.shoe import SeededRandom, fisher_yates


def chips_in_play(hand: PanHand) -> int:
    """Every chip of the hand: the seats' stacks, the tops, and tops carried to a redeal."""
    return (sum(s.chips for s in hand.seats.values()) + hand.tops_single + hand.tops_double
            + sum(hand.tops_carry))


def state(hand: PanHand) -> tuple[Any, ...]:
    return (len(hand.actions), len(hand.events), hand.phase, hand.current,
            tuple(s.chips for s in hand.seats.values()),
            tuple(tuple(s.hand) for s in hand.seats.values()),
            len(hand.stock), len(hand.discards), hand.drawn)


class Checked:
    """A bot that, before each of its declarations and turns, checks the chips and tries an
    action the rules refuse (a draw out of turn, or before the declarations are over)."""

    def __init__(self, inner: Bot, total: int) -> None:
        self.inner, self.total = inner, total

    def probe(self, hand: PanHand, seat: int) -> None:
        assert chips_in_play(hand) == self.total
        assert all(s.chips >= 0 for s in hand.seats.values())  # table stakes (pays rule 5)
        other = (seat + 1) % hand.n
        was = state(hand)
        with pytest.raises(PanRuleError):
            hand.draw(other if hand.phase is Phase.PLAYING else seat)
        assert state(hand) == was

    def declare(self, hand: PanHand, seat: int) -> None:
        self.probe(hand, seat)
        self.inner.declare(hand, seat)

    def start(self, hand: PanHand, seat: int) -> None:
        self.probe(hand, seat)
        self.inner.start(hand, seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kinds=st.lists(st.booleans(), min_size=2, max_size=6),
       chips=st.sampled_from([3, 20]))
def test_random_play_conserves_chips_refuses_cleanly_replays_and_keeps_every_clause(
        seed: int, kinds: list[bool], chips: int) -> None:
    rules = PanRules()
    pack = fisher_yates(pan_pack(rules), SeededRandom(seed))
    # the reference digest's pack: eight 40-card packs, no 8s, 9s or 10s
    assert len(pack) == 320 and not {c.rank for c in pack} & {Rank.EIGHT, Rank.NINE, Rank.TEN}
    assert set(Counter(pack).values()) == {8}
    n = len(kinds)
    hand = PanHand(rules, [SeatSpec(f"p{i}", chips) for i in range(n)], seed % n, pack)
    total = chips_in_play(hand)
    assert total == n * chips
    assert all(len(s.hand) == 10 for s in hand.seats.values())  # ten cards each
    rng = random.Random(seed)
    bots: list[Any] = [Checked(RandomBot(rng) if k else SoundBot(), total) for k in kinds]
    play_hand(hand, bots, rng)
    assert chips_in_play(hand) == total
    assert all(s.chips >= 0 for s in hand.seats.values())
    report = replay(HandHistory.from_json(json.loads(history_of(hand).dumps())))
    assert report.ok and report.result_matches, report.failure
    assert report.final_chips == [s.chips for s in hand.seats.values()]
