"""A Pan table across hands: rotation of the deal, the pack between hands, the seat rule."""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.cards import Card
from cardroom.shoe import RandomSource, fisher_yates

from .cards import card_key
from .engine import PanHand
from .rules import PanRules


def dealer_at(seats: Sequence[int], winner_seat: int | None, last_dealer_seat: int) -> int:
    """The next hand's dealer, an index into `seats` (the table seats dealt in, in the order
    of play), whoever sat down or left since the last hand: "the winner of a hand is first
    hand for the next one; the player on the winner's left deals", so the seat dealt in just
    before the winner's deals (before the first seat after his, if he is not dealt in). With
    no winner the deal moves on to the first seat dealt in after the last dealer's."""
    if winner_seat is not None:
        first = next((i for i, s in enumerate(seats) if s >= winner_seat), 0)
        return (first - 1) % len(seats)
    return next((i for i, s in enumerate(seats) if s > last_dealer_seat), 0)


def next_dealer(n: int, winner: int | None, dealer: int) -> int:
    """`dealer_at` for the same `n` seats as the last hand (seat indexes)."""
    return dealer_at(range(n), winner, dealer)


def next_pack(stock_top_first: Sequence[Card], used: Sequence[Card], rules: PanRules,
              source: RandomSource) -> list[Card]:
    """Between hands: the whole pack is shuffled (`full`, the default: the next deal owes
    nothing to this one); or the used cards are shuffled with a packet from the bottom of the
    stock and returned to the bottom (`packet`, a packet as large as the used cards), the rest
    of the stock keeping its unseen order on top, which no history shows (`history_of`)."""
    if rules.reshuffle == "full":
        return fisher_yates([*stock_top_first, *used], source)
    k = min(len(used), len(stock_top_first))
    keep = list(stock_top_first[:len(stock_top_first) - k])
    packet = list(stock_top_first[len(stock_top_first) - k:])
    return keep + fisher_yates([*packet, *used], source)


def pack_after(hand: PanHand, source: RandomSource) -> list[Card]:
    """The pack for the next hand: the stock as it lies (top first) and every card the hand
    used (hands, melds, discards, the floor), through `next_pack`."""
    return pack_left(hand.pack, hand.stock, hand.rules, source)


def pack_left(pack: Sequence[Card], stock: Sequence[Card], rules: PanRules,
              source: RandomSource) -> list[Card]:
    """`pack_after` from the hand's `pack` and the `stock` it left (its top last), for a
    hand played without a `PanHand` (the compiled kernel, `kernel.py`)."""
    return next_pack(stock[::-1], _less(pack, stock), rules, source)


def _less(pack: Sequence[Card], stock: Sequence[Card]) -> list[Card]:
    """The cards of `pack` not in `stock` (multisets), each card's copies together in the
    order its first copy lies in the pack (as `Counter.elements` lists them), counted by
    `card_key`: no card is hashed."""
    count = [0] * 56
    first: dict[int, Card] = {}
    for c in pack:
        k = c.rank * 4 + (c.suit or 0)  # card_key, inline: a pack is hundreds of cards
        count[k] += 1
        if k not in first:
            first[k] = c
    for c in stock:
        count[card_key(c)] -= 1
    return [c for k, c in first.items() for _ in range(count[k])]


def must_change_seat(panned_last: bool, hands_since_pan: int, players_waiting: bool) -> bool:
    """Pan rule 2: when players are waiting, the player who panned the previous hand may play
    ONE more hand in that seat before changing seats."""
    return players_waiting and panned_last and hands_since_pan >= 1
