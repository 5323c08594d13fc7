"""The compiled coup kernel against the rules and the reference coup engine, shoe by shoe.

Issue 2, "Simulation": the hot loop is checked against the reference Python coup engine on the
same shoes, with identical results. The tableau cells and whole coups come from the fixtures
worked by hand from ../shared/rules/mini-baccarat.txt and super-9-baccarat.wsgc.txt.
"""

from __future__ import annotations

import csv
import itertools
import tomllib
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from fixture_files import FIXTURES

from cardroom.analysis import baccarat_kernel as kernel
from cardroom.analysis.baccarat_sim import (
    kernel_deal,
    reference_deal,
    simulate,
)
from cardroom.analysis.xoshiro import next_output
from cardroom.cards import Card, Rank, Suit, parse_cards
from cardroom.errors import RulesError
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.houserules import build_rules
from cardroom.shoe import BurnMode, SeededRandom, fisher_yates

CELLS = list(csv.DictReader((FIXTURES / "baccarat" / "tableau_cells.csv").open()))
COUPS: list[dict[str, Any]] = tomllib.loads(
    (FIXTURES / "baccarat" / "coups.toml").read_text())["coup"]
NO_BURN = BaccaratRules(burn=BurnMode.NONE)


def shoe_starting_with(prefix: list[Card], rules: BaccaratRules) -> list[int]:
    """A whole shoe (card codes) whose first cards are `prefix`, the rest in a fixed order."""
    rest = Counter(c.code for c in rules.shoe_spec.cards())
    rest.subtract(c.code for c in prefix)
    assert min(rest.values()) >= 0, "the prefix uses a card more often than the shoe holds it"
    return [c.code for c in prefix] + sorted(rest.elements())


def shuffled_orders(rules: BaccaratRules, n: int, seed: int) -> list[list[int]]:
    src = SeededRandom(seed)
    cards = rules.shoe_spec.cards()
    return [[c.code for c in fisher_yates(cards, src)] for _ in range(n)]


def _value(code: int) -> int:
    rank = code // 4 + 1
    return 0 if rank >= 10 else rank


def test_kernel_deals_random_shoes_identically_to_play_coup_and_hits_every_tableau_cell() -> None:
    """Issue 2: identical results, not just similar: every card of every coup, the totals and
    the class tallies, on 250 shuffled 8-deck shoes dealt to the cut card."""
    rules = BaccaratRules()
    orders = shuffled_orders(rules, 250, seed=2024)
    got, got_counts = kernel_deal(orders, rules)
    want, want_counts = reference_deal(orders, rules)
    assert len(want) > 250 * 70
    assert got == want
    assert np.array_equal(got_counts, want_counts)
    # Every cell of the tableau was exercised by these shoes (so "identical" covers them all).
    cells, player_totals = set(), set()
    for _, player, banker, _, _ in want:
        p2 = (_value(player[0]) + _value(player[1])) % 10
        b2 = (_value(banker[0]) + _value(banker[1])) % 10
        player_totals.add(p2)
        if p2 < 8 and b2 < 8:
            cells.add((b2, _value(player[2]) if len(player) == 3 else "stood"))
    assert player_totals == set(range(10))
    assert cells == {(int(r["banker_total"]), r["player_third"] if r["player_third"] == "stood"
                      else int(r["player_third"])) for r in CELLS}
    assert len(cells) == 88


@pytest.mark.parametrize("rules", [
    BaccaratRules(decks=6, jackpot=False),
    BaccaratRules(decks=1, jackpot=False, cut_card_from_end=16),
    BaccaratRules(burn=BurnMode.NONE, coups_after_cut_card=0),
    BaccaratRules(burn=BurnMode.FIXED, burn_count=5, cut_card_from_end=60),
    BaccaratRules(cut_card_from_end=11),
], ids=["6-decks", "1-deck", "no-burn-no-extra-coup", "fixed-burn", "cut-11"])
def test_kernel_matches_reference_under_other_house_rules(rules: BaccaratRules) -> None:
    """Burn, cut card and the coup after it follow the house rules the same way in both."""
    orders = shuffled_orders(rules, 40, seed=rules.decks * 1000 + rules.cut_card_from_end)
    got, got_counts = kernel_deal(orders, rules)
    want, want_counts = reference_deal(orders, rules)
    assert got == want
    assert np.array_equal(got_counts, want_counts)


@pytest.mark.parametrize("row", CELLS,
                         ids=lambda r: f"bank{r['banker_total']}-p{r['player_third']}")
