"""The table procedure, settlement and banking, clause by clause of pai-gow-poker.wsgc.txt."""

from __future__ import annotations

import pytest

from cardroom.cards import parse_cards
from cardroom.engine import RuleError, history_actions
from cardroom.errors import CardroomError, IllegalActionError, WagerError
from cardroom.games.pai_gow.limits import PaiGowTableRules
from cardroom.games.pai_gow.rules import DragonHand, FoulPolicy
from cardroom.games.pai_gow.settings import FoulSettingError
from cardroom.games.pai_gow.table import (
    DEALER,
    DECK,
    BankTaken,
    Collected,
    Dealt,
    Outcome,
    PaiGowTable,
    deal_line,
    position_of_spot,
    roll,
    spot_of_position,
    start_from_dice,
)

from .tables import DEALER_HAND, Script, machine_order, table


def test_rule_1_up_to_six_players() -> None:
    t = table()
    for seat in range(1, 7):
        t.sit(seat, 10_000)
    with pytest.raises(IllegalActionError, match="up to six players"):
        t.sit(7, 10_000)


def test_rule_4_line_deal_one_card_at_a_time_and_four_left() -> None:
    order = DECK.cards()
    hands, rest = deal_line(order, machine=False)
    assert hands[0] == [order[0], order[7], order[14], order[21], order[28], order[35],
                        order[42]]
    assert rest == order[49:] and len(rest) == 4


def test_rule_4_shuffle_machine_dispenses_seven_at_a_time() -> None:
    order = DECK.cards()
    hands, rest = deal_line(order, machine=True)
    assert hands[1] == order[7:14] and len(rest) == 4


def test_rule_4_remaining_four_verified_and_discarded() -> None:
    t = table()
    t.sit(1, 10_000)
    t.place_wager(1, 100)
    t.deal(Script([0]), machine_order(DEALER_HAND))
    collected = next(e for e in t.events if isinstance(e, Collected))
    assert len(collected.remainder) == 4
    t2 = table()
    t2.sit(1, 10_000)
    t2.place_wager(1, 100)
    bad = [*DECK.cards()[:-1], DECK.cards()[0]]  # a card missing, one twice
    with pytest.raises(IllegalActionError, match="not the 53-card"):
        t2.deal(Script([0]), bad)
    assert t2.phase.value == "betting"  # nothing changed


def test_rule_5_positions_numbered_from_banker_counter_clockwise() -> None:
    assert [position_of_spot(s, DEALER) for s in range(7)] == [1, 2, 3, 4, 5, 6, 7]
    # a player at seat 3 banks: that seat is one, the dealer's spot five
    assert position_of_spot(3, 3) == 1 and position_of_spot(4, 3) == 2
    assert position_of_spot(DEALER, 3) == 5
    assert all(spot_of_position(position_of_spot(s, 3), 3) == s for s in range(7))


@pytest.mark.parametrize(("dice", "position"), [
    ((1, 1, 1), 3), ((2, 2, 3), 7), ((2, 3, 3), 1), ((6, 6, 6), 4), ((6, 6, 5), 3)])
def test_rule_5_three_dice_counted_from_banker_as_one(dice: tuple[int, ...],
                                                      position: int) -> None:
    """Counting positions 1, 2, ... 7, 1, ... (open seats included) until the dice sum."""
    assert start_from_dice(dice) == position


def test_rule_5_deal_starts_at_dice_position_and_collects_unoccupied() -> None:
    t = table(use_dice=True)
    t.sit(1, 10_000)
    t.sit(3, 10_000)
    t.place_wager(1, 100)
    t.place_wager(3, 100)
    order = DECK.cards()
    dealt = t.deal(Script([0, 0, 1]), order)  # dice 1, 1, 2: sum 4 -> position 4 first
    assert dealt.dice == (1, 1, 2) and dealt.start_position == 4
    assert dealt.hands[3] == tuple(order[:7])  # position 4 got the first packet
    assert dealt.hands[4] == tuple(order[7:14])  # then counter-clockwise
    collected = next(e for e in t.events if isinstance(e, Collected))
    # occupied: dealer (position 1), seat 1 (2), seat 3 (4); the rest go to the rack
    assert collected.positions == (3, 5, 6, 7)
    assert set(t.hands) == {DEALER, 1, 3}
    assert t.hands[3] == tuple(order[:7])


