"""The pack, melds and conditions of the reference digest (reference/panguingue.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom.cards import Rank, Suit
from cardroom.errors import RulesError
from cardroom.games.pan.cards import VALLE_RANKS, pan_pack
from cardroom.games.pan.melds import (
    ConditionKind,
    MeldKind,
    addition_units,
    conditions_of,
    fits,
    is_board_set,
    is_new_set,
    is_sequence,
    lay_down_units,
    load_condition_table,
    meld_kind,
    split_units,
)
from cardroom.games.pan.rules import PanRules
from cardroom.houserules import build_rules

from .helpers import c, cs

WA = PanRules()
SPADES_DOUBLE = PanRules(spades_double=True)


def test_pan_cards_eight_40_card_packs_320_no_8_9_10_no_jokers() -> None:
    """Cards: eight packs without 8s, 9s, 10s: 320 cards, no jokers."""
    pack = pan_pack(WA)
    assert len(pack) == 320
    ranks = Counter(card.rank for card in pack)
    assert set(ranks) == {Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX,
                          Rank.SEVEN, Rank.JACK, Rank.QUEEN, Rank.KING}
    assert all(v == 32 for v in ranks.values())
    assert all(v == 8 for v in Counter(pack).values())


def test_pan_cards_option_remove_one_spade_pack_gives_310() -> None:
    pack = pan_pack(PanRules(remove_one_spade_pack=True))
    assert len(pack) == 310
    assert sum(1 for x in pack if x.suit is Suit.SPADES) == 70


def test_pan_cards_option_packs_5_to_11_default_8() -> None:
    assert WA.packs == 8
    assert len(pan_pack(PanRules(packs=5))) == 200
    for bad in (4, 12):
        with pytest.raises(RulesError, match="packs"):
            build_rules(PanRules, {"packs": bad})


def test_pan_cards_valle_cards_are_3_5_7() -> None:
    assert [r for r in Rank if r in VALLE_RANKS] == [Rank.THREE, Rank.FIVE, Rank.SEVEN]


def test_pan_rank_order_7_and_j_consecutive_j_7_6_is_a_sequence() -> None:
    assert is_sequence(cs("Jh 7h 6h"))
    assert is_sequence(cs("7c Jc Qc Kc"))


def test_pan_aces_low_only_no_q_k_a_no_k_a_2() -> None:
    assert not is_sequence(cs("Qh Kh Ah"))
    assert not is_sequence(cs("Kh Ah 2h"))
    assert is_sequence(cs("Ah 2h 3h"))


def test_pan_sequence_one_suit_three_or_more_consecutive() -> None:
    assert not is_sequence(cs("Ah 2h 3c"))
    assert not is_sequence(cs("Ah 3h 4h"))
    assert not is_sequence(cs("4h 5h"))
    assert not is_sequence(cs("4h 4h 5h"))
    assert is_sequence(cs("2d 3d 4d 5d 6d 7d Jd"))


def test_pan_set_suit_rules_same_suit_or_all_different() -> None:
    """Melds: 3c 3c 3c and 3c 3s 3h are sets; 3c 3c 3s is not."""
    assert is_new_set(cs("3c 3c 3c"))
    assert is_new_set(cs("3c 3s 3h"))
    assert not is_new_set(cs("3c 3c 3s"))
    assert is_new_set(cs("4c 4d 4h 4s"))
    assert not is_new_set(cs("3c 3c"))


def test_pan_set_aces_and_kings_any_suits() -> None:
    assert is_new_set(cs("Ac Ac As"))
    assert is_new_set(cs("Kc Kh Kh"))


def test_pan_set_additions_any_card_of_the_rank_unless_strict() -> None:
    """Once a set is down any card of its rank may be added; option strict_set_additions."""
    meld = cs("3c 3c 3c")
    assert fits(meld, MeldKind.SET, c("3h"))
    assert not fits(meld, MeldKind.SET, c("3h"), strict=True)
    assert fits(meld, MeldKind.SET, c("3c"), strict=True)
    assert is_board_set(cs("3c 3c 3c 3h"))
    assert not is_board_set(cs("3c 3c 3c 3h"), strict=True)


def test_pan_meld_minimum_three_no_maximum() -> None:
    assert meld_kind(cs("5d 5d")) is None
    assert meld_kind(cs("5d 5d 5d 5d 5d 5d")) is MeldKind.SET


def test_pan_conditions_table_is_data_matching_the_digest() -> None:
    """Conditions (pays): the pay table lives in data/conditions.toml."""
    table = load_condition_table()
    expected = {  # (units, spades with spades_double) from the digest's table
        ConditionKind.VALLE_ONE_SUIT: (2, 4), ConditionKind.VALLE_MIXED: (1, 1),
        ConditionKind.NON_VALLE_ONE_SUIT: (1, 2), ConditionKind.SEQUENCE_A23: (1, 2),
        ConditionKind.SEQUENCE_JQK: (1, 2),
    }
    assert {k: (v.units, v.units_spades_double) for k, v in table.items()} == expected
    assert table[ConditionKind.VALLE_ONE_SUIT].addition_units == 1
    assert table[ConditionKind.VALLE_ONE_SUIT].addition_units_spades_double == 2


@pytest.mark.parametrize(("cards", "kind", "wa", "sd"), [
    ("3c 3c 3c", MeldKind.SET, 2, 2),       # valles one suit, not spades
    ("5s 5s 5s", MeldKind.SET, 2, 4),       # valles spades: 4 only with spades_double
    ("7c 7d 7h", MeldKind.SET, 1, 1),       # valles different suits
    ("4h 4h 4h", MeldKind.SET, 1, 1),       # non-valles one suit
    ("Qs Qs Qs", MeldKind.SET, 1, 2),       # non-valles spades
    ("Kc Kc Kc", MeldKind.SET, 1, 1),       # kings one suit: a non-valle condition
    ("Kc Kd Kh", MeldKind.SET, 0, 0),       # mixed kings pay nothing
    ("Ac Ad Ah", MeldKind.SET, 0, 0),       # mixed aces pay nothing
    ("4c 4d 4h", MeldKind.SET, 0, 0),       # mixed non-valles pay nothing
    ("Ad 2d 3d", MeldKind.SEQUENCE, 1, 1),  # A-2-3
    ("As 2s 3s", MeldKind.SEQUENCE, 1, 2),
    ("Jh Qh Kh", MeldKind.SEQUENCE, 1, 1),  # J-Q-K
    ("Js Qs Ks", MeldKind.SEQUENCE, 1, 2),
    # a longer sequence is that condition with cards added to it (each pays it again)
    ("Ad 2d 3d 4d", MeldKind.SEQUENCE, 2, 2),
    ("6h 7h Jh Qh Kh", MeldKind.SEQUENCE, 3, 3),
    ("As 2s 3s 4s", MeldKind.SEQUENCE, 2, 4),
    ("3c 3c 3c 3c", MeldKind.SET, 3, 3),      # a valle condition and one card added
    ("3c 3c 3c 3s", MeldKind.SET, 3, 3),
    ("Ac 2c 3c 4c 5c 6c 7c Jc Qc Kc", MeldKind.SEQUENCE, 9, 9),  # both, 7 added cards once
    ("2d 3d 4d", MeldKind.SEQUENCE, 0, 0),
])
def test_pan_conditions_values_in_tops_units(cards: str, kind: MeldKind, wa: int,
                                             sd: int) -> None:
    assert lay_down_units(cs(cards), kind, WA) == wa
    assert lay_down_units(cs(cards), kind, SPADES_DOUBLE) == sd


def test_pan_conditions_adding_pays_again_same_suit_valle_pays_1() -> None:
    """Adding a card to a condition pays it again; to a same-suit valle set pays 1 (2 in
    spades with spades_double)."""
    assert addition_units(cs("3c 3c 3c"), cs("3c 3c 3c 3c"), MeldKind.SET, WA) == 1
    assert addition_units(cs("3s 3s 3s"), cs("3s 3s 3s 3s"), MeldKind.SET, SPADES_DOUBLE) == 2
    assert addition_units(cs("7c 7d 7h"), cs("7c 7d 7h 7s"), MeldKind.SET, WA) == 1
    assert addition_units(cs("Ad 2d 3d"), cs("Ad 2d 3d 4d"), MeldKind.SEQUENCE, WA) == 1
    assert addition_units(cs("4c 4d 4h"), cs("4c 4d 4h 4s"), MeldKind.SET, WA) == 0
    # a lay-off that makes a condition pays it in full, with the card already beyond its three
    # (as A-2-3 then the 4 would have paid)
    assert addition_units(cs("2d 3d 4d"), cs("Ad 2d 3d 4d"), MeldKind.SEQUENCE, WA) == 2


def test_pan_splitting_condition_made_by_splitting_pays() -> None:
    """4-5-6-7 plus a 3 and a J split into 3-4-5 and 6-7-J: no condition; six same-suit 3s
    split into two sets: one new valle condition (2)."""
    assert split_units(cs("3h 4h 5h 6h 7h Jh"), (cs("3h 4h 5h"), cs("6h 7h Jh")),
                       MeldKind.SEQUENCE, WA) == 0
    assert split_units(cs("3c 3c 3c 3c 3c 3c"), (cs("3c 3c 3c"), cs("3c 3c 3c")),
                       MeldKind.SET, WA) == 2
    assert split_units(cs("Ac 2c 3c 4c 5c 6c"), (cs("Ac 2c 3c"), cs("4c 5c 6c")),
                       MeldKind.SEQUENCE, WA) == 0


def test_pan_conditions_of_sequence_a_to_k_carries_both() -> None:
    kinds = [x.kind for x in conditions_of(cs("Ac 2c 3c 4c 5c 6c 7c Jc Qc Kc"),
                                           MeldKind.SEQUENCE)]
    assert kinds == [ConditionKind.SEQUENCE_A23, ConditionKind.SEQUENCE_JQK]
