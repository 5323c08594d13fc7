"""`cardroom analyze baccarat|super-pan-9 --removed CARDS`: the exact edges of a depleted shoe,
and one `error:` line with exit status 2 for a removal the shoe cannot give."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from cardroom.analysis.super_pan_9 import analyse
from cardroom.cli import app

runner = CliRunner()


def cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from cardroom.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=300)


def test_baccarat_removed_json_gives_the_depleted_shoe() -> None:
    """Two aces of spades out: 414 cards; the top award (same-suited A-8 on both hands) has
    3 suits x 2 x 2 orders x (8x7)(8x7) + spades 2 x 2 x (6x5)(8x7) ways in 414.413.412.411."""
    result = runner.invoke(app, ["analyze", "baccarat", "--json", "--removed", "As, as"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["removed"] == ["As", "As"] and data["cards_left"] == 414
    assert data["sequences"] == math.perm(414, 6)
    progressive = next(w for w in data["wagers"] if w["name"] == "progressive")
    jackpot = next(o for o in progressive["outcomes"] if o["label"] == "jackpot")
    ways = 3 * 2 * 2 * 56 * 56 + 2 * 2 * 30 * 56
    assert Fraction(jackpot["probability_exact"]) == Fraction(ways, math.perm(414, 4))
    assert all(w["claimed_edge_percent"] is None for w in data["wagers"])


def test_baccarat_removed_table_names_the_shoe() -> None:
    result = runner.invoke(app, ["analyze", "baccarat", "--removed", "9h 9h 9d"])
    assert result.exit_code == 0, result.output
    assert "8 decks less 3 card(s) (413 left)" in result.output
    assert "break-even top award, progressive: $" in result.output


@pytest.mark.parametrize("game, cards, message", [
    ("baccarat", "As " * 9,
     "error: cannot remove 9 x As: a 8-deck baccarat shoe holds only 8"),
    ("baccarat", "Zz", "error: bad card 'Zz'"),
    ("super-pan-9", "7s", "error: there is no 7s in a Super Pan 9 shoe"),
])
def test_impossible_removal_is_one_error_line_and_exit_2(game: str, cards: str,
                                                         message: str) -> None:
    result = cardroom("analyze", game, "--removed", cards)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.stderr


def test_super_pan_9_removed_json_is_the_depleted_shoe() -> None:
    """Two aces out of eight decks of 36 cards: value counts 96 faces, 30 aces, 32 of 2..6."""
    result = runner.invoke(app, ["analyze", "super-pan-9", "--json", "--removed", "As Ah"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["cards_left"] == 286 and data["removed"] == ["As", "Ah"]
    by_hand = analyse(8, Fraction(1, 20), 8, shoe=(96, 30, 32, 32, 32, 32, 32))
    main = next(w for w in data["wagers"] if w["name"] == "main")
    assert Fraction(main["house_edge_exact"]) == by_hand.optimal.house_edge
    assert by_hand.optimal.house_edge != analyse(8).optimal.house_edge
