"""Playing cards drawn as small SVG images, one per card code (0..51; 52 the joker), and a
card back."""

from __future__ import annotations

from html import escape

from cardroom.cards import Card, Suit

RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})
PIPS = {Suit.CLUBS: "\u2663", Suit.DIAMONDS: "\u2666", Suit.HEARTS: "\u2665",
        Suit.SPADES: "\u2660"}


def card_svg(card: Card) -> str:
    rank = card.rank.symbol.replace("T", "10")
    suit = PIPS[card.suit] if card.suit is not None else ""
    if card.is_joker:
        rank, suit = "JOKER", "\u2605"
    colour = "#c0392b" if card.suit in RED else "#111"
    label = escape(str(card))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="70" height="100" viewBox="0 0 70 100" '
        f'role="img" aria-label="{label}">'
        '<rect x="1" y="1" width="68" height="98" rx="6" fill="#fff" stroke="#333"/>'
        f'<text x="7" y="22" font-size="{11 if card.is_joker else 18}" font-family="serif" '
        f'fill="{colour}">{rank}</text>'
        f'<text x="7" y="40" font-size="16" font-family="serif" fill="{colour}">{suit}</text>'
        f'<text x="35" y="70" font-size="34" text-anchor="middle" font-family="serif" '
        f'fill="{colour}">{suit}</text></svg>')


def back_svg() -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="70" height="100" '
            'viewBox="0 0 70 100" role="img" aria-label="card back">'
            '<rect x="1" y="1" width="68" height="98" rx="6" fill="#1d4e89" stroke="#333"/>'
            '<rect x="7" y="7" width="56" height="86" rx="4" fill="none" stroke="#fff"/></svg>')
