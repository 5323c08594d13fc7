"""`cardroom report math pan`: the conditions in the first ten cards against a brute force over
every hand of a small pack and against closed forms written from the conditions' definitions
(reference/panguingue.md, "Conditions (pays)"); the chips per hand against the engine's own
tallies; the fee income against WAC 230-15-080 worked by hand."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb, prod

import pytest
from dossier_checks import check_provenance
from typer.testing import CliRunner

from cardroom.analysis.dossier import pan as dossier
from cardroom.analysis.pan_conditions import condition_odds
from cardroom.analysis.pan_sim import payments
from cardroom.cards import Card
from cardroom.cli import app
from cardroom.games.pan.bots import SoundBot
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.driver import play_hand
from cardroom.games.pan.engine import PanHand, SeatSpec
from cardroom.games.pan.melds import conditions_of, meld_kind
from cardroom.games.pan.rules import PanRules

runner = CliRunner()


def held(hand: tuple[Card, ...]) -> set[str]:
    """Every condition (and spades form) some three of these cards make, by the meld rules."""
    out = set()
    for trio in combinations(hand, 3):
        kind = meld_kind(trio)
        if kind is not None:
            for c in conditions_of(trio, kind):
                out.add(c.kind.value)
                if c.spades:
                    out.add(f"{c.kind.value} in spades")
    return out


def test_conditions_match_a_brute_force_over_every_hand_of_a_small_pack() -> None:
    """Three copies of each of the 40 cards (120), four-card hands: every multiset of cards
    weighted by its ways to be dealt, each checked three cards at a time."""
    distinct = sorted(set(pan_pack(PanRules())))
    pack = [c for c in distinct for _ in range(3)]
    ways: Counter[str] = Counter()
    for hand in combinations_with_replacement(distinct, 4):
        w = prod(comb(3, k) for k in Counter(hand).values())
        found = held(hand)
        for label in found:
            ways[label] += w
        if found:
            ways["any condition"] += w
    odds = {o.label: o.probability for o in condition_odds(pack, n=4)}
    assert odds == {label: Fraction(ways[label], comb(120, 4)) for label in odds}
    assert set(odds) == set(ways) and len(odds) == 10


def _pow(p: list[int], k: int, n: int) -> list[int]:
    out = [1] + [0] * n
    for _ in range(k):
        out = [sum(out[i] * p[d - i] for i in range(d + 1) if d - i < len(p)) for d in range(n + 1)]
    return out


def _coef(polys: list[list[int]], n: int) -> int:
    out = [1] + [0] * n
    for p in polys:
        out = [sum(out[i] * p[d - i] for i in range(d + 1) if d - i < len(p)) for d in range(n + 1)]
    return out[n]


def test_conditions_in_ten_cards_match_closed_forms() -> None:
    """320 cards, 8 of each: a one-suit set of a card needs 3 of its 8 copies (12 valle
    cards, 28 non-valle); A-2-3 of a suit needs one of each of its three cards; a mixed valle
    set needs three suits of one valle rank."""
    n = 10
    free = [comb(8, k) for k in range(n + 1)]
    upto2 = [1, 8, 28]
    one = [0, *free[1:]]  # at least one copy

    def absent(group: list[int], groups: int, cards_in_groups: int) -> Fraction:
        return Fraction(_coef([_pow(group, groups, n), _pow(free, 40 - cards_in_groups, n)], n),
                        comb(320, n))

    odds = {o.label: o.probability for o in condition_odds(pan_pack(PanRules()))}
    assert odds["valle_one_suit"] == 1 - absent(upto2, 12, 12)
    assert odds["non_valle_one_suit"] == 1 - absent(upto2, 28, 28)
    assert odds["valle_one_suit in spades"] == 1 - absent(upto2, 3, 3)
    # a suit's A, 2, 3: all hands of its 24 cards less those with each of the three
    suit = [a - b for a, b in zip([comb(24, k) for k in range(n + 1)], _pow(one, 3, n),
                                  strict=True)]
    assert odds["sequence_a23"] == 1 - absent(suit, 4, 12)
    assert odds["sequence_jqk"] == odds["sequence_a23"]
    # a valle rank's four suits, at most two of them present
    rank = [sum(comb(4, s) * _pow(one, s, n)[d] for s in range(3)) for d in range(n + 1)]
    assert odds["valle_mixed"] == 1 - absent(rank, 3, 12)


def test_any_condition_matches_dealt_hands_within_the_interval() -> None:
    """3,000 ten-card hands dealt from a shuffled 320-card pack (a seeded test), checked three
    cards at a time: the exact chance of any condition lies in the 99.9% interval."""
    rng = random.Random(14)
    pack = pan_pack(PanRules())
    hits = sum(bool(held(tuple(rng.sample(pack, 10)))) for _ in range(3_000))
    p = float({o.label: o.probability for o in condition_odds(pack)}["any condition"])
    assert abs(hits / 3_000 - p) < 3.3 * (p * (1 - p) / 3_000) ** 0.5


def test_payments_agree_with_the_engines_tallies() -> None:
    """Tops: one a player. Condition pays: what the seats' own `collected` tallies hold.
    Outs: the winner's gain less the tops and his net condition pays."""
    rng = random.Random(3)
    pack = pan_pack(PanRules())
    checked = 0
    for h in range(12):
        n = 2 + h % 5
        rng.shuffle(pack)
        hand = PanHand(PanRules(), [SeatSpec(f"b{i}", 40) for i in range(n)], dealer=0,
                       pack=list(pack), record=False)
        play_hand(hand, [SoundBot() for _ in range(n)], rng)
        paid = payments(hand)
        assert paid["tops"] == n
        assert paid["conditions"] == sum(sum(s.collected.values()) for s in hand.seats.values())
        assert paid["wagers"] == paid["tops"] + paid["conditions"] + paid["outs"]
        if hand.winner is not None:
            w = hand.winner
            own = sum(hand.seats[w].collected.values())
            paid_by_w = sum(s.collected.get(w, 0) for s in hand.seats.values())
            gain = hand.chips_delta()[w] + 1
            assert paid["outs"] == gain - n - own + paid_by_w
            checked += 1
    assert checked >= 6


