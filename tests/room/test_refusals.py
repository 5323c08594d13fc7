"""A connection's refusals in the audit log: the first few of each window one by one, the rest
as one summary with the count, written when the window has passed or the connection closes."""

from __future__ import annotations

from typing import Any

from cardroom.room.play.refusals import MAX_KINDS, SUMMARY_ACTION, RefusalLog


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_log(burst: int = 2) -> tuple[RefusalLog, list[tuple[str, str, dict[str, Any]]],
                                      Clock]:
    written: list[tuple[str, str, dict[str, Any]]] = []
    clock = Clock()
    log = RefusalLog(lambda a, r, d: written.append((a, r, d)), {"table": 3}, burst=burst,
                     window_s=10.0, clock=clock)
    return log, written, clock


def test_each_window_writes_its_burst_then_one_summary() -> None:
    log, written, clock = make_log()
    for i in range(50):
        log.refused("table.bet" if i % 2 else "table.malformed", f"bad {i}", {"n": i})
    assert [w[1] for w in written] == ["bad 0", "bad 1"]
    assert written[0][2] == {"table": 3, "n": 0}
    assert log.counting()
    clock.now += 10.0
    assert not log.counting()  # the next window: its first refusal flushes the last window's count
    log.refused("table.deal", "late", None)
    summary = written[2]
    assert summary[0] == SUMMARY_ACTION and summary[2]["table"] == 3
    assert summary[2]["count"] == 48
    assert summary[2]["actions"] == {"table.bet": 24, "table.malformed": 24}
    assert written[3][1] == "late" and len(written) == 4
    log.flush()  # nothing counted in this window yet: nothing more to write
    assert len(written) == 4


def test_the_count_is_written_when_the_connection_closes() -> None:
    log, written, _ = make_log(burst=1)
    for _ in range(3):
        log.refused("table.x", "junk", {})
    log.flush()
    assert [w[0] for w in written] == ["table.x", SUMMARY_ACTION]
    assert written[1][2]["count"] == 2


def test_junk_actions_cannot_grow_the_counter_without_bound() -> None:
    log, written, _ = make_log(burst=0)
    for i in range(MAX_KINDS + 50):
        log.refused(f"table.kind{i}", "junk", {})
    log.flush()
    actions = written[0][2]["actions"]
    assert written[0][2]["count"] == MAX_KINDS + 50
    assert actions["other"] == 50 and len(actions) == 20
