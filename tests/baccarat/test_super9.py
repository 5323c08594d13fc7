"""Super-9 Baccarat, clause by clause (../shared/rules/super-9-baccarat.wsgc.txt)."""

from __future__ import annotations

from datetime import date

import pytest

from cardroom.analysis.baccarat import analyze, count_coups
from cardroom.analysis.baccarat_depleted import DepletedShoe, full_composition
from cardroom.cards import parse_cards
from cardroom.errors import CardroomError, WagerError
from cardroom.games.baccarat.coup import CoupResult
from cardroom.games.baccarat.limits import check_bets
from cardroom.games.baccarat.paytables import nine_pay_table
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import BaccaratTable
from cardroom.games.baccarat.wagers import (
    ProgressiveAward,
    WagerKind,
    progressive_award,
    settle_wager,
)
from cardroom.houserules import build_rules
from cardroom.progressive_pool import JackpotPool
from cardroom.shoe import SeededRandom

P, B, T = WagerKind.PLAYER, WagerKind.BANKER, WagerKind.TIE
P9, B9, JP = WagerKind.PLAYER_9, WagerKind.BANKER_9, WagerKind.PROGRESSIVE


def coup(player: str, banker: str) -> CoupResult:
    return CoupResult(tuple(parse_cards(player)), tuple(parse_cards(banker)))


@pytest.mark.parametrize(("table", "p_suited", "b_suited"), [(1, 11, 11), (2, 11, 12),
                                                             (3, 12, 12)])
def test_super9_pay_tables_1_2_3(table: int, p_suited: int, b_suited: int) -> None:
    """"Pay table 1/2/3": unsuited nine 5-1 on both sides; suited nine 11 or 12 to 1."""
    t = nine_pay_table(table)
    assert (t.player_unsuited, t.banker_unsuited) == (5, 5)
    assert (t.player_suited, t.banker_suited) == (p_suited, b_suited)
    rules = BaccaratRules(paytable=table)  # type: ignore[arg-type]
    r = coup("2s 7s", "3h 6h")
    assert settle_wager(P9, 100, r, rules).net == 100 * p_suited
    assert settle_wager(B9, 100, r, rules).net == 100 * b_suited


def test_super9_player_9_two_or_three_card_nine_and_suited_means_every_card() -> None:
    """PLAYER-9: "it does not matter if it is a two card total of 9 or three card total of 9
    however for suited 9 payouts all cards in the players hand must be suited"."""
    rules = BaccaratRules()
    assert settle_wager(P9, 100, coup("2s 3s 4s", "Kh 5h"), rules).outcome == "suited nine"
    assert settle_wager(P9, 100, coup("2s 3s 4h", "Kh 5h"), rules).net == 500
    assert settle_wager(P9, 100, coup("2s 3s 3h", "Kh 5h"), rules).net == -100


def test_super9_banker_9_mirrors_player_9() -> None:
    """BANKER-9: "a bet that the Bankers hand will total 9"; suited needs all its cards."""
    rules = BaccaratRules()
    assert settle_wager(B9, 100, coup("Kh 5h", "4d 5d"), rules).net == 1100
    assert settle_wager(B9, 100, coup("Kh 5h", "Kd 2c 7c"), rules).net == 500


def test_super9_jackpot_10_for_1_one_suited_nine() -> None:
    """"Player, or Banker has a suited 9 ... 10-for 1"; "for-1": the $1 is taken, net $9."""
    r = coup("2s 7s", "Kh 5h")
    assert progressive_award(r) is ProgressiveAward.ONE_SUITED_NINE
    assert settle_wager(JP, 100, r, BaccaratRules()).net == 900


def test_super9_jackpot_125_for_1_document_example() -> None:
    """"Player has a 2 of spades and a 7 of spades banker has a 3 of hearts and a 6 of
    hearts. That wins 125 for 1"."""
    assert progressive_award(coup("2s 7s", "3h 6h")) is ProgressiveAward.BOTH_SUITED_NINE


def test_super9_jackpot_unsuited_three_card_banker_is_only_10_for_1() -> None:
    """"Player 2 of Spades and a 7 of spades VS banker King of hearts, 2 of clubs, 7 of
    clubs ... not a 125 for 1 winner but does win 10 for 1" (judged on the hands as given)."""
    assert progressive_award(coup("2s 7s", "Kh 2c 7c")) is ProgressiveAward.ONE_SUITED_NINE


def test_super9_jackpot_250_for_1_ace_eight_in_two_suits() -> None:
    """"Player Ace hearts 8 hearts VS banker Ace clubs 8 clubs": 250 for 1."""
    r = coup("Ah 8h", "Ac 8c")
    assert progressive_award(r) is ProgressiveAward.BOTH_SUITED_ACE_EIGHT
    assert settle_wager(JP, 100, r, BaccaratRules()).net == 24_900


