"""The card room's house rules (rules/panguingue.house-rules.txt): foul hands, wrong counts,
forcing and option cards, splitting the tops, the seat rule."""

from __future__ import annotations

import pytest

from cardroom.games.pan import errors as R
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.engine import Cause, PanHand, Phase, Status
from cardroom.games.pan.errors import PanRuleError
from cardroom.games.pan.events import ChipsMoved
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.table import dealer_at, must_change_seat, next_dealer, next_pack
from cardroom.shoe import SeededRandom

from .helpers import all_play, c, cs, make_hand, spread_go_out_melds
from .scenarios import GO_OUT, H0, H1, H2, p0_collects, p1_goes_out, ten_spread

# ----- foul hands -------------------------------------------------------------------------


def test_pan_house_foul_rule_1_penalty_repay_collections_value_as_it_lies_plus_2() -> None:
    """1A: repay collections to the active hands; 1B: not liable for later pay, pays the
    winner the value of the hand as it lies plus 2 chips, no bust-out."""
    hand = p0_collects()
    hand.drop_card(0, c("Qc"))            # 3C: a card thrown on the floor
    hand.discard(0, c("Js"))
    hand.call_foul(1, 0)
    assert hand.seats[0].status is Status.FOULED
    assert [s.chips for s in hand.seats.values()] == [19, 19, 19]
    p1_goes_out(hand)
    # p1: 19 + 2 (conditions from p2 only) + 2 outs (p2) + 2 + 2 (p0: value 2 plus 2) + 3 tops
    assert [s.chips for s in hand.seats.values()] == [15, 30, 15]


def test_pan_house_foul_rule_2_self_declared_foul_pays_everything_including_bust_out() -> None:
    hand = p0_collects()
    hand.discard(0, c("Js"))
    hand.declare_own_foul(0)
    assert hand.seats[0].status is Status.SELF_FOULED
    p1_goes_out(hand)
    assert [s.chips for s in hand.seats.values()] == [19, 28, 13]


def test_pan_house_foul_rule_3a_wrong_count_after_touching_the_deck() -> None:
    hand = make_hand(["3c 3c 4h 5h Kd Qc 2s 6d 7d", H1, H2], "Kc",
                     deal_counts=[9, 10, 10])
    all_play(hand)
    assert not hand.can_call_foul(1, 0)
    hand.draw(0)
    assert Cause.WRONG_COUNT in hand.seats[0].causes
    hand.discard(0, c("Kc"))
    hand.call_foul(1, 0)
    assert hand.seats[0].status is Status.FOULED


def test_pan_house_foul_rule_3b_two_discards_or_no_discard() -> None:
    hand = make_hand([H0, H1, H2], "Kc")
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Kc"))
    hand.extra_discard(0, c("Qc"))
    assert hand.seats[0].causes == [Cause.DISCARD_COUNT]
    hand.call_foul(2, 0)
    assert hand.seats[0].status is Status.FOULED
    hand2 = make_hand([H0, H1, H2], "3c")
    all_play(hand2)
    hand2.draw(0)
    hand2.meld(0, cs("3c 3c"), use_drawn=True)
    hand2.skip_discard(0)
    assert hand2.current == 1 and hand2.seats[0].causes == [Cause.DISCARD_COUNT]


def test_pan_house_foul_rule_3c_card_on_the_floor() -> None:
    hand = make_hand([H0, H1, H2], "Kc")
    all_play(hand)
    hand.drop_card(0, c("Qc"))
    assert hand.can_call_foul(1, 0)


def test_pan_house_foul_rule_3d_b_secondary_meld_taken_back_before_the_deck() -> None:
    hand = make_hand([H0, H1, H2], "3c Kc Kc Kc")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.spread_invalid(0, cs("Kd Qc 2s"))
    assert not hand.can_call_foul(1, 0)  # correctable until he touches the deck
    hand.correct_meld(0, 1, ())
    assert len(hand.seats[0].melds) == 1 and len(hand.seats[0].hand) == 8
    hand.discard(0, c("Js"))
    assert not hand.seats[0].causes


def test_pan_house_foul_rule_3d_invalid_meld_uncorrected_at_next_draw_is_foul() -> None:
    hand = make_hand([H0, H1, H2], "3c Kc Kc Kc")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.spread_invalid(0, cs("Kd Qc 2s"))
    hand.discard(0, c("Js"))
    for s in (1, 2):
        hand.draw(s)
        hand.discard(s, hand.drawn)  # type: ignore[arg-type]
    hand.draw(0)
    assert Cause.INVALID_MELD in hand.seats[0].causes
    hand.call_foul(1, 0)
    assert hand.seats[0].status is Status.FOULED


