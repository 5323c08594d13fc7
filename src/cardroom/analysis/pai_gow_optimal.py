# mypy: disable-error-code="no-any-return"
"""A fast EV-maximising Pai Gow setter for simulation.

`optimal` here means: **EV-maximising against the house way's full-deck distribution**. The
joint distribution of the dealer's (front score, back score) when the dealer sets the house way
is counted once over all C(53,7) = 154,143,080 seven-card hands of the 53-card deck (the
existing compiled house-way and evaluation kernels), and turned into 2-D cumulative counts.
Each of a hand's 21 settings then needs four lookups for its counts of dealer hands it beats
on both hands (win) and loses to on both (loss); copies go to the banker; the EV per unit is
``win x (1 - commission) - loss`` over C(53,7). It ignores the removal of the player's own seven
cards (the exact optimum over the 53,524,680 dealer hands of the other 46 cards is
`pai_gow_calc.calculate`, under a second a hand); the benchmark measures how often the two agree
and the EV lost.

The table is cached on disk (`platformdirs.user_cache_dir("cardroom")`, or
``$CARDROOM_CACHE_DIR``) keyed by the compiled house way and the wheel rule; the first use of a
house way counts the 154 million hands (about a minute on two cores).
"""

from __future__ import annotations

import hashlib
import os
import zlib
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from math import comb
from pathlib import Path

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cardroom.analysis.parallel import progress_bar
from cardroom.cards import Card
from cardroom.games.pai_gow.houseway import HouseWay
from cardroom.games.pai_gow.houseway_kernel import (
    compile_house_way,
    house_way_index,
    setting_scores,
)
from cardroom.games.pai_gow.kernels import eval2_codes, eval5_codes
from cardroom.games.pai_gow.settings import all_settings, validate_seven

ALL_HANDS = comb(53, 7)
FIVE_CARD_HANDS = comb(53, 5)
FORMAT = 1  # bump when the cached table's meaning changes
PROGRESS_STEPS = 24
"""Batches of the count, so its progress bar moves (heavy tasks first in each)."""


# ----------------------------------------------------------------------------- score values
def front_values() -> npt.NDArray[np.int64]:
    """Every two-card score the 53-card deck can make, sorted."""
    return np.unique(np.array([eval2_codes(a, b) for a, b in combinations(range(53), 2)],
                              dtype=np.int64))


def back_values(wheel: int) -> npt.NDArray[np.int64]:
    """Every five-card score the 53-card deck can make under the wheel rule, sorted."""
    return np.unique(_all_five_card_scores(wheel))


@njit(cache=True)
def _all_five_card_scores(wheel: int) -> npt.NDArray[np.int64]:
    out = np.empty(FIVE_CARD_HANDS, dtype=np.int64)
    k = 0
    for a in range(53):
        for b in range(a + 1, 53):
            for c in range(b + 1, 53):
                for d in range(c + 1, 53):
                    for e in range(d + 1, 53):
                        out[k] = eval5_codes(a, b, c, d, e, wheel)
                        k += 1
    return out


# ----------------------------------------------------------------------------- counting
@njit(cache=True, inline="always")
def dealer_cell(h: npt.NDArray[np.int64], p: npt.NDArray[np.int64], wheel: int,
                 fvals: npt.NDArray[np.int64],
                 bvals: npt.NDArray[np.int64]) -> tuple[int, int]:
    df, db = setting_scores(h, house_way_index(h, p, wheel), wheel)
    return int(np.searchsorted(fvals, df)), int(np.searchsorted(bvals, db))


