"""Card-counting exposure of the Super-9 side bets: effects of removal, the best linear count,
the counter kernel and the report, checked against identities that hold exactly and against the
simulation kernel's own coup classes."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from cardroom.analysis import baccarat_count_kernel as count_kernel
from cardroom.analysis import baccarat_kernel
from cardroom.analysis.baccarat_counting import (
    SIDE_BETS,
    WAGERS,
    RemovalEffects,
    best_count,
    class_nets,
    counting_report,
    removal_effects,
)
from cardroom.analysis.baccarat_sim import kernel_tables
from cardroom.cards import Rank
from cardroom.cli import app
from cardroom.games.baccarat.rules import BaccaratRules

RULES = BaccaratRules()


@pytest.fixture(scope="module")
def effects() -> RemovalEffects:
    return removal_effects(RULES)


def test_effects_of_removal_average_to_zero_exactly(effects: RemovalEffects) -> None:
    """Taking out a card chosen uniformly at random leaves every wager's expectation unchanged
    (a burn card changes nothing): the sum of the 52 cards' EORs (8 copies each) is exactly 0."""
    assert len(effects.by_card) == 52
    for wager in WAGERS:
        assert sum(e[wager] for e in effects.by_card.values()) == 0, wager


def test_effects_of_removal_are_alike_across_suits_and_tens_to_kings(
        effects: RemovalEffects) -> None:
    by_rank: dict[Rank, set[tuple[Fraction, ...]]] = {}
    for card, e in effects.by_card.items():
        key = Rank.TEN if card.rank >= Rank.TEN else card.rank
        by_rank.setdefault(key, set()).add(tuple(e[w] for w in WAGERS))
    assert all(len(rows) == 1 for rows in by_rank.values())
    assert len(by_rank) == 10


def test_off_the_top_is_the_player_side_of_the_published_edges(effects: RemovalEffects) -> None:
    """Banker 1.0579%, Player 1.2351% (published); a lone progressive bettor gets back the
    house's 21.66% plus the 20-cent contribution less."""
    assert round(float(effects.base["banker"]) * 100, 4) == -1.0579
    assert round(float(effects.base["player"]) * 100, 4) == -1.2351
    assert round(float(effects.base["progressive"]) * 100, 2) == -41.66


def test_removing_a_nine_hurts_the_nine_bets_most(effects: RemovalEffects) -> None:
    for wager in ("player_9", "banker_9", "progressive"):
        eor = best_count(effects, wager).eor
        assert min(eor) == eor[9] < 0


def test_best_count_correlation_is_the_plain_correlation_over_a_pack(
        effects: RemovalEffects) -> None:
    """Betting correlation: Pearson's r between tag and EOR over the 52 cards of a pack."""
    for wager in SIDE_BETS:
        count = best_count(effects, wager)
        tags = [count.tags[0 if r >= 10 else r] for r in range(1, 14) for _ in range(4)]
        eors = [float(count.eor[0 if r >= 10 else r]) for r in range(1, 14) for _ in range(4)]
        assert count.betting_correlation == pytest.approx(np.corrcoef(tags, eors)[0, 1])
        assert count.tags[9] < 0
        assert max(abs(t) for t in count.tags) <= 6


def test_counter_kernel_deals_the_same_coups_as_the_simulation_kernel() -> None:
    """A counter who always bets (advantage +1, slope 0) is tallied, over the coups the house
    deals, exactly as `baccarat_kernel.simulate` tallies the same shuffled shoes."""
    t = kernel_tables(RULES)
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    zeros = np.zeros((3, 52))
    bets, coups, house, house_coups, shoes = count_kernel.count_shoes(
        t.base_shoe, 300, state.copy(), t.cut_index, t.after_cut, True, t.burn_after, t.value,
        t.natural, t.player_draws, t.banker_draws, zeros, np.zeros(3), np.zeros(3), np.ones(3))
    classes, sim_shoes = baccarat_kernel.simulate(t.base_shoe, int(house_coups), state.copy(),
                                                  *t.args())
    assert sim_shoes == shoes >= 3
    flat = classes.reshape(baccarat_kernel.COUNT_SHAPE)
    assert (house[0, :3] == flat.sum(axis=(0, 2, 3))).all()
    assert (house[1, :3] == flat.sum(axis=(0, 1, 3))).all()
    assert (house[2] == flat.sum(axis=(0, 1, 2))).all()
    assert coups.sum() > house_coups
    assert bets[0].sum() == coups.sum()