def test_pan_house_foul_rule_3d_a_primary_meld_corrected_as_it_lies() -> None:
    hand = make_hand(["3c 3c 4h 5h Kd Qc 2s 6d 7d 4s", H1, H2], "3s")
    all_play(hand)
    hand.draw(0)
    hand.spread_invalid(0, cs("3c 3c"), use_drawn=True)  # 3c 3c 3s: not a set
    with pytest.raises(PanRuleError, match="as it lies"):
        hand.correct_meld(0, 0, ())
    hand.discard(0, c("Kd"))  # may still be corrected after the discard
    with pytest.raises(PanRuleError, match="deck card"):
        hand.correct_meld(0, 0, cs("4h 5h 6d"))
    hand.correct_meld(0, 0, cs("2s 3s 4s"))
    assert hand.seats[0].melds[0].valid and hand.seats[0].hand.count(c("3c")) == 2
    assert hand.seats[0].card_count == 10


def test_pan_house_foul_rule_3e_card_from_the_deck_put_in_the_hand() -> None:
    hand = make_hand([H0, H1, H2], "Kc")
    all_play(hand)
    hand.draw(0)
    hand.keep_drawn(0)
    hand.discard(0, c("Qc"))
    hand.call_foul(1, 0)
    assert hand.seats[0].status is Status.FOULED


def test_pan_house_foul_rule_3f_false_out_declarer_repays_and_pays_the_outs() -> None:
    hand = p0_collects()
    hand.declare_out(0)
    hand.throw_in(2)
    hand.call_foul(1, 0)                     # not everyone threw in: no redeal
    assert hand.seats[0].status is Status.FOULED
    assert not hand.seats[2].threw_in        # p2 rearranges and plays on
    p1_goes_out(hand)
    # p0 repaid 2 + 2 and pays the outs (2), not value plus 2
    assert hand.seats[0].chips == 19 - 2


def test_pan_house_foul_rule_6_one_player_fouls_all_others_tops_stay_redeal() -> None:
    hand = p0_collects()
    hand.declare_out(0)
    hand.throw_in(1)
    hand.throw_in(2)
    hand.call_foul(1, 0)
    assert hand.phase is Phase.COMPLETE and hand.winner is None
    assert hand.tops_carry == (3, 0)
    assert [s.chips for s in hand.seats.values()] == [19, 19, 19]


def test_pan_house_foul_rule_4_only_another_active_player_calls() -> None:
    hand = make_hand([H0, H1, H2], "Kc")
    hand.declare(0, True)
    hand.declare(1, False)
    hand.declare(2, True)
    hand.drop_card(0, c("Qc"))
    with pytest.raises(PanRuleError) as e:
        hand.call_foul(1, 0)      # passed: not active
    assert e.value.rule == R.FOUL_4
    with pytest.raises(PanRuleError):
        hand.call_foul(0, 0)      # not his own hand
    hand.call_foul(2, 0)


def test_pan_house_foul_rule_5_one_player_left_settles_or_plays_face_up() -> None:
    hand = make_hand([H0, H1], "Kc")
    all_play(hand)
    hand.drop_card(0, c("Qc"))
    hand.call_foul(1, 0)
    assert hand.phase is Phase.LAST_PLAYER
    hand.settle(1, {0: 3})
    assert hand.winner == 1 and [s.chips for s in hand.seats.values()] == [16, 24]
    hand2 = make_hand([H0, H1], "Kc")
    all_play(hand2)
    hand2.drop_card(0, c("Qc"))
    hand2.call_foul(1, 0)
    hand2.play_face_up(1)
    assert hand2.face_up and hand2.snapshot(0)["seats"][1]["hand"] is not None


def test_pan_house_foul_rule_7_floorman_declares_foul() -> None:
    hand = make_hand([H0, H1, H2], "Kc")
    all_play(hand)
    hand.floor_foul(2, "marked cards")
    assert hand.seats[2].status is Status.FOULED


def test_pan_house_foul_rule_8a_eight_or_fewer_twelve_or_more_dead_ante_returned() -> None:
    hand = make_hand(["3c 3c 4h 5h Kd Qc 2s 6d", H1, H2], "", deal_counts=[8, 10, 10])
    hand.correct_count(0)
    assert hand.seats[0].status is Status.DEAD and hand.seats[0].chips == 20
    hand = make_hand(["3c 3c 4h 5h Kd Qc 2s 6d 7d Js 2c 2c", H1, H2], "",
                     deal_counts=[12, 10, 10])
    hand.correct_count(0)
    assert hand.seats[0].status is Status.DEAD and hand.tops_single == 2


