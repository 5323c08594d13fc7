"""A Super-9 table: bets, coups through a real shoe, settlement all at once, the pool."""

from __future__ import annotations

import pytest

from cardroom.cards import Card, parse_cards
from cardroom.errors import IllegalActionError, WagerError
from cardroom.games.baccarat.coup import CardDealt, Hand
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import BaccaratTable, BetsPlaced, CoupSettled, ShoeShuffled
from cardroom.games.baccarat.wagers import WagerKind
from cardroom.progressive_pool import JackpotPool
from cardroom.shoe import SeededRandom, Shoe

B, P, P9, JP = WagerKind.BANKER, WagerKind.PLAYER, WagerKind.PLAYER_9, WagerKind.PROGRESSIVE
ANN, BOB, CID, BROKE, RAIL = 1, 2, 3, 4, 9
"""The table's seat numbers (issue 24: a seat is the table's seat number, as at every game's
table; the names are the room's and the history's)."""


def rigged(table: BaccaratTable, cards: str) -> None:
    """Put a known order on top of the shoe (tests only)."""
    order: list[Card] = parse_cards(cards) + table.rules.shoe_spec.cards()
    table.shoe = Shoe(order=order, cut_index=300, salt=b"")


def test_a_refused_bet_changes_nothing() -> None:
    table = BaccaratTable(BaccaratRules(), SeededRandom(1))
    table.sit(ANN, 10_000)
    events = list(table.events)
    with pytest.raises(WagerError):
        table.place_bets(ANN, {B: 500, P: 500})
    with pytest.raises(WagerError, match="exceed the balance"):
        table.place_bets(ANN, {B: 20_000})
    assert table.balances == {ANN: 10_000} and table.bets == {} and table.events == events
    assert not table.can_place_bets(ANN, {B: 20_000})
    with pytest.raises(IllegalActionError):
        table.place_bets(BOB, {B: 500})
    with pytest.raises(IllegalActionError):
        table.deal()


def test_bets_come_back_until_the_coup_is_dealt() -> None:
    """mini-baccarat/wagers ("Prior to the deal, each player wagers"): a bet on the layout
    is not in action before the coup is dealt, so its seat may take it back; none to take
    back is refused."""
    table = BaccaratTable(BaccaratRules(), SeededRandom(1))
    table.sit(ANN, 10_000)
    table.place_bets(ANN, {B: 500, P9: 100})
    event = table.withdraw_bets(ANN)
    assert event.returned == 600 and event.clause == BetsPlaced.clause
    assert table.balances == {ANN: 10_000} and table.bets == {}
    assert not table.can_withdraw_bets(ANN)
    with pytest.raises(IllegalActionError, match="you have no wager on this hand to change"):
        table.withdraw_bets(ANN)
    table.place_bets(ANN, {P: 1_000})
    table.deal()
    with pytest.raises(IllegalActionError, match="you have no wager on this hand to change"):
        table.withdraw_bets(ANN)


def test_bets_settle_at_once_bonus_as_if_there_were_a_main_bet() -> None:
    """Super-9 DEALING PROCEDURES: "The Bonus Wagers are resolved in turn at the same time as
    the players main bet. If the player is not playing the main bet they are resolved in turn
    as if the player had a main bet"."""
    table = BaccaratTable(BaccaratRules(bonus_without_main=True), SeededRandom(1))
    table.sit(ANN, 10_000)
    table.sit(BOB, 10_000)
    rigged(table, "2s Qh 7s 5d")
    table.place_bets(ANN, {B: 500, P9: 500})
    table.place_bets(BOB, {P9: 500})
    settled = table.deal()
    by_seat = {(seat, s.kind): s.net for seat, s in settled.settlements}
    assert by_seat[(ANN, P9)] == by_seat[(BOB, P9)] == 5500
    assert by_seat[(ANN, B)] == -500
    assert table.balances == {ANN: 10_000 - 500 + 5500, BOB: 10_000 + 5500}


def test_jackpot_shared_by_every_hand_with_a_jackpot_wager() -> None:
    table = BaccaratTable(BaccaratRules(), SeededRandom(1))
    assert table.pool is not None
    for seat in (1, 2, 3):
        table.sit(seat, 10_000)
        table.place_bets(seat, {B: 500, JP: 100})
    table.sit(4, 10_000)
    table.place_bets(4, {B: 500})
    rigged(table, "As As 8s 8s")
    table.deal()
    share = 250_000 // 3
    assert table.balances[1] == 10_000 - 100 + share
    assert table.balances[4] == 10_000
    # 3 x 83,333 cents paid; the odd cent stays; the house reseeds $2,500.
    assert table.pool.meter == 250_000 + 3 * 20 - 3 * share + 250_000 == 250_061
    assert table.pool.posted == 250_000 - 3 * share + 250_000 == 250_001


def test_a_top_award_held_until_verified_is_not_in_the_balance() -> None:
    """Super-9 progressive (the top award paid once verified, the room's controller; issue 20:
    the room took the share back out of the engine's balances): a pool that holds its top
    award settles the coup, "for 1", the jackpot wager gone, the share pending."""
    pool = JackpotPool(250_000, 20, hold_top_award=True)
    table = BaccaratTable(BaccaratRules(), SeededRandom(1), pool=pool)
    table.restore_seat(1, 10_000)
    table.place_bets(1, {B: 500, JP: 100})
    rigged(table, "As As 8s 8s")
    settled = table.deal()
    assert [s.returned for _, s in settled.settlements if s.kind is JP] == [250_000]
    assert table.balances[1] == 10_000 - 100 and pool.locked