def test_rule_5_start_from_rng_without_dice() -> None:
    t = table()
    t.sit(1, 10_000)
    t.place_wager(1, 100)
    dealt = t.deal(Script([6]), DECK.cards())
    assert isinstance(dealt, Dealt) and dealt.start_position == 7 and dealt.dice == ()


def _dealt(player: str, **rules: object) -> PaiGowTable:
    t = table(**rules)
    t.sit(1, 10_000)
    t.place_wager(1, 1_000)
    t.deal(Script([0]), machine_order(DEALER_HAND, player))  # position 1 dealer, 2 seat 1
    return t


def test_rule_10_both_hands_win_even_money_less_commission() -> None:
    t = _dealt("As Ad Kc Qh 8s 6d 4c")
    t.set_hand(1, parse_cards("Kc Qh"))  # K-Q beats Q-9, aces beat king-high
    result = t.settle().results[0]
    assert result.outcome is Outcome.WIN
    assert result.commission == 50 and result.net == 950  # 5% of 1,000 cents
    assert t.chips[1] == 10_950


def test_rule_10_one_wins_one_loses_is_a_push() -> None:
    t = _dealt("As Ad 8c 6h 4s Jc Tc")
    t.set_hand(1, parse_cards("Jc Tc"))  # J-T loses to Q-9, aces win
    assert t.settle().results[0].outcome is Outcome.PUSH
    assert t.chips[1] == 10_000


def test_rule_10_both_lose_loses_the_wager() -> None:
    t = _dealt("Jh 9h 8d 6s 4h 3c 2d")
    t.set_hand(1, parse_cards("9h 8d"))
    assert t.settle().results[0].outcome is Outcome.LOSS
    assert t.chips[1] == 9_000


def test_rule_10_copies_go_to_the_banker() -> None:
    """Q-9 against the dealer's Q-9 front is the dealer's; the back wins: a push, not a win."""
    t = _dealt("Qs 9c Ac Ah 8h 6c 4d")
    t.set_hand(1, parse_cards("Qs 9c"))
    assert t.settle().results[0].outcome is Outcome.PUSH


@pytest.mark.parametrize(("chip", "wager", "commission"), [(1, 30, 1), (25, 1_025, 50),
                                                            (100, 1_900, 0)])
def test_rule_10_commission_never_above_5_percent_of_the_win(chip: int, wager: int,
                                                            commission: int) -> None:
    """Rule 10 note: "up to a 5% commission", rounded down to the table's smallest chip (the
    house waives the rest): at a 1-cent chip 5% of a 30-cent win is 1.5 cents, charged 1,
    never the 2 that rounding up would take (6.7% of the win); at the default quarter, 5% of
    $10.25 is 51.25 cents, charged two quarters; at a $1 chip, 5% of $19 is 95 cents, less
    than a chip: nothing is charged."""
    t = table(smallest_chip_cents=chip)
    t.sit(1, 10_000)
    t.place_wager(1, wager)
    t.deal(Script([0]), machine_order(DEALER_HAND, "As Ad Kc Qh 8s 6d 4c"))
    t.set_hand(1, parse_cards("Kc Qh"))
    r = t.settle().results[0]
    assert (r.commission, r.net) == (commission, wager - commission)


def test_rule_6_foul_hand_loses_by_default_policy() -> None:
    t = _dealt("As Ad Kc Qh 8s 6d 4c")
    event = t.set_hand(1, parse_cards("As Ad"))  # aces front, K-Q-8-6-4 back: foul
    assert event.foul
    assert t.settle().results[0].outcome is Outcome.LOSS


def test_rule_6_foul_refused_or_reset_by_other_policies() -> None:
    t = _dealt("As Ad Kc Qh 8s 6d 4c", foul_policy=FoulPolicy.REFUSE)
    with pytest.raises(FoulSettingError):
        t.set_hand(1, parse_cards("As Ad"))
    assert 1 not in t.settings  # nothing changed
    t2 = _dealt("As Ad Kc Qh 8s 6d 4c", foul_policy=FoulPolicy.RESET_HOUSE_WAY)
    event = t2.set_hand(1, parse_cards("As Ad"))
    assert event.house_way and not event.foul and set(event.setting.front) == set(
        parse_cards("Kc Qh"))


