"""Irregularities clause of pai-gow-poker.wsgc.txt: "card room operators must document in their
internal controls how they will address various irregularities (e.g. misdeals, cards exposed,
players incorrectly setting hands, incorrect number of cards)". Each policy of `PaiGowRules`
(`exposed_card`, `wrong_card_count`; fouls are `foul_policy`, tested with clause 6) has its
tests here: events in the hand history, the money, and refusals that change nothing."""

from __future__ import annotations

import pytest

from cardroom.cards import parse_card, parse_cards
from cardroom.errors import IllegalActionError
from cardroom.games.pai_gow.rules import ExposedCardPolicy, PaiGowRules, WrongCountPolicy
from cardroom.games.pai_gow.table import (
    DEALER,
    CardExposed,
    Dealt,
    HandVoided,
    Misdeal,
    Outcome,
    PaiGowTable,
    Phase,
    WrongCardCount,
)

from .tables import DEALER_HAND, Script, machine_order, table

PLAYER = "As Ad Kc Qh 8s 6d 4c"  # K-Q front, aces back: beats the dealer's Q-9 / king high
OTHER = "Jh 9h 8d 6s 4h 3c 2d"  # loses both to the dealer


def _two_players(**rules: object) -> PaiGowTable:
    t = table(**rules)
    t.sit(1, 10_000)
    t.sit(2, 10_000)
    t.place_wager(1, 1_000)
    t.place_wager(2, 400)
    t.deal(Script([0]), machine_order(DEALER_HAND, PLAYER, OTHER))
    return t


def test_irregularities_misdeal_voids_the_deal_wagers_stand_and_the_hand_is_redealt() -> None:
    """Misdeal: every hand collected, nothing settled, the same wagers dealt again from a
    fresh shuffle; until then no wager, bank or dragon hand may change."""
    t = _two_players()
    t.set_hand(1, parse_cards("Kc Qh"))
    chips = dict(t.chips)
    event = t.declare_misdeal("cards dealt out of turn")
    assert isinstance(event, Misdeal) and t.events[-1] == event
    assert t.phase is Phase.BETTING and t.hands == {} and t.settings == {}
    assert t.wagers == {1: 1_000, 2: 400} and t.chips == chips
    for attempt in (lambda: t.place_wager(1, 500), lambda: t.bank(1)):
        with pytest.raises(IllegalActionError, match="misdeal"):
            attempt()
    assert t.wagers == {1: 1_000, 2: 400}
    t.deal(Script([0]), machine_order(DEALER_HAND, OTHER, PLAYER))
    assert sum(isinstance(e, Dealt) for e in t.events) == 2
    assert t.hands[1] == tuple(parse_cards(OTHER))
    t.ask_house_way(1)
    t.ask_house_way(2)
    assert {r.spot: r.outcome for r in t.settle().results} == {1: Outcome.LOSS, 2: Outcome.WIN}


def test_irregularities_misdeal_only_between_the_deal_and_the_reveal() -> None:
    t = table()
    t.sit(1, 10_000)
    t.place_wager(1, 1_000)
    with pytest.raises(IllegalActionError, match="after the deal"):
        t.declare_misdeal("no cards yet")
    t.deal(Script([0]), machine_order(DEALER_HAND, PLAYER))
    with pytest.raises(IllegalActionError, match="reason"):
        t.declare_misdeal("  ")
    t.ask_house_way(1)
    t.settle()
    assert not t.can_declare_misdeal("too late: the dealer has revealed")


def test_irregularities_card_exposed_by_the_dealer_is_a_misdeal_by_default() -> None:
    t = _two_players()
    event = t.expose_card(2, parse_card("Jh"))
    assert event == CardExposed(2, parse_card("Jh"), True)
    assert isinstance(t.events[-1], Misdeal) and "exposed" in t.events[-1].reason
    assert t.phase is Phase.BETTING and t.exposed == {}


def test_irregularities_exposed_card_plays_and_is_shown_to_every_viewer() -> None:
    """House rule exposed_card = hand-plays: the card is public (every snapshot shows it,
    though the rest of the hand stays hidden) and the hand is settled as usual."""
    t = _two_players(exposed_card=ExposedCardPolicy.HAND_PLAYS)
    t.expose_card(DEALER, parse_card("Kh"))
    view = t.snapshot(1)
    assert view["exposed"] == {DEALER: "Kh"}
    assert view["hands"][DEALER] == "hidden"  # type: ignore[index]
    assert t.snapshot(2)["exposed"] == {DEALER: "Kh"}
    t.set_hand(1, parse_cards("Kc Qh"))
    t.ask_house_way(2)
    assert {r.spot: r.outcome for r in t.settle().results} == {1: Outcome.WIN, 2: Outcome.LOSS}


