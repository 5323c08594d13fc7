"""Timing commands from a cold start, for the start-up benches (`bench_cli_start.py`,
`bench_pai_gow_calc_cold.py`): each a new process, wall and CPU time (user + system of the
child), and the load average, since on a shared machine the wall time measures the
neighbours and the CPU time the command."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import time


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of `cmd` in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def report(steps: dict[str, list[str]], runs: int) -> None:
    """Run each step `runs` times (after one run to warm the page cache) and print its median
    and best wall and CPU time, between the load averages at the start and the end."""
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    for name, cmd in steps.items():
        timed(cmd)
        times = [timed(cmd) for _ in range(runs)]
        walls, cpus = [t[0] for t in times], [t[1] for t in times]
        print(f"{name}: wall median {statistics.median(walls):.2f} s, best {min(walls):.2f} s; "
              f"CPU median {statistics.median(cpus):.2f} s, best {min(cpus):.2f} s")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
