"""The installed `cardroom` console script, run as a subprocess (the in-process runner does not
go through the entry point that sets the exit status), under a chosen regulatory profile."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CARDROOM = Path(sys.executable).parent / "cardroom"


def cardroom(*args: str, profile: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CARDROOM_PROFILE"}
    if profile:
        env["CARDROOM_PROFILE"] = profile
    return subprocess.run([str(CARDROOM), *args], capture_output=True, text=True, timeout=120,
                          check=False, env=env)
