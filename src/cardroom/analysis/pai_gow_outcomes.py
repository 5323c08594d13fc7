# mypy: disable-error-code="no-any-return"
"""The dealer's house-way outcome of every seven-card Pai Gow hand, counted once and cached,
so that the exact calculator only tallies table lookups.

For every seven-card hand of a deck (all C(53,7) = 154,143,080 of the full deck) the table
holds the cell (front score, back score) the dealer's house way sets it to, as a small integer
id, addressed by the hand's colex rank ``C(a,1) + C(b,2) + ... + C(g,7)`` over the cards'
positions in the deck (ascending). The calculator then walks the C(46,7) dealer hands of the
other 46 cards, counting how many fall in each cell (one lookup a hand, smallest card innermost,
so the walk reads the table nearly in order), and compares each cell's scores with each
player setting: exactly the comparison the direct enumeration makes hand by hand.

The table is cached (`pai_gow_optimal.cache_dir()`: ``platformdirs.user_cache_dir("cardroom")``
or ``$CARDROOM_CACHE_DIR``) per compiled house way and wheel rule: the ids as a raw ``.npy``
(uint32, 617 MB for the full deck; read through a memory map) and a small ``.npz`` with the
cells' scores and the FORMAT it was written with; a table of another FORMAT, or one that does
not match its deck, is counted again.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext, suppress
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cardroom.analysis.pai_gow_counts import first_below, next_below, rank_above
from cardroom.analysis.pai_gow_optimal import (
    DealerTable,
    back_values,
    cache_dir,
    dealer_cell,
    front_values,
    house_way_key,
    one_task_at_a_time,
)
from cardroom.games.pai_gow.houseway import HouseWay
from cardroom.games.pai_gow.houseway_kernel import compile_house_way

FORMAT = 1  # bump when the cached table's meaning changes: older files are counted again
FULL_DECK = tuple(range(53))

Advance = Callable[[int], None]


def _binomials(n: int) -> npt.NDArray[np.int64]:
    return np.array([[comb(m, k) for k in range(8)] for m in range(n + 1)], dtype=np.int64)


@njit(cache=True, parallel=True)
def _keys_with_top(deck: npt.NDArray[np.int64], g: int, p: npt.NDArray[np.int64], wheel: int,
                   fvals: npt.NDArray[np.int64], bvals: npt.NDArray[np.int64],
                   b: npt.NDArray[np.int64], keys: npt.NDArray[np.uint32]) -> None:
    """keys[rank] = front index x len(bvals) + back index, for the hands whose highest
    position is g (ranks C(g,7) .. C(g+1,7) - 1)."""
    nb = bvals.shape[0]
    for f in prange(5, g):
        h = np.empty(7, dtype=np.int64)
        at = np.empty(7, dtype=np.int64)  # the positions in `deck` of h's cards
        at[6] = g
        below = at[:6]  # walked below the second highest position, f
        first_below(below, f)
        more = True
        while more:
            for k in range(1, 7):
                h[k] = deck[at[k]]
            base = rank_above(at, b, 1)
            for a in range(at[1]):
                h[0] = deck[a]
                fi, bi = dealer_cell(h, p, wheel, fvals, bvals)
                keys[base + a] = fi * nb + bi
            more = next_below(below)
    return None


@njit(cache=True)
def _used(keys: npt.NDArray[np.uint32], size: int) -> npt.NDArray[np.bool_]:
    used = np.zeros(size, dtype=np.bool_)
    for k in keys:
        used[k] = True
    return used


@njit(cache=True, parallel=True)
def _renumber(keys: npt.NDArray[np.uint32], ids: npt.NDArray[np.int64]) -> None:
    """In place, each key to its cell id (never larger than the key)."""
    for r in prange(keys.shape[0]):
        keys[r] = ids[keys[r]]
    return None


@njit(cache=True, parallel=True)
def _tally(cells: npt.NDArray[np.uint32], rest: npt.NDArray[np.int64],
           b: npt.NDArray[np.int64], tasks: npt.NDArray[np.int64], n_cells: int,
           threads: int) -> npt.NDArray[np.int64]:
    """counts[cell]: seven-card hands of the positions `rest` (ascending) in each cell
    (int32 per thread, half the cache lines: at most C(46,7) < 2**31 hands)."""
    per = np.zeros((threads, n_cells), dtype=np.int32)
    for t in prange(tasks.shape[0]):
        acc = per[numba.get_thread_id()]  # type: ignore[attr-defined]
        g = tasks[t, 0]
        f = tasks[t, 1]
        base6 = b[rest[g], 7] + b[rest[f], 6]
        for e in range(4, f):
            base5 = base6 + b[rest[e], 5]
            for d in range(3, e):
                base4 = base5 + b[rest[d], 4]
                for c in range(2, d):
                    base3 = base4 + b[rest[c], 3]
                    for bb in range(1, c):
                        base2 = base3 + b[rest[bb], 2]
                        for a in range(bb):
                            acc[cells[base2 + rest[a]]] += 1
    return per.sum(axis=0, dtype=np.int64)


def _top_pairs(n: int) -> npt.NDArray[np.int64]:
    """(highest, second highest) positions of the hands of n cards, heaviest first."""
    pairs = [(g, f) for g in range(6, n) for f in range(5, g)]
    pairs.sort(key=lambda gf: -comb(gf[1], 5))
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


@dataclass(frozen=True)
class OutcomeTable:
    """``cells[rank]``: the cell of the hand of colex rank `rank` over `deck`; cell k is the
    dealer's (``front[k]``, ``back[k]``) score."""

    deck: tuple[int, ...]
    cells: npt.NDArray[np.uint32]
    front: npt.NDArray[np.int64]
    back: npt.NDArray[np.int64]

    def tally(self, held: Sequence[int]) -> npt.NDArray[np.int64]:
        """Per cell, the dealer hands of the deck's other cards (not `held`) that fall in it."""
        where = {code: i for i, code in enumerate(self.deck)}
        if any(code not in where for code in held):
            raise ValueError("a held card is not in the table's deck")
        gone = {where[code] for code in held}
        rest = np.array([i for i in range(len(self.deck)) if i not in gone], dtype=np.int64)
        with one_task_at_a_time():
            return _tally(self.cells, rest, _binomials(len(self.deck)), _top_pairs(len(rest)),
                          len(self.front), numba.get_num_threads())


    def dealer_table(self, wheel_second: bool = False) -> DealerTable:
        """The optimal setter's table (`pai_gow_optimal.DealerTable`: the dealer's hands per
        (front, back) score) read off this table, one count per cell, instead of setting every
        hand the house way again; the table must be of the same wheel rule."""
        fvals, bvals = front_values(), back_values(int(wheel_second))
        joint = np.zeros((len(fvals), len(bvals)), dtype=np.int64)
        counts = np.bincount(self.cells, minlength=len(self.front))
        joint[np.searchsorted(fvals, self.front), np.searchsorted(bvals, self.back)] = counts
        return DealerTable.from_joint(fvals, bvals, joint)


