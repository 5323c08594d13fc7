"""Does a card put a player out (house rules 12, 14, 17)? Only if, with the card, every card
still in his hand can be melded at once onto or with his spread, one use at a time
(`uses.card_uses`: lay-off, meld with hand cards, borrowing), so that all eleven cards lie on
the board. With ten cards spread and none in hand that is "the card has a use".

The search is exhaustive over the order of the uses (a 3h with a 4h in the hand goes on
5h-6h-7h only after the 4h), pruned by a necessary condition: every loose card needs two
partners on the table or in the hand (two more of its rank, or two of its suit that make a
run of three with it). It returns the plan that pays most: the player melds his own cards as
they pay him best, and rule 14B compares what the out pays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardroom.cards import Card

from .cards import ORDER
from .melds import MeldKind, addition_units, lay_down_units, meld_kind, sort_meld
from .rules import PanRules
from .uses import Use, card_uses, has_partners, table_partners

Meld = tuple[tuple[Card, ...], MeldKind | None]
Step = tuple[Card, Use]
"""A loose card and the use that melds it (meld indexes as the spread grows: a new meld is
appended, a borrowed-from meld keeps its place)."""


@dataclass(frozen=True, slots=True)
class OutPlan:
    steps: tuple[Step, ...]
    units: int
    """What the melding pays (condition units), before the outs."""


def best_out(card: Card, hand: Sequence[Card], melds: Sequence[Meld],
             rules: PanRules) -> OutPlan | None:
    """The best-paying way to meld `card` and all of `hand` at once, or None."""
    if not _partners_everywhere((card, *hand), melds):
        return None  # most cards: the search would stop at its first state
    memo: dict[tuple[tuple[Card, ...], tuple[Meld, ...]], OutPlan | None] = {}
    loose = tuple(sorted((card, *hand), key=_key))
    return _search(loose, tuple(melds), rules, memo)


def _key(c: Card) -> tuple[int, int]:
    return (int(c.suit or 0), ORDER[c.rank])


def _search(loose: tuple[Card, ...], melds: tuple[Meld, ...], rules: PanRules,
            memo: dict[tuple[tuple[Card, ...], tuple[Meld, ...]], OutPlan | None]
            ) -> OutPlan | None:
    if not loose:
        return OutPlan((), 0)
    if not _partners_everywhere(loose, melds):
        return None  # checked before the memo: cheaper than hashing the state
    state = (loose, melds)
    if state in memo:
        return memo[state]
    best: OutPlan | None = None
    strict = rules.strict_set_additions
    for i, x in enumerate(loose):
        if i and loose[i - 1] == x:
            continue
        others = loose[:i] + loose[i + 1:]
        for use in card_uses(x, others, melds, strict):
            rest, after, units = _apply(x, use, others, melds, rules)
            sub = _search(rest, after, rules, memo)
            if sub is not None and (best is None or units + sub.units > best.units):
                best = OutPlan(((x, use), *sub.steps), units + sub.units)
    memo[state] = best
    return best


def _apply(x: Card, use: Use, loose: tuple[Card, ...], melds: tuple[Meld, ...],
           rules: PanRules) -> tuple[tuple[Card, ...], tuple[Meld, ...], int]:
    """The loose cards and melds after `use` melds `x`, and what it pays."""
    spread = list(melds)
    if use[0] == "lay_off":
        cards, kind = spread[use[1]]
        assert kind is not None
        after = sort_meld((*cards, x), kind)
        spread[use[1]] = (after, kind)
        return loose, tuple(spread), addition_units(cards, after, kind, rules)
    if use[0] == "meld":
        from_hand: tuple[Card, ...] = use[1]
        borrowed: tuple[Card, ...] = ()
    else:
        cards, kind = spread[use[1]]
        assert kind is not None
        borrowed, from_hand = use[2], use[3]
        left = list(cards)
        for b in borrowed:
            left.remove(b)
        spread[use[1]] = (sort_meld(left, kind), kind)
    rest = list(loose)
    for h in from_hand:
        rest.remove(h)
    new_cards = (x, *borrowed, *from_hand)
    new_kind = meld_kind(new_cards)
    assert new_kind is not None
    new = sort_meld(new_cards, new_kind)
    spread.append((new, new_kind))
    return tuple(rest), tuple(spread), lay_down_units(new, new_kind, rules)


def _partners_everywhere(loose: Sequence[Card], melds: Sequence[Meld]) -> bool:
    """Every loose card could belong to some meld of three: two more of its rank, or two of
    its suit making a run of three with it (a necessary condition, cheap: `has_partners`)."""
    table = list(loose)
    for cards, _ in melds:
        table += cards
    ranks, suited = table_partners(table)
    return all(has_partners(x, ranks, suited) for x in loose)
