"""The slow work of a new password, kept off the tables' path (issue 26).

Judging a new password (zxcvbn) and hashing it (argon2, 64 MiB and most of a second of CPU)
is done by two threads of its own at the lowest CPU priority, awaited without holding one of
the worker threads that table actions run in, and never inside the room's write transaction.
A flood of registrations from many addresses then queues here: it cannot take the writer, the
workers or more than the CPU left over from the tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from cardroom.room.people import accounts as acc

WORKERS = 2
"""At most this many new passwords judged and hashed at once (each argon2 hash holds 64 MiB)."""


def _lowest_priority() -> None:
    """Each worker thread (and the threads argon2 starts from it) yields the CPU to the rest
    of the server (Linux: the nice value is per thread)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


_POOL = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="passwords",
                           initializer=_lowest_priority)


async def new_credentials(username: str, password: str) -> acc.NewCredentials:
    """`accounts.new_credentials` in the password threads: the checked name and the hash, or
    CardroomError with the reason."""
    return await asyncio.get_running_loop().run_in_executor(
        _POOL, acc.new_credentials, username, password)
