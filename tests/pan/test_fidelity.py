"""Rules fidelity (issue 10, Panguingue): clauses of the house rules and the digest played out
through the engine where it used to depart from them."""

from __future__ import annotations

import pytest

from cardroom.games.pan import errors as R
from cardroom.games.pan.engine import Cause, Status
from cardroom.games.pan.errors import PanRuleError

from .helpers import all_play, cs, make_hand

H1 = "Ac 2c 6h 6h 4s 4s Jd Jd 7s Qh"
H2 = "Kh Kh 5c 5d 2h 2d 6c 4c Qs Ks"
GOES_OUT_WITH_QD = "Ac 2c 3c 4h 4h 4h 5d 6d 7d Jd"


# ----- foul rule 3E: a card from the deck put in the hand, except when going out -----------


def test_pan_foul_rule_3e_exception_deck_card_kept_while_going_out_is_no_foul() -> None:
    """3E: "A player puts a card from the deck in his hand. The exception to this rule is when
    the player is going out (No-discards)." He keeps the Qd, melds all eleven and goes out."""
    hand = make_hand([GOES_OUT_WITH_QD, H1, H2], "Qd")
    all_play(hand)
    hand.draw(0)
    hand.keep_drawn(0)
    with pytest.raises(PanRuleError, match="no cause") as e:
        hand.call_foul(1, 0)
    assert e.value.rule == R.FOUL_3
    hand.meld(0, cs("Ac 2c 3c"))
    hand.meld(0, cs("4h 4h 4h"))
    hand.meld(0, cs("5d 6d 7d Jd Qd"))
    assert not hand.can_call_foul(2, 0)
    hand.go_out(0)
    assert hand.winner == 0 and hand.seats[0].status is Status.OUT
    assert Cause.DECK_CARD_IN_HAND not in hand.seats[0].causes
