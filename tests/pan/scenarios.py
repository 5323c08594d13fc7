"""Scripted hands behind the example histories in tests/fixtures/pan.

Run `PYTHONPATH=tests python -m pan.scenarios` from the repository root to rewrite the fixtures.
"""

from __future__ import annotations

from collections.abc import Callable

from fixture_files import FIXTURES as ALL_FIXTURES

from cardroom.games.pan.engine import PanHand
from cardroom.games.pan.history import history_of
from cardroom.games.pan.rules import PanRules
from cardroom.history import save_history

from .helpers import all_play, c, cs, make_hand, spread_go_out_melds, spread_to_go_out

H0 = "3c 3c 4h 5h Kd Qc 2s 6d 7d Js"
H1 = "Ac 2c 6h 6h 4s 4s Jd Jd 7s Qh"
H2 = "Kh Kh 5c 5d 2h 2d 6c 4c Qs Ks"
GO_OUT = "Ac 2c 3c 4h 4h 4h 5d 6d 7d Qd"
FIXTURES = ALL_FIXTURES / "pan"


def every_condition(rules: PanRules | None = None) -> PanHand:
    """Valle one suit, valle mixed, non-valle one suit, A-2-3, J-Q-K, an addition; then
    the two players split the tops."""
    hand = make_hand(["3c 3c 5c 5d Kd Qc 2s 6d 7d Kh", "4h 4h Ad 2d Js Qs Kc 6c 2h Jd"],
                     "3c 4h 5h 3d 3c Ks", rules=rules)
    all_play(hand)
    for seat, cards, junk in ((0, "3c 3c", "Kd"), (1, "4h 4h", "Kc"), (0, "5c 5d", "Qc"),
                              (1, "Ad 2d", "6c")):
        hand.draw(seat)
        hand.meld(seat, cs(cards), use_drawn=True)
        hand.collect(seat)
        hand.discard(seat, c(junk))
    hand.draw(0)
    hand.lay_off(0, 0, None)
    hand.collect(0)
    hand.discard(0, c("2s"))
    hand.draw(1)
    hand.meld(1, cs("Js Qs"), use_drawn=True)
    hand.collect(1)
    hand.discard(1, c("2h"))
    hand.offer_split(0)
    hand.accept_split(1)
    return hand


def going_out() -> PanHand:
    hand = make_hand([GO_OUT, H1, H2], "Jd")
    all_play(hand)
    spread_to_go_out(hand, 0)
    hand.go_out(0)
    return hand


def p0_collects(stock: str = "3c Jd") -> PanHand:
    """Three play; p0 draws the 3c to his pair of 3c and collects for the meld (the seats'
    chips then 23, 17, 17)."""
    hand = make_hand([H0, GO_OUT, H2], stock)
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    assert [s.chips for s in hand.seats.values()] == [23, 17, 17]
    return hand


def p1_goes_out(hand: PanHand) -> PanHand:
    """p1, dealt GO_OUT, draws the Jd, spreads all eleven cards and goes out."""
    spread_to_go_out(hand, 1)
    hand.go_out(1)
    return hand


def ten_spread() -> PanHand:
    """p0 has ten cards spread and none in hand after discarding Qd."""
    hand = make_hand([GO_OUT, H1, H2], "Jd Kc Kc Kc 4h")
    all_play(hand)
    spread_go_out_melds(hand, 0)
    hand.collect(0)
    hand.discard(0, c("Qd"))
    assert not hand.seats[0].hand and hand.seats[0].melded_count == 10
    return hand


def foul_3a_wrong_count() -> PanHand:
    hand = make_hand(["3c 3c 4h 5h Kd Qc 2s 6d 7d", GO_OUT, H2], "Kc Jd",
                     deal_counts=[9, 10, 10])
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Kc"))
    hand.call_foul(1, 0)
    return p1_goes_out(hand)


def foul_3b_two_discards() -> PanHand:
    hand = p0_collects()
    hand.discard(0, c("Js"))
    hand.extra_discard(0, c("Qc"))
    hand.call_foul(2, 0)
    return p1_goes_out(hand)


