# mypy: disable-error-code="no-any-return"
"""A house way compiled from its data into a parameter vector that a numba kernel runs.

The kernel mirrors `houseway.set_hand` rule for rule (same classes, same front requests, same
tie-break: best back, then the first setting in `FRONT_PAIRS` order) and the tests hold the two
to each other exactly on the rule fixtures and on random hands.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cardroom.games.pai_gow.houseway import CLASSES, Action, HouseWay
from cardroom.games.pai_gow.kernels import (
    JOKER_CODE,
    RANK_OF,
    SUIT_OF,
    count_rank,
    eval2_codes,
    eval5_codes,
    top_bit_rank,
)
from cardroom.games.pai_gow.settings import FRONT_PAIRS

# parameter vector layout
_PCLASS = 0          # [0..15): pair-class index of ranks 2..13
_TWO_PAIR = 16       # [16..80): action of (class lo, class hi), 8 x 8
_TP_ACES = 80
_THREE_ACES = 81     # 0 trips-back, 1 pair-back-ace-front
_FH = 82             # kind, then the three ranks at 83..85
_Q_PAIR = 86         # 0 pair-front, 1 use-rank-rule
_Q_TRIPS = 87
_QUAD = 88           # [88..103): action per quad rank (index 88 + rank)
_FIVE = 103
_STRAIGHTS = 104     # 0 never, 1 max-front
_APPLY = 105         # [105..113): straights apply to class i
_JOKER_ACE_HIGH = 113
SIZE = 114

_KINDS = {"split": 0, "together": 1, "split-unless-single": 2, "split-unless-front": 2,
          "split-unless-pair": 3}

FRONT_I = np.array([p[0] for p in FRONT_PAIRS], dtype=np.int64)
FRONT_J = np.array([p[1] for p in FRONT_PAIRS], dtype=np.int64)
BACK = np.array([[k for k in range(7) if k not in p] for p in FRONT_PAIRS], dtype=np.int64)


def _code(action: Action) -> int:
    return _KINDS[action.kind] * 16 + (action.ranks[0] if action.ranks else 0)


def compile_house_way(way: HouseWay) -> npt.NDArray[np.int64]:
    """The house way as the integer vector the kernel reads."""
    if len(way.class_order) > 8:
        raise ValueError("the compiled kernel supports at most 8 pair classes")
    p = np.zeros(SIZE, dtype=np.int64)
    index = {c: i for i, c in enumerate(way.class_order)}
    for r in range(2, 14):
        p[_PCLASS + r] = index[way.pair_class[r]]
    for combo, act in way.two_pair.items():
        if combo == "aces":
            p[_TP_ACES] = _code(act)
        else:
            lo_name, hi_name = _split_combo(combo, way.class_order)
            p[_TWO_PAIR + 8 * index[lo_name] + index[hi_name]] = _code(act)
    p[_THREE_ACES] = int(way.rules["three-aces"].kind == "pair-back-ace-front")
    fh = way.rules["full-house"]
    p[_FH] = _KINDS[fh.kind]
    for k, r in enumerate(fh.ranks):
        p[_FH + 1 + k] = r
    p[_Q_PAIR] = int(way.rules["four-of-a-kind-with-pair"].kind == "use-rank-rule")
    p[_Q_TRIPS] = int(way.rules["four-of-a-kind-with-trips"].kind == "use-rank-rule")
    for r in range(2, 15):
        p[_QUAD + r - 2] = _code(way.four_of_a_kind[r])
    p[_FIVE] = _code(way.rules["five-aces"])
    p[_STRAIGHTS] = int(way.rules["straights"].kind == "max-front")
    for i, c in enumerate(CLASSES):
        p[_APPLY + i] = int(c in way.straights_apply_to)
    p[_JOKER_ACE_HIGH] = int(way.rules["joker-ace-high-straight"].kind == "pair-of-aces")
    return p


def _split_combo(combo: str, order: tuple[str, ...]) -> tuple[str, str]:
    for a in order:
        for b in order:
            if f"{a}-{b}" == combo:
                return a, b
    raise ValueError(combo)


@njit(cache=True, inline="always")
def _prank(c: int) -> int:
    return 14 if c == JOKER_CODE else RANK_OF[c]


@njit(cache=True)
def _straight_or_flush_possible(h: npt.NDArray[np.int64]) -> bool:
    mask = 0
    joker = 0
    s0 = 0
    s1 = 0
    s2 = 0
    s3 = 0
    for k in range(7):
        c = h[k]
        if c == JOKER_CODE:
            joker = 1
            continue
        mask |= 1 << (RANK_OF[c] - 2)
        s = SUIT_OF[c]
        if s == 0:
            s0 += 1
        elif s == 1:
            s1 += 1
        elif s == 2:
            s2 += 1
        else:
            s3 += 1
    if max(max(s0, s1), max(s2, s3)) + joker >= 5:
        return True
    low = (mask << 1) | (mask >> 12 & 1)  # bit 0: the ace as one
    for start in range(10):
        w = (low >> start) & 31
        n = 0
        while w:
            n += w & 1
            w >>= 1
        if n + joker >= 5:
            return True
    return False


@njit(cache=True)
def house_way_index(h: npt.NDArray[np.int64], p: npt.NDArray[np.int64], wheel: int) -> int:
    """Index (FRONT_PAIRS order) of the house way's setting of seven card codes."""
    m1 = 0
    m2 = 0
    m3 = 0
    m4 = 0
    m5 = 0
    joker = 0
    for k in range(7):
        c = h[k]
        if c == JOKER_CODE:
            joker = 1
        b = 1 << (_prank(c) - 2)
        if m4 & b:
            m5 |= b
        else:
            m1, m2, m3, m4 = count_rank(b, m1, m2, m3, m4)
    singles = m1 & ~m2
    pairs = m2 & ~m3
    trips = m3 & ~m4
    quads = m4 & ~m5
    s0 = top_bit_rank(singles)
    s1 = top_bit_rank(singles & ~(1 << (s0 - 2))) if s0 else 0
    s2 = top_bit_rank(singles & ~(1 << (s0 - 2)) & ~(1 << (s1 - 2))) if s1 else 0
    npairs = 0
    t = pairs
    while t:
        npairs += t & 1
        t >>= 1
    ntrips = 0
    t = trips
    while t:
        ntrips += t & 1
        t >>= 1
    if m5:
        cls = 7
    elif quads:
        cls = 6
    elif trips and (pairs or ntrips == 2):
        cls = 5
    elif npairs == 3:
        cls = 3
    elif npairs == 2:
        cls = 2
    elif trips:
        cls = 4
    elif pairs:
        cls = 1
    else:
        cls = 0
    # straights, flushes and straight flushes: the best front over such backs
    if p[_STRAIGHTS] == 1 and p[_APPLY + cls] == 1 and _straight_or_flush_possible(h):
        joker_rule = (p[_JOKER_ACE_HIGH] == 1 and cls == 1 and (pairs >> 12) & 1 == 1
                      and joker == 1)
        best = -1
        best_f = -1
        best_b = -1
        for i in range(21):
            b0 = h[BACK[i, 0]]
            b1 = h[BACK[i, 1]]
            b2 = h[BACK[i, 2]]
            b3 = h[BACK[i, 3]]
            b4 = h[BACK[i, 4]]
            bs = eval5_codes(b0, b1, b2, b3, b4, wheel)
            cat = bs >> 20
            if cat != 4 and cat != 5 and cat != 8:
                continue
            if joker_rule and cat != 5 and (bs >> 15) & 31 == 28 and (
                    b0 == JOKER_CODE or b1 == JOKER_CODE or b2 == JOKER_CODE
                    or b3 == JOKER_CODE or b4 == JOKER_CODE):
                continue
            fs = eval2_codes(h[FRONT_I[i]], h[FRONT_J[i]])
            if fs > best_f or (fs == best_f and bs > best_b):
                best = i
                best_f = fs
                best_b = bs
        if best >= 0:
            return best
    # the front each class's rule asks for
    f1 = s0
    f2 = s1
    if cls == 0:
        f1 = s1
        f2 = s2
    elif cls == 2:
        hi = top_bit_rank(pairs)
        lo = top_bit_rank(pairs & ~(1 << (hi - 2)))
        tp_slot = _TWO_PAIR + 8 * p[_PCLASS + lo] + p[_PCLASS + hi]
        act = p[_TP_ACES] if hi == 14 else p[tp_slot]
        kind = act >> 4
        if not (kind == 1 or (kind == 2 and s0 >= (act & 15))):
            f1 = lo
            f2 = lo
    elif cls == 3:
        f1 = top_bit_rank(pairs)
        f2 = f1
    elif cls == 4:
        if trips >> 12 & 1 and p[_THREE_ACES] == 1:
            f1 = 14
            f2 = s0
    elif cls == 5:
        if ntrips == 2:
            f1 = top_bit_rank(trips)
            f2 = f1
        elif npairs == 2:
            f1 = top_bit_rank(pairs)
            f2 = f1
        else:
            pr = top_bit_rank(pairs)
            kind = p[_FH]
            together = kind == 1 or (kind == 3 and pr == p[_FH + 1] and (
                (s0 == p[_FH + 2] and s1 == p[_FH + 3]) or (s0 == p[_FH + 3]
                                                            and s1 == p[_FH + 2])))
            if not together:
                f1 = pr
                f2 = pr
    elif cls == 6:
        quad = top_bit_rank(quads)
        rest_pair = top_bit_rank(pairs) if pairs else (top_bit_rank(trips) if trips else 0)
        done = False
        if rest_pair:
            use_rank = p[_Q_PAIR] if pairs else p[_Q_TRIPS]
            if use_rank == 0:
                f1 = rest_pair
                f2 = rest_pair
                done = True
        if not done:
            act = p[_QUAD + quad - 2]
            kind = act >> 4
            rest_max = rest_pair if rest_pair > s0 else s0
            together = kind == 1 or (kind == 2 and rest_max >= (act & 15)) or (
                kind == 3 and rest_pair == (act & 15))
            if together:
                if rest_pair:
                    f1 = rest_pair
                    f2 = rest_pair
            else:
                f1 = quad
                f2 = quad
    elif cls == 7:
        act = p[_FIVE]
        kind = act >> 4
        others = top_bit_rank(pairs) if pairs else 0
        together = kind == 1 or (kind == 3 and others == (act & 15))
        if together:
            if others:
                f1 = others
                f2 = others
        else:
            f1 = 14
            f2 = 14
    if f1 < f2:
        f1, f2 = f2, f1
    best = -1
    best_b = -1
    for i in range(21):
        a = _prank(h[FRONT_I[i]])
        b = _prank(h[FRONT_J[i]])
        if a < b:
            a, b = b, a
        if a != f1 or b != f2:
            continue
        bs = eval5_codes(h[BACK[i, 0]], h[BACK[i, 1]], h[BACK[i, 2]], h[BACK[i, 3]],
                         h[BACK[i, 4]], wheel)
        if bs > best_b:
            best = i
            best_b = bs
    return best


@njit(cache=True, inline="always")
def setting_scores(h: npt.NDArray[np.int64], i: int, wheel: int) -> tuple[int, int]:
    """(front score, back score) of setting `i` (FRONT_PAIRS order) of seven card codes."""
    front = eval2_codes(h[FRONT_I[i]], h[FRONT_J[i]])
    back = eval5_codes(h[BACK[i, 0]], h[BACK[i, 1]], h[BACK[i, 2]], h[BACK[i, 3]],
                       h[BACK[i, 4]], wheel)
    return front, back


@njit(cache=True, parallel=True)
def house_way_batch(hands: npt.NDArray[np.int64], p: npt.NDArray[np.int64],
                    wheel: int) -> npt.NDArray[np.int64]:
    """House-way setting index of each row of seven card codes."""
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in prange(n):
        out[i] = house_way_index(hands[i], p, wheel)
    return out
