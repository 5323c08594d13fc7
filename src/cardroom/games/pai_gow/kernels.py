# mypy: disable-error-code="no-any-return"
"""Compiled (numba) five-card and two-card evaluation on card codes (0..51, joker 52).

Scores are bit-for-bit those of `cardroom.games.pai_gow.evaluate`; the tests hold the two to
each other. Rank masks use bit ``rank - 2`` (two = bit 0, ace = bit 12).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from cardroom.games.pai_gow.evaluate import straight_value

JOKER_CODE = 52
ACE_BIT = 1 << 12
_FULL = 1 << 13


def _build_tables() -> tuple[npt.NDArray[np.int32], ...]:
    rank_of = np.zeros(53, dtype=np.int32)
    suit_of = np.full(53, 4, dtype=np.int32)
    for code in range(52):
        r = code // 4 + 1
        rank_of[code] = 14 if r == 1 else r
        suit_of[code] = code % 4
    pop = np.zeros(_FULL, dtype=np.int32)
    pack = np.zeros(_FULL, dtype=np.int32)
    fill = np.zeros(_FULL, dtype=np.int32)
    straight = np.zeros((2, _FULL), dtype=np.int32)
    windows = [(top, {top - i for i in range(5)}) for top in range(6, 15)]
    windows.append((5, {14, 2, 3, 4, 5}))
    for m in range(_FULL):
        ranks = [b + 2 for b in range(12, -1, -1) if m >> b & 1]
        pop[m] = len(ranks)
        if len(ranks) <= 5:
            pack[m] = sum(r << (16 - 4 * i) for i, r in enumerate(ranks))
        if len(ranks) == 4:
            top_missing = next(b for b in range(12, -1, -1) if not m >> b & 1)
            filled = m | 1 << top_missing
            fill[m] = sum(
                (b + 2) << (16 - 4 * i)
                for i, b in enumerate(b for b in range(12, -1, -1) if filled >> b & 1)
            )
        if len(ranks) in (4, 5):
            for wheel in (0, 1):
                best = 0
                for top, window in windows:
                    if set(ranks) <= window:  # five of them, or four and the joker
                        best = max(best, straight_value(top, bool(wheel)))
                straight[wheel, m] = best
    return rank_of, suit_of, pop, pack, fill, straight


RANK_OF, SUIT_OF, POP, PACK, FILL, STRAIGHT = _build_tables()

_PAIR = 1 << 20
_TWO_PAIR = 2 << 20
_TRIPS = 3 << 20
_STRAIGHT = 4 << 20
_FLUSH = 5 << 20
_FULL_HOUSE = 6 << 20
_QUADS = 7 << 20
_SF = 8 << 20
_FIVE_ACES = 9 << 20


@njit(cache=True, inline="always")
def top_bit_rank(m: int) -> int:
    """The highest rank (2-14) whose bit is set in a rank mask, 0 if none."""
    r = 14
    while r >= 2:
        if m >> (r - 2) & 1:
            return r
        r -= 1
    return 0


@njit(cache=True, inline="always")
def count_rank(b: int, m1: int, m2: int, m3: int, m4: int) -> tuple[int, int, int, int]:
    """The rank masks after one more card of rank bit `b`: ``m<k>`` holds the ranks seen at
    least k times (a rank already in `m4` stays there)."""
    if m3 & b:
        m4 |= b
    elif m2 & b:
        m3 |= b
    elif m1 & b:
        m2 |= b
    else:
        m1 |= b
    return m1, m2, m3, m4


@njit(cache=True)
def eval5_codes(c0: int, c1: int, c2: int, c3: int, c4: int, wheel: int) -> int:
    """Score of five card codes; ``wheel`` 1 ranks A-2-3-4-5 second-highest."""
    m1 = 0
    m2 = 0
    m3 = 0
    m4 = 0
    joker = 0
    suit = -1
    flush = 1
    for c in (c0, c1, c2, c3, c4):
        if c == JOKER_CODE:
            joker = 1
            continue
        m1, m2, m3, m4 = count_rank(1 << (RANK_OF[c] - 2), m1, m2, m3, m4)
        s = SUIT_OF[c]
        if suit < 0:
            suit = s
        elif s != suit:
            flush = 0
    naturals_distinct = POP[m1] == 5 - joker
    best = 0
    if joker:
        if naturals_distinct:
            sv = STRAIGHT[wheel, m1]
            if flush:
                if sv:
                    return _SF | sv << 15
                best = _FLUSH | FILL[m1]
            elif sv:
                best = _STRAIGHT | sv << 15
        # the joker as an ace
        if m4 & ACE_BIT:
            return _FIVE_ACES
        m1, m2, m3, m4 = count_rank(ACE_BIT, m1, m2, m3, m4)
    elif naturals_distinct:
        sv = STRAIGHT[wheel, m1]
        if flush:
            if sv:
                return _SF | sv << 15
            return _FLUSH | PACK[m1]
        if sv:
            return _STRAIGHT | sv << 15
        return PACK[m1]
    singles = m1 & ~m2
    pairs = m2 & ~m3
    trips = m3 & ~m4
    if m4:
        q = top_bit_rank(m4)
        score = _QUADS | q << 16 | q << 12 | q << 8 | q << 4 | PACK[singles] >> 16
    elif trips and pairs:
        t = top_bit_rank(trips)
        p = top_bit_rank(pairs)
        score = _FULL_HOUSE | t << 16 | t << 12 | t << 8 | p << 4 | p
    elif trips:
        t = top_bit_rank(trips)
        score = _TRIPS | t << 16 | t << 12 | t << 8 | PACK[singles] >> 12
    elif POP[pairs] == 2:
        hi = top_bit_rank(pairs)
        lo = top_bit_rank(pairs & ~(1 << (hi - 2)))
        score = _TWO_PAIR | hi << 16 | hi << 12 | lo << 8 | lo << 4 | PACK[singles] >> 16
    elif pairs:
        p = top_bit_rank(pairs)
        score = _PAIR | p << 16 | p << 12 | PACK[singles] >> 8
    else:
        score = PACK[singles]
    return score if score > best else best


@njit(cache=True, inline="always")
def eval2_codes(c0: int, c1: int) -> int:
    """Score of a two-card front hand; the joker is an ace."""
    a = 14 if c0 == JOKER_CODE else RANK_OF[c0]
    b = 14 if c1 == JOKER_CODE else RANK_OF[c1]
    if a < b:
        a, b = b, a
    if a == b:
        return _PAIR | a << 16 | b << 12
    return a << 16 | b << 12


@njit(cache=True)
def eval5_batch(codes: npt.NDArray[np.uint8], wheel: int) -> npt.NDArray[np.int32]:
    """Scores of many five-card hands, one row of codes each."""
    n = codes.shape[0]
    out = np.empty(n, dtype=np.int32)
    for i in range(n):
        out[i] = eval5_codes(codes[i, 0], codes[i, 1], codes[i, 2], codes[i, 3], codes[i, 4],
                             wheel)
    return out


@njit(cache=True)
def count_categories_5(wheel: int) -> npt.NDArray[np.int64]:
    """Category counts over all C(53,5) five-card hands of the Pai Gow deck."""
    counts = np.zeros(10, dtype=np.int64)
    for a in range(53):
        for b in range(a + 1, 53):
            for c in range(b + 1, 53):
                for d in range(c + 1, 53):
                    for e in range(d + 1, 53):
                        counts[eval5_codes(a, b, c, d, e, wheel) >> 20] += 1
    return counts
