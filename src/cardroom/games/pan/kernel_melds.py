# mypy: disable-error-code="no-any-return"
"""Pan's meld rules and the search for a card's uses, compiled (numba) for the hand kernel
(`kernel.py`): cards as small integers (`cards.card_key`, 4 * rank + suit), a meld as its
keys in card order (which is `melds.sort_meld`'s order for both kinds), and the rules'
tables as arrays built from the engine's own data (`tables`), never retyped here.

Each function mirrors the one named in its docstring, clause for clause and in the same
order, because the sound bot breaks ties by the order the engine lists a card's uses; the
tests hold the two to each other on random hands and spreads. The borrowings from a set
iterate a Python `set` of cards in the engine (`uses._from_set`), so its order is
reproduced too (`set_order`, CPython 3.11's set table, with the cards' own hashes).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cardroom.cards import Suit

from .cards import ANY_SUIT_SET_RANKS, ORDER, VALLE_RANKS, key_card
from .melds import Condition, ConditionKind, condition_units
from .rules import PanRules

SET, SEQ = 0, 1
LAY, MELD, BORROW = 0, 1, 2
# a use as a row of integers: kind, meld, the borrowed cards (count, then up to 11), the
# hand cards (count, then up to 12): ("lay_off", mi), ("meld", h) and ("borrow", mi, b, h)
U_KIND, U_MELD, U_NB, U_B = 0, 1, 2, 3
U_NH = 14
U_H = 15
U_WIDTH = 27
KEYS = 56
"""Card keys run 0 (the joker) to 4 * 13 + 3."""
SPADES = int(Suit.SPADES)
A23 = list(ConditionKind).index(ConditionKind.SEQUENCE_A23)
JQK = list(ConditionKind).index(ConditionKind.SEQUENCE_JQK)
VALLE_ONE = list(ConditionKind).index(ConditionKind.VALLE_ONE_SUIT)
VALLE_MIXED = list(ConditionKind).index(ConditionKind.VALLE_MIXED)
OTHER_ONE = list(ConditionKind).index(ConditionKind.NON_VALLE_ONE_SUIT)


def tables(rules: PanRules) -> tuple[Any, ...]:
    """The rules' data as the kernel reads it, built from the engine's: each key's Pan order
    (-1 for ranks Pan does not use), valle and any-suit-set flags, the card's Python hash
    (for `set_order`), and each condition's units and addition units (by `ConditionKind`
    order, plain and spades) under `rules` (`melds.condition_units`)."""
    order = np.full(KEYS, -1, np.int64)
    valle = np.zeros(KEYS, np.int64)
    anyset = np.zeros(KEYS, np.int64)
    hashes = np.zeros(KEYS, np.int64)
    for k in range(4, KEYS):
        card = key_card(k)
        order[k] = ORDER.get(card.rank, -1)
        valle[k] = card.rank in VALLE_RANKS
        anyset[k] = card.rank in ANY_SUIT_SET_RANKS
        hashes[k] = hash(card)
    units = np.zeros((len(ConditionKind), 2), np.int64)
    adds = np.zeros((len(ConditionKind), 2), np.int64)
    for i, kind in enumerate(ConditionKind):
        for spades in (0, 1):
            units[i, spades] = condition_units(Condition(kind, bool(spades)), rules)
            adds[i, spades] = condition_units(Condition(kind, bool(spades)), rules, addition=True)
    return order, valle, anyset, hashes, units, adds


@njit(cache=True)
def set_order(keys: Any, n: int, hashes: Any, out: Any) -> int:
    """The distinct cards of `keys[:n]` in the order CPython 3.11 iterates `set(cards)`
    (setobject.c: `set_add_entry`, linear probes then perturbation, the table resized to
    four times its entries when it is three fifths full). Their count."""
    size = 8
    tk = np.full(64, -1, np.int64)
    th = np.zeros(64, np.uint64)
    fill = 0
    for idx in range(n):
        key = keys[idx]
        h = np.uint64(hashes[key])
        mask = np.uint64(size - 1)
        i = h & mask
        perturb = h
        found = np.int64(-1)
        while found < 0:
            probes = 9 if i + np.uint64(9) <= mask else 0
            j = i
            while True:
                if tk[j] < 0:
                    found = np.int64(j)
                    break
                if th[j] == h and tk[j] == key:
                    found = np.int64(-2)
                    break
                if probes == 0:
                    break
                probes -= 1
                j += np.uint64(1)
            if found != -1:
                break
            perturb >>= np.uint64(5)
            i = (i * np.uint64(5) + np.uint64(1) + perturb) & mask
        if found == -2:
            continue
        tk[found] = key
        th[found] = h
        fill += 1
        if fill * 5 >= (size - 1) * 3:
            new = 8
            while new <= fill * 4:
                new <<= 1
            ok = tk[:size].copy()
            oh = th[:size].copy()
            tk[:] = -1
            th[:] = 0
            nmask = np.uint64(new - 1)
            for e in range(size):
                if ok[e] < 0:
                    continue
                hh = oh[e]
                pert = hh
                i2 = hh & nmask
                while True:
                    if tk[i2] < 0:
                        break
                    placed = False
                    if i2 + np.uint64(9) <= nmask:
                        for _ in range(9):
                            i2 += np.uint64(1)
                            if tk[i2] < 0:
                                placed = True
                                break
                    if placed:
                        break
                    pert >>= np.uint64(5)
                    i2 = (i2 * np.uint64(5) + np.uint64(1) + pert) & nmask
                tk[i2] = ok[e]
                th[i2] = hh
            size = new
    m = 0
    for e in range(size):
        if tk[e] >= 0:
            out[m] = tk[e]
            m += 1
    return m


@njit(cache=True)
def _three_of_one_rank(c: Any, n: int) -> bool:
    """`melds._three_of_one_rank`."""
    if n < 3:
        return False
    for i in range(1, n):  # noqa: SIM110 (a loop: numba compiles no generator into all())
        if c[i] >> 2 != c[0] >> 2:
            return False
    return True


@njit(cache=True)
def is_new_set(c: Any, n: int, anyset: Any) -> bool:
    """`melds.is_new_set`."""
    if not _three_of_one_rank(c, n):
        return False
    if anyset[c[0]]:
        return True
    seen = 0
    distinct = 0
    for i in range(n):
        b = 1 << (c[i] & 3)
        if not seen & b:
            seen |= b
            distinct += 1
    return distinct == 1 or distinct == n


@njit(cache=True)
def is_board_set(c: Any, n: int, anyset: Any) -> bool:
    """`melds.is_board_set` (set additions not strict)."""
    if not _three_of_one_rank(c, n):
        return False
    if n == 3:
        return is_new_set(c, n, anyset)
    if anyset[c[0]]:
        return True
    counts = np.zeros(4, np.int64)
    for i in range(n):
        counts[c[i] & 3] += 1
    distinct = 0
    for s in range(4):
        if counts[s] >= 3:
            return True
        if counts[s]:
            distinct += 1
    return distinct >= 3


@njit(cache=True)
def is_sequence(c: Any, n: int, order: Any) -> bool:
    """`melds.is_sequence`: the keys sorted, so one suit in rising Pan order."""
    if n < 3:
        return False
    s = c[0] & 3
    seen = np.zeros(10, np.int64)
    lo, hi = 99, -1
    for i in range(n):
        o = order[c[i]]
        if c[i] & 3 != s or o < 0 or seen[o]:
            return False
        seen[o] = 1
        lo, hi = min(lo, o), max(hi, o)
    return hi - lo == n - 1  # n distinct orders from lo to hi: consecutive


@njit(cache=True)
def meld_kind(c: Any, n: int, order: Any, anyset: Any) -> int:
    """`melds.meld_kind`: SET, SEQ or -1."""
    if is_new_set(c, n, anyset):
        return SET
    if is_sequence(c, n, order):
        return SEQ
    return -1


@njit(cache=True)
def valid_on_board(c: Any, n: int, kind: int, order: Any, anyset: Any) -> bool:
    """`melds.is_valid_on_board`."""
    return is_board_set(c, n, anyset) if kind == SET else is_sequence(c, n, order)


@njit(cache=True)
def triple_ok(a: int, b: int, c: int, order: Any, anyset: Any) -> bool:
    """`melds.triple_ok`."""
    if a >> 2 == b >> 2 and b >> 2 == c >> 2:
        if anyset[a]:
            return True
        sa, sb, sc = a & 3, b & 3, c & 3
        if sa == sb and sb == sc:
            return True
        return sa != sb and sa != sc and sb != sc
    if not (a & 3 == b & 3 and b & 3 == c & 3):
        return False
    oa, ob, oc = order[a], order[b], order[c]
    if oa < 0 or ob < 0 or oc < 0:
        return False
    lo = min(oa, ob, oc)
    da, db, dc = oa - lo, ob - lo, oc - lo
    return da != db and da != dc and db != dc and max(da, db, dc) == 2


@njit(cache=True)
def fits(c: Any, n: int, kind: int, card: int, order: Any) -> bool:
    """`melds.fits` (set additions not strict)."""
    if kind == SET:
        return card >> 2 == c[0] >> 2
    if card & 3 != c[0] & 3 or order[card] < 0:
        return False
    o = order[card]
    return o == order[c[0]] - 1 or o == order[c[n - 1]] + 1


@njit(cache=True)
def sort_keys(c: Any, n: int) -> None:
    """Insertion sort of `c[:n]`: a meld in card order (`melds.sort_meld`)."""
    for i in range(1, n):
        x = c[i]
        j = i - 1
        while j >= 0 and c[j] > x:
            c[j + 1] = c[j]
            j -= 1
        c[j + 1] = x


@njit(cache=True)
def meld_conditions(c: Any, n: int, kind: int, valle: Any, out: Any) -> int:
    """`melds._conditions`: the conditions a meld carries as it lies, as (kind by
    `ConditionKind` order, spades) rows of `out`; their count (a set one at most, a
    sequence A-2-3 and/or J-Q-K)."""
    if kind == SEQ:
        has = np.zeros(14, np.int64)
        for i in range(n):
            has[c[i] >> 2] = 1
        spades = 1 if (c[0] & 3) == SPADES else 0
        m = 0
        for kind_, a, b, d in ((A23, 1, 2, 3), (JQK, 11, 12, 13)):
            if has[a] and has[b] and has[d]:
                out[m, 0], out[m, 1] = kind_, spades
                m += 1
        return m
    counts = np.zeros(4, np.int64)
    for i in range(n):
        counts[c[i] & 3] += 1
    one = False
    distinct = 0
    for s in range(4):
        if counts[s] >= 3:
            one = True
        if counts[s]:
            distinct += 1
    if one:
        out[0, 0] = VALLE_ONE if valle[c[0]] else OTHER_ONE
        out[0, 1] = 1 if counts[SPADES] >= 3 else 0
        return 1
    if valle[c[0]] and distinct >= 3:
        out[0, 0], out[0, 1] = VALLE_MIXED, 0
        return 1
    return 0


@njit(cache=True)
def meld_value(c: Any, n: int, kind: int, valle: Any, units: Any, adds: Any) -> int:
    """`melds.meld_value`: each condition's units, and the best addition rate for every
    card beyond three."""
    conds = np.empty((2, 2), np.int64)
    m = meld_conditions(c, n, kind, valle, conds)
    if m == 0:
        return 0
    total, add = 0, 0
    for i in range(m):
        total += units[conds[i, 0], conds[i, 1]]
        add = max(add, adds[conds[i, 0], conds[i, 1]])
    return total + add * (n - 3)


@njit(cache=True)
def _put(out: Any, m: int, kind: int, mi: int, nb: int, b0: int, b1: int, nh: int,
         h0: int, h1: int) -> int:
    if m >= out.shape[0]:
        return m + 1  # counted, not kept: the caller sees its buffer was too small
    out[m, U_KIND] = kind
    out[m, U_MELD] = mi
    out[m, U_NB] = nb
    out[m, U_B] = b0
    out[m, U_B + 1] = b1
    out[m, U_NH] = nh
    out[m, U_H] = h0
    out[m, U_H + 1] = h1
    return m + 1


@njit(cache=True)
def card_uses(card: int, hand: Any, nh: int, mc: Any, ml: Any, mk: Any, nm: int,
              tabs: Any, out: Any, m: int) -> int:
    """`uses.card_uses`: every way to meld `card` with `hand[:nh]` and the melds
    (`mc[i, :ml[i]]` of kind `mk[i]`, i < nm), appended to `out` from row `m` in the
    engine's order. The rows now filled (more than `out` holds: it was too small)."""
    order, anyset, hashes = tabs[0], tabs[2], tabs[3]
    for mi in range(nm):
        if fits(mc[mi], ml[mi], mk[mi], card, order):
            m = _put(out, m, LAY, mi, 0, 0, 0, 0, 0, 0)
    rank, suit, o = card >> 2, card & 3, order[card]
    near = np.empty(nh + 1, np.int64)
    nn = 0
    for i in range(nh):
        x = hand[i]
        if x >> 2 == rank or (x & 3 == suit and -2 <= order[x] - o <= 2):
            near[nn] = x
            nn += 1
    for a in range(nn - 1):
        for b in range(a + 1, nn):
            if triple_ok(card, near[a], near[b], order, anyset):
                m = _put(out, m, MELD, 0, 0, 0, 0, 2, near[a], near[b])
    near_set = np.empty(nn + 1, np.int64)
    ns = -1
    for mi in range(nm):
        if ml[mi] < 4:
            continue
        if ns < 0:
            ns = set_order(near, nn, hashes, near_set)
        if mk[mi] == SET:
            m = _from_set(mi, card, mc[mi], ml[mi], near, nn, near_set, ns, tabs, out, m)
        else:
            m = _from_sequence(mi, card, mc[mi], ml[mi], near_set, ns, hand, nh, tabs, out, m)
    return m


