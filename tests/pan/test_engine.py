"""The turn engine: the deal, tops, declarations, the turn, melds, pays, going out
(reference/panguingue.md) and the house rules' declarations and pays."""

from __future__ import annotations

import pytest

from cardroom.games.pan import errors as R
from cardroom.games.pan.engine import PanHand, Phase, SeatSpec, Status
from cardroom.games.pan.errors import PanRuleError
from cardroom.games.pan.events import ChipsMoved, CollectionLost, Drew
from cardroom.games.pan.rules import PanRules

from .helpers import GO_OUT, all_play, c, cs, make_hand, spread_to_go_out, stacked_pack

H0 = "3c 3c 4h 5h Kd Qc 2s 6d 7d Js"
H1 = "Ac 2c 6h 6h 4s 4s Jd Jd 7s Qh"
H2 = "Kh Kh 5c 5d 2h 2d 6c 4c Qs Ks"


def three(stock: str = "3c 3c 4d 4d 4d", **kw: object) -> PanHand:
    return make_hand([H0, H1, H2], stock, **kw)  # type: ignore[arg-type]


def test_pan_table_2_to_15_seats() -> None:
    """Seating: a table of 2 to 15 seats."""
    with pytest.raises(PanRuleError, match="2 to 15"):
        make_hand([H0])
    pack = stacked_pack([H0] * 1 + [H1] * 0, "")
    with pytest.raises(PanRuleError, match="2 to 15"):
        PanHand(PanRules(), [SeatSpec(f"p{i}", 20) for i in range(16)], 0, pack * 2)


def test_pan_deal_to_the_right_two_rounds_of_five_from_first_hand() -> None:
    """The first hand is the player on the dealer's right; two rounds of five."""
    pack = stacked_pack([H0, H1, H2], "", first_hand=1)
    hand = PanHand(PanRules(), [SeatSpec(f"p{i}", 20) for i in range(3)], 0, pack)
    assert hand.first_hand == 1
    assert hand.order == [1, 2, 0]
    # the first five cards of the pack went to seat 1, the next five to seat 2
    assert hand.seats[1].hand[:5] == pack[:5]
    assert hand.seats[2].hand[:5] == pack[5:10]
    assert hand.seats[0].hand[:5] == pack[10:15]
    assert hand.seats[1].hand[5:] == pack[15:20]
    assert [len(s.hand) for s in hand.seats.values()] == [10, 10, 10]
    assert len(hand.stock) == 320 - 30


def test_pan_tops_one_chip_each_before_the_deal() -> None:
    hand = three()
    assert [s.chips for s in hand.seats.values()] == [19, 19, 19]
    assert hand.tops_single == 3


def test_pan_house_rule_9_declare_play_or_pass_in_order() -> None:
    hand = three()
    with pytest.raises(PanRuleError, match="declares next") as e:
        hand.declare(1, True)
    assert e.value.rule == R.FOUL_9


def test_pan_knock_in_turn_means_play() -> None:
    hand = three()
    hand.knock(0)
    assert hand.seats[0].declared is True


def test_pan_declaration_may_change_until_next_player_acts() -> None:
    hand = three()
    hand.declare(0, False)
    assert hand.can_change_declaration(0)
    hand.change_declaration(0)
    assert hand.seats[0].status is Status.IN
    hand.declare(1, True)
    with pytest.raises(PanRuleError, match="next player has acted"):
        hand.change_declaration(0)


def test_pan_last_player_may_not_change_after_first_card_drawn() -> None:
    hand = three()
    all_play(hand)
    assert hand.can_change_declaration(2)
    hand.draw(0)
    with pytest.raises(PanRuleError, match="first card has been drawn"):
        hand.change_declaration(2)


def test_pan_passer_loses_top_and_takes_no_part() -> None:
    hand = three()
    hand.declare(0, True)
    hand.declare(1, False)
    hand.declare(2, True)
    assert hand.seats[1].status is Status.PASSED
    assert hand.seats[1].chips == 19
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    assert hand.seats[1].chips == 19  # not liable: no part in the hand
    assert hand.seats[2].chips == 17


def test_pan_option_pass_forfeit_chips() -> None:
    hand = three(rules=PanRules(pass_forfeit_chips=2))
    hand.declare(0, True)
    hand.declare(1, False)
    assert hand.seats[1].chips == 17
    assert hand.tops_single == 5


def test_pan_every_player_but_one_passes_that_player_takes_the_tops() -> None:
    hand = three()
    hand.declare(0, False)
    hand.declare(1, False)
    hand.declare(2, True)
    assert hand.phase is Phase.COMPLETE
    assert hand.winner == 2
    assert [s.chips for s in hand.seats.values()] == [19, 19, 22]