def test_pan_house_foul_rule_8b_nine_cards_one_added_no_change_of_declaration() -> None:
    hand = make_hand(["3c 3c 4h 5h Kd Qc 2s 6d 7d", H1, H2], "Kc", deal_counts=[9, 10, 10])
    hand.declare(0, True)
    hand.correct_count(0)
    assert len(hand.seats[0].hand) == 10 and c("Kc") in hand.seats[0].hand  # from the top
    with pytest.raises(PanRuleError, match="nine-card") as e:
        hand.change_declaration(0)
    assert e.value.rule == R.FOUL_8


def test_pan_house_foul_rule_8b_card_from_the_middle_when_total_dealt_is_right() -> None:
    hand = make_hand(["3c 3c 4h 5h Kd Qc 2s 6d 7d Js Ks", "Ac 2c 6h 6h 4s 4s Jd Jd 7s",
                      H2], "Kc", deal_counts=[11, 9, 10])
    top = hand.stock[-1]
    middle = hand.stock[len(hand.stock) // 2]
    hand.correct_count(1)
    assert middle in hand.seats[1].hand and hand.stock[-1] == top


def test_pan_house_foul_rule_8c_eleven_cards_dealer_removes_one_may_change() -> None:
    hand = make_hand(["3c 3c 4h 5h Kd Qc 2s 6d 7d Js Ks", H1, H2], "",
                     deal_counts=[11, 10, 10])
    hand.declare(0, True)
    hand.declare(1, True)
    with pytest.raises(PanRuleError, match="random"):
        hand.correct_count(0)
    removed = hand.seats[0].hand[4]
    hand.correct_count(0, pick=4)
    assert len(hand.seats[0].hand) == 10 and hand.stock[0] == removed
    hand.change_declaration(0)   # even though the next player has acted
    assert hand.seats[0].status is Status.PASSED


# ----- forcing and option cards (rules 11-17) ---------------------------------------------


def _p1_has_jacks() -> PanHand:
    """p1 melds Jd Jd Jd; then p0 draws another Jd and discards it."""
    hand = make_hand([H0, H1, H2], "Kc Jd Kc Jd 4d")
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Kc"))
    hand.draw(1)
    hand.meld(1, cs("Jd Jd"), use_drawn=True)
    hand.discard(1, c("Qh"))
    hand.draw(2)
    hand.discard(2, c("Kc"))
    hand.draw(0)
    hand.discard(0, c("Jd"))
    return hand


def test_pan_house_rule_12_option_card_forced_to_use_or_continue() -> None:
    hand = _p1_has_jacks()
    hand.draw(1)                        # overlooks the Jd that fits his spread
    assert hand.drawn == c("4d")
    with pytest.raises(PanRuleError) as e:
        hand.force_option_card(0, True)
    assert e.value.rule == R.RULE_11     # the discarder lost his right to force it
    hand.force_option_card(2, True)
    assert hand.stock[-1] == c("4d")     # the drawn card goes back
    assert hand.seats[1].melds[0].cards == cs("Jd Jd Jd Jd")
    assert hand.seats[1].pending        # adding to a condition pays again
    hand.collect(1)
    hand.discard(1, c("7s"))
    assert hand.seats[1].card_count == 10


def test_pan_house_rule_12_forced_to_continue_to_draw() -> None:
    hand = _p1_has_jacks()
    hand.draw(1)
    hand.force_option_card(2, False)
    assert not hand.can_force_option_card(2, True)
    hand.discard(1, c("4d"))


def test_pan_house_rule_13_card_forced_back_until_two_players_draw_behind() -> None:
    hand = make_hand([H0, H1, H2], "3c Kc 3c Kc Kc")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    hand.discard(0, c("Js"))
    hand.draw(1)
    hand.discard(1, c("Kc"))
    hand.draw(2)
    hand.discard(2, c("3c"))
    hand.draw(0)
    hand.discard(0, c("Kc"))
    assert not hand.can_force_back(1, 0)        # Kc fits nothing of p0's
    hand2 = make_hand([H0, H1, H2], "3c Kc Kc 3c Kc Kc")
    all_play(hand2)
    hand2.draw(0)
    hand2.meld(0, cs("3c 3c"), use_drawn=True)
    hand2.collect(0)
    hand2.discard(0, c("Js"))
    hand2.draw(1)
    hand2.discard(1, c("Kc"))
    hand2.draw(2)
    hand2.discard(2, c("Kc"))
    hand2.draw(0)
    hand2.discard(0, c("3c"))                 # fits his own set: may be forced back
    hand2.draw(1)
    assert not hand2.can_force_back(1, 0)     # he drew: lost the right
    hand2.force_back(2, 0)
    assert hand2.seats[0].melds[0].cards == cs("3c 3c 3c 3c")
    assert hand2.forced_discard == 0
    with pytest.raises(PanRuleError):
        hand2.discard(1, c("Kc"))             # the forced discard comes first
    hand2.collect(0)
    hand2.discard(0, c("Qc"))
    assert hand2.seats[0].card_count == 10
    hand2.discard(1, c("Kc"))
    hand2.draw(2)
    hand2.discard(2, c("Kc"))
    assert not hand2.can_force_back(1, 0)     # two players have drawn behind Qc... and
    # a hand discard that fits: forced back until the discarder touches the deck


def test_pan_house_rule_13_hand_discard_forced_back_until_discarder_touches_deck() -> None:
    hand = make_hand(["3c 3c 3c 4h 5h Kd Qc 2s 6d 7d", H1, H2], "3c Kc Kc Kc")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    hand.discard(0, c("3c"))                  # from the hand, fits his own set
    hand.draw(1)
    hand.discard(1, c("Kc"))
    assert hand.can_force_back(1, 0)
    hand.draw(2)
    hand.discard(2, c("Kc"))
    hand.draw(0)
    hand.discard(0, c("Kc"))
    assert not hand.can_force_back(1, 0)


def test_pan_house_rule_14_out_card_not_forced_back_outside_three_cases() -> None:
    """Rule 13: p0 discards a 4h that fits his set while holding the Kc, which fits nothing
    (he could not go out): it is forced back and he discards again, the Kc (ten spread).
    Rule 14: p2's stock 4h, which p0 overlooks, would put him out; three players, one card
    putting one player out, not his own discard: it may not be forced on him."""
    hand = make_hand(["Ac 2c 3c 4h 4h 4h 4h Kc 5d 6d", H1, H2], "7d Kc 4h Qs")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("5d 6d"), use_drawn=True)
    hand.meld(0, cs("Ac 2c 3c"))
    hand.meld(0, cs("4h 4h 4h"))
    hand.discard(0, c("4h"))
    hand.force_back(1, 0)                     # rule 13: not out, he still holds the Kc
    assert hand.forced_discard == 0 and hand.phase is Phase.PLAYING
    hand.discard(0, c("Kc"))                  # the forced discard, his last card
    assert not hand.seats[0].hand and hand.seats[0].melded_count == 10
    for s in (1, 2):
        hand.draw(s)
        hand.discard(s, hand.drawn)  # type: ignore[arg-type]
    hand.draw(0)
    assert hand.goes_out_with(0, c("4h"))
    with pytest.raises(PanRuleError) as e:
        hand.force_option_card(1, True)
    assert e.value.rule == R.RULE_14