@njit(cache=True)
def _less_one(c: Any, n: int, x: int, rest: Any) -> int:
    """`c[:n]` less the first copy of `x` into `rest`; its length (n when absent)."""
    k = 0
    gone = False
    for i in range(n):
        if not gone and c[i] == x:
            gone = True
            continue
        if k < rest.shape[0]:
            rest[k] = c[i]
        k += 1
    return k


@njit(cache=True)
def _from_set(mi: int, card: int, cards: Any, n: int, near: Any, nn: int, near_set: Any,
              ns: int, tabs: Any, out: Any, m: int) -> int:
    """`uses._from_set`."""
    order, anyset, hashes = tabs[0], tabs[2], tabs[3]
    o = order[card]
    same_rank = card >> 2 == cards[0] >> 2
    if not same_rank:
        if abs(order[cards[0]] - o) > 2:
            return m
        ok = False
        for i in range(nn):
            if near[i] & 3 == card & 3 and near[i] >> 2 != card >> 2:
                ok = True
        if not ok:
            return m
    uniq = np.empty(n, np.int64)
    nu = set_order(cards, n, hashes, uniq)
    distinct = np.empty(n, np.int64)
    nd = 0
    for i in range(nu):
        if same_rank or uniq[i] & 3 == card & 3:
            distinct[nd] = uniq[i]
            nd += 1
    rest = np.empty(n, np.int64)
    rest2 = np.empty(n, np.int64)
    for i in range(nd):
        b = distinct[i]
        nr = _less_one(cards, n, b, rest)
        if not is_board_set(rest, nr, anyset):
            continue
        for j in range(ns):
            if triple_ok(card, b, near_set[j], order, anyset):
                m = _put(out, m, BORROW, mi, 1, b, 0, 1, near_set[j], 0)
        if not same_rank:
            continue
        for i2 in range(i, nd):
            b2 = distinct[i2]
            held = False
            for r in range(nr):
                if rest[r] == b2:
                    held = True
            if held and triple_ok(card, b, b2, order, anyset):
                nr2 = _less_one(rest, nr, b2, rest2)
                if is_board_set(rest2, nr2, anyset):
                    m = _put(out, m, BORROW, mi, 2, b, b2, 0, 0, 0)
    return m


