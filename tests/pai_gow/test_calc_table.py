"""The exact calculator through the precomputed outcome table (issue 14, "Speed"), held to the
direct enumeration it replaces and to the Python house way.

The full-deck table (C(53,7) hands, a minute or two) is too slow for a unit test: the same code
runs here on reduced decks (the player's seven cards and 14-15 others), each cached in a
temporary directory, never in the user's cache. Identity on the full deck is checked by
`bench/bench_pai_gow.py --calc-check N` (figures in docs/benchmarks.md).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from cardroom.analysis import pai_gow_optimal as po
from cardroom.analysis import pai_gow_outcomes
from cardroom.analysis.pai_gow_calc import calculate, direct_counts, table_counts
from cardroom.analysis.pai_gow_outcomes import Advance, outcome_table
from cardroom.cards import Card
from cardroom.cli import app
from cardroom.errors import CardroomError
from cardroom.games.pai_gow.houseway import house_way, set_hand
from cardroom.games.pai_gow.houseway_kernel import compile_house_way
from cardroom.games.pai_gow.settings import validate_seven

runner = CliRunner()


def reduced(seed: int, others: int) -> tuple[list[Card], list[int]]:
    """Seven random cards and a deck of them plus `others` more."""
    codes = random.Random(seed).sample(range(53), 7 + others)
    return [Card.from_code(c) for c in codes[:7]], sorted(codes)


class Bar:
    """A progress bar stand-in that records what it was told."""

    def __init__(self) -> None:
        self.totals: list[int] = []
        self.done = 0

    @contextmanager
    def __call__(self, total: int) -> Iterator[Advance]:
        self.totals.append(total)

        def advance(n: int) -> None:
            self.done += n

        yield advance


@pytest.mark.parametrize(("seed", "way_name", "wheel"), [
    (1, "trump-plaza", False), (2, "ballys", False), (3, "trump-plaza", True),
    (4, "ballys", True), (5, "trump-plaza", False), (6, "ballys", False)])
def test_table_counts_are_identical_to_the_direct_enumeration(tmp_path: Path, seed: int,
                                                                way_name: str,
                                                                wheel: bool) -> None:
    """Clause 10 (both hands must win, copies to the dealer): win/push/loss of every setting
    from the table equal, count for count, those of setting every dealer hand again."""
    seven, deck = reduced(seed, 15)
    way = house_way(way_name)
    table = outcome_table(way, wheel, directory=tmp_path, deck=deck)
    expected = direct_counts(seven, way, wheel, deck)
    assert expected.sum() == comb(15, 7) * sum(1 for row in expected if row.any())
    assert (table_counts(seven, table, wheel) == expected).all()
    result = calculate(seven, way, wheel_second=wheel, table=table)
    assert result.dealer_hands == comb(15, 7)
    assert [(r.tally.win, r.tally.push, r.tally.loss) for r in result.settings] == [
        tuple(int(x) for x in expected[r.index]) for r in result.settings]


def test_table_holds_the_house_way_setting_of_each_hand(tmp_path: Path) -> None:
    """The table's cell of a hand is the (front, back) score of the Python house way's
    setting (`set_hand`), on every hand of a small deck."""
    _, deck = reduced(7, 3)  # ten cards: 120 hands
    way = house_way("trump-plaza")
    table = outcome_table(way, False, directory=tmp_path, deck=deck)
    assert len(table.cells) == comb(10, 7)
    ranks = 0
    for rank in range(comb(10, 7)):
        # unrank the colex rank into positions
        left, positions = rank, []
        for k in range(7, 0, -1):
            m = k - 1
            while comb(m + 1, k) <= left:
                m += 1
            positions.append(m)
            left -= comb(m, k)
        cards = [Card.from_code(deck[i]) for i in positions]
        setting = set_hand(validate_seven(cards), way).setting
        cell = int(table.cells[rank])
        assert (table.front[cell], table.back[cell]) == (setting.front_score,
                                                          setting.back_score)
        ranks += 1
    assert ranks == 120


def test_table_is_counted_once_cached_and_counted_again_when_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: a one-time precomputation, cached and versioned: the second use reads the
    file (no count, no progress bar); a table of another FORMAT or a damaged file is counted
    again."""
    _, deck = reduced(8, 12)
    way = house_way("trump-plaza")
    bar = Bar()
    first = outcome_table(way, False, directory=tmp_path, deck=deck, progress=bar)
    assert bar.totals == [comb(19, 7)] and bar.done == comb(19, 7)
    files = sorted(p.suffix for p in tmp_path.iterdir())
    assert files == [".npy", ".npz"]
    again = outcome_table(way, False, directory=tmp_path, deck=deck, progress=bar)
    assert bar.totals == [comb(19, 7)]  # read, not counted
    assert (again.cells == first.cells).all() and (again.front == first.front).all()
    assert isinstance(again.cells.base, np.memmap)

    monkeypatch.setattr(pai_gow_outcomes, "FORMAT", pai_gow_outcomes.FORMAT + 1)
    outcome_table(way, False, directory=tmp_path, deck=deck, progress=bar)
    assert len(bar.totals) == 2  # another format: counted again
    outcome_table(way, False, directory=tmp_path, deck=deck, progress=bar)
    assert len(bar.totals) == 2

    npy = next(tmp_path.glob("*.npy"))
    npy.write_bytes(npy.read_bytes()[:-10])
    rebuilt = outcome_table(way, False, directory=tmp_path, deck=deck, progress=bar)
    assert len(bar.totals) == 3 and (rebuilt.cells == first.cells).all()


