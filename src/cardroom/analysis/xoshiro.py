"""xoshiro256** (Blackman and Vigna, 2018), the one simulation-only generator of the compiled
Monte Carlo kernels (`baccarat_kernel.shuffle`, `pai_gow_sim`), written once.

`step` takes the four state words and returns the output and the new state, so a kernel can
keep the state in locals (registers) through a hot loop; `next_output` advances a state array
in place. Both are inlined by numba into their callers, so the stream and the speed are those
of the code written out by hand. Seeds come from `parallel.Chunk.generator_state` (a
`numpy.random.SeedSequence`).

SIMULATION ONLY: fast and reproducible, and therefore predictable: it must never shuffle a
live game (live games use `cardroom.shoe.Shoe.shuffled` with the OS CSPRNG).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, inline="always")
def _rotl(x: Any, k: Any) -> Any:
    return (x << k) | (x >> (np.uint64(64) - k))


@njit(cache=True, nogil=True, inline="always")
def step(s0: Any, s1: Any, s2: Any, s3: Any) -> tuple[Any, Any, Any, Any, Any]:
    """One xoshiro256** output from the state (s0, s1, s2, s3), and the next state."""
    result = _rotl(s1 * np.uint64(5), np.uint64(7)) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, np.uint64(45))
    return result, s0, s1, s2, s3


@njit(cache=True, nogil=True, inline="always")
def next_output(s: Any) -> Any:
    """The next output of the generator whose four state words are the array `s` (advanced)."""
    result, s[0], s[1], s[2], s[3] = step(s[0], s[1], s[2], s[3])
    return result
