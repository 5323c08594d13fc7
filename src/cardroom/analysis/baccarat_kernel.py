"""Compiled (numba) coup kernel for baccarat Monte Carlo: real shoes, shuffled and dealt.

The kernel knows no baccarat rule of its own: card values, burn counts, naturals and both
third-card rules arrive as arrays built from the reference code (`coup.card_value`,
`BurnRule.cards_to_burn`, `Tableau.player_matrix()` / `banker_matrix()`), so the rules are
written once. Each coup is tallied by class, never by money: (winner, Player nine class,
Banker nine class, progressive award) in exact int64 counters; `baccarat_sim` turns the counts
into every wager's mean and variance with Fractions.

SIMULATION ONLY: the shuffle uses xoshiro256** (`cardroom.analysis.xoshiro`) seeded from a
`numpy.random.SeedSequence`. It is fast and reproducible, and therefore predictable: it must
never shuffle a live game (live games use `cardroom.shoe.Shoe.shuffled` with the OS CSPRNG).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from cardroom.analysis.xoshiro import step

WINNERS = ("player", "banker", "tie")
"""Winner classes, in the order of the counts' first axis."""
NINE_CLASSES = ("no nine", "nine", "suited nine")
"""A hand's class for the Player-9 / Banker-9 wagers (second and third axes)."""
N_AWARDS = 5
"""Progressive award classes, `wagers.ProgressiveAward` 0..4 (fourth axis)."""
COUNT_SHAPE = (len(WINNERS), len(NINE_CLASSES), len(NINE_CLASSES), N_AWARDS)
N_CLASSES = COUNT_SHAPE[0] * COUNT_SHAPE[1] * COUNT_SHAPE[2] * COUNT_SHAPE[3]

RECORD_WIDTH = 8
"""A coup record: player cards 1-3, banker cards 1-3 (codes, -1 if not dealt), the totals."""
MAX_COUP_CARDS = 6

_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)

IntArray = npt.NDArray[np.int64]


@njit(cache=True, nogil=True)
def shuffle(shoe: Any, state: Any) -> None:
    """Fisher-Yates (Durstenfeld) in place, SIMULATION-ONLY PRNG xoshiro256** in `state`.

    Bounded draws use Lemire's multiply-and-reject on 32-bit halves of each output, the high
    half first, so every permutation is exactly equally likely (no modulo bias). Both halves
    of an output usually fall clear of the rejection zone: then two swaps are done at once;
    otherwise (about once in ten million) the halves are taken one at a time, so the stream
    and the result are the same either way.
    """
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    spare = np.uint64(0)
    have_spare = False
    i = shoe.shape[0] - 1
    while i > 0:
        bound = np.uint64(i + 1)
        if have_spare:
            r = spare
            have_spare = False
        else:
            x, s0, s1, s2, s3 = step(s0, s1, s2, s3)
            if i >= 2:  # two swaps from one output when neither half is near a rejection
                m1 = (x >> np.uint64(32)) * bound
                m2 = (x & _MASK32) * np.uint64(i)
                if (m1 & _MASK32) >= bound and (m2 & _MASK32) >= np.uint64(i):
                    j = m1 >> np.uint64(32)  # unsigned: no negative-index wrap-around check
                    at = np.uint64(i)
                    tmp = shoe[at]
                    shoe[at] = shoe[j]
                    shoe[j] = tmp
                    j = m2 >> np.uint64(32)
                    at = np.uint64(i - 1)
                    tmp = shoe[at]
                    shoe[at] = shoe[j]
                    shoe[j] = tmp
                    i -= 2
                    continue
            r = x >> np.uint64(32)
            spare = x & _MASK32
            have_spare = True
        m = r * bound
        low = m & _MASK32
        if low < bound and low < (_TWO32 - bound) % bound:
            continue  # rejected: draw again for the same position
        j = m >> np.uint64(32)
        at = np.uint64(i)
        tmp = shoe[at]
        shoe[at] = shoe[j]
        shoe[j] = tmp
        i -= 1
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@njit(cache=True, nogil=True, inline="always")
def _add10(a: Any, b: Any) -> Any:
    """(a + b) mod 10 for two totals 0-9, without a division."""
    t = a + b
    return t - 10 if t >= 10 else t