def test_pan_house_rule_14c_out_card_forced_back_head_up() -> None:
    hand = make_hand([GO_OUT, H1], "Jd Kc 4h")
    all_play(hand)
    spread_go_out_melds(hand, 0)
    hand.collect(0)
    hand.discard(0, c("Qd"))
    hand.force_back(1, 0)
    assert hand.winner == 0 and hand.phase is Phase.COMPLETE


def test_pan_house_rule_14a_pyramid_attempt_out_card_forced_back() -> None:
    hand = ten_spread()
    for s in (1, 2):
        hand.draw(s)
        hand.discard(s, hand.drawn)  # type: ignore[arg-type]
    hand.draw(0)
    assert hand.drawn == c("Kc")
    hand.discard(0, c("Kc"))
    assert not hand.can_force_back(1, 0)          # Kc fits nothing
    hand2 = ten_spread()
    for s in (1, 2):
        hand2.draw(s)
        hand2.discard(s, hand2.drawn)  # type: ignore[arg-type]
    hand2.stock.append(c("4h"))
    hand2.draw(0)
    hand2.discard(0, c("4h"))                      # would have put him out: pyramiding
    hand2.force_back(1, 0)
    assert hand2.winner == 0


def test_pan_house_rule_14b_same_card_puts_two_out_forced_on_lower_pay() -> None:
    hand = ten_spread()
    # seat 1 lays the same card off for more: forced on seat 0 is allowed only if p0's out
    # pays less than the other's
    assert hand.out_value(0, c("4h")) == 2 + 1


