"""Stacked packs: give each seat exactly the cards a test needs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardroom.cards import Card, parse_cards
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.engine import PanHand, SeatSpec
from cardroom.games.pan.rules import PanRules

FILLER = "Kd Qc 6d 4s Jd 2d 4d Ks Qd 6s"
GO_OUT = "Ac 2c 3c 4h 4h 4h 5d 6d 7d Qd"
"""Ten cards that go out with a Jd from the stock (`spread_to_go_out`)."""


def stacked_pack(hands: Sequence[str], stock: str, rules: PanRules | None = None,
                 first_hand: int = 0) -> list[Card]:
    """A pack that deals `hands[i]` (ten cards) to seat i when seat `first_hand` is first
    hand, with `stock` on top of the stock (first card drawn first), then the rest."""
    rules = rules or PanRules()
    n = len(hands)
    parsed = [parse_cards(h) for h in hands]
    order = [(first_hand + i) % n for i in range(n)]
    pack: list[Card] = []
    for rnd in range(2):
        for s in order:
            pack.extend(parsed[s][5 * rnd:5 * rnd + 5])
    pack.extend(parse_cards(stock))
    rest = Counter(pan_pack(rules))
    rest.subtract(Counter(pack))
    assert all(v >= 0 for v in rest.values()), "more copies than the pack holds"
    pack.extend(rest.elements())
    return pack


def make_hand(hands: Sequence[str], stock: str = "", rules: PanRules | None = None,
              chips: Sequence[int] | None = None, doubles: Sequence[bool] | None = None,
              deal_counts: Sequence[int] | None = None) -> PanHand:
    """Seat 0 is first hand (the last seat deals)."""
    rules = rules or PanRules()
    n = len(hands)
    chips = chips or [20] * n
    doubles = doubles or [False] * n
    specs = [SeatSpec(f"p{i}", chips[i], doubles[i]) for i in range(n)]
    if deal_counts is None:
        pack = stacked_pack(hands, stock, rules)
    else:
        pack = []
        parsed = [parse_cards(h) for h in hands]
        for rnd in range(2):
            for i in range(n):
                k = min(5, deal_counts[i]) if rnd == 0 else deal_counts[i] - min(5, deal_counts[i])
                start = 0 if rnd == 0 else min(5, deal_counts[i])
                pack.extend(parsed[i][start:start + k])
        pack.extend(parse_cards(stock))
        rest = Counter(pan_pack(rules))
        rest.subtract(Counter(pack))
        pack.extend(rest.elements())
    return PanHand(rules, specs, n - 1, pack, deal_counts)


def all_play(hand: PanHand) -> None:
    for s in list(hand.order):
        hand.declare(s, True)


def c(text: str) -> Card:
    return parse_cards(text)[0]


def cs(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def spread_go_out_melds(hand: PanHand, seat: int) -> None:
    """`seat`, dealt GO_OUT, draws the Jd and spreads 5d-6d-7d-J, A-2-3 of clubs (1) and
    4h 4h 4h (1); the Qd is the one card left in the hand."""
    hand.draw(seat)
    hand.meld(seat, cs("5d 6d 7d"), use_drawn=True)
    hand.meld(seat, cs("Ac 2c 3c"))
    hand.meld(seat, cs("4h 4h 4h"))


def spread_to_go_out(hand: PanHand, seat: int) -> None:
    """`spread_go_out_melds`, then the Qd laid off on the diamonds: all eleven cards spread,
    he may go out."""
    spread_go_out_melds(hand, seat)
    hand.lay_off(seat, 0, c("Qd"))


# seat 1 spreads A-6 of clubs and four kings (ten cards, none in hand) by drawing the 6c
# (`p1_spreads_clubs_and_kings`: the out card by borrowing of issue 20)
P1_CLUBS_KINGS = "Ac 2c 3c 4c 5c Kc Kd Kh Ks Qd"
P0_NO_FOURS = "Jh Jh 2s 2s 6h Qs 7d 3d 5h 7s"
P2_JUNK = "Js Js 3h 3h 6s 6s Ad Ad 2h 7h"


def p1_spreads_clubs_and_kings(p0: str, stock: str) -> PanHand:
    """Three players; p0 draws and discards the Qc; p1 draws the 6c, spreads A-6 of clubs and
    the four kings and discards the Qd (ten cards spread, none in hand); p2 draws and
    discards the 5s. The next card of the stock (`stock`) is p0's."""
    hand = make_hand([p0, P1_CLUBS_KINGS, P2_JUNK], "Qc 6c 5s " + stock)
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Qc"))
    hand.draw(1)
    hand.meld(1, cs("Ac 2c 3c 4c 5c"), use_drawn=True)
    hand.meld(1, cs("Kc Kd Kh Ks"))
    hand.collect(1)
    hand.discard(1, c("Qd"))
    hand.draw(2)
    hand.discard(2, c("5s"))
    s1 = hand.seats[1]
    assert not s1.hand and s1.melded_count == 10
    return hand


def p1_pyramids_the_4c() -> PanHand:
    """`p1_spreads_clubs_and_kings` (p0 without fours); p0 draws and discards the Qh; p1
    draws the 4c, which puts him out by borrowing, and discards it (pyramiding, rule 14A)."""
    hand = p1_spreads_clubs_and_kings(P0_NO_FOURS, "Qh 4c")
    hand.draw(0)
    hand.discard(0, c("Qh"))
    hand.draw(1)
    hand.discard(1, c("4c"))
    return hand
