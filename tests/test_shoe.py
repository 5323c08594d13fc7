"""Shoe: specification, Fisher-Yates over the CSPRNG, seeded replay, commitment, cut card, burn."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom import shoe as shoe_module
from cardroom.cards import Card, Rank, Suit, format_cards, parse_card
from cardroom.errors import ShoeError
from cardroom.shoe import (
    BurnMode,
    BurnRule,
    SeededRandom,
    Shoe,
    ShoeSpec,
    SystemRandom,
    commitment,
    fisher_yates,
    shoe_from,
    shoe_json,
    verify_commitment,
)


def test_eight_pack_baccarat_shoe_has_416_cards() -> None:
    spec = ShoeSpec(packs=8)
    assert spec.size == 416 == len(spec.cards())
    assert Counter(spec.cards())[Card(Rank.ACE, Suit.SPADES)] == 8


def test_removed_ranks_and_jokers() -> None:
    spec = ShoeSpec(packs=8, removed_ranks=frozenset({Rank.SEVEN, Rank.EIGHT, Rank.NINE,
                                                      Rank.TEN}))
    assert spec.size == 288
    assert ShoeSpec(packs=1, jokers=1).size == 53


@pytest.mark.parametrize("kwargs", [{"packs": 0}, {"packs": 1, "jokers": -1}])
def test_bad_specs_are_refused(kwargs: dict[str, int]) -> None:
    with pytest.raises(ShoeError):
        ShoeSpec(**kwargs)


def test_shuffle_is_a_permutation() -> None:
    cards = ShoeSpec(packs=8).cards()
    shuffled = fisher_yates(cards, SystemRandom())
    assert Counter(shuffled) == Counter(cards)
    assert shuffled != cards


def test_seeded_replay_reproduces_the_shoe_and_production_does_not() -> None:
    spec = ShoeSpec(packs=1)
    a = Shoe.shuffled(spec, 10, SeededRandom(7))
    b = Shoe.shuffled(spec, 10, SeededRandom(7))
    assert a.order == b.order and a.commitment == b.commitment
    assert Shoe.shuffled(spec, 10).order != Shoe.shuffled(spec, 10).order


def test_fisher_yates_is_uniform_over_three_cards() -> None:
    """All 6 orders of 3 cards appear about equally often (chi-square, 5 degrees of freedom)."""
    cards = [parse_card(c) for c in ("As", "2s", "3s")]
    src = SeededRandom(1)
    n = 60_000
    counts = Counter(tuple(fisher_yates(cards, src)) for _ in range(n))
    assert len(counts) == 6
    chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts.values())
    assert chi2 < 20.5  # p = 0.001 for 5 degrees of freedom


def test_commitment_verifies_after_play_and_detects_a_changed_order() -> None:
    shoe = Shoe.shuffled(ShoeSpec(packs=1), 10)
    published = shoe.commitment
    while shoe.remaining:
        shoe.draw()
    salt, order = shoe.reveal()
    assert verify_commitment(published, salt, order)
    swapped = order.split()
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not verify_commitment(published, salt, " ".join(swapped))
    with pytest.raises(ShoeError):
        verify_commitment(published, "zz", order)


def test_cut_card_and_penetration() -> None:
    shoe = Shoe.shuffled(ShoeSpec(packs=8), 16, SeededRandom(3))
    assert shoe.cut_index == 400
    assert shoe.penetration == pytest.approx(400 / 416)
    for _ in range(399):
        shoe.draw()
    assert not shoe.cut_card_reached
    shoe.draw()
    assert shoe.cut_card_reached
    with pytest.raises(ShoeError):
        Shoe.shuffled(ShoeSpec(packs=1), 52)


def test_empty_shoe_refuses_to_draw() -> None:
    shoe = Shoe.shuffled(ShoeSpec(packs=1), 0, SeededRandom(1))
    for _ in range(52):
        shoe.draw()
    with pytest.raises(ShoeError, match="empty"):
        shoe.draw()


@pytest.mark.parametrize(("first", "extra"), [("5h", 5), ("Kd", 10), ("Th", 10), ("Ac", 1)])
def test_baccarat_burn_exposes_the_first_card_and_burns_its_value(first: str, extra: int) -> None:
    card = parse_card(first)
    shoe = Shoe(order=[card, *ShoeSpec(packs=1).cards()], cut_index=40, salt=b"")
    burned = shoe.burn(BurnRule(BurnMode.FIRST_CARD_VALUE))
    assert burned[0] == card and len(burned) == 1 + extra
    assert shoe.position == 1 + extra


def test_fixed_and_no_burn() -> None:
    shoe = Shoe(order=ShoeSpec(packs=1).cards(), cut_index=40, salt=b"")
    assert shoe.burn(BurnRule(BurnMode.NONE)) == []
    assert len(shoe.burn(BurnRule(BurnMode.FIXED, 3))) == 3


def test_a_shoes_order_is_written_out_once_and_its_commitment_stays_while_it_is_dealt(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The commitment and the sealed shoe name the whole shuffled order (416 cards at
    baccarat): a coup's history and every table view carry the commitment, every deal seals
    the shoe again, so the order is written out once per shoe and hashed once; the
    commitment is the same after cards are drawn and burned as before the first card."""
    shoe = Shoe.shuffled(ShoeSpec(packs=8), 14, SeededRandom(3))
    published = commitment(shoe.order, shoe.salt)
    written: list[int] = []
    monkeypatch.setattr(shoe_module, "format_cards",
                        lambda cards: written.append(len(cards)) or format_cards(cards))
    assert shoe.commitment == published
    shoe.draw()
    shoe.burn(BurnRule(BurnMode.FIXED, 3))
    sealed = shoe_json(shoe)
    assert shoe.commitment == published and shoe.reveal()[1] == sealed["order"]
    assert written.count(416) == 1
    assert verify_commitment(shoe.commitment, shoe.salt.hex(), sealed["order"])
    again = shoe_from(sealed)
    assert (again.order, again.position, again.burned) == (shoe.order, 4, shoe.burned)
