"""Reference Pai Gow hand evaluation: clear Python, the yardstick for the compiled kernels.

A hand's strength is one integer ``score``: ``category << 20 | tiebreak``. Two-card and
five-card hands share the scale, so "the back must outrank the front" is ``back > front``.
Ranks run 2..14 (ace high). The joker is an ace, or (five-card hands only) any card that
completes a straight, flush or straight flush; in a flush it stands for the highest card of
the suit not already in the hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum

from cardroom.cards import Card, Rank, Suit
from cardroom.errors import CardroomError

ACE = 14
CATEGORY_SHIFT = 20


class Category(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_ACES = 9

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").lower()


def pg_rank(card: Card) -> int:
    """Pai Gow rank 2..14 of a natural card (ace 14); the joker has none."""
    if card.is_joker:
        raise CardroomError("the joker has no natural rank")
    return ACE if card.rank is Rank.ACE else int(card.rank)


def category_of(score: int) -> Category:
    return Category(score >> CATEGORY_SHIFT)


def straight_value(top: int, wheel_second: bool) -> int:
    """Order of a straight by its top card; the wheel (top 5) is lowest, or just below the
    ace-high straight when the house ranks A-2-3-4-5 second-highest."""
    if top == 5 and wheel_second:
        return 27
    return 2 * top


def _pack(ranks: Sequence[int]) -> int:
    tb = 0
    for i, r in enumerate(ranks):
        tb |= r << (16 - 4 * i)
    return tb


def _straight_top(distinct: set[int]) -> int:
    """Top card of the straight formed by five distinct ranks, or 0."""
    if len(distinct) != 5:
        return 0
    if distinct == {14, 2, 3, 4, 5}:
        return 5
    if max(distinct) - min(distinct) == 4:
        return max(distinct)
    return 0


def score_natural(cards: Sequence[tuple[int, int | None]], wheel_second: bool = False) -> int:
    """Score five (rank, suit) pairs with no wild card; a suit of None never makes a flush."""
    ranks = [r for r, _ in cards]
    suits = {s for _, s in cards}
    counts = Counter(ranks)
    flush = len(suits) == 1 and None not in suits
    top = _straight_top(set(ranks))
    ordered = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 5:
        return Category.FIVE_ACES << CATEGORY_SHIFT
    if top and flush:
        return (Category.STRAIGHT_FLUSH << CATEGORY_SHIFT) | straight_value(top, wheel_second) << 15
    if shape[0] == 4:
        cat = Category.FOUR_OF_A_KIND
    elif shape[:2] == [3, 2]:
        cat = Category.FULL_HOUSE
    elif flush:
        cat = Category.FLUSH
    elif top:
        return (Category.STRAIGHT << CATEGORY_SHIFT) | straight_value(top, wheel_second) << 15
    elif shape[0] == 3:
        cat = Category.THREE_OF_A_KIND
    elif shape[:2] == [2, 2]:
        cat = Category.TWO_PAIR
    elif shape[0] == 2:
        cat = Category.PAIR
    else:
        cat = Category.HIGH_CARD
    return (cat << CATEGORY_SHIFT) | _pack(ordered)


def _validate(cards: Sequence[Card], n: int) -> None:
    if len(cards) != n:
        raise CardroomError(f"a Pai Gow hand here needs {n} cards, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise CardroomError("the hand holds the same card twice (one deck, one joker)")


def evaluate5(cards: Sequence[Card], wheel_second: bool = False) -> int:
    """Score of a five-card (back) hand: the best the joker can make of it."""
    _validate(cards, 5)
    naturals = [(pg_rank(c), int(c.suit)) for c in cards if c.suit is not None]
    if len(naturals) == 5:
        return score_natural(naturals, wheel_second)
    # The joker as an ace (of no suit: as an ace it never completes a flush by itself) ...
    best = score_natural([*naturals, (ACE, None)], wheel_second)
    # ... or as any card not in the hand that completes a straight, flush or straight flush.
    held = set(naturals)
    for rank in range(2, 15):
        for suit in Suit:
            if (rank, int(suit)) in held:
                continue
            score = score_natural([*naturals, (rank, int(suit))], wheel_second)
            if category_of(score) in _JOKER_COMPLETES:
                best = max(best, score)
    return best


_JOKER_COMPLETES = frozenset({Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH})


def evaluate2(cards: Sequence[Card]) -> int:
    """Score of a two-card (front) hand: a pair or two high cards; the joker is an ace."""
    _validate(cards, 2)
    a, b = sorted((ACE if c.is_joker else pg_rank(c) for c in cards), reverse=True)
    if a == b:
        return (Category.PAIR << CATEGORY_SHIFT) | a << 16 | b << 12
    return a << 16 | b << 12


def describe(score: int) -> str:
    """A short human name for a score, e.g. 'two pair (K, 7)'."""
    cat = category_of(score)
    tb = score & ((1 << CATEGORY_SHIFT) - 1)
    names = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"}
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        value = tb >> 15
        top = 5 if value in (10, 27) else value // 2
        return f"{cat.label}, {names.get(top, str(top))} high"
    if cat is Category.FIVE_ACES:
        return cat.label
    ranks = [(tb >> (16 - 4 * i)) & 15 for i in range(5)]
    shown = [names.get(r, str(r)) for r in ranks if r]
    return f"{cat.label} ({' '.join(shown)})"
