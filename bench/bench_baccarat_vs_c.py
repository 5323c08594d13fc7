"""Benchmark: the numba baccarat kernel against a plain C simulator doing the same work.

    .venv/bin/python bench/bench_baccarat_vs_c.py [--coups N] [--rounds R] [--cpu C] [--cc CC]

Compiles bench/baccarat_sim.c with the machine's C compiler (`cc -O2`), hands it the kernel's
own tables (shoe, burn, card values, naturals, tableau) and PRNG state, and times C and the
kernel alternately, R rounds each, pinned to one core (`taskset -c C`, default 1), for the same
number of coups from the same seed. Both must produce identical class counts (same xoshiro256**
stream, same shuffle, same deal): that is the check that they do the same work. Reports the
median and the range of both rates, per CPU-second (the fair figure on a shared machine: time
spent waiting for the core is not counted) and per wall-clock second.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from cardroom.analysis import baccarat_kernel as kernel
from cardroom.analysis.baccarat_sim import KernelTables, kernel_tables
from cardroom.analysis.parallel import Chunk
from cardroom.games.baccarat.rules import BaccaratRules

SOURCE = Path(__file__).with_name("baccarat_sim.c")


def tables_text(t: KernelTables) -> str:
    """The tables in the order baccarat_sim.c reads them."""
    parts = [len(t.base_shoe), t.cut_index, t.after_cut, int(t.burn_first), *t.base_shoe,
             *t.burn_after, *t.value, *t.natural.astype(int), *t.player_draws.astype(int),
             *t.banker_draws.astype(int).ravel()]
    return " ".join(str(int(x)) for x in parts)


def compile_c(cc: str, folder: Path) -> Path:
    exe = folder / "baccarat_sim"
    subprocess.run([cc, "-O2", "-o", str(exe), str(SOURCE)], check=True)
    return exe


Rates = tuple[float, float]
"""(coups per CPU-second, coups per wall-clock second)."""


def run_c(exe: Path, coups: int, state: np.ndarray, tables: str) -> tuple[Rates, np.ndarray]:
    out = subprocess.run([str(exe), str(coups), *(str(int(w)) for w in state)],
                         input=tables, capture_output=True, text=True, check=True).stdout
    head, counts = out.splitlines()
    done, _, wall, cpu = head.split()
    rates = (int(done) / float(cpu), int(done) / float(wall))
    return rates, np.array([int(x) for x in counts.split()])


def run_kernel(tables: KernelTables, coups: int, state: np.ndarray) -> tuple[Rates, np.ndarray]:
    start, cpu = time.perf_counter(), time.process_time()
    counts, _ = kernel.simulate(tables.base_shoe, coups, state.copy(), *tables.args())
    rates = (coups / (time.process_time() - cpu), coups / (time.perf_counter() - start))
    return rates, counts


def summary(rates: list[Rates], which: int) -> str:
    values = [r[which] / 1e6 for r in rates]
    return f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=50_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpu", type=int, default=1, help="the core both run on")
    parser.add_argument("--cc", default="cc", help="C compiler")
    parser.add_argument("--pinned", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.pinned and shutil.which("taskset"):  # re-run the whole benchmark on one core
        cmd = ["taskset", "-c", str(args.cpu), sys.executable, __file__, *sys.argv[1:],
               "--pinned"]
        raise SystemExit(subprocess.run(cmd, check=False).returncode)
    version = subprocess.run([args.cc, "--version"], capture_output=True, text=True,
                             check=True).stdout.splitlines()[0]
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; Python {platform.python_version()}; "
          f"{args.cc}: {version}; pinned to core(s) {sorted(os.sched_getaffinity(0))}")
    tables = kernel_tables(BaccaratRules())
    text = tables_text(tables)
    state = Chunk(0, args.coups, 12345).generator_state()
    run_kernel(tables, 1000, state)  # compile / load the numba cache
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_c(args.cc, Path(tmp))
        c_rates: list[Rates] = []
        k_rates: list[Rates] = []
        for r in range(args.rounds):
            c_rate, c_counts = run_c(exe, args.coups, state, text)
            k_rate, k_counts = run_kernel(tables, args.coups, state)
            if not np.array_equal(c_counts, k_counts):
                raise SystemExit("error: C and the kernel tallied different coups")
            c_rates.append(c_rate)
            k_rates.append(k_rate)
            print(f"round {r + 1}: C {c_rate[0] / 1e6:.1f} M coups per CPU-second "
                  f"({c_rate[1] / 1e6:.1f} M/s wall), kernel {k_rate[0] / 1e6:.1f} M "
                  f"({k_rate[1] / 1e6:.1f} M/s wall); identical tallies")
    c_med = statistics.median(r[0] for r in c_rates)
    k_med = statistics.median(r[0] for r in k_rates)
    print(f"median (range) of {args.rounds} x {args.coups:,} coups, M coups per CPU-second: "
          f"C {summary(c_rates, 0)}, kernel {summary(k_rates, 0)}; per wall-clock second: "
          f"C {summary(c_rates, 1)}, kernel {summary(k_rates, 1)}; kernel/C (CPU) = "
          f"{k_med / c_med:.2f} - {'meets' if k_med >= c_med else 'MISSES'} the target; "
          f"load average now {os.getloadavg()[0]:.1f}")
    tally = c_counts.reshape(kernel.COUNT_SHAPE)
    print("tallies (both): " + ", ".join(
        f"{w} {int(tally[i].sum()):,}" for i, w in enumerate(kernel.WINNERS))
        + f"; Super-9 awards {[int(tally[..., a].sum()) for a in range(kernel.N_AWARDS)]}")


if __name__ == "__main__":
    main()