def test_calc_cli_reads_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pai-gow calc` goes through the outcome table (here a reduced deck's) and reports
    exactly the direct counts; `--direct` is the full enumeration (test_cli_calc)."""
    seven, deck = reduced(9, 14)
    real = outcome_table

    def small(way: Any, wheel: bool, **kw: Any) -> Any:
        return real(way, wheel, directory=tmp_path, deck=deck, **kw)

    monkeypatch.setattr("cardroom.cli.pai_gow.outcome_table", small)
    text = " ".join(str(c) for c in seven)
    res = runner.invoke(app, ["pai-gow", "calc", text, "--house-way", "ballys", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["dealer_hands"] == comb(14, 7)
    expected = direct_counts(seven, house_way("ballys"), False, deck)
    got = sorted((s["win"], s["push"], s["loss"]) for s in data["settings"])
    assert got == sorted(tuple(int(x) for x in row) for row in expected if row.any())


def test_calc_cli_answers_several_hands_in_one_command(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Several hands share one start-up: a list, one answer a hand, each exactly its direct
    counts; a bad hand anywhere in the list is refused before any is counted."""
    _, deck = reduced(9, 14)
    real = outcome_table
    monkeypatch.setattr("cardroom.cli.pai_gow.outcome_table", lambda way, wheel, **kw: real(
        way, wheel, directory=tmp_path, deck=deck, **kw))
    cards = [Card.from_code(c) for c in deck]
    first, second = cards[:7], cards[-7:]
    texts = [" ".join(str(c) for c in hand) for hand in (first, second)]
    res = runner.invoke(app, ["pai-gow", "calc", *texts, "--house-way", "ballys", "--json"])
    assert res.exit_code == 0, res.output
    answers = json.loads(res.output)
    assert [a["cards"] for a in answers] == [[str(c) for c in h] for h in (first, second)]
    for hand, answer in zip((first, second), answers, strict=True):
        rest = [c for c in deck if c not in {card.code for card in hand}]
        assert answer["dealer_hands"] == comb(len(rest), 7)
        expected = direct_counts(hand, house_way("ballys"), False, deck)
        assert sorted((s["win"], s["push"], s["loss"]) for s in answer["settings"]) == sorted(
            tuple(int(x) for x in row) for row in expected if row.any())
    bad = runner.invoke(app, ["pai-gow", "calc", texts[0], "As Kd 9c", "--json"])
    assert isinstance(bad.exception, CardroomError) and bad.output == ""
    assert str(bad.exception) == "a Pai Gow hand has 7 cards, not 3"


@pytest.mark.parametrize("wheel", [False, True])
def test_optimal_setters_table_read_off_the_outcome_table(tmp_path: Path, wheel: bool) -> None:
    """The optimal setter's dealer distribution read off the outcome table (one count per cell)
    is the one its own enumeration counts by setting every hand the house way again; the cache
    lookup `dealer_table` makes finds only a table of the same wheel rule."""
    _, deck = reduced(21, 16)
    way = house_way("trump-plaza")
    fvals, bvals = po.front_values(), po.back_values(int(wheel))
    expected = po.enumerate_joint(deck, compile_house_way(way), int(wheel), fvals, bvals)
    table = outcome_table(way, wheel, directory=tmp_path, deck=deck)
    derived = table.dealer_table(wheel)
    assert (derived.fvals == fvals).all() and (derived.bvals == bvals).all()
    assert (derived.joint() == expected).all()
    assert derived.total == comb(23, 7)
    assert pai_gow_outcomes.cached_outcome_table(way, wheel, tmp_path, deck) is not None
    assert pai_gow_outcomes.cached_outcome_table(way, not wheel, tmp_path, deck) is None
