"""Compiled (numba) round kernel for Super Pan 9 Monte Carlo: whole tables from real shoes.

The kernel holds no rule of its own beyond arithmetic (the dealer's rule 7 is the games'
table `DEALER_DRAWS`): the shoe arrives as card values built
by the reference `card_value`, the players' decisions as a 7x7x7 draw table built from an exact
`Strategy`, and the dealing order mirrors `SuperPan9Table` (round-robin three cards to seats in
order then the dealer, the seats' draws in seat order, then the dealer's). Each round is tallied
by (seats won, seats lost) in exact int64 counters, so any commission or Tie Bet payout can be
applied afterwards with Fractions, and the round (not the seat) is the sampling unit of the
confidence intervals: seats at one table share a dealer hand.

SIMULATION ONLY: shuffles use the xoshiro256** kernel of `baccarat_kernel.shuffle`, seeded from
a `numpy.random.SeedSequence`; it must never shuffle a live game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cardroom.analysis.baccarat_kernel import shuffle
from cardroom.games.super_pan_9.rules import DEALER_DRAWS

MAX_SEATS = 9
HIST_SIDE = MAX_SEATS + 1
"""The tally of a round: index won * HIST_SIDE + lost."""
DEALER_DRAWS_ARRAY = np.array(DEALER_DRAWS, dtype=np.bool_)
"""Rule 7 (`DEALER_DRAWS`), as the kernel reads it: frozen into the compiled code."""


@njit(cache=True, nogil=True)
def deal_shoe(shoe: Any, cut_index: int, seats: int, draw: Any, max_rounds: int, hist: Any,
              records: Any, record: bool) -> int:
    """Deal rounds from one shuffled shoe until the cut card has come out (or too few cards are
    left for a round, or `max_rounds`); returns the number of rounds dealt. With `record`, row n
    of `records` gets seat totals (+10 if the seat drew) and the dealer's total last."""
    size = shoe.shape[0]
    need = 4 * (seats + 1)
    hands = np.zeros((MAX_SEATS, 3), dtype=np.int64)
    totals = np.zeros(MAX_SEATS, dtype=np.int64)
    drew = np.zeros(MAX_SEATS, dtype=np.bool_)
    pos = 0
    n = 0
    while n < max_rounds and pos < cut_index and size - pos >= need:
        d0 = shoe[pos + seats]
        d1 = shoe[pos + 2 * seats + 1]
        d2 = shoe[pos + 3 * seats + 2]
        for s in range(seats):
            hands[s, 0] = shoe[pos + s]
            hands[s, 1] = shoe[pos + seats + 1 + s]
            hands[s, 2] = shoe[pos + 2 * seats + 2 + s]
        pos += 3 * (seats + 1)
        for s in range(seats):
            a = hands[s, 0]
            b = hands[s, 1]
            c = hands[s, 2]
            t = (a + b + c) % 10
            if draw[a * 49 + b * 7 + c]:
                t = (t + shoe[pos]) % 10
                pos += 1
                drew[s] = True
            else:
                drew[s] = False
            totals[s] = t
        dt = (d0 + d1 + d2) % 10
        if DEALER_DRAWS_ARRAY[dt]:
            dt = (dt + shoe[pos]) % 10
            pos += 1
        won = 0
        lost = 0
        for s in range(seats):
            if totals[s] > dt:
                won += 1
            elif totals[s] < dt:
                lost += 1
        hist[won * HIST_SIDE + lost] += 1
        if record:
            for s in range(seats):
                records[n, s] = totals[s] + (10 if drew[s] else 0)
            records[n, seats] = dt
        n += 1
    return n


@njit(cache=True, nogil=True)
def simulate(base_shoe: Any, n_rounds: int, state: Any, cut_index: int, seats: int,
             draw: Any) -> tuple[Any, int]:
    """Deal `n_rounds` rounds from freshly shuffled shoes: (round tallies, shoes used)."""
    shoe = base_shoe.copy()
    hist = np.zeros(HIST_SIDE * HIST_SIDE, dtype=np.int64)
    records = np.zeros((1, MAX_SEATS + 1), dtype=np.int64)
    done = 0
    shoes = 0
    while done < n_rounds:
        shuffle(shoe, state)
        shoes += 1
        done += deal_shoe(shoe, cut_index, seats, draw, n_rounds - done, hist, records, False)
    return hist, shoes


@njit(cache=True, nogil=True)
def deal_orders(orders: Any, cut_index: int, seats: int, draw: Any) -> tuple[Any, Any]:
    """Deal each given shoe (rows of card values) as `simulate` does; (records, tallies)."""
    n_shoes, size = orders.shape
    per_shoe = size // (3 * (seats + 1)) + 1
    records = np.full((n_shoes * per_shoe, MAX_SEATS + 1), -1, dtype=np.int64)
    hist = np.zeros(HIST_SIDE * HIST_SIDE, dtype=np.int64)
    total = 0
    for s in range(n_shoes):
        total += deal_shoe(orders[s], cut_index, seats, draw, per_shoe, hist, records[total:],
                           True)
    return records[:total], hist
