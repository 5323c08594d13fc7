"""Out cards (issue 20): one question, "does this card put this player out", asked by rules
14 (A, B, C), 17 and 12, answered by the complete search of a card's uses (borrowing
included) and, with cards still in the hand, of every way to meld them all."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardroom.cards import Card, Suit
from cardroom.games.pan import errors as R
from cardroom.games.pan.cards import PAN_RANKS
from cardroom.games.pan.engine import PanHand, Phase
from cardroom.games.pan.errors import PanRuleError
from cardroom.games.pan.melds import MeldKind, is_valid_on_board
from cardroom.games.pan.outs import Meld, best_out
from cardroom.games.pan.rules import PanRules

from .helpers import (
    P0_NO_FOURS,
    P2_JUNK,
    all_play,
    c,
    cs,
    make_hand,
    p1_pyramids_the_4c,
    p1_spreads_clubs_and_kings,
)

P0_FOURS = "4d 4h Jh Jh 2s 2s 6h Qs 7d 3d"


def test_pan_4c_puts_the_ten_spread_player_out_by_borrowing() -> None:
    """The 4c fits none of A-6 of clubs and the kings, but taken with the 5c and 6c borrowed
    (leaving A-2-3-4, borrowing) it makes his eleventh card melded: it is an out card."""
    hand = p1_spreads_clubs_and_kings(P0_NO_FOURS, "4c")
    assert not hand.fitting_melds(1, c("4c"))
    assert hand.goes_out_with(1, c("4c"))
    assert not hand.goes_out_with(1, c("4d"))


def test_pan_house_rule_17_out_card_by_borrowing_may_not_be_given_to_ten_spread() -> None:
    """Rule 17: "A player may not give an out card to a player with ten cards spread on the
    board if the card can be used in the first hand." p0 can use the 4c with his 4d 4h; the
    4c puts p1 out by borrowing the 5c-6c of clubs: discarding it is refused."""
    hand = p1_spreads_clubs_and_kings(P0_FOURS, "4c")
    hand.draw(0)
    assert hand.card_uses(0, c("4c"))
    with pytest.raises(PanRuleError) as e:
        hand.discard(0, c("4c"))
    assert e.value.rule == R.RULE_17 and hand.drawn == c("4c")


def test_pan_house_rule_14_option_card_out_by_borrowing_not_forced_three_handed() -> None:
    """Rule 14: "An 'out card' may be forced back in only three cases". p0, who cannot use
    the 4c, discards it; p1 overlooks it and draws. Three players (not head up, 14C), the
    4c puts only p1 out (14B) and it is not his discard (14A): p2 may not force it on him."""
    hand = p1_spreads_clubs_and_kings(P0_NO_FOURS, "4c Qh")
    hand.draw(0)
    hand.discard(0, c("4c"))
    hand.draw(1)
    assert not hand.head_up
    with pytest.raises(PanRuleError) as e:
        hand.force_option_card(2, True)
    assert e.value.rule == R.RULE_14
    hand.force_option_card(2, False)                 # forcing him to continue stays open


def test_pan_house_rule_14a_out_card_by_borrowing_discarded_is_forced_back() -> None:
    """Rule 14A: p1 draws the 4c, which puts him out by borrowing, and discards it hoping for
    more (pyramiding): "any active player may choose to end the hand for the lower pay
    rate". p2 forces it back and p1 is out, the 4c melded as it pays him most: with the
    A-2-3 borrowed (a condition), leaving 4c-5c-6c, rather than with the 5c-6c."""
    hand = p1_pyramids_the_4c()
    hand.force_back(2, 1)
    assert hand.phase is Phase.COMPLETE and hand.winner == 1
    assert hand.end_reason == "went out on a card forced back"
    assert [m.cards for m in hand.seats[1].melds] == [
        cs("4c 5c 6c"), cs("Kc Kd Kh Ks"), cs("Ac 2c 3c 4c")]


# ----- rule 14A with two usable cards in the hand ---------------------------------------------

# p1 draws the Kh and spreads Kc Kd Kh, 3h 4h 5h and 5c 5c 5c: nine cards melded, and the
# 2h (on 3h-4h-5h) and the 5c (on the clubs set) in hand both fit: he could go out
P1_TWO_FIT = "3h 4h 5h 5c 5c 5c Kc Kd 2h 5c"


def _p1_spreads_nine(p0: str, p1: str, stock: str) -> PanHand:
    """Three players; p0 draws and discards the Qc; p1 draws the Kh and spreads Kc Kd Kh,
    3h 4h 5h and 5c 5c 5c (nine cards melded, one left in hand). The stock after the Kh is
    `stock`."""
    hand = make_hand([p0, p1, P2_JUNK], "Qc Kh " + stock)
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Qc"))
    hand.draw(1)
    hand.meld(1, cs("Kc Kd"), use_drawn=True)
    hand.meld(1, cs("3h 4h 5h"))
    hand.meld(1, cs("5c 5c 5c"))
    hand.collect(1)
    return hand


def _p1_discards_2h_holding_5c() -> PanHand:
    hand = _p1_spreads_nine(P0_NO_FOURS, P1_TWO_FIT, "")
    assert hand.can_lay_off(1, 1, c("2h")) and hand.can_lay_off(1, 2, c("5c"))
    hand.discard(1, c("2h"))
    return hand


def test_pan_house_rule_14a_discard_while_able_to_go_out_is_pyramiding() -> None:
    """Rule 14A: p1 could have laid off the 2h and the 5c and gone out; he discards the 2h
    and keeps the 5c. That discard is an attempt to pyramid, whatever is left in his hand:
    forcing the 2h back ends the hand (he goes out, the 5c laid off too), not rule 13's
    "discard again"."""
    hand = _p1_discards_2h_holding_5c()
    hand.force_back(2, 1)
    assert hand.phase is Phase.COMPLETE and hand.winner == 1
    assert hand.forced_discard is None and not hand.seats[1].hand
    assert [m.cards for m in hand.seats[1].melds] == [
        cs("Kc Kd Kh"), cs("2h 3h 4h 5h"), cs("5c 5c 5c 5c")]


def test_pan_house_rule_17_only_a_player_with_ten_cards_spread() -> None:
    """Rule 17 protects "a player with ten cards spread on the board": p1 has nine spread and
    the 2h in hand, so the 5c p0 could use (with his 5c 5c) would put him out, but p0 may
    discard it to him."""
    hand = _p1_spreads_nine("5c 5c Jh Jh 2s 2s 6h Qs 7d 3d", "3h 4h 5h 5c 5c 5c Kc Kd 2h Qh",
                            "5s 5c")
    hand.discard(1, c("Qh"))
    hand.draw(2)
    hand.discard(2, c("5s"))
    hand.draw(0)
    assert hand.goes_out_with(1, c("5c")) and hand.card_uses(0, c("5c"))
    hand.discard(0, c("5c"))
    assert hand.current == 1


# ----- the search: every way out found, and only real ones ------------------------------------

SUITS = [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]


def _final_meld(rng: random.Random) -> tuple[tuple[Card, ...], MeldKind]:
    """A meld of three to six cards: a sequence, a one-suit set or a set of different suits."""
    n = rng.randint(3, 6)
    suit = rng.choice(SUITS)
    if rng.random() < 0.5:
        start = rng.randint(0, len(PAN_RANKS) - n)
        return tuple(Card(r, suit) for r in PAN_RANKS[start:start + n]), MeldKind.SEQUENCE
    rank = rng.choice(PAN_RANKS)
    if rng.random() < 0.5:
        return tuple(Card(rank, suit) for _ in range(n)), MeldKind.SET
    return tuple(Card(rank, x) for x in rng.sample(SUITS, rng.randint(3, 4))), MeldKind.SET


def _take_apart(rng: random.Random, cards: tuple[Card, ...], kind: MeldKind
                ) -> tuple[tuple[Card, ...] | None, list[Card]]:
    """What stays on the board of a final meld and the cards taken off it: all of it (a meld
    from the hand), cards from the ends of a sequence, or any cards of a set, three left."""
    if rng.random() < 0.3:
        return None, list(cards)
    k = rng.randint(0, len(cards) - 3)
    if kind is MeldKind.SET:
        idx = set(rng.sample(range(len(cards)), k))
        return (tuple(x for i, x in enumerate(cards) if i not in idx),
                [cards[i] for i in idx])
    low = rng.randint(0, k)
    return cards[low:len(cards) - (k - low)], [*cards[:low], *cards[len(cards) - (k - low):]]


def test_pan_out_search_finds_every_way_out_and_only_real_ones() -> None:
    """Rules 12, 14, 17 ask "does this card put this player out": on random final spreads
    taken apart (whole melds back in the hand, end cards of sequences, cards of sets), the
    loose cards can always be melded back, so the search must find a plan; the plan's spread
    is the cards of both, every meld valid. A card with no partner anywhere spoils it."""
    rng = random.Random(20)
    rules = PanRules()
    found = 0
    for _ in range(300):
        board: list[Meld] = []
        loose: list[Card] = []
        for _ in range(rng.randint(2, 3)):
            cards, kind = _final_meld(rng)
            kept, taken = _take_apart(rng, cards, kind)
            if kept is not None:
                board.append((kept, kind))
            loose += taken
        if not loose:
            continue
        rng.shuffle(loose)
        plan = best_out(loose[0], loose[1:], board, rules)
        assert plan is not None, (loose, board)
        found += 1
        spread = [list(m) for m, _ in board]
        kinds: list[MeldKind | None] = [k for _, k in board]
        for x, use in plan.steps:
            if use[0] == "lay_off":
                spread[use[1]].append(x)
                continue
            borrowed = use[2] if use[0] == "borrow" else ()
            for b in borrowed:
                spread[use[1]].remove(b)
            new = [x, *borrowed, *(use[1] if use[0] == "meld" else use[3])]
            spread.append(new)
            kinds.append(MeldKind.SET if len({y.rank for y in new}) == 1
                         else MeldKind.SEQUENCE)
        assert Counter(y for m in spread for y in m) == Counter(
            [*loose, *(y for m, _ in board for y in m)])
        assert all(k is not None and is_valid_on_board(m, k)
                   for m, k in zip(spread, kinds, strict=True))
        stray = Card(PAN_RANKS[0], Suit.SPADES)
        if all(y.rank != stray.rank and y.suit != stray.suit
               for y in [*loose, *(y for m, _ in board for y in m)]):
            assert best_out(stray, loose, board, rules) is None
    assert found >= 250


def test_pan_out_search_melds_in_the_order_that_works() -> None:
    """The 3h goes on 5h-6h-7h only after the 4h in the hand: the card and his hand put him
    out, though the card alone has no use."""
    plan = best_out(c("3h"), [c("4h")], [(cs("5h 6h 7h"), MeldKind.SEQUENCE)], PanRules())
    assert plan is not None and [x for x, _ in plan.steps] == [c("4h"), c("3h")]