def test_kernel_third_card_rule_cell(row: dict[str, str]) -> None:
    """mini-baccarat.txt "Third Card Rules", one cell of the table per test (fixture)."""
    b, third = int(row["banker_total"]), row["player_third"]
    king = Card(Rank.KING, Suit.CLUBS)
    banker = [Card(Rank(b), Suit.HEARTS) if b else king, Card(Rank.QUEEN, Suit.HEARTS)]
    if third == "stood":
        player = [Card(Rank.SIX, Suit.DIAMONDS), king]  # 6: "Player hand must stand"
        dealt = [player[0], banker[0], player[1], banker[1]]
    else:
        player = [king, Card(Rank.TEN, Suit.DIAMONDS)]  # 0: "Player hand must draw"
        p3 = Card(Rank(int(third)) if int(third) else Rank.JACK, Suit.SPADES)
        dealt = [player[0], banker[0], player[1], banker[1], p3]
    records, _ = kernel_deal([shoe_starting_with(dealt, NO_BURN)], NO_BURN)
    _, player_codes, banker_codes, _, bt = records[0]
    assert player_codes[:2] == (player[0].code, player[1].code)
    assert banker_codes[:2] == (banker[0].code, banker[1].code)
    assert len(player_codes) == (2 if third == "stood" else 3)
    assert len(banker_codes) == (3 if row["banker_draws"] == "yes" else 2), row["clause"]
    if row["banker_draws"] == "no":
        assert bt == b


def test_kernel_deals_the_hand_worked_transcripts() -> None:
    """Every coup of coups.toml in one shoe: the kernel's cards, totals and winners."""
    cards = [c for coup in COUPS for c in parse_cards(coup["cards"])]
    records, _ = kernel_deal([shoe_starting_with(cards, NO_BURN)], NO_BURN)
    for coup, (_, player, banker, pt, bt) in zip(COUPS, records, strict=False):
        dealt = parse_cards(coup["cards"])
        assert sorted(player + banker) == sorted(c.code for c in dealt), coup["why"]
        assert (pt, bt) == (coup["player_total"], coup["banker_total"]), coup["why"]
        winner = "tie" if pt == bt else ("player" if pt > bt else "banker")
        assert winner == coup["winner"], coup["why"]


def test_burn_first_card_value_then_the_first_coup() -> None:
    """Burn procedure (house rule first-card-value): the 5 exposed, five more burned, then the
    coup of mini-baccarat.txt: player 4 draws an 8 (total 2), banker 3 stands on a player's
    third card of 8, banker wins 3 to 2."""
    rules = BaccaratRules()
    burn = parse_cards("5c 2d 2d 2d 2d 2d")
    coup = parse_cards("2c 3d 2h Kc 8s")
    records, counts = kernel_deal([shoe_starting_with(burn + coup, rules)], rules)
    first = records[0]
    assert first[1:] == ((coup[0].code, coup[2].code, coup[4].code),
                         (coup[1].code, coup[3].code), 2, 3)
    assert int(counts.sum()) == len(records)


@pytest.mark.parametrize(("cards", "klass"), [
    ("As As 8s 8s", (2, 2, 2, 4)),   # "same suited 2 card ACE-8": jackpot
    ("Ah Ac 8h 8c", (2, 2, 2, 3)),   # "Ace-8 in one suite and Banker Ace-8 suited in another"
    ("2s 3h 7s 6h", (2, 2, 2, 2)),   # the document's 125-for-1 example
    ("2s 4h 7s 4c", (0, 2, 0, 1)),   # one suited 9: 10-for-1; banker 8 unsuited
    ("9s Kh Td 9c", (2, 1, 1, 0)),   # two unsuited nines: no progressive award
    ("2s Kh 3s 2h 4s 7h", (2, 2, 2, 2)),  # three-card suited nines: 125-for-1, not the top two
    ("As Kh 8s 9c", (2, 2, 1, 1)),   # suited A-8 against an unsuited 9: 10-for-1
], ids=["jackpot", "250", "125", "10", "unsuited", "three-card", "ace-eight-vs-nine"])
def test_kernel_classifies_super9_awards(cards: str, klass: tuple[int, int, int, int]) -> None:
    """super-9-baccarat.wsgc.txt, "Jackpot pay table" and Player-9/Banker-9: the tally class
    (winner, player nine class, banker nine class, progressive award) of one coup."""
    dealt = parse_cards(cards)
    # Two decks (for the two aces of spades), the cut card right after this coup, no coup
    # after it: the shoe deals exactly this one coup.
    rules = BaccaratRules(decks=2, jackpot=False, burn=BurnMode.NONE, coups_after_cut_card=0,
                          cut_card_from_end=104 - len(dealt))
    records, counts = kernel_deal([shoe_starting_with(dealt, rules)], rules)
    assert len(records) == 1
    expected = np.zeros(kernel.COUNT_SHAPE, dtype=np.int64)
    expected[klass] = 1
    assert np.array_equal(counts.reshape(kernel.COUNT_SHAPE), expected)