def test_a_seat_with_bets_down_cannot_leave_and_a_restored_seat_may_hold_nothing() -> None:
    """A seat the room's books hold comes back with its chips, none at all included; it may
    not get up with bets on the layout (issue 20: the room wrote the balances itself)."""
    table = BaccaratTable(BaccaratRules(), SeededRandom(1))
    table.restore_seat(BROKE, 0)
    table.restore_seat(ANN, 10_000)
    table.place_bets(ANN, {B: 500})
    with pytest.raises(IllegalActionError, match="chips in play"):
        table.leave(ANN)
    table.leave(BROKE)
    assert table.balances == {ANN: 9_500}


def test_deals_to_the_cut_card_then_one_more_coup_then_reshuffles() -> None:
    """Mini-Baccarat: the shoe is dealt to the cut card; house rule: one more coup, then a
    new shuffle (with its own commitment and burn)."""
    rules = BaccaratRules(cut_card_from_end=14, coups_after_cut_card=1)
    table = BaccaratTable(rules, SeededRandom(5))
    table.sit(ANN, 10_000_000)
    shuffles = 0
    coups_after_cut = 0
    for _ in range(200):
        table.place_bets(ANN, {B: 500})
        shoe_before = table.shoe
        past_cut = shoe_before is not None and shoe_before.cut_card_reached
        start = len(table.events)
        table.deal()
        if any(isinstance(e, ShoeShuffled) for e in table.events[start:]):
            shuffles += 1
            if shoe_before is not None:
                assert shoe_before.cut_card_reached and coups_after_cut == 1
            coups_after_cut = 0
        elif past_cut:
            coups_after_cut += 1
    assert shuffles >= 2


def test_every_card_and_settlement_is_an_event() -> None:
    table = BaccaratTable(BaccaratRules(), SeededRandom(2))
    table.sit(ANN, 10_000)
    table.place_bets(ANN, {P: 500})
    settled = table.deal()
    dealt = [e for e in table.events if isinstance(e, CardDealt)]
    assert tuple(e.card for e in dealt if e.hand is Hand.PLAYER) == settled.player
    assert tuple(e.card for e in dealt if e.hand is Hand.BANKER) == settled.banker
    assert isinstance(table.events[-1], CoupSettled)


def _nets(table: BaccaratTable, cards: str) -> dict[tuple[int, WagerKind], int]:
    rigged(table, cards)
    return {(seat, s.kind): s.net for seat, s in table.deal().settlements}


def test_mini_baccarat_player_pays_1_to_1_banker_pays_1_to_1_less_5_percent_tie_pays_8_to_1(
        ) -> None:
    """Mini-Baccarat: "Winning player hand wagers are paid 1 to 1. Winning Banker hand wagers
    are paid 1 to 1, but player pays 5% commission. Winning Tie bets are paid 8 to 1." A tie
    pushes the Player and Banker wagers (common practice, the document being silent)."""
    table = BaccaratTable(BaccaratRules(), SeededRandom(1))
    for seat in (ANN, BOB, CID):
        table.sit(seat, 100_000)

    def bets() -> None:
        table.place_bets(ANN, {P: 1_000})
        table.place_bets(BOB, {B: 1_000})
        table.place_bets(CID, {WagerKind.TIE: 1_000})

    bets()   # Player 9 (9, K) against Banker 0 (Q, J): naturals, both stand
    assert _nets(table, "9s Qh Kd Jc") == {(ANN, P): 1_000, (BOB, B): -1_000,
                                           (CID, WagerKind.TIE): -1_000}
    bets()   # Banker 9 against Player 0
    assert _nets(table, "Qh 9s Jc Kd") == {(ANN, P): -1_000, (BOB, B): 1_000 - 50,
                                           (CID, WagerKind.TIE): -1_000}
    bets()   # 9 against 9: a tie
    assert _nets(table, "9s 9h Kd Kc") == {(ANN, P): 0, (BOB, B): 0,
                                           (CID, WagerKind.TIE): 8_000}
    assert table.balances == {ANN: 100_000, BOB: 100_000 - 50, CID: 100_000 + 6_000}


def test_super9_no_side_bet_on_another_players_hand() -> None:
    """Super-9 DEALING PROCEDURES: "Players may not side-bet on another players hand": a bet
    is placed only for a seat at the table, from that seat's own balance, once a coup; no
    wager names another player's hand, and one seat's bets never move another's chips."""
    table = BaccaratTable(BaccaratRules(), SeededRandom(1))
    table.sit(ANN, 10_000)
    table.sit(BOB, 10_000)
    with pytest.raises(IllegalActionError, match="no seat"):
        table.place_bets(RAIL, {P9: 500})          # a bystander backing ann's play
    with pytest.raises(WagerError):
        table.place_bets(BOB, {WagerKind.parse("ann"): 500})
    table.place_bets(ANN, {B: 500, P9: 500})
    with pytest.raises(IllegalActionError, match="already bet"):
        table.place_bets(ANN, {P9: 500})           # a second stake riding on the coup
    assert table.balances == {ANN: 9_000, BOB: 10_000}
    assert set(table.bets) == {ANN}


def test_a_seat_is_the_tables_seat_number() -> None:
    """mini-baccarat/object (a seat at the table), issue 24: the engine knows a seat by its
    number, as every game's engine does; a name, a negative number or a taken seat is
    refused and changes nothing."""
    table = BaccaratTable(BaccaratRules(), SeededRandom(1))
    table.sit(ANN, 10_000)
    for seat in ("ann", -1, True):
        assert not table.can_sit(seat, 10_000)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="seat 1 is already taken"):
        table.sit(ANN, 500)
    with pytest.raises(IllegalActionError, match="seat number"):
        table.restore_seat(-1, 500)
    assert table.balances == {ANN: 10_000}
