"""The 21 settings and fouls: rules clause 6 (the five-card hand must outrank the two-card)."""

from __future__ import annotations

import pytest

from cardroom.cards import parse_cards
from cardroom.errors import CardroomError
from cardroom.games.pai_gow.settings import (
    all_settings,
    legal_settings,
    make_setting,
    validate_seven,
)

HAND = parse_cards("As Kd 9c 7h 5s 3d 2c")


def test_rule_6_seven_cards_set_21_ways_two_front_five_back() -> None:
    settings = all_settings(HAND)
    assert len(settings) == 21  # C(7,2)
    assert len({frozenset(s.front) for s in settings}) == 21
    for s in settings:
        assert len(s.front) == 2 and len(s.back) == 5
        assert set(s.front) | set(s.back) == set(HAND)


def test_rule_6_back_must_outrank_front_else_foul() -> None:
    # A-K in front leaves 9-7-5-3-2 in back: foul.
    assert make_setting(HAND, parse_cards("As Kd")).is_foul
    assert not make_setting(HAND, parse_cards("Kd 9c")).is_foul
    # No-pair hand: only fronts without the ace are legal: C(6,2) = 15.
    assert len(legal_settings(HAND)) == 15


def test_rule_6_pair_in_front_needs_a_better_back() -> None:
    hand = parse_cards("8s 8d Kc 7h 5s 3d 2c")
    assert make_setting(hand, parse_cards("8s 8d")).is_foul  # K-high back vs a pair
    hand2 = parse_cards("8s 8d 9c 9h 5s 3d 2c")
    assert not make_setting(hand2, parse_cards("8s 8d")).is_foul


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("As Kd 9c 7h 5s 3d", "7 cards, not 6"),
        ("As Kd 9c 7h 5s 3d 2c 4c", "7 cards, not 8"),
        ("As As 9c 7h 5s 3d 2c", "As twice"),
        ("JK JK 9c 7h 5s 3d 2c", "one joker"),
    ],
)
def test_bad_hands_refused_with_clear_errors(text: str, message: str) -> None:
    with pytest.raises(CardroomError, match=message):
        validate_seven(parse_cards(text))


def test_front_cards_must_be_held() -> None:
    with pytest.raises(CardroomError, match="not in the hand"):
        make_setting(HAND, parse_cards("Qs Kd"))
