"""Melds (sets and sequences with Pan's suit rules) and the conditions they carry.

Pure functions over tuples of cards; the engine and the bots share them.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources
from itertools import pairwise

from cardroom.cards import Card, Rank, Suit

from .cards import ANY_SUIT_SET_RANKS, ORDER, VALLE_RANKS, key_card, sorted_keys
from .rules import PanRules


class MeldKind(StrEnum):
    SET = "set"
    SEQUENCE = "sequence"


SET, SEQUENCE = MeldKind.SET, MeldKind.SEQUENCE
"""The kinds as module constants for the hot paths (`state.PLAYING` says why)."""


class ConditionKind(StrEnum):
    VALLE_ONE_SUIT = "valle_one_suit"
    VALLE_MIXED = "valle_mixed"
    NON_VALLE_ONE_SUIT = "non_valle_one_suit"
    SEQUENCE_A23 = "sequence_a23"
    SEQUENCE_JQK = "sequence_jqk"


@dataclass(frozen=True, slots=True)
class Condition:
    kind: ConditionKind
    spades: bool

    def __str__(self) -> str:
        return f"{self.kind.value}{' (spades)' if self.spades else ''}"


@dataclass(frozen=True, slots=True)
class ConditionPay:
    units: int
    units_spades_double: int
    addition_units: int
    addition_units_spades_double: int
    description: str = ""
    """The condition in words, as it is posted."""


def load_condition_table(text: str | None = None) -> dict[ConditionKind, ConditionPay]:
    """The pay table from data/conditions.toml (rules as data)."""
    if text is None:
        text = resources.files("cardroom.games.pan").joinpath("data/conditions.toml").read_text(
            encoding="utf-8")
    raw = tomllib.loads(text)
    return {
        ConditionKind(k): ConditionPay(v["units"], v["units_spades_double"], v["addition_units"],
                                       v["addition_units_spades_double"],
                                       v.get("description", ""))
        for k, v in raw.items()
    }


CONDITION_TABLE = load_condition_table()


def condition_units(cond: Condition, rules: PanRules, addition: bool = False) -> int:
    """Units of the top a condition pays; spades pay double only with `spades_double`."""
    pay = CONDITION_TABLE[cond.kind]
    double = cond.spades and rules.spades_double
    if addition:
        return pay.addition_units_spades_double if double else pay.addition_units
    return pay.units_spades_double if double else pay.units


# ----- validity ---------------------------------------------------------------------------


def _suit_pattern_ok(cards: Sequence[Card]) -> bool:
    """All one suit, or all different suits."""
    suits = {c.suit for c in cards}
    return len(suits) == 1 or len(suits) == len(cards)


def _three_of_one_rank(cards: tuple[Card, ...]) -> bool:
    return len(cards) >= 3 and all(c.rank == cards[0].rank for c in cards)


# The checks below are cached by the cards' sorted keys (`sorted_keys`): the cards in card
# order as small integers, cheaper to sort and hash than the cards.


@lru_cache(maxsize=65536)
def _is_new_set(keys: tuple[int, ...]) -> bool:
    cards = tuple(map(key_card, keys))
    return _three_of_one_rank(cards) and (cards[0].rank in ANY_SUIT_SET_RANKS
                                          or _suit_pattern_ok(cards))


def is_new_set(cards: Iterable[Card]) -> bool:
    """A set as laid down: three or more of one rank; aces and kings any suits, every other
    rank all of one suit or all of different suits (3c 3c 3s is not a set)."""
    return _is_new_set(sorted_keys(cards))


@lru_cache(maxsize=65536)
def _is_board_set(keys: tuple[int, ...], strict: bool) -> bool:
    cards = tuple(map(key_card, keys))
    if not _three_of_one_rank(cards):
        return False
    if strict or len(cards) == 3:
        return _is_new_set(keys)
    if cards[0].rank in ANY_SUIT_SET_RANKS:
        return True
    counts = Counter(c.suit for c in cards)
    return max(counts.values()) >= 3 or len(counts) >= 3


def is_board_set(cards: Iterable[Card], strict: bool = False) -> bool:
    """A set as it may lie after additions: any card of its rank may be added (unless
    `strict_set_additions`), so it is valid if some three of it form a set."""
    return _is_board_set(sorted_keys(cards), strict)


@lru_cache(maxsize=65536)
def _is_sequence(keys: tuple[int, ...]) -> bool:
    cards = tuple(map(key_card, keys))
    if len(cards) < 3:
        return False
    suit = cards[0].suit
    if any(c.suit != suit for c in cards):
        return False
    orders = sorted(ORDER[c.rank] for c in cards if c.rank in ORDER)
    if len(orders) != len(cards):
        return False
    return all(b - a == 1 for a, b in pairwise(orders))


def is_sequence(cards: Iterable[Card]) -> bool:
    """Three or more of one suit in consecutive Pan order (A..7, J, Q, K): no Q-K-A, no K-A-2."""
    return _is_sequence(sorted_keys(cards))


def meld_kind(cards: Iterable[Card]) -> MeldKind | None:
    """The kind of a new meld, or None when the cards make no meld."""
    t = sorted_keys(cards)
    if _is_new_set(t):
        return SET
    if _is_sequence(t):
        return SEQUENCE
    return None


def triple_ok(a: Card, b: Card, c: Card) -> bool:
    """Fast check that three cards make a meld (the same rules as `meld_kind`)."""
    if a.rank == b.rank == c.rank:
        if a.rank in ANY_SUIT_SET_RANKS:
            return True
        if a.suit == b.suit == c.suit:
            return True
        return a.suit != b.suit and a.suit != c.suit and b.suit != c.suit
    if not (a.suit == b.suit == c.suit):
        return False
    oa, ob, oc = ORDER.get(a.rank), ORDER.get(b.rank), ORDER.get(c.rank)
    if oa is None or ob is None or oc is None:
        return False
    lo = min(oa, ob, oc)
    return {oa - lo, ob - lo, oc - lo} == {0, 1, 2}


def is_valid_on_board(cards: Iterable[Card], kind: MeldKind, strict: bool = False) -> bool:
    t = sorted_keys(cards)
    return _is_board_set(t, strict) if kind is SET else _is_sequence(t)


def fits(cards: Sequence[Card], kind: MeldKind, card: Card, strict: bool = False) -> bool:
    """Can `card` be laid off on this meld?"""
    if kind is SET:
        if card.rank != cards[0].rank:
            return False
        return not strict or _is_new_set(sorted_keys((*cards, card)))
    if card.suit != cards[0].suit or card.rank not in ORDER:
        return False
    o = ORDER[card.rank]
    orders = [ORDER[c.rank] for c in cards]
    return o == min(orders) - 1 or o == max(orders) + 1


def sort_meld(cards: Iterable[Card], kind: MeldKind) -> tuple[Card, ...]:
    if kind is SEQUENCE:
        return tuple(sorted(cards, key=lambda c: ORDER[c.rank]))
    return tuple(sorted(cards, key=lambda c: int(c.suit or 0)))


# ----- conditions -------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def _conditions(keys: tuple[int, ...], kind: MeldKind) -> tuple[Condition, ...]:
    cards = tuple(map(key_card, keys))
    if kind is SEQUENCE:
        ranks = {c.rank for c in cards}
        spades = cards[0].suit is Suit.SPADES
        out = []
        if {Rank.ACE, Rank.TWO, Rank.THREE} <= ranks:
            out.append(Condition(ConditionKind.SEQUENCE_A23, spades))
        if {Rank.JACK, Rank.QUEEN, Rank.KING} <= ranks:
            out.append(Condition(ConditionKind.SEQUENCE_JQK, spades))
        return tuple(out)
    counts = Counter(c.suit for c in cards)
    valle = cards[0].rank in VALLE_RANKS
    one_suit = [s for s, n in counts.items() if n >= 3]
    if one_suit:
        spades = Suit.SPADES in one_suit
        kind_ = ConditionKind.VALLE_ONE_SUIT if valle else ConditionKind.NON_VALLE_ONE_SUIT
        return (Condition(kind_, spades),)
    if valle and len(counts) >= 3:
        return (Condition(ConditionKind.VALLE_MIXED, False),)
    return ()


def conditions_of(cards: Iterable[Card], kind: MeldKind) -> tuple[Condition, ...]:
    """The conditions a meld carries as it lies. A set carries at most one (its best three);
    a sequence carries A-2-3 and/or J-Q-K of its suit. A mixed set of non-valles pays nothing.
    A set of spades counts as spades when three of its spades make the condition."""
    return _conditions(sorted_keys(cards), kind)


def meld_value(cards: Iterable[Card], kind: MeldKind, rules: PanRules) -> int:
    """Units a meld pays in all, as it lies: each condition's units, plus its addition rate for
    every card beyond the three that make a condition ("adding a card to a condition pays the
    condition again"). A function of the cards alone, so a condition pays the same laid down
    at once or built up card by card. A card added to a sequence carrying both A-2-3 and
    J-Q-K pays once."""
    t = tuple(cards)
    conds = conditions_of(t, kind)
    if not conds:
        return 0
    return (sum(condition_units(c, rules) for c in conds)
            + max(condition_units(c, rules, addition=True) for c in conds) * (len(t) - 3))


def lay_down_units(cards: Iterable[Card], kind: MeldKind, rules: PanRules) -> int:
    """A new meld pays its value as it lies (its conditions and the cards added to them)."""
    return meld_value(cards, kind, rules)


def addition_units(before: Sequence[Card], after: Sequence[Card], kind: MeldKind,
                   rules: PanRules) -> int:
    """Pay for adding cards to a meld: what the meld is worth after less what it was worth
    (a condition the addition makes pays in full, with the cards already beyond its three)."""
    return meld_value(after, kind, rules) - meld_value(before, kind, rules)


def split_units(whole: Sequence[Card], parts: Sequence[Sequence[Card]], kind: MeldKind,
                rules: PanRules) -> int:
    """A condition made by splitting pays: the parts' conditions beyond the whole's."""
    old = Counter(conditions_of(whole, kind))
    new: Counter[Condition] = Counter()
    for p in parts:
        new.update(conditions_of(p, kind))
    return sum(condition_units(c, rules) * n for c, n in (new - old).items())
