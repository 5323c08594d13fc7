"""Cards, ranks, suits and the joker; parsing and printing of "As Kd Th 9c 2s 10h JK"."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from cardroom.errors import CardParseError


class Rank(IntEnum):
    """Ranks numbered ace-low; each game orders them itself (ace high in Pai Gow)."""

    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "cdhs"[self]


_RANK_SYMBOLS = {
    Rank.JOKER: "JK", Rank.ACE: "A", Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4",
    Rank.FIVE: "5", Rank.SIX: "6", Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9",
    Rank.TEN: "T", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K",
}
_RANK_BY_SYMBOL = {s: r for r, s in _RANK_SYMBOLS.items() if r is not Rank.JOKER}
_RANK_BY_SYMBOL["10"] = Rank.TEN
_SUIT_BY_SYMBOL = {s.symbol: s for s in Suit}
STANDARD_RANKS = tuple(r for r in Rank if r is not Rank.JOKER)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card. The joker has rank JOKER and no suit."""

    rank: Rank
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is None):
            raise CardParseError("only the joker has no suit")

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        """A card is immutable: a copy (a live table's checkpoint) shares it."""
        return self

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def code(self) -> int:
        """Dense index 0..51 (rank-major, ace first) and 52 for the joker, for kernels."""
        if self.suit is None:
            return 52
        return (self.rank - 1) * 4 + self.suit

    @staticmethod
    def from_code(code: int) -> Card:
        if code == 52:
            return JOKER
        if not 0 <= code < 52:
            raise CardParseError(f"no card has code {code}")
        return Card(Rank(code // 4 + 1), Suit(code % 4))

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return self.rank.symbol + self.suit.symbol


JOKER = Card(Rank.JOKER, None)


def parse_card(text: str) -> Card:
    """Parse one card such as "As", "td", "10h" or "JK" (case-insensitive)."""
    token = text.strip()
    upper = token.upper()
    if upper in ("JK", "JOKER"):
        return JOKER
    if len(token) < 2:
        raise CardParseError(f"bad card {text!r}: expected a rank and a suit, e.g. 'As' or '10h'")
    rank = _RANK_BY_SYMBOL.get(upper[:-1])
    suit = _SUIT_BY_SYMBOL.get(token[-1].lower())
    if rank is None:
        raise CardParseError(
            f"bad card {text!r}: unknown rank {token[:-1]!r} (use A 2-9 T/10 J Q K)"
        )
    if suit is None:
        raise CardParseError(f"bad card {text!r}: unknown suit {token[-1]!r} (use c d h s)")
    return Card(rank, suit)


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas: "As Kd 10h JK"."""
    return [parse_card(tok) for tok in text.replace(",", " ").split()]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


SUIT_SYMBOLS = {Suit.CLUBS: "\u2663", Suit.DIAMONDS: "\u2666", Suit.HEARTS: "\u2665",
                Suit.SPADES: "\u2660"}
"""The suits as people read them on a card (clubs, diamonds, hearts, spades)."""


def card_label(card: Card) -> str:
    """A card as a person reads it: "10\u2665", "Q\u2660", "joker"."""
    if card.suit is None:
        return "joker"
    rank = "10" if card.rank is Rank.TEN else card.rank.symbol
    return rank + SUIT_SYMBOLS[card.suit]


def cards_label(cards: Iterable[Card]) -> str:
    return " ".join(card_label(c) for c in cards)


def standard_pack(jokers: int = 0) -> list[Card]:
    """One 52-card pack in a fixed order, plus the given number of jokers."""
    pack = [Card(r, s) for r in STANDARD_RANKS for s in Suit]
    return pack + [JOKER] * jokers


_RANK_WORDS = {Rank.ACE: "ace", Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "four",
               Rank.FIVE: "five", Rank.SIX: "six", Rank.SEVEN: "seven", Rank.EIGHT: "eight",
               Rank.NINE: "nine", Rank.TEN: "ten", Rank.JACK: "jack", Rank.QUEEN: "queen",
               Rank.KING: "king"}
_SUIT_WORDS = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts",
               Suit.SPADES: "spades"}


def card_words(card: Card | str) -> str:
    """A card's name in words, for a screen reader: "ace of spades", "joker"."""
    c = parse_card(card) if isinstance(card, str) else card
    if c.suit is None:
        return "joker"
    return f"{_RANK_WORDS[c.rank]} of {_SUIT_WORDS[c.suit]}"
