"""Super-9 clauses on limits, played out at a whole table (issue 10: every clause has a test
through the engine)."""

from __future__ import annotations

from cardroom.cards import Card, parse_cards
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import BaccaratTable
from cardroom.games.baccarat.wagers import WagerKind
from cardroom.shoe import SeededRandom, Shoe

SEATS = list(range(1, 10))


def full_table(cards: str, bets: dict[WagerKind, int]) -> BaccaratTable:
    table = BaccaratTable(BaccaratRules(), SeededRandom(7))
    order: list[Card] = parse_cards(cards) + table.rules.shoe_spec.cards()
    table.shoe = Shoe(order=order, cut_index=300, salt=b"")
    for seat in SEATS:
        table.sit(seat, 100_000)
        table.place_bets(seat, bets)
    return table


def test_super9_no_aggregate_limit_on_player_9_or_banker_9() -> None:
    """Super-9: "The house may not apply an aggregate limit to dealer-9 or player-9 Bonus
    Wager". Nine seats at the $100 bonus maximum on a suited player nine (2s 7s, pay table 1:
    11 to 1) are each paid $1,100 in full: $9,900 in all, nothing capped."""
    table = full_table("2s Qh 7s 5d", {WagerKind.PLAYER: 500, WagerKind.PLAYER_9: 10_000})
    settled = table.deal()
    nines = [s.net for _, s in settled.settlements if s.kind is WagerKind.PLAYER_9]
    assert nines == [110_000] * 9
    assert all(table.balances[s] == 100_000 + 500 + 110_000 for s in SEATS)


def test_super9_aggregate_limits_do_not_apply_to_for_1_jackpot_payouts() -> None:
    """Super-9: "Aggregate limits do not apply to jackpot payouts listed as for-1". Both hands
    suited nines (2s 7s, 3h 6h): 125 for 1 to each of nine $1 jackpot wagers, $124 net each."""
    table = full_table("2s 3h 7s 6h", {WagerKind.BANKER: 500, WagerKind.PROGRESSIVE: 100})
    settled = table.deal()
    jackpots = [s.net for _, s in settled.settlements if s.kind is WagerKind.PROGRESSIVE]
    assert jackpots == [12_400] * 9
