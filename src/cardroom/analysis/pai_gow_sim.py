# mypy: disable-error-code="no-any-return"
"""Pai Gow Monte Carlo: player (house way) against the house dealer (house way), hands dealt
from a freshly shuffled 53-card deck each time, with 95% intervals; in-process, local processes
or a Dask cluster through `cardroom.analysis.parallel` (same seed, same answer).

SIMULATION ONLY: the shuffle inside the kernel uses a seeded xoshiro256** stream, never used to
deal a live game (live shuffles use `cardroom.shoe` with the OS CSPRNG).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from cardroom.analysis.parallel import Chunk, check_count, check_seed, plan_chunks, run_chunks
from cardroom.games.pai_gow.houseway import HouseWay
from cardroom.games.pai_gow.houseway_kernel import (
    BACK,
    FRONT_I,
    FRONT_J,
    compile_house_way,
    house_way_index,
)
from cardroom.games.pai_gow.kernels import eval2_codes, eval5_codes

Z95 = 1.959963984540054
MAX_HANDS = 10**12


@njit(cache=True, inline="always")
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def _next(s: npt.NDArray[np.uint64]) -> np.uint64:
    """xoshiro256** (simulation only)."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(cache=True)
def _below(s: npt.NDArray[np.uint64], n: int) -> int:
    """Uniform in [0, n) by rejection (no modulo bias)."""
    limit = (np.uint64(0xFFFFFFFFFFFFFFFF) // np.uint64(n)) * np.uint64(n)
    while True:
        x = _next(s)
        if x < limit:
            return int(x % np.uint64(n))


@njit(cache=True)
def simulate_hands(n: int, state: npt.NDArray[np.uint64], p_player: npt.NDArray[np.int64],
                   p_dealer: npt.NDArray[np.int64], wheel: int,
                   banking: int) -> npt.NDArray[np.int64]:
    """[wins, pushes, losses] of `n` player hands, each from a fresh shuffle; with `banking`
    the player banks every other hand (the most the rules allow) and counts 3-5 hold those
    hands' [wins, pushes, losses] as banker against the house dealer."""
    s = state.copy()
    deck = np.arange(53, dtype=np.int64)
    out = np.zeros(6, dtype=np.int64)
    ph = np.empty(7, dtype=np.int64)
    dh = np.empty(7, dtype=np.int64)
    for hand in range(n):
        for k in range(14):  # partial Fisher-Yates: the first 14 cards of a uniform shuffle
            j = k + _below(s, 53 - k)
            deck[k], deck[j] = deck[j], deck[k]
        for k in range(7):
            ph[k] = deck[k]
            dh[k] = deck[7 + k]
        i = house_way_index(ph, p_player, wheel)
        d = house_way_index(dh, p_dealer, wheel)
        pf = eval2_codes(ph[FRONT_I[i]], ph[FRONT_J[i]])
        df = eval2_codes(dh[FRONT_I[d]], dh[FRONT_J[d]])
        pb = eval5_codes(ph[BACK[i, 0]], ph[BACK[i, 1]], ph[BACK[i, 2]], ph[BACK[i, 3]],
                         ph[BACK[i, 4]], wheel)
        db = eval5_codes(dh[BACK[d, 0]], dh[BACK[d, 1]], dh[BACK[d, 2]], dh[BACK[d, 3]],
                         dh[BACK[d, 4]], wheel)
        if banking and hand % 2 == 1:
            out[3 + (df > pf) + (db > pb)] += 1  # copies go to the player-banker
        else:
            out[2 - ((pf > df) + (pb > db))] += 1
    return out


@dataclass(frozen=True)
class SimJob:
    p_player: npt.NDArray[np.int64]
    p_dealer: npt.NDArray[np.int64]
    wheel: int
    banking: int = 0


def run_chunk(job: SimJob, chunk: Chunk) -> npt.NDArray[np.int64]:
    return simulate_hands(chunk.size, chunk.generator_state(), job.p_player, job.p_dealer,
                          job.wheel, job.banking)


def _merge(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return a + b


@dataclass(frozen=True)
class SimReport:
    hands: int
    seed: int
    way: str
    commission: Fraction
    win: int
    push: int
    loss: int
    bank_win: int = 0
    bank_push: int = 0
    bank_loss: int = 0

    @property
    def banked(self) -> int:
        return self.bank_win + self.bank_push + self.bank_loss

    def rate(self, k: int) -> tuple[float, float]:
        """Observed rate and its 95% half-width (normal approximation)."""
        n = self.hands - self.banked
        p = k / n
        return p, Z95 * math.sqrt(p * (1 - p) / n)

    @property
    def house_edge(self) -> tuple[float, float]:
        """Player's loss per unit wagered and its 95% half-width."""
        w = 1 - float(self.commission)
        n = self.hands
        wins = self.win + self.bank_win
        losses = self.loss + self.bank_loss
        mean = (wins * w - losses) / n
        second = (wins * w * w + losses) / n
        var = (second - mean * mean) * n / max(n - 1, 1)
        return -mean, Z95 * math.sqrt(var / n)

    def to_json(self) -> dict[str, Any]:
        def ci(pair: tuple[float, float]) -> dict[str, Any]:
            return {"value": pair[0], "ci95": [pair[0] - pair[1], pair[0] + pair[1]]}

        data: dict[str, Any] = {
                "hands": self.hands, "seed": self.seed, "house_way": self.way,
                "player_strategy": "house-way", "banked_hands": self.banked,
                "commission": f"{self.commission.numerator}/{self.commission.denominator}",
                "win": ci(self.rate(self.win)), "push": ci(self.rate(self.push)),
                "loss": ci(self.rate(self.loss)), "house_edge": ci(self.house_edge)}
        if self.banked:
            n = self.banked
            data["as_banker"] = {"win": self.bank_win / n, "push": self.bank_push / n,
                                 "loss": self.bank_loss / n}
        return data


def simulate(hands: int, seed: int, way: HouseWay, commission: Fraction,
             wheel_second: bool = False, workers: int = 1, scheduler: str | None = None,
             progress: bool = False, banking: bool = False) -> SimReport:
    """House way against house way; `banking`: the player banks every other hand, the house
    dealer playing against the bank with the player's (unit) wager, commission on the bank's
    net win."""
    check_count(hands, "hands", 1, MAX_HANDS)
    check_seed(seed)
    p = compile_house_way(way)
    job = SimJob(p, p, int(wheel_second), int(banking))
    counts = run_chunks(partial(run_chunk, job), plan_chunks(hands, seed), _merge,
                        workers=workers, scheduler=scheduler, progress=progress,
                        description="pai gow")
    c = [int(x) for x in counts]
    return SimReport(hands, seed, way.name, commission, *c)
