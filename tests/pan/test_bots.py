"""Bots: they never break a rule, and the sound bot collects more than a random player."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from itertools import pairwise

import pytest
from typer.testing import CliRunner

from cardroom.analysis import pan_sim, parallel
from cardroom.analysis.pan_sim import simulate
from cardroom.cards import Card
from cardroom.cli import app, main
from cardroom.games.pan.driver import PanTable
from cardroom.games.pan.engine import PanHand, SeatSpec
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.table import next_dealer

runner = CliRunner()


def test_bots_play_whole_hands_and_chips_are_conserved() -> None:
    """Every bot action goes through the engine (checked, or unchecked from its own legal
    lists: test_bot_fast_path plays the same hands checked), so a rule break would raise."""
    r = simulate(40, 6, seed=11, kinds=["sound", "random"] * 3)
    assert sum(r.chips) == 0
    assert sum(r.endings.values()) == 40


def test_simulation_plays_each_chunk_at_the_one_table_driver(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20: the simulation plays as the room and the terminal do, through
    `driver.PanTable`: each hand of a chunk is dealt from the pack the hand before left (with
    the house rules' packet reshuffle the stock's unseen top keeps its order on top of the
    next pack) and the winner is first hand. (On the engine: sound bots at every seat
    play on the compiled kernel by default, which makes the same packs, test_kernel.)"""
    dealt: list[PanHand] = []

    class Recording(PanTable):
        def deal(self, rules: PanRules, seats: Sequence[SeatSpec], dealer: int,
                 pack: Sequence[Card] | None = None, record: bool = True) -> PanHand:
            hand = super().deal(rules, seats, dealer, pack, record)
            dealt.append(hand)
            return hand

    monkeypatch.setattr(pan_sim, "PanTable", Recording)
    r = simulate(4, 3, seed=4, rules=PanRules(reshuffle="packet"), chunk_hands=4,
                 compiled=False)
    assert r.hands == 4 and len(dealt) == 4 and sum(r.chips) == 0
    for before, after in pairwise(dealt):
        stock_top_first = before.stock[::-1]
        used = len(before.pack) - len(before.stock)
        kept = stock_top_first[:len(stock_top_first) - used]
        assert len(kept) > 150 and list(after.pack[:len(kept)]) == kept
        assert after.dealer == next_dealer(3, before.winner, before.dealer)


def test_sound_bot_collects_more_than_random_legal_player() -> None:
    """Seats alternate sound/random so both see every position; 300 hands, a margin of
    several standard errors (the 10,000-hand run is in bench/bench_pan.py)."""
    r = simulate(300, 4, seed=5, kinds=["sound", "random", "sound", "random"])
    sound = (r.chips[0] + r.chips[2]) / 600
    rnd = (r.chips[1] + r.chips[3]) / 600
    assert sound > 0 > rnd
    # per-hand chip swings are within about +-20 chips: a crude standard error bound
    assert sound - rnd > 6 * 20 / math.sqrt(600)


def test_cli_simulate_pan_json() -> None:
    res = runner.invoke(app, ["simulate", "pan", "--hands", "10", "--players", "3",
                              "--random", "1", "--json"])
    assert res.exit_code == 0, res.stdout
    data = json.loads(res.stdout)
    assert data["hands"] == 10 and len(data["seats"]) == 3
    assert data["seats"][0]["bot"] == "random" and "conditions_per_hand" in data


def test_cli_simulate_pan_bad_players() -> None:
    res = runner.invoke(app, ["simulate", "pan", "--players", "16"])
    assert res.exit_code != 0


def test_cli_play_pan_in_the_terminal(tmp_path: object) -> None:
    res = runner.invoke(app, ["play", "pan", "--bots", "2", "--seed", "3"],
                        input="play\ndraw\nhand\ndiscard\nbogus\nquit\n")
    assert res.exit_code == 0, res.stdout
    assert "your hand" in res.stdout and "commands" in res.stdout


def _result(r: object) -> dict[str, object]:
    data = r.to_json()  # type: ignore[attr-defined]
    return {k: v for k, v in data.items() if k not in ("seconds", "hands_per_second", "workers")}


def test_simulate_same_seed_same_result_on_one_or_two_workers() -> None:
    """Seeded chunks (cardroom.analysis.parallel): the chunks and their seeds depend on the
    hands and the seed only, so two local processes give the one-process answer."""
    kinds = ["sound", "random", "sound"]
    one = simulate(12, 3, seed=9, kinds=kinds, chunk_hands=4)
    two = simulate(12, 3, seed=9, kinds=kinds, chunk_hands=4, workers=2)
    assert _result(one) == _result(two)
    assert sum(one.chips) == 0 and one.hands == 12
    assert _result(simulate(12, 3, seed=10, kinds=kinds, chunk_hands=4)) != _result(one)


def test_runs_inside_a_worker_pool_share_its_processes_and_give_the_same_answer() -> None:
    """Issue 14 (a dossier in under a minute): the runs of a report share one pool of worker
    processes (`parallel.worker_pool`) instead of starting their own, with the same results."""
    kinds = ["sound", "sound"]
    alone = [simulate(8, 2, seed=s, kinds=kinds, chunk_hands=4) for s in (3, 4)]
    with parallel.worker_pool(2):
        pool = parallel._SHARED[-1][1]
        shared = [simulate(8, 2, seed=3, kinds=kinds, chunk_hands=4, workers=2)]
        processes = set(pool._processes)  # type: ignore[attr-defined]
        shared.append(simulate(8, 2, seed=4, kinds=kinds, chunk_hands=4, workers=2))
        assert set(pool._processes) == processes and processes  # type: ignore[attr-defined]
        with parallel.worker_pool(2):  # nested: the same pool
            assert len(parallel._SHARED) == 1 and parallel._SHARED[0][1] is pool
    assert parallel._SHARED == []
    assert [_result(r) for r in shared] == [_result(r) for r in alone]


def _main(args: list[str], monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["cardroom", *args])
    with pytest.raises(SystemExit) as e:
        main()
    return int(e.value.code or 0), capsys.readouterr().err


def test_cli_simulate_pan_workers_and_scheduler_are_exclusive(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad options are one-line errors with exit status 2, and nothing runs."""
    code, err = _main(["simulate", "pan", "--hands", "5", "--workers", "2",
                       "--scheduler", "tcp://127.0.0.1:1"], monkeypatch, capsys)
    assert code == 2 and "not both" in err
    code, err = _main(["simulate", "pan", "--hands", "5", "--workers", "0"], monkeypatch,
                      capsys)
    assert code == 2 and "--workers must be at least 1" in err


def test_cli_simulate_pan_text_reports_intervals() -> None:
    res = runner.invoke(app, ["simulate", "pan", "--hands", "5", "--players", "2",
                              "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "95% interval" in res.output and "1 local worker" in res.output
