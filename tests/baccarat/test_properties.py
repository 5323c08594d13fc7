"""Property test over random play at a Super-9 Mini-Baccarat table (issue 10, figures to
reach): chips are conserved, every refused bet changes nothing, every coup's history replays
to the same result, and no coup breaks a clause of the Mini-Baccarat or Super-9 rules.

The clause checks are written from the documents, not from the engine: the third-card rules
as the Mini-Baccarat document tabulates them, and the payouts it and pay table 1 state.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import Card, Rank
from cardroom.errors import IllegalActionError
from cardroom.games.baccarat.coup import CardDealt
from cardroom.games.baccarat.history import coup_history
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import BaccaratTable, CoupSettled
from cardroom.games.baccarat.wagers import WagerKind
from cardroom.history import HandHistory, replay
from cardroom.money import Cents
from cardroom.shoe import SeededRandom

SEATS = (1, 2, 3)
NAMES = {1: "ann", 2: "bob", 3: "cy"}
BUY_IN = 50_000
MAIN = st.sampled_from([500, 510, 1000, 2500, 7700])
SIDE = st.sampled_from([100, 500, 1300])
ODD = st.sampled_from([0, 1, 99, 60_000, 600_000])


@st.composite
def bets(draw: st.DrawFn) -> dict[WagerKind, Cents]:
    """Mostly legal bets (a main bet, perhaps a tie, nines and the $1 jackpot); one in four
    gets a wager the rules refuse (an amount out of limits, or Player and Banker at once)."""
    out: dict[WagerKind, Cents] = {draw(st.sampled_from([WagerKind.PLAYER, WagerKind.BANKER])):
                                   draw(MAIN)}
    for kind in (WagerKind.TIE, WagerKind.PLAYER_9, WagerKind.BANKER_9):
        if draw(st.integers(0, 3)) == 0 and len(out) < 3:
            out[kind] = draw(SIDE)
    if draw(st.booleans()):
        out[WagerKind.PROGRESSIVE] = 100
    if draw(st.integers(0, 3)) == 0:
        out[draw(st.sampled_from(list(WagerKind)))] = draw(ODD)
    return out


BETS = bets()

DEALT: list[int] = []
"""Seats with bets in each coup dealt (the test checks the play was not all refusals)."""

BANKER_DRAWS_ON = {3: {0, 1, 2, 3, 4, 5, 6, 7, 9}, 4: {2, 3, 4, 5, 6, 7}, 5: {4, 5, 6, 7},
                   6: {6, 7}}
"""Mini-Baccarat, third card rules: banker 3-6 draws on these player third cards; the
document's row for 3 lists 1-7 and 9 (stands on 8), and a 0 (ten or picture) draws too."""


def value(card: Card) -> int:
    """Mini-Baccarat: picture cards 0 points, other cards face value (tens 0 once reduced)."""
    return 0 if card.rank >= Rank.TEN else int(card.rank)


def total(cards: tuple[Card, ...]) -> int:
    return sum(map(value, cards)) % 10


def check_tableau(player: tuple[Card, ...], banker: tuple[Card, ...]) -> None:
    """Mini-Baccarat "Third Card Rules", row by row."""
    assert 2 <= len(player) <= 3 and 2 <= len(banker) <= 3  # "No hand can have more than 3"
    p2, b2 = total(player[:2]), total(banker[:2])
    if p2 >= 8 or b2 >= 8:  # "Natural" (both hands stand)
        assert len(player) == len(banker) == 2
        return
    assert (len(player) == 3) == (p2 <= 5)  # 0-5 must draw, 6-7 must stand
    if len(player) == 2:  # player stood: banker 3, 4, 5 draw, 6 stands (and 0-2 draw)
        assert (len(banker) == 3) == (b2 <= 5)
        return
    third = value(player[2])
    draws = b2 <= 2 or (b2 in BANKER_DRAWS_ON and third in BANKER_DRAWS_ON[b2])
    assert (len(banker) == 3) == draws


