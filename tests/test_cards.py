"""Cards: parsing and printing (issue 2, foundation)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.cards import (
    JOKER,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
    standard_pack,
)
from cardroom.errors import CardParseError


def test_parse_the_example_string() -> None:
    cards = parse_cards("As Kd Th 9c 2s")
    assert cards == [
        Card(Rank.ACE, Suit.SPADES), Card(Rank.KING, Suit.DIAMONDS),
        Card(Rank.TEN, Suit.HEARTS), Card(Rank.NINE, Suit.CLUBS), Card(Rank.TWO, Suit.SPADES),
    ]
    assert format_cards(cards) == "As Kd Th 9c 2s"


def test_ten_may_be_written_10_and_case_does_not_matter() -> None:
    assert parse_card("10h") == parse_card("Th") == parse_card("tH") == Card(Rank.TEN, Suit.HEARTS)
    assert parse_card("as") == parse_card("AS")


def test_joker_parses_case_insensitively() -> None:
    assert parse_card("JK") is JOKER or parse_card("JK") == JOKER
    assert parse_card("jk") == JOKER
    assert JOKER.is_joker and JOKER.suit is None
    assert str(JOKER) == "JK"


@pytest.mark.parametrize("bad", ["", "A", "1s", "Ax", "11h", "Zs", "As2", "JKs", "10"])
def test_bad_card_strings_are_refused_with_a_clear_error(bad: str) -> None:
    with pytest.raises(CardParseError, match="bad card"):
        parse_card(bad)


def test_a_suitless_card_that_is_not_the_joker_cannot_exist() -> None:
    with pytest.raises(CardParseError):
        Card(Rank.ACE, None)


def test_pack_has_52_distinct_cards_and_codes_round_trip() -> None:
    pack = standard_pack()
    assert len(set(pack)) == 52
    assert sorted(c.code for c in pack) == list(range(52))
    assert all(Card.from_code(c.code) == c for c in [*pack, JOKER])
    assert len(standard_pack(jokers=1)) == 53


@given(st.sampled_from(standard_pack(jokers=1)))
def test_printing_then_parsing_gives_the_same_card(card: Card) -> None:
    assert parse_card(str(card)) == card
