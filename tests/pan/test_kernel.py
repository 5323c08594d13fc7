"""The compiled Pan hand (`games.pan.kernel`, issue 24 "Bots on the protocol": a compiled bot
kernel checked hand by hand against the engine) plays every hand exactly as the engine and
the table driver play it with a sound bot at every seat: the same winner, ending, turns,
chips, pays and conditions, and the same stock left (so the same next pack), on seeded packs
at 2, 5 and 8 seats; and the simulation's reports are the same on the kernel as on the
engine, a rare rule left to the engine (`FALLBACK`) included."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from cardroom.analysis.pan_sim import counted, payments, simulate
from cardroom.cards import Card
from cardroom.games.pan import errors as R
from cardroom.games.pan import kernel, kernel_pack
from cardroom.games.pan.bots import SoundBot
from cardroom.games.pan.cards import card_key, pan_pack
from cardroom.games.pan.driver import RngSource, advance
from cardroom.games.pan.engine import PanHand, SeatSpec
from cardroom.games.pan.events import Forced, Took
from cardroom.games.pan.kernel_melds import (
    BORROW,
    LAY,
    U_B,
    U_H,
    U_KIND,
    U_MELD,
    U_NB,
    U_NH,
    U_WIDTH,
    card_uses,
    set_order,
    tables,
)
from cardroom.games.pan.melds import MeldKind
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.uses import Use
from cardroom.games.pan.uses import card_uses as engine_uses
from cardroom.shoe import fisher_yates

RULES = PanRules()
TABS = tables(RULES)


def _keys(cards: Any) -> np.ndarray[Any, np.dtype[np.int64]]:
    return np.array([card_key(c) for c in cards], np.int64)


def test_set_order_is_the_order_python_iterates_a_set_of_cards() -> None:
    """The borrowings from a set follow `set(cards)`'s order in the engine (uses._from_set),
    so the kernel reproduces it: the same distinct cards in the same order, for lists of
    repeated cards of every size a hand or meld reaches."""
    rng = random.Random(5)
    pack = pan_pack(RULES)
    out = np.zeros(64, np.int64)
    for size in [1, 2, 3, 4, 5, 6, 8, 11, 14, 16] * 60:
        cards = rng.sample(pack[:80], size) if size % 2 else rng.sample(pack, size)
        got = set_order(_keys(cards), size, TABS[3], out)
        assert list(out[:got]) == [card_key(c) for c in set(cards)]


def _as_uses(rows: Any, m: int) -> list[Use]:
    """Kernel use rows as the engine's tuples, cards as keys."""
    out: list[Use] = []
    for r in rows[:m]:
        hand = tuple(int(k) for k in r[U_H:U_H + r[U_NH]])
        if r[U_KIND] == LAY:
            out.append(("lay_off", int(r[U_MELD])))
        elif r[U_KIND] == BORROW:
            out.append(("borrow", int(r[U_MELD]),
                        tuple(int(k) for k in r[U_B:U_B + r[U_NB]]), hand))
        else:
            out.append(("meld", hand))
    return out


def _engine_keys(uses: list[Use]) -> list[Use]:
    return [(u[0], u[1]) if u[0] == "lay_off" else
            ("meld", tuple(card_key(c) for c in u[1])) if u[0] == "meld" else
            ("borrow", u[1], tuple(card_key(c) for c in u[2]), tuple(card_key(c) for c in u[3]))
            for u in uses]


def test_card_uses_in_the_engines_order() -> None:
    """A card's uses (lay-offs, melds with hand cards, borrowing from sets and sequences,
    uses.card_uses) as the kernel lists them equal the engine's, in order, after every step
    of seeded hands (the hands and spreads bots hold): for every hand card with the rest of
    the hand, and for cards of the pack drawn at random."""
    rows = np.zeros((512, U_WIDTH), np.int64)
    seen = Counter[str]()
    distinct = list(dict.fromkeys(pan_pack(RULES)))
    pick = random.Random(4)

    def check(hand: PanHand) -> None:
        for s in hand.seats.values():
            melds = [(m.cards, m.kind) for m in s.melds]
            mc = np.zeros((8, 16), np.int64)
            ml = np.zeros(8, np.int64)
            mk = np.zeros(8, np.int64)
            for i, m in enumerate(s.melds):
                mc[i, :len(m.cards)] = _keys(m.cards)
                ml[i] = len(m.cards)
                mk[i] = 0 if m.kind is MeldKind.SET else 1
            asked = [(card, s.hand[:i] + s.hand[i + 1:]) for i, card in enumerate(s.hand)]
            asked += [(card, s.hand) for card in pick.sample(distinct, 6)]
            for card, rest in asked:
                want = _engine_keys(engine_uses(card, rest, melds, False))
                m = card_uses(card_key(card), _keys(rest), len(rest), mc, ml, mk, len(melds),
                              TABS, rows, 0)
                assert _as_uses(rows, m) == want
                seen.update(u[0] for u in want)

    rng = random.Random(3)
    for n in (2, 4, 8):
        for _ in range(4):
            hand = PanHand(RULES, [SeatSpec(f"s{i}", 40) for i in range(n)], 0,
                           fisher_yates(pan_pack(RULES), RngSource(rng)), record=False)
            advance(hand, [SoundBot() for _ in range(n)], RngSource(rng),
                    after=lambda _seat, h=hand: check(h))
    assert seen["lay_off"] and seen["meld"] and seen["borrow"]


