"""The one simulation-only generator, xoshiro256** (`cardroom.analysis.xoshiro`), against the
reference implementation's published outputs (Blackman and Vigna's xoshiro256starstar.c from
the state 1, 2, 3, 4, as reproduced in rand_xoshiro's tests), through both of its entry points."""

from __future__ import annotations

import numpy as np
from numba import njit

from cardroom.analysis.xoshiro import next_output, step

REFERENCE = [11520, 0, 1509978240, 1215971899390074240, 1216172134540287360,
             607988272756665600, 16172922978634559625, 8476171486693032832,
             10595114339597558777, 2904607092377533576]


@njit(cache=False)
def _outputs_in_place(state: np.ndarray, n: int) -> np.ndarray:
    out = np.empty(n, dtype=np.uint64)
    for k in range(n):
        out[k] = next_output(state)
    return out


@njit(cache=False)
def _outputs_in_locals(state: np.ndarray, n: int) -> np.ndarray:
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    out = np.empty(n, dtype=np.uint64)
    for k in range(n):
        out[k], s0, s1, s2, s3 = step(s0, s1, s2, s3)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return out


def test_next_output_gives_the_reference_stream_and_advances_the_array() -> None:
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    assert [int(x) for x in _outputs_in_place(state, 10)] == REFERENCE
    assert [int(x) for x in _outputs_in_place(state, 1)] != [11520]  # the state moved on


def test_step_in_locals_gives_the_same_stream_and_state() -> None:
    a = np.array([1, 2, 3, 4], dtype=np.uint64)
    b = a.copy()
    assert [int(x) for x in _outputs_in_locals(a, 10)] == REFERENCE
    _outputs_in_place(b, 10)
    assert a.tolist() == b.tolist()
