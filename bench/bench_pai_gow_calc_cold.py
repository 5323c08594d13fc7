"""Benchmark: `cardroom pai-gow calc` from a cold start (a new process each time), after the
one-time outcome table is cached, and what the start-up costs.

    .venv/bin/python bench/bench_pai_gow_calc_cold.py [--runs N]

Runs, N times each, as new processes: the bare interpreter, `import numpy, numba`, the
modules a `pai-gow` command line imports (`cardroom.cli.commands("pai-gow")`), the first numba
kernel loaded from its cache, the whole command on each of three hands (`--json`), and on the
three in one command. Reports the best and the median wall and CPU time (user +
system of the child) and the load average, since the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from cardroom.analysis.pai_gow_outcomes import cached_outcome_table
from cardroom.games.pai_gow.houseway import DEFAULT_WAY, house_way

VENV_BIN = Path(sys.executable).parent
HANDS = ("Qs Qd 8c 8h 5s 3d 2c", "As Kd JK 9c 7h 5s 2d", "Ah Kh Qh Jh Th 3c 2d")
KERNEL_LOAD = ("from cardroom.games.pai_gow.kernels import eval2_codes; eval2_codes(0, 4)")


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of `cmd` in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if cached_outcome_table(house_way(DEFAULT_WAY)) is None:
        raise SystemExit("error: the outcome table is not cached yet: run `cardroom pai-gow "
                         "calc` on any hand once first (a one-time count)")
    py = sys.executable
    steps = {
        "interpreter": [py, "-c", "pass"],
        "import numpy, numba": [py, "-c", "import numpy, numba"],
        "the pai-gow command's modules": [py, "-c",
                                          "from cardroom.cli import commands; "
                                          "commands('pai-gow')"],
        "first compiled kernel from the cache": [py, "-c", KERNEL_LOAD],
    }
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    calc = [str(VENV_BIN / "cardroom"), "pai-gow", "calc"]
    for name, cmd in [*steps.items(),
                      *((f"cardroom pai-gow calc {h!r} --json", [*calc, h, "--json"])
                        for h in HANDS),
                      (f"cardroom pai-gow calc (the {len(HANDS)} hands in one command) --json",
                       [*calc, *HANDS, "--json"])]:
        timed(cmd)  # warm the page cache
        runs = [timed(cmd) for _ in range(args.runs)]
        walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
        print(f"{name}: wall best {min(walls):.2f} s, median {statistics.median(walls):.2f} s; "
              f"CPU best {min(cpus):.2f} s, median {statistics.median(cpus):.2f} s")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
