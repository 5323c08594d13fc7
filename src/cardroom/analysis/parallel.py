"""Run a Monte Carlo job in seeded chunks: in-process, on local cores, or on a Dask cluster.

A run of N hands is cut into chunks whose sizes and seeds depend only on N and the seed, never
on where they run, and the results are merged in chunk order: the same seed gives the same
answer with one worker, sixteen, or a cluster. A job is any picklable callable taking a
`Chunk`; games supply the job and the merge.
"""

from __future__ import annotations

import math
import multiprocessing
import secrets
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from cardroom.errors import CardroomError

R = TypeVar("R")
Sums = TypeVar("Sums", bound=tuple[Any, ...])

MAX_WORKERS = 1024
MAX_SEED = 2**128 - 1
MIN_CHUNK = 1 << 16
MAX_CHUNK = 1 << 22
TARGET_CHUNKS = 64


class SimulationError(CardroomError):
    """Bad simulation arguments, or a cluster that cannot be reached."""


@dataclass(frozen=True)
class Chunk:
    """A slice of a run: `size` hands dealt from the random stream `(seed, index)`."""

    index: int
    size: int
    seed: int

    def seed_sequence(self) -> np.random.SeedSequence:
        """Independent streams per chunk: the `index`-th child of the run's SeedSequence."""
        return np.random.SeedSequence(entropy=self.seed, spawn_key=(self.index,))

    def generator_state(self, words: int = 4) -> npt.NDArray[np.uint64]:
        """`words` 64-bit words of seed material for a compiled PRNG (never all zero)."""
        state = np.asarray(self.seed_sequence().generate_state(words, np.uint64), np.uint64)
        if not state.any():
            state[0] = np.uint64(1)
        return state


def default_chunk_size(total: int) -> int:
    """About TARGET_CHUNKS chunks, each between MIN_CHUNK and MAX_CHUNK hands: a function of
    the total alone, so the chunking (and hence the result) never depends on the workers."""
    return min(MAX_CHUNK, max(MIN_CHUNK, math.ceil(total / TARGET_CHUNKS)))


def plan_chunks(total: int, seed: int, chunk_size: int | None = None) -> list[Chunk]:
    """Split `total` hands into chunks of `chunk_size` (the last one shorter)."""
    check_count(total, "hands", 1)
    check_seed(seed)
    size = chunk_size or default_chunk_size(total)
    if size < 1:
        raise SimulationError(f"chunk size must be at least 1, not {size}")
    return [Chunk(i, min(size, total - start), seed)
            for i, start in enumerate(range(0, total, size))]


def add_termwise(a: Sums, b: Sums) -> Sums:
    """A `merge` for `run_chunks`: two chunks' results (tuples of counts and arrays of counts)
    added term by term."""
    return cast(Sums, tuple(x + y for x, y in zip(a, b, strict=True)))


