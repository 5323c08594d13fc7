"""Property test over random play at a Super Pan 9 table (issue 10, figures to reach): chips
are conserved, every refused action changes nothing, every round's history replays to the same
result, and no round breaks a clause of the WSGC rules (checked from the rules' text: rule 1
the shoe, 5 three cards each, 6 one optional card, 7 the dealer on 0-5, 4/8/9 settlement)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import Card, Rank
from cardroom.errors import CardroomError
from cardroom.games.super_pan_9 import SuperPan9Rules, SuperPan9Table
from cardroom.games.super_pan_9.engine import Phase
from cardroom.history import HandHistory, replay
from cardroom.money import Cents
from cardroom.shoe import SeededRandom

STACK = 1_000_000
WAGERS = st.sampled_from([500, 1000, 2000, 5100, 25_000, 100_000, 0, 499, 100_001])
TIES = st.sampled_from([0, 0, 100, 500, 10_000, 99, 10_001])
ROUND = st.tuples(
    st.dictionaries(st.integers(1, 9), st.tuples(WAGERS, TIES), min_size=1, max_size=5),
    st.lists(st.booleans(), min_size=9, max_size=9),  # draw or stand, by turn
    st.lists(st.integers(0, 4), min_size=4, max_size=4))  # illegal attempts to make


def value(card: Card) -> int:
    """Rule 2: faces 0, aces 1, others face value."""
    return 0 if card.rank >= Rank.JACK else int(card.rank)


def total(cards: list[Card] | tuple[Card, ...]) -> int:
    """Rule 5: only the last digit counts."""
    return sum(map(value, cards)) % 10


def state(t: SuperPan9Table) -> tuple[Any, ...]:
    shoe = t.shoe
    return (t.phase, copy.deepcopy(t.seats), list(t.dealer_cards), len(t.events),
            None if shoe is None else shoe.position, t.dealer_revealed, t.dealer_drew)


def refused(t: SuperPan9Table, action: Callable[[], object]) -> None:
    """Every refusal changes nothing."""
    was = state(t)
    with pytest.raises(CardroomError):
        action()
    assert state(t) == was


def attempt_illegal(t: SuperPan9Table, which: int) -> None:
    """An action the rules forbid at this point, chosen among those that are illegal now."""
    seats = sorted(t.seats)
    wrong = [s for s in range(1, 10) if s != t.to_act]
    options: list[Callable[[], object]] = [lambda: t.draw(wrong[which % len(wrong)])]
    if not t.can_reveal():
        options.append(t.reveal)
    if not t.can_dealer_draw():
        options.append(t.dealer_draw)
    if not t.can_settle():
        options.append(t.settle)
    if t.phase is not Phase.BETTING:
        options.append(lambda: t.place_wager(seats[0], 1000))
    refused(t, options[which % len(options)])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rounds=st.lists(ROUND, min_size=1, max_size=4),
       decks=st.sampled_from([1, 8]))
def test_random_play_conserves_chips_refuses_cleanly_replays_and_keeps_every_clause(
        seed: int, rounds: list[tuple[dict[int, tuple[Cents, Cents]], list[bool], list[int]]],
        decks: int) -> None:
    rules = SuperPan9Rules(decks=decks)
    t = SuperPan9Table(rules, SeededRandom(seed))
    stacks = dict.fromkeys(range(1, 10), STACK)
    for wagers, choices, illegal in rounds:
        before = dict(stacks)
        actions: list[dict[str, Any]] = []
        for seat, (amount, tie) in sorted(wagers.items()):
            if t.can_place_wager(seat, amount, tie):
                t.place_wager(seat, amount, tie)
                stacks[seat] -= amount + tie
                actions.append({"type": "wager", "seat": seat, "amount": amount, "tie": tie})
            else:
                refused(t, lambda s=seat, a=amount, b=tie: t.place_wager(s, a, b))
        if not t.seats:
            refused(t, t.deal)
            continue
        t.deal()
        shoe = t.shoe
        assert shoe is not None
        first = shoe.position - 3 * (len(t.seats) + 1)  # rule 5: three cards each
        actions.append({"type": "deal"})
        attempt_illegal(t, illegal[0])
        turn = 0
        while t.to_act is not None:
            seat = t.to_act
            if choices[turn % 9]:
                t.draw(seat)
            else:
                t.stand(seat)
            actions.append({"type": "draw" if choices[turn % 9] else "stand", "seat": seat})
            turn += 1
            attempt_illegal(t, illegal[1])
        t.reveal()
        actions.append({"type": "reveal", "cards": [str(c) for c in t.dealer_cards]})
        attempt_illegal(t, illegal[2])
        if total(t.dealer_cards) <= 5:  # rule 7 i: the dealer must draw on 0-5
            t.dealer_draw()
            actions.append({"type": "dealer_draw"})
        else:  # rule 7 ii: and stand on 6-9
            refused(t, t.dealer_draw)
        attempt_illegal(t, illegal[3])
        pack = shoe.order[first:shoe.position]
        settled = t.settle()
        check_round(t, settled.seats, stacks, pack)
        result = {"chips": [stacks[s.seat] for s in settled.seats],
                  "dealer_total": settled.dealer_total,
                  "settlements": [{"seat": s.seat, "outcome": s.settlement.outcome.value,
                                   "net": s.settlement.net} for s in settled.seats]}
        history = HandHistory(
            game="super-pan-9", rules=rules.model_dump(mode="json"),
            seats=[{"seat": s.seat, "name": f"p{s.seat}", "chips": before[s.seat]}
                   for s in settled.seats],
            pack=[str(c) for c in pack], actions=actions, setup={"unit": "cents"},
            result=result)
        report = replay(HandHistory.from_json(history.to_json()))
        assert report.ok and report.result_matches, report.failure
        assert sum(stacks.values()) - sum(before.values()) == \
            sum(s.settlement.net for s in settled.seats)
        t.new_round()


def check_round(t: SuperPan9Table, seats: Any, stacks: dict[int, Cents],
                pack: list[Card]) -> None:
    assert all(c.rank not in (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JOKER)
               for c in pack)  # rule 1
    dealer = total(t.dealer_cards)
    assert len(t.dealer_cards) == (4 if total(t.dealer_cards[:3]) <= 5 else 3)  # rule 7
    for s in seats:
        hand = t.seats[s.seat]
        assert len(hand.cards) == (4 if hand.drew else 3)  # rules 5 and 6
        st_ = s.settlement
        mine = total(hand.cards)
        assert s.player_total == mine
        if mine > dealer:  # rules 4 and 8: even money, up to 5% commission
            assert st_.main_net == hand.wager - st_.commission
            chip = t.rules.smallest_chip_cents  # rounded down to the table's chip
            assert st_.commission % chip == 0
            assert st_.commission * 20 <= hand.wager < (st_.commission + chip) * 20
        elif mine < dealer:
            assert st_.main_net == -hand.wager
        else:  # rule 9: a tie pushes the wager; the Tie Bet pays 8 to 1
            assert st_.main_net == 0
        assert st_.tie_net == (8 * hand.tie_wager if mine == dealer else -hand.tie_wager)
        stacks[s.seat] += st_.returned
        assert st_.returned == hand.wager + hand.tie_wager + st_.net >= 0
