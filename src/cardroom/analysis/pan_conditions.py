"""The exact probability of each Pan condition in the first ten cards a player is dealt.

A condition is held when the ten cards contain three cards that make a meld carrying it
(every meld carrying a condition contains such three: four 5h hold three 5h, A-2-3-4 holds
A-2-3). The three-card *witnesses* of each condition are found by asking the game's own rules
(`melds.meld_kind`, `melds.conditions_of`) about every three-card multiset of the pack's
distinct cards, so the conditions stay data (`data/conditions.toml`) and rules written once.

Counting is exact: a hand is a multiset of distinct cards, card c taken k times in C(copies_c, k)
ways out of C(pack, 10). Hands holding no witness are counted by generating functions: the
cards split into groups that no witness crosses; within a group each card's count falls into a
band between the counts that witnesses need, every combination of bands that completes no
witness contributes its polynomial, and the groups multiply (integer polynomials, truncated at
ten cards).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement, pairwise, product
from math import comb

from cardroom.cards import Card
from cardroom.games.pan.melds import (
    CONDITION_TABLE,
    Condition,
    ConditionKind,
    conditions_of,
    meld_kind,
)
from cardroom.games.pan.rules import HAND_SIZE

Poly = list[int]
Witness = Counter[Card]
"""Copies of each card that three cards making a condition need."""


def witnesses(cards: Iterable[Card]) -> dict[Condition, list[Witness]]:
    """Every three-card multiset of these distinct cards that makes a meld carrying a
    condition, by condition (kind and spades)."""
    found: dict[Condition, list[Witness]] = {}
    for trio in combinations_with_replacement(sorted(set(cards)), 3):
        kind = meld_kind(trio)
        if kind is None:
            continue
        for cond in conditions_of(trio, kind):
            found.setdefault(cond, []).append(Counter(trio))
    return found


def _mul(a: Poly, b: Poly, n: int) -> Poly:
    out = [0] * (n + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b[:n + 1 - i]):
                out[i + j] += x * y
    return out


def _band(copies: int, lo: int, hi: int, n: int) -> Poly:
    """Ways to take lo..hi-1 of `copies` identical cards, by the number taken."""
    return [comb(copies, k) if lo <= k < hi else 0 for k in range(n + 1)]


def _groups(cards: Sequence[Card], found: Sequence[Witness]) -> list[list[Card]]:
    """The cards joined by witnesses (union-find); a card in no witness is a group alone."""
    parent = {c: c for c in cards}

    def root(c: Card) -> Card:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for w in found:
        first, *rest = w
        for c in rest:
            parent[root(c)] = root(first)
    groups: dict[Card, list[Card]] = {}
    for c in cards:
        groups.setdefault(root(c), []).append(c)
    return list(groups.values())


def hands_without(copies: dict[Card, int], found: Sequence[Witness], n: int = HAND_SIZE
                  ) -> int:
    """The n-card hands of the pack (`copies` of each card) that contain no witness."""
    cards = sorted(copies)
    total: Poly = [1] + [0] * n
    for group in _groups(cards, found):
        inside = [w for w in found if set(w) <= set(group)]
        bands: list[list[tuple[int, int]]] = []
        for c in group:
            cuts = sorted({0, *(w[c] for w in inside if c in w), n + 1})
            alone = min((w[c] for w in inside if set(w) == {c}), default=n + 1)
            bands.append([(lo, hi) for lo, hi in pairwise(cuts)
                          if lo < alone])
        poly: Poly = [0] * (n + 1)
        for choice in product(*bands):
            lows = dict(zip(group, (lo for lo, _ in choice), strict=True))
            if any(all(lows[c] >= k for c, k in w.items()) for w in inside):
                continue
            term: Poly = [1] + [0] * n
            for c, (lo, hi) in zip(group, choice, strict=True):
                term = _mul(term, _band(copies[c], lo, hi, n), n)
            poly = [a + b for a, b in zip(poly, term, strict=True)]
        total = _mul(total, poly, n)
    return total[n]


@dataclass(frozen=True)
class ConditionOdds:
    label: str
    """A condition kind's name from conditions.toml, with " in spades" for its spades form,
    or "any condition"."""
    probability: Fraction


def condition_odds(pack: Sequence[Card], n: int = HAND_SIZE,
                   kinds: Iterable[ConditionKind] = CONDITION_TABLE) -> list[ConditionOdds]:
    """The probability that n cards dealt from `pack` hold each condition kind (at least
    once), its spades form where it has one, and any condition at all."""
    copies = dict(Counter(pack))
    found = witnesses(copies)
    all_hands = comb(len(pack), n)

    def odds(label: str, keep: Callable[[Condition], bool]) -> ConditionOdds:
        chosen = [w for cond, ws in found.items() if keep(cond) for w in ws]
        return ConditionOdds(label, 1 - Fraction(hands_without(copies, chosen, n), all_hands))

    def of_kind(kind: ConditionKind, spades: bool) -> Callable[[Condition], bool]:
        return lambda c: c.kind is kind and (c.spades or not spades)

    out = []
    for kind in kinds:
        out.append(odds(kind.value, of_kind(kind, False)))
        if any(c.kind is kind and c.spades for c in found):
            out.append(odds(f"{kind.value} in spades", of_kind(kind, True)))
    out.append(odds("any condition", lambda c: True))
    return out