def check_count(value: int, what: str, minimum: int, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimulationError(f"--{what} must be a whole number, not {value!r}")
    if value < minimum:
        raise SimulationError(f"--{what} must be at least {minimum:,}, not {value:,}")
    if maximum is not None and value > maximum:
        raise SimulationError(f"--{what} must be at most {maximum:,}, not {value:,}")
    return value


def check_seed(seed: int) -> int:
    return check_count(seed, "seed", 0, MAX_SEED)


def seed_or_draw(seed: int | None) -> int:
    """The seed given, checked; with none, one drawn from the OS, for the run to report (and
    be replayed from)."""
    return secrets.randbits(64) if seed is None else check_seed(seed)


_SHARED: list[tuple[int, ProcessPoolExecutor]] = []
"""The pool `worker_pool` keeps open, if any: (its workers, the pool)."""


@contextmanager
def worker_pool(workers: int) -> Iterator[None]:
    """Keep `workers` local worker processes open for every `run_chunks` call inside, so that
    a report made of many runs starts (and imports, and loads compiled kernels into) its
    processes once instead of once a run. Nested or with one worker: does nothing."""
    check_count(workers, "workers", 1, MAX_WORKERS)
    if workers == 1 or _SHARED:
        yield
        return
    with ProcessPoolExecutor(max_workers=workers,
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        _SHARED.append((workers, pool))
        try:
            yield
        finally:
            _SHARED.pop()


@contextmanager
def _local_pool(workers: int, jobs: int) -> Iterator[ProcessPoolExecutor]:
    """The shared pool of `worker_pool` when it has `workers` processes, else a new one (of
    no more processes than `jobs`)."""
    if _SHARED and _SHARED[-1][0] == workers:
        yield _SHARED[-1][1]
        return
    with ProcessPoolExecutor(max_workers=min(workers, jobs),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


@contextmanager
def progress_bar(enabled: bool, total: int, description: str) -> Iterator[Callable[[int], None]]:
    """A Rich progress bar on stderr, shown only when asked and stderr is a terminal."""
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,}"), TimeElapsedColumn(),
        TimeRemainingColumn(), console=console, transient=True,
        disable=not (enabled and console.is_terminal),
    )
    with progress:
        task = progress.add_task(description, total=total)
        yield lambda n: progress.advance(task, n)


def run_chunks(
    job: Callable[[Chunk], R],
    chunks: Sequence[Chunk],
    merge: Callable[[R, R], R],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: bool = False,
    description: str = "simulating",
) -> R:
    """Run `job` over every chunk and fold the results with `merge`, in chunk order.

    workers=1 runs in this process; workers>1 uses that many local processes (spawned, so a
    kernel compiled with numba's cache loads in each; those of an enclosing `worker_pool` if
    any); `scheduler` sends the chunks to the Dask scheduler at that address instead. The
    progress bar counts hands (chunk sizes).
    """
    if not chunks:
        raise SimulationError("nothing to run: no chunks")
    check_count(workers, "workers", 1, MAX_WORKERS)
    results: dict[int, R] = {}
    total = sum(c.size for c in chunks)
    with progress_bar(progress, total, description) as advance:
        if scheduler is not None:
            _run_dask(job, chunks, scheduler, results, advance)
        elif workers == 1 or len(chunks) == 1:
            for pos, chunk in enumerate(chunks):
                results[pos] = job(chunk)
                advance(chunk.size)
        else:
            with _local_pool(workers, len(chunks)) as pool:
                futures = {pool.submit(job, chunk): pos for pos, chunk in enumerate(chunks)}
                for future in as_completed(futures):
                    pos = futures[future]
                    results[pos] = future.result()
                    advance(chunks[pos].size)
    merged = results[0]
    for pos in range(1, len(chunks)):
        merged = merge(merged, results[pos])
    return merged


def run_seeded(job: Callable[[Chunk], Sums], total: int, seed: int | None, *,
               chunk_size: int | None = None, workers: int = 1, scheduler: str | None = None,
               progress: bool = False, description: str = "simulating") -> tuple[Sums, int]:
    """`run_chunks` over `total` hands from `seed`, or from one drawn from the OS, the chunks'
    counts added term by term: the counts, and the seed for the run to report (and be
    replayed from)."""
    seed = seed_or_draw(seed)
    counts = run_chunks(job, plan_chunks(total, seed, chunk_size), add_termwise,
                        workers=workers, scheduler=scheduler, progress=progress,
                        description=description)
    return counts, seed


def _run_dask(job: Callable[[Chunk], R], chunks: Sequence[Chunk], address: str,
              results: dict[int, R], advance: Callable[[int], None]) -> None:
    import distributed

    dask: Any = distributed

    if not address.strip():
        raise SimulationError("--scheduler needs an address such as tcp://10.0.0.5:8786")
    try:
        client: Any = dask.Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SimulationError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        futures = client.map(job, list(chunks), pure=False)
        position = {future.key: pos for pos, future in enumerate(futures)}
        for future in dask.as_completed(futures, loop=client.loop):
            pos = position[future.key]
            results[pos] = future.result()
            advance(chunks[pos].size)
    finally:
        client.close()
