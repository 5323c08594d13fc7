"""Super Pan 9 card values (rule 2) and hand totals (rule 5)."""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.cards import Card, Rank
from cardroom.errors import CardParseError

REMOVED_RANKS = frozenset({Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN})
"""Rule 1: "all 7's, 8's, 9's, and 10's are removed. Joker cards are also not used"."""



def card_value(card: Card) -> int:
    """Rule 2: faces 0, ace 1, 2-9 face value; suits have no value. Tens and jokers never
    appear in a Super Pan 9 shoe, so they are refused rather than guessed."""
    if card.rank is Rank.JOKER:
        raise CardParseError("jokers are not used in Super Pan 9 (rule 1)")
    if card.rank is Rank.TEN:
        raise CardParseError("tens are removed from a Super Pan 9 shoe (rule 1)")
    if card.rank >= Rank.JACK:
        return 0
    return int(card.rank)


def hand_total(cards: Iterable[Card]) -> int:
    """Rule 5: the last digit of the sum of the values."""
    return values_total(card_value(c) for c in cards)


def values_total(values: Iterable[int]) -> int:
    return sum(values) % 10
