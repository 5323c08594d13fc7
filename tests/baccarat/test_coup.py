"""Whole coups from tests/fixtures/baccarat/coups.toml: dealing order, totals, the tableau,
the winner and every wager's settlement, worked by hand from the rule documents."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
from fixture_files import FIXTURES

from cardroom.cards import parse_card, parse_cards
from cardroom.errors import IllegalActionError
from cardroom.games.baccarat.coup import Coup, Hand, card_value, hand_total, play_coup
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.wagers import WagerKind, settle_wager

COUPS: list[dict[str, Any]] = tomllib.loads(
    (FIXTURES / "baccarat" / "coups.toml").read_text())["coup"]


@pytest.mark.parametrize(("card", "value"), [("Ks", 0), ("Qh", 0), ("Jd", 0), ("Tc", 0),
                                             ("As", 1), ("5h", 5), ("9c", 9)])
def test_mini_baccarat_card_values(card: str, value: int) -> None:
    """"Picture cards 0 Points; Other cards Face Value" (tens count 0)."""
    assert card_value(parse_card(card)) == value


@pytest.mark.parametrize(("cards", "total"), [("9h 7c", 6), ("5h 5c 5d", 5), ("Th 9c", 9)])
def test_mini_baccarat_totals_drop_the_tens(cards: str, total: int) -> None:
    """The document's examples: 9 + 7 = 16 totals 6; 5 + 5 + 5 totals 5; 10 + 9 is a natural 9."""
    assert hand_total(tuple(parse_cards(cards))) == total


@pytest.mark.parametrize("coup", COUPS, ids=lambda c: c["cards"])
def test_coup_transcript(coup: dict[str, Any]) -> None:
    cards = parse_cards(coup["cards"])
    it = iter(cards)
    result = play_coup(lambda: next(it))
    assert next(it, None) is None, "the coup used fewer cards than the transcript"
    assert (result.player_total, result.banker_total) == (coup["player_total"],
                                                          coup["banker_total"])
    assert result.winner.value == coup["winner"]
    rules = BaccaratRules()
    for name, net in coup["net"].items():
        kind = WagerKind(name)
        stake = 100 if kind is WagerKind.PROGRESSIVE else 1000
        s = settle_wager(kind, stake, result, rules, jackpot_share=250_000)
        assert s.net == net, f"{name}: {coup['why']}"


def test_deal_order_is_player_banker_player_banker() -> None:
    coup = Coup()
    hands = [coup.deal(c).hand for c in parse_cards("2s 3h 4d 5c")]
    assert hands == [Hand.PLAYER, Hand.BANKER, Hand.PLAYER, Hand.BANKER]


def test_no_hand_gets_more_than_three_cards_and_a_finished_coup_refuses_cards() -> None:
    """"No hand can have more than 3 cards"; the coup then refuses any further card."""
    coup = Coup()
    for c in parse_cards("5c Kd Jc 2d 9h Ts"):
        coup.deal(c)
    assert len(coup.player) == 3 and len(coup.banker) == 3
    with pytest.raises(IllegalActionError):
        coup.deal(parse_card("2c"))
    with pytest.raises(IllegalActionError):
        Coup().result()
