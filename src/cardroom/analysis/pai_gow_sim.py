# mypy: disable-error-code="no-any-return"
"""Pai Gow Monte Carlo: the player (house way, or the fast optimal setter of
`pai_gow_optimal`) against the house dealer (house way), hands dealt from a freshly shuffled
53-card deck each time, with 95% intervals; in-process, local processes or a Dask cluster
through `cardroom.analysis.parallel` (same seed, same answer). With banking, the player banks
every other hand against the other players and the house dealer.

SIMULATION ONLY: the shuffle inside the kernel uses a seeded xoshiro256** stream
(`cardroom.analysis.xoshiro`), never used to deal a live game (live shuffles use
`cardroom.shoe` with the OS CSPRNG).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from cardroom.analysis.estimate import mean_half_width, proportion_half_width
from cardroom.analysis.pai_gow_optimal import (
    DealerTable,
    PackedTable,
    commission_weights,
    dealer_table,
    optimal_index,
)
from cardroom.analysis.parallel import (
    Chunk,
    SimulationError,
    check_count,
    check_seed,
    plan_chunks,
    run_chunks,
)
from cardroom.analysis.wager import Tally, frac
from cardroom.analysis.xoshiro import next_output
from cardroom.games.pai_gow.houseway import HouseWay
from cardroom.games.pai_gow.houseway_kernel import (
    compile_house_way,
    house_way_index,
    setting_scores,
)

MAX_HANDS = 10**12


@njit(cache=True)
def _below(s: npt.NDArray[np.uint64], n: int) -> int:
    """Uniform in [0, n) by rejection (no modulo bias)."""
    limit = (np.uint64(0xFFFFFFFFFFFFFFFF) // np.uint64(n)) * np.uint64(n)
    while True:
        x = next_output(s)
        if x < limit:
            return int(x % np.uint64(n))


STRATEGIES = ("house-way", "optimal")
MAX_OTHERS = 5  # six players at most: the simulated player and five others

# layout of the counts a chunk returns
_PLAYER = 0  # [win, push, loss] on hands the house banks
_PAIRED = 3  # 3 x 3: (strategy outcome, house-way outcome) of the same hand, optimal only
_BANK = 12  # [won, pushed, lost] per opponent on hands the player banks
_NET = 15  # histogram of the bank's net units per banked hand, -6..+6
_NET_SPAN = MAX_OTHERS + 1
SIZE = _NET + 2 * _NET_SPAN + 1


@njit(cache=True)
def simulate_hands(n: int, state: npt.NDArray[np.uint64], p_player: npt.NDArray[np.int64],
                   p_dealer: npt.NDArray[np.int64], wheel: int, banking: int, strategy: int,
                   others: int, fvals: npt.NDArray[np.int64], bvals: npt.NDArray[np.int64],
                   below: npt.NDArray[np.int32], total: int, keep: int,
                   den: int) -> npt.NDArray[np.int64]:
    """Counts (layout above) of `n` hands, each from a fresh shuffle. `strategy` 1 sets the
    player's hand with the fast optimal setter (as banker: ties won), 0 the house way. With
    `banking` the player banks every other hand (the most the rules allow) against `others`
    house-way players and the house dealer, one unit each; copies go to the bank."""
    s = state.copy()
    deck = np.arange(53, dtype=np.int64)
    out = np.zeros(SIZE, dtype=np.int64)
    ph = np.empty(7, dtype=np.int64)
    oh = np.empty(7, dtype=np.int64)
    for hand in range(n):
        banked = banking != 0 and hand % 2 == 1
        dealt = 7 * (2 + others) if banked else 14
        for k in range(dealt):  # partial Fisher-Yates: the first cards of a uniform shuffle
            j = k + _below(s, 53 - k)
            deck[k], deck[j] = deck[j], deck[k]
        for k in range(7):
            ph[k] = deck[k]
        if strategy:
            i = optimal_index(ph, fvals, bvals, below, total, keep, den, wheel, int(banked))
        else:
            i = house_way_index(ph, p_player, wheel)
        pf, pb = setting_scores(ph, i, wheel)
        if banked:
            net = 0
            for o in range(1 + others):  # the house dealer, then the other players
                for k in range(7):
                    oh[k] = deck[7 * (1 + o) + k]
                of, ob = setting_scores(oh, house_way_index(oh, p_dealer, wheel), wheel)
                won = (pf >= of) + (pb >= ob)  # copies go to the player-banker
                out[_BANK + 2 - won] += 1
                net += won - 1
            out[_NET + _NET_SPAN + net] += 1
            continue
        for k in range(7):
            oh[k] = deck[7 + k]
        df, db = setting_scores(oh, house_way_index(oh, p_dealer, wheel), wheel)
        outcome = 2 - ((pf > df) + (pb > db))
        out[_PLAYER + outcome] += 1
        if strategy:
            hf, hb = setting_scores(ph, house_way_index(ph, p_player, wheel), wheel)
            out[_PAIRED + 3 * outcome + 2 - ((hf > df) + (hb > db))] += 1
    return out


@dataclass(frozen=True)
class SimJob:
    p_player: npt.NDArray[np.int64]
    p_dealer: npt.NDArray[np.int64]
    wheel: int
    banking: int = 0
    strategy: int = 0
    others: int = 0
    table: PackedTable | None = None  # compact: rebuilt once per worker process
    keep: int = 1
    den: int = 1


_DENSE: dict[str, DealerTable] = {}


def _dense(packed: PackedTable) -> DealerTable:
    key = packed.key()
    if key not in _DENSE:
        _DENSE.clear()
        _DENSE[key] = packed.unpack()
    return _DENSE[key]


_EMPTY = np.zeros(1, dtype=np.int64)
_EMPTY2 = np.zeros((1, 1), dtype=np.int32)


def run_chunk(job: SimJob, chunk: Chunk) -> npt.NDArray[np.int64]:
    t = None if job.table is None else _dense(job.table)
    return simulate_hands(chunk.size, chunk.generator_state(), job.p_player, job.p_dealer,
                          job.wheel, job.banking, job.strategy, job.others,
                          _EMPTY if t is None else t.fvals, _EMPTY if t is None else t.bvals,
                          _EMPTY2 if t is None else t.below, 0 if t is None else t.total,
                          job.keep, job.den)


def _merge(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return a + b


def _mean_ci(values: dict[float, int]) -> tuple[float, float]:
    """Mean of a discrete sample given as {value: count} and its 95% half-width."""
    return mean_half_width(sum(v * c for v, c in values.items()),
                           sum(v * v * c for v, c in values.items()), sum(values.values()))


@dataclass(frozen=True)
class SimReport:
    hands: int
    seed: int
    way: str
    commission: Fraction
    counts: tuple[int, ...]
    strategy: str = "house-way"
    others: int = 0

    @property
    def player(self) -> Tally:
        """The player's hands won, pushed and lost, on the hands the house banks."""
        return Tally(*self.counts[_PLAYER:_PLAYER + 3])

    @property
    def bank(self) -> Tally:
        """Opponent hands the player-banker beat, pushed and lost (all opponents of all banked
        hands)."""
        return Tally(*self.counts[_BANK:_BANK + 3])

    @property
    def banked(self) -> int:
        return sum(self.counts[_NET:_NET + 2 * _NET_SPAN + 1])

    def bank_net(self) -> dict[int, int]:
        """Banked hands by the bank's net units before commission (-6..+6)."""
        return {k - _NET_SPAN: c for k, c in enumerate(self.counts[_NET:SIZE]) if c}

    def rate(self, k: int) -> tuple[float, float]:
        """Observed rate among the hands the house banked, and its 95% half-width."""
        n = self.hands - self.banked
        return k / n, proportion_half_width(k, n)

    @property
    def _keep(self) -> float:
        return 1 - float(self.commission)

    def _player_values(self) -> dict[float, int]:
        p = self.player
        return {self._keep: p.win, 0.0: p.push, -1.0: p.loss}

    def _bank_values(self) -> dict[float, int]:
        """The bank's result per banked hand: commission on the net win."""
        values: dict[float, int] = {}
        for net, c in self.bank_net().items():
            v = net * self._keep if net > 0 else float(net)
            values[v] = values.get(v, 0) + c
        return values

    @property
    def house_edge(self) -> tuple[float, float]:
        """The player's loss per hand in units of the player's wager (the house edge per unit
        wagered when the player never banks), and its 95% half-width."""
        values = self._player_values()
        for v, c in self._bank_values().items():
            values[v] = values.get(v, 0) + c
        mean, half = _mean_ci(values)
        return -mean, half

    @property
    def player_edge(self) -> tuple[float, float]:
        """House edge per unit wagered on the hands the house banks."""
        mean, half = _mean_ci(self._player_values())
        return -mean, half

    @property
    def bank_result(self) -> tuple[float, float]:
        """The player-banker's mean result per banked hand (units, after commission)."""
        return _mean_ci(self._bank_values())

    @property
    def optimal_gain(self) -> tuple[float, float] | None:
        """Optimal minus house way, per unit, on the same hands the house banks (paired)."""
        if self.strategy == "house-way":
            return None
        value = (self._keep, 0.0, -1.0)
        diffs: dict[float, int] = {}
        for k in range(3):
            for m in range(3):
                d = value[k] - value[m]
                diffs[d] = diffs.get(d, 0) + self.counts[_PAIRED + 3 * k + m]
        return _mean_ci(diffs)

    @property
    def house_way_edge(self) -> tuple[float, float] | None:
        """The house way's edge on the same hands (from the paired counts)."""
        if self.strategy == "house-way":
            return None
        hw = [sum(self.counts[_PAIRED + 3 * k + m] for k in range(3)) for m in range(3)]
        mean, half = _mean_ci({self._keep: hw[0], 0.0: hw[1], -1.0: hw[2]})
        return -mean, half

    def house_way_report(self) -> SimReport:
        """The house-way player on the same hands, from the paired counts of an optimal run:
        the house-way run of the same seed, without dealing the hands again."""
        if self.strategy == "house-way" or self.banked:
            raise ValueError("only an optimal run without banking pairs every hand")
        counts = [0] * SIZE
        for m in range(3):
            counts[_PLAYER + m] = sum(self.counts[_PAIRED + 3 * k + m] for k in range(3))
        return SimReport(self.hands, self.seed, self.way, self.commission, tuple(counts))

    def to_json(self) -> dict[str, Any]:
        def ci(pair: tuple[float, float]) -> dict[str, Any]:
            return {"value": pair[0], "ci95": [pair[0] - pair[1], pair[0] + pair[1]]}

        data: dict[str, Any] = {
                "hands": self.hands, "seed": self.seed, "house_way": self.way,
                "player_strategy": self.strategy, "banked_hands": self.banked,
                "commission": frac(self.commission),
                "win": ci(self.rate(self.player.win)), "push": ci(self.rate(self.player.push)),
                "loss": ci(self.rate(self.player.loss)), "house_edge": ci(self.house_edge)}
        gain = self.optimal_gain
        hw = self.house_way_edge
        if gain is not None and hw is not None:
            data["house_way_edge_same_hands"] = ci(hw)
            data["optimal_gain_over_house_way"] = ci(gain)
        if self.banked:
            data["player_edge"] = ci(self.player_edge)
            bank = self.bank
            data["as_banker"] = {
                "other_players": self.others,
                "win": bank.win / bank.total, "push": bank.push / bank.total,
                "loss": bank.loss / bank.total, "result_per_banked_hand": ci(self.bank_result),
                "net_units": {str(k): c for k, c in sorted(self.bank_net().items())}}
        return data


