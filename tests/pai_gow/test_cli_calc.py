"""`cardroom pai-gow set|calc` and the exact calculator."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import numpy as np
from typer.testing import CliRunner

from cardroom.analysis.pai_gow_calc import DEALER_HANDS, counts_for_hands
from cardroom.cards import Card, parse_cards
from cardroom.cli import app
from cardroom.games.pai_gow.evaluate import evaluate2, evaluate5
from cardroom.games.pai_gow.houseway import house_way, set_hand
from cardroom.games.pai_gow.houseway_kernel import compile_house_way
from cardroom.games.pai_gow.settings import all_settings

runner = CliRunner()


def test_set_json_lists_front_and_back() -> None:
    res = runner.invoke(app, ["pai-gow", "set", "As Ad Ac Ah JK Ks Kd", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert sorted(data["front"]) == ["Kd", "Ks"]
    assert sorted(data["back"]) == sorted(["As", "Ad", "Ac", "Ah", "JK"])


def test_set_with_ballys_by_name() -> None:
    res = runner.invoke(app, ["pai-gow", "set", "JK Ah Kd Qc Js 5h 3d", "--house-way",
                              "ballys", "--json"])
    assert json.loads(res.output)["front"] == ["Kd", "Qc"]


def test_set_bad_input_is_a_clear_error() -> None:
    from cardroom.errors import CardroomError

    for args, msg in [(["As Kd"], "7 cards"), (["As As Kd Qd Jd 9c 2c"], "twice"),
                      (["As Kd Qd Jd 9c 2c 3c", "--house-way", "nope"], "unknown house way")]:
        res = runner.invoke(app, ["pai-gow", "set", *args])
        assert isinstance(res.exception, CardroomError) and msg in str(res.exception)


def test_calc_inner_step_matches_reference_on_sampled_dealer_hands() -> None:
    """Win, push and loss as the rules say (clause 10): both hands must beat the dealer's,
    copies go to the dealer; checked hand by hand against the reference evaluators."""
    player = parse_cards("As Kd 9c 9h 5s 3d JK")
    way = house_way("trump-plaza")
    settings = all_settings(player)
    held = {c.code for c in player}
    rest = [c for c in range(53) if c not in held]
    rng = random.Random(3)
    dealer = [rng.sample(rest, 7) for _ in range(300)]
    expected = np.zeros((21, 3), dtype=np.int64)
    for row in dealer:
        cards = [Card.from_code(c) for c in row]
        d = set_hand(cards, way).setting
        for i, s in enumerate(settings):
            if s.is_foul:
                continue
            wins = (evaluate2(s.front) > evaluate2(d.front)) + (
                evaluate5(s.back) > evaluate5(d.back))
            expected[i, 2 - wins] += 1
    pfront = np.array([s.front_score for s in settings], dtype=np.int64)
    pback = np.array([-1 if s.is_foul else s.back_score for s in settings], dtype=np.int64)
    got = counts_for_hands(np.array(dealer, dtype=np.int64), compile_house_way(way), 0,
                           pfront, pback)
    assert (got == expected).all()


def test_calc_cli_json_marks_optimal_and_house_way() -> None:
    """The full enumeration (`--direct`): every legal setting, each over all C(46,7) dealer
    hands."""
    res = runner.invoke(app, ["pai-gow", "calc", "As Kd 9c 7h 5s 3d 2c", "--direct", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["dealer_hands"] == DEALER_HANDS == 53_524_680
    # a no-pair hand with one ace: 15 legal settings (the ace must stay back, rule 6)
    assert len(data["settings"]) == 15
    assert all("As" in s["back"] for s in data["settings"])
    for s in data["settings"]:
        assert s["win"] + s["push"] + s["loss"] == DEALER_HANDS
        ev = (Fraction(s["win"]) * Fraction(19, 20) - s["loss"]) / DEALER_HANDS
        assert Fraction(s["ev"]) == ev
    assert data["settings"][0]["optimal"]  # sorted best first
    assert [s["optimal"] for s in data["settings"]].count(True) >= 1
    hw = [s for s in data["settings"] if s["house_way"]]
    assert len(hw) == 1 and sorted(hw[0]["front"]) == ["9c", "Kd"]
    assert Fraction(data["settings"][0]["ev"]) >= Fraction(hw[0]["ev"])


def test_play_pai_gow_in_the_terminal() -> None:
    res = runner.invoke(app, ["play", "pai-gow", "--seed", "4"], input="Zz 9q\nh\nq\n")
    assert res.exit_code == 0, res.output
    assert "bad card" in res.output  # a bad entry is explained and asked again
    assert "dealer:" in res.output and "balance: $500.00" in res.output
    assert any(word in res.output for word in ("win:", "push:", "loss:"))