def foul_3c_card_on_the_floor() -> PanHand:
    hand = p0_collects()
    hand.drop_card(0, c("Qc"))
    hand.discard(0, c("Js"))
    hand.call_foul(1, 0)
    return p1_goes_out(hand)


def foul_3d_invalid_meld() -> PanHand:
    hand = make_hand([H0, H1, H2], "3c Kc Kc Kc")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    hand.spread_invalid(0, cs("Kd Qc 2s"))
    hand.discard(0, c("Js"))
    for s in (1, 2):
        hand.draw(s)
        hand.discard(s, c("Kc"))
    hand.draw(0)
    hand.call_foul(1, 0)
    hand.offer_split(1)
    hand.accept_split(2)
    return hand


def foul_3e_deck_card_in_hand() -> PanHand:
    hand = make_hand([H0, GO_OUT, H2], "Kc Jd")
    all_play(hand)
    hand.draw(0)
    hand.keep_drawn(0)
    hand.discard(0, c("Qc"))
    hand.call_foul(1, 0)
    return p1_goes_out(hand)


def foul_3f_false_out_redeal() -> PanHand:
    hand = p0_collects()
    hand.declare_out(0)
    hand.throw_in(1)
    hand.throw_in(2)
    hand.call_foul(1, 0)
    return hand


def foul_15_board_card() -> PanHand:
    hand = p0_collects()
    hand.remove_board_card(0, 0, c("3c"))
    hand.offer_split(1)
    hand.accept_split(2)
    return hand


def foul_self_declared() -> PanHand:
    hand = p0_collects()
    hand.discard(0, c("Js"))
    hand.declare_own_foul(0)
    return p1_goes_out(hand)


def wrong_counts_rule_8() -> PanHand:
    hand = make_hand(["3c 3c 4h 5h Kd Qc 2s 6d 7d Js Ks", "Ac 2c 6h 6h 4s 4s Jd Jd 7s",
                      "Kh Kh 5c 5d 2h 2d 6c 4c"], "", deal_counts=[11, 9, 8])
    hand.correct_count(0, pick=10)
    hand.correct_count(1)
    hand.correct_count(2)
    hand.declare(0, True)
    hand.declare(1, False)
    hand.take_tops(0)
    return hand


def forcing_option_card() -> PanHand:
    hand = make_hand([H0, H1, H2], "Kc Jd Kc Jd 4d")
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Kc"))
    hand.draw(1)
    hand.meld(1, cs("Jd Jd"), use_drawn=True)
    hand.collect(1)
    hand.discard(1, c("Qh"))
    hand.draw(2)
    hand.discard(2, c("Kc"))
    hand.draw(0)
    hand.discard(0, c("Jd"))
    hand.draw(1)
    hand.force_option_card(2, True)
    hand.collect(1)
    hand.discard(1, c("7s"))
    return hand


def forcing_back() -> PanHand:
    hand = make_hand([H0, H1, H2], "3c Kc Kc 3c Kc Kc")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    hand.discard(0, c("Js"))
    for s in (1, 2):
        hand.draw(s)
        hand.discard(s, c("Kc"))
    hand.draw(0)
    hand.discard(0, c("3c"))
    hand.force_back(2, 0)
    hand.collect(0)
    hand.discard(0, c("Qc"))
    return hand


def foul_3f_cascade() -> PanHand:
    """3F: p0 declares out falsely after collecting; p2, who had collected too, threw his hand
    into the discards (fouled by the declaration); p1 calls p0 foul. p0 repays the active p1,
    p2 repays nothing; p1 is left alone, plays face up (rule 5B) and goes out; p0 and p2
    both pay the outs."""
    hand = make_hand([H0, GO_OUT, H2], "3c Kc 5h Kc Jd")
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    hand.discard(0, c("Kd"))
    hand.draw(1)
    hand.discard(1, c("Kc"))
    hand.draw(2)
    hand.meld(2, cs("5c 5d"), use_drawn=True)
    hand.collect(2)
    hand.discard(2, c("Qs"))
    hand.draw(0)
    hand.declare_out(0)
    hand.foul_by_false_out(2)
    hand.call_foul(1, 0)
    hand.play_face_up(1)
    return p1_goes_out(hand)