@njit(cache=True, nogil=True, inline="always")
def _suited(a: Any, b: Any, c: Any) -> Any:
    """All cards of a hand in one suit (c = -1 for a two-card hand); suit = code & 3.
    Without branches: 1 or 0."""
    return (((a ^ b) & 3) == 0) & ((c < 0) | (((c ^ a) & 3) == 0))


@njit(cache=True, nogil=True, inline="always")
def _ace_eight(a: Any, b: Any, c: Any) -> Any:
    """A two-card suited Ace-8 (rank = code // 4 + 1; ace codes 0-3, eight codes 28-31)."""
    if c >= 0 or (a & 3) != (b & 3):
        return False
    ra = a >> 2
    rb = b >> 2
    return (ra == 0 and rb == 7) or (ra == 7 and rb == 0)


@njit(cache=True, nogil=True)
def coup_table(natural: Any, pdraw: Any, bdraw: Any) -> Any:
    """The tableau as one lookup: entry ((P, B) * 10 + v5) * 10 + v6, for the two-card totals
    P and B and the values v5, v6 of the next two cards in the shoe, holds the final Player
    total (bits 0-3), Banker total (4-7), whether Player drew (8) and Banker drew (9) -
    Banker's card is the first of the two when Player stood - and the winner (10-11, as
    `WINNERS`). Built from the rules' natural and third-card arrays."""
    out = np.empty(10_000, dtype=np.int16)  # 20 KB: stays in the L1 cache
    for p0 in range(10):
        for b0 in range(10):
            for v5 in range(10):
                for v6 in range(10):
                    pt, bt, p_drew, b_drew = p0, b0, 0, 0
                    if not (natural[p0] or natural[b0]):
                        column, nxt = 10, v5
                        if pdraw[p0]:
                            p_drew, column, nxt = 1, v5, v6
                            pt = _add10(p0, v5)
                        if bdraw[b0, column]:
                            b_drew = 1
                            bt = _add10(b0, nxt)
                    winner = 2 if pt == bt else (0 if pt > bt else 1)
                    out[((p0 * 10 + b0) * 10 + v5) * 10 + v6] = (
                        pt | (bt << 4) | (p_drew << 8) | (b_drew << 9) | (winner << 10))
    return out


@njit(cache=True, nogil=True, inline="always")
def _differ(a: Any, b: Any) -> Any:
    """1 if the cards' suits (code & 3) differ, else 0, as integer arithmetic (no branch)."""
    return (((a ^ b) & 3) + 3) >> 2


@njit(cache=True, nogil=True, inline="always")
def _coup(shoe: Any, pos: Any, value: Any, table: Any) -> Any:
    """The coup whose first card is at `pos` (the caller guarantees six cards from there):
    (its class cell in the counts, the cards it used, whether Player and Banker drew, the
    six cards at `pos` in the order p1, p2, p5, b1, b2, b3, the totals). Banker's third card
    is b3 when Player drew, else p5 (the fifth card).

    Cards go player, banker, player, banker, then the third cards the tableau calls for
    (`table`, from `coup_table`: one lookup); the rest is integer arithmetic without a branch
    (a branch on a coin-flip such as "Player drew" is mispredicted half the time)."""
    at = np.uint64(pos)  # unsigned indices: no negative-index wrap-around checks
    p1 = np.int64(shoe[at])
    b1 = np.int64(shoe[at + np.uint64(1)])
    p2 = np.int64(shoe[at + np.uint64(2)])
    b2 = np.int64(shoe[at + np.uint64(3)])
    p5 = np.int64(shoe[at + np.uint64(4)])
    b6 = np.int64(shoe[at + np.uint64(5)])
    e = np.int64(table[np.uint64(((_add10(value[p1], value[p2]) * 10
                                   + _add10(value[b1], value[b2])) * 10 + value[p5]) * 10
                                 + value[b6])])
    pt = e & 15
    bt = (e >> 4) & 15
    p_drew = (e >> 8) & 1
    b_drew = (e >> 9) & 1
    winner = e >> 10
    b3 = b6 + (1 - p_drew) * (p5 - b6)
    # a suited hand: every card of one suit (a card not dealt cannot differ)
    p_suited = 1 - (_differ(p1, p2) | (p_drew & _differ(p1, p5)))
    b_suited = 1 - (_differ(b1, b2) | (b_drew & _differ(b1, b3)))
    p9 = (pt + 7) >> 4  # 1 for a total of nine
    b9 = (bt + 7) >> 4
    p_nine = p9 + (p9 & p_suited)
    b_nine = b9 + (b9 & b_suited)
    award = (p_nine >> 1) + (b_nine >> 1)
    # a suited two-card A-8 is a suited nine: a pair of them first reads as award 2
    if award == 2 and _ace_eight(p1, p2, p_drew - 1) and _ace_eight(b1, b2, b_drew - 1):
        award = 4 if (p1 & 3) == (b1 & 3) else 3
    cell = ((winner * 3 + p_nine) * 3 + b_nine) * N_AWARDS + award
    return cell, 4 + p_drew + b_drew, p_drew, b_drew, p1, p2, p5, b1, b2, b3, pt, bt


