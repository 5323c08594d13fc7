"""The house rules about conduct, played out through the engine: what the dealer says when
asked (Pan rule 3, pays rule 4), chips that only the rules move (pays rule 3), the players'
own cards (the header's "protect your hand" and "count your cards"), and the tops that never
grow from hand to hand (double condition: "No Progressive Tops")."""

from __future__ import annotations

import pytest

from cardroom.errors import RulesError
from cardroom.games.pan.engine import PanHand, SeatSpec, Status
from cardroom.games.pan.errors import PanRuleError
from cardroom.games.pan.events import ChipsMoved, ToppedUp
from cardroom.games.pan.rules import PanRules
from cardroom.houserules import check_profile

from .helpers import GO_OUT, all_play, c, cs, make_hand, spread_to_go_out, stacked_pack
from .scenarios import p0_collects, p1_goes_out

H0 = "3c 3c 4h 5h Kd Qc 2s 6d 7d Js"
H2 = "Kh Kh 5c 5d 2h 2d 6c 4c Qs Ks"


def test_pan_house_pays_rule_4_any_active_player_asks_the_value_of_a_spread() -> None:
    """Pays rule 4: "Any active player may ask the dealer the value of a spread": every
    player's view carries the value of every spread, and it is what the spread collected
    from each player (2 chips for 3c 3c 3c)."""
    hand = p0_collects()
    paid = [20 - 1 - s.chips for s in list(hand.seats.values())[1:]]
    assert paid == [2, 2]
    for viewer in (0, 1, 2, None):
        values = [s["spread_value"] for s in hand.snapshot(viewer)["seats"]]
        assert values == [2, 0, 0]


def test_pan_house_pan_rule_3_dealer_calls_the_outs_as_the_hand_lays() -> None:
    """Pan rule 3: the dealer "will call the outs as the hand lays. He may not rearrange
    cards so as to accrue greater value": a foul hand pays the winner the value of its
    spread as it lay when it was fouled, plus 2 (foul rule 1B), the value every player's view
    showed; nothing on a foul hand may be laid or moved afterwards."""
    hand = p0_collects()
    hand.drop_card(0, c("Qc"))            # foul rule 3C: a card thrown on the floor
    hand.discard(0, c("Js"))
    hand.call_foul(1, 0)
    assert hand.seats[0].status is Status.FOULED
    called = hand.snapshot(2)["seats"][0]["spread_value"]
    assert called == 2
    with pytest.raises(PanRuleError):
        hand.meld(0, cs("4h 5h 6d"))      # no rearranging a foul hand
    before = hand.seats[0].chips
    p1_goes_out(hand)
    foul_pay = [e for e in hand.events if isinstance(e, ChipsMoved) and e.payer == 0
                and e.payee == 1 and "as it lies" in e.reason]
    assert [e.chips for e in foul_pay] == [called + 2]
    assert before - hand.seats[0].chips == called + 2


def test_pan_house_pays_rule_3_no_saving_outs_and_no_ante_for_another_player() -> None:
    """Pays rule 3: "The house does not allow players to save 'outs' or to ante other
    players": each top comes from the player's own chips (one ToppedUp a seat, from that
    seat), and a player with chips left pays the outs with them, down to his last chip."""
    hand = make_hand([GO_OUT, H0, H2], "Jd", chips=[20, 20, 4])
    tops = [e for e in hand.events if isinstance(e, ToppedUp)]
    assert sorted((e.seat, e.single) for e in tops) == [(0, 1), (1, 1), (2, 1)]
    assert [s.chips for s in hand.seats.values()] == [19, 19, 3]
    all_play(hand)
    spread_to_go_out(hand, 0)
    hand.go_out(0)
    # p2: 3 chips, 2 for the conditions (A-2-3 and 4h 4h 4h), his last chip to the outs
    assert hand.seats[2].chips == 0
    assert hand.seats[0].chips == 19 + 2 + 2 + 2 + 1 + 3


def test_pan_protect_your_hand_and_count_your_cards_each_player_sees_his_own_ten() -> None:
    """House rules: "Protect your hand at all times. Count your cards after each deal": each
    player's view shows his own cards and nobody else's, and every hand's count, so a wrong
    count is seen before the first action (foul rule 8 corrects it)."""
    hand = make_hand([H0, GO_OUT, H2], deal_counts=[9, 10, 10])
    for viewer in range(3):
        seats = hand.snapshot(viewer)["seats"]
        assert [s["hand"] is not None for s in seats] == [i == viewer for i in range(3)]
        assert [s["hand_count"] for s in seats] == [9, 10, 10]
    assert hand.snapshot(None)["seats"][0]["hand"] is None


def test_pan_house_double_condition_no_progressive_tops() -> None:
    """Double condition play: "No Progressive Tops": the tops never grow from hand to hand.
    Double tops a singles player wins go back to the doubles players who put them up; double
    tops carried from a redeal (foul rule 6) with no doubles player left to win them go with
    the tops to the winner, so none stays behind for a later hand."""
    rules = PanRules(allow_double_condition=True)
    hand = make_hand([GO_OUT, H0, H2], "Jd", rules=rules, chips=[20, 40, 20],
                     doubles=[False, True, False])
    assert (hand.tops_single, hand.tops_double) == (3, 1)
    all_play(hand)
    spread_to_go_out(hand, 0)
    hand.go_out(0)
    back = [e for e in hand.events if isinstance(e, ChipsMoved) and e.payer is None
            and e.payee == 1]
    assert [e.chips for e in back] == [1]
    assert hand.tops_single == hand.tops_double == 0 and hand.tops_carry == (0, 0)
    # a redeal carried 2 single and 2 double tops; nobody plays doubles now
    pack = stacked_pack([GO_OUT, H0, H2], "Jd", rules)
    carried = PanHand(rules, [SeatSpec(f"p{i}", 20) for i in range(3)], 2, pack,
                      carried_tops=(2, 2))
    all_play(carried)
    spread_to_go_out(carried, 0)
    carried.go_out(0)
    assert carried.tops_single == carried.tops_double == 0
    # every chip accounted for: 60 at the table and the 4 carried
    assert sum(s.chips for s in carried.seats.values()) == 60 + 4
    assert carried.seats[0].chips == 19 + 4 + 4 + (3 + 2) + 2


def test_pan_washington_caps_chip_ante_outs_and_no_doubling_of_conditions() -> None:
    """The digest: "Washington law (WAC 230-15-135) caps a chip at $10, the ante at one chip,
    bans 'doubling of conditions', and lets a player going out collect at most two chips from
    each participating player": house rules past a cap are refused; each player antes one
    chip; three 5s of spades pay 2, not 4, unless `spades_double` is set. The caps are the
    regulatory profile's (tests/test_profile.py checks each at and one over)."""
    for bad in ({"chip_cents": 1001}, {"outs_chips": 3}):
        with pytest.raises(RulesError, match=r"refused under WAC 230-15-135\(4\)"):
            check_profile(PanRules.model_validate(bad), "house rules")
    hand = make_hand(["5s 5s 4h 5h Kd Qc 2s 6d 7d Js", GO_OUT, H2], "5s")
    assert [s.chips for s in hand.seats.values()] == [19, 19, 19]
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("5s 5s"), use_drawn=True)
    hand.collect(0)
    assert [s.chips for s in hand.seats.values()] == [19 + 2 + 2, 17, 17]
