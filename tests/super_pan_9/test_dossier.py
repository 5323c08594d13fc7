"""`cardroom report math super-pan-9`: every figure against an identity of the game (symmetric
before commission when both draw on 0-5: ../shared/reference/published-figures.md), the rules
(rule 8: up to 5% commission; rule 9: the Tie Bet pays 8 to 1) or a recomputation here."""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest
from dossier_checks import check_provenance

from cardroom.analysis.dossier import super_pan_9 as dossier
from cardroom.analysis.dossier.html import render
from cardroom.analysis.dossier.model import Dossier
from cardroom.games.super_pan_9.rules import SuperPan9Rules


@pytest.fixture(scope="module")
def built() -> Dossier:
    return dossier.build(SuperPan9Rules())


def wager(d: Dossier, name: str) -> dict[str, Any]:
    return next(w for w in d.data["wagers"] if w["name"] == name)


def probability(w: dict[str, Any], label: str) -> Fraction:
    return next(Fraction(a["probability_exact"]) for a in w["awards"] if a["label"] == label)


def test_main_wager_is_symmetric_before_commission(built: Dossier) -> None:
    """P(win) = P(loss) = (1 - P(tie)) / 2, so the edge is 5% x P(win) and sd follows."""
    main = wager(built, "main")
    win, push, loss = (probability(main, k) for k in ("win", "push", "lose"))
    assert win == loss == (1 - push) / 2
    assert Fraction(main["house_edge_exact"]) == Fraction(1, 20) * win
    mean = float(win) * 0.95 - float(loss)
    assert main["std_dev"] == pytest.approx(
        math.sqrt(float(win) * 0.95**2 + float(loss) - mean**2), abs=1e-12)
    assert main["element_of_risk"] == pytest.approx(main["house_edge"] / (1 - float(push)))


def test_edge_for_every_commission_and_deck_count(built: Dossier) -> None:
    grid = built.data["edge_by_decks_and_commission"]
    assert sorted(grid, key=int) == [str(d) for d in range(1, 9)]
    for row in grid.values():
        assert row["0%"] == 0
        for k in range(1, 6):
            assert row[f"{k}%"] == pytest.approx(row["5%"] * k / 5, rel=1e-12)
    assert grid["8"]["5%"] == wager(built, "main")["house_edge"]


def test_tie_bet_at_every_pay_and_its_break_even(built: Dossier) -> None:
    tie = built.data["tie_bet"]
    p = Fraction(tie["probability_exact"])
    assert p == probability(wager(built, "main"), "push")
    for entry in tie["by_pays"]:
        assert Fraction(entry["house_edge_exact"]) == 1 - (entry["pays"] + 1) * p
    assert Fraction(tie["break_even_pays_exact"]) == (1 - p) / p
    assert [e["pays"] for e in tie["by_pays"]] == [6, 7, 8, 9]
    claim = built.data["claims"][0]
    assert claim["stated_pays"] == 8 and claim["favours_house"] is False


def test_strategy_volatility_and_exposure(built: Dossier) -> None:
    assert built.data["strategy"]["by_total"] == {
        str(t): "draw" if t <= 5 else "stand" for t in range(10)}
    tie = next(v for v in built.data["volatility"] if v["name"] == "tie")
    assert tie["hands_to_be_ahead"] is None
    # the $300 main wager (WAC 230-15-140) less 5% = $285; Tie Bet $100 x 8 = $800; they
    # never both win
    assert built.data["max_hand_exposure_cents"] == 80_000
    page = render(built)
    assert page.count("<svg") == 2 and "<script" not in page


def test_cli_refuses_a_baccarat_option() -> None:
    result = subprocess.run([sys.executable, "-c", "from cardroom.cli import main; main()",
                             "report", "math", "super-pan-9", "--json", "--paytable", "2"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2
    assert result.stderr.strip() == "error: --paytable does not apply to the super-pan-9 dossier"


def test_the_dossier_states_its_provenance(built: Dossier) -> None:
    """Exact throughout: no seed."""
    check_provenance(built.to_json()["provenance"], render(built), "super-pan-9", [])
