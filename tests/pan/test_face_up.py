"""Foul rule 5B (issue 20): the one player left after fouls who opts to "play the hand to
completion ... face up, under the supervision of the dealer, using any and all cards which
may be used in the quickest way to put the hand out"."""

from __future__ import annotations

import random

import pytest

from cardroom.games.pan import errors as R
from cardroom.games.pan.bots import Bot, RandomBot, SoundBot
from cardroom.games.pan.driver import play_hand
from cardroom.games.pan.engine import PanHand, Phase, Status
from cardroom.games.pan.errors import PanRuleError

from .helpers import GO_OUT, all_play, c, cs, make_hand

H1 = "Ac 2c 6h 6h 4s 4s Jd Jd 7s Qh"
H2 = "Kh Kh 5c 5d 2h 2d 6c 4c Qs Ks"


def _p0_drew(p0: str, drawn: str, fouls: str) -> PanHand:
    """p0 and the others draw and discard a Kc (`fouls`: "self", two players; "called",
    three, p1 and p2 throwing a card on the floor, 3C); p0 draws `drawn`."""
    n = 2 if fouls == "self" else 3
    hand = make_hand([p0, H1, H2][:n], "Kc " * n + drawn)
    all_play(hand)
    for seat in range(n):
        hand.draw(seat)
        if seat and fouls == "called":
            hand.drop_card(seat, hand.seats[seat].hand[0])
        hand.discard(seat, c("Kc"))
    hand.draw(0)
    return hand


def _p0_face_up(p0: str, drawn: str, fouls: str) -> PanHand:
    """`_p0_drew`, then the others' hands are fouled (`fouls`: "self", p1 calls his own hand
    foul; "called", p0 calls p1 and p2 foul); p0 plays on face up (5B)."""
    hand = _p0_drew(p0, drawn, fouls)
    if fouls == "self":
        hand.declare_own_foul(1)
    else:
        hand.call_foul(0, 1)
        hand.call_foul(0, 2)
    assert hand.phase is Phase.LAST_PLAYER
    hand.play_face_up(0)
    return hand


@pytest.mark.parametrize("fouls", ["self", "called"])
def test_pan_foul_rule_5b_face_up_hand_is_played_to_completion_after_a_collection(
        fouls: str) -> None:
    """5B: "He may opt to play the hand to completion": calling for the A-2-3 of clubs (a
    condition) with eight cards still in his hand does not end the hand; it ends when he
    goes out, all eleven cards spread."""
    hand = _p0_face_up(GO_OUT, "Jd", fouls)
    hand.meld(0, cs("5d 6d 7d"), use_drawn=True)
    hand.meld(0, cs("Ac 2c 3c"))
    hand.collect(0)
    assert hand.phase is Phase.PLAYING and hand.winner is None and hand.current == 0
    assert len(hand.seats[0].hand) == 4 and hand.seats[0].status is Status.IN
    hand.meld(0, cs("4h 4h 4h"))
    hand.lay_off(0, 0, c("Qd"))
    hand.go_out(0)
    assert hand.winner == 0 and hand.end_reason == "went out"


FACE_UP_3H = "3h 3h 3h Ac 2c 5d 6d 7d Qs 7s"


def test_pan_foul_rule_5b_face_up_usable_drawn_card_may_not_be_discarded() -> None:
    """5B: face up, "using any and all cards which may be used in the quickest way": the drawn
    3h melds with his 3h 3h 3h, so discarding it is refused; he melds it."""
    hand = _p0_face_up(FACE_UP_3H, "3h", "self")
    with pytest.raises(PanRuleError) as e:
        hand.discard(0, c("3h"))
    assert e.value.rule == R.FOUL_5 and hand.drawn == c("3h")
    hand.meld(0, cs("3h 3h 3h"), use_drawn=True)
    assert hand.seats[0].melds[0].cards == cs("3h 3h 3h 3h")


FACE_UP_BORROW = "5d 6d 7d Jc Js Ac 2s Qh 4h 6c"
"""With the Jd drawn and melded on 5d 6d 7d, the Jc Js meld only by borrowing the Jd back."""


def test_pan_foul_rule_5b_face_up_every_usable_hand_card_is_used_before_a_discard() -> None:
    """5B: "using any and all cards which may be used in the quickest way to put the hand
    out": after the drawn Jd is melded, a discard is refused while a hand card can still be
    melded (the Jc Js with the Jd borrowed from 5d-6d-7d-Jd); once they are, the 6c goes."""
    hand = _p0_face_up(FACE_UP_BORROW, "Jd", "self")
    hand.meld(0, cs("5d 6d 7d"), use_drawn=True)
    for card in ("6c", "Jc"):
        with pytest.raises(PanRuleError) as e:
            hand.discard(0, c(card))
        assert e.value.rule == R.FOUL_5 and "Jc" in str(e.value)
    assert len(hand.seats[0].hand) == 7 and not hand.can_discard(0, c("Qh"))
    hand.borrow(0, 0, cs("Jd"), cs("Jc Js"))
    assert hand.hand_uses(0) == []
    hand.discard(0, c("6c"))
    assert hand.discards[-1].card == c("6c") and c("6c") not in hand.seats[0].hand


def test_pan_foul_rule_5b_only_the_face_up_hand_must_use_every_card() -> None:
    """Outside 5B a player may keep usable cards in his hand: the same position before the
    other hand is fouled lets p0 discard the 6c with the Jc Js still in hand."""
    hand = _p0_drew(FACE_UP_BORROW, "Jd", "self")
    hand.meld(0, cs("5d 6d 7d"), use_drawn=True)
    hand.discard(0, c("6c"))
    assert hand.discards[-1].card == c("6c")


@pytest.mark.parametrize("bot", [SoundBot(), *(RandomBot(random.Random(k)) for k in range(8))],
                         ids=["sound", *(f"random-{k}" for k in range(8))])
def test_pan_foul_rule_5b_bots_play_a_face_up_hand_with_legal_actions_only(bot: Bot) -> None:
    """5B: a bot playing face up uses every usable hand card, borrowing included (the Jc Js
    take the Jd back from 5d-6d-7d-Jd), before it discards: every action it takes goes
    through the engine, so a refused discard would raise here; the hand is played out."""
    hand = _p0_face_up(FACE_UP_BORROW, "Jd", "self")
    hand.meld(0, cs("5d 6d 7d"), use_drawn=True)
    bot.finish(hand, 0)
    spread = [m.cards for m in hand.seats[0].melds]
    assert any(set(m) == set(cs("Jc Jd Js")) for m in spread)
    assert hand.current == 0 and hand.hand_uses(0) == []
    play_hand(hand, [bot, bot], random.Random(1))
    assert hand.phase is Phase.COMPLETE
