"""Betting limits of a Super-9 Mini-Baccarat table. Every refusal names the rule it enforces."""

from __future__ import annotations

from collections.abc import Mapping

from cardroom.errors import WagerError
from cardroom.games.baccarat.paytables import progressive_schedule
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.wagers import MAIN_WAGERS, NINE_WAGERS, WagerKind
from cardroom.money import Cents, format_money, require_cents

MAX_BETS_BESIDES_JACKPOT = 3


def check_bets(bets: Mapping[WagerKind, Cents], rules: BaccaratRules) -> None:
    """Raise WagerError naming the rule if this combination of bets is not allowed."""
    if not bets:
        raise WagerError("no wager placed")
    for kind, amount in bets.items():
        require_cents(amount, f"the {kind.label} wager")
        if amount <= 0:
            raise WagerError(f"the {kind.label} wager must be a positive amount")
    kinds = set(bets)
    main = kinds & MAIN_WAGERS
    nines = kinds & NINE_WAGERS
    others = kinds - {WagerKind.PROGRESSIVE}
    if len(main) > 1:
        raise WagerError("refused: a player wagers on either the Player hand or the Banker hand, "
                         "not both (Mini-Baccarat rules)")
    if len(others) > MAX_BETS_BESIDES_JACKPOT:
        raise WagerError("refused: at most three bets plus the jackpot bet, and a tie bet counts "
                         "as one of the three (Super-9 rules, betting limits)")
    _check_limits(bets, rules, main, nines)
    for kind, amount in bets.items():
        why = rules.refuse_off_chip(amount, f"refused: the {kind.label} wager")
        if why is not None:
            raise WagerError(why)
    _check_bonus_beside_main(bets, rules, main, nines, others)
    if WagerKind.PROGRESSIVE in bets:
        _check_progressive(bets, rules, bool(main), bool(others))


def _check_limits(bets: Mapping[WagerKind, Cents], rules: BaccaratRules,
                  main: set[WagerKind], nines: set[WagerKind]) -> None:
    """Each wager within its own limits: the table's, the tie bet's, the bonus wagers'."""
    for kind in main:
        _within(kind, bets[kind], rules.table_min_cents, rules.table_max_cents,
                "the table limits")
    if WagerKind.TIE in bets:
        _within(WagerKind.TIE, bets[WagerKind.TIE], rules.tie_min_cents, rules.tie_max_cents,
                "the tie bet limits")
    for kind in nines:
        _within(kind, bets[kind], rules.bonus_min_cents, rules.bonus_max_cents,
                "the bonus wager limits: the minimum Player-9/Banker-9 bet is $1 (Super-9 rules)")


def _check_bonus_beside_main(bets: Mapping[WagerKind, Cents], rules: BaccaratRules,
                             main: set[WagerKind], nines: set[WagerKind],
                             others: set[WagerKind]) -> None:
    """The house options on Player-9 and Banker-9: with or without a main bet, and over it."""
    if nines and not main:
        if not rules.bonus_without_main:
            raise WagerError("refused: Player-9 and Banker-9 need a main bet on Player or Banker "
                             "at this table (Super-9 rules, house option)")
        if rules.bonus_only_requires_table_min and max(bets[k] for k in others) < \
                rules.table_min_cents:
            raise WagerError(
                "refused: without a main bet one of the bets must be at least the table minimum "
                f"of {format_money(rules.table_min_cents)} (Super-9 rules, house option)")
    if nines and main and not rules.bonus_over_main:
        main_amount = bets[next(iter(main))]
        for kind in nines:
            if bets[kind] > main_amount:
                raise WagerError(f"refused: {kind.label} may not be more than the main bet at "
                                 "this table (Super-9 rules, house option)")


def _within(kind: WagerKind, amount: Cents, low: Cents, high: Cents, rule: str) -> None:
    if not low <= amount <= high:
        raise WagerError(f"refused: a {kind.label} wager of {format_money(amount)} is outside "
                         f"{format_money(low)} to {format_money(high)} ({rule})")


def _check_progressive(bets: Mapping[WagerKind, Cents], rules: BaccaratRules, has_main: bool,
                       has_other: bool) -> None:
    if not rules.jackpot:
        raise WagerError("refused: this table does not offer the progressive jackpot")
    wager = progressive_schedule().wager_cents
    if bets[WagerKind.PROGRESSIVE] != wager:
        raise WagerError(f"refused: the progressive jackpot wager is exactly "
                         f"{format_money(wager)} (Super-9 rules)")
    if rules.jackpot_alone or has_main:
        return
    if not has_other:
        raise WagerError("refused: the jackpot needs a main bet (or, where the house allows, "
                         "Player-9, Banker-9 or Tie) at this table (Super-9 rules)")
    if not rules.bonus_without_main:
        raise WagerError("refused: the jackpot needs a main bet on Player or Banker at this table "
                         "(Super-9 rules)")
