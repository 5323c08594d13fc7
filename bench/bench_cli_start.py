"""Benchmark: the start-up of the `cardroom` command (issue 24, "Start-up": `cardroom --help`
under 0.3 s wall on a quiet two-core machine).

    .venv/bin/python bench/bench_cli_start.py [--runs N]

Runs, N times each, as new processes: the bare interpreter, `import typer, rich` (the command
line's own libraries), `cardroom --help`, `cardroom analyze --help` and `cardroom report
--help` (listed from `cli.catalog`, no command module imported), `cardroom pai-gow set HAND`
(one game's module), and `cardroom report games` on SQLite books made before (a command that
opens the books: they are at the newest revision, so nothing is migrated). Reports the median
and best wall and CPU time (user + system of the child, `RUSAGE_CHILDREN`) and the load
average: on a shared machine the wall time measures the neighbours, the CPU time the command."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from cold_start import report

CARDROOM = str(Path(sys.executable).parent / "cardroom")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    py = sys.executable
    steps = {
        "interpreter": [py, "-c", "pass"],
        "import typer, rich": [py, "-c", "import typer, rich.console"],
        "cardroom --help": [CARDROOM, "--help"],
        "cardroom analyze --help": [CARDROOM, "analyze", "--help"],
        "cardroom report --help": [CARDROOM, "report", "--help"],
        "cardroom pai-gow set HAND --json": [CARDROOM, "pai-gow", "set",
                                             "As Kd JK 9c 7h 5s 2d", "--json"],
    }
    with tempfile.TemporaryDirectory() as folder:
        report_games = [CARDROOM, "report", "games", "--database", str(Path(folder) / "books.db")]
        subprocess.run(report_games, check=True, capture_output=True)  # makes the books
        steps["cardroom report games (books made)"] = report_games
        report(steps, args.runs)


if __name__ == "__main__":
    main()
