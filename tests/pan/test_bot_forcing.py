"""The sound bot forces the option card (house rule 12) when it pays, and only then; it
forces an out card back (rule 14A) only to end a pyramid attempt it cannot race."""

from __future__ import annotations

import random

from cardroom.games.pan.bots import SoundBot
from cardroom.games.pan.driver import RngSource, advance
from cardroom.games.pan.engine import PanHand, Phase
from cardroom.games.pan.events import Forced

from .helpers import (
    GO_OUT,
    P2_JUNK,
    all_play,
    c,
    cs,
    make_hand,
    p1_pyramids_the_4c,
)

P0 = "Kd Qc 2s 2s 4d Jd 6d Qd 3c 7c"
P1 = "4h 5h Kc Kc 2c 3d Jd Qs 5s Js"
P2 = "Kd Qc 2s 2s 4d Jd 6d Qd 3c 7c"


def _overlooked(drawn: str) -> PanHand:
    """p1 melds 4h-5h-6h (no condition); p0 later leaves the stock 7h, which fits it; p1
    overlooks it and draws `drawn`."""
    hand = make_hand([P0, P1, P2], f"7s 6h 2h 7h {drawn}")
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("7s"))
    hand.draw(1)
    hand.meld(1, cs("4h 5h"), use_drawn=True)
    hand.discard(1, c("2c"))
    hand.draw(2)
    hand.discard(2, c("2h"))
    hand.draw(0)
    hand.discard(0, c("7h"))
    hand.draw(1)
    return hand


def test_pan_house_rule_12_bot_forces_the_option_card_when_it_pays() -> None:
    """Rule 12: p1 drew Kc, which makes him a set with his Kc Kc. Forced to use the 7h
    instead (it pays him nothing), he loses the Kc, which goes back on the stock."""
    hand = _overlooked("Kc")
    assert hand.card_uses(1, c("Kc"))
    SoundBot().react_option(hand, 2)
    forced = [e for e in hand.events if isinstance(e, Forced)]
    assert [(f.forcer, f.seat, str(f.card)) for f in forced] == [(2, 1, "7h")]
    assert c("7h") in hand.seats[1].melds[0].cards
    assert hand.stock[-1] == c("Kc") and hand.drawn is None


def test_pan_house_rule_12_bot_does_not_force_when_it_does_not_pay() -> None:
    """Rule 12: p1 drew Ad, which he cannot use and must discard: forcing the 7h on him would
    only give him a card for his spread, so the bot leaves him to his draw."""
    hand = _overlooked("Ad")
    assert hand.can_force_option_card(2, True)
    assert not hand.card_uses(1, c("Ad"))
    SoundBot().react_option(hand, 2)
    assert not any(isinstance(e, Forced) for e in hand.events)
    assert hand.drawn == c("Ad")


def test_pan_house_rule_14a_bots_are_asked_about_a_pyramid_out_card_by_borrowing() -> None:
    """Rule 14A: p1 (ten spread) draws the 4c, which puts him out only by borrowing the 5c-6c
    (it fits none of his spreads), and discards it to pyramid. The driver asks the bots; p0,
    far from going out, ends the hand at the lower rate: p1 goes out on the card forced
    back."""
    hand = p1_pyramids_the_4c()
    assert not hand.fitting_melds(1, c("4c")) and hand.goes_out_with(1, c("4c"))
    advance(hand, [SoundBot(), None, SoundBot()], RngSource(random.Random(0)))
    assert hand.phase is Phase.COMPLETE and hand.winner == 1
    assert hand.end_reason == "went out on a card forced back"
    forced = [e for e in hand.events if isinstance(e, Forced)]
    assert [(f.forcer, f.seat, f.card) for f in forced] == [(0, 1, c("4c"))]


P1_PYRAMID = "5d 6d Kc Kd Kh Ks Js Js Js 2s"
"""Spreads 5d-6d-7d and the four kings, the Js Js Js in hand: the Jd puts him out."""


def _p1_pyramids_the_jd(p0: str) -> PanHand:
    """p1 melds 5d-6d-7d (the 7d drawn) and four kings, keeping Js Js Js; next turn he draws
    the Jd, which lays off on his diamonds (paying nothing) and puts him out, and discards
    it to pyramid (rule 14A)."""
    hand = make_hand([p0, P1_PYRAMID, P2_JUNK], "Qc 7d 5s Qh Jd")
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Qc"))
    hand.draw(1)
    hand.meld(1, cs("5d 6d"), use_drawn=True)
    hand.meld(1, cs("Kc Kd Kh Ks"))
    if hand.seats[1].pending:
        hand.collect(1)
    hand.discard(1, c("2s"))
    hand.draw(2)
    hand.discard(2, c("5s"))
    hand.draw(0)
    hand.discard(0, c("Qh"))
    hand.draw(1)
    hand.discard(1, c("Jd"))
    assert hand.goes_out_with(1, c("Jd")) and hand.can_force_back(0, 1)
    return hand


def test_pan_house_rule_14a_sound_bot_waiting_to_go_out_does_not_force_the_out_card() -> None:
    """Decision (rule 14A, "any active player may choose to end the hand for the lower pay
    rate"): forcing the pyramid card back hands p1 the hand. p0 holds ten cards that go out
    with a Jd of his own (GO_OUT): he races p1 and leaves the card; p2, whom no card puts
    out, forces it back and p1 is out."""
    hand = _p1_pyramids_the_jd(GO_OUT)
    sound = SoundBot()
    sound.react(hand, 0)
    assert hand.phase is Phase.PLAYING and hand.discards[-1].card == c("Jd")
    assert sound.waiting(hand, 0) and not sound.waiting(hand, 2)
    sound.react(hand, 2)
    assert hand.phase is Phase.COMPLETE and hand.winner == 1
