"""Build the numba kernels whose compilation takes minutes (Pan's compiled hand,
`games/pan/kernel.py`: about 90 s of CPU) into numba's on-disk cache, so that the test
suite's workers load them (a second or two) instead of each compiling them again.
`scripts/check` runs it beside the lint and type checks, which leave a core free."""

from __future__ import annotations

import time

from cardroom.analysis.pan_sim import simulate


def main() -> None:
    start = time.perf_counter()
    simulate(2, 8, seed=0)  # every seat a sound bot: the compiled path, compiled once
    print(f"numba kernels ready in {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
