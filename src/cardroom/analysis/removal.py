"""Cards taken out of a shoe for a depleted-shoe analysis, checked against what the shoe holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from cardroom.cards import Card
from cardroom.errors import CardroomError
from cardroom.shoe import ShoeSpec


class RemovalError(CardroomError):
    """Cards that cannot be taken out of the shoe."""


def removed_counts(spec: ShoeSpec, cards: Iterable[Card], game: str) -> Counter[Card]:
    """How many of each card are taken out; a card the shoe does not hold (a joker, a rank the
    game removes, one copy too many) is refused with the reason."""
    taken = Counter(cards)
    held = Counter(spec.cards())
    for card, n in sorted(taken.items()):
        if card.is_joker and not held[card]:
            raise RemovalError(f"there is no joker in a {game} shoe")
        if not held[card]:
            raise RemovalError(f"there is no {card} in a {game} shoe")
        if n > held[card]:
            raise RemovalError(f"cannot remove {n} x {card}: a {spec.packs}-deck {game} shoe "
                               f"holds only {held[card]}")
    return taken
