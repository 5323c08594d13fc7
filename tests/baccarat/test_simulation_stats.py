"""From class counts to house edges with 95% intervals; seeds, chunks and workers.

Issue 2, "Simulation": per wager the observed return with a 95% confidence interval and the
exact value beside it; `--workers` and `--scheduler` run the same job.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from cardroom.analysis import baccarat_kernel as kernel
from cardroom.analysis.baccarat import analyze
from cardroom.analysis.baccarat_sim import class_values, estimates, simulate
from cardroom.analysis.estimate import Z95
from cardroom.analysis.parallel import (
    Chunk,
    SimulationError,
    default_chunk_size,
    plan_chunks,
    run_chunks,
)
from cardroom.errors import CardroomError
from cardroom.games.baccarat.rules import BaccaratRules

RULES = BaccaratRules()


def _counts(entries: dict[tuple[int, int, int, int], int]) -> np.ndarray:
    out = np.zeros(kernel.COUNT_SHAPE, dtype=np.int64)
    for key, n in entries.items():
        out[key] = n
    return out.reshape(-1)


def test_exact_edges_lie_inside_the_95_percent_intervals() -> None:
    """2,000,000 coups from real 8-deck shoes (seed 8): every wager's exact edge from
    `analyze` lies inside the simulated 95% interval, and the intervals are as narrow as
    sqrt(variance / n) says (Player: sd about 0.95 per coup)."""
    report = simulate(RULES, 2_000_000, seed=8, exact=True)
    exact = analyze(RULES)
    assert [w.name for w in report.wagers] == ["player", "banker", "tie", "player_9",
                                               "banker_9", "progressive"]
    for w in report.wagers:
        assert w.exact == exact.wager(w.name).house_edge
        assert w.exact_within_ci, (w.name, float(w.house_edge), w.ci_low, w.ci_high)
    player = report.wager("player")
    assert player.std_error == pytest.approx(0.95 / math.sqrt(2_000_000), rel=0.02)
    assert player.ci_high - player.ci_low == pytest.approx(2 * Z95 * player.std_error)


def test_same_seed_same_counts_in_process_or_on_a_dask_cluster() -> None:
    """The chunking depends on the hands alone: this process and a Dask cluster give identical
    counts for the same seed (two local processes: see test_simulation_cli); another seed, or
    another chunking, differs."""
    from distributed import LocalCluster

    one = simulate(RULES, 150_000, seed=77, chunk_size=30_000)
    with LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                      dashboard_address=None) as cluster:
        dask = simulate(RULES, 150_000, seed=77, chunk_size=30_000,
                        scheduler=cluster.scheduler_address)
    assert np.array_equal(one.counts, dask.counts)
    assert one.shoes == dask.shoes
    assert [w.house_edge for w in one.wagers] == [w.house_edge for w in dask.wagers]
    for other in (simulate(RULES, 150_000, seed=78, chunk_size=30_000),
                  simulate(RULES, 150_000, seed=77, chunk_size=75_000)):
        assert not np.array_equal(one.counts, other.counts)


def test_chunks_depend_on_the_total_and_seed_only() -> None:
    chunks = plan_chunks(1_000_001, seed=5)
    assert sum(c.size for c in chunks) == 1_000_001
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert all(c.size == default_chunk_size(1_000_001) for c in chunks[:-1])
    states = {tuple(c.generator_state().tolist()) for c in chunks}
    assert len(states) == len(chunks), "every chunk has its own random stream"
    assert plan_chunks(1_000_001, seed=5) == chunks


def test_edges_from_counts_worked_by_hand() -> None:
    """Ten coups: player wins 6, banker 3, one tie (no nines, no award).
    Player: mean +0.3, so edge -0.3; values 1,-1,0 give E[x^2] = 0.9, sample variance
    (9 - 10 * 0.09) / 9 = 0.9, standard error sqrt(0.9 / 10) = 0.3.
    Banker: 3 x 0.95 - 6 = -3.15 over 10: edge 0.315. Tie: 8 - 9 = -1 over 10: edge 0.1."""
    counts = _counts({(0, 0, 0, 0): 6, (1, 0, 0, 0): 3, (2, 0, 0, 0): 1})
    by_name = {e.name: e for e in estimates(counts, RULES)}
    assert by_name["player"].house_edge == Fraction(-3, 10)
    assert by_name["player"].std_error == pytest.approx(0.3)
    assert by_name["banker"].house_edge == Fraction(315, 1000)
    assert by_name["tie"].house_edge == Fraction(1, 10)
    assert by_name["player_9"].house_edge == 1
    assert by_name["player_9"].std_error == 0


def test_progressive_edge_counts_the_seed_on_a_jackpot() -> None:
    """super-9-baccarat.wsgc.txt PROGRESSIVE JACKPOT: awards are "for 1" (the $1 is always
    taken); the house edge is 1 - contribution - E[fixed award + seed on a jackpot].
    1,000 coups with one jackpot ($2,500 seed), one 250-for-1, one 125-for-1, two 10-for-1:
    E[X] = (2500 + 250 + 125 + 20) / 1000 = 2.895, edge = 1 - 0.2 - 2.895 = -2.095."""
    counts = _counts({(2, 2, 2, 4): 1, (2, 2, 2, 3): 1, (2, 2, 2, 2): 1, (0, 2, 0, 1): 2,
                      (1, 0, 0, 0): 995})
    prog = next(e for e in estimates(counts, RULES) if e.name == "progressive")
    assert prog.house_edge == Fraction(-2095, 1000)
    values = class_values(BaccaratRules(jackpot_seed_cents=1_000_000))["progressive"]
    assert values[(2, 2, 2, 4)] == 10_000
    assert values[(2, 2, 2, 3)] == 250
    assert values[(0, 2, 0, 1)] == 10


def test_nine_wagers_follow_the_pay_table() -> None:
    """Pay table 3: Player-9 suited pays 12 to 1, unsuited 5 to 1 (super-9-baccarat.wsgc.txt)."""
    values = class_values(BaccaratRules(paytable=3))
    assert values["player_9"][(0, 2, 0, 1)] == 12
    assert values["player_9"][(0, 1, 0, 0)] == 5
    assert values["player_9"][(1, 0, 2, 1)] == -1
    assert values["banker"][(1, 0, 0, 0)] == Fraction(19, 20)
    assert "progressive" not in class_values(BaccaratRules(decks=6, jackpot=False))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hands": -5}, "--hands must be at least 2"),
    ({"hands": 1}, "--hands must be at least 2"),
    ({"hands": 100, "workers": 0}, "--workers must be at least 1"),
    ({"hands": 100, "seed": -1}, "--seed must be at least 0"),
    ({"hands": 100, "scheduler": " "}, "--scheduler needs an address"),
])
def test_bad_arguments_are_clear_errors(kwargs: dict[str, object], message: str) -> None:
    args = {"seed": 1} | kwargs
    with pytest.raises(SimulationError, match=message):
        simulate(RULES, **args)  # type: ignore[arg-type]
    assert issubclass(SimulationError, CardroomError)


def _square(chunk: Chunk) -> int:
    return chunk.size * chunk.size


def test_runner_merges_in_chunk_order_with_a_progress_bar() -> None:
    chunks = plan_chunks(10, seed=0, chunk_size=3)
    assert [c.size for c in chunks] == [3, 3, 3, 1]
    assert run_chunks(_square, chunks, lambda a, b: a * 100 + b, progress=True) == 9090901
