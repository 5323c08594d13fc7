# mypy: disable-error-code="no-any-return"
"""The pack between two compiled hands (`kernel.py`), compiled too: `table.pack_left` with the
house's full reshuffle, drawn from the same seeded `random.Random` (simulation only) as the
engine's path draws it, so the packs, and the hands, stay the engine's.

`random.Random` is CPython's Mersenne Twister (MT19937, `_randommodule.c`); `randrange(n)`
draws `getrandbits(n.bit_length())` until it is below n, and `getrandbits(k)` for k <= 32
is the next tempered word shifted right by 32 - k. `twister` reads the generator's state
out of Python and `give_back` puts it back, so a hand the engine plays (a fallback) draws
where the kernel stopped; the tests hold the draws equal to `fisher_yates` with `RngSource`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

N, M = 624, 397
MASK32 = 0xFFFFFFFF


def twister(rng: random.Random) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The generator's 624 words and its index (`random.Random.getstate`)."""
    _, words, _ = rng.getstate()
    return np.array(words[:N], np.int64), np.array([words[N]], np.int64)


def give_back(rng: random.Random, mt: npt.NDArray[np.int64],
              pos: npt.NDArray[np.int64]) -> None:
    """Put the kernel's state back into `rng` (`random.Random.setstate`)."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, (*(int(w) for w in mt), int(pos[0])), gauss))


@njit(cache=True)
def _word(mt: Any, pos: Any) -> int:
    """`genrand_uint32`: the next tempered word (the block regenerated every 624)."""
    if pos[0] >= N:
        for kk in range(N):
            y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % N] & 0x7FFFFFFF)
            mt[kk] = mt[(kk + M) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        pos[0] = 0
    y = mt[pos[0]]
    pos[0] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK32


@njit(cache=True)
def randbelow(n: int, mt: Any, pos: Any) -> int:
    """`random.Random.randrange(n)` (n >= 1, below 2**32)."""
    k = 0
    while (1 << k) <= n:
        k += 1
    r = _word(mt, pos) >> (32 - k)
    while r >= n:
        r = _word(mt, pos) >> (32 - k)
    return r


@njit(cache=True)
def shuffle(cards: Any, mt: Any, pos: Any) -> None:
    """`shoe.fisher_yates` in place."""
    for i in range(cards.shape[0] - 1, 0, -1):
        j = randbelow(i + 1, mt, pos)
        cards[i], cards[j] = cards[j], cards[i]


@njit(cache=True)
def pack_left(pack: Any, stock: Any, sl: int, mt: Any, pos: Any) -> Any:
    """`table.pack_left` with the full reshuffle: the stock top first, then the cards the
    hand used (each card's copies together, in the order its first copy lies in the pack),
    shuffled."""
    count = np.zeros(64, np.int64)
    first = np.full(64, -1, np.int64)
    for i in range(pack.shape[0]):
        count[pack[i]] += 1
        if first[pack[i]] < 0:
            first[pack[i]] = i
    for i in range(sl):
        count[stock[i]] -= 1
    out = np.empty(pack.shape[0], np.int64)
    for i in range(sl):
        out[i] = stock[sl - 1 - i]
    k = sl
    for i in range(pack.shape[0]):  # each key once, at its first copy
        key = pack[i]
        if first[key] == i:
            for _ in range(count[key]):
                out[k] = key
                k += 1
    shuffle(out, mt, pos)
    return out
