"""`cardroom simulate baccarat`: JSON and table output, workers and cluster, bad arguments.

Issue 2, "Simulation" and "Bad input": negative or absurd arguments give a clear one-line
error and exit status 2.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from cardroom.analysis.baccarat import analyze
from cardroom.cli import main
from cardroom.games.baccarat.rules import BaccaratRules


def run_cli(args: list[str], monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["cardroom", "simulate", "baccarat", *args])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _json(args: list[str], monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run_cli([*args, "--json"], monkeypatch, capsys)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_json_reports_every_wager_with_interval_and_exact_value(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(["--hands", "300000", "--seed", "8"], monkeypatch, capsys)
    assert (data["game"], data["decks"], data["hands"], data["seed"]) == ("baccarat", 8,
                                                                         300_000, 8)
    assert sum(data["outcomes"].values()) == 300_000
    exact = analyze(BaccaratRules())
    names = [w["name"] for w in data["wagers"]]
    assert names == ["player", "banker", "tie", "player_9", "banker_9", "progressive"]
    for w in data["wagers"]:
        e = exact.wager(w["name"]).house_edge
        assert w["exact_house_edge_exact"] == f"{e.numerator}/{e.denominator}"
        assert w["ci95_low"] < w["house_edge"] < w["ci95_high"]
        assert w["exact_within_ci"] is (w["ci95_low"] <= float(e) <= w["ci95_high"])


def test_same_seed_same_json_on_one_process_two_processes_and_a_dask_cluster(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """300,000 hands make five chunks of 65,536 or fewer, whoever runs them."""
    from distributed import LocalCluster

    args = ["--hands", "300000", "--seed", "21"]
    one = _json([*args, "--workers", "1"], monkeypatch, capsys)
    two = _json([*args, "--workers", "2"], monkeypatch, capsys)
    with LocalCluster(processes=False, n_workers=1, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        dask = _json([*args, "--scheduler", cluster.scheduler_address], monkeypatch, capsys)
    for other in (two, dask):
        assert other["wagers"] == one["wagers"]
        assert other["outcomes"] == one["outcomes"]
        assert other["shoes"] == one["shoes"]


def test_table_output_and_six_decks_without_the_progressive(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Super-9: "Eight standard 52 card decks ... are used if using the progressive jackpot";
    with six decks the progressive is not offered, the other wagers are simulated."""
    code, out, _ = run_cli(["--hands", "50000", "--seed", "3", "--decks", "6",
                            "--paytable", "2"], monkeypatch, capsys)
    assert code == 0
    assert "6 decks" in out and "50,000 coups" in out and "95% CI" in out
    assert "│ banker_9" in out and "│ progressive" not in out
    data = _json(["--hands", "50000", "--seed", "3", "--decks", "6"], monkeypatch, capsys)
    assert [w["name"] for w in data["wagers"]][-1] == "banker_9"


@pytest.mark.parametrize(("args", "message"), [
    (["--hands", "-5"], "--hands must be at least 2"),
    (["--hands", "0"], "--hands must be at least 2"),
    (["--hands", "100000000000000"], "--hands must be at most"),
    (["--hands", "1000", "--workers", "0"], "--workers must be at least 1"),
    (["--hands", "1000", "--workers", "-3"], "--workers must be at least 1"),
    (["--hands", "1000", "--seed", "-1"], "--seed must be at least 0"),
    (["--hands", "1000", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not both"),
    (["--hands", "1000", "--scheduler", "nosuchproto://x:1"], "cannot reach the Dask"),
    (["--hands", "1000", "--paytable", "4"], "paytable"),
    (["--hands", "1000", "--decks", "17"], "decks"),
    (["--hands", "1000", "--commission", "abc"], "commission"),
])
def test_bad_arguments_give_one_line_and_exit_2(
        args: list[str], message: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(args, monkeypatch, capsys)
    assert code == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1, err