def check_settlement(kind: WagerKind, stake: Cents, won: Cents, commission: Cents,
                     player: tuple[Card, ...], banker: tuple[Card, ...]) -> None:
    """Mini-Baccarat payouts; Super-9 pay table 1 (nines 5 to 1, suited 11 to 1)."""
    p, b = total(player), total(banker)
    if kind in (WagerKind.PLAYER, WagerKind.BANKER):
        if p == b:
            assert won == 0 and commission == 0  # a tie pushes the main bets
            return
        mine = (p > b) == (kind is WagerKind.PLAYER)
        assert won == (stake if mine else -stake)  # 1 to 1
        if kind is WagerKind.BANKER and mine:  # 5% commission, never above it, rounded down
            chip = BaccaratRules().smallest_chip_cents  # to the table's chip (a quarter)
            assert commission % chip == 0
            assert commission * 20 <= stake < (commission + chip) * 20
        else:
            assert commission == 0
    elif kind is WagerKind.TIE:
        assert won == (8 * stake if p == b else -stake)  # "Winning Tie bets are paid 8 to 1"
    elif kind in (WagerKind.PLAYER_9, WagerKind.BANKER_9):
        hand = player if kind is WagerKind.PLAYER_9 else banker
        if total(hand) != 9:
            assert won == -stake
        else:
            suited = len({c.suit for c in hand}) == 1
            assert won == stake * (11 if suited else 5)
    else:  # the progressive is "for-1": the stake is taken even when it wins
        assert won >= -stake and commission == 0


def state(table: BaccaratTable) -> tuple[Any, ...]:
    pool = table.pool
    return (dict(table.balances), copy.deepcopy(table.bets), len(table.events),
            None if pool is None else (pool.meter, pool.posted, pool.seeded_total))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       coups=st.lists(st.lists(st.tuples(st.sampled_from(SEATS), BETS), max_size=5),
                      min_size=1, max_size=6))
def test_random_play_conserves_chips_refuses_cleanly_replays_and_keeps_every_clause(
        seed: int, coups: list[list[tuple[int, dict[WagerKind, Cents]]]]) -> None:
    rules = BaccaratRules()
    table = BaccaratTable(rules, SeededRandom(seed))
    for name in SEATS:
        table.sit(name, BUY_IN)
    for attempts in coups:
        before = dict(table.balances)
        pool = table.pool
        assert pool is not None
        pool_before = {"meter": pool.meter, "posted": pool.posted,
                       "seeded_total": pool.seeded_total}
        placed: list[tuple[int, dict[WagerKind, Cents]]] = []
        for name, bets in attempts:
            was = state(table)
            if table.can_place_bets(name, bets):
                table.place_bets(name, bets)
                placed.append((name, bets))
            else:  # refused: nothing changed
                assert state(table) == was
        if not placed:  # nothing to deal: refused, nothing changed
            was = state(table)
            with pytest.raises(IllegalActionError, match="no bets are down"):
                table.deal()
            assert state(table) == was
            continue
        events_before = len(table.events)
        settled = table.deal()
        DEALT.append(len(placed))
        dealt = [ev.card for ev in table.events[events_before:] if isinstance(ev, CardDealt)]
        check_coup(table, settled, before, placed)
        players = [(n, NAMES[n], before[n]) for n, _ in placed]
        history = coup_history(rules, players, placed, dealt, settled,
                               [table.balances[n] for n, _ in placed], shoe={},
                               jackpot=pool_before)
        report = replay(HandHistory.from_json(history.to_json()))
        assert report.ok and report.result_matches, report.failure


def check_coup(table: BaccaratTable, settled: CoupSettled, before: dict[int, Cents],
               placed: list[tuple[int, dict[WagerKind, Cents]]]) -> None:
    check_tableau(settled.player, settled.banker)
    nets: dict[int, Cents] = {}
    for seat, s in settled.settlements:
        check_settlement(s.kind, s.stake, s.won, s.commission, settled.player, settled.banker)
        assert s.commission <= Fraction(1, 20) * s.stake
        nets[seat] = nets.get(seat, 0) + s.net
    for name in before:  # every chip a seat gains or loses is a settled wager's net
        assert table.balances[name] == before[name] + nets.get(name, 0) >= 0
    assert sorted((n, k) for n, b in placed for k in b) == sorted(
        (seat, s.kind) for seat, s in settled.settlements)


def test_the_random_play_above_dealt_coups() -> None:
    """Guard against a vacuous property: most generated coups had bets and were dealt."""
    test_random_play_conserves_chips_refuses_cleanly_replays_and_keeps_every_clause()
    assert len(DEALT) >= 25 and max(DEALT) >= 2
