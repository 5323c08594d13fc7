"""Pai Gow tables set up for a test: a scripted random source, a stacked shuffle-machine
deck, a table without dice, and a dealer hand whose house way is known."""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.cards import Card, parse_cards
from cardroom.games.pai_gow.rules import PaiGowRules
from cardroom.games.pai_gow.table import DECK, PaiGowTable


class Script:
    """A scripted random source for tests: returns the listed values in turn."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = list(values)

    def randbelow(self, n: int) -> int:
        v = self.values.pop(0)
        assert 0 <= v < n
        return v


def machine_order(*hands: str) -> list[Card]:
    """A deck order that a shuffle machine deals as the given hands (line order), the rest
    of the deck after them."""
    chosen = [c for h in hands for c in parse_cards(h)]
    rest = [c for c in DECK.cards() if c not in chosen]
    order: list[Card] = []
    for h in hands:
        order += parse_cards(h) if h else [rest.pop(0) for _ in range(7)]
    return order + rest


def table(**rules: object) -> PaiGowTable:
    base = {"shuffle_machine": True, "use_dice": False}
    base.update(rules)
    return PaiGowTable(PaiGowRules.model_validate(base))


DEALER_HAND = "Kh Qd 9s 7c 5d 3h 2s"  # house way: front Q-9, back K-7-5-3-2