def test_pan_house_rule_17_no_out_card_to_a_player_withten_spread() -> None:
    hand = ten_spread()
    hand.draw(1)
    hand.discard(1, c("Kc"))
    hand.stock.append(c("4h"))
    # p2 holds 4c: 4c 4h ... cannot meld 4h; make p2 able to use it: give him a 4h 4h pair
    hand.seats[2].hand[:2] = [c("4h"), c("4h")]
    hand.draw(2)
    assert hand.drawn == c("4h")
    with pytest.raises(PanRuleError) as e:
        hand.discard(2, c("4h"))
    assert e.value.rule == R.RULE_17


def test_pan_house_rule_15_removing_a_card_from_a_board_spread_fouls() -> None:
    hand = make_hand([H0, H1, H2], "3c")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.remove_board_card(0, 0, c("3c"))
    assert hand.seats[0].status is Status.FOULED


def test_pan_house_rule_16_self_foul_leaves_the_drawn_card_live() -> None:
    hand = make_hand([H0, H1, H2], "Jd")
    all_play(hand)
    hand.draw(0)
    hand.declare_own_foul(0)
    assert hand.current == 1 and hand.can_take(1)


def test_pan_house_rule_11_released_discard_is_final() -> None:
    hand = make_hand([H0, H1, H2], "Kc")
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Kc"))
    with pytest.raises(PanRuleError):
        hand.meld(0, cs("Kd Kd"), use_drawn=True)


# ----- pays and collections, seats --------------------------------------------------------


def test_pan_house_pays_rule_2_two_players_split_the_tops() -> None:
    hand = make_hand([H0, H1], "Kc")
    all_play(hand)
    hand.offer_split(0)
    hand.accept_split(1)
    assert hand.phase is Phase.COMPLETE and [s.chips for s in hand.seats.values()] == [20, 20]
    with pytest.raises(PanRuleError) as e:
        three = make_hand([H0, H1, H2], "Kc")
        all_play(three)
        three.offer_split(0)
    assert e.value.rule == R.PAYS_2


def test_pan_house_pays_rule_2_doubles_and_singles_split_only_single_tops() -> None:
    hand = make_hand([H0, H1], "Kc", rules=PanRules(allow_double_condition=True),
                     chips=[40, 20], doubles=[True, False])
    all_play(hand)
    hand.offer_split(1)
    hand.accept_split(0)
    assert [s.chips for s in hand.seats.values()] == [40, 20]   # 1 single + the double top back


def test_pan_house_pan_rule_2_panner_plays_one_more_hand_when_players_wait() -> None:
    assert not must_change_seat(True, 0, True)
    assert must_change_seat(True, 1, True)
    assert not must_change_seat(True, 1, False)


def test_pan_rotation_winner_is_next_first_hand() -> None:
    assert next_dealer(5, winner=3, dealer=0) == 2
    assert (next_dealer(5, winner=3, dealer=0) + 1) % 5 == 3


def test_pan_between_hands_packet_from_the_bottom_or_full_shuffle() -> None:
    pack = pan_pack(PanRules())
    stock, used = pack[:250], pack[250:]
    new = next_pack(stock, used, PanRules(reshuffle="packet"), SeededRandom(1))
    assert new[:180] == stock[:180] and sorted(new) == sorted(pack)
    full = next_pack(stock, used, PanRules(), SeededRandom(1))
    assert sorted(full) == sorted(pack) and full[:180] != stock[:180]


# ----- rule 14B and the 3F cascade, as whole hands ----------------------------------------


def test_pan_house_rule_14b_one_card_puts_two_players_out_forced_on_the_lower_pay() -> None:
    """14B: "If the same card puts two players out, the card may be forced back if the player
    on whom it is forced will go out for a lower pay rate than the other player." The 5h
    lays off on p1's 2h 3h 4h (the outs, 2) and on p2's hearts valle set (2 + 1 for the
    addition); four players, so not head up (14C), and it is not p1's own discard (14A)."""
    from .scenarios import rule_14b_two_out_setup

    hand = rule_14b_two_out_setup()
    assert hand.goes_out_with(1, c("5h")) and hand.goes_out_with(2, c("5h"))
    assert hand.out_value(1, c("5h")) == 2 < hand.out_value(2, c("5h")) == 3
    with pytest.raises(PanRuleError) as e:
        hand.force_option_card(0, True)           # its discarder lost the right (rule 11)
    assert e.value.rule == R.RULE_11
    hand.force_option_card(3, True)
    assert hand.winner == 1 and hand.end_reason == "went out on a forced card"
    # tops 4; p1 collected 2 from each (four 6s: the set plus one added), p2 5 from each (5h
    # set 2, four 7c 2 + 1); the outs 2
    assert [s.chips for s in hand.seats.values()] == [10, 30, 30, 10]