def count_outcomes(deck: Sequence[int], p: npt.NDArray[np.int64], wheel: int,
                   advance: Advance | None = None) -> OutcomeTable:
    """Count the table: every seven-card hand of `deck` set the house way `p`; `advance` is
    called with the hands done after each highest card."""
    arr = np.array(sorted(deck), dtype=np.int64)
    n = len(arr)
    b = _binomials(n)
    fvals, bvals = front_values(), back_values(wheel)
    keys = np.empty(comb(n, 7), dtype=np.uint32)
    for g in range(6, n):
        _keys_with_top(arr, g, p, wheel, fvals, bvals, b, keys)
        if advance is not None:
            advance(comb(g, 6))
    used = _used(keys, len(fvals) * len(bvals))
    ids = np.cumsum(used, dtype=np.int64) - 1
    _renumber(keys, ids)
    where = np.flatnonzero(used)
    return OutcomeTable(tuple(int(c) for c in arr), keys, fvals[where // len(bvals)],
                        bvals[where % len(bvals)])


def _load(stem: Path, deck: tuple[int, ...]) -> OutcomeTable | None:
    try:
        with np.load(stem.with_suffix(".npz")) as meta:
            fmt, saved_deck = int(meta["format"]), tuple(int(c) for c in meta["deck"])
            front, back = meta["front"], meta["back"]
        cells = np.load(stem.with_suffix(".npy"), mmap_mode="r")
    except (OSError, ValueError, KeyError):
        return None
    if (fmt != FORMAT or saved_deck != deck or cells.dtype != np.uint32
            or cells.shape != (comb(len(deck), 7),) or len(front) != len(back)):
        return None
    return OutcomeTable(deck, np.asarray(cells), front, back)


def _save(stem: Path, table: OutcomeTable) -> None:
    """Write the ids, then the description that makes them valid (a crash in between leaves
    a table that is counted again)."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    tmp = stem.with_name(f"{stem.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as out:
        np.save(out, table.cells)
    tmp.replace(stem.with_suffix(".npy"))
    with open(tmp, "wb") as out:
        np.savez(out, format=FORMAT, deck=np.array(table.deck), front=table.front,
                 back=table.back)
    tmp.replace(stem.with_suffix(".npz"))


def _stem(p: npt.NDArray[np.int64], wheel: int, directory: Path | None,
          ordered: tuple[int, ...]) -> Path:
    suffix = "" if ordered == FULL_DECK else f"-{len(ordered)}-{zlib.crc32(bytes(ordered)):08x}"
    name = f"pai-gow-outcomes-{house_way_key(p, wheel, 'outcomes')}{suffix}"
    return (directory or cache_dir()) / name


def cached_outcome_table(way: HouseWay, wheel_second: bool = False,
                         directory: Path | None = None,
                         deck: Sequence[int] = FULL_DECK) -> OutcomeTable | None:
    """The table of `way` over `deck` if the cache holds it (mapped, nothing counted)."""
    ordered = tuple(sorted(deck))
    return _load(_stem(compile_house_way(way), int(wheel_second), directory, ordered), ordered)


def outcome_table(way: HouseWay, wheel_second: bool = False, directory: Path | None = None,
                  deck: Sequence[int] = FULL_DECK,
                  progress: Callable[[int], AbstractContextManager[Advance]] | None = None,
                  ) -> OutcomeTable:
    """The table of `way` over `deck` (default the full 53-card deck): from the cache, else
    counted and cached. `progress(total)` (a progress bar whose callback advances it by hands
    done) is entered only when counting."""
    p = compile_house_way(way)
    wheel = int(wheel_second)
    ordered = tuple(sorted(deck))
    stem = _stem(p, wheel, directory, ordered)
    cached = _load(stem, ordered)
    if cached is not None:
        return cached
    total = comb(len(ordered), 7)
    with progress(total) if progress is not None else nullcontext(None) as advance:
        table = count_outcomes(ordered, p, wheel, advance)
    with suppress(OSError):  # a cache that cannot be written costs the next run a count
        _save(stem, table)
    return table
