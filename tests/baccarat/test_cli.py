"""`cardroom analyze baccarat` and `cardroom play baccarat` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli import app

runner = CliRunner()


def cardroom(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run the installed command in a child process, exactly as a user would."""
    return subprocess.run([sys.executable, "-c", "from cardroom.cli import main; main()", *args],
                          input=stdin, capture_output=True, text=True, timeout=120)


def test_analyze_json_shape_and_published_edges() -> None:
    result = runner.invoke(app, ["analyze", "baccarat", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "baccarat" and data["decks"] == 8
    wagers = {w["name"]: w for w in data["wagers"]}
    assert set(wagers) == {"player", "banker", "tie", "player_9", "banker_9", "progressive"}
    assert round(wagers["banker"]["house_edge"] * 100, 4) == 1.0579
    p, q = map(int, wagers["tie"]["house_edge_exact"].split("/"))
    assert round(p / q * 100, 4) == 14.3596
    assert wagers["banker_9"]["claim_agrees"] is False
    assert wagers["progressive"]["claim_agrees"] is True  # 21.65% for 21.6572%, to 2 places


def test_analyze_shows_the_nines_split_into_two_and_three_card_suited_and_plain() -> None:
    """Player-9/Banker-9 nines by kind: a two-card nine is a natural, 16,384 ordered value
    pairs (4,096 of one suit) times the 414 x 413 x 412 x 411 continuations."""
    data = json.loads(runner.invoke(app, ["analyze", "baccarat", "--json"]).output)
    rest = 414 * 413 * 412 * 411
    for hand in ("player", "banker"):
        nines = data["nines"][hand]
        assert nines["two-card suited"]["sequences"] == 4_096 * rest
        assert nines["two-card plain"]["sequences"] == 12_288 * rest
        assert set(nines) == {"two-card suited", "two-card plain", "three-card suited",
                              "three-card plain"}
    text = runner.invoke(app, ["analyze", "baccarat"]).output
    assert "three-card suited" in text and "two-card plain" in text


def test_analyze_options_change_the_math() -> None:
    out = runner.invoke(app, ["analyze", "baccarat", "--json", "--tie-pays", "9",
                              "--commission", "4%", "--paytable", "3"])
    wagers = {w["name"]: w for w in json.loads(out.output)["wagers"]}
    assert round(wagers["tie"]["house_edge"] * 100, 4) == 4.8440
    assert wagers["banker"]["house_edge"] < 0.0106
    assert wagers["player_9"]["claimed_edge_percent"] == "1.52"


def test_analysis_names_each_hypothetical_departure_from_the_documents(tmp_path: Path) -> None:
    """Issue 10: an analyst may try a 9-to-1 tie or a 4% commission; the figures say so (a
    "what-if" modification each), while a table's rules file departing silently is refused."""
    out = runner.invoke(app, ["analyze", "baccarat", "--json", "--tie-pays", "9",
                              "--commission", "4%"])
    mods = json.loads(out.output)["modifications"]
    assert [(m["id"], m["settings"]) for m in mods] == [
        ("what-if-commission", ["commission"]), ("what-if-tie-pays", ["tie_pays"])]
    assert "Winning Tie bets are paid 8 to 1" in mods[1]["clause"]
    text = runner.invoke(app, ["analyze", "baccarat", "--tie-pays", "9"]).output
    assert "modification what-if-tie-pays" in " ".join(text.split())
    assert json.loads(runner.invoke(app, ["analyze", "baccarat", "--json"]).output)[
        "modifications"] == []
    rules = tmp_path / "rules.toml"
    rules.write_text("tie_pays = 9\n", encoding="utf-8")
    proc = cardroom("play", "baccarat", "--rules", str(rules))
    assert proc.returncode == 2 and "departs from the Mini-Baccarat rules" in proc.stderr


def test_analyze_text_marks_wrong_claims() -> None:
    """Banker-9's 7.48% is wrong (exact 7.4670%); Player-9's 4.13% and the progressive's
    21.65% (exact 21.6572%) agree to the two places they state."""
    out = runner.invoke(app, ["analyze", "baccarat"])
    assert out.exit_code == 0
    assert out.output.count("≠") == 1 and out.output.count("✓") == 2
    assert "7.48% ≠" in out.output and "21.65% ✓" in out.output


@pytest.mark.parametrize("args", [["--decks", "0"], ["--decks", "99"], ["--paytable", "7"],
                                  ["--commission", "lots"], ["--tie-pays", "-3"],
                                  ["--jackpot-contribution", "0.1"], ["--rules", "/nope.toml"]])
def test_bad_arguments_give_one_line_and_exit_2(args: list[str]) -> None:
    proc = cardroom("analyze", "baccarat", *args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().startswith("error:")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_malformed_rules_file(tmp_path: Path) -> None:
    bad = tmp_path / "r.toml"
    bad.write_text("decks = 'eight'\n")
    proc = cardroom("analyze", "baccarat", "--rules", str(bad))
    assert proc.returncode == 2 and "decks" in proc.stderr


def test_play_a_few_coups_refusals_change_nothing() -> None:
    script = "banker 25 jackpot 1\ndragon 5\nbanker 9999\n\nplayer 5 tie 5\nq\n"
    out = runner.invoke(app, ["play", "baccarat", "--seed", "4", "--buy-in", "100"],
                        input=script, terminal_width=200)
    assert out.exit_code == 0, out.output
    assert out.output.count("Player ") >= 3
    assert "unknown wager 'dragon'" in out.output
    assert "outside" in out.output
    assert "burn:" in out.output and "commitment" in out.output
    assert "You leave with $" in out.output
