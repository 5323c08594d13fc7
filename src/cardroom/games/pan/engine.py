"""One hand of Pan as a state machine: every action has verify_x (raises PanRuleError naming the
rule and changes nothing), can_x (yes or no) and x (applies it and returns the frozen events it
appended to `events`).

Seats are numbered in the order of play (to the right). Chips are whole chips; the table's
chip value in cents is a house rule. Each rule area lives in its own module (one mixin each):

- `base`: the tops, the deal, chip moves, the action log;  `queries`: what players may ask;
- `pays`: conditions and collections;  `ending`: going out, the tops, splitting the tops;
- `declarations`, `counts`: play or pass, wrong card counts (rule 8);
- `turn`, `melding`: draw or take, melds, borrowing, splitting, the discard, the stock;
- `fouls`, `irregularities`: calling fouls and their causes;  `forcing`: rules 11-14.
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