def test_irregularities_player_exposing_own_card_plays_whatever_the_policy() -> None:
    """Clause 9: the player alone handles their cards, so a card they show is their own doing:
    the hand plays and the card is public; no misdeal."""
    t = _two_players()
    t.expose_card(1, parse_card("As"), by_dealer=False)
    assert t.phase is Phase.SETTING and t.exposed == {1: [parse_card("As")]}
    assert t.snapshot(2)["exposed"] == {1: "As"}
    with pytest.raises(IllegalActionError, match="no player holds"):
        t.expose_card(DEALER, parse_card("Kh"), by_dealer=False)


def test_irregularities_bad_exposures_refused_and_change_nothing() -> None:
    t = _two_players(exposed_card=ExposedCardPolicy.HAND_PLAYS)
    t.expose_card(1, parse_card("As"))
    before = list(t.events)
    for spot, card in ((1, "Kh"), (1, "As"), (5, "2c")):
        assert not t.can_expose_card(spot, parse_card(card))
        with pytest.raises(IllegalActionError):
            t.expose_card(spot, parse_card(card))
    assert t.events == before


def test_irregularities_wrong_number_of_cards_is_a_misdeal_by_default() -> None:
    t = _two_players()
    event = t.report_card_count(2, 6)
    assert event == WrongCardCount(2, 6)
    assert isinstance(t.events[-1], Misdeal) and t.phase is Phase.BETTING
    assert t.wagers == {1: 1_000, 2: 400}


def test_irregularities_wrong_number_of_cards_void_hand_returns_that_wager() -> None:
    """House rule wrong_card_count = void-hand: that hand has no action; the others play."""
    t = _two_players(wrong_card_count=WrongCountPolicy.VOID_HAND)
    t.set_hand(2, parse_cards("9h 8d"))
    t.report_card_count(2, 8)
    assert t.events[-1] == HandVoided(2, Outcome.VOID, "8 cards instead of seven")
    with pytest.raises(IllegalActionError, match="out of play"):
        t.set_hand(2, parse_cards("Jh 9h"))
    t.set_hand(1, parse_cards("Kc Qh"))
    results = {r.spot: r for r in t.settle().results}
    assert results[2].outcome is Outcome.VOID and results[2].net == 0
    assert results[1].outcome is Outcome.WIN
    assert t.chips == {1: 10_950, 2: 10_000}


def test_irregularities_wrong_number_of_cards_dead_hand_loses() -> None:
    t = _two_players(wrong_card_count=WrongCountPolicy.HAND_LOSES)
    t.report_card_count(1, 6)  # seat 1 held the winning hand: dead all the same
    t.ask_house_way(2)
    results = {r.spot: r for r in t.settle().results}
    assert results[1].outcome is Outcome.LOSS and results[1].net == -1_000
    assert t.chips[1] == 9_000


def test_irregularities_wrong_count_in_the_banker_hand_is_always_a_misdeal() -> None:
    t = _two_players(wrong_card_count=WrongCountPolicy.VOID_HAND)
    t.report_card_count(DEALER, 8)
    assert isinstance(t.events[-1], Misdeal) and t.phase is Phase.BETTING


def test_irregularities_bad_counts_refused_and_change_nothing() -> None:
    t = _two_players()
    before = list(t.events)
    for spot, count in ((1, 7), (1, -1), (4, 6)):
        assert not t.can_report_card_count(spot, count)
        with pytest.raises(IllegalActionError):
            t.report_card_count(spot, count)
    assert t.events == before and t.phase is Phase.SETTING


def test_irregularities_policies_are_house_rules_with_clear_errors() -> None:
    from cardroom.errors import RulesError
    from cardroom.houserules import build_rules

    rules = build_rules(PaiGowRules, {"exposed_card": "hand-plays",
                                      "wrong_card_count": "hand-loses"})
    assert rules.exposed_card is ExposedCardPolicy.HAND_PLAYS
    with pytest.raises(RulesError):
        build_rules(PaiGowRules, {"exposed_card": "ignore"})