def test_rule_6_note_player_may_ask_for_the_house_way() -> None:
    t = _dealt("As Ad Kc Qh 8s 6d 4c")
    event = t.ask_house_way(1)
    assert event.house_way and set(event.setting.front) == set(parse_cards("Kc Qh"))


def test_rule_8_dealer_sets_the_house_way() -> None:
    t = _dealt("As Ad Kc Qh 8s 6d 4c")
    t.set_hand(1, parse_cards("Kc Qh"))
    settled = t.settle()
    assert set(settled.banker_setting.front) == set(parse_cards("Qd 9s"))


def test_rule_9_no_setting_after_the_reveal_and_all_hands_set_first() -> None:
    t = _dealt("As Ad Kc Qh 8s 6d 4c")
    with pytest.raises(IllegalActionError, match="not set"):
        t.settle()
    t.set_hand(1, parse_cards("Kc Qh"))
    t.settle()
    with pytest.raises(IllegalActionError):
        t.set_hand(1, parse_cards("Kc 8s"))


def test_rule_7_dragon_hand_only_if_the_house_allows() -> None:
    t = table()
    t.sit(1, 10_000)
    t.place_wager(1, 100)
    with pytest.raises(IllegalActionError, match="does not allow dragon"):
        t.take_dragon(1, 4, 100)
    t = table(dragon_hand=DragonHand.HOUSE_WAY)
    t.sit(1, 10_000)
    t.place_wager(1, 1_000)
    t.take_dragon(1, 2, 500)  # spot 2 is open: position 3
    t.deal(Script([0]), machine_order(DEALER_HAND, "Jh 9h 8d 6s 4h 3c 2d",
                                      "As Ad Kc Qh 8s 6d 4c"))
    assert 2 in t.settings and t.settings[2].house_way and t.settings[2].dragon
    with pytest.raises(IllegalActionError, match="already set"):
        t.set_hand(2, parse_cards("Kc Qh"))  # the house set it the house way
    t.set_hand(1, parse_cards("9h 8d"))
    results = {r.spot: r for r in t.settle().results}
    assert results[2].dragon and results[2].outcome is Outcome.WIN
    assert results[1].outcome is Outcome.LOSS
    assert t.chips[1] == 10_000 - 1_000 + 475


def test_clauses_10_and_7_a_wager_and_its_dragon_hand_come_back_until_the_deal() -> None:
    """Wagers are made before the deal (clause 10, wagers); the dragon hand is bought beside
    the player's own wager (clause 7), so taking the wager back takes the dragon hand too, and
    the history derived from the log keeps neither. After the deal the engine refuses."""
    t = table(dragon_hand=DragonHand.HOUSE_WAY)
    t.sit(1, 10_000)
    t.sit(3, 10_000)
    t.place_wager(1, 1_000)
    t.take_dragon(1, 2, 500)
    t.place_wager(3, 700)
    with pytest.raises(IllegalActionError, match="no wager on this hand to change"):
        t.withdraw_wagers(4)
    assert t.withdraw_wagers(1).returned == 1_500
    assert t.wagers == {3: 700} and t.dragon is None and not t.can_withdraw_wagers(1)
    assert [a["type"] for a in history_actions(t.events)] == ["wager"]
    t.place_wager(1, 200)
    t.deal(Script([0]), DECK.cards())
    with pytest.raises(IllegalActionError, match="dealt"):
        t.withdraw_wagers(3)


def _play_house_hand(t: PaiGowTable) -> None:
    t.deal(Script([0]), DECK.cards())
    for spot in t._player_spots():
        if spot not in t.settings:
            t.ask_house_way(spot)
    t.settle()
    t.next_hand()


