"""The Pan pack and rank order: A 2 3 4 5 6 7 J Q K, aces low only; 3s, 5s and 7s are valle."""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.cards import JOKER, Card, Rank, Suit
from cardroom.shoe import ShoeSpec

from .rules import PanRules

PAN_RANKS: tuple[Rank, ...] = (
    Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
    Rank.JACK, Rank.QUEEN, Rank.KING,
)
ORDER: dict[Rank, int] = {r: i for i, r in enumerate(PAN_RANKS)}
"""Position in the Pan order: the 7 and the J are consecutive; nothing follows the K."""
VALLE_RANKS = frozenset({Rank.THREE, Rank.FIVE, Rank.SEVEN})
ANY_SUIT_SET_RANKS = frozenset({Rank.ACE, Rank.KING})
REMOVED_RANKS = frozenset({Rank.EIGHT, Rank.NINE, Rank.TEN})


def pack_spec(rules: PanRules) -> ShoeSpec:
    return ShoeSpec(packs=rules.packs, removed_ranks=REMOVED_RANKS)


def pan_pack(rules: PanRules) -> list[Card]:
    """The unshuffled pack: `packs` 40-card packs, less one pack's spades if the option is on."""
    cards = pack_spec(rules).cards()
    if rules.remove_one_spade_pack:
        for rank in PAN_RANKS:
            cards.remove(Card(rank, Suit.SPADES))
    return cards


def sort_key(card: Card) -> tuple[int, int]:
    """Sort a hand by suit, then Pan order, so sequences read naturally."""
    return (int(card.suit or 0), ORDER.get(card.rank, 99))


def card_key(card: Card) -> int:
    """The card as a small integer, 4 * rank + suit (the joker 0): equal cards, equal keys,
    and keys sort as cards do. Hot paths count, sort and look cards up by it, since hashing
    and comparing the card itself costs several times more."""
    return card.rank * 4 + (card.suit or 0)


def key_card(key: int) -> Card:
    """The card with this `card_key`."""
    return JOKER if key == 0 else Card(Rank(key >> 2), Suit(key & 3))


def sorted_keys(cards: Iterable[Card]) -> tuple[int, ...]:
    """The cards' keys in card order: `tuple(sorted(cards))` as integers."""
    return tuple(sorted([c.rank * 4 + (c.suit or 0) for c in cards]))
