"""Benchmark: `cardroom pai-gow calc` from a cold start (a new process each time), after the
one-time outcome table is cached, and what the start-up costs.

    .venv/bin/python bench/bench_pai_gow_calc_cold.py [--runs N]

Runs, N times each, as new processes: the bare interpreter, `import numpy, numba`, the
modules a `pai-gow` command line imports (`cardroom.cli.pai_gow`: `cli.catalog`), the first numba
kernel loaded from its cache, the whole command on each of three hands (`--json`), and on the
three in one command. Reports the best and the median wall and CPU time (user +
system of the child) and the load average, since the machine is shared.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cold_start import report

from cardroom.analysis.pai_gow_outcomes import cached_outcome_table
from cardroom.games.pai_gow.houseway import DEFAULT_WAY, house_way

VENV_BIN = Path(sys.executable).parent
HANDS = ("Qs Qd 8c 8h 5s 3d 2c", "As Kd JK 9c 7h 5s 2d", "Ah Kh Qh Jh Th 3c 2d")
KERNEL_LOAD = ("from cardroom.games.pai_gow.kernels import eval2_codes; eval2_codes(0, 4)")


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
        "the pai-gow command's modules": [py, "-c", "import cardroom.cli.pai_gow"],
        "first compiled kernel from the cache": [py, "-c", KERNEL_LOAD],
    }
    calc = [str(VENV_BIN / "cardroom"), "pai-gow", "calc"]
    steps |= {f"cardroom pai-gow calc {h!r} --json": [*calc, h, "--json"] for h in HANDS}
    steps[f"cardroom pai-gow calc (the {len(HANDS)} hands in one command) --json"] = [
        *calc, *HANDS, "--json"]
    report(steps, args.runs)


if __name__ == "__main__":
    main()
