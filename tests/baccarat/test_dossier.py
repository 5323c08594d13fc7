"""`cardroom report math baccarat`: every figure of the dossier against a published figure
(../shared/reference/published-figures.md), the designer's claims in the Super-9 rules
document, or an independent computation; the HTML is one self-contained file."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest
from dossier_checks import check_provenance

from cardroom.analysis.dossier import baccarat as dossier
from cardroom.analysis.dossier.html import render
from cardroom.analysis.dossier.model import Dossier
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.money import format_money
from cardroom.progressive_pool import JackpotPool

# Published: 8 decks, standard tableau.
P_BANKER, P_PLAYER, P_TIE = 0.458597422632763, 0.446246609343597, 0.095155968023640
EDGES = {"banker": 1.0579, "player": 1.2351, "tie": 14.3596}
P_TOP = Fraction(4 * 2 * 2 * 56 * 56, math.perm(416, 4))
"""Same-suited A-8 on both hands: 4 suits, 2 orders each, 8 x 7 aces and 8 x 7 eights."""


@pytest.fixture(scope="module")
def built() -> Dossier:
    return dossier.build(BaccaratRules(), 20_000, seed=3)


def wager(d: Dossier, name: str) -> dict[str, Any]:
    return next(w for w in d.data["wagers"] if w["name"] == name)


def test_house_edges_are_the_published_ones(built: Dossier) -> None:
    for name, edge in EDGES.items():
        w = wager(built, name)
        assert round(w["house_edge"] * 100, 4) == edge
        assert w["house_edge_per_hand"] == w["hold"] == w["house_edge"]


def test_std_dev_and_element_of_risk_from_the_published_probabilities(built: Dossier) -> None:
    commission = 0.05
    mean_b = P_BANKER * (1 - commission) - P_PLAYER
    sd = {
        "player": math.sqrt(P_PLAYER + P_BANKER - (P_PLAYER - P_BANKER) ** 2),
        "banker": math.sqrt(P_BANKER * (1 - commission) ** 2 + P_PLAYER - mean_b**2),
        "tie": math.sqrt(P_TIE * 64 + (1 - P_TIE) - (9 * P_TIE - 1) ** 2),
    }
    for name, value in sd.items():
        assert wager(built, name)["std_dev"] == pytest.approx(value, abs=1e-12)
    for name in ("player", "banker"):
        assert wager(built, name)["element_of_risk"] == pytest.approx(
            EDGES[name] / 100 / (1 - P_TIE), abs=1e-6)
    assert wager(built, "tie")["element_of_risk"] is None


def test_outcomes_are_the_published_sequence_counts(built: Dossier) -> None:
    assert built.data["outcomes"] == {
        "sequences": 4_998_398_275_503_360, "banker": 2_292_252_566_437_888,
        "player": 2_230_518_282_592_256, "tie": 475_627_426_473_216}


def test_award_probabilities(built: Dossier) -> None:
    for w in built.data["wagers"]:
        assert sum(Fraction(a["probability_exact"]) for a in w["awards"]) == 1
    top = next(a for a in wager(built, "progressive")["awards"] if a["label"] == "jackpot")
    assert Fraction(top["probability_exact"]) == P_TOP
    win = next(a for a in wager(built, "tie")["awards"] if a["label"] == "win")
    assert round(win["probability"], 15) == P_TIE


def test_volatility_bands_and_hands_to_be_ahead(built: Dossier) -> None:
    """n x edge +/- 1.959964 sd sqrt(n); ahead from the least n with
    n edge - 1.644854 sd sqrt(n) >= 0, both recomputed here from the published edge and the
    std dev above."""
    sd = math.sqrt(P_PLAYER + P_BANKER - (P_PLAYER - P_BANKER) ** 2)
    edge = P_BANKER - P_PLAYER
    player = next(v for v in built.data["volatility"] if v["name"] == "player")
    for n in (1_000, 10_000, 100_000):
        low, high = player["bands"][str(n)]
        assert low == pytest.approx(n * edge - 1.959964 * sd * math.sqrt(n), rel=1e-6)
        assert high == pytest.approx(n * edge + 1.959964 * sd * math.sqrt(n), rel=1e-6)
    n = player["hands_to_be_ahead"]
    assert n * edge - 1.644854 * sd * math.sqrt(n) >= 0
    assert (n - 1) * edge - 1.644854 * sd * math.sqrt(n - 1) < 0


def test_the_volatility_note_states_the_quantiles_the_figures_use(built: Dossier) -> None:
    """The text said "± 1.96 sd" and "(1.645 sd / edge)²" while the numbers used 1.959964 and
    1.644854: it states the normal quantiles that are computed with (97.5th and 95th
    percentiles, here from the standard library), and no rounded stand-in."""
    z95, z90 = NormalDist().inv_cdf(0.975), NormalDist().inv_cdf(0.95)
    assert f"{z95:.6f}" == "1.959964" and f"{z90:.6f}" == "1.644854"
    volatility = next(s for s in built.sections if s.title == "Volatility")
    note = volatility.notes[0]
    assert "± 1.959964 sd √n" in note and "(1.644854 sd / edge)²" in note
    page = render(built)
    assert "1.96 sd" not in page and "1.645 sd" not in page


def test_claims_of_the_rules_document(built: Dossier) -> None:
    """Pay table 1: Player-9 4.13% (exact 4.1255%), Banker-9 7.48% (wrong: exact 7.4670%),
    progressive 21.65% (exact 21.6572%: agrees to the two places stated); pay table 3:
    Player-9 1.52% (exact 1.5151%)."""
    claims = {c["name"]: (c["claimed_percent"], c["agrees"]) for c in built.data["claims"]}
    assert claims == {"player_9": ("4.13", True), "banker_9": ("7.48", False),
                      "progressive": ("21.65", True)}
    tables = {(t["paytable"], t["wager"]): t for t in built.data["paytables"]}
    assert len(tables) == 6
    assert tables[(3, "player_9")]["claimed_percent"] == "1.52"
    assert tables[(3, "player_9")]["agrees"] is True
    assert tables[(2, "banker_9")]["claimed_percent"] == "4.91"
    assert tables[(2, "banker_9")]["agrees"] is False
    claims_section = next(s for s in built.sections if s.title == "The designer's claims")
    verdicts = {row[0]: row[-1] for row in claims_section.tables[0].rows}
    assert verdicts["progressive"] == "agrees to the precision stated"
    assert verdicts["banker_9"] == "wrong"


def test_progressive_meter_contribution_and_seed(built: Dossier) -> None:
    prog = built.data["progressive"]
    edge = wager(built, "progressive")["house_edge"]
    assert prog["return_at_seed"] == pytest.approx(1 - edge - 0.2, abs=1e-15)
    for entry in prog["by_contribution"]:
        assert entry["house_edge"] == pytest.approx(
            edge - (float(Fraction(entry["contribution"])) - 0.2), abs=1e-12)
    for entry in prog["by_seed"]:
        assert entry["house_edge"] == pytest.approx(
            edge - float(P_TOP) * (entry["seed_cents"] - 250_000) / 100, abs=1e-12)
    be = Fraction(prog["break_even_jackpot_cents_exact"])
    assert prog["break_even_jackpot_cents"] == math.ceil(be)
    # at the break-even meter: the return at the seed plus P(top) x the meter's growth is 100%
    assert prog["return_at_seed"] + float(P_TOP * (be - 250_000) / 100) == pytest.approx(1)


def test_break_even_when_bettors_share_the_top_award(built: Dossier) -> None:
    """Super-9, "If the top jackpot hits all players who have a progressive bet will share
    equally in the progressive jackpot" ($90,000 with 9 players: $10,000 each). With k seats
    sharing, each gets J / k and his for-1 awards (10, 125 and 250 for 1, the rules' pay
    table) as before, so at the break-even J_k: 10 p1 + 125 p2 + 250 p3 + P(top) x J_k / k / $1
    = 1, exactly, P(top) by hand combinatorics. The least posted amount in cents not behind is
    checked against the jackpot pool's own shares (rounded down to the cent)."""
    prog = built.data["progressive"]
    awards = {a["label"]: Fraction(a["probability_exact"])
              for a in wager(built, "progressive")["awards"]}
    fixed = (10 * awards["one_suited_nine"] + 125 * awards["both_suited_nine"]
             + 250 * awards["both_suited_ace_eight"])
    lone = Fraction(prog["break_even_jackpot_cents_exact"])
    rows = prog["break_even_by_sharers"]
    assert [r["sharers"] for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    for r in rows:
        k, exact = r["sharers"], Fraction(r["jackpot_cents_exact"])
        assert fixed + P_TOP * exact / k / 100 == 1
        least = r["least_posted_cents"]
        share = JackpotPool(seed=250_000, contribution_per_wager=20, posted=least).shares(k)
        short = JackpotPool(seed=250_000, contribution_per_wager=20, posted=least - 1).shares(k)
        assert share[0] >= lone > short[0]
    assert Fraction(rows[6]["jackpot_cents_exact"]) == 7 * lone
    page = render(built)
    assert "Break-even top award by the number of jackpot bettors who share it" in page
    assert format_money(rows[6]["least_posted_cents"]) in page
    assert format_money(rows[6]["least_posted_cents"]) == "$1,732,974.25"  # 7 x $247,567.75


def test_nines_split_into_two_and_three_card_suited_and_plain(built: Dossier) -> None:
    """Player-9 and Banker-9 pay two- and three-card nines alike: the dossier splits them. A
    two-card nine is a natural: 16,384 ordered value pairs of 416 x 415 total nine, 4,096 of
    them in one suit; every kind adds up to the wager's awards."""
    nines = built.data["nines"]
    pairs = 416 * 415
    for hand, name in (("player", "player_9"), ("banker", "banker_9")):
        split = {k: Fraction(v["probability_exact"]) for k, v in nines[hand].items()}
        assert split["two-card suited"] == Fraction(4_096, pairs)
        assert split["two-card plain"] == Fraction(16_384 - 4_096, pairs)
        awards = {a["label"]: Fraction(a["probability_exact"])
                  for a in wager(built, name)["awards"]}
        assert split["two-card suited"] + split["three-card suited"] == awards["suited nine"]
        assert split["two-card plain"] + split["three-card plain"] == awards["nine"]
    assert "Nines by how they are made" in render(built)


@pytest.mark.parametrize("paytable, exposure", [(1, 244_900), (2, 254_900), (3, 264_900)])
def test_max_exposure_of_one_hand(paytable: int, exposure: int) -> None:
    """Default limits, within WAC 230-15-140's $300 (Player-9/Banker-9 only beside a main bet,
    three bets besides the jackpot): the worst hand is a tie of two suited nines: the $300 main
    bet pushes, Player-9 and Banker-9 at $100 pay 11 or 12 to 1 each (table 1: 11 and 11;
    table 2: 11 and 12; table 3: 12 and 12), and the $1 progressive counts at 250 for 1
    (+$249). A main-bet win is smaller: Banker at $300 pays $285 after the 5%."""
    rules = BaccaratRules(paytable=paytable)
    assert dossier.max_hand_exposure_cents(rules) == exposure
    assert dossier.max_payout_cents(rules)["banker"] == 28_500


def test_max_exposure_when_the_bonus_bets_need_no_main_bet() -> None:
    """Tie $100 (the default maximum) x 8 on two suited nines + Player-9 and Banker-9 $100 x
    11 each + the progressive's 250 for 1 on suited A-8s of two suits (+$249)."""
    rules = BaccaratRules(bonus_without_main=True)
    assert dossier.max_hand_exposure_cents(rules) == 80_000 + 2 * 110_000 + 24_900


def test_a_table_without_the_progressive_has_no_progressive_figures() -> None:
    """Six decks: the progressive needs eight (Super-9 rules), so it is not offered."""
    six = dossier.build(BaccaratRules(decks=6, jackpot=False), 5_000, seed=1)
    assert [w["name"] for w in six.data["wagers"]] == [
        "player", "banker", "tie", "player_9", "banker_9"]
    assert "progressive" not in six.data
    assert round(wager(six, "banker")["house_edge"] * 100, 4) == 1.0558  # published, 6 decks
    assert all("progressive" not in n for s in six.sections[:1] for n in s.notes)


def test_counting_section_answers_the_operator(built: Dossier) -> None:
    counting = next(s for s in built.sections if s.title == "Card-counting exposure")
    answers = [n for n in counting.notes if n.startswith(("Player-9:", "Banker-9:", "the prog"))]
    assert len(answers) == 3
    assert built.data["counting"]["coups"] >= 20_000


def test_html_is_one_self_contained_file(built: Dossier) -> None:
    page = render(built)
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") == 4  # volatility, the meter, effects of removal, depth
    for external in ("<script", "<link", "<img", "@import"):
        assert external not in page
    assert not re.search(r"url\((?!#)", page)  # only references inside the file
    assert not re.search(r'(src|href)="(?!#)', page)
    assert "Break-even top award: $247,567.75" in page


def cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from cardroom.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=600)


def test_cli_writes_html_and_json(tmp_path: Path) -> None:
    out = tmp_path / "baccarat.html"
    result = cardroom("report", "math", "baccarat", "--out", str(out), "--json", "--coups",
                      "20000", "--seed", "1", "--paytable", "3")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rules"]["paytable"] == 3
    assert "<svg" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("args, message", [
    (("report", "math", "blackjack", "--json"),
     "error: no dossier for 'blackjack': choose one of baccarat"),
    (("report", "math", "baccarat", "--out", "/nonexistent/folder/x.html"),
     "error: cannot write the dossier to /nonexistent/folder/x.html"),
    (("report", "math", "baccarat"), "error: say where to write the dossier"),
])
def test_cli_bad_arguments_one_error_line_exit_2(args: tuple[str, ...], message: str) -> None:
    result = cardroom(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.stderr


def test_the_dossier_states_its_provenance(built: Dossier) -> None:
    """Date, cardroom version and commit, both rule documents with their hashes, the card
    counter's seed; built by a Python call, it says it has no command."""
    prov = built.to_json()["provenance"]
    check_provenance(prov, render(built), "baccarat", [3])
    assert prov["command"].startswith("none: built by a Python call")
