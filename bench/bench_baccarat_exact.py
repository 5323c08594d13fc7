"""Benchmark: exact `analyze baccarat` with every Super-9 wager (target: under 2 s, one core).

Run: .venv/bin/python bench/bench_baccarat_exact.py
Measures the whole analysis (enumeration with suits, every wager's distribution) in-process,
and the whole command as a user runs it (interpreter start-up included).
"""

from __future__ import annotations

import subprocess
import sys
import time

from cardroom.analysis.baccarat import analyze
from cardroom.games.baccarat.rules import BaccaratRules


def main() -> None:
    best = min(_timed(lambda: analyze(BaccaratRules())) for _ in range(3))
    print(f"analyze(8 decks, every wager), in-process: {best:.2f} s (best of 3)")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from cardroom.cli import main; main()", "analyze",
                    "baccarat", "--json"], check=True, capture_output=True)
    print(f"`cardroom analyze baccarat --json`, whole command: "
          f"{time.perf_counter() - start:.2f} s")


def _timed(fn: object) -> float:
    assert callable(fn)
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