def test_super9_top_jackpot_same_suited_ace_eight() -> None:
    """"Ace of spades 8 of spades for Player. Vs. Ace of spades 8 of spades for banker"."""
    r = coup("As 8s", "8s As")
    assert progressive_award(r) is ProgressiveAward.JACKPOT
    assert settle_wager(JP, 100, r, BaccaratRules(), jackpot_share=1_000_000).net == 999_900


def test_super9_three_card_suited_nines_never_win_the_two_top_awards() -> None:
    """"Three card suited 9's never qualify for 250 for 1 or jackpot winners. They do qualify
    ... for 10 for 1 or 125 for 1"."""
    assert progressive_award(coup("As 8s Ks", "As 8s")) is ProgressiveAward.BOTH_SUITED_NINE
    assert progressive_award(coup("Ah 8h Kh", "Kc 5d")) is ProgressiveAward.ONE_SUITED_NINE


def test_super9_a_hand_is_paid_its_highest_award_only() -> None:
    """The A-8 hands are also two suited nines, yet pay 250 (not 250 + 125)."""
    assert settle_wager(JP, 100, coup("Ah 8h", "Ac 8c"), BaccaratRules()).won == 24_900


def test_super9_progressive_loses_the_dollar_otherwise() -> None:
    assert settle_wager(JP, 100, coup("Ah 8c", "Kc 5d"), BaccaratRules()).net == -100


# --- jackpot pool ----------------------------------------------------------------------------

def test_super9_pool_seeded_at_2500_and_seed_never_recovered() -> None:
    """"The Progressive is seeded with $2500 by the house The house may not recover this
    money"; after a top award the house seeds it again."""
    pool = JackpotPool(250_000, 20)
    assert pool.meter == pool.posted == 250_000
    pool.award(1)
    assert pool.meter == 250_000 and pool.seeded_total == 500_000


def test_super9_at_least_20_cents_of_every_dollar_goes_to_the_meter() -> None:
    """"For every 1$ dropped the house will add a minimum of .20 cents"."""
    with pytest.raises(CardroomError, match="at least 20 cents"):
        build_rules(BaccaratRules, {"jackpot_contribution": "0.19"})
    pool = JackpotPool(250_000, BaccaratRules().contribution_cents_per_dollar)
    pool.contribute(10)
    assert pool.meter == 250_200


def test_super9_jackpot_shared_equally_90000_with_9_players_is_10000_each() -> None:
    """"A $90,000 jackpot hit with 9 players playing the jackpot will pay each player
    $10,000" (the document writes the formula upside down: it is jackpot / hands)."""
    pool = JackpotPool(9_000_000, 20)
    assert pool.award(9) == [1_000_000] * 9


def test_super9_meter_posted_daily_and_awards_limited_to_what_is_posted() -> None:
    """"The jackpot must be updated daily before opening"; "The top jackpot is limited to what
    is posted": contributions since the last posting wait for the next one."""
    pool = JackpotPool(250_000, 20)
    pool.contribute(1000)
    assert pool.posted == 250_000
    assert pool.award(1) == [250_000]
    assert pool.meter == 20_000 + 250_000
    pool.post(date(2026, 11, 21))
    assert pool.posted == 270_000 and pool.posted_on == date(2026, 11, 21)


def test_pool_adjustment_needs_two_people_and_a_reason() -> None:
    pool = JackpotPool(250_000, 20)
    with pytest.raises(CardroomError):
        pool.adjust(-100, "ann", "ann", "typo")
    with pytest.raises(CardroomError):
        pool.adjust(-100, "ann", "bob", " ")
    pool.adjust(-100, "ann", "bob", "miscount")
    assert pool.meter == 249_900


# --- betting limits --------------------------------------------------------------------------

def test_super9_at_most_three_bets_plus_the_jackpot_and_a_tie_counts() -> None:
    """"A player betting on the banker may also bet the player-9, dealer-9 & jackpot bets, but
    they may not bet the tie as they would have placed 4 bets plus the jackpot"."""
    rules = BaccaratRules()
    check_bets({B: 500, P9: 100, B9: 100, JP: 100}, rules)
    with pytest.raises(WagerError, match="at most three bets"):
        check_bets({B: 500, P9: 100, B9: 100, T: 100, JP: 100}, rules)


def test_super9_bonus_without_main_bet_only_if_the_house_allows() -> None:
    """"House rules may allow a player to play the Player-9 or Banker-9, or tie but not
    require the player to play the traditional main bet"."""
    with pytest.raises(WagerError, match="need a main bet"):
        check_bets({P9: 500}, BaccaratRules())
    check_bets({P9: 500}, BaccaratRules(bonus_without_main=True))