@njit(cache=True, inline="always")
def first_hand(deck: npt.NDArray[np.int64], task: npt.NDArray[np.int64],
               h: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Deal into `h` the first hand of a `seven_card_tasks` task (its first two cards' indices
    into `deck`, then the next five); returns the hand's indices, for `next_hand`."""
    at = np.empty(7, dtype=np.int64)
    at[0] = task[0]
    for k in range(1, 7):
        at[k] = task[1] + k - 1
    for k in range(7):
        h[k] = deck[at[k]]
    return at


@njit(cache=True, inline="always")
def next_hand(deck: npt.NDArray[np.int64], at: npt.NDArray[np.int64],
              h: npt.NDArray[np.int64]) -> bool:
    """The task's next hand in lexicographic order (that of five nested loops over its last
    five cards): `at[2:]` advanced to the next combination, its changed cards dealt into `h`;
    False after the task's last hand."""
    n = deck.shape[0]
    i = 6
    while i >= 2 and at[i] == n - 7 + i:
        i -= 1
    if i < 2:
        return False
    x = at[i]
    while i < 7:
        x += 1
        at[i] = x
        h[i] = deck[x]
        i += 1
    return True


@njit(cache=True, parallel=True)
def _enumerate_joint(deck: npt.NDArray[np.int64], p: npt.NDArray[np.int64], wheel: int,
                     fvals: npt.NDArray[np.int64], bvals: npt.NDArray[np.int64],
                     tasks: npt.NDArray[np.int64], threads: int) -> npt.NDArray[np.int64]:
    """joint[f, b]: seven-card hands of `deck` the house way sets to front value f, back b
    (one accumulator per thread)."""
    per = np.zeros((threads, fvals.shape[0], bvals.shape[0]), dtype=np.int64)
    for t in prange(tasks.shape[0]):
        acc = per[numba.get_thread_id()]  # type: ignore[attr-defined]
        h = np.empty(7, dtype=np.int64)
        at = first_hand(deck, tasks[t], h)
        more = True
        while more:
            fi, bi = dealer_cell(h, p, wheel, fvals, bvals)
            acc[fi, bi] += 1
            more = next_hand(deck, at, h)
    return per.sum(axis=0)


@njit(cache=True)
def joint_from_hands(hands: npt.NDArray[np.int64], p: npt.NDArray[np.int64], wheel: int,
                     fvals: npt.NDArray[np.int64],
                     bvals: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The same counts over an explicit list of hands (tests, small samples)."""
    joint = np.zeros((fvals.shape[0], bvals.shape[0]), dtype=np.int64)
    for r in range(hands.shape[0]):
        fi, bi = dealer_cell(hands[r], p, wheel, fvals, bvals)
        joint[fi, bi] += 1
    return joint


@contextmanager
def one_task_at_a_time() -> Iterator[None]:
    """Within: a parallel kernel's threads take its tasks (of unequal weight) one at a time."""
    numba.set_parallel_chunksize(1)
    try:
        yield
    finally:
        numba.set_parallel_chunksize(0)


def seven_card_tasks(n: int) -> npt.NDArray[np.int64]:
    """The (first, second) card index pairs that begin the seven-card hands of `n` cards, the
    heaviest first: each is a task of a parallel enumeration."""
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n) if n - b - 1 >= 5]
    pairs.sort(key=lambda ab: -comb(n - ab[1] - 1, 5))  # heavy first, dealt out dynamically
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def enumerate_joint(deck: Sequence[int], p: npt.NDArray[np.int64], wheel: int,
                    fvals: npt.NDArray[np.int64], bvals: npt.NDArray[np.int64],
                    progress: bool = False) -> npt.NDArray[np.int64]:
    """House-way (front, back) counts over every seven-card hand of `deck` (card codes), in
    batches of tasks so that a progress bar (`progress`, on a terminal) can count the hands."""
    arr = np.array(sorted(deck), dtype=np.int64)
    n = len(arr)
    joint = np.zeros((fvals.shape[0], bvals.shape[0]), dtype=np.int64)
    with (one_task_at_a_time(),
          progress_bar(progress, comb(n, 7), "house-way table (once)") as advance):
        for batch in np.array_split(seven_card_tasks(n), PROGRESS_STEPS):
            joint += _enumerate_joint(arr, p, wheel, fvals, bvals, batch,
                                      numba.get_num_threads())
            advance(sum(comb(n - int(b) - 1, 5) for b in batch[:, 1]))
    return joint


