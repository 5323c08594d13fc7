"""One hand of Pan as a state machine: every action has verify_x (raises PanRuleError naming the
rule and changes nothing), can_x (yes or no) and x (applies it and returns the frozen events it
appended to `events`).

A seat is known by its table seat number, as every game's engine knows it (`seats`: a mapping
of seat numbers, or a list numbered 0, 1, 2...); play goes to the right, from the lowest
number up and round, and `order` is the order of play of the hand, first hand to dealer.
Chips are whole chips; the table's chip value in cents is a house rule. Each rule area lives
in its own module (one mixin each):

- `base`: the tops, the deal, chip moves, the action log;  `queries`: what players may ask;
- `pays`: conditions and collections;  `ending`: going out, the tops, splitting the tops;
- `declarations`, `counts`: play or pass, wrong card counts (rule 8);
- `turn`, `melding`: draw or take, melds, borrowing, splitting, the discard, the stock;
- `fouls`, `irregularities`: calling fouls and their causes;  `forcing`: rules 11-14.

A short hand, three players and a stacked pack (the first ten cards of each seat dealt in two
rounds of five from first hand, then the stock): ann draws the Jd, spreads three melds, lays
the Qd off and goes out, taking the tops, the conditions and two chips from each player.

>>> from collections import Counter
>>> from cardroom.cards import parse_cards
>>> from cardroom.games.pan.cards import pan_pack
>>> from cardroom.games.pan.rules import PanRules
>>> rules = PanRules()
>>> ann, bob, cy = (parse_cards(h) for h in ("Ac 2c 3c 4h 4h 4h 5d 6d 7d Qd",
...                 "Ac 2c 6h 6h 4s 4s Jd Jd 7s Qh", "Kh Kh 5c 5d 2h 2d 6c 4c Qs Ks"))
>>> top = ann[:5] + bob[:5] + cy[:5] + ann[5:] + bob[5:] + cy[5:] + parse_cards("Jd")
>>> pack = top + list((Counter(pan_pack(rules)) - Counter(top)).elements())
>>> seats = [SeatSpec(name, 20, False) for name in ("ann", "bob", "cy")]
>>> hand = PanHand(rules, seats, 2, pack)  # cy deals, ann is first hand
>>> for seat in hand.order:
...     _ = hand.declare(seat, True)
>>> _ = hand.draw(0)
>>> _ = hand.meld(0, tuple(parse_cards("5d 6d 7d")), use_drawn=True)
>>> _ = hand.meld(0, tuple(parse_cards("Ac 2c 3c")))
>>> _ = hand.meld(0, tuple(parse_cards("4h 4h 4h")))
>>> _ = hand.lay_off(0, 0, parse_cards("Qd")[0])
>>> _ = hand.go_out(0)
>>> hand.phase.value, hand.winner, [s.chips for s in hand.seats.values()]
('complete', 0, [30, 15, 15])
"""

from __future__ import annotations

from .counts import CountsMixin
from .forcing import ForcingMixin
from .irregularities import IrregularitiesMixin
from .state import BoardMeld, Cause, DiscardEntry, Phase, SeatSpec, SeatState, Status

__all__ = ["BoardMeld", "Cause", "DiscardEntry", "PanHand", "Phase", "SeatSpec", "SeatState",
           "Status"]


class PanHand(CountsMixin, IrregularitiesMixin, ForcingMixin):
    """One hand from the tops to the settlement."""
