"""The sound bot forces the option card (house rule 12) when it pays, and only then."""

from __future__ import annotations

from cardroom.games.pan.bots import SoundBot
from cardroom.games.pan.engine import PanHand
from cardroom.games.pan.events import Forced

from .helpers import all_play, c, cs, make_hand

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