def test_shuffle_is_a_uniform_permutation() -> None:
    """The simulation-only shuffle: all 24 orders of four cards, about equally often (a
    chi-square test far from its 0.1% critical value of 49.7 with 23 degrees of freedom)."""
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    seen: Counter[tuple[int, ...]] = Counter()
    deck = np.arange(4, dtype=np.int64)
    for _ in range(48_000):
        deck = np.arange(4, dtype=np.int64)
        kernel.shuffle(deck, state)
        seen[tuple(deck.tolist())] += 1
    assert set(seen) == set(itertools.permutations(range(4)))
    chi2 = sum((n - 2000) ** 2 / 2000 for n in seen.values())
    assert chi2 < 49.7
    shoe = np.array([c.code for c in BaccaratRules().shoe_spec.cards()], dtype=np.int64)
    before = sorted(shoe.tolist())
    kernel.shuffle(shoe, state)
    assert sorted(shoe.tolist()) == before


def test_simulation_deals_whole_shoes_to_the_cut_card() -> None:
    """Issue 2: "deals real shuffled shoes to the cut card": about 81 coups per 8-deck shoe
    (402 cards before the cut card, less the burn, about 4.94 cards a coup)."""
    report = simulate(BaccaratRules(), 200_000, seed=11)
    assert int(report.counts.sum()) == 200_000
    assert 78 < 200_000 / report.shoes < 84


def test_rules_under_which_the_shoe_can_run_out_are_refused() -> None:
    """A cut card 6 cards from the end with a coup after it can leave too few cards."""
    with pytest.raises(RulesError, match="at least 11"):
        build_rules(BaccaratRules, {"cut_card_from_end": 6})
    with pytest.raises(RulesError, match="after the burn"):
        build_rules(BaccaratRules, {"decks": 1, "jackpot": False, "cut_card_from_end": 45})


def _reference_shuffle(n: int, state: list[int]) -> tuple[list[int], int, list[int]]:
    """The documented shuffle written plainly in Python: xoshiro256** outputs (the one
    generator, `analysis.xoshiro`, itself checked against the reference outputs in
    tests/test_xoshiro.py) split into 32-bit halves (high first), one half per attempt,
    Lemire's multiply-and-reject for each bound (Fisher-Yates from the last position down).
    Returns the order of range(n), how many halves fell within `bound` of a rejection (the
    attempts the kernel takes one at a time) and the PRNG state after it."""
    s = np.array(state, dtype=np.uint64)

    def halves() -> Iterator[int]:
        while True:
            x = int(next_output(s))
            yield x >> 32
            yield x & 0xFFFFFFFF

    deck, near, source = list(range(n)), 0, halves()
    for i in range(n - 1, 0, -1):
        bound = i + 1
        while True:
            m = next(source) * bound
            low = m & 0xFFFFFFFF
            near += low < bound
            if low >= (1 << 32) % bound:  # = (2**32 - bound) % bound: the rejection zone
                break
        j = m >> 32
        deck[i], deck[j] = deck[j], deck[i]
    return deck, near, s.tolist()


def test_shuffle_equals_the_plain_algorithm_including_its_rare_rejections() -> None:
    """The kernel's shuffle takes two swaps from one 64-bit output when neither half is near
    the rejection zone; on a deck of 2**18 cards (where near-rejections happen a dozen times a
    shuffle) it gives exactly the permutation and the final PRNG state of the plain
    one-half-at-a-time algorithm written plainly above."""
    n = 1 << 18
    state = [0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB, 14]
    want, near, after = _reference_shuffle(n, state)
    assert near >= 3  # the slow path was taken
    deck = np.arange(n, dtype=np.int64)
    words = np.array(state, dtype=np.uint64)
    kernel.shuffle(deck, words)
    assert deck.tolist() == want
    assert words.tolist() == after