def test_banking_house_banks_at_least_every_other_hand_and_banker_covers() -> None:
    t = table()
    t.sit(1, 100_000)
    t.sit(2, 1_000)
    t.place_wager(1, 2_000)
    t.place_wager(2, 500)
    with pytest.raises(WagerError, match="previous hand"):
        t.bank(1)  # the dealer's stake is seat 1's previous wager: there was none
    _play_house_hand(t)
    t.place_wager(1, 2_000)
    with pytest.raises(WagerError, match=r"^seat 2 cannot cover the wagers: needs \$25.00 to "
                                         r"pay every winning wager, has \$10.00$"):
        t.bank(2)  # 1,000 in chips cannot cover seat 1's 2,000 and the dealer's 500 (in
        # dollars: a person reads it on the table's page)
    assert t.banker_spot == DEALER
    t.wagers.clear()
    t.place_wager(2, 500)
    t.bank(1)
    assert t.banker_spot == 1
    _play_house_hand(t)
    t.place_wager(1, 1_000)
    with pytest.raises(WagerError, match="every other hand"):
        t.bank(2)
    assert not t.can_bank(1)


def _seat_1_banks(chips_2: int, wager_1: int, wager_2: int) -> tuple[PaiGowTable, BankTaken]:
    """Seat 1 (100,000 in chips) and seat 2 play a house-banked hand, seat 2 wagers again and
    seat 1 takes the bank (the house dealer then wagers seat 1's last wager)."""
    t = table()
    t.sit(1, 100_000)
    t.sit(2, chips_2)
    t.place_wager(1, wager_1)
    t.place_wager(2, wager_2)
    _play_house_hand(t)
    t.place_wager(2, wager_2)
    return t, t.bank(1)


def test_banking_one_banker_button_a_hand() -> None:
    """Banking clause: a "Banker" button is placed in front of the player who banks; there is
    one a hand, so the banker cannot take it again (no second BankTaken) and no other seat can
    take it from the banker."""
    t, _ = _seat_1_banks(100_000, 1_000, 1_000)
    events = len(t.events)
    with pytest.raises(IllegalActionError, match="already hold the bank"):
        t.bank(1)
    with pytest.raises(IllegalActionError, match="seat 1 holds the bank"):
        t.bank(2)
    assert t.banker_spot == 1 and t.wagers == {2: 1_000} and len(t.events) == events
    assert not t.can_bank(1) and not t.can_bank(2)


def test_banking_dealer_plays_previous_wager_and_commission_on_bankers_net_win() -> None:
    t, taken = _seat_1_banks(10_000, 2_000, 500)
    assert taken.dealer_wager == 2_000
    chips1 = t.chips[1]
    # positions from the banker (seat 1): 1 seat 1, 2 seat 2, ..., 7 dealer (spot 0)
    banker = "As Ad Ac Kh Kd Qc Qs"  # sets to trips of aces? three aces: pair back, A front
    order = machine_order(banker, "Jh 9h 8d 6s 4h 3c 2d", "", "", "", "", "7h 5c 4d 3s 2h Th 8c")
    t.deal(Script([0]), order)
    assert t.hands[1] == tuple(parse_cards(banker))
    assert t.hands[DEALER] == tuple(parse_cards("7h 5c 4d 3s 2h Th 8c"))
    t.ask_house_way(1)
    t.set_hand(2, parse_cards("9h 8d"))
    settled = t.settle()
    outcomes = {r.spot: r.outcome for r in settled.results}
    assert outcomes == {2: Outcome.LOSS, DEALER: Outcome.LOSS}
    assert settled.banker_net == 2_500
    assert settled.banker_commission == 125  # 5% of the bank's net win
    assert t.chips[1] == chips1 + 2_375


def test_bad_wagers_refused_and_change_nothing() -> None:
    t = table()
    t.sit(1, 1_000)
    for amount, msg in [(0, "positive"), (5_000, "cannot wager")]:
        with pytest.raises(CardroomError, match=msg):
            t.place_wager(1, amount)
    with pytest.raises(CardroomError, match="whole number of cents"):
        t.place_wager(1, 10.5)  # type: ignore[arg-type]
    assert t.wagers == {} and t.events == []


def test_snapshot_hides_other_hands_until_settled() -> None:
    t = _dealt("As Ad Kc Qh 8s 6d 4c")
    view = t.snapshot(1)
    assert view["hands"] == {DEALER: "hidden", 1: "As Ad Kc Qh 8s 6d 4c"}  # type: ignore[comparison-overlap]
    t.set_hand(1, parse_cards("Kc Qh"))
    t.settle()
    assert "hidden" not in str(t.snapshot(1)["hands"])