def _engine_hand(cards: list[Card], n: int, dealer: int) -> tuple[Any, PanHand]:
    hand = PanHand(RULES, [SeatSpec(f"s{i}", 40) for i in range(n)], dealer, cards,
                   record=False)
    advance(hand, [SoundBot() for _ in range(n)], RngSource(random.Random(0)))
    turns, conditions = counted(hand)
    return (hand.winner, hand.end_reason, turns, payments(hand), conditions,
            [s.chips for s in hand.seats.values()], [card_key(c) for c in hand.stock]), hand


def test_every_hand_as_the_engine_plays_it() -> None:
    """Seeded packs, the same pack to both, at 2, 5 and 8 seats: every hand the kernel
    plays equals the engine's with sound bots (winner, ending, turns, tops/conditions/outs
    paid, conditions made, each seat's chips, the stock left), and the sample holds the
    rules that are easy to get wrong: takes of the option card (a turn 1), conditions and
    collections, going out and every other player passing. Sound bots never force each
    other (rules 12 and 13: each takes or melds what fits its spread before it draws on or
    discards), and the engine forces nothing in these hands either; the kernel asks the
    same questions after every discard and draw, and leaves a hand where one would force
    to the engine."""
    pack = pan_pack(RULES)
    tally = Counter[str]()
    for n, hands in ((2, 150), (5, 120), (8, 120)):
        rng = random.Random(100 + n)
        for h in range(hands):
            cards = fisher_yates(pack, RngSource(rng))
            got = kernel.play(_keys(cards), n, h % n, 40, RULES, TABS)
            want, hand = _engine_hand(cards, n, h % n)
            if got is None:
                tally["left to the engine"] += 1
                continue
            assert (got.winner, got.end_reason, got.turns, got.paid, got.conditions, got.chips,
                    [int(k) for k in got.stock]) == want, f"{n} seats, hand {h}"
            tally[got.end_reason] += 1
            tally["conditions"] += sum(got.conditions.values())
            for ev in hand.events:
                if isinstance(ev, Forced):
                    tally[ev.rule] += 1
                elif isinstance(ev, Took):
                    tally["took"] += 1
    for seen in ("went out", "every other player passed", "conditions", "took"):
        assert tally[seen] > 0, seen
    assert not tally[R.RULE_12] and not tally[R.RULE_13]
    assert tally["left to the engine"] <= 39


@pytest.mark.parametrize(("n", "packs", "hands"), [(2, 8, 300), (5, 8, 200), (8, 8, 200),
                                                   (12, 5, 100)])
def test_simulation_reports_equal_on_the_kernel(n: int, packs: int, hands: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """`simulate` on the kernel reports what it reports on the engine, to the chip, across
    chunks (the next pack made from the stock the kernel left); with five packs at twelve
    seats the stock runs out, and those hands are played again by the engine from their
    start (`FALLBACK`: the reshuffle draws from the table's source)."""
    rules = PanRules(packs=packs)
    plays = Counter[bool]()
    real = kernel.play

    def counting(*args: Any) -> kernel.KernelHand | None:
        out = real(*args)
        plays[out is None] += 1
        return out

    monkeypatch.setattr(kernel, "play", counting)
    on_kernel = simulate(hands, n, seed=9, rules=rules, chunk_hands=70).to_json()
    on_engine = simulate(hands, n, seed=9, rules=rules, chunk_hands=70,
                         compiled=False).to_json()
    for r in (on_kernel, on_engine):
        r.pop("seconds")
        r.pop("hands_per_second")
    assert on_kernel == on_engine
    assert plays[False] + plays[True] == hands
    if packs == 5:
        assert plays[True] > 0  # some hands left to the engine, and still the same report


def test_mixed_tables_and_other_rules_stay_on_the_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Random bots, or rules the kernel does not play (strict set additions), run on the
    engine: the kernel plays sound bots only, under the rules `kernel.supports`."""
    assert not kernel.supports(PanRules(strict_set_additions=True))
    assert not kernel.supports(PanRules(pass_forfeit_chips=1))
    assert kernel.supports(PanRules(spades_double=True, outs_chips=3))

    def refuse(*_: Any) -> None:
        raise AssertionError("the kernel plays sound bots under the rules it supports only")

    monkeypatch.setattr(kernel, "play", refuse)
    assert simulate(10, 2, seed=1, kinds=["sound", "random"]).hands == 10
    assert simulate(10, 2, seed=1, rules=PanRules(strict_set_additions=True)).hands == 10


def test_the_pack_between_hands_draws_as_the_engine_does() -> None:
    """The next pack in numba (`kernel_pack`) draws from the chunk's `random.Random` as
    `fisher_yates` with `RngSource` does (CPython's Mersenne Twister, `randrange`), and the
    generator's state goes back to Python where the kernel left it: the same shuffles, the
    same draws after."""
    for seed in range(5):
        ours, theirs = random.Random(seed), random.Random(seed)
        theirs.random()
        ours.random()
        cards = pan_pack(RULES)[: 40 + 60 * seed]
        mt, pos = kernel_pack.twister(ours)
        for _ in range(3):
            keys = _keys(cards)
            kernel_pack.shuffle(keys, mt, pos)
            cards = fisher_yates(cards, RngSource(theirs))
            assert list(keys) == [card_key(c) for c in cards]
        kernel_pack.give_back(ours, mt, pos)
        assert ours.random() == theirs.random()
        mt, pos = kernel_pack.twister(ours)
        assert [kernel_pack.randbelow(n, mt, pos) for n in (1, 2, 3, 255, 256, 2**31 + 1)] == \
            [theirs.randrange(n) for n in (1, 2, 3, 255, 256, 2**31 + 1)]