# Rule 14B: the 5h puts p1 out (on 2h 3h 4h: outs only) and p2 out (on his hearts valle set:
# outs plus 1), so it may be forced on p1, who goes out for less.
R14B_P1 = "2h 3h Kc Kd Ks 6s 6s 6s 6s Qd"
R14B_P2_OUT = "5h 5h Ac Ad As 7c 7c 7c 7c Js"
R14B_P2_NOT_OUT = "5h 5h Ac Ad As 7c 7c 7c 2s Js"
R14B_JUNK = ("2c 4d 6d Jc Qs Ks Ad 2d 7s 4s", "Jd Qc 2s 4c 6c Ah 3s 3d 6h 7d")


def rule_14b_two_out_setup(p2: str = R14B_P2_OUT) -> PanHand:
    """Four players: p1 and p2 spread ten cards; p0 leaves the stock 5h (he cannot use it,
    rule 17); p1 overlooks it and draws."""
    hand = make_hand([R14B_JUNK[0], R14B_P1, p2, R14B_JUNK[1]], "Kh 4h 5h Kh 5h Qc")
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Kh"))
    hand.draw(1)
    hand.meld(1, cs("2h 3h"), use_drawn=True)
    hand.meld(1, cs("Kc Kd Ks"))
    hand.meld(1, cs("6s 6s 6s 6s"))
    hand.collect(1)
    hand.discard(1, c("Qd"))
    hand.draw(2)
    hand.meld(2, cs("5h 5h"), use_drawn=True)
    hand.meld(2, cs("Ac Ad As"))
    hand.meld(2, cs(" ".join(x for x in p2.split() if x == "7c")))
    hand.collect(2)
    hand.discard(2, c("Js"))
    hand.draw(3)
    hand.discard(3, c("Kh"))
    hand.draw(0)
    hand.discard(0, c("5h"))
    hand.draw(1)
    return hand


def rule_14b_one_card_puts_two_out() -> PanHand:
    hand = rule_14b_two_out_setup()
    hand.force_option_card(3, True)
    return hand


def double_condition() -> PanHand:
    rules = PanRules(allow_double_condition=True)
    hand = make_hand([H0, GO_OUT, H2], "3c Jd", rules=rules, chips=[40, 40, 20],
                     doubles=[True, True, False])
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.collect(0)
    hand.discard(0, c("Js"))
    return p1_goes_out(hand)


SCENARIOS: dict[str, Callable[[], PanHand]] = {
    "every-condition": every_condition,
    "every-condition-spades-double": lambda: every_condition(PanRules(spades_double=True)),
    "going-out": going_out,
    "foul-3a-wrong-count": foul_3a_wrong_count,
    "foul-3b-two-discards": foul_3b_two_discards,
    "foul-3c-card-on-the-floor": foul_3c_card_on_the_floor,
    "foul-3d-invalid-meld": foul_3d_invalid_meld,
    "foul-3e-deck-card-in-hand": foul_3e_deck_card_in_hand,
    "foul-3f-false-out-redeal": foul_3f_false_out_redeal,
    "foul-3f-cascade": foul_3f_cascade,
    "rule-14b-one-card-puts-two-out": rule_14b_one_card_puts_two_out,
    "foul-15-board-card": foul_15_board_card,
    "foul-self-declared": foul_self_declared,
    "wrong-counts-rule-8": wrong_counts_rule_8,
    "forcing-option-card": forcing_option_card,
    "forcing-back": forcing_back,
    "double-condition": double_condition,
}


def write_all() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name, fn in SCENARIOS.items():
        save_history(history_of(fn(), hand_id=name), FIXTURES / f"{name}.json")


if __name__ == "__main__":
    write_all()