@njit(cache=True)
def _from_sequence(mi: int, card: int, cards: Any, n: int, near_set: Any, ns: int,
                   hand: Any, nh: int, tabs: Any, out: Any, m: int) -> int:
    """`uses._from_sequence`."""
    order, anyset = tabs[0], tabs[2]
    for end in range(2):
        b = cards[0] if end == 0 else cards[n - 1]
        if b >> 2 == card >> 2:
            for j in range(ns):
                if triple_ok(card, b, near_set[j], order, anyset):
                    m = _put(out, m, BORROW, mi, 1, b, 0, 1, near_set[j], 0)
    if card & 3 != cards[0] & 3:
        return m
    o = order[card]
    suited = np.full(10, -1, np.int64)
    for i in range(nh):
        if hand[i] & 3 == card & 3:
            suited[order[hand[i]]] = hand[i]
    fill = np.empty(12, np.int64)
    for k in range(1, n - 2):
        for side in range(2):
            start = 0 if side == 0 else n - k
            lo, hi = order[cards[start]], order[cards[start + k - 1]]
            if lo <= o <= hi:
                continue
            g0, g1 = (o + 1, lo) if o < lo else (hi + 1, o)
            nf = 0
            ok = True
            for r in range(g0, g1):
                if suited[r] < 0:
                    ok = False
                    break
                fill[nf] = suited[r]
                nf += 1
            if not ok:
                continue
            if k + 1 + nf < 3:
                e = -1
                for r in (min(o, lo) - 1, max(o, hi) + 1):
                    if 0 <= r < 10 and suited[r] >= 0:
                        e = r
                        break
                if e < 0:
                    continue
                fill[nf] = suited[e]
                nf += 1
            if m >= out.shape[0]:
                m += 1
                continue
            out[m, U_KIND] = BORROW
            out[m, U_MELD] = mi
            out[m, U_NB] = k
            for t in range(k):
                out[m, U_B + t] = cards[start + t]
            out[m, U_NH] = nf
            for t in range(nf):
                out[m, U_H + t] = fill[t]
            m += 1
    return m
