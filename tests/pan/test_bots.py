"""Bots: they never break a rule, and the sound bot collects more than a random player."""

from __future__ import annotations

import json
import math

from typer.testing import CliRunner

from cardroom.cli.app import app
from cardroom.games.pan.sim import simulate

runner = CliRunner()


def test_bots_play_whole_hands_and_chips_are_conserved() -> None:
    """Every bot action goes through verify/can/do, so a rule break would raise here."""
    r = simulate(40, 6, seed=11, kinds=["sound", "random"] * 3)
    assert sum(r.chips) == 0
    assert sum(r.endings.values()) == 40


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
