"""The Super Pan 9 engine, clause by clause of the WSGC rules (super-pan-9.wsgc.txt)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from fractions import Fraction

import pytest

from cardroom.cards import Card, Rank, Suit, parse_card, parse_cards
from cardroom.engine import history_actions
from cardroom.errors import (
    CardParseError,
    CardroomError,
    IllegalActionError,
    RulesError,
    WagerError,
)
from cardroom.games.super_pan_9 import (
    IrregularityKind,
    IrregularityPolicy,
    Outcome,
    Phase,
    SuperPan9Rules,
    SuperPan9Table,
    card_value,
    compare,
    dealer_must_draw,
    hand_total,
)
from cardroom.games.super_pan_9.cards import values_total
from cardroom.games.super_pan_9.events import ShoeShuffled
from cardroom.houserules import Modification, build_rules
from cardroom.shoe import SeededRandom

from .helpers import stacked_table


def _state(table: SuperPan9Table) -> tuple[object, ...]:
    return (table.phase, len(table.events), copy.deepcopy(table.seats),
            list(table.dealer_cards), table.shoe.position if table.shoe else None)


def refused(table: SuperPan9Table, error: type[Exception], action: object, *args: object) -> str:
    """The action raises `error` and the table is exactly as it was."""
    before = _state(table)
    with pytest.raises(error) as info:
        action(*args)  # type: ignore[operator]
    assert _state(table) == before
    return str(info.value)


# ----- rule 1: the shoe and the table -------------------------------------------------------

def test_super_pan_9_rule_1_shoe_has_36_cards_a_deck_without_7_8_9_10_or_jokers() -> None:
    for decks in range(1, 9):
        spec = SuperPan9Rules(decks=decks).shoe_spec
        cards = spec.cards()
        assert len(cards) == spec.size == 36 * decks
        ranks = Counter(c.rank for c in cards)
        assert set(ranks) == {Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX,
                              Rank.JACK, Rank.QUEEN, Rank.KING}
        assert all(n == 4 * decks for n in ranks.values())
    assert SuperPan9Rules().decks == 8 and SuperPan9Rules().shoe_size == 288


@pytest.mark.parametrize("decks", [0, 9, -1])
def test_super_pan_9_rule_1_up_to_eight_decks(decks: int) -> None:
    with pytest.raises(RulesError, match="decks"):
        build_rules(SuperPan9Rules, {"decks": decks})


def test_super_pan_9_rule_1_up_to_nine_players() -> None:
    table = SuperPan9Table(SuperPan9Rules(), source=SeededRandom(1))
    for seat in range(1, 10):
        table.place_wager(seat, 1000)
    msg = refused(table, WagerError, table.place_wager, 10, 1000)
    assert "seats 1 to 9" in msg
    refused(table, WagerError, table.place_wager, 0, 1000)
    table.deal()
    assert all(len(h.cards) == 3 for h in table.seats.values())


def test_super_pan_9_rule_1_small_shoe_limits_seats() -> None:
    """A one-deck shoe (36 cards) cannot finish a nine-seat round (40 cards): refused."""
    table = SuperPan9Table(SuperPan9Rules(decks=1), source=SeededRandom(1))
    for seat in range(1, 9):
        table.place_wager(seat, 1000)
    assert "cannot serve" in refused(table, WagerError, table.place_wager, 9, 1000)


# ----- rule 2: card values ------------------------------------------------------------------

def test_super_pan_9_rule_2_card_values() -> None:
    expected = {Rank.KING: 0, Rank.QUEEN: 0, Rank.JACK: 0, Rank.ACE: 1, Rank.TWO: 2,
                Rank.THREE: 3, Rank.FOUR: 4, Rank.FIVE: 5, Rank.SIX: 6, Rank.NINE: 9}
    for rank, value in expected.items():
        for suit in Suit:  # "The suits ... have no value"
            assert card_value(Card(rank, suit)) == value
    with pytest.raises(CardParseError):
        card_value(parse_card("Th"))
    with pytest.raises(CardParseError):
        card_value(parse_card("JK"))


# ----- rule 3: shuffled shoe ----------------------------------------------------------------

def test_super_pan_9_rule_3_dealt_from_a_shuffled_shoe_with_commitment() -> None:
    table = SuperPan9Table()  # production: the OS CSPRNG
    table.place_wager(1, 1000)
    table.deal()
    shuffled = [e for e in table.events if isinstance(e, ShoeShuffled)]
    assert len(shuffled) == 1 and len(shuffled[0].commitment) == 64
    assert shuffled[0].size == 288 and table.shoe is not None
    assert table.shoe.commitment == shuffled[0].commitment
    assert sorted(table.shoe.order) == sorted(SuperPan9Rules().shoe_spec.cards())


# ----- rule 4: closer to 9 wins, equal is a Tie ----------------------------------------------

def test_super_pan_9_rule_4_closer_to_nine_wins_and_equal_is_tie() -> None:
    assert compare(9, 8) is Outcome.WIN
    assert compare(0, 1) is Outcome.LOSS
    assert compare(5, 5) is Outcome.PUSH
    assert {values_total(v) for v in [(6, 6, 6, 6), (0, 0, 0), (3, 6), (5, 5, 6, 3)]} <= set(
        range(10))


# ----- rule 5: wager, three cards face down, totals mod 10 ------------------------------------

def test_super_pan_9_rule_5_totals_drop_the_first_digit() -> None:
    assert hand_total(parse_cards("6s 4h 3d")) == 3          # the rule's 6-4-3 = 3
    assert values_total((7, 6, 8)) == 1                      # the rule's 7-6-8 = 1
    assert hand_total(parse_cards("Ks Qh Jd")) == 0
    assert hand_total(parse_cards("6s 6h 6d 6c")) == 4


def test_super_pan_9_rule_5_wager_first_then_three_cards_each_and_dealer() -> None:
    table = SuperPan9Table(source=SeededRandom(5))
    assert "no seat has a wager" in refused(table, IllegalActionError, table.deal)
    table.place_wager(2, 1000)
    table.place_wager(5, 2500, 200)
    table.deal()
    assert [len(h.cards) for h in table.seats.values()] == [3, 3]
    assert len(table.dealer_cards) == 3 and table.phase is Phase.PLAYERS
    assert "closed" in refused(table, IllegalActionError, table.place_wager, 3, 1000)


def test_super_pan_9_rule_5_wagers_come_back_until_the_deal_and_leave_no_history() -> None:
    """Rule 5 (wagers, then the deal): until the cards are dealt a seat may take its wager and
    Tie Bet back; the history derived from the log has no trace of them, and after the deal
    (or for a seat with no wager) the engine refuses, changing nothing."""
    table = SuperPan9Table(source=SeededRandom(5))
    table.place_wager(2, 1000, 200)
    table.place_wager(5, 2500)
    assert "no wager" in refused(table, IllegalActionError, table.withdraw_wagers, 3)
    event = table.withdraw_wagers(2)
    assert event.returned == 1200 and event.clause == "rule 5 (wagers)"
    assert list(table.seats) == [5] and not table.can_withdraw_wagers(2)
    table.place_wager(2, 500)
    assert [a for a in history_actions(table.events) if a["type"] == "wager"] == [
        {"type": "wager", "seat": 5, "amount": 2500, "tie": 0},
        {"type": "wager", "seat": 2, "amount": 500, "tie": 0}]
    table.deal()
    assert "dealt" in refused(table, IllegalActionError, table.withdraw_wagers, 5)


def test_super_pan_9_rule_5_deal_order_is_round_robin_seat_order_then_dealer() -> None:
    table = stacked_table({1: "As 2s 3s", 4: "4h 5h 6h"}, "Kd Qd Jd")
    assert table.seats[1].cards == parse_cards("As 2s 3s")
    assert table.seats[4].cards == parse_cards("4h 5h 6h")
    assert table.dealer_cards == parse_cards("Kd Qd Jd")


@pytest.mark.parametrize(("amount", "tie"), [(499, 0), (100_001, 0), (1000, 99), (1000, 10_001)])
def test_super_pan_9_rule_5_wager_limits(amount: int, tie: int) -> None:
    table = SuperPan9Table(source=SeededRandom(1))
    refused(table, WagerError, table.place_wager, 1, amount, tie)


def test_super_pan_9_wager_must_be_integer_cents() -> None:
    table = SuperPan9Table(source=SeededRandom(1))
    refused(table, CardroomError, table.place_wager, 1, 10.5)
    refused(table, CardroomError, table.place_wager, 1, True)


# ----- rule 6: one additional card or stand, in seat order -----------------------------------

def test_super_pan_9_rule_6_draw_one_card_or_stand_in_seat_order() -> None:
    table = stacked_table({1: "As 2s Ks", 3: "4h 5h Kh"}, "Kd Qd 6d", draws="3c")
    assert table.to_act == 1
    msg = refused(table, IllegalActionError, table.draw, 3)
    assert "seat 1's turn" in msg
    ev = table.draw(1)
    assert ev.card == parse_card("3c") and ev.total == 6
    msg = refused(table, IllegalActionError, table.draw, 1)
    assert "already drawn" in msg and "one additional card" in msg
    assert table.to_act == 3
    table.stand(3)
    assert "already stood" in refused(table, IllegalActionError, table.stand, 3)
    assert table.phase is Phase.DEALER
    assert table.seats[1].cards == parse_cards("As 2s Ks 3c")
    assert len(table.seats[3].cards) == 3


def test_super_pan_9_rule_6_refuses_acting_before_deal_and_for_empty_seat() -> None:
    table = SuperPan9Table(source=SeededRandom(1))
    table.place_wager(1, 1000)
    refused(table, IllegalActionError, table.draw, 1)
    table.deal()
    assert "no hand" in refused(table, IllegalActionError, table.stand, 2)


# ----- rule 7: dealer reveals after the players, draws on 0-5, stands on 6-9 -----------------

def test_super_pan_9_rule_7_dealer_draws_on_0_to_5_stands_on_6_to_9() -> None:
    assert [dealer_must_draw(t) for t in range(10)] == [True] * 6 + [False] * 4


@pytest.mark.parametrize(("dealer", "total", "draws"), [
    ("Kd Qd Jd", 0, True), ("Ad Qd Jd", 1, True), ("2d 3d Kd", 5, True),
    ("6d Kd Kh", 6, False), ("4d 3d Kd", 7, False), ("4d 4h Kd", 8, False),
    ("5d 4d Kd", 9, False), ("6d 6h 3d", 5, True),
])
def test_super_pan_9_rule_7_dealer_three_card_totals(dealer: str, total: int,
                                                      draws: bool) -> None:
    table = stacked_table({1: "Ks Kh Kc"}, dealer, draws="2c")
    assert "after every player" in refused(table, IllegalActionError, table.reveal)
    table.stand(1)
    ev = table.reveal()
    assert ev.total == total and ev.must_draw is draws
    if draws:
        assert "must draw" in refused(table, IllegalActionError, table.settle)
        assert table.dealer_draw().total == (total + 2) % 10
        assert "already drawn" in refused(table, IllegalActionError, table.dealer_draw)
    else:
        assert "stands" in refused(table, IllegalActionError, table.dealer_draw)
    table.settle()
    assert table.phase is Phase.COMPLETE


def test_super_pan_9_rule_7_no_player_action_after_the_dealer_revealed() -> None:
    table = stacked_table({1: "Ks Kh Kc"}, "6d Kd Kh")
    table.stand(1)
    table.reveal()
    msg = refused(table, IllegalActionError, table.draw, 1)
    assert "revealed" in msg
    assert "already revealed" in refused(table, IllegalActionError, table.reveal)


# ----- rule 8: even money, commission up to 5% on winning bets -------------------------------

def test_super_pan_9_rule_8_win_pays_even_money_less_commission() -> None:
    table = stacked_table({1: "4s 5s Ks", 2: "Ks Kh Kc", 3: "6s Kd Kh"}, "6d Kd Kh",
                          wager=1000)
    for s in (1, 2, 3):
        table.stand(s)
    settled = {s.seat: s.settlement for s in table.finish_dealer().seats}
    assert settled[1].outcome is Outcome.WIN and settled[1].main_net == 950
    assert settled[1].commission == 50 and settled[1].returned == 1950
    assert settled[2].outcome is Outcome.LOSS and settled[2].main_net == -1000
    assert settled[3].outcome is Outcome.PUSH and settled[3].main_net == 0


def test_super_pan_9_rule_8_commission_rounding_and_rate_house_rules() -> None:
    """Rule 8: "up to a 5% commission", rounded down to the table's smallest chip. At the
    default quarter chip 5% of $5.25 is 26.25 cents: charged one quarter, never the 50 cents
    that rounding up would take; at a 1-cent chip 5% of $5.10 is 25.5 cents: charged 25, never
    26 (both above 5% of the win)."""
    table = stacked_table({1: "4s 5s Ks"}, "6d Kd Kh", wager=525)
    table.stand(1)
    assert table.finish_dealer().seats[0].settlement.main_net == 525 - 25
    rules = SuperPan9Rules(smallest_chip_cents=1)
    table = stacked_table({1: "4s 5s Ks"}, "6d Kd Kh", wager=510, rules=rules)
    table.stand(1)
    assert table.finish_dealer().seats[0].settlement.main_net == 510 - 25
    rules = SuperPan9Rules(commission=Fraction(0))
    table = stacked_table({1: "4s 5s Ks"}, "6d Kd Kh", wager=525, rules=rules)
    table.stand(1)
    assert table.finish_dealer().seats[0].settlement.main_net == 525


@pytest.mark.parametrize("rounding", ["up", "half-up", "half-even"])
def test_super_pan_9_rule_8_a_rounding_above_the_rate_is_refused(rounding: str) -> None:
    """Rule 8: up to 5%: a rounding that charges some win more than 5% of it is refused."""
    with pytest.raises(RulesError, match="more than the posted 5%"):
        build_rules(SuperPan9Rules, {"commission_rounding": rounding})


@pytest.mark.parametrize("rate", ["6%", "-1%", "0.051"])
def test_super_pan_9_rule_8_commission_up_to_5_percent(rate: str) -> None:
    with pytest.raises(RulesError, match="commission"):
        build_rules(SuperPan9Rules, {"commission": rate})


# ----- rule 9: Tie Bet 8 to 1; a tie pushes the main wager ------------------------------------

def test_super_pan_9_rule_9_tie_bet_pays_8_to_1_and_main_pushes() -> None:
    table = stacked_table({1: "3s 3h Ks", 2: "4s 5s Ks"}, "6d Kd Kh", wager=1000, tie=500)
    table.stand(1)
    table.stand(2)
    settled = {s.seat: s.settlement for s in table.finish_dealer().seats}
    assert settled[1].outcome is Outcome.PUSH
    assert settled[1].main_net == 0 and settled[1].tie_net == 4000
    assert settled[2].tie_net == -500 and settled[2].main_net == 950


def test_super_pan_9_rule_9_a_tie_bet_paying_other_than_8_to_1_needs_a_modification() -> None:
    """Rule 9: "This bet pays 8 to 1"; other odds only as a named immaterial modification."""
    with pytest.raises(RulesError, match=r"tie_pays = 9 to 1 departs from Super Pan 9 rule 9"):
        build_rules(SuperPan9Rules, {"tie_pays": 9})
    assert build_rules(SuperPan9Rules, {"tie_pays": 9, "tie_bet_offered": False}).tie_pays == 9


def test_super_pan_9_rule_9_tie_bet_payout_and_offer_are_house_rules() -> None:
    rules = SuperPan9Rules(tie_pays=9, commission_on_tie_bet=True, modifications=(Modification(
        id="tie-nine", clause="rule 9", description="the Tie Bet pays 9 to 1",
        settings=("tie_pays",)),))
    table = stacked_table({1: "3s 3h Ks"}, "6d Kd Kh", wager=1000, tie=500, rules=rules)
    table.stand(1)
    s = table.finish_dealer().seats[0].settlement
    assert s.tie_net == 4500 - 225 and s.tie_commission == 225
    table = SuperPan9Table(SuperPan9Rules(tie_bet_offered=False), source=SeededRandom(1))
    assert "does not offer" in refused(table, WagerError, table.place_wager, 1, 1000, 100)
    table.place_wager(1, 1000)


# ----- irregularities -----------------------------------------------------------------------

def test_super_pan_9_irregularity_exposed_card_voids_that_hand_and_returns_wagers() -> None:
    table = stacked_table({1: "4s 5s Ks", 2: "Ks Kh Kc"}, "6d Kd Kh", wager=1000, tie=200)
    ev = table.record_irregularity(IrregularityKind.EXPOSED_CARD, 1, "Ks flashed on the deal")
    assert ev.voided_seats == (1,) and ev.returned == 1200
    assert "Ks flashed" in ev.detail and ev.policy == "void-and-return"
    assert table.to_act == 2
    assert "voided" in refused(table, IllegalActionError, table.stand, 1)
    table.stand(2)
    settled = {s.seat: s.settlement for s in table.finish_dealer().seats}
    assert settled[1].outcome is Outcome.VOID and settled[1].net == 0
    assert settled[1].returned == 1200
    assert settled[2].outcome is Outcome.LOSS


@pytest.mark.parametrize(("kind", "seat"), [
    (IrregularityKind.MISDEAL, None), (IrregularityKind.WRONG_CARD_COUNT, None),
    (IrregularityKind.EXPOSED_CARD, None),
])
def test_super_pan_9_irregularity_affecting_the_deal_voids_every_hand(
        kind: IrregularityKind, seat: int | None) -> None:
    table = stacked_table({1: "4s 5s Ks", 2: "Ks Kh Kc"}, "6d Kd Kh", wager=1000)
    ev = table.record_irregularity(kind, seat)
    assert ev.voided_seats == (1, 2) and ev.returned == 2000
    assert table.phase is Phase.COMPLETE
    refused(table, IllegalActionError, table.reveal)
    refused(table, IllegalActionError, table.record_irregularity, kind, seat)
    table.new_round()


def test_super_pan_9_irregularity_policy_void_round() -> None:
    rules = SuperPan9Rules(irregularity_policy=IrregularityPolicy.VOID_ROUND)
    table = stacked_table({1: "4s 5s Ks", 2: "Ks Kh Kc"}, "6d Kd Kh", rules=rules)
    ev = table.record_irregularity(IrregularityKind.WRONG_CARD_COUNT, 2, "seat 2 got 4 cards")
    assert ev.voided_seats == (1, 2) and ev.policy == "void-round"
    other = stacked_table({1: "4s 5s Ks"}, "6d Kd Kh")
    msg = refused(other, IllegalActionError, other.record_irregularity,
                  IrregularityKind.MISDEAL, 1)
    assert "misdeal affects the whole deal" in msg


# ----- the cut card ---------------------------------------------------------------------------

def test_super_pan_9_shoe_dealt_to_the_cut_card_then_reshuffled() -> None:
    rules = SuperPan9Rules(decks=2, cut_card_from_end=20)
    table = SuperPan9Table(rules, source=SeededRandom(9))
    reasons = []
    for _ in range(30):
        for seat in range(1, 6):
            table.place_wager(seat, 1000)
        before = len(table.events)
        table.deal()
        reasons += [e.reason for e in table.events[before:] if isinstance(e, ShoeShuffled)]
        while table.to_act is not None:
            table.draw(table.to_act)
        table.finish_dealer()
        assert table.shoe is not None and table.shoe.position <= len(table.shoe.order)
        table.new_round()
    assert reasons[0] == "new shoe" and len(reasons) > 2
    assert set(reasons[1:]) <= {"cut card reached", "too few cards left for a round"}
    assert "cut card reached" in reasons


# ----- hidden information --------------------------------------------------------------------

def test_super_pan_9_snapshot_hides_what_the_viewer_may_not_see() -> None:
    table = stacked_table({1: "4s 5s Ks", 2: "Ks Kh Kc"}, "6d Qd Jh", wager=1000)
    mine = table.snapshot(1)
    seats = {s["seat"]: s for s in mine["seats"]}
    assert seats[1]["cards"] == ["4s", "5s", "Ks"] and seats[1]["total"] == 9
    assert seats[2]["cards"] is None and seats[2]["total"] is None
    assert seats[2]["card_count"] == 3
    assert mine["dealer"]["cards"] is None and mine["dealer"]["total"] is None
    public = json.dumps(table.snapshot(None))
    for code in ("4s", "5s", "Kh", "Kc", "6d", "Qd", "Jh"):
        assert code not in public
    table.stand(1)
    table.stand(2)
    table.reveal()
    assert table.snapshot(2)["dealer"]["cards"] == ["6d", "Qd", "Jh"]
    assert {s["seat"]: s["cards"] for s in table.snapshot(2)["seats"]}[1] is None
    table.settle()
    after = {s["seat"]: s for s in table.snapshot(2)["seats"]}
    assert after[1]["cards"] == ["4s", "5s", "Ks"] and after[1]["result"] == "win"


def test_rule_5_the_engine_refuses_a_wager_the_stack_cannot_cover() -> None:
    """Rule 5, "players place a wager" from their chips (issue 20: the check lived in the room,
    the replay and the terminal): a seated player's wager and Tie Bet together must be covered
    by the chips in front of them, which the settlement then changes by the net."""
    table = SuperPan9Table(source=SeededRandom(5))
    table.sit(2, 1_500)
    with pytest.raises(WagerError, match=r"^your stack has \$15.00: it cannot cover \$16.00$"):
        table.place_wager(2, 1_000, 600)
    assert not table.seats
    table.place_wager(2, 1_000, 500)
    with pytest.raises(IllegalActionError, match="chips in play"):
        table.leave(2)
    table.deal()
    while (seat := table.to_act) is not None:
        table.stand(seat)
    settled = table.finish_dealer()
    assert table.chips[2] == 1_500 + settled.seats[0].settlement.net
    table.leave(2)
    assert table.chips == {}