def test_rule_3_deck_shuffled_by_the_house_or_dealt_by_a_shuffle_machine() -> None:
    """Clause 3: dealer shuffle or an approved shuffle machine: either way the whole 53-card
    deck is shuffled uniformly (Fisher-Yates on the given source; the CSPRNG in production)
    and the mode is recorded in the deal event."""
    from cardroom.shoe import SeededRandom

    for machine in (False, True):
        t = table(shuffle_machine=machine)
        t.sit(1, 1_000)
        t.place_wager(1, 100)
        dealt = t.deal(SeededRandom(7))
        assert dealt.machine is machine
        collected = next(e for e in t.events if isinstance(e, Collected))
        cards = [c for h in dealt.hands for c in h] + list(collected.remainder)
        assert sorted(cards) == sorted(DECK.cards())


def test_irregularities_incomplete_deck_refused_before_any_hand_is_dealt() -> None:
    """Irregularities (incorrect number of cards): a deck of 52 is refused; nothing changes."""
    t = table()
    t.sit(1, 1_000)
    t.place_wager(1, 100)
    with pytest.raises(IllegalActionError, match="53-card"):
        t.deal(Script([0]), DECK.cards()[:52])
    assert t.events[-1].__class__.__name__ == "WagerPlaced" and t.hands == {}


def test_rule_5_the_wheel_is_one_roll_and_a_recorded_one_is_checked() -> None:
    """Clause 5: `roll` is the deal's one chance outcome (three dice and the position they
    give the first hand, or the position drawn without dice); a deal given a recorded wheel
    (a replay) uses it, and one whose dice do not give its start position is refused with the
    deal's clause, changing nothing."""
    assert roll(Script([0, 0, 1]), use_dice=True) == ((1, 1, 2), 4)
    assert roll(Script([6]), use_dice=False) == ((), 7)
    t = table(use_dice=True)
    t.sit(1, 10_000)
    t.place_wager(1, 100)
    with pytest.raises(RuleError) as e:
        t.deal(order=DECK.cards(), wheel=((1, 1, 2), 5))
    assert e.value.clause.startswith("clauses 4, 5") and not t.hands
    dealt = t.deal(order=DECK.cards(), wheel=((6, 6, 6), start_from_dice((6, 6, 6))))
    assert dealt.dice == (6, 6, 6) and dealt.start_position == 4  # 18 counted round twice


def test_clause_10_the_engine_takes_one_wager_a_seat_within_the_table_limits() -> None:
    """Clause 10 (wagers) and the posted wagering limits (WAC 230-15-140): the engine itself,
    not only the room, refuses a second wager from one seat, and a $9,000 wager or a $5 dragon
    hand at a $10-$1,000 table (issue 20); the replay of such a history is refused by the same
    engine check, with the sentence the room shows."""
    t = PaiGowTable(PaiGowTableRules(min_wager_cents=1_000, max_wager_cents=100_000,
                                     dragon_hand=DragonHand.PLAYER_SETS,
                                     shuffle_machine=True, use_dice=False))
    t.sit(1, 2_000_000)
    with pytest.raises(WagerError, match=r"^a wager of \$9,000.00 is outside the table limits, "
                                         r"\$10.00 to \$1,000.00$"):
        t.place_wager(1, 900_000)
    t.place_wager(1, 1_000)
    with pytest.raises(WagerError, match=r"^you already have a wager on this hand$"):
        t.place_wager(1, 2_000)
    with pytest.raises(WagerError, match=r"^a dragon-hand wager of \$5.00 is outside"):
        t.take_dragon(1, 4, 500)
    assert t.wagers == {1: 1_000} and t.dragon is None