def test_super9_table_minimum_on_one_bet_without_main_bet() -> None:
    """"If the table minimum is $5 ... the player may be required to play 5$ on one of the
    bets but may play 1$ on the other"."""
    rules = BaccaratRules(bonus_without_main=True, table_min_cents=500)
    check_bets({P9: 500, B9: 100}, rules)
    with pytest.raises(WagerError, match="table minimum"):
        check_bets({P9: 100, B9: 100}, rules)
    check_bets({P9: 100, B9: 100},
               BaccaratRules(bonus_without_main=True, bonus_only_requires_table_min=False))


def test_super9_bonus_minimum_is_one_dollar_with_a_main_bet() -> None:
    """"The minimum bet for player-9 and banker-9 Bonus Wager is 1$ if the player is playing
    the main baccarat bet"."""
    check_bets({B: 500, P9: 100}, BaccaratRules())
    with pytest.raises(WagerError, match="minimum Player-9/Banker-9 bet is \\$1"):
        check_bets({B: 500, P9: 99}, BaccaratRules())


def test_super9_house_option_on_bonus_larger_than_main() -> None:
    """"The house may allow players to bet more on the Player-9 Banker-9 than the main wager,
    or not allow it"."""
    check_bets({B: 500, P9: 1000}, BaccaratRules())
    with pytest.raises(WagerError, match="more than the main bet"):
        check_bets({B: 500, P9: 1000}, BaccaratRules(bonus_over_main=False))


def test_super9_bonus_maximum_is_its_own_limit() -> None:
    """"they may have different betting maximums than on the main player/banker bets"."""
    with pytest.raises(WagerError, match="outside"):
        check_bets({B: 500, P9: 10_100}, BaccaratRules(bonus_max_cents=10_000))


def test_super9_jackpot_is_one_dollar_and_needs_another_bet_unless_allowed_alone() -> None:
    """"The progressive jackpot is a 1$ Progressive Wager. The house may allow it to be played
    alone, or require the main bet or one of the remaining Bonus Wagers"."""
    with pytest.raises(WagerError, match=r"exactly \$1"):
        check_bets({B: 500, JP: 200}, BaccaratRules())
    with pytest.raises(WagerError, match="needs a main bet"):
        check_bets({JP: 100}, BaccaratRules())
    check_bets({JP: 100}, BaccaratRules(jackpot_alone=True))
    with pytest.raises(WagerError, match="needs a main bet"):
        check_bets({T: 500, JP: 100}, BaccaratRules())
    check_bets({T: 500, JP: 100}, BaccaratRules(bonus_without_main=True))


def test_super9_jackpot_needs_eight_decks() -> None:
    """"Eight standard 52 card decks of cards are used if using the progressive jackpot"."""
    with pytest.raises(CardroomError, match="8-deck"):
        build_rules(BaccaratRules, {"decks": 6})
    with pytest.raises(WagerError, match="does not offer"):
        check_bets({B: 500, JP: 100}, BaccaratRules(decks=6, jackpot=False))


def test_super9_more_or_fewer_than_eight_decks_without_the_progressive() -> None:
    """Super-9: "If the progressive jackpot is not used the house may use more or fewer than 8
    standard decks" (issue 20): nine decks without the jackpot are a table's shoe, dealt and
    figured exactly by both enumerations; with the jackpot the refusal quotes the clause."""
    rules = build_rules(BaccaratRules, {"decks": 9, "jackpot": False}, "table")
    table = BaccaratTable(rules, source=SeededRandom(9))
    table.sit(1, 10_000)
    table.place_bets(1, {B: 500})
    table.deal()
    assert table.shoe is not None and len(table.shoe.order) == 9 * 52
    counts = count_coups(9)
    assert counts.total == 468 * 467 * 466 * 465 * 464 * 463  # six-card sequences, 468 cards
    assert DepletedShoe().counts(full_composition(9), 9) == counts
    assert analyze(rules, counts=counts).counts.decks == 9
    with pytest.raises(CardroomError, match=r'not 9 decks \(Super-9 rules: "Eight standard 52 '
                                            r'card decks of cards are used if using the '
                                            r'progressive jackpot"\)'):
        build_rules(BaccaratRules, {"decks": 9}, "table")


def test_mini_baccarat_either_player_or_banker_not_both() -> None:
    """"each player wagers on either the Player hand or the Banker hand, or on the Tie Bet"."""
    with pytest.raises(WagerError, match="not both"):
        check_bets({P: 500, B: 500}, BaccaratRules())
    check_bets({T: 500}, BaccaratRules())


@pytest.mark.parametrize("bets", [{}, {B: 0}, {B: -5}, {B: 10.0}])
def test_bad_bets_are_refused(bets: dict[WagerKind, int]) -> None:
    with pytest.raises(CardroomError):
        check_bets(bets, BaccaratRules())


def test_unknown_wager_names_are_refused_and_aliases_work() -> None:
    assert WagerKind.parse("Dealer-9") is B9 and WagerKind.parse("jackpot") is JP
    with pytest.raises(WagerError, match="unknown wager"):
        WagerKind.parse("dragon")