def simulate(hands: int, seed: int, way: HouseWay, commission: Fraction,
             wheel_second: bool = False, workers: int = 1, scheduler: str | None = None,
             progress: bool = False, banking: bool = False, strategy: str = "house-way",
             others: int = 0, table: DealerTable | None = None) -> SimReport:
    """The player (`strategy`) against the dealer's house way. `banking`: the player banks
    every other hand against `others` house-way players and the house dealer, whose wager is
    the player's (unit) wager of the previous hand; commission on the bank's net win.
    `optimal` loads (or counts once and caches) the house way's full-deck table."""
    check_count(hands, "hands", 1, MAX_HANDS)
    check_seed(seed)
    if strategy not in STRATEGIES:
        raise SimulationError(f"--player-strategy {strategy!r}: choose one of "
                              f"{', '.join(STRATEGIES)}")
    check_count(others, "other-players", 0, MAX_OTHERS)
    if others and not banking:
        raise SimulationError("--other-players plays a part only with --banking (when the "
                              "house banks, the others' hands do not change the player's)")
    p = compile_house_way(way)
    keep, den = commission_weights(commission)
    if den > 2**31:
        raise SimulationError(f"commission {commission}: too fine a fraction")
    if strategy == "optimal" and table is None:
        table = dealer_table(way, wheel_second)
    job = SimJob(p, p, int(wheel_second), int(banking), STRATEGIES.index(strategy), others,
                 table.packed() if table is not None and strategy == "optimal" else None,
                 keep, den)
    counts = run_chunks(partial(run_chunk, job), plan_chunks(hands, seed), _merge,
                        workers=workers, scheduler=scheduler, progress=progress,
                        description="pai gow")
    return SimReport(hands, seed, way.name, commission, tuple(int(x) for x in counts),
                     strategy, others)