@njit(cache=True, nogil=True)
def deal_shoe(shoe: Any, cut_index: int, after_cut: int, burn_first: bool, burn_after: Any,
              value: Any, table: Any, max_coups: int, counts: Any, records: Any,
              record: bool) -> int:
    """Deal one shuffled shoe and tally its coups; returns how many coups were dealt.

    Burn (expose the first card, burn `burn_after[first]` more), then coups until the cut
    card has come out (the position reaches `cut_index` by the end of a coup), then
    `after_cut` more, or `max_coups` in all. With `record`, row n of `records` gets the n-th
    coup's cards.
    """
    size = shoe.shape[0]
    pos = 1 + burn_after[shoe[0]] if burn_first else 0
    left_after_cut = after_cut if pos >= cut_index else -1
    n = 0
    while n < max_coups and left_after_cut != 0 and pos + MAX_COUP_CARDS <= size:
        cell, used, p_drew, b_drew, p1, p2, p3, b1, b2, b3, pt, bt = _coup(shoe, pos, value,
                                                                            table)
        counts[np.uint64(cell)] += 1
        if record:
            row = records[n]
            row[0] = p1
            row[1] = p2
            row[2] = p3 if p_drew else -1
            row[3] = b1
            row[4] = b2
            row[5] = b3 if b_drew else -1
            row[6] = pt
            row[7] = bt
        pos += used
        n += 1
        if left_after_cut > 0:
            left_after_cut -= 1
        elif pos >= cut_index:
            left_after_cut = after_cut
    return n


@njit(cache=True, nogil=True)
def simulate(base_shoe: Any, n_coups: int, state: Any, cut_index: int, after_cut: int,
             burn_first: bool, burn_after: Any, value: Any, natural: Any, pdraw: Any,
             bdraw: Any) -> tuple[Any, int]:
    """Deal `n_coups` coups from freshly shuffled shoes; returns (class counts, shoes used).

    The last shoe is left part-dealt once `n_coups` is reached.
    """
    shoe = base_shoe.astype(np.uint8)  # card codes 0-51: bytes, never negative indices
    table = coup_table(natural, pdraw, bdraw)
    counts = np.zeros(N_CLASSES, dtype=np.int64)
    records = np.zeros((1, RECORD_WIDTH), dtype=np.int64)
    done = 0
    shoes = 0
    while done < n_coups:
        shuffle(shoe, state)
        shoes += 1
        done += deal_shoe(shoe, cut_index, after_cut, burn_first, burn_after, value, table,
                          n_coups - done, counts, records, False)
    return counts, shoes


@njit(cache=True, nogil=True)
def deal_orders(orders: Any, cut_index: int, after_cut: int, burn_first: bool,
                burn_after: Any, value: Any, natural: Any, pdraw: Any,
                bdraw: Any) -> tuple[Any, Any, Any]:
    """Deal each given shoe order (rows of card codes) exactly as `simulate` deals a shuffled
    shoe; returns (coup records, the shoe index of each record, class counts)."""
    n_shoes, size = orders.shape
    per_shoe = size // 4 + 1
    records = np.full((n_shoes * per_shoe, RECORD_WIDTH), -1, dtype=np.int64)
    owner = np.zeros(n_shoes * per_shoe, dtype=np.int64)
    counts = np.zeros(N_CLASSES, dtype=np.int64)
    table = coup_table(natural, pdraw, bdraw)
    total = 0
    for s in range(n_shoes):
        n = deal_shoe(orders[s], cut_index, after_cut, burn_first, burn_after, value, table,
                      per_shoe, counts, records[total:], True)
        owner[total:total + n] = s
        total += n
    return records[:total], owner[:total], counts