def test_banking_a_new_wager_must_be_covered_by_the_player_banker() -> None:
    """Banking clause: "The player-banker must have enough chips in front of them to payoff all
    potential winning wagers": the engine refuses a wager or dragon hand the bank cannot
    cover, and the dragon hand's player may not bank against it (issue 20: these lived in the
    room only)."""
    t, _ = _seat_1_banks(100_000, 1_000, 1_000)
    t.sit(3, 200_000)
    assert t.exposure(1) == 2_000  # seat 2's wager and the house dealer's
    with pytest.raises(WagerError, match=r"^the player-banker cannot cover this wager: the "
                                         r"bank needs \$1,020.00, has \$1,000.00$"):
        t.place_wager(3, 100_000)
    t.place_wager(3, 98_000)
    assert t.exposure(1) == 100_000 and t.chips[1] == 100_000
    d = table(dragon_hand=DragonHand.PLAYER_SETS)
    d.sit(2, 10_000)
    d.place_wager(2, 1_000)
    d.take_dragon(2, 5, 1_000)
    d.last_wagers[2] = 1_000
    with pytest.raises(IllegalActionError, match=r"^you play the dragon hand: you cannot bank "
                                                  r"against it$"):
        d.bank(2)


def test_a_seat_with_chips_in_the_hand_cannot_leave() -> None:
    """The engine keeps a seat with a wager (or the bank) until the hand settles; a seat that
    leaves takes its last wager (the house dealer's stake were it to bank) with it."""
    t = table()
    t.sit(1, 10_000)
    t.place_wager(1, 1_000)
    with pytest.raises(IllegalActionError, match="chips in play"):
        t.leave(1)
    t.withdraw_wagers(1)
    t.leave(1)
    assert 1 not in t.chips and t.open_spots() == [1, 2, 3, 4, 5, 6]


def offered(t: PaiGowTable, seat: int, name: str) -> bool:
    """Whether the engine lists `name` among `seat`'s legal actions (issue 24)."""
    return any(a.name == name for a in t.legal_actions(seat))


def test_rule_7_the_engine_says_who_may_take_the_dragon_hand_and_which_hands_a_seat_sets(
) -> None:
    """Clause 7 (dragon hand): a player with a wager on their own hand may take the dragon
    hand before the deal, one a hand, not after a misdeal (the same wagers are dealt again),
    with chips for a second wager; clause 6: each player sets their own hand, and the dragon
    hand too where the player sets it. The room offers what the engine's legal actions say
    (`take_dragon`, `ask_house_way` for each spot to set), issue 24."""
    t = table(dragon_hand=DragonHand.PLAYER_SETS)
    t.sit(1, 10_000)
    t.sit(3, 10_000)
    t.sit(5, 1_000)
    assert not offered(t, 1, "take_dragon")  # no wager on its own hand yet
    t.place_wager(1, 1_000)
    t.place_wager(3, 1_000)
    t.place_wager(5, 1_000)
    assert offered(t, 1, "take_dragon") and offered(t, 3, "take_dragon")
    assert not offered(t, 5, "take_dragon")  # every chip on its own hand: none for a second
    assert t.spots_to_set(1) == []  # nothing is set before the deal
    t.take_dragon(1, 2, 500)
    assert not offered(t, 1, "take_dragon") and not offered(t, 3, "take_dragon")  # one a hand
    t.withdraw_wagers(5)
    t.deal(Script([0]), machine_order(DEALER_HAND, "Jh 9h 8d 6s 4h 3c 2d",
                                      "As Ad Kc Qh 8s 6d 4c"))
    assert not offered(t, 3, "take_dragon")  # after the deal
    assert t.spots_to_set(1) == [1, 2] and t.spots_to_set(3) == [3] and t.spots_to_set(5) == []
    assert [a.args[0] for a in t.legal_actions(1) if a.name == "ask_house_way"] == [1, 2]
    t.ask_house_way(2)
    assert t.spots_to_set(1) == [1]
    t.declare_misdeal("box jam")
    assert t.wagers == {1: 1_000, 3: 1_000} and not offered(t, 3, "take_dragon")
    with pytest.raises(RuleError, match="after a misdeal"):
        t.verify_dragon_for(3)
    assert t.spots_to_set(1) == []

    house_sets = table(dragon_hand=DragonHand.HOUSE_WAY)
    house_sets.sit(1, 10_000)
    house_sets.place_wager(1, 1_000)
    house_sets.take_dragon(1, 2, 500)
    house_sets.deal(Script([0]), machine_order(DEALER_HAND, "Jh 9h 8d 6s 4h 3c 2d",
                                               "As Ad Kc Qh 8s 6d 4c"))
    assert house_sets.spots_to_set(1) == [1]  # the house sets the dragon hand
