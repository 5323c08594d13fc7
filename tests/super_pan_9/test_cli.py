"""`cardroom analyze|simulate|play super-pan-9` through the real command line."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from cardroom.cli import app, main

runner = CliRunner()


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["cardroom", *args])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_analyze_json_shape() -> None:
    result = runner.invoke(app, ["analyze", "super-pan-9", "--decks", "8", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "super-pan-9" and data["decks"] == 8
    names = [w["name"] for w in data["wagers"]]
    assert names == ["main", "tie"]
    for w in data["wagers"]:
        p, q = map(int, w["house_edge_exact"].split("/"))
        assert abs(p / q - w["house_edge"]) < 1e-12
    assert data["strategy"]["by_total"]["5"] == "draw"
    assert data["strategy"]["by_total"]["6"] == "stand"
    assert len(data["strategy"]["holdings"]) == 84
    assert data["other_players"]["effect"] == "none"


def test_analyze_zero_commission_is_fair_and_warns_about_generous_tie() -> None:
    result = runner.invoke(app, ["analyze", "super-pan-9", "--commission", "0", "--tie-pays",
                                 "9", "--json"])
    data = json.loads(result.stdout)
    assert data["wagers"][0]["house_edge_exact"] == "0/1"
    assert any("TIE BET FAVOURS THE PLAYER" in w for w in data["warnings"])


def test_analyze_table_output_shows_the_loud_warning() -> None:
    result = runner.invoke(app, ["analyze", "super-pan-9", "--decks", "2"])
    assert result.exit_code == 0
    assert "WARNING" in result.stdout and "Strategy" in result.stdout


@pytest.mark.parametrize("args", [
    ["--decks", "9"], ["--decks", "0"], ["--commission", "6%"], ["--commission", "abc"],
    ["--tie-pays", "0"],
])
def test_analyze_bad_input_one_line_exit_2(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str],
                                           args: list[str]) -> None:
    code, out, err = run_main(monkeypatch, capsys, "analyze", "super-pan-9", *args)
    assert code == 2 and out == ""
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1


def test_simulate_json_reports_intervals_beside_exact() -> None:
    result = runner.invoke(app, ["simulate", "super-pan-9", "--hands", "200000", "--seats", "3",
                                 "--seed", "11", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] >= 200_000 and data["seats"] == 3 and data["seed"] == 11
    for w in data["wagers"]:
        low, high = w["ci95"]
        assert low <= w["house_edge"] <= high
        assert w["exact_within_ci"] == (low <= w["exact"] <= high)


@pytest.mark.parametrize("args", [
    ["--hands", "0"], ["--hands", "10", "--seats", "10"], ["--hands", "10", "--seats", "0"],
    ["--hands", "10", "--strategy", "hunch"], ["--hands", "10", "--decks", "9"],
    ["--hands", "10", "--workers", "0"],
])
def test_simulate_bad_input_one_line_exit_2(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str],
                                            args: list[str]) -> None:
    code, out, err = run_main(monkeypatch, capsys, "simulate", "super-pan-9", *args)
    assert code == 2 and out == ""
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1


def test_play_offers_the_draw_and_shows_the_optimal_choice_on_request() -> None:
    result = runner.invoke(app, ["play", "super-pan-9", "--seed", "4", "--players", "3"],
                           input="10\nh\nd\n\ns\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Draw or stand?" in out and "optimal: draw" in out
    assert "you win: $9.50" in out and "commission $0.50" in out
    assert "You leave with" in out
    # Before the reveal the other seats' and the dealer's cards are face down.
    first_view = out.split("Draw or stand?")[0]
    assert "seat 3 (computer): (face down) x3" in first_view
    assert "dealer: (face down) x3" in first_view


def test_play_refuses_a_bad_wager_and_changes_nothing() -> None:
    result = runner.invoke(app, ["play", "super-pan-9", "--seed", "4", "--players", "0"],
                           input="1\nabc\n5000\nq\n")
    assert result.exit_code == 0
    assert result.stdout.count("error:") == 3
    assert "You leave with $200.00" in result.stdout


def test_play_rule_5_the_engine_refuses_a_wager_the_bankroll_cannot_cover() -> None:
    """Rule 5 (issue 20): the terminal seats its player at the engine with the bankroll, and
    the engine refuses a wager it cannot cover, in the room's words."""
    result = runner.invoke(app, ["play", "super-pan-9", "--seed", "4", "--players", "0",
                                 "--bankroll", "200", "--tie", "1"], input="200\nq\n")
    assert result.exit_code == 0
    assert "error: your stack has $200.00: it cannot cover $201.00" in result.stdout


def test_play_bad_options_exit_2(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(monkeypatch, capsys, "play", "super-pan-9", "--players", "9")
    assert code == 2 and err.startswith("error:")