def test_pan_turn_1_draw_is_exposed_to_everyone() -> None:
    hand = three()
    all_play(hand)
    hand.draw(0)
    assert isinstance(hand.events[-1], Drew)
    for viewer in (1, 2, None):
        assert hand.snapshot(viewer)["drawn"] == "3c"


def test_pan_draw_out_of_turn_refused_and_changes_nothing() -> None:
    hand = three()
    all_play(hand)
    before = hand.snapshot(None)
    with pytest.raises(PanRuleError, match="seat 0's turn"):
        hand.draw(1)
    assert hand.snapshot(None) == before


def test_pan_turn_2_drawn_card_never_goes_into_the_hand() -> None:
    hand = three("Kc")
    all_play(hand)
    hand.draw(0)
    with pytest.raises(PanRuleError, match="never goes into the hand") as e:
        hand.discard(0, c("Qc"))
    assert e.value.rule == R.TURN_2
    with pytest.raises(PanRuleError, match="must be melded at once or discarded"):
        hand.meld(0, cs("4h 5h 6d"))
    hand.discard(0, c("Kc"))
    assert len(hand.seats[0].hand) == 10


def test_pan_turn_1_take_previous_players_unused_stock_card_only_to_meld_it() -> None:
    hand = three("3s Jd")
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("3s"))
    # seat 1 cannot meld 3s (no 3s, no 2s-4s): may not take it
    assert not hand.can_take(1)
    hand.draw(1)
    hand.meld(1, cs("Jd Jd"), use_drawn=True)
    hand.discard(1, c("Qh"))
    # a card discarded from the hand is dead
    with pytest.raises(PanRuleError, match="dead"):
        hand.take(2)


def test_pan_turn_1_taken_card_must_be_melded_not_discarded() -> None:
    hand = three("Jd")
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Jd"))
    hand.take(1)
    with pytest.raises(PanRuleError, match="melded at once"):
        hand.discard(1, c("Jd"))
    hand.meld(1, cs("Jd Jd"), use_drawn=True)
    hand.discard(1, c("Qh"))
    assert hand.seats[1].card_count == 10


def test_pan_turn_4_exactly_one_discard_then_next_player() -> None:
    hand = three("Kc")
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Kc"))
    assert hand.current == 1
    with pytest.raises(PanRuleError):
        hand.discard(0, c("Qc"))


def test_pan_melds_invalid_meld_refused() -> None:
    hand = three("3s")
    all_play(hand)
    hand.draw(0)
    with pytest.raises(PanRuleError, match="no meld") as e:
        hand.meld(0, cs("3c 3c"), use_drawn=True)  # 3c 3c 3s breaks the suit rule
    assert e.value.rule == R.MELDS
    assert hand.drawn == c("3s")
    assert len(hand.seats[0].hand) == 10


def test_pan_conditions_paid_by_every_player_still_in_when_laid_down() -> None:
    hand = three()
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    assert [s.chips for s in hand.seats.values()] == [23, 17, 17]


def test_pan_house_pays_rule_1_collections_lost_if_not_called_before_discard() -> None:
    hand = three()
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.discard(0, c("Js"))
    assert [s.chips for s in hand.seats.values()] == [19, 19, 19]
    assert any(isinstance(e, CollectionLost) for e in hand.events)


def test_pan_house_pays_rule_5_table_stakes_and_owed_chips() -> None:
    """Nobody collects more than he has on the table; the balance is owed and asked for
    (commensurate with his chips) each time his hand is hit."""
    hand = three("3c Kc Kc 3c", chips=[2, 20, 20])
    all_play(hand)
    assert hand.seats[0].chips == 1
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)  # worth 2 from each, stake 1
    hand.collect(0)
    assert [s.chips for s in hand.seats.values()] == [3, 18, 18]
    assert hand.seats[0].owed == {1: 1, 2: 1}
    hand.discard(0, c("Js"))
    hand.draw(1)
    hand.discard(1, c("Kc"))
    hand.draw(2)
    hand.discard(2, c("Kc"))
    hand.draw(0)
    hand.lay_off(0, 0, None)  # adding to the valle set pays 1, plus the 1 owed
    hand.collect(0)
    assert [s.chips for s in hand.seats.values()] == [7, 16, 16]
    assert not hand.seats[0].owed




