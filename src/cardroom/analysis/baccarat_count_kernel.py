"""Compiled (numba) card-counter kernel: real shoes dealt to their end, a counter who bets each
side bet only when his count says it favours him, tallied by penetration.

The shoe is dealt by `baccarat_kernel.deal_shoe` itself (the burn, the tableau), with the cut
card placed at the end so that every coup the shoe can give is dealt; the counter's decisions
and results are then tallied per coup by the position of its first card (buckets of
one card), so any cut-card depth can be read from one run; the coups the house itself deals
(to its cut card and the coups after it) are tallied apart. Results are exact int64 class
counts; the counter's edge and its interval are computed from them outside.

SIMULATION ONLY: the shuffle is `baccarat_kernel.shuffle` (xoshiro256**), never for a live game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cardroom.analysis.baccarat_kernel import (
    RECORD_WIDTH,
    _ace_eight,
    _suited,
    coup_table,
    deal_shoe,
    shuffle,
)

BETS = 3
"""Player-9, Banker-9, progressive."""
CLASSES = 5
"""Outcome classes of one bet: Player-9/Banker-9 0 no nine, 1 nine, 2 suited nine; progressive
the award 0..4 (`wagers.ProgressiveAward`)."""


@njit(cache=True, nogil=True, inline="always")
def _nine_class(a: Any, b: Any, c: Any, total: Any) -> Any:
    if total != 9:
        return 0
    return 2 if _suited(a, b, c) else 1


@njit(cache=True, nogil=True)
def count_shoes(base_shoe: Any, n_coups: int, state: Any, cut_index: int, after_cut: int,
                expose_first: bool, burn_after: Any, value: Any, natural: Any, pdraw: Any,
                bdraw: Any, tags: Any, tag_mean: Any, slope: Any,
                base_adv: Any) -> tuple[Any, Any, Any, Any, int]:
    """Deal shoes until `n_coups` coups (whole shoes); returns (bet tallies [bet, first-card
    position, class], coups per position, bet tallies of the coups the house deals [bet,
    class], coups the house deals, shoes).

    Before each coup the counter's running count for bet k is RC = sum of tags[k, card] over
    the cards he has seen (the exposed burn card and every dealt card; burned cards are not
    seen). He bets when the linear estimate of his advantage is positive:
    base_adv[k] + slope[k] * (RC - seen * tag_mean[k]) / (cards not seen) > 0.
    """
    size = base_shoe.shape[0]
    shoe = base_shoe.copy()
    bets = np.zeros((BETS, size, CLASSES), dtype=np.int64)
    coups = np.zeros(size, dtype=np.int64)
    house = np.zeros((BETS, CLASSES), dtype=np.int64)
    house_coups = np.zeros(1, dtype=np.int64)
    records = np.zeros((size // 4 + 1, RECORD_WIDTH), dtype=np.int64)
    dummy = np.zeros(3 * 3 * 3 * 5, dtype=np.int64)
    running = np.zeros(BETS, dtype=np.float64)
    table = coup_table(natural, pdraw, bdraw)
    done = 0
    shoes = 0
    while done < n_coups:
        shuffle(shoe, state)
        shoes += 1
        n = deal_shoe(shoe, size, 0, True, burn_after, value, table, records.shape[0], dummy,
                      records, True)
        running[:] = 0.0
        seen = 0
        pos = 1 + burn_after[shoe[0]]
        if expose_first:
            for k in range(BETS):
                running[k] += tags[k, shoe[0]]
            seen = 1
        previous = -1
        for i in range(n):
            row = records[i]
            dealt = pos < cut_index or (after_cut > 0 and 0 <= previous < cut_index)
            previous = pos
            coups[pos] += 1
            if dealt:
                house_coups[0] += 1
            unseen = size - seen
            p_class = _nine_class(row[0], row[1], row[2], row[6])
            b_class = _nine_class(row[3], row[4], row[5], row[7])
            award = 0
            if _ace_eight(row[0], row[1], row[2]) and _ace_eight(row[3], row[4], row[5]):
                award = 4 if (row[0] & 3) == (row[3] & 3) else 3
            elif p_class == 2 and b_class == 2:
                award = 2
            elif p_class == 2 or b_class == 2:
                award = 1
            for k in range(BETS):
                adv = base_adv[k] + slope[k] * (running[k] - seen * tag_mean[k]) / unseen
                if adv > 0.0:
                    cls = p_class if k == 0 else (b_class if k == 1 else award)
                    bets[k, pos, cls] += 1
                    if dealt:
                        house[k, cls] += 1
            for j in range(6):
                card = row[j]
                if card >= 0:
                    for k in range(BETS):
                        running[k] += tags[k, card]
                    seen += 1
                    pos += 1
        done += n
    return bets, coups, house, house_coups[0], shoes
