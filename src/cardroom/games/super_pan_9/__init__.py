"""Super Pan 9 (WSGC rules): 36-card decks, three cards and one optional draw, dealer draws
on 0-5, commission on winning bets, optional Tie Bet."""

from .cards import REMOVED_RANKS, card_value, hand_total
from .engine import Phase, SuperPan9Table, cards_for_round, dealer_must_draw
from .events import IrregularityKind
from .rules import IrregularityPolicy, SuperPan9Rules
from .settlement import Outcome, Settlement, compare, settle

__all__ = [
    "REMOVED_RANKS", "IrregularityKind", "IrregularityPolicy", "Outcome", "Phase", "Settlement",
    "SuperPan9Rules", "SuperPan9Table", "card_value", "cards_for_round", "compare",
    "dealer_must_draw", "hand_total", "settle",
]
