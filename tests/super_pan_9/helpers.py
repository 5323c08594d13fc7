"""Stacked shoes for Super Pan 9 tests: write the hands, get the shoe order the table deals."""

from __future__ import annotations

from cardroom.cards import parse_cards
from cardroom.games.super_pan_9 import SuperPan9Rules, SuperPan9Table
from cardroom.shoe import Shoe

FILLER = "Kc " * 40


def stacked_shoe(hands: dict[int, str], dealer: str, draws: str = "",
                 cut_index: int | None = None) -> Shoe:
    """Order the cards the way the table deals them: one card at a time to each seat in seat
    order then the dealer, three times; then the draws in the order they are taken."""
    seat_cards = {s: parse_cards(t) for s, t in hands.items()}
    dealer_cards = parse_cards(dealer)
    order = []
    for i in range(3):
        for s in sorted(seat_cards):
            order.append(seat_cards[s][i])
        order.append(dealer_cards[i])
    order += parse_cards(draws) + parse_cards(FILLER)
    return Shoe(order=order, cut_index=cut_index or len(order) - 5, salt=bytes(16))


def stacked_table(hands: dict[int, str], dealer: str, draws: str = "",
                  rules: SuperPan9Rules | None = None, wager: int = 1000,
                  tie: int = 0) -> SuperPan9Table:
    table = SuperPan9Table(rules or SuperPan9Rules(), shoe=stacked_shoe(hands, dealer, draws))
    for seat in sorted(hands):
        table.place_wager(seat, wager, tie)
    table.deal()
    return table