def _going_out(rules: PanRules | None = None) -> PanHand:
    hand = make_hand([GO_OUT, H1, H2], "Jd", rules=rules)
    all_play(hand)
    spread_to_go_out(hand, 0)
    return hand


def test_pan_turn_5_going_out_eleven_melded_no_discard_tops_and_outs() -> None:
    """Going out takes the tops and two chips from every player still in."""
    hand = _going_out()
    with pytest.raises(PanRuleError):
        hand.discard(0, c("Qd"))
    hand.go_out(0)
    assert hand.phase is Phase.COMPLETE and hand.winner == 0
    # 19 + 2 + 2 (conditions A-2-3 and 4h 4h 4h from each) + 2 + 2 (outs) + 3 (tops)
    assert [s.chips for s in hand.seats.values()] == [30, 15, 15]


def test_pan_option_outs_chips_and_repay_conditions_on_out() -> None:
    hand = _going_out(PanRules(outs_chips=0))
    hand.go_out(0)
    assert [s.chips for s in hand.seats.values()] == [26, 17, 17]
    hand = _going_out(PanRules(repay_conditions_on_out=True))
    hand.go_out(0)
    assert [s.chips for s in hand.seats.values()] == [34, 13, 13]


def test_pan_go_out_refused_with_cards_in_hand() -> None:
    hand = make_hand([GO_OUT, H1, H2], "Jd")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("5d 6d 7d"), use_drawn=True)
    with pytest.raises(PanRuleError, match=r"eleven|all ten") as e:
        hand.go_out(0)
    assert e.value.rule == R.TURN_5


def test_pan_house_pays_rule_5c_no_pyramiding_outs_capped_before_tops() -> None:
    """Tops may not build up a player's chips to justify higher pay on the outs."""
    hand = make_hand([GO_OUT, H1, H2], "Jd", chips=[1, 20, 20], rules=PanRules())
    all_play(hand)
    assert hand.seats[0].chips == 0
    hand.draw(0)
    hand.meld(0, cs("5d 6d 7d"), use_drawn=True)
    hand.lay_off(0, 0, c("Qd"))
    hand.meld(0, cs("4h 4h 4h"))   # pays 1 each, but he has no chips on the table
    hand.meld(0, cs("Ac 2c 3c"))
    hand.go_out(0)
    # collected nothing (stake 0), outs capped at 0, tops 3
    assert [s.chips for s in hand.seats.values()] == [3, 19, 19]


def test_pan_borrowing_leaves_a_valid_meld_3_or_6_not_both() -> None:
    hand = make_hand(["3h 4h 5h 3s 3d Kd Qc 2s 6d 7d", H1, H2], "6h")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3h 4h 5h"), use_drawn=True)
    with pytest.raises(PanRuleError, match="still be a valid meld") as e:
        hand.borrow(0, 0, cs("3h 6h"), cs("3s"))
    assert e.value.rule == R.BORROWING
    hand.borrow(0, 0, cs("3h"), cs("3s 3d"))
    assert [m.cards for m in hand.seats[0].melds] == [cs("4h 5h 6h"), cs("3d 3h 3s")]
    assert hand.seats[0].pending == [(1, "laid down by borrowing")]


def test_pan_splitting_each_part_valid() -> None:
    """4-5-6-7 plus a 3 and a J split into 3-4-5 and 6-7-J."""
    hand = make_hand(["3h 4h 5h 6h 7h Kd Qc 2s 6d 7d", H1, H2], "Jh")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3h 4h 5h 6h 7h"), use_drawn=True)
    with pytest.raises(PanRuleError, match="valid meld"):
        hand.split(0, 0, cs("3h 4h"))
    hand.split(0, 0, cs("6h 7h Jh"))
    assert [m.cards for m in hand.seats[0].melds] == [cs("3h 4h 5h"), cs("6h 7h Jh")]


def test_pan_melds_are_the_players_own_no_lay_off_on_another() -> None:
    hand = three("3c 4s")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.discard(0, c("Js"))
    hand.draw(1)
    # seat 1 has no meld 0 of its own; it cannot reach seat 0's
    with pytest.raises(PanRuleError, match="no meld"):
        hand.lay_off(1, 0, None)


def test_pan_cards_in_hand_plus_melded_is_ten_after_every_turn() -> None:
    hand = three()
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.discard(0, c("Js"))
    assert hand.seats[0].card_count == 10


def test_pan_house_double_condition_separate_double_antes_and_double_pay() -> None:
    rules = PanRules(allow_double_condition=True)
    hand = three(rules=rules, chips=[40, 40, 20], doubles=[True, True, False])
    assert (hand.tops_single, hand.tops_double) == (3, 2)
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    assert [s.chips for s in hand.seats.values()] == [38 + 6, 38 - 4, 19 - 2]


