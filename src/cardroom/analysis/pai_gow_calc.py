# mypy: disable-error-code="no-any-return"
"""Exact Pai Gow hand calculator: every legal setting of a player's seven cards against the
dealer playing the house way, over all C(46,7) = 53,524,680 dealer hands of the other cards.

The fast path (`calculate`) reads the dealer's setting of each hand from the precomputed
`pai_gow_outcomes` table (counted once per house way, then cached) and tallies the hands per
(front, back) cell; `direct_counts` is the reference that sets every dealer hand the house way
again (8-15 s a hand; tests and `pai-gow calc --direct`). Both compare the same scores, so
the counts are identical. Counts are int64 (at most 53,524,680 per cell: no overflow);
expected values are exact `Fraction`s. Copies go to the banker (a tie on a hand is the
dealer's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cardroom.analysis.pai_gow_optimal import (
    first_hand,
    next_hand,
    one_task_at_a_time,
    seven_card_tasks,
)
from cardroom.analysis.pai_gow_outcomes import FULL_DECK, OutcomeTable, outcome_table
from cardroom.analysis.wager import Tally
from cardroom.cards import Card
from cardroom.games.pai_gow.houseway import HouseWay, set_hand
from cardroom.games.pai_gow.houseway_kernel import (
    compile_house_way,
    house_way_index,
    setting_scores,
)
from cardroom.games.pai_gow.settings import Setting, all_settings, validate_seven

DEALER_HANDS = comb(46, 7)


@njit(cache=True, parallel=True)
def _dealer_counts(rest: npt.NDArray[np.int64], p: npt.NDArray[np.int64], wheel: int,
                   pfront: npt.NDArray[np.int64], pback: npt.NDArray[np.int64],
                   tasks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """counts[s, k]: dealer hands against which setting s wins (k=0), pushes (1), loses (2)."""
    nt = tasks.shape[0]
    per = np.zeros((nt, 21, 3), dtype=np.int64)
    for t in prange(nt):
        h = np.empty(7, dtype=np.int64)
        acc = per[t]
        at = first_hand(rest, tasks[t], h)
        more = True
        while more:
            df, db = setting_scores(h, house_way_index(h, p, wheel), wheel)
            for s in range(21):
                if pback[s] < 0:
                    continue
                wins = (pfront[s] > df) + (pback[s] > db)
                acc[s, 2 - wins] += 1
            more = next_hand(rest, at, h)
    return per.sum(axis=0)


@dataclass(frozen=True)
class SettingResult:
    setting: Setting
    index: int
    tally: Tally
    """The dealer hands this setting beats, ties (copies) and loses to."""
    ev: Fraction
    optimal: bool
    house_way: bool


@dataclass(frozen=True)
class CalcResult:
    cards: tuple[Card, ...]
    way: str
    commission: Fraction
    dealer_hands: int
    settings: tuple[SettingResult, ...]


def _player_scores(settings: Sequence[Setting]) -> tuple[npt.NDArray[np.int64], ...]:
    """(front scores, back scores) of the 21 settings; a foul setting's back is -1."""
    pfront = np.array([s.front_score for s in settings], dtype=np.int64)
    pback = np.array([-1 if s.is_foul else s.back_score for s in settings], dtype=np.int64)
    return pfront, pback


def direct_counts(seven: Sequence[Card], way: HouseWay, wheel_second: bool = False,
                  deck: Sequence[int] = FULL_DECK) -> npt.NDArray[np.int64]:
    """Reference: counts[s, k] over the dealer hands of `deck` less the player's cards, each
    set the house way again (no table)."""
    pfront, pback = _player_scores(all_settings(validate_seven(seven), wheel_second))
    held = {c.code for c in seven}
    rest = np.array(sorted(c for c in deck if c not in held), dtype=np.int64)
    with one_task_at_a_time():
        return _dealer_counts(rest, compile_house_way(way), int(wheel_second), pfront, pback,
                              seven_card_tasks(len(rest)))


def table_counts(seven: Sequence[Card], table: OutcomeTable,
                 wheel_second: bool = False) -> npt.NDArray[np.int64]:
    """counts[s, k] from the house way's outcome table (which must be of the same house way
    and wheel rule): the dealer hands per cell, then each cell's scores against each setting's
    exactly as `direct_counts` compares them hand by hand."""
    pfront, pback = _player_scores(all_settings(validate_seven(seven), wheel_second))
    per_cell = table.tally([c.code for c in seven])
    counts = np.zeros((len(pfront), 3), dtype=np.int64)
    for s in range(len(pfront)):
        if pback[s] < 0:
            continue
        wins = (pfront[s] > table.front).astype(np.int64) + (pback[s] > table.back)
        for k in range(3):
            counts[s, k] = per_cell[wins == 2 - k].sum()
    return counts


def calculate(cards: Sequence[Card], way: HouseWay, commission: Fraction = Fraction(1, 20),
              wheel_second: bool = False, table: OutcomeTable | None = None,
              direct: bool = False) -> CalcResult:
    """Exact win/push/loss counts and EV (per unit wagered) of every legal setting: from
    `table` (default: the cached full-deck table of `way`, counted on first use), or with
    `direct` by setting every dealer hand again."""
    seven = validate_seven(cards)
    settings = all_settings(seven, wheel_second)
    if direct:
        counts, dealer_hands = direct_counts(seven, way, wheel_second), DEALER_HANDS
    else:
        if table is None:
            table = outcome_table(way, wheel_second)
        counts = table_counts(seven, table, wheel_second)
        dealer_hands = comb(len(table.deck) - len(seven), 7)
    hw = set_hand(seven, way, wheel_second).index
    rows = []
    for i, s in enumerate(settings):
        if s.is_foul:
            continue
        tally = Tally(*(int(x) for x in counts[i]))
        if tally.total != dealer_hands:  # pragma: no cover - an enumeration bug
            raise AssertionError("dealer hands miscounted")
        rows.append((i, s, tally, tally.ev(dealer_hands, commission)))
    best = max(ev for *_, ev in rows)
    results = tuple(SettingResult(s, i, tally, ev, ev == best, i == hw)
                    for i, s, tally, ev in rows)
    return CalcResult(seven, way.name, commission, dealer_hands, results)


@njit(cache=True)
def counts_for_hands(hands: npt.NDArray[np.int64], p: npt.NDArray[np.int64], wheel: int,
                     pfront: npt.NDArray[np.int64],
                     pback: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The calculator's inner step over an explicit list of dealer hands (for checking)."""
    acc = np.zeros((21, 3), dtype=np.int64)
    for r in range(hands.shape[0]):
        h = hands[r]
        df, db = setting_scores(h, house_way_index(h, p, wheel), wheel)
        for s in range(21):
            if pback[s] >= 0:
                acc[s, 2 - ((pfront[s] > df) + (pback[s] > db))] += 1
    return acc
