"""The room benches still run against the room as it now is: a bench that no longer starts
(a table must now be opened before play, a player identified) measures nothing, and the
figures in docs/benchmarks.md could not be measured again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[1] / "bench"


def run_bench(keys: Path, *args: str) -> str:
    """Run a bench with its room's keys under `keys`, never in the user's data directory."""
    env = {**os.environ, "CARDROOM_AUDIT_KEY_FILE": str(keys / "audit.key"),
           "CARDROOM_IDENTITY_KEY_FILE": str(keys / "identity.key")}
    done = subprocess.run([sys.executable, *args], cwd=BENCH, capture_output=True, text=True,
                          timeout=300, check=False, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_server_bench_plays_its_rounds_and_balances_the_ledger(
        tmp_path: Path) -> None:
    out = run_bench(tmp_path, "bench_server.py", "--players", "8", "--tables", "2", "--rounds", "1",
                    "--think", "0", "--port", "0", "--database",
                    str(tmp_path / "bench.sqlite3"))
    assert "actions: 10 in" in out  # 8 bets and one deal at each of the 2 tables
    assert "CPU while connecting and playing: server" in out
    assert "ledger balanced after the run: True" in out


def test_the_card_tables_bench_plays_both_games(tmp_path: Path) -> None:
    out = run_bench(tmp_path, "bench_card_tables.py", "--rounds", "1")
    # one round: 9 bets, a deal and 9 draws or stands at Super Pan 9; 6 bets, a deal and 6
    # house-way settings at Pai Gow
    assert "super-pan-9: 19 actions" in out
    assert "pai-gow: 13 actions" in out


def test_the_round_trips_bench_counts_the_statements_of_each_action(tmp_path: Path) -> None:
    out = run_bench(tmp_path, "bench_round_trips.py", "--rounds", "1", "--postgres", "")
    assert "SQLite: statements per bet " in out
    assert "8 actions, wall median" in out  # 7 bets and the deal
    assert "ms an action; load average" in out