def test_pan_house_double_condition_not_allowed_by_default() -> None:
    with pytest.raises(PanRuleError, match="straight condition"):
        three(doubles=[True, False, False])


def test_pan_house_double_condition_down_to_one_chip_collects_single() -> None:
    rules = PanRules(allow_double_condition=True)
    hand = make_hand([H0, H1, H2], "3c", rules=rules, chips=[40, 40, 20],
                     doubles=[True, True, False])
    all_play(hand)
    hand.seats[0].chips = 1   # down to one chip (lost in the hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    assert hand.seats[1].chips == 38 - 1  # single rate, capped at his one chip


def test_pan_stock_runs_out_discards_but_top_form_new_stock() -> None:
    hand = three()
    all_play(hand)
    hand.stock = [c("Kc"), c("Qc")][::-1]
    hand.draw(0)
    hand.discard(0, c("Kc"))
    hand.draw(1)
    hand.discard(1, c("Qc"))
    with pytest.raises(PanRuleError, match="stock is out") as e:
        hand.draw(2)
    assert e.value.rule == R.STOCK_OUT
    with pytest.raises(PanRuleError, match="except the top"):
        hand.reshuffle_stock(cs("Qc"))
    hand.reshuffle_stock(cs("Kc"))
    hand.draw(2)
    assert hand.drawn == c("Kc")


def test_pan_stock_runs_out_too_small_hand_void_tops_returned() -> None:
    hand = three()
    all_play(hand)
    hand.stock = [c("Kc")]
    hand.draw(0)
    hand.discard(0, c("Kc"))
    hand.reshuffle_stock(())
    assert hand.phase is Phase.COMPLETE and hand.winner is None
    assert [s.chips for s in hand.seats.values()] == [20, 20, 20]


def test_pan_house_pan_rule_1_no_decision_once_out_of_play() -> None:
    hand = three()
    hand.declare(0, False)
    hand.declare(1, False)
    hand.declare(2, True)
    with pytest.raises(PanRuleError, match="out of play") as e:
        hand.draw(2)
    assert e.value.rule == R.PAN_1


def test_pan_house_pays_rule_4_value_of_a_spread_and_pan_rule_3_outs_as_it_lays() -> None:
    hand = _going_out()
    assert hand.spread_value(0) == 2  # A-2-3 (1) and 4h 4h 4h (1); the sequence pays 0


def test_pan_house_pays_rule_3_no_ante_for_other_players_and_no_chips_no_play() -> None:
    """Each top comes from the player's own chips; a player out of chips may not play for
    the tops (and nobody antes for him)."""
    with pytest.raises(PanRuleError, match="no chips") as e:
        three(chips=[0, 20, 20])
    assert e.value.rule == R.PAYS_5


def test_pan_house_pan_rule_5_chips_move_only_by_pays() -> None:
    """No player touches another's chips: every chip movement is an event with a reason."""
    hand = _going_out()
    hand.go_out(0)
    moves = [e for e in hand.events if isinstance(e, ChipsMoved)]
    assert {m.reason for m in moves} == {"condition", "outs", "tops"}


def test_pan_snapshot_hides_other_hands() -> None:
    hand = three()
    snap = hand.snapshot(1)
    assert snap["seats"][1]["hand"] is not None
    assert snap["seats"][0]["hand"] is None and snap["seats"][2]["hand"] is None
    assert "stock_order" not in snap


def test_pan_declaration_is_changed_once_then_stands() -> None:
    """House rules header: "A player may change his declaration until the next player has
    acted": one change; the changed declaration stands (no play/pass toggling while the next
    player thinks, issue 23)."""
    hand = three()
    hand.declare(0, False)
    hand.change_declaration(0)
    assert hand.seats[0].status is Status.IN and hand.seats[1].declared is None
    assert not hand.can_change_declaration(0)
    with pytest.raises(PanRuleError, match="changed once") as e:
        hand.change_declaration(0)
    assert e.value.rule == R.DECLARATIONS
    assert sum(1 for ev in hand.events if type(ev).__name__ == "Declared") == 2


def test_pan_last_player_changes_once_before_the_first_draw() -> None:
    """House rules header: the last player may change until the first card is drawn, once."""
    hand = three()
    all_play(hand)
    hand.change_declaration(2)
    assert hand.seats[2].status is Status.PASSED
    with pytest.raises(PanRuleError, match="changed once"):
        hand.change_declaration(2)
