# mypy: disable-error-code="no-any-return"
"""Best five-card category of every 6- and 7-card hand of the 53-card Pai Gow deck, fast
enough for a test.

The compiled evaluator scores all C(53,5) five-card hands once; a six-card hand's category is
the best of its six five-card subsets, a seven-card hand's the best of its seven six-card
subsets (so the best of all 21 five-card subsets). Subsets are addressed by their colex rank
``C(c0,1) + C(c1,2) + ...`` (cards ascending); enumerating with the smallest card innermost
makes six of the seven lookups walk the table in order.
"""

from __future__ import annotations

from math import comb

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cardroom.games.pai_gow.kernels import eval5_codes

N = 53
JOKER = 52


def _binomials() -> npt.NDArray[np.int64]:
    return np.array([[comb(n, k) for k in range(8)] for n in range(N + 1)], dtype=np.int64)


B = _binomials()


@njit(cache=True)
def _table5(wheel: int, b: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
    t = np.empty(b[N, 5], dtype=np.int8)
    for e in range(4, N):
        for d in range(3, e):
            for c in range(2, d):
                for bb in range(1, c):
                    base = b[bb, 2] + b[c, 3] + b[d, 4] + b[e, 5]
                    for a in range(bb):
                        t[base + a] = eval5_codes(a, bb, c, d, e, wheel) >> 20
    return t


@njit(cache=True, inline="always")
def _drop_offsets(h: npt.NDArray[np.int64], b: npt.NDArray[np.int64],
                  off: npt.NDArray[np.int64]) -> None:
    """Into `off`: the colex rank, less the smallest card's term, of the hand without h[k] for
    each k >= 1 (h[1..k-1] keep their place, the cards above h[k] move down one)."""
    m = h.shape[0]
    for k in range(1, m):
        s = 0
        for i in range(1, m):
            if i < k:
                s += b[h[i], i + 1]
            elif i > k:
                s += b[h[i], i]
        off[k - 1] = s


@njit(cache=True, inline="always")
def _best_of_drops(t: npt.NDArray[np.int8], off: npt.NDArray[np.int64], drops: int, a: int,
                   first: int) -> int:
    """The best of `first` (the hand without its smallest card `a`) and the categories of the
    hand without each other card (`_drop_offsets`, the first `drops` of them)."""
    best = first
    for k in range(drops):
        v = t[off[k] + a]
        if v > best:
            best = v
    return best


@njit(cache=True, inline="always")
def first_below(h: npt.NDArray[np.int64], top: int) -> None:
    """Into h[1..]: the first hand, in colex order, whose highest card is `top` (h[0], the
    smallest card, is the caller's innermost loop)."""
    m = h.shape[0]
    for k in range(1, m - 1):
        h[k] = k
    h[m - 1] = top


@njit(cache=True, inline="always")
def next_below(h: npt.NDArray[np.int64]) -> bool:
    """h[1..m-2] advanced to the next combination in colex order below the fixed h[m-1] (the
    order of nested loops, the highest outermost); False after the last."""
    for i in range(1, h.shape[0] - 1):
        if h[i] + 1 < h[i + 1]:
            h[i] += 1
            for j in range(1, i):
                h[j] = j
            return True
    return False


@njit(cache=True, inline="always")
def rank_above(h: npt.NDArray[np.int64], b: npt.NDArray[np.int64], shift: int) -> int:
    """Colex rank terms of h[1..] at positions shifted by `shift` (0: the hand without h[0];
    1: the whole hand's rank less its smallest card's term)."""
    s = 0
    for i in range(1, h.shape[0]):
        s += b[h[i], i + shift]
    return s


@njit(cache=True, parallel=True)
def _table6(t5: npt.NDArray[np.int8], b: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
    t = np.empty(b[N, 6], dtype=np.int8)
    for f in prange(5, N):
        h = np.empty(6, dtype=np.int64)
        off = np.empty(5, dtype=np.int64)
        first_below(h, f)
        more = True
        while more:
            base = rank_above(h, b, 1)
            drop0 = t5[rank_above(h, b, 0)]
            _drop_offsets(h, b, off)
            for a in range(h[1]):
                t[base + a] = _best_of_drops(t5, off, 5, a, drop0)
            more = next_below(h)
    return t


@njit(cache=True, parallel=True)
def _count7(t6: npt.NDArray[np.int8], b: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """counts[g, category]: seven-card hands whose highest card code is g."""
    per = np.zeros((N, 10), dtype=np.int64)
    for g in prange(6, N):
        h = np.empty(7, dtype=np.int64)
        off = np.empty(6, dtype=np.int64)
        acc = per[g]
        first_below(h, g)
        more = True
        while more:
            drop0 = t6[rank_above(h, b, 0)]
            _drop_offsets(h, b, off)
            for a in range(h[1]):
                acc[_best_of_drops(t6, off, 6, a, drop0)] += 1
            more = next_below(h)
    return per


def six_card_table(wheel: int = 0) -> npt.NDArray[np.int8]:
    """Best category of every six-card hand, indexed by colex rank."""
    return _table6(_table5(wheel, B), B)


def six_card_counts(table6: npt.NDArray[np.int8], with_joker: bool) -> npt.NDArray[np.int64]:
    """Category counts over the six-card hands of the 53-card deck (or of the 52 natural
    cards: the hands of colex rank below C(52,6))."""
    cut = len(table6) if with_joker else comb(JOKER, 6)
    return np.bincount(table6[:cut], minlength=10).astype(np.int64)


def seven_card_counts(wheel: int = 0,
                      table6: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int64]:
    """counts[g, category] over all C(53,7) seven-card hands, by highest card code g (row
    52: the hands holding the joker)."""
    t6 = six_card_table(wheel) if table6 is None else table6
    return _count7(t6, B)
