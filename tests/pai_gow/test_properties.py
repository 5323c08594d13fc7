"""Property test over random play at a Pai Gow table (issue 10, figures to reach): chips are
conserved, every refused action changes nothing, every hand's history replays to the same
result, and no hand breaks a clause of the WSGC rules (1 the 53-card deck, 4 seven hands of
seven and four left over, 5 the dice, 6 five cards back and two in front, 10 even money less
up to 5%, a push on one each; banking: the house banks at least every other hand)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import JOKER, Card, Rank, Suit
from cardroom.errors import CardroomError
from cardroom.games.pai_gow.rules import DragonHand, PaiGowRules
from cardroom.games.pai_gow.table import DEALER, Outcome, PaiGowTable, Phase, Settled
from cardroom.history import HandHistory, replay
from cardroom.money import Cents
from cardroom.shoe import SeededRandom, fisher_yates

CHIPS = 100_000
SEATED = (1, 2, 3, 4)
DECK = [Card(r, s) for r in Rank if r is not Rank.JOKER for s in Suit] + [JOKER]
"""Clause 1: "one deck of cards including one joker (total of 53 cards)"."""
WAGERS = st.sampled_from([500, 1000, 2500, 10_000, 0, 200_000])
HAND = st.fixed_dictionaries({
    "wagers": st.dictionaries(st.sampled_from(SEATED), WAGERS, min_size=1, max_size=4),
    "bank": st.sampled_from([None, None, *SEATED]),
    "dragon": st.sampled_from([(1, 5, 500), (2, 6, 1000), None, (3, 1, 500)]),
    "settings": st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 6), st.integers(0, 6))),
                         min_size=8, max_size=8),
    "illegal": st.integers(0, 5),
})


class Dice:
    """The three dice of the deal (clause 5), recorded for the history."""

    def __init__(self, seed: int) -> None:
        self.rolls: list[int] = []
        self._src = SeededRandom(seed)

    def randbelow(self, n: int) -> int:
        value = self._src.randbelow(n)
        self.rolls.append(value + 1)
        return value


def state(t: PaiGowTable) -> tuple[Any, ...]:
    return (t.phase, dict(t.chips), dict(t.wagers), t.banker_spot, t.dragon, len(t.events),
            copy.copy(t.settings), t.house_result)


def refused(t: PaiGowTable, action: Callable[[], object]) -> None:
    was = state(t)
    with pytest.raises(CardroomError):
        action()
    assert state(t) == was


def attempt_illegal(t: PaiGowTable, which: int) -> None:
    options: list[Callable[[], object]] = [lambda: t.place_wager(1, 1000),
                                           lambda: t.set_hand(DEALER, list(DECK[:2]))]
    if not t.can_settle():
        options.append(t.settle)
    set_spots = list(t.settings)
    if set_spots:  # a hand set twice
        options.append(lambda: t.ask_house_way(set_spots[0]))
    refused(t, options[which % len(options)])


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hands=st.lists(HAND, min_size=1, max_size=4),
       dragon=st.sampled_from([DragonHand.PLAYER_SETS, DragonHand.NOT_ALLOWED]))
def test_random_play_conserves_chips_refuses_cleanly_replays_and_keeps_every_clause(
        seed: int, hands: list[dict[str, Any]], dragon: DragonHand) -> None:
    rules = PaiGowRules(dragon_hand=dragon)
    t = PaiGowTable(rules)
    for seat in SEATED:
        t.sit(seat, CHIPS)
    for n, plan in enumerate(hands):
        before, house_before, banked_last = dict(t.chips), t.house_result, t.player_banked_last
        actions: list[dict[str, Any]] = []
        for seat, amount in sorted(plan["wagers"].items()):
            if t.can_place_wager(seat, amount):
                t.place_wager(seat, amount)
                actions.append({"type": "wager", "seat": seat, "amount": amount})
            else:
                refused(t, lambda s=seat, a=amount: t.place_wager(s, a))
        if plan["bank"] is not None:
            seat = plan["bank"]
            if t.can_bank(seat):
                t.bank(seat)
                actions.append({"type": "bank", "seat": seat,
                                "dealer_wager": t.last_wagers[seat]})
            else:  # banking: a player may not bank two hands running (nor uncovered)
                refused(t, lambda s=seat: t.bank(s))
        if plan["dragon"] is not None:
            seat, spot, amount = plan["dragon"]
            if t.can_take_dragon(seat, spot, amount):
                t.take_dragon(seat, spot, amount)
                actions.append({"type": "dragon", "seat": seat, "spot": spot,
                                "amount": amount})
            else:  # clause 7: only where allowed, to an open spot
                refused(t, lambda a=seat, b=spot, c=amount: t.take_dragon(a, b, c))
        if not t.can_deal():  # e.g. every wager refused: nothing to deal, and play stops
            refused(t, t.deal)
            return
        deck = fisher_yates(DECK, SeededRandom(seed + n))
        dice = Dice(seed - n)
        dealt = t.deal(dice, deck)
        check_deal(t, dealt.hands, dealt.dice, dealt.start_position)
        actions.append({"type": "deal", "dice": dice.rolls, "start": dealt.start_position})
        attempt_illegal(t, plan["illegal"])
        for k, spot in enumerate(sorted(s for s in t.hands if s != DEALER)):
            choice = plan["settings"][k]
            cards = t.hands[spot]
            if choice is None or choice[0] == choice[1]:
                event = t.ask_house_way(spot)
                actions.append({"type": "house_way", "spot": spot})
            else:
                front = [cards[choice[0]], cards[choice[1]]]
                event = t.set_hand(spot, front)
                actions.append({"type": "set", "spot": spot, "front": [str(c) for c in front]})
            s = event.setting  # clause 6: five cards back, two in front, the seven dealt
            assert len(s.back) == 5 and sorted([*s.front, *s.back]) == sorted(cards)
            if not t.can_settle():
                attempt_illegal(t, plan["illegal"] + k)
        settled = t.settle()
        check_settlement(t, settled, before, house_before)
        seats = sorted(before)
        history = HandHistory(
            game="pai-gow", rules=rules.model_dump(mode="json"),
            seats=[{"seat": s, "name": f"p{s}", "chips": before[s]} for s in seats],
            pack=[str(c) for c in deck], actions=actions,
            setup={"unit": "cents", "player_banked_last": banked_last},
            result={"chips": [t.chips[s] for s in seats], "banker_spot": settled.banker_spot,
                    "spots": [{"spot": r.spot, "outcome": r.outcome.value, "net": r.net}
                              for r in settled.results]})
        report = replay(HandHistory.from_json(history.to_json()))
        assert report.ok and report.result_matches, report.failure
        t.next_hand()


def check_deal(t: PaiGowTable, by_position: tuple[tuple[Card, ...], ...],
               dice: tuple[int, ...], start: int) -> None:
    assert all(len(h) == 7 for h in by_position)  # clause 4: seven hands of seven
    dealt = [c for h in by_position for c in h]
    assert len(set(dealt)) == 49  # and four left over of the 53
    assert len(dice) == 3 and start == (sum(dice) - 1) % 7 + 1  # clause 5
    assert t.phase is Phase.SETTING


def check_settlement(t: PaiGowTable, settled: Settled, before: dict[int, Cents],
                     house_before: Cents) -> None:
    for r in settled.results:
        hs = t.settings[r.spot]
        if hs.foul:  # a foul hand loses (default house policy, clause 6)
            assert r.outcome is Outcome.LOSS
        if r.outcome is Outcome.WIN:  # clause 10: even money less up to 5%
            assert r.net == r.wager - r.commission
            chip = t.rules.smallest_chip_cents  # rounded down to the table's chip
            assert r.commission % chip == 0
            assert r.commission * 20 <= r.wager < (r.commission + chip) * 20
        else:
            assert r.commission == 0
            assert r.net == {Outcome.LOSS: -r.wager, Outcome.PUSH: 0}[r.outcome]
    # chips are conserved: what the players gain the house (commissions included) pays
    assert sum(t.chips.values()) + t.house_result == sum(before.values()) + house_before
    assert all(c >= 0 for c in t.chips.values())
