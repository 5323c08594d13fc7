"""The fast optimal setter (EV-maximising against the house way's full-deck distribution):
the table's counts, the compiled kernel against the Python reference, the disk cache."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from fixture_files import FIXTURES

from cardroom.analysis import pai_gow_optimal as po
from cardroom.cards import Card, parse_cards
from cardroom.games.pai_gow.evaluate import evaluate2, evaluate5
from cardroom.games.pai_gow.houseway import house_way, set_hand
from cardroom.games.pai_gow.houseway_kernel import compile_house_way
from cardroom.games.pai_gow.settings import all_settings, setting_at

CASE_HANDS = sorted({c["hand"] for c in tomllib.loads(
    (FIXTURES / "pai_gow" / "house_way_cases.toml").read_text())["case"]})
DECK = [Card.from_code(c) for c in range(53)]


def _codes(cards: list[Card]) -> npt.NDArray[np.int64]:
    return np.array([c.code for c in cards], dtype=np.int64)


def _random_hands(n: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    return [rng.sample(DECK, 7) for _ in range(n)]


@pytest.fixture(scope="module")
def fvals() -> npt.NDArray[np.int64]:
    return po.front_values()


@pytest.fixture(scope="module")
def bvals0() -> npt.NDArray[np.int64]:
    return po.back_values(0)


def _sample_table(wheel: int, fvals: npt.NDArray[np.int64], bvals: npt.NDArray[np.int64],
                  n: int = 20_000) -> po.DealerTable:
    hands = np.array([_codes(h) for h in _random_hands(n, 100 + wheel)])
    p = compile_house_way(house_way("trump-plaza"))
    return po.DealerTable.from_joint(fvals, bvals,
                                     po.joint_from_hands(hands, p, wheel, fvals, bvals))


def test_score_values_cover_the_deck(fvals: npt.NDArray[np.int64],
                                     bvals0: npt.NDArray[np.int64]) -> None:
    """13 pairs and C(13,2) = 78 unpaired two-card hands; five-card: the 7,462 classes of the
    standard deck plus five aces (the joker adds no other class)."""
    assert len(fvals) == 13 + 78
    assert len(bvals0) == 7462 + 1
    assert list(bvals0) == sorted(set(bvals0.tolist()))


def test_enumeration_counts_every_hand_of_a_deck_set_by_the_reference_house_way(
        fvals: npt.NDArray[np.int64], bvals0: npt.NDArray[np.int64]) -> None:
    """All C(11,7) = 330 hands of an 11-card deck (joker, pairs, straights): the kernel's
    cells are the reference engine's house-way front and back scores."""
    deck = [c.code for c in parse_cards("JK As Ad Kc Kh Qs Jd Tc 9h 5s 2c")]
    way = house_way("trump-plaza")
    joint = po.enumerate_joint(deck, compile_house_way(way), 0, fvals, bvals0)
    expected = np.zeros_like(joint)
    for hand in combinations(sorted(deck), 7):
        s = set_hand([Card.from_code(c) for c in hand], way).setting
        expected[np.searchsorted(fvals, s.front_score), np.searchsorted(bvals0, s.back_score)] += 1
    assert int(joint.sum()) == 330
    assert np.array_equal(joint, expected)


def test_table_counts_are_wins_and_losses_on_both_hands_copies_to_the_banker(
        fvals: npt.NDArray[np.int64], bvals0: npt.NDArray[np.int64]) -> None:
    """Rules clause 10: the player wins with both hands strictly higher (a copy is the
    banker's), loses with both lower or equal; as banker the copies are won."""
    way = house_way("trump-plaza")
    dealer_hands = _random_hands(300, 7)
    dealer = [set_hand(h, way).setting for h in dealer_hands]
    scores = [(s.front_score, s.back_score) for s in dealer]
    joint = po.joint_from_hands(np.array([_codes(h) for h in dealer_hands]),
                                compile_house_way(way), 0, fvals, bvals0)
    table = po.DealerTable.from_joint(fvals, bvals0, joint)
    probes = [s for h in _random_hands(40, 8) for s in all_settings(h)] + dealer
    for s in probes:
        pf, pb = s.front_score, s.back_score
        win = sum(pf > f and pb > b for f, b in scores)
        loss = sum(pf <= f and pb <= b for f, b in scores)
        assert table.counts(pf, pb) == (win, loss)
        bwin = sum(pf >= f and pb >= b for f, b in scores)
        bloss = sum(pf < f and pb < b for f, b in scores)
        assert table.counts(pf, pb, banker=True) == (bwin, bloss)