# ----------------------------------------------------------------------------- the table
@dataclass(frozen=True)
class DealerTable:
    """The dealer's house-way (front, back) distribution as 2-D cumulative counts:
    ``below[i, j]`` = dealer hands whose front is below ``fvals[i]`` and back below
    ``bvals[j]`` (``i = len(fvals)`` / ``j = len(bvals)``: no bound), int32 (at most
    C(53,7) < 2**31)."""

    fvals: npt.NDArray[np.int64]
    bvals: npt.NDArray[np.int64]
    below: npt.NDArray[np.int32]
    total: int

    @classmethod
    def from_joint(cls, fvals: npt.NDArray[np.int64], bvals: npt.NDArray[np.int64],
                   joint: npt.NDArray[np.int64]) -> DealerTable:
        total = int(joint.sum())
        if total >= 2**31:
            raise ValueError("more dealer hands than int32 cumulative counts can hold")
        below = np.zeros((joint.shape[0] + 1, joint.shape[1] + 1), dtype=np.int32)
        below[1:, 1:] = joint.cumsum(axis=0).cumsum(axis=1)  # int32: half the cache misses
        return cls(fvals, bvals, below, total)

    @cached_property
    def _fronts(self) -> list[int]:
        return [int(v) for v in self.fvals]

    @cached_property
    def _backs(self) -> list[int]:
        return [int(v) for v in self.bvals]

    def joint(self) -> npt.NDArray[np.int64]:
        """The (front, back) counts back from the cumulative table."""
        wide = self.below.astype(np.int64)
        return np.asarray(np.diff(np.diff(wide, axis=0), axis=1), dtype=np.int64)

    def packed(self) -> PackedTable:
        """A compact, picklable form to send to worker processes (about 100 KB)."""
        joint = np.ascontiguousarray(self.joint(), dtype=np.int32)
        return PackedTable(self.fvals, self.bvals, zlib.compress(joint.tobytes()))

    def counts(self, front: int, back: int, banker: bool = False) -> tuple[int, int]:
        """(win, loss) dealer-hand counts of a setting scored (front, back). As player a hand
        must be strictly higher (copies to the banker); as banker (`banker`) a copy wins."""
        cut = bisect_right if banker else bisect_left
        i = cut(self._fronts, front)
        j = cut(self._backs, back)
        nf, nb = len(self.fvals), len(self.bvals)
        b = self.below
        win = int(b[i, j])
        loss = self.total - int(b[i, nb]) - int(b[nf, j]) + win
        return win, loss


@dataclass(frozen=True)
class PackedTable:
    """A `DealerTable`'s joint counts, int32 (every cell is at most C(53,7) < 2**31),
    zlib-compressed."""

    fvals: npt.NDArray[np.int64]
    bvals: npt.NDArray[np.int64]
    joint_zlib: bytes

    def key(self) -> str:
        return hashlib.sha256(self.joint_zlib).hexdigest()

    def unpack(self) -> DealerTable:
        flat = np.frombuffer(zlib.decompress(self.joint_zlib), dtype=np.int32)
        joint = flat.reshape(len(self.fvals), len(self.bvals)).astype(np.int64)
        return DealerTable.from_joint(self.fvals, self.bvals, joint)