def test_fee_income_by_hand() -> None:
    """WAC 230-15-080: six players, 20 hands an hour, 75 chips of wagers a hand at $1: $10 an
    hour a player = $60; $1 a hand a player = $120; 10% of $75 x 20 = $150."""
    assert dossier.fee_income_cents(6, 20, 75.0, 100) == {
        "period of time": 6_000, "per hand": 12_000, "rake": 15_000.0}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], str]:
    out = tmp_path_factory.mktemp("pan") / "pan.html"
    result = runner.invoke(app, ["report", "math", "pan", "--hands", "6", "--seed", "5",
                                 "--hands-per-hour", "30", "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output), out.read_text("utf-8")


def test_cli_dossier_numbers_and_file(small: tuple[dict[str, object], str]) -> None:
    data, html = small
    assert data["hands_per_hour"] == 30 and data["hands_per_seat_count"] == 6
    seats = data["collections_by_seats"]
    assert isinstance(seats, list) and [e["seats"] for e in seats] == list(dossier.SEATS)
    for e in seats:
        assert e["tops"]["chips_per_hand"] == e["seats"]
    fees = data["fee_income_cents_per_hour"]
    assert isinstance(fees, list) and fees[0]["per hand"] == 2 * 100 * 30
    assert html.count("<svg") == 3 and "SIMULATION" in html and "ASSUMPTION" in html
    for outside in ("<script", "<link", "<img", "@import", "src="):
        assert outside not in html
    assert "Conditions in the first ten cards (exact)" in html


@pytest.mark.parametrize("args", [["--hands-per-hour", "0"], ["--commission", "5%"],
                                  ["--decks", "2"]])
def test_cli_refuses_bad_or_foreign_options(args: list[str]) -> None:
    result = subprocess.run([sys.executable, "-c", "from cardroom.cli import main; main()",
                             "report", "math", "pan", "--json", *args],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr


def test_the_dossier_states_its_provenance(small: tuple[dict[str, object], str]) -> None:
    """Through the command line: the JSON and the page both carry it, the command spelling
    out every setting and the seed."""
    data, html = small
    prov = data["provenance"]
    assert isinstance(prov, dict)
    assert "--hands 6 --hands-per-hour 30 --seed 5" in prov["command"]
    check_provenance(prov, html, "pan", [5])
