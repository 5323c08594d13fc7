"""Auditing one connection's refusals without letting a flood of them flood the audit log.

Every refusal is still answered. The first `burst` refusals of each `window_s` seconds of a
connection are audited one by one (who, what, why); the rest of that window are counted, and
the count (with the actions refused, the 20 most frequent) is written as one summary entry when
the window has passed (at the connection's next refusal) or when the connection closes. One
client sending junk writes at most `burst + 1` entries per window, not one per message.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SUMMARY_ACTION = "table.refusals"
"""The `action` of the summary entry (a `refused` entry like the others)."""
MAX_KINDS = 100
"""Distinct actions counted per window (the rest as "other"), so junk cannot grow memory."""

Write = Callable[[str, str, dict[str, Any]], None]
"""Writes one `refused` audit entry: (action, reason, detail)."""


@dataclass
class RefusalLog:
    write: Write
    detail: dict[str, Any] = field(default_factory=dict)
    burst: int = 5
    window_s: float = 10.0
    clock: Callable[[], float] = time.monotonic
    _start: float | None = None
    _written: int = 0
    _counted: Counter[str] = field(default_factory=Counter)

    def counting(self) -> bool:
        """Whether the next refusal would only be counted (no database work, so the server
        need not hand it to a worker thread)."""
        return (self._start is not None and self.clock() - self._start < self.window_s
                and self._written >= self.burst)

    def refused(self, action: str, reason: str, detail: dict[str, Any] | None = None) -> None:
        """Audit this refusal, or count it if the window's burst is spent."""
        now = self.clock()
        if self._start is None or now - self._start >= self.window_s:
            self.flush()
            self._start, self._written = now, 0
        if self._written < self.burst:
            self._written += 1
            self.write(action, reason, {**self.detail, **(detail or {})})
        elif action in self._counted or len(self._counted) < MAX_KINDS:
            self._counted[action] += 1
        else:
            self._counted["other"] += 1

    def flush(self) -> None:
        """Write the summary of the refusals counted but not audited one by one, if any."""
        if not self._counted:
            return
        count = sum(self._counted.values())
        actions = dict(self._counted.most_common(20))
        self._counted.clear()
        self.write(SUMMARY_ACTION,
                   f"{count} more refusals on this connection within {self.window_s:g} s, "
                   "counted here instead of one entry each",
                   {**self.detail, "count": count, "actions": actions})