def test_class_nets_follow_the_pay_table_and_the_seed() -> None:
    nets = class_nets(BaccaratRules(paytable=3, jackpot_seed_cents=500_000))
    assert nets["player_9"][:3] == (-1, 5, 12)  # pay table 3: 5 to 1, suited 12 to 1
    assert nets["progressive"] == (-1, 9, 124, 249, 4999)


def test_counting_report_and_the_operator_answer() -> None:
    report = counting_report(RULES, 50_000, seed=7, states=4)
    assert report.coups >= 50_000
    assert [r.wager for r in report.counters] == list(SIDE_BETS)
    for r in report.counters:
        line = r.answer()
        assert "\n" not in line and "at 96.6% penetration" in line
        assert 0 <= r.fraction_bet < 1
    assert report.counters[0].answer().startswith("Player-9: ")
    assert [c.states for c in report.checks] == [4, 4, 4]
    same = counting_report(RULES, 50_000, seed=7, states=4)
    assert same.to_json() == report.to_json()


def test_the_cut_where_the_counter_gets_ahead_is_a_bracket_not_a_run_size_artefact() -> None:
    """"Ahead with 95% confidence from a cut at X" moved with the run's size (81.2% at 2x10^5
    coups, 50.0% at 10^7): the shallowest cut whose interval clears zero is a property of the
    run. The answer now gives the bracket on the cut where the edge turns positive: after the
    deepest cut shown behind, at or before the shallowest shown ahead. Runs of 2x10^5 and
    10^6 coups give brackets that overlap, and the longer run's is no wider."""
    small = counting_report(RULES, 200_000, seed=14, states=2)
    large = counting_report(RULES, 1_000_000, seed=14, states=2)
    for short, long in zip(small.counters, large.counters, strict=True):
        for r in (short, long):
            assert "ahead with 95% confidence from a cut" not in r.answer()
            if r.ahead_from is not None:
                low = 0.0 if r.behind_until is None else r.behind_until
                assert low < r.ahead_from
                assert f"{r.ahead_from:.1%} (95% at each half-deck" in r.answer()
            else:
                assert r.behind_until is None and "the cut from which" not in r.answer()
    p9_short, p9_long = small.counters[0], large.counters[0]
    assert p9_short.ahead_from is not None and p9_long.ahead_from is not None
    lows = [0.0 if r.behind_until is None else r.behind_until for r in (p9_short, p9_long)]
    assert max(lows) < min(p9_short.ahead_from, p9_long.ahead_from)  # the brackets overlap
    assert p9_long.ahead_from - lows[1] <= p9_short.ahead_from - lows[0]
    counters = large.to_json()["counters"]
    assert counters[0]["ahead_from_cut"] == p9_long.ahead_from
    assert counters[0]["behind_until_cut"] == p9_long.behind_until
    assert "needed_penetration" not in counters[0]


def test_cli_counting_json() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["analyze", "baccarat", "--counting", "--coups", "20000",
                                 "--states", "3", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert len(data["effects_of_removal"]) == 52
    assert data["seed"] == 5 and data["coups"] >= 20_000
    assert {c["wager"] for c in data["counters"]} == set(SIDE_BETS)
    assert all(c["answer"].endswith(".") for c in data["counters"])


@pytest.mark.parametrize("extra, message", [
    (["--removed", "As"], "error: --counting starts from a full shoe: leave out --removed"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
     "error: use either --workers (local cores) or --scheduler (a Dask cluster), not both"),
    (["--coups", "1"], "error: --coups must be at least 2, not 1"),
])
def test_cli_counting_refusals(extra: list[str], message: str) -> None:
    result = subprocess.run([sys.executable, "-c", "from cardroom.cli import main; main()",
                             "analyze", "baccarat", "--counting", *extra],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2
    assert result.stderr.strip() == message