def test_pan_house_rule_14b_out_card_not_forced_when_only_one_player_goes_out() -> None:
    """With p2 one card short of going out, the 5h puts only p1 out: none of 14A-C applies,
    so it cannot be forced on him; forcing him to continue is still allowed (rule 12)."""
    from .scenarios import R14B_P2_NOT_OUT, rule_14b_two_out_setup

    hand = rule_14b_two_out_setup(R14B_P2_NOT_OUT)
    assert not hand.goes_out_with(2, c("5h"))
    with pytest.raises(PanRuleError) as e:
        hand.force_option_card(3, True)
    assert e.value.rule == R.RULE_14
    hand.force_option_card(3, False)
    assert hand.phase is Phase.PLAYING and hand.current == 1


def test_pan_house_foul_rule_3f_players_fouled_by_a_false_out_keep_collections_pay_outs() -> None:
    """3F: "The player making the incorrect declaration must repay his collections, other
    players fouling their hands do not. Both must pay the outs." p2 collected 1 from each,
    then threw his hand in after p0's false declaration: he keeps it and pays the outs."""
    from .scenarios import foul_3f_cascade

    hand = foul_3f_cascade()
    p2 = hand.seats[2]
    assert p2.status is Status.FOULED and p2.fouled_by_false_out
    moves = [e for e in hand.events if isinstance(e, ChipsMoved)]
    repaid = [(e.payer, e.payee, e.chips) for e in moves
              if e.reason == "foul hand repays collections"]
    assert repaid == [(0, 1, 2)]                  # p1 only: p2 is no longer active
    assert sorted((e.payer, e.chips) for e in moves if e.reason == "outs") == [(0, 2), (2, 2)]
    assert hand.chips_delta() == [-2, 5, -3]


def test_pan_house_foul_rule_6_every_other_player_fouled_by_a_false_out_redeal() -> None:
    """Rule 6 with the 3F cascade: one player fouled by the false declaration and the other
    gathering his cards are every other active player: the tops stay, the hand is redealt."""
    hand = p0_collects()
    hand.declare_out(0)
    hand.foul_by_false_out(2)
    hand.throw_in(1)
    hand.call_foul(1, 0)
    assert hand.phase is Phase.COMPLETE and hand.tops_carry == (3, 0)
    assert [s.chips for s in hand.seats.values()] == [19, 19, 19]


def test_pan_rotation_by_table_seat_whoever_sat_down_or_left() -> None:
    """Reference, seating and rotation: the winner is first hand and the player on his left
    deals, counted among the seats dealt in now. Seats 1 and 3 played, seat 3 won; a player
    sits in seat 2: he deals (index 1), seat 3 is first hand. The winner gone, the first seat
    after his is first hand. With no winner the deal moves on to the next seat dealt in after
    the last dealer's (the newcomer in seat 2 after seat 1)."""
    assert dealer_at([1, 2, 3], winner_seat=3, last_dealer_seat=1) == 1
    assert dealer_at([1, 2, 4], winner_seat=3, last_dealer_seat=1) == 1
    assert dealer_at([1, 2, 3], winner_seat=1, last_dealer_seat=3) == 2
    assert dealer_at([1, 2, 3], winner_seat=None, last_dealer_seat=1) == 1
    assert dealer_at([1, 2, 3], winner_seat=None, last_dealer_seat=3) == 0


def test_pan_house_foul_rule_8c_grants_a_change_after_one_already_made() -> None:
    """Foul rule 8C: after the dealer corrects an eleven-card hand "the player may change his
    declaration", even one who has already changed his once; that change then stands."""
    hand = make_hand(["3c 3c 4h 5h Kd Qc 2s 6d 7d Js Ks", H1, H2], "",
                     deal_counts=[11, 10, 10])
    hand.declare(0, False)
    hand.change_declaration(0)
    hand.declare(1, True)
    hand.correct_count(0, pick=4)
    hand.change_declaration(0)
    assert hand.seats[0].status is Status.PASSED
    assert not hand.can_change_declaration(0)