def cache_dir() -> Path:
    env = os.environ.get("CARDROOM_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("cardroom"))


def house_way_key(p: npt.NDArray[np.int64], wheel: int, tag: str) -> str:
    """A cache file's key: the compiled house way, the wheel rule and the file's `tag`."""
    digest = hashlib.sha256(np.ascontiguousarray(p, dtype=np.int64).tobytes())
    digest.update(f"wheel={wheel};{tag}".encode())
    return digest.hexdigest()[:24]


def dealer_table(way: HouseWay, wheel_second: bool = False, directory: Path | None = None,
                 progress: bool = False) -> DealerTable:
    """The full-deck house-way table of `way`: from the cache; else read off the calculator's
    cached outcome table (`pai_gow_outcomes`, a second) if there is one; else counted (all
    C(53,7) hands, with a progress bar if asked); then cached. A damaged cache file is counted
    again."""
    p = compile_house_way(way)
    wheel = int(wheel_second)
    folder = directory or cache_dir()
    path = folder / f"pai-gow-dealer-{house_way_key(p, wheel, f'format={FORMAT}')}.npz"
    if path.exists():
        try:
            with np.load(path) as data:
                fvals, bvals, joint = data["fvals"], data["bvals"], data["joint"]
            if int(joint.sum()) == ALL_HANDS and joint.shape == (len(fvals), len(bvals)):
                return DealerTable.from_joint(fvals, bvals, joint.astype(np.int64))
        except (OSError, ValueError, KeyError):
            pass
    from cardroom.analysis.pai_gow_outcomes import cached_outcome_table  # it imports this

    outcomes = cached_outcome_table(way, wheel_second, directory)
    if outcomes is not None:  # the calculator's table holds every hand's cell: just count
        derived = outcomes.dealer_table(wheel_second)
        fvals, bvals, joint = derived.fvals, derived.bvals, derived.joint()
    else:
        fvals, bvals = front_values(), back_values(wheel)
        joint = enumerate_joint(range(53), p, wheel, fvals, bvals, progress)
    if int(joint.sum()) != ALL_HANDS:  # pragma: no cover - an enumeration bug
        raise AssertionError("dealer hands miscounted")
    try:  # a cache that cannot be written costs the next run another count, nothing more
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f"{path.stem}.{os.getpid()}.tmp.npz"
        np.savez_compressed(tmp, fvals=fvals, bvals=bvals, joint=joint.astype(np.int32))
        tmp.replace(path)
    except OSError:
        pass
    return DealerTable.from_joint(fvals, bvals, joint)


# ----------------------------------------------------------------------------- the setter
def commission_weights(commission: Fraction) -> tuple[int, int]:
    """(keep, den): EV x den x total = win x keep - loss x den, in integers."""
    return commission.denominator - commission.numerator, commission.denominator


def optimal_reference(cards: Sequence[Card], table: DealerTable, commission: Fraction,
                      wheel_second: bool = False, banker: bool = False) -> int:
    """Reference (clear Python, exact Fractions): the setting index maximising EV against
    the table; the first in `FRONT_PAIRS` order on ties; foul settings never chosen."""
    best, best_ev = -1, Fraction(0)
    for index, s in enumerate(all_settings(validate_seven(cards), wheel_second)):
        if s.is_foul:
            continue
        win, loss = table.counts(s.front_score, s.back_score, banker)
        ev = (win * (1 - commission) - loss) / table.total
        if best < 0 or ev > best_ev:
            best, best_ev = index, ev
    return best


@njit(cache=True, inline="always")
def _count_below(values: npt.NDArray[np.int64], x: int, or_equal: int) -> int:
    """Entries of sorted `values` below `x` (or at most `x`): a branch-free binary search."""
    base = 0
    n = values.shape[0]
    while n > 1:
        half = n >> 1
        v = values[base + half]
        base = base + half if (v < x or (or_equal and v == x)) else base
        n -= half
    v = values[base]
    return base + (1 if (v < x or (or_equal and v == x)) else 0)


@njit(cache=True)
def optimal_index(h: npt.NDArray[np.int64], fvals: npt.NDArray[np.int64],
                  bvals: npt.NDArray[np.int64], below: npt.NDArray[np.int32], total: int,
                  keep: int, den: int, wheel: int, banker: int) -> int:
    """Compiled setter: the same choice as `optimal_reference`, integer arithmetic."""
    nf = fvals.shape[0]
    nb = bvals.shape[0]
    best = -1
    best_v = np.int64(0)
    for s in range(21):
        pf, pb = setting_scores(h, s, wheel)
        if pb <= pf:
            continue
        i = _count_below(fvals, pf, banker)
        j = _count_below(bvals, pb, banker)
        win = np.int64(below[i, j])
        loss = total - np.int64(below[i, nb]) - np.int64(below[nf, j]) + win
        v = win * keep - loss * den
        if best < 0 or v > best_v:
            best = s
            best_v = v
    return best


@njit(cache=True)
def optimal_batch(hands: npt.NDArray[np.int64], fvals: npt.NDArray[np.int64],
                  bvals: npt.NDArray[np.int64], below: npt.NDArray[np.int32], total: int,
                  keep: int, den: int, wheel: int, banker: int) -> npt.NDArray[np.int64]:
    out = np.empty(hands.shape[0], dtype=np.int64)
    for r in range(hands.shape[0]):
        out[r] = optimal_index(hands[r], fvals, bvals, below, total, keep, den, wheel, banker)
    return out