def test_single_dealer_hand_table_picks_the_first_setting_that_wins_both(
        fvals: npt.NDArray[np.int64], bvals0: npt.NDArray[np.int64]) -> None:
    """A dealer who always holds 9-8 in front and a pair of twos in back: the aces stay
    together in back and any front above 9-8 wins both; the first such setting in the fixed
    order is K-Q. Splitting the aces wins only the front (a push)."""
    joint = np.zeros((len(fvals), len(bvals0)), dtype=np.int64)
    front = evaluate2(parse_cards("9h 8h"))  # type: ignore[arg-type]
    back = evaluate5(parse_cards("2h 2d Kd 7s 4c"))  # type: ignore[arg-type]
    joint[np.searchsorted(fvals, front), np.searchsorted(bvals0, back)] = 5
    table = po.DealerTable.from_joint(fvals, bvals0, joint)
    hand = parse_cards("As Ad Kc Qh 9s 5d 2c")
    index = po.optimal_reference(hand, table, Fraction(1, 20))
    assert setting_at(hand, index).front == tuple(parse_cards("Kc Qh"))
    keep, den = po.commission_weights(Fraction(1, 20))
    assert po.optimal_index(_codes(hand), fvals, bvals0, table.below, table.total, keep, den,
                            0, 0) == index


@pytest.mark.parametrize("wheel", [0, 1])
def test_kernel_matches_reference_on_fixtures_and_random_hands(
        wheel: int, fvals: npt.NDArray[np.int64]) -> None:
    """Compiled setter = Python reference (exact Fractions), as player and as banker, with
    and without commission, on every house-way fixture hand and random hands."""
    bvals = po.back_values(wheel)
    table = _sample_table(wheel, fvals, bvals)
    hands = [parse_cards(h) for h in CASE_HANDS] + _random_hands(60, 40 + wheel)
    arr = np.array([_codes(h) for h in hands])
    for commission in (Fraction(1, 20), Fraction(0)):
        keep, den = po.commission_weights(commission)
        for banker in (0, 1):
            got = po.optimal_batch(arr, fvals, bvals, table.below, table.total, keep, den,
                                   wheel, banker)
            want = [po.optimal_reference(h, table, commission, bool(wheel), bool(banker))
                    for h in hands]
            assert got.tolist() == want
            pairs = zip(hands, want, strict=True)
            assert not any(setting_at(h, i, bool(wheel)).is_foul for h, i in pairs)


def test_table_cached_on_disk_and_recounted_when_damaged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        fvals: npt.NDArray[np.int64], bvals0: npt.NDArray[np.int64]) -> None:
    calls: list[int] = []

    def fake_enumerate(deck: object, p: object, wheel: int, fv: npt.NDArray[np.int64],
                       bv: npt.NDArray[np.int64], progress: bool) -> npt.NDArray[np.int64]:
        calls.append(wheel)
        joint = np.zeros((len(fv), len(bv)), dtype=np.int64)
        joint[3, 5] = po.ALL_HANDS
        return joint

    monkeypatch.setattr(po, "enumerate_joint", fake_enumerate)
    monkeypatch.setattr(po, "back_values", lambda wheel: bvals0)
    way = house_way("trump-plaza")
    first = po.dealer_table(way, directory=tmp_path)
    second = po.dealer_table(way, directory=tmp_path)
    assert calls == [0] and np.array_equal(first.below, second.below)
    assert second.total == po.ALL_HANDS
    [path] = tmp_path.glob("*.npz")
    path.write_bytes(b"not a table")
    po.dealer_table(way, directory=tmp_path)
    assert calls == [0, 0]
    po.dealer_table(house_way("ballys"), directory=tmp_path)  # another way, another file
    assert calls == [0, 0, 0] and len(list(tmp_path.glob("*.npz"))) == 2
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    table = po.dealer_table(way, directory=blocked / "cache")  # cannot cache: still answers
    assert table.total == po.ALL_HANDS and calls == [0, 0, 0, 0]


def test_packed_table_round_trip_for_worker_processes(
        fvals: npt.NDArray[np.int64], bvals0: npt.NDArray[np.int64]) -> None:
    table = _sample_table(0, fvals, bvals0, n=2_000)
    packed = table.packed()
    again = packed.unpack()
    assert np.array_equal(again.below, table.below) and again.total == table.total == 2_000
    assert packed.key() == table.packed().key()


def test_count_advances_its_progress_bar_by_every_hand(
        monkeypatch: pytest.MonkeyPatch, fvals: npt.NDArray[np.int64],
        bvals0: npt.NDArray[np.int64]) -> None:
    """The one-time count moves its progress bar in batches that add up to every hand."""
    steps: list[int] = []
    shown: list[bool] = []

    @contextmanager
    def fake_bar(enabled: bool, total: int, description: str) -> Iterator[Callable[[int], None]]:
        shown.append(enabled)
        yield steps.append
        assert sum(steps) == total == comb(12, 7)

    monkeypatch.setattr(po, "progress_bar", fake_bar)
    deck = list(range(0, 53, 4))[:12]
    joint = po.enumerate_joint(deck, compile_house_way(house_way("trump-plaza")), 0, fvals,
                               bvals0, progress=True)
    assert int(joint.sum()) == comb(12, 7) and shown == [True] and len(steps) > 1
